// A game's own task system (WorldDef::enqueueTask / finishTask) gives the
// same bits as Carom's pool and as one worker; polygons of up to 8 vertices
// stored inline in the shape behave as the pooled ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <atomic>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include <carom/collision.hpp>
#include <carom/error.hpp>

#include "solver/parallel.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/threads.hpp"

namespace carom {
namespace {

using test::kDt;

// The smallest real task system: one std::thread per range, joined in finish
// (on a target without threads each range runs inline, test::MaybeThread).
struct ThreadTasks {
    std::atomic<int> enqueued{0};
    std::atomic<int> items{0};
    struct Job {
        std::vector<test::MaybeThread> threads;
    };
    static void* enqueue(TaskFn* task, int itemCount, int minRange, void* taskContext, void* user) {
        auto* self = static_cast<ThreadTasks*>(user);
        self->enqueued.fetch_add(1);
        self->items.fetch_add(itemCount);
        auto* job = new Job;
        const int range = std::max({minRange, 1, (itemCount + 3) / 4});
        int worker = 0;
        for (int begin = 0; begin < itemCount; begin += range, ++worker) {
            const int end = std::min(begin + range, itemCount);
            job->threads.emplace_back([=] { task(begin, end, worker, taskContext); });
        }
        return job;
    }
    static void finish(void* handle, void*) {
        auto* job = static_cast<Job*>(handle);
        for (test::MaybeThread& t : job->threads) t.join();
        delete job;
    }
};

// The degenerate task system: everything inline in enqueue, one item after
// another, last item first (a schedule no thread pool would choose).
struct SerialTasks {
    int enqueued = 0;
    static void* enqueue(TaskFn* task, int itemCount, int, void* taskContext, void* user) {
        ++static_cast<SerialTasks*>(user)->enqueued;
        for (int i = itemCount - 1; i >= 0; --i) task(i, i + 1, 0, taskContext);
        return nullptr;
    }
    static void finish(void*, void*) { ADD_FAILURE() << "finish called for a null handle"; }
};

// Big enough that colours and body loops split into several blocks: a
// 30-row pyramid, a rain of mixed shapes with restitution, and a chain.
void buildScene(World& w) {
    test::addGround(w, {0.0f, -0.5f}, 60.0f, 0.5f);
    for (int row = 0; row < 30; ++row)
        for (int i = 0; i < 30 - row; ++i)
            test::addBox(w, {(float(i) - 0.5f * float(29 - row)) * 1.05f, 0.5f + float(row)}, 0.5f,
                         0.5f);
    for (int i = 0; i < 200; ++i) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {-40.0f + 0.4f * float(i % 50), 4.0f + 1.1f * float(i / 50)};
        bd.angle = 0.1f * float(i);
        BodyId b = w.createBody(bd);
        ShapeDef sd;
        sd.restitution = 0.1f * float(i % 5);
        if (i % 2 == 0)
            w.createShape(b, sd, Circle{{0.0f, 0.0f}, 0.18f});
        else
            w.createShape(b, sd, makeBox(0.18f, 0.12f));
    }
    test::addLinkChain(w, {40.0f, 12.0f}, 10);
}

uint64_t runScene(const WorldDef& def, int steps = 90) {
    World w(def);
    buildScene(w);
    for (int i = 0; i < steps; ++i) w.step(kDt);
    return w.stateHash();
}

TEST(Tasks, GameTaskSystemGivesTheSameBits) {
    WorldDef one;
    const uint64_t reference = runScene(one);

    WorldDef pool = one;
    pool.workerCount = 2;
    EXPECT_EQ(runScene(pool), reference) << "built-in pool, 2 workers";
    pool.workerCount = 4;
    EXPECT_EQ(runScene(pool), reference) << "built-in pool, 4 workers";

    for (int workers : {2, 3}) {
        ThreadTasks tasks;
        WorldDef def = one;
        def.workerCount = workers;
        def.enqueueTask = &ThreadTasks::enqueue;
        def.finishTask = &ThreadTasks::finish;
        def.userTaskContext = &tasks;
        EXPECT_EQ(runScene(def), reference) << "std::thread tasks, " << workers << " workers";
        // The solve is one task per step, besides the collide and prepare loops.
        EXPECT_GE(tasks.enqueued.load(), 90) << workers;
        EXPECT_GT(tasks.items.load(), 0);
    }

    SerialTasks serial;
    WorldDef def = one;
    def.workerCount = 3;
    def.enqueueTask = &SerialTasks::enqueue;
    def.finishTask = &SerialTasks::finish;
    def.userTaskContext = &serial;
    EXPECT_EQ(runScene(def), reference) << "serial tasks";
    EXPECT_GE(serial.enqueued, 90);
}

TEST(Tasks, OneWorkerNeverCallsTheTaskSystem) {
    ThreadTasks tasks;
    WorldDef def;
    def.enqueueTask = &ThreadTasks::enqueue;
    def.finishTask = &ThreadTasks::finish;
    def.userTaskContext = &tasks;
    runScene(def, 10);
    EXPECT_EQ(tasks.enqueued.load(), 0);
}

TEST(Tasks, CallbacksComeTogether) {
    WorldDef def;
    def.enqueueTask = &ThreadTasks::enqueue;
    EXPECT_THROW(World{def}, Error);
    def.enqueueTask = nullptr;
    def.finishTask = &ThreadTasks::finish;
    EXPECT_THROW(World{def}, Error);
}

// StagePlan's side job (the world's deferred tree flush beside the solver):
// it runs once, beside the stages, and run() returns only once it is done,
// for one worker, Carom's pool and two game task systems (threads; all
// inline in enqueue); every stage still
// runs each of its items exactly once.
TEST(Tasks, StagePlanSideJobRunsOnceBesideTheStages) {
    ThreadTasks tasks;
    SerialTasks serial;
    detail::WorkerPool pool;
    for (int mode = 0; mode < 4; ++mode) {
        SCOPED_TRACE("mode " + std::to_string(mode));
        detail::TaskDispatch dispatch;
        dispatch.workers = mode == 0 ? 1 : 2;
        dispatch.pool = &pool;
        if (mode == 2) {
            dispatch.enqueue = &ThreadTasks::enqueue;
            dispatch.finish = &ThreadTasks::finish;
            dispatch.userContext = &tasks;
        }
        if (mode == 3) {
            dispatch.enqueue = &SerialTasks::enqueue;
            dispatch.finish = &SerialTasks::finish;
            dispatch.userContext = &serial;
        }
        struct Ctx {
            std::vector<std::atomic<int>> hits = std::vector<std::atomic<int>>(4000);
            std::atomic<int> sideRuns{0};
            std::atomic<bool> sideDone{false};
        } ctx;
        detail::StagePlan plan;
        for (int k = 0; k < 4; ++k) plan.add(0, k, k * 1000, 1000, 16, 64);
        plan.setSideJob(
            [](void* c) {
                auto& x = *static_cast<Ctx*>(c);
                x.sideRuns.fetch_add(1);
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
                x.sideDone.store(true);
            },
            &ctx);
        plan.run(
            dispatch,
            [](void* c, const detail::Stage&, int begin, int end) {
                for (int i = begin; i < end; ++i)
                    static_cast<Ctx*>(c)->hits[size_t(i)].fetch_add(1);
            },
            &ctx);
        EXPECT_TRUE(ctx.sideDone.load());
        EXPECT_EQ(ctx.sideRuns.load(), 1);
        for (const auto& h : ctx.hits) ASSERT_EQ(h.load(), 1);
        // The side job was for that run only.
        plan.run(
            dispatch, [](void*, const detail::Stage&, int, int) {}, &ctx);
        EXPECT_EQ(ctx.sideRuns.load(), 1);
    }
}

// The pool's threads and a stage's waiters fall asleep and are woken again,
// many times over: tasks come after pauses long enough for the idle threads
// to sleep, and one slow block per stage, slow by a varying time around the
// waiters' spin, makes the other participants fall asleep on the stage just
// as it completes. A lost wake-up hangs here (the test's timeout); every
// item still runs exactly once. Four workers: more threads than CI's cores.
TEST(Tasks, SleepingWorkersAlwaysWake) {
    detail::WorkerPool pool;
    detail::TaskDispatch dispatch;
    dispatch.workers = 4;
    dispatch.pool = &pool;
    struct Ctx {
        std::vector<std::atomic<int>> hits = std::vector<std::atomic<int>>(256);
        int delayUs = 0;
    } ctx;
    detail::StagePlan plan;
    for (int k = 0; k < 4; ++k) plan.add(0, k, k * 64, 64, 4, 16);
    constexpr int kRounds = 600;
    for (int round = 0; round < kRounds; ++round) {
        if (round % 8 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ctx.delayUs = (round * 37) % 400;
        plan.run(
            dispatch,
            [](void* c, const detail::Stage&, int begin, int end) {
                auto& x = *static_cast<Ctx*>(c);
                if (begin % 64 == 0) {
                    const auto until =
                        std::chrono::steady_clock::now() + std::chrono::microseconds(x.delayUs);
                    while (std::chrono::steady_clock::now() < until) {
                    }
                }
                for (int i = begin; i < end; ++i) x.hits[size_t(i)].fetch_add(1);
            },
            &ctx);
        std::atomic<int> items{0};
        auto count = [&](int begin, int end) { items.fetch_add(end - begin); };
        detail::runParts(dispatch, 8, count);
        ASSERT_EQ(items.load(), 8) << "round " << round;
    }
    for (const auto& h : ctx.hits) ASSERT_EQ(h.load(), kRounds);
}

// Regular n-gon of circumradius r.
Polygon regular(int n, float r) {
    std::vector<Vec2> points;
    for (int i = 0; i < n; ++i) {
        const float a = 2.0f * kPi * float(i) / float(n);
        points.push_back({r * std::cos(a), r * std::sin(a)});
    }
    return makePolygon(points);
}

void expectSamePolygon(const Polygon& a, const Polygon& b) {
    ASSERT_EQ(a.count, b.count);
    EXPECT_EQ(a.radius, b.radius);
    EXPECT_EQ(a.centroid.x, b.centroid.x);
    EXPECT_EQ(a.centroid.y, b.centroid.y);
    for (int i = 0; i < a.count; ++i) {
        EXPECT_EQ(a.vertices[size_t(i)].x, b.vertices[size_t(i)].x);
        EXPECT_EQ(a.vertices[size_t(i)].y, b.vertices[size_t(i)].y);
        EXPECT_EQ(a.normals[size_t(i)].x, b.normals[size_t(i)].x);
        EXPECT_EQ(a.normals[size_t(i)].y, b.normals[size_t(i)].y);
    }
}

// Inline (<= 8 vertices) and pooled (more) polygons keep their geometry
// exactly, also when setGeometry moves a shape from one storage to the other.
TEST(InlinePolygons, GeometryRoundTrips) {
    World w{WorldDef{}};
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    const BodyId body = w.createBody(bd);
    const ShapeId s = w.createShape(body, ShapeDef{}, makeBox(0.5f, 0.25f));
    expectSamePolygon(std::get<Polygon>(w.geometry(s)), makeBox(0.5f, 0.25f));
    for (int n : {8, 9, 20, 3, 64, 7}) {
        const Polygon p = regular(n, 0.7f);
        ASSERT_EQ(p.count, n);
        w.setGeometry(s, p);
        expectSamePolygon(std::get<Polygon>(w.geometry(s)), p);
    }
    const Polygon rounded = makeRoundedBox(0.4f, 0.2f, 0.05f);
    w.setGeometry(s, rounded);
    expectSamePolygon(std::get<Polygon>(w.geometry(s)), rounded);
}

// The world's manifolds for inline and pooled polygons touching a ground
// box equal the public collide() on the same geometry and the poses the step
// started from; each polygon then comes to rest on a flat side, its centre
// one apothem r cos(pi/n) above the ground.
TEST(InlinePolygons, WorldContactsMatchCollide) {
    World w{WorldDef{}};
    const BodyId ground = test::addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f);
    const std::vector<int> sides{4, 6, 8, 9, 12, 16};
    std::vector<BodyId> bodies;
    for (int n : sides) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {-10.0f + 3.0f * float(bodies.size()),
                       0.7f * std::cos(kPi / float(n)) + 0.005f};
        bd.angle = kPi / float(n) + 0.02f;  // nearly an edge down
        const BodyId b = w.createBody(bd);
        w.createShape(b, ShapeDef{}, regular(n, 0.7f));
        bodies.push_back(b);
    }
    // Contacts start one step after their pair is found: step until they
    // touch, keeping the poses each step started from.
    const Transform groundXf = w.transform(ground);
    std::vector<Transform> before;
    auto allTouch = [&] {
        for (const BodyId b : bodies)
            if (w.contacts(b).empty()) return false;
        return true;
    };
    for (int tries = 0; tries < 10 && !allTouch(); ++tries) {
        before.clear();
        for (const BodyId b : bodies) before.push_back(w.transform(b));
        w.step(kDt);
    }
    const ShapeId groundShape = w.shapes(ground)[0];
    for (size_t k = 0; k < bodies.size(); ++k) {
        const std::vector<ContactData> contacts = w.contacts(bodies[k]);
        ASSERT_EQ(contacts.size(), 1u) << sides[k];
        const ContactData& c = contacts[0];
        ASSERT_GT(c.pointCount, 0) << sides[k];
        const bool groundFirst = c.shapeA == groundShape;
        const Transform& xfA = groundFirst ? groundXf : before[k];
        const Transform& xfB = groundFirst ? before[k] : groundXf;
        const Manifold m = collide(w.geometry(c.shapeA), xfA, w.geometry(c.shapeB), xfB);
        ASSERT_EQ(m.pointCount, c.pointCount) << sides[k];
        EXPECT_EQ(m.normal.x, c.normal.x) << sides[k];
        EXPECT_EQ(m.normal.y, c.normal.y) << sides[k];
        for (int i = 0; i < m.pointCount; ++i) {
            EXPECT_EQ(m.points[i].separation, c.points[i].separation) << sides[k];
            EXPECT_EQ(m.points[i].point.x, c.points[i].point.x) << sides[k];
            EXPECT_EQ(m.points[i].point.y, c.points[i].point.y) << sides[k];
        }
    }
    for (int i = 0; i < 180; ++i) w.step(kDt);
    for (size_t k = 0; k < bodies.size(); ++k) {
        const float apothem = 0.7f * std::cos(kPi / float(sides[k]));
        EXPECT_NEAR(w.transform(bodies[k]).p.y, apothem, 0.02f) << sides[k];
    }
}

}  // namespace
}  // namespace carom
