// Events, sensors, filtering and user hooks.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/world/world_impl.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::kDt;

TEST(Events, ContactBeginEndAndHit) {
    World w;
    BodyDef gd;
    BodyId ground = w.createBody(gd);
    ShapeDef gsd;
    gsd.enableHitEvents = true;
    ShapeId groundShape = w.createShape(ground, gsd, makeBox(10.0f, 0.5f));
    BodyId ball = test::addBall(w, {0.0f, 3.0f}, 0.25f, 0.0f);
    int begins = 0, ends = 0, hits = 0;
    float hitSpeed = 0.0f;
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        ContactEvents ev = w.contactEvents();
        begins += int(ev.begin.size());
        ends += int(ev.end.size());
        for (const auto& h : ev.hit) {
            ++hits;
            hitSpeed = h.approachSpeed;
            EXPECT_TRUE(h.shapeA == groundShape || h.shapeB == groundShape);
        }
    }
    EXPECT_EQ(begins, 1);
    EXPECT_EQ(ends, 0);
    EXPECT_EQ(hits, 1);
    // Dropped from 2.25 m: v = √(2 g h) ≈ 6.7 m/s.
    EXPECT_NEAR(hitSpeed, std::sqrt(2.0f * 10.0f * 2.25f), 0.3f);
    // Teleporting the ball away ends the contact; destroying it reports nothing more.
    w.setTransform(ball, {50.0f, 50.0f}, 0.0f);
    w.step(kDt);
    EXPECT_EQ(w.contactEvents().end.size(), 1u);
    EXPECT_TRUE(w.contacts().empty());
}

// step(0) refreshes contacts (begin events, manifolds) and moves nothing.
TEST(Events, ZeroStepUpdatesContactsOnly) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId box = test::addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    w.step(0.0f);
    EXPECT_EQ(w.contactEvents().begin.size(), 1u);
    EXPECT_EQ(w.contacts(box).size(), 1u);
    EXPECT_EQ(w.position(box), Vec2(0.0f, 0.5f));
    EXPECT_EQ(w.linearVelocity(box), Vec2(0.0f, 0.0f));
    EXPECT_TRUE(w.bodyMoveEvents().empty());
}

TEST(Events, DestroyingATouchingShapeReportsEndOnNextStep) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId box = test::addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    test::run(w, 10);
    ASSERT_EQ(w.contacts(box).size(), 1u);
    w.destroyBody(box);
    w.step(kDt);
    EXPECT_EQ(w.contactEvents().end.size(), 1u);
    EXPECT_EQ(w.counters().contacts, 0);
}

TEST(Events, SensorBeginEndAndNoResponse) {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World w(def);
    BodyId holder = w.createBody(BodyDef{});
    ShapeDef sd;
    sd.isSensor = true;
    ShapeId sensor = w.createShape(holder, sd, makeBox(1.0f, 1.0f));
    // A second sensor overlapping the first, off the ball's path: sensors
    // do not see sensors, so it reports nothing.
    ShapeId other = w.createShape(w.createBody(BodyDef{}), sd, Circle{{0.0f, 1.0f}, 0.3f});
    BodyId ball = test::addBall(w, {-3.0f, 0.0f}, 0.25f, 0.0f, {3.0f, 0.0f});
    std::vector<int> beginSteps, endSteps;
    for (int i = 0; i < 150; ++i) {
        w.step(kDt);
        SensorEvents ev = w.sensorEvents();
        for (const auto& b : ev.begin) {
            EXPECT_EQ(b.sensorShape, sensor);
            EXPECT_NE(b.visitorShape, other);
            beginSteps.push_back(i);
        }
        for (const auto& e : ev.end) {
            EXPECT_EQ(e.sensorShape, sensor);
            endSteps.push_back(i);
        }
    }
    ASSERT_EQ(beginSteps.size(), 1u);
    ASSERT_EQ(endSteps.size(), 1u);
    EXPECT_NEAR(w.linearVelocity(ball).x, 3.0f, 1e-5f);  // no collision response
    // Enters at x = -1.25 (t = 0.58 s), leaves at x = 1.25 (t = 1.42 s).
    EXPECT_NEAR(float(beginSteps[0]) * kDt, 1.75f / 3.0f, 2.0f * kDt);
    EXPECT_NEAR(float(endSteps[0]) * kDt, 4.25f / 3.0f, 2.0f * kDt);
}

TEST(Events, FilterCategoriesMasksAndGroups) {
    EXPECT_TRUE(detail::filtersCollide(Filter{1, ~0ull, 0}, Filter{2, ~0ull, 0}));
    EXPECT_FALSE(detail::filtersCollide(Filter{1, 2, 0}, Filter{4, ~0ull, 0}));
    EXPECT_FALSE(detail::filtersCollide(Filter{1, ~0ull, -1}, Filter{1, ~0ull, -1}));
    EXPECT_TRUE(detail::filtersCollide(Filter{1, 0, 2}, Filter{4, 0, 2}));
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    auto drop = [&](Vec2 p, Filter f) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = p;
        BodyId b = w.createBody(bd);
        ShapeDef sd;
        sd.filter = f;
        w.createShape(b, sd, makeBox(0.5f, 0.5f));
        return b;
    };
    // Lower box: category 2. Upper box: mask excludes 2 → falls through it and rests on the ground.
    BodyId lower = drop({0.0f, 0.5f}, Filter{2, ~0ull, 0});
    BodyId upper = drop({0.0f, 2.0f}, Filter{1, ~0ull & ~2ull, 0});
    // Same negative group: never collide even though masks agree.
    BodyId g1 = drop({5.0f, 0.5f}, Filter{1, ~0ull, -3});
    BodyId g2 = drop({5.0f, 2.0f}, Filter{1, ~0ull, -3});
    test::run(w, 120);
    EXPECT_NEAR(w.position(lower).y, 0.5f, 0.02f);
    EXPECT_NEAR(w.position(upper).y, 0.5f, 0.02f);
    EXPECT_NEAR(w.position(g2).y, 0.5f, 0.02f);
    EXPECT_NEAR(w.position(g1).y, 0.5f, 0.02f);
    // Changing the filter at run time takes effect: the upper box is pushed out.
    w.setFilter(w.shapes(upper)[0], Filter{1, ~0ull, 0});
    test::run(w, 120);
    EXPECT_GT(std::fabs(w.position(upper).y - w.position(lower).y) +
                  std::fabs(w.position(upper).x - w.position(lower).x),
              0.9f);
}

TEST(Events, CustomFilterVetoesPairs) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId a = test::addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    BodyId b = test::addBox(w, {0.0f, 2.0f}, 0.5f, 0.5f);
    const ShapeId sa = w.shapes(a)[0], sb = w.shapes(b)[0];
    w.setCustomFilterCallback(
        [&](ShapeId x, ShapeId y) { return !((x == sa && y == sb) || (x == sb && y == sa)); });
    test::run(w, 120);
    EXPECT_NEAR(w.position(b).y, 0.5f, 0.02f);
}

// One-way platform: the pre-solve callback disables the contact while the
// body is below the platform or moving up.
TEST(Events, PreSolveMakesOneWayPlatform) {
    World w;
    BodyId platformBody = w.createBody(BodyDef{});
    ShapeDef psd;
    psd.enablePreSolveEvents = true;
    ShapeId platform =
        w.createShape(platformBody, psd, makeOffsetBox(3.0f, 0.1f, {0.0f, 3.0f}, 0.0f));
    BodyId ball = test::addBall(w, {0.0f, 0.0f}, 0.25f, 0.0f, {0.0f, 12.0f});
    int calls = 0;
    w.setPreSolveCallback([&](ShapeId a, ShapeId b, const ContactData& c) {
        ++calls;
        const float sign = a == platform ? 1.0f : -1.0f;  // normal from platform to the other shape
        (void)b;
        return sign * c.normal.y > 0.5f && w.linearVelocity(ball).y <= 0.0f;
    });
    test::run(w, 180);
    EXPECT_GT(calls, 0);
    EXPECT_NEAR(w.position(ball).y, 3.1f + 0.25f, 0.03f);  // landed on top
}

// Callbacks must not change the world (refused with Locked); a callback
// that throws leaves the step, and the world is usable afterwards.
TEST(Events, CallbacksAreLockedAndAThrowDoesNotLockTheWorld) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    ShapeDef sd;
    sd.enablePreSolveEvents = true;
    BodyId box = w.createBody([] {
        BodyDef d;
        d.type = BodyType::Dynamic;
        d.position = {0.0f, 0.5f};
        return d;
    }());
    w.createShape(box, sd, makeBox(0.5f, 0.5f));
    bool refused = false;
    w.setPreSolveCallback([&](ShapeId, ShapeId, const ContactData&) {
        try {
            w.createBody(BodyDef{});
        } catch (const Error& e) {
            refused = e.code() == ErrorCode::Locked;
        }
        throw std::runtime_error("user callback failed");
        return true;
    });
    EXPECT_THROW(w.step(kDt), std::runtime_error);
    EXPECT_TRUE(refused);
    w.setPreSolveCallback(nullptr);
    EXPECT_NO_THROW(w.createBody(BodyDef{}));
    test::run(w, 10);
    EXPECT_NEAR(w.position(box).y, 0.5f, 0.02f);
}

// The custom filter runs on the thread that calls step(), also where the
// continuous stage splits many fast bodies among the workers: 256 small
// balls shot through the ground at 4 workers, 20 times, each asked of the
// ground on its sweep.
TEST(Events, CustomFilterRunsOnTheSteppingThreadOnly) {
    WorldDef def;
    def.workerCount = 4;
    World w(def);
    test::addGround(w, {0.0f, -0.5f}, 80.0f, 0.5f);
    std::vector<BodyId> balls;
    for (int i = 0; i < 256; ++i)
        balls.push_back(test::addBall(w, {-64.0f + 0.5f * float(i), 1.5f}, 0.05f));
    const std::thread::id stepper = std::this_thread::get_id();
    std::atomic<int> calls{0}, elsewhere{0};
    w.setCustomFilterCallback([&](ShapeId, ShapeId) {
        ++calls;
        if (std::this_thread::get_id() != stepper) ++elsewhere;
        // A game's filter that takes a while (20 us): workers woken for the
        // stage have time to take their parts of it.
        const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
        while (std::chrono::steady_clock::now() < until) {
        }
        return true;
    });
    for (int shot = 0; shot < 20; ++shot) {
        for (int i = 0; i < 256; ++i) {
            w.setTransform(balls[size_t(i)], {-64.0f + 0.5f * float(i), 1.5f}, 0.0f);
            w.setLinearVelocity(balls[size_t(i)], {0.0f, -150.0f});
        }
        w.step(test::kDt);
        for (BodyId b : balls) ASSERT_GT(w.position(b).y, -0.01f) << "shot " << shot;
    }
    EXPECT_GE(calls.load(), 256 * 20);
    EXPECT_EQ(elsewhere.load(), 0);
}

}  // namespace
}  // namespace carom

namespace carom {
namespace {

struct Recorder : DebugDraw {
    int points = 0, segments = 0, polygons = 0;
    std::vector<uint32_t> polygonColors;
    void drawPoint(Vec2, float, uint32_t) override { ++points; }
    void drawSegment(Vec2, Vec2, uint32_t) override { ++segments; }
    void drawPolygon(std::span<const Vec2>, uint32_t color) override {
        ++polygons;
        polygonColors.push_back(color);
    }
};

// Debug drawing of the solver's state: contact points and normals, islands
// (sleeping in their own colour), broadphase nodes, continuous sweeps.
TEST(Events, DebugDrawShowsSolverState) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    test::addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    test::run(w, 10);
    DebugDrawFlags only;
    only.shapes = only.joints = false;
    {
        DebugDrawFlags f = only;
        f.contactPoints = f.contactNormals = true;
        Recorder r;
        w.draw(r, f);
        EXPECT_EQ(r.points, 2);
        EXPECT_EQ(r.segments, 2);
    }
    {
        DebugDrawFlags f = only;
        f.islands = true;
        Recorder r;
        w.draw(r, f);
        ASSERT_EQ(r.polygons, 1);
        EXPECT_EQ(r.polygonColors[0], colors::kIsland);
        test::run(w, 60);
        Recorder asleep;
        w.draw(asleep, f);
        ASSERT_EQ(asleep.polygons, 1);
        EXPECT_EQ(asleep.polygonColors[0], colors::kSleeping);
    }
    {
        DebugDrawFlags f = only;
        f.broadphase = true;
        Recorder r;
        w.draw(r, f);
        EXPECT_GE(r.polygons, 2);
    }
    {
        WorldDef def;
        def.gravity = {0.0f, 0.0f};
        World fast(def);
        test::addGround(fast, {5.0f, 0.0f}, 0.05f, 2.0f);
        test::addBall(fast, {0.0f, 0.0f}, 0.1f, 0.0f, {200.0f, 0.0f});
        fast.step(kDt);
        fast.step(kDt);
        DebugDrawFlags f = only;
        f.continuous = true;
        Recorder r;
        fast.draw(r, f);
        EXPECT_EQ(r.segments, 1);
        EXPECT_GE(r.points, 2);  // sweep start and the pose the time of impact kept
    }
}

}  // namespace
}  // namespace carom
