// The World while it runs the game's code: inside every callback (queries,
// casts, the mover's, friction and restitution mixing, pre-solve, custom
// filter, the task hooks, a DebugDraw) the world is locked, and each
// changing call is refused with ErrorCode::Locked, leaving the world as it
// was (a change could free the tree node a query stands on). A mixing callback
// that throws leaves its setter's world as it was. Event spans keep their
// contents across restore(); explode() keeps to the impulse and speed
// bounds as applyLinearImpulse does.
#include <cmath>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

#include "tests/support/internals.hpp"
#include "tests/foundation/world_checks.hpp"

namespace carom::test {
namespace {

constexpr float kDt = 1.0f / 60.0f;

// Every changing call of the World, on the fixture's objects, with
// arguments that are valid or at least refused only after the lock (the
// lock is checked first: setDistanceJointLength on the revolute joint
// must say Locked, not "wrong joint type").
std::vector<std::pair<std::string, std::function<void()>>> changingCalls(
    Fixture& f, const carom::Snapshot& snap, const WarmState& warm) {
    World& w = f.world;
    const BodyId ground = f.ground, b = f.box;
    const ShapeId s = f.boxShape;
    const JointId j = f.joint;
    const ChainId chain = w.chains(ground).empty() ? ChainId{} : w.chains(ground)[0];
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    const RevoluteJointDef rd = w.makeRevoluteJointDef(ground, b, {0.0f, 4.0f});
    FilterJointDef fd;
    fd.bodyA = ground;
    fd.bodyB = b;
    ChainDef cd;
    cd.points = {{4.0f, 8.0f}, {-4.0f, 8.0f}};
    return {
        {"step", [=, &w] { w.step(kDt); }},
        {"step substeps", [=, &w] { w.step(kDt, 2); }},
        {"setGravity",
         [=, &w] {
             w.setGravity({0.0f, -5.0f});
         }},
        {"enableSleep", [=, &w] { w.enableSleep(false); }},
        {"enableContinuous", [=, &w] { w.enableContinuous(false); }},
        {"setWorkerCount", [=, &w] { w.setWorkerCount(2); }},
        {"setHitEventThreshold", [=, &w] { w.setHitEventThreshold(2.0f); }},
        {"setContactTuning", [=, &w] { w.setContactTuning(10.0f, 1.0f, 1.0f); }},
        {"setJointTuning", [=, &w] { w.setJointTuning(10.0f, 1.0f); }},
        {"setRestitutionThreshold", [=, &w] { w.setRestitutionThreshold(2.0f); }},
        {"setMaxLinearSpeed", [=, &w] { w.setMaxLinearSpeed(2.0f); }},
        {"enableWarmStarting", [=, &w] { w.enableWarmStarting(false); }},
        {"setContactReuseDistance", [=, &w] { w.setContactReuseDistance(0.1f); }},
        {"setFrictionMixing", [=, &w] { w.setFrictionMixing(FrictionMixing::Min); }},
        {"setRestitutionMixing", [=, &w] { w.setRestitutionMixing(RestitutionMixing::Min); }},
        {"setFrictionCallback", [=, &w] { w.setFrictionCallback({}); }},
        {"setRestitutionCallback", [=, &w] { w.setRestitutionCallback({}); }},
        {"setPreSolveCallback", [=, &w] { w.setPreSolveCallback({}); }},
        {"setCustomFilterCallback", [=, &w] { w.setCustomFilterCallback({}); }},
        {"createBody", [=, &w] { w.createBody(bd); }},
        {"destroyBody", [=, &w] { w.destroyBody(b); }},
        {"destroyBody ground", [=, &w] { w.destroyBody(ground); }},
        {"setName", [=, &w] { w.setName(b, "renamed"); }},
        {"setBodyType", [=, &w] { w.setBodyType(b, BodyType::Kinematic); }},
        {"setTransform",
         [=, &w] {
             w.setTransform(b, {1.0f, 5.0f}, 0.5f);
         }},
        {"setTransform exact",
         [=, &w] {
             w.setTransform(b, Transform{{1.0f, 5.0f}, Rot{}});
         }},
        {"setLinearVelocity",
         [=, &w] {
             w.setLinearVelocity(b, {1.0f, 0.0f});
         }},
        {"setAngularVelocity", [=, &w] { w.setAngularVelocity(b, 1.0f); }},
        {"setTargetTransform",
         [=, &w] {
             w.setTargetTransform(b, Transform{{0.5f, 4.0f}, Rot{}}, kDt);
         }},
        {"applyForce",
         [=, &w] {
             w.applyForce(b, {1.0f, 0.0f}, {0.0f, 4.0f});
         }},
        {"applyForceToCenter",
         [=, &w] {
             w.applyForceToCenter(b, {1.0f, 0.0f});
         }},
        {"applyTorque", [=, &w] { w.applyTorque(b, 1.0f); }},
        {"applyLinearImpulse",
         [=, &w] {
             w.applyLinearImpulse(b, {1.0f, 0.0f}, {0.0f, 4.0f});
         }},
        {"applyLinearImpulseToCenter",
         [=, &w] {
             w.applyLinearImpulseToCenter(b, {1.0f, 0.0f});
         }},
        {"applyAngularImpulse", [=, &w] { w.applyAngularImpulse(b, 1.0f); }},
        {"clearForces", [=, &w] { w.clearForces(b); }},
        {"applyMassFromShapes", [=, &w] { w.applyMassFromShapes(b); }},
        {"wakeTouching", [=, &w] { w.wakeTouching(ground); }},
        {"setMassData",
         [=, &w] {
             w.setMassData(b, MassData{2.0f, {0.0f, 0.0f}, 1.0f});
         }},
        {"setAwake", [=, &w] { w.setAwake(b, false); }},
        {"enableSleep body", [=, &w] { w.enableSleep(b, false); }},
        {"setBullet", [=, &w] { w.setBullet(b, true); }},
        {"enableContactReuse", [=, &w] { w.enableContactReuse(b, false); }},
        {"setFixedRotation", [=, &w] { w.setFixedRotation(b, true); }},
        {"setGravityScale", [=, &w] { w.setGravityScale(b, 2.0f); }},
        {"setLinearDamping", [=, &w] { w.setLinearDamping(b, 1.0f); }},
        {"setAngularDamping", [=, &w] { w.setAngularDamping(b, 1.0f); }},
        {"setSleepThreshold", [=, &w] { w.setSleepThreshold(b, 1.0f); }},
        {"setMotionLocks",
         [=, &w] {
             w.setMotionLocks(b, MotionLocks{true, false, false});
         }},
        {"disableBody", [=, &w] { w.disableBody(b); }},
        {"enableBody", [=, &w] { w.enableBody(b); }},
        {"createShape",
         [=, &w] {
             w.createShape(b, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
         }},
        {"createShape geometry",
         [=, &w] { w.createShape(b, ShapeDef{}, ShapeGeometry{makeBox(0.2f, 0.2f)}); }},
        {"destroyShape", [=, &w] { w.destroyShape(s); }},
        {"createChain", [=, &w] { w.createChain(ground, cd); }},
        {"destroyChain", [=, &w] { w.destroyChain(chain); }},
        {"setGeometry",
         [=, &w] {
             w.setGeometry(s, Circle{{0.0f, 0.0f}, 0.5f});
         }},
        {"setDensity", [=, &w] { w.setDensity(s, 2.0f); }},
        {"setFriction", [=, &w] { w.setFriction(s, 0.1f); }},
        {"setRestitution", [=, &w] { w.setRestitution(s, 0.5f); }},
        {"setRollingResistance", [=, &w] { w.setRollingResistance(s, 0.1f); }},
        {"setFilter",
         [=, &w] {
             w.setFilter(s, Filter{2, ~0ull, 0});
         }},
        {"enableContactEvents", [=, &w] { w.enableContactEvents(s, false); }},
        {"enableSensorEvents", [=, &w] { w.enableSensorEvents(s, false); }},
        {"enableHitEvents", [=, &w] { w.enableHitEvents(s, true); }},
        {"enablePreSolveEvents", [=, &w] { w.enablePreSolveEvents(s, true); }},
        {"setTangentSpeed", [=, &w] { w.setTangentSpeed(s, 1.0f); }},
        {"createJoint", [=, &w] { w.createJoint(rd); }},
        {"createJoint filter", [=, &w] { w.createJoint(fd); }},
        {"destroyJoint", [=, &w] { w.destroyJoint(j); }},
        {"setJointCollideConnected", [=, &w] { w.setJointCollideConnected(j, true); }},
        {"setJointForceThreshold", [=, &w] { w.setJointForceThreshold(j, 1.0f); }},
        {"setJointTorqueThreshold", [=, &w] { w.setJointTorqueThreshold(j, 1.0f); }},
        {"enableJointLimit", [=, &w] { w.enableJointLimit(j, true); }},
        {"setJointLimits", [=, &w] { w.setJointLimits(j, -0.5f, 0.5f); }},
        {"enableJointMotor", [=, &w] { w.enableJointMotor(j, true); }},
        {"setJointMotorSpeed", [=, &w] { w.setJointMotorSpeed(j, 1.0f); }},
        {"setJointMaxMotorForce", [=, &w] { w.setJointMaxMotorForce(j, 1.0f); }},
        {"enableJointSpring", [=, &w] { w.enableJointSpring(j, true); }},
        {"setJointSpring", [=, &w] { w.setJointSpring(j, 1.0f, 0.5f); }},
        {"setJointSpringTarget", [=, &w] { w.setJointSpringTarget(j, 0.5f); }},
        {"setDistanceJointLength", [=, &w] { w.setDistanceJointLength(j, 1.0f); }},
        {"setMouseTarget",
         [=, &w] {
             w.setMouseTarget(j, {0.0f, 1.0f});
         }},
        {"setMotorJointOffsets",
         [=, &w] {
             w.setMotorJointOffsets(j, {0.0f, 1.0f}, 0.0f);
         }},
        {"explode",
         [=, &w] {
             w.explode(ExplosionDef{{0.0f, 2.0f}, 5.0f, 0.0f, 10.0f, ~0ull});
         }},
        {"setWarmState", [=, &w] { w.setWarmState(warm); }},
        {"restore", [=, &w] { w.restore(snap); }},
        {"snapshot", [=, &w] { (void)w.snapshot(); }},
    };
}

// The fixture (a box hanging from a revolute joint over a ground box) with
// a chain over the ground and a box resting on it, stepped so that the box
// touches the chain.
struct Scene : Fixture {
    BodyId rest;
    ShapeId restShape;
    Scene() {
        ChainDef cd;
        cd.points = {{9.0f, 1.5f}, {-9.0f, 1.5f}};
        world.createChain(ground, cd);
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {-5.0f, 2.0f};
        rest = world.createBody(bd);
        restShape = world.createShape(rest, ShapeDef{}, makeBox(0.5f, 0.5f));
        for (int i = 0; i < 30; ++i) world.step(kDt);
    }
    // A new body falling on the resting one: new pairs for the next step.
    void dropBall() {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {-5.0f, 2.9f};
        world.createShape(world.createBody(bd), ShapeDef{}, Circle{{0.0f, 0.0f}, 0.4f});
    }
};

// Runs every changing call inside `callback`, once, each refused with Locked
// and leaving the world as it was; returns how many were run.
int refuseAllInside(Fixture& f, const std::function<void(const std::function<void()>&)>& callback) {
    World& w = f.world;
    const carom::Snapshot snap = w.snapshot();
    const WarmState warm = World{}.warmState();
    const auto calls = changingCalls(f, snap, warm);
    int ran = 0;
    callback([&] {
        if (ran > 0) return;
        for (const auto& [name, call] : calls) {
            SCOPED_TRACE(name);
            expectRefused(w, ErrorCode::Locked, call);
            ++ran;
        }
    });
    return ran;
}

TEST(Locked, EveryChangingCallIsRefusedInsideAQueryCallback) {
    Scene f;
    World& w = f.world;
    const WorldPrint before = print(w);
    const int ran = refuseAllInside(f, [&](const std::function<void()>& inside) {
        w.queryAABB(AABB{{-20.0f, -20.0f}, {20.0f, 20.0f}}, {}, [&](ShapeId) {
            inside();
            return true;
        });
    });
    EXPECT_GT(ran, 80);
    EXPECT_TRUE(print(w) == before);
    // Unlocked again: the same calls now work.
    w.destroyBody(f.box);
    expectStepsAndEmpties(w);
}

// Destroying what a query, an overlap or a mover cast is looking at would
// free memory under the walk (heap-use-after-free in the tree, a crash in
// the time of impact): it is refused.
TEST(Locked, DestroyingFromAQueryIsRefusedNotAUseAfterFree) {
    Scene f;
    World& w = f.world;
    const AABB all{{-20.0f, -20.0f}, {20.0f, 20.0f}};
    const WorldPrint before = print(w);
    auto destroyItsBody = [&](ShapeId s) {
        w.destroyBody(w.shapeBody(s));
        return true;
    };
    expectRefused(w, ErrorCode::Locked, [&] { w.queryAABB(all, {}, destroyItsBody); });
    expectRefused(w, ErrorCode::Locked, [&] { w.overlapAABB(all, {}, destroyItsBody); });
    const Capsule mover{{3.0f, 6.0f}, {3.0f, 7.0f}, 0.3f};
    expectRefused(w, ErrorCode::Locked, [&] {
        (void)w.castMover(mover, {0.0f, -8.0f}, {}, [&](ShapeId s) { return destroyItsBody(s); });
    });
    EXPECT_TRUE(print(w) == before);
    EXPECT_LT(w.castMover(mover, {0.0f, -8.0f}), 1.0f);  // the world still answers
}

// One representative change (destroying the ground) tried from every kind
// of callback the world runs.
TEST(Locked, EveryCallbackKindRefusesChanges) {
    struct Kind {
        const char* name;
        std::function<void(Scene&, const std::function<void()>&)> run;
    };
    const AABB all{{-20.0f, -20.0f}, {20.0f, 20.0f}};
    const Capsule mover{{3.0f, 6.0f}, {3.0f, 7.0f}, 0.3f};
    const std::vector<Kind> kinds = {
        {"queryAABB",
         [&](Scene& f, const auto& in) {
             f.world.queryAABB(all, {}, [&](ShapeId) { return in(), true; });
         }},
        {"a point query",
         [&](Scene& f, const auto& in) {
             f.world.queryAABB(AABB{{-5.0f, 2.0f}, {-5.0f, 2.0f}}, {},
                               [&](ShapeId) { return in(), true; });
         }},
        {"overlapAABB",
         [&](Scene& f, const auto& in) {
             f.world.overlapAABB(all, {}, [&](ShapeId) { return in(), true; });
         }},
        {"overlapShape",
         [&](Scene& f, const auto& in) {
             f.world.overlapShape(makeBox(20.0f, 20.0f), Transform{}, {},
                                  [&](ShapeId) { return in(), true; });
         }},
        {"castRay",
         [&](Scene& f, const auto& in) {
             f.world.castRay({3.0f, 8.0f}, {0.0f, -10.0f}, {},
                             [&](ShapeId, Vec2, Vec2, float) { return in(), 1.0f; });
         }},
        {"castShape",
         [&](Scene& f, const auto& in) {
             f.world.castShape(Circle{{0.0f, 0.0f}, 0.2f}, Transform{{3.0f, 8.0f}, Rot{}},
                               {0.0f, -10.0f}, {},
                               [&](ShapeId, Vec2, Vec2, float) { return in(), 1.0f; });
         }},
        {"castMover accept",
         [&](Scene& f, const auto& in) {
             (void)f.world.castMover(mover, {0.0f, -8.0f}, {}, [&](ShapeId) { return in(), true; });
         }},
        {"collideMover",
         [&](Scene& f, const auto& in) {
             const Capsule low{{5.0f, 1.81f}, {5.0f, 2.5f}, 0.3f};  // on the chain
             f.world.collideMover(low, {}, [&](ShapeId, const PlaneResult&) { return in(), true; });
         }},
        {"draw",
         [&](Scene& f, const auto& in) {
             struct Drawer : DebugDraw {
                 std::function<void()> in;
                 void drawSolidPolygon(const Transform&, std::span<const Vec2>, float,
                                       uint32_t) override {
                     in();
                 }
             } drawer;
             drawer.in = in;
             f.world.draw(drawer);
         }},
        {"pre-solve",
         [&](Scene& f, const auto& in) {
             f.world.enablePreSolveEvents(f.restShape, true);
             f.world.setAwake(f.rest, true);
             f.world.setPreSolveCallback(
                 [in](ShapeId, ShapeId, const ContactData&) { return in(), true; });
             f.world.step(kDt);
         }},
        {"custom filter",
         [&](Scene& f, const auto& in) {
             f.world.setCustomFilterCallback([in](ShapeId, ShapeId) { return in(), true; });
             f.dropBall();
             f.world.step(kDt);
         }},
        {"friction callback in step",
         [&](Scene& f, const auto& in) {
             f.world.setFrictionCallback(
                 [in](float a, uint64_t, float, uint64_t) { return in(), a; });
             f.dropBall();
             f.world.step(kDt);
         }},
        {"friction callback in its setter",
         [&](Scene& f, const auto& in) {
             f.world.setFrictionCallback(
                 [in](float a, uint64_t, float, uint64_t) { return in(), a; });
         }},
        {"restitution callback in setFriction",
         [&](Scene& f, const auto& in) {
             f.world.setRestitutionCallback(
                 [in](float a, uint64_t, float, uint64_t) { return in(), a; });
             f.world.setFriction(f.restShape, 0.2f);
         }},
    };
    // Installed callbacks hold a copy of `in`, which refers to this loop's
    // locals: each world is cleared of them before the iteration ends.
    for (const Kind& kind : kinds) {
        SCOPED_TRACE(kind.name);
        Scene f;
        World& w = f.world;
        int tried = 0;
        kind.run(f, [&] {
            if (tried++ > 0) return;
            expectRefused(w, ErrorCode::Locked, [&] { w.destroyBody(f.ground); });
            expectRefused(w, ErrorCode::Locked, [&] { w.setPreSolveCallback({}); });
            expectRefused(w, ErrorCode::Locked, [&] { w.step(kDt); });
            // The game's own pointer is not the world: allowed.
            w.setUserData(f.box, &tried);
        });
        EXPECT_GT(tried, 0) << "the callback never ran";
        EXPECT_EQ(w.userData(f.box), &tried);
        EXPECT_TRUE(w.isValid(f.ground));
        w.setPreSolveCallback({});
        w.setCustomFilterCallback({});
        w.setFrictionCallback({});
        w.setRestitutionCallback({});
        expectStepsAndEmpties(w);  // unlocked again afterwards
    }
}

// The task hooks run inside step(): a change from there is refused too.
struct LockedTasks {
    World* world = nullptr;
    BodyId body{};
    int tried = 0, refused = 0;
    static void* enqueue(TaskFn* task, int itemCount, int, void* taskContext, void* user) {
        auto* self = static_cast<LockedTasks*>(user);
        ++self->tried;
        try {
            self->world->destroyBody(self->body);
        } catch (const Error& e) {
            self->refused += e.code() == ErrorCode::Locked;
        }
        task(0, itemCount, 0, taskContext);
        return nullptr;
    }
    static void finish(void*, void*) {}
};

TEST(Locked, TaskHooksRefuseChanges) {
    LockedTasks tasks;
    WorldDef def;
    def.workerCount = 2;
    def.enqueueTask = &LockedTasks::enqueue;
    def.finishTask = &LockedTasks::finish;
    def.userTaskContext = &tasks;
    World w(def);
    const BodyId ground = w.createBody(BodyDef{});
    w.createShape(ground, ShapeDef{}, makeBox(10.0f, 1.0f));
    tasks.world = &w;
    tasks.body = ground;
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.0f, 2.0f};
    w.createShape(w.createBody(bd), ShapeDef{}, makeBox(0.5f, 0.5f));
    for (int i = 0; i < 5; ++i) w.step(kDt);
    EXPECT_GT(tasks.tried, 0);
    EXPECT_EQ(tasks.refused, tasks.tried);
    EXPECT_TRUE(w.isValid(ground));
}

// ---- mixing callbacks that throw: the setter's strong guarantee ------------

float contactFriction(const World& w) {
    for (const auto& c : internals(w).contacts)
        if (c.alive) return c.friction;
    ADD_FAILURE() << "no contact";
    return -1.0f;
}

TEST(MixCallbacks, AThrowingCallbackLeavesTheWorldAsItWas) {
    auto thrower = [](float, uint64_t, float, uint64_t) -> float {
        throw std::runtime_error("callback");
    };
    {
        // Refused while re-mixing the existing contacts: not installed (the
        // steps below would call it and throw).
        Scene g;
        const WorldPrint before = print(g.world);
        EXPECT_THROW(g.world.setFrictionCallback(thrower), std::runtime_error);
        EXPECT_FALSE(g.world.hasFrictionCallback());
        EXPECT_THROW(g.world.setRestitutionCallback(thrower), std::runtime_error);
        EXPECT_FALSE(g.world.hasRestitutionCallback());
        EXPECT_TRUE(print(g.world) == before);
        g.dropBall();
        expectStepsAndEmpties(g.world);
    }
    Scene f;
    World& w = f.world;
    bool fail = false;
    w.setFrictionCallback([&](float, uint64_t, float, uint64_t) {
        if (fail) throw std::runtime_error("friction callback");
        return 0.25f;
    });
    ASSERT_EQ(contactFriction(w), 0.25f);
    const WorldPrint before = print(w);
    // A new callback that throws on the existing contacts is not installed.
    EXPECT_THROW(w.setFrictionCallback(thrower), std::runtime_error);
    EXPECT_TRUE(w.hasFrictionCallback());
    EXPECT_EQ(contactFriction(w), 0.25f);
    // The installed one throwing while a setter re-mixes: the setter's change is undone.
    fail = true;
    const ShapeDef shapeBefore = w.shapeDef(f.restShape);
    EXPECT_THROW(w.setFriction(f.restShape, 0.9f), std::runtime_error);
    EXPECT_EQ(w.shapeDef(f.restShape).friction, shapeBefore.friction);
    EXPECT_THROW(w.setFrictionMixing(FrictionMixing::Max), std::runtime_error);
    EXPECT_EQ(w.frictionMixing(), FrictionMixing::GeometricMean);
    EXPECT_THROW(w.setRestitutionCallback([](float a, uint64_t, float, uint64_t) { return a; }),
                 std::runtime_error);
    EXPECT_FALSE(w.hasRestitutionCallback());
    EXPECT_EQ(contactFriction(w), 0.25f);
    EXPECT_TRUE(print(w) == before);
    // Event flags mix nothing: they do not run the callback.
    EXPECT_NO_THROW(w.enableHitEvents(f.restShape, true));
    fail = false;
    w.setFrictionCallback({});
    expectStepsAndEmpties(w);
}

// ---- events across restore ----------------------------------------------------

bool sameMoves(std::span<const BodyMoveEvent> a, const std::vector<BodyMoveEvent>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].body != b[i].body || a[i].transform.p != b[i].transform.p ||
            a[i].fellAsleep != b[i].fellAsleep)
            return false;
    return true;
}

// events.hpp: a span stays valid, with the same contents, until the next
// step(). Two restores must not copy a snapshot's events into the array
// that the span read before the first one points into.
TEST(EventSpans, StayAsTheyWereAcrossRestores) {
    Scene f;
    World& w = f.world;
    const carom::Snapshot s0 = w.snapshot();
    w.setLinearVelocity(f.rest, {0.0f, 5.0f});
    for (int i = 0; i < 20; ++i) w.step(kDt);
    const carom::Snapshot s1 = w.snapshot();
    w.applyLinearImpulseToCenter(f.rest, {3.0f, -2.0f});
    w.step(kDt);
    const std::span<const BodyMoveEvent> moves = w.bodyMoveEvents();
    const std::vector<BodyMoveEvent> copy(moves.begin(), moves.end());
    ASSERT_FALSE(copy.empty());
    w.restore(s0);
    w.restore(s1);
    w.restore(s0);
    EXPECT_TRUE(sameMoves(moves, copy)) << "the span read before the restores changed";
    EXPECT_TRUE(sameMoves(w.bodyMoveEvents(), copy)) << "restore replaced the last step's events";
    // The state is the snapshot's: the next steps are those after s0.
    World twin;
    twin.restore(s0);
    for (int i = 0; i < 10; ++i) {
        w.step(kDt);
        twin.step(kDt);
        ASSERT_EQ(w.stateHash(), twin.stateHash());
        ASSERT_TRUE(sameMoves(w.bodyMoveEvents(),
                              {twin.bodyMoveEvents().begin(), twin.bodyMoveEvents().end()}));
    }
}

// ---- explode: the impulse and speed bounds of applyLinearImpulse --------------

// radius and falloff: within [0, kMaxDistance] (2e6 m, the world's width).
TEST(Explode, RadiusAndFalloffWithinTheWorldsWidth) {
    World w;
    EXPECT_EQ(kMaxDistance, 2e6f);
    EXPECT_NO_THROW(w.explode(ExplosionDef{{0.0f, 0.0f}, kMaxDistance, kMaxDistance, 1.0f, ~0ull}));
    const float over = std::nextafter(kMaxDistance, 3e6f);
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.explode(ExplosionDef{{0.0f, 0.0f}, over, 0.0f, 1.0f, ~0ull});
        },
        "radius", "2e+06");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.explode(ExplosionDef{{0.0f, 0.0f}, 1.0f, over, 1.0f, ~0ull});
        },
        "falloff");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.explode(ExplosionDef{{0.0f, 0.0f}, -1.0f, 0.0f, 1.0f, ~0ull});
        },
        "radius");
}

TEST(Explode, KeepsToTheImpulseAndSpeedBounds) {
    for (const int shapes : {1, 3}) {
        SCOPED_TRACE(std::to_string(shapes) + " shapes");
        World w;
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        const BodyId box = w.createBody(bd);
        for (int k = 0; k < shapes; ++k)
            w.createShape(box, ShapeDef{},
                          makeOffsetBox(0.5f, 0.5f, {0.3f * float(k), 0.0f}, 0.0f));
        w.explode(ExplosionDef{{0.0f, 1.5f}, 1.0f, 0.0f, 1e25f, ~0ull});
        const Vec2 v = w.linearVelocity(box);
        ASSERT_TRUE(isFinite(v)) << v.x << ", " << v.y;
        EXPECT_LE(length(v), kMaxLinearSpeed * (1.0f + 1e-6f)) << v.x << ", " << v.y;
        EXPECT_LT(v.y, -0.99f * kMaxLinearSpeed)
            << "pushed away from the blast, at the speed bound";
        const float spin = w.angularVelocity(box);
        EXPECT_TRUE(std::isfinite(spin));
        EXPECT_LE(std::fabs(spin), kMaxAngularSpeed);
        // One rule: the same as the largest impulse applyLinearImpulse takes.
        World same;
        const BodyId twin = same.createBody(bd);
        for (int k = 0; k < shapes; ++k)
            same.createShape(twin, ShapeDef{},
                             makeOffsetBox(0.5f, 0.5f, {0.3f * float(k), 0.0f}, 0.0f));
        if (shapes == 1) {
            same.applyLinearImpulse(twin, {0.0f, -kMaxForce}, {0.0f, 0.5f});
            EXPECT_EQ(v.x, same.linearVelocity(twin).x);
            EXPECT_EQ(v.y, same.linearVelocity(twin).y);
            EXPECT_EQ(spin, same.angularVelocity(twin));
        }
    }
}

}  // namespace
}  // namespace carom::test
