// The world's invariants (engine/world/invariants.hpp): they hold after every
// step of a world that the API keeps changing, and each one, broken on
// purpose, is reported by its name.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <carom/world.hpp>

#include "engine/world/invariants.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/internals.hpp"

namespace carom {
namespace {

using detail::BrokenInvariant;
using test::addBox;
using test::addGround;
using test::kDt;

struct Scene {
    World world;
    BodyId ground, box, top, ball, kinematic;
    JointId hinge;
};

// Ground, a stack of two boxes, a hinged pair, a kinematic mover, a ball
// resting on a chain and a sensor: every kind of link an island can have.
Scene makeScene(int workers) {
    WorldDef def;
    def.workerCount = workers;
    Scene s{World(def), {}, {}, {}, {}, {}, {}};
    World& w = s.world;
    s.ground = addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f);
    s.box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    s.top = addBox(w, {0.0f, 1.5f}, 0.5f, 0.5f);
    const BodyId a = addBox(w, {4.0f, 0.5f}, 0.5f, 0.5f);
    const BodyId b = addBox(w, {5.0f, 0.5f}, 0.5f, 0.5f);
    s.hinge = w.createJoint(w.makeRevoluteJointDef(a, b, {4.5f, 0.5f}));
    BodyDef kd;
    kd.type = BodyType::Kinematic;
    kd.position = {-4.0f, 0.5f};
    kd.linearVelocity = {0.5f, 0.0f};
    s.kinematic = w.createBody(kd);
    w.createShape(s.kinematic, ShapeDef{}, makeBox(0.5f, 0.5f));
    const BodyId level = w.createBody(BodyDef{});
    ChainDef chain;
    chain.points = {{8.0f, 0.0f}, {10.0f, 0.0f}, {12.0f, 0.0f}, {14.0f, 0.0f}};
    w.createChain(level, chain);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {10.0f, 0.5f};
    s.ball = w.createBody(bd);
    w.createShape(s.ball, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
    ShapeDef sensor;
    sensor.isSensor = true;
    sensor.enableSensorEvents = true;
    w.createShape(s.ground, sensor, makeBox(1.0f, 2.0f));
    return s;
}

BrokenInvariant check(World& w, bool boxesCurrent = true) {
    std::vector<int> marks;
    return detail::findBrokenInvariant(internals(w), boxesCurrent, marks);
}

// Steps a world while the API changes it between steps (bodies disabled and
// enabled, retyped, teleported, destroyed, shapes added and removed, a joint
// destroyed, sleep): after each step every invariant holds, at one worker
// and at four.
TEST(Invariants, HoldWhileTheApiChangesTheWorld) {
    for (int workers : {1, 4}) {
        SCOPED_TRACE("workers " + std::to_string(workers));
        Scene s = makeScene(workers);
        World& w = s.world;
        ASSERT_FALSE(check(w)) << check(w).name;
        BodyId extra{};
        for (int step = 0; step < 240; ++step) {
            switch (step) {
                case 20:
                    w.disableBody(s.top);
                    break;
                case 40:
                    w.enableBody(s.top);
                    break;
                case 60:
                    w.setBodyType(s.box, BodyType::Kinematic);
                    break;
                case 80:
                    w.setBodyType(s.box, BodyType::Dynamic);
                    break;
                case 100:
                    w.setTransform(s.ball, {11.0f, 2.0f}, 0.3f);
                    break;
                case 120:
                    extra = addBox(w, {0.0f, 3.0f}, 0.25f, 0.25f);
                    break;
                case 140:
                    w.createShape(extra, ShapeDef{}, Circle{{0.3f, 0.0f}, 0.2f});
                    break;
                case 150:
                    w.destroyShape(w.shapes(extra).front());
                    break;
                case 160:
                    w.destroyJoint(s.hinge);
                    break;
                case 180:
                    w.setAwake(s.top, false);
                    break;
                case 200:
                    w.destroyBody(s.box);
                    break;
                default:
                    break;
            }
            w.step(kDt);
            const BrokenInvariant b = check(w);
            ASSERT_FALSE(b) << "step " << step << ": " << b.name << ": " << b.detail;
        }
    }
}

// A game's callback that throws inside the step: the exception passes out
// of step() once the step is done, the callback is not called again in that
// step, every invariant holds afterwards (no contact left touching without
// its flag, link or event), and the world steps on to rest. Each callback
// the step makes: custom filter (pairs), friction and restitution mixing
// (contact creation), pre-solve (collide).
TEST(Invariants, HoldAfterAGameCallbackThrowsInsideTheStep) {
    for (int kind = 0; kind < 4; ++kind) {
        SCOPED_TRACE("callback " + std::to_string(kind));
        Scene s = makeScene(1);
        World& w = s.world;
        int calls = 0;
        auto fail = [&calls]() -> bool {
            ++calls;
            throw std::runtime_error("game callback failed");
        };
        switch (kind) {
            case 0:
                w.setCustomFilterCallback([&](ShapeId, ShapeId) { return fail(); });
                break;
            case 1:
                w.setFrictionCallback(
                    [&](float, uint64_t, float, uint64_t) { return fail() ? 1.0f : 0.0f; });
                break;
            case 2:
                w.setRestitutionCallback(
                    [&](float, uint64_t, float, uint64_t) { return fail() ? 1.0f : 0.0f; });
                break;
            default: {
                ShapeDef sd;
                sd.enablePreSolveEvents = true;
                w.createShape(s.box, sd, Circle{{0.0f, 0.0f}, 0.5f});
                w.setPreSolveCallback([&](ShapeId, ShapeId, const ContactData&) { return fail(); });
                break;
            }
        }
        if (kind == 1 || kind == 2) calls = 0;  // the setter mixed no contact yet
        EXPECT_THROW(w.step(kDt), std::runtime_error);
        EXPECT_EQ(calls, 1);
        const BrokenInvariant b = check(w);
        ASSERT_FALSE(b) << b.name << ": " << b.detail;
        // Only the callback set is cleared: clearing another re-mixes the
        // contacts through it, outside the step, and that throws (a setter's
        // own guarantee).
        switch (kind) {
            case 0:
                w.setCustomFilterCallback(nullptr);
                break;
            case 1:
                w.setFrictionCallback(nullptr);
                break;
            case 2:
                w.setRestitutionCallback(nullptr);
                break;
            default:
                w.setPreSolveCallback(nullptr);
                break;
        }
        for (int k = 0; k < 60; ++k) {
            w.step(kDt);
            ASSERT_FALSE(check(w)) << "step " << k;
        }
        EXPECT_NEAR(w.position(s.box).y, 0.5f, 0.05f);
    }
}

// Each invariant, broken by hand in the internal state of a world where all
// hold, is the one reported, by its name.
TEST(Invariants, EachBrokenInvariantIsReportedByItsName) {
    using Breaker = void (*)(Scene&);
    struct Case {
        const char* name;
        Breaker breakIt;
        bool boxesCurrent;
    };
    const Case cases[] = {
        {"finite-state",
         [](Scene& s) {
             internals(s.world).bodies[size_t(s.box.index)].w =
                 std::numeric_limits<float>::quiet_NaN();
         },
         true},
        {"body-shapes",
         [](Scene& s) {
             auto& w = internals(s.world);
             w.shapes[size_t(w.bodies[size_t(s.box.index)].shapes[0])].bodySlot = 3;
         },
         true},
        {"awake-set", [](Scene& s) { internals(s.world).awakeBodies.pop_back(); }, true},
        {"island-membership",
         [](Scene& s) {
             auto& w = internals(s.world);
             const int island = w.bodies[size_t(s.box.index)].islandId;
             w.islands[size_t(island)].bodies.push_back(s.box.index);
         },
         true},
        {"island-sleep",
         [](Scene& s) {
             auto& w = internals(s.world);
             w.islands[size_t(w.bodies[size_t(s.box.index)].islandId)].awake = false;
         },
         true},
        {"contact-graph",
         [](Scene& s) {
             auto& w = internals(s.world);
             w.contactEnds[size_t(w.bodies[size_t(s.top.index)].contacts[0])].touching ^= 1;
         },
         true},
        {"contact-islands",
         [](Scene& s) {
             auto& w = internals(s.world);
             for (int ci : w.bodies[size_t(s.top.index)].contacts)
                 w.contacts[size_t(ci)].flags &= ~detail::kContactLinked;
         },
         true},
        {"joint-graph",
         [](Scene& s) { internals(s.world).joints[size_t(s.hinge.index)].islandLinked = false; },
         true},
        {"broadphase-proxies",
         [](Scene& s) {
             auto& w = internals(s.world);
             auto& shape = w.shapes[size_t(w.bodies[size_t(s.ball.index)].shapes[0])];
             shape.aabb.lower.x += 5.0f;
             shape.aabb.upper.x += 5.0f;
         },
         true},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        Scene s = makeScene(1);
        for (int k = 0; k < 10; ++k) s.world.step(kDt);
        ASSERT_FALSE(check(s.world));
        c.breakIt(s);
        const BrokenInvariant b = check(s.world, c.boxesCurrent);
        ASSERT_TRUE(b);
        EXPECT_STREQ(b.name, c.name) << b.detail;
        EXPECT_FALSE(b.detail.empty());
    }
    // Between the solver and the finalize stage, boxes ahead of their
    // proxies are not a fault.
    Scene s = makeScene(1);
    s.world.step(kDt);
    auto& w = internals(s.world);
    auto& shape = w.shapes[size_t(w.bodies[size_t(s.ball.index)].shapes[0])];
    shape.aabb.lower.x += 5.0f;
    shape.aabb.upper.x += 5.0f;
    EXPECT_FALSE(check(s.world, false));
}

#if GTEST_HAS_DEATH_TEST
// The validation build's stop: the invariant's name, the stage and the object.
TEST(InvariantsDeathTest, ABrokenInvariantStopsNamingItAndTheStage) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    Scene s = makeScene(1);
    s.world.step(kDt);
    internals(s.world).joints[size_t(s.hinge.index)].islandLinked = false;
    EXPECT_DEATH(detail::validateStage(internals(s.world), "solve", false),
                 "carom: invariant joint-graph broken after solve: joint [0-9]+");
}
#endif

}  // namespace
}  // namespace carom
