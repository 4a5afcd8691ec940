// Hostile input: the step never throws and never makes a
// non-finite state, whatever accepted input it is given; values past the
// ranges of limits.hpp are refused where they enter; a body that leaves the
// world bound is stopped there and reported; a moved-from World refuses use.
//
// Each hostile case builds a world at the edges of what the API accepts and
// steps it, at 1 and 2 workers, checking after every step that every body's
// state, every contact and every joint reaction is finite and every body is
// within the bound, and that both worker counts give the same state hash.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

#include "tests/support/internals.hpp"
#include "tests/support/fixtures.hpp"

using namespace carom;

namespace {

using test::kDt;
constexpr float kUnlimited = std::numeric_limits<float>::max();  // a joint force clamp

BodyId dynamicBody(World& w, Vec2 p, float angle = 0.0f) {
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = p;
    bd.angle = angle;
    return w.createBody(bd);
}

// A 1 m thick static slab (the shared fixture's ground, default friction).
BodyId ground(World& w, Vec2 p = {0.0f, 0.0f}, float hx = 50.0f) {
    return test::addGround(w, p, hx, 1.0f);
}

// Everything a caller can read back is finite and inside the bound.
void expectSane(const World& w, const std::string& where) {
    for (BodyId b : w.bodies()) {
        const Transform xf = w.transform(b);
        ASSERT_TRUE(isFinite(xf.p) && isFinite(xf.q)) << where;
        ASSERT_TRUE(isFinite(w.linearVelocity(b)) && isFinite(w.angularVelocity(b))) << where;
        ASSERT_TRUE(isFinite(w.worldCenterOfMass(b))) << where;
        // Within what the API accepts: the state can be given back.
        ASSERT_LE(length(w.linearVelocity(b)), kMaxLinearSpeed * 1.0001f) << where;
        ASSERT_LE(std::fabs(w.angularVelocity(b)), kMaxAngularSpeed) << where;
        ASSERT_LE(std::fabs(xf.p.x), kMaxCoordinate) << where;
        ASSERT_LE(std::fabs(xf.p.y), kMaxCoordinate) << where;
        for (ShapeId s : w.shapes(b)) {
            const AABB box = w.shapeAABB(s);
            ASSERT_TRUE(isFinite(box.lower) && isFinite(box.upper)) << where;
        }
    }
    for (const ContactData& c : w.contacts()) {
        ASSERT_TRUE(isFinite(c.normal)) << where;
        for (int i = 0; i < c.pointCount; ++i) {
            ASSERT_TRUE(isFinite(c.points[i].point)) << where;
            ASSERT_TRUE(std::isfinite(c.points[i].separation)) << where;
            ASSERT_TRUE(std::isfinite(c.points[i].normalImpulse)) << where;
            ASSERT_TRUE(std::isfinite(c.points[i].tangentImpulse)) << where;
        }
    }
    for (JointId j : w.joints()) {
        ASSERT_TRUE(isFinite(w.jointReactionForce(j)))
            << where << ", joint type " << int(w.jointType(j));
        ASSERT_TRUE(std::isfinite(w.jointReactionTorque(j)))
            << where << ", joint type " << int(w.jointType(j));
    }
}

struct Case {
    const char* name;
    std::function<void(World&)> build;
    std::function<void(World&, int)> perStep = nullptr;  // applied before each step
    int steps = 120;
    float dt = kDt;
    int substeps = 4;
};

std::vector<Case> hostileCases() {
    std::vector<Case> cases;
    cases.push_back(
        {"densest, largest circle on a ground", [](World& w) {
             ground(w, {0.0f, -1.0e6f + 1.0f}, 1.0e6f);
             BodyId b = dynamicBody(w, {0.0f, 0.0f});
             ShapeDef sd;
             sd.density = kMaxDensity;
             w.createShape(b, sd, Circle{{0.0f, 0.0f}, kMaxShapeRadius});
             BodyId c = dynamicBody(w, {2.5e5f, 3.0e5f});
             w.createShape(c, sd, makeOffsetBox(5.0e5f, 10.0f, {5.0e5f, -5.0e5f}, 0.0f));
         }});
    cases.push_back(
        {"lightest specks under the heaviest boxes", [](World& w) {
             ground(w);
             ShapeDef light;
             light.density = kMinDensity;
             ShapeDef heavy;
             heavy.density = kMaxDensity;
             for (int i = 0; i < 20; ++i) {
                 BodyId s = dynamicBody(w, {0.01f * float(i), 1.0f + 0.001f * float(i)});
                 w.createShape(s, light, Circle{{0.0f, 0.0f}, kMinShapeRadius});
             }
             for (int i = 0; i < 5; ++i) {
                 BodyId b = dynamicBody(w, {0.0f, 1.5f + 2.0f * float(i)});
                 w.createShape(b, heavy, makeBox(1.0f, 1.0f));
             }
         }});
    cases.push_back(
        {"mass data at the edges", [](World& w) {
             ground(w);
             BodyId a = dynamicBody(w, {0.0f, 3.0f});
             w.createShape(a, ShapeDef{}, makeBox(1.0f, 1.0f));
             w.setMassData(
                 a, MassData{kMinMass, {kMaxCoordinate, -kMaxCoordinate}, kMinRotationalInertia});
             BodyId b = dynamicBody(w, {0.5f, 6.0f});
             w.createShape(b, ShapeDef{}, makeBox(1.0f, 1.0f));
             w.setMassData(b, MassData{kMaxMass, {0.0f, 0.0f}, kMaxRotationalInertia});
             BodyId c = dynamicBody(w, {-0.5f, 9.0f});
             w.createShape(c, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
             w.setMassData(c, MassData{kMinMass, {0.0f, 0.0f}, 0.0f});
         }});
    cases.push_back({"kinematic bodies at top speed leave the world", [](World& w) {
                         ground(w);
                         BodyDef bd;
                         bd.type = BodyType::Kinematic;
                         bd.linearVelocity = {kMaxLinearSpeed, 0.0f};
                         bd.angularVelocity = kMaxAngularSpeed;
                         bd.position = {kMaxCoordinate - 10.0f, 0.0f};
                         BodyId k = w.createBody(bd);
                         w.createShape(
                             k, ShapeDef{},
                             Capsule{{-kMaxCoordinate, 0.0f}, {kMaxCoordinate, 0.0f}, 1.0f});
                         bd.linearVelocity = {0.0f, -kMaxLinearSpeed};
                         bd.position = {0.0f, -kMaxCoordinate + 1.0f};
                         w.createShape(w.createBody(bd), ShapeDef{}, makeBox(2.0f, 2.0f));
                     }});
    cases.push_back(
        {"motors at full speed and force", [](World& w) {
             BodyId g = ground(w);
             BodyId a = dynamicBody(w, {0.0f, 5.0f});
             w.createShape(a, ShapeDef{}, makeBox(3.0f, 0.2f));
             RevoluteJointDef rd = w.makeRevoluteJointDef(g, a, {0.0f, 5.0f});
             rd.enableMotor = true;
             rd.motorSpeed = kMaxAngularSpeed;
             rd.maxMotorTorque = kUnlimited;
             w.createJoint(rd);
             BodyId b = dynamicBody(w, {0.0f, 10.0f});
             w.createShape(b, ShapeDef{}, makeBox(0.5f, 0.5f));
             PrismaticJointDef pd = w.makePrismaticJointDef(g, b, {0.0f, 10.0f}, {1.0f, 0.0f});
             pd.enableMotor = true;
             pd.motorSpeed = -kMaxLinearSpeed;
             pd.maxMotorForce = kUnlimited;
             w.createJoint(pd);
             BodyId c = dynamicBody(w, {5.0f, 3.0f});
             w.createShape(c, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
             WheelJointDef wd = w.makeWheelJointDef(a, c, {5.0f, 3.0f}, {0.0f, 1.0f});
             wd.enableMotor = true;
             wd.motorSpeed = -kMaxAngularSpeed;
             wd.maxMotorTorque = kUnlimited;
             wd.hertz = kMaxHertz;
             wd.dampingRatio = kMaxDampingRatio;
             w.createJoint(wd);
         }});
    cases.push_back({"largest forces and impulses every step",
                     [](World& w) {
                         ground(w);
                         for (int i = 0; i < 4; ++i) {
                             BodyId b = dynamicBody(w, {2.0f * float(i), 2.0f});
                             w.createShape(b, ShapeDef{}, Circle{{0.0f, 0.0f}, kMinShapeRadius});
                         }
                     },
                     [](World& w, int step) {
                         const float s = step % 2 ? 1.0f : -1.0f;
                         for (BodyId b : w.bodies()) {
                             if (w.bodyType(b) != BodyType::Dynamic) continue;
                             w.applyForce(b, {s * kMaxForce, kMaxForce},
                                          w.worldCenterOfMass(b) + Vec2{0.0f, 1.0f});
                             w.applyForce(b, {s * kMaxForce, kMaxForce}, w.worldCenterOfMass(b));
                             w.applyTorque(b, -s * kMaxForce);
                             w.applyLinearImpulse(b, {kMaxForce, -s * kMaxForce},
                                                  w.worldCenterOfMass(b) + Vec2{1.0f, 0.0f});
                             w.applyAngularImpulse(b, s * kMaxForce);
                         }
                     }});
    cases.push_back({"strongest gravity, largest time step",
                     [](World& w) {
                         w.setGravity({kMaxGravity, -kMaxGravity});
                         ground(w);
                         for (int i = 0; i < 10; ++i) {
                             BodyDef bd;
                             bd.type = BodyType::Dynamic;
                             bd.position = {0.0f, 2.0f + 1.1f * float(i)};
                             bd.gravityScale = i % 2 ? kMaxGravityScale : -kMaxGravityScale;
                             BodyId b = w.createBody(bd);
                             w.createShape(b, ShapeDef{}, makeBox(0.5f, 0.5f));
                         }
                     },
                     nullptr, 60, kMaxTimeStep, 1});
    cases.push_back(
        {"stiffest springs, most substeps",
         [](World& w) {
             BodyId g = ground(w);
             BodyId a = dynamicBody(w, {0.0f, 4.0f});
             w.createShape(a, ShapeDef{}, makeBox(0.5f, 0.5f));
             BodyId b = dynamicBody(w, {1.0e4f, 4.0f});
             w.createShape(b, ShapeDef{}, makeBox(0.5f, 0.5f));
             DistanceJointDef dd = w.makeDistanceJointDef(g, a, {0.0f, 8.0f}, {0.0f, 4.0f});
             dd.enableSpring = true;
             dd.hertz = kMaxHertz;
             dd.dampingRatio = kMaxDampingRatio;
             w.createJoint(dd);
             DistanceJointDef far = w.makeDistanceJointDef(a, b, {0.0f, 4.0f}, {1.0e4f, 4.0f});
             far.length = kMaxJointLength;
             w.createJoint(far);
             WeldJointDef wd = w.makeWeldJointDef(g, b, {1.0e4f, 4.0f});
             wd.linearHertz = wd.angularHertz = kMaxHertz;
             wd.linearDampingRatio = wd.angularDampingRatio = kMaxDampingRatio;
             w.createJoint(wd);
             MouseJointDef md = w.makeMouseJointDef(g, a, {-kMaxCoordinate, kMaxCoordinate});
             md.maxForce = kUnlimited;
             md.hertz = kMaxHertz;
             md.dampingRatio = kMaxDampingRatio;
             w.createJoint(md);
             MotorJointDef mj = w.makeMotorJointDef(g, b);
             mj.linearOffset = {kMaxJointLength, -kMaxJointLength};
             mj.maxForce = kUnlimited;
             mj.maxTorque = kUnlimited;
             mj.correctionFactor = 1.0f;
             w.createJoint(mj);
         },
         nullptr, 120, kDt, kMaxSubsteps});
    cases.push_back({"bounciest, grippiest pile in one spot", [](World& w) {
                         ground(w);
                         ShapeDef sd;
                         sd.restitution = kMaxMaterialCoefficient;
                         sd.friction = kMaxMaterialCoefficient;
                         sd.rollingResistance = kMaxMaterialCoefficient;
                         for (int i = 0; i < 40; ++i) {
                             BodyId b = dynamicBody(w, {0.0f, 2.0f}, 0.1f * float(i));
                             if (i % 2)
                                 w.createShape(b, sd, makeBox(0.5f, 0.5f));
                             else
                                 w.createShape(b, sd, Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.3f});
                         }
                     }});
    cases.push_back({"fast spinning rod at the corner of the world", [](World& w) {
                         ground(w, {kMaxCoordinate, -kMaxCoordinate}, 100.0f);
                         BodyDef bd;
                         bd.type = BodyType::Dynamic;
                         bd.isBullet = true;
                         bd.position = {kMaxCoordinate, -kMaxCoordinate + 20.0f};
                         bd.linearVelocity = {kMaxLinearSpeed * 0.7f, -kMaxLinearSpeed * 0.7f};
                         bd.angularVelocity = kMaxAngularSpeed;
                         BodyId b = w.createBody(bd);
                         w.createShape(b, ShapeDef{}, Capsule{{-10.0f, 0.0f}, {10.0f, 0.0f}, 0.1f});
                     }});
    return cases;
}

uint64_t runCase(const Case& c, int workers) {
    WorldDef def;
    def.workerCount = workers;
    def.maxLinearSpeed = kMaxLinearSpeed;
    World w(def);
    c.build(w);
    for (int i = 0; i < c.steps; ++i) {
        if (c.perStep) c.perStep(w, i);
        EXPECT_NO_THROW(w.step(c.dt, c.substeps)) << c.name << " step " << i;
        expectSane(w, std::string(c.name) + ", step " + std::to_string(i) + ", workers " +
                          std::to_string(workers));
        if (::testing::Test::HasFatalFailure()) return 0;
    }
    return w.stateHash();
}

}  // namespace

TEST(Hostile, StepStaysFiniteAndDeterministic) {
    for (const Case& c : hostileCases()) {
        SCOPED_TRACE(c.name);
        const uint64_t one = runCase(c, 1);
        if (HasFatalFailure()) return;
        const uint64_t two = runCase(c, 2);
        if (HasFatalFailure()) return;
        EXPECT_EQ(one, two) << c.name;
    }
}

// Input that would make the step throw or go NaN is refused where it
// enters, with the field named.
TEST(Hostile, OverflowingInputsAreRefusedAtEntry) {
    World w;
    BodyId b = dynamicBody(w, {0.0f, 0.0f});
    auto field = [](const std::function<void()>& call) -> std::string {
        try {
            call();
        } catch (const Error& e) {
            return e.field();
        }
        return "(accepted)";
    };
    ShapeDef dense;
    dense.density = 3e38f;
    EXPECT_EQ(field([&] { w.createShape(b, dense, Circle{}); }), "density");
    dense.density = 1e-45f;
    EXPECT_EQ(field([&] { w.createShape(b, dense, Circle{}); }), "density");
    EXPECT_EQ(field([&] { w.createShape(b, ShapeDef{}, Circle{{0.0f, 0.0f}, 1e20f}); }), "radius");
    EXPECT_EQ(field([&] {
                  w.setMassData(b, MassData{1.0f, {1e30f, 0.0f}, 1.0f});
              }),
              "massData.center");
    BodyDef kin;
    kin.type = BodyType::Kinematic;
    kin.linearVelocity = {3e38f, 0.0f};
    EXPECT_EQ(field([&] { w.createBody(kin); }), "linearVelocity");
    RevoluteJointDef rd;
    rd.bodyA = w.createBody(BodyDef{});
    rd.bodyB = b;
    rd.enableMotor = true;
    rd.motorSpeed = 3e38f;
    EXPECT_EQ(field([&] { w.createJoint(rd); }), "motorSpeed");
    EXPECT_EQ(w.counters().shapes, 0);
    EXPECT_EQ(w.counters().joints, 0);
    EXPECT_TRUE(w.shapes(b).empty());
}

// A body leaving the bound is stopped there, reported, and stays usable;
// a body inside the bound is never touched.
TEST(Hostile, BodyLeavingTheWorldStopsAtTheBound) {
    World w;
    BodyDef bd;
    bd.type = BodyType::Kinematic;
    bd.position = {kMaxCoordinate - 100.0f, 0.0f};
    bd.linearVelocity = {6000.0f, 0.0f};  // 100 m per step
    BodyId k = w.createBody(bd);
    w.createShape(k, ShapeDef{}, makeBox(1.0f, 1.0f));
    w.step(kDt);
    EXPECT_EQ(w.counters().boundedBodies, 0);
    EXPECT_FLOAT_EQ(w.position(k).x, kMaxCoordinate);  // exactly at the bound: not stopped yet
    EXPECT_EQ(w.linearVelocity(k).x, 6000.0f);
    w.step(kDt);
    EXPECT_EQ(w.counters().boundedBodies, 1);
    EXPECT_EQ(w.position(k).x, kMaxCoordinate);
    EXPECT_EQ(w.linearVelocity(k).x, 0.0f);
    w.step(kDt);
    EXPECT_EQ(w.counters().boundedBodies, 0);  // at rest on the bound
    // It can be sent back.
    w.setLinearVelocity(k, {-6000.0f, 0.0f});
    w.step(kDt);
    EXPECT_EQ(w.position(k).x, kMaxCoordinate - 100.0f);
    w.destroyBody(k);
    EXPECT_EQ(w.counters().shapes, 0);
    // A body at the bound has points beyond it (here its centre of mass);
    // what the API hands out about it, the API takes back.
    BodyDef dd;
    dd.type = BodyType::Dynamic;
    dd.position = {kMaxCoordinate, kMaxCoordinate};
    BodyId d = w.createBody(dd);
    w.createShape(d, ShapeDef{}, makeOffsetBox(1.0f, 1.0f, {0.5f, 0.5f}, 0.0f));
    const Vec2 c = w.worldCenterOfMass(d);
    EXPECT_GT(c.x, kMaxCoordinate);
    EXPECT_NO_THROW(w.applyLinearImpulse(d, {1.0f, 0.0f}, c));
    EXPECT_NO_THROW(w.applyForceToCenter(d, {1.0f, 0.0f}));
    EXPECT_NO_THROW(w.createJoint(w.makeRevoluteJointDef(w.createBody(BodyDef{}), d, c)));
    for (int i = 0; i < 3; ++i) w.step(kDt);
    EXPECT_LE(w.position(d).x, kMaxCoordinate);
}

// A moved-from World is an error, not a crash.
// The step's guard keeps the world finite when the solver faults, but no
// longer silently: each body it stops is counted, on every step the fault
// lasts (Counters::nonFiniteBodies). A fault is forced the way no accepted
// input reaches: a NaN planted in a pin's carried impulse (through the
// internal record), which the joint warm starts into its box on every step.
TEST(Hostile, BodiesStoppedByTheNonFiniteGuardAreCounted) {
    for (bool direct : {false, true}) {
        WorldDef def;
        def.tuning.enableJointDirectSolve = direct;
        World w(def);
        const BodyId box = test::addBox(w, {1.0f, 5.0f}, 0.25f, 0.25f);
        const JointId pin = w.createJoint(
            w.makeRevoluteJointDef(test::addStatic(w, {0.0f, 5.0f}), box, {0.0f, 5.0f}));
        test::run(w, 10);
        EXPECT_EQ(w.counters().nonFiniteBodies, 0);
        const Vec2 before = w.position(box);
        internals(w).joints[size_t(pin.index)].carried.linearImpulse.x =
            std::numeric_limits<float>::quiet_NaN();
        test::run(w, 5);
        EXPECT_EQ(w.counters().nonFiniteBodies, 5) << "direct " << direct;
        EXPECT_EQ(w.position(box).x, before.x);
        EXPECT_EQ(w.position(box).y, before.y);
        EXPECT_EQ(length(w.linearVelocity(box)), 0.0f);
    }
}

TEST(Hostile, MovedFromWorldRefusesUse) {
    World a;
    BodyId b = a.createBody(BodyDef{});
    World c(std::move(a));
    EXPECT_TRUE(c.isValid(b));
    auto refused = [](const std::function<void()>& call) {
        try {
            call();
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::StaleId);
            EXPECT_NE(std::string(e.what()).find("moved from"), std::string::npos) << e.what();
            return true;
        }
        return false;
    };
    // NOLINTBEGIN(bugprone-use-after-move): the point of the test
    EXPECT_TRUE(refused([&] { a.step(kDt); }));
    EXPECT_TRUE(refused([&] { a.createBody(BodyDef{}); }));
    EXPECT_TRUE(refused([&] { a.counters(); }));
    EXPECT_TRUE(refused([&] { a.bodies(); }));
    EXPECT_TRUE(refused([&] { a.isValid(b); }));
    EXPECT_TRUE(refused([&] { a.stateHash(); }));
    EXPECT_TRUE(refused([&] { a.def(); }));
    EXPECT_TRUE(refused([&] { a.castRayClosest({0.0f, 0.0f}, {1.0f, 0.0f}); }));
    // Assigning a World makes it usable again.
    a = World{};
    EXPECT_NO_THROW(a.step(kDt));
    World d;
    d = std::move(c);
    EXPECT_TRUE(refused([&] { c.position(b); }));
    // NOLINTEND(bugprone-use-after-move)
    EXPECT_TRUE(d.isValid(b));
}
