// Weld, motor and mouse joints against analytic truth, joints between
// static bodies, and joints in islands (sleeping together, waking).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/support/fixtures.hpp"

namespace carom::test {
namespace {

constexpr float kG = 10.0f;

float omega(float hertz) {
    return 2.0f * kPi * hertz;
}

// A 2 m beam welded at its left end to the ground.
struct Cantilever {
    World w = makeWorld();
    BodyId ground, beam;
    JointId weld;

    explicit Cantilever(float angularHertz) {
        ground = addStatic(w, {0.0f, 0.0f});
        beam = addBox(w, {1.0f, 0.0f}, 1.0f, 0.1f);
        WeldJointDef d;
        d.bodyA = ground;
        d.bodyB = beam;
        d.localAnchorB = w.localPoint(beam, {0.0f, 0.0f});
        d.angularHertz = angularHertz;
        d.angularDampingRatio = 0.7f;
        weld = w.createJoint(d);
    }
    Vec2 tip() const { return w.worldPoint(beam, {1.0f, 0.0f}); }
};

TEST(Weld, RigidCantileverHoldsWithSmallSag) {
    Cantilever c(0.0f);
    float worst = 0.0f;
    for (int i = 0; i < 120; ++i) {
        c.w.step(kDt);
        worst = std::max(worst, -c.tip().y);
    }
    EXPECT_LT(worst, 0.01f);
    EXPECT_GE(worst, 0.0f);
    EXPECT_LT(distance(anchorA(c.w, c.weld), anchorB(c.w, c.weld)), 0.002f);
    // The weld carries the weight and the moment m g l/2 about the anchor.
    const float mg = c.w.mass(c.beam) * kG;
    EXPECT_NEAR(c.w.jointReactionForce(c.weld).y, mg, 0.01f * mg);
    EXPECT_NEAR(c.w.jointReactionTorque(c.weld), mg * 1.0f, 0.02f * mg);
}

// A soft angular weld in equilibrium: the angular row carries the torque
// T = m g l/2 and settles where T = k θ with k = I ω² (I about the centre of
// mass: the row's effective mass with a static A).
TEST(Weld, SoftCantileverSagMatchesSpring) {
    Cantilever c(5.0f);
    for (int i = 0; i < 240; ++i) c.w.step(kDt);
    const float T = c.w.mass(c.beam) * kG * 1.0f;
    const float k = c.w.rotationalInertia(c.beam) * omega(5.0f) * omega(5.0f);
    const float expected = -T / k;
    EXPECT_NEAR(c.w.angle(c.beam), expected, 0.03f * std::fabs(expected));
    // Much more sag than the rigid weld, yet the anchor holds.
    EXPECT_LT(distance(anchorA(c.w, c.weld), anchorB(c.w, c.weld)), 0.002f);
}

TEST(MotorJoint, DrivesToOffset) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {1.0f, -1.0f});
    BodyId box = addBox(w, {1.0f, -1.0f}, 0.25f, 0.25f);
    MotorJointDef d;
    d.bodyA = ground;
    d.bodyB = box;
    d.linearOffset = {2.0f, 1.0f};
    d.angularOffset = 0.5f;
    d.maxForce = 50.0f;
    d.maxTorque = 50.0f;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 120; ++i) w.step(kDt);
    EXPECT_NEAR(w.position(box).x, 3.0f, 0.01f);
    EXPECT_NEAR(w.position(box).y, 0.0f, 0.01f);
    EXPECT_NEAR(w.angle(box), 0.5f, 0.01f);
    const float mg = w.mass(box) * kG;
    EXPECT_NEAR(w.jointReactionForce(j).y, mg, 0.01f * mg);  // holds it against gravity

    // A new offset is followed.
    w.setMotorJointOffsets(j, {-1.0f, 0.5f}, -0.25f);
    for (int i = 0; i < 120; ++i) w.step(kDt);
    EXPECT_NEAR(w.position(box).x, 0.0f, 0.01f);
    EXPECT_NEAR(w.position(box).y, -0.5f, 0.01f);
    EXPECT_NEAR(w.angle(box), -0.25f, 0.01f);
}

// With a small max force the servo saturates: B accelerates at F / m
// straight at the target (no gravity), covering F t² / (2 m).
TEST(MotorJoint, ForceLimitGivesConstantAcceleration) {
    World w = makeWorld();
    BodyId ground = addStatic(w);
    BodyId box = addBox(w, {0.0f, 0.0f}, 0.25f, 0.25f);
    w.setGravityScale(box, 0.0f);
    MotorJointDef d;
    d.bodyA = ground;
    d.bodyB = box;
    d.linearOffset = {30.0f, 40.0f};
    d.maxForce = 0.1f;
    d.maxTorque = 1.0f;
    w.createJoint(d);
    for (int i = 0; i < 60; ++i) w.step(kDt);
    const float expected = d.maxForce / w.mass(box) * 0.5f;  // t = 1 s
    const Vec2 p = w.position(box);
    EXPECT_NEAR(length(p), expected, 0.02f * expected);
    EXPECT_NEAR(p.x / length(p), 0.6f, 1e-3f);
}

// Mouse joint, grabbed at the centre of mass: pulled to the target without
// gravity; with gravity it hangs g / ω² below it (k = m ω²).
TEST(MouseJoint, PullsBodyToTarget) {
    for (float g : {0.0f, kG}) {
        World w = makeWorld();
        w.setGravity({0.0f, -g});
        BodyId ground = addStatic(w);
        BodyId box = addBox(w, {0.0f, 0.0f}, 0.3f, 0.2f);
        MouseJointDef d;
        d.bodyA = ground;
        d.bodyB = box;
        d.target = {3.0f, 2.0f};
        d.hertz = 5.0f;
        d.dampingRatio = 0.7f;
        d.maxForce = 1000.0f * w.mass(box);
        JointId j = w.createJoint(d);
        for (int i = 0; i < 180; ++i) w.step(kDt);
        const float sag = g / (omega(5.0f) * omega(5.0f));
        EXPECT_NEAR(w.position(box).x, 3.0f, 0.002f);
        EXPECT_NEAR(w.position(box).y, 2.0f - sag, 0.002f + 0.02f * sag);
        EXPECT_NEAR(w.jointReactionForce(j).y, w.mass(box) * g, 0.01f * w.mass(box) * kG);

        // Dragging: the target moves, the body follows.
        w.setMouseTarget(j, {-1.0f, 4.0f});
        for (int i = 0; i < 180; ++i) w.step(kDt);
        EXPECT_NEAR(w.position(box).x, -1.0f, 0.002f);
        EXPECT_NEAR(w.position(box).y, 4.0f - sag, 0.002f + 0.02f * sag);
    }
}

// A mouse joint weaker than the weight cannot lift: the body sinks at
// a = (F - m g) / m.
TEST(MouseJoint, MaxForceLimitsThePull) {
    World w = makeWorld();
    BodyId ground = addStatic(w);
    BodyId box = addBox(w, {0.0f, 0.0f}, 0.25f, 0.25f);
    MouseJointDef d;
    d.bodyA = ground;
    d.bodyB = box;
    d.target = {0.0f, 100.0f};
    d.hertz = 5.0f;
    d.dampingRatio = 0.7f;
    d.maxForce = 0.5f * w.mass(box) * kG;
    w.createJoint(d);
    for (int i = 0; i < 60; ++i) w.step(kDt);
    EXPECT_NEAR(w.linearVelocity(box).y, -0.5f * kG, 0.01f * 0.5f * kG);
}

// Every joint type between two static bodies is accepted and ignored: the
// step runs, nothing moves, the reactions stay zero; a dynamic body jointed
// elsewhere in the same world is unaffected.
TEST(StaticJoints, AcceptedAndIgnored) {
    World w = makeWorld();
    BodyId s1 = addStatic(w, {0.0f, 0.0f});
    BodyId s2 = addStatic(w, {3.0f, 1.0f});
    std::vector<JointId> ids;
    {
        RevoluteJointDef d;
        d.bodyA = s1, d.bodyB = s2, d.enableMotor = true, d.maxMotorTorque = 10.0f,
        d.motorSpeed = 1.0f;
        ids.push_back(w.createJoint(d));
    }
    {
        PrismaticJointDef d;
        d.bodyA = s1, d.bodyB = s2, d.enableSpring = true, d.hertz = 1.0f;
        ids.push_back(w.createJoint(d));
    }
    {
        DistanceJointDef d;
        d.bodyA = s1, d.bodyB = s2, d.length = 1.0f;
        ids.push_back(w.createJoint(d));
    }
    {
        WeldJointDef d;
        d.bodyA = s1, d.bodyB = s2;
        ids.push_back(w.createJoint(d));
    }
    {
        WheelJointDef d;
        d.bodyA = s1, d.bodyB = s2;
        ids.push_back(w.createJoint(d));
    }
    {
        MotorJointDef d;
        d.bodyA = s1, d.bodyB = s2, d.linearOffset = {1.0f, 1.0f};
        ids.push_back(w.createJoint(d));
    }
    {
        MouseJointDef d;
        d.bodyA = s1, d.bodyB = s2, d.target = {5.0f, 5.0f};
        ids.push_back(w.createJoint(d));
    }
    BodyId bob = addBall(w, {1.0f, -1.0f}, 0.1f);
    RevoluteJointDef pinDef;
    pinDef.bodyA = s1;
    pinDef.bodyB = bob;
    pinDef.localAnchorB = w.localPoint(bob, {0.0f, 0.0f});
    JointId pinId = w.createJoint(pinDef);

    for (int i = 0; i < 60; ++i) w.step(kDt);
    for (JointId j : ids) {
        EXPECT_EQ(w.jointReactionForce(j).x, 0.0f);
        EXPECT_EQ(w.jointReactionForce(j).y, 0.0f);
        EXPECT_EQ(w.jointReactionTorque(j), 0.0f);
    }
    EXPECT_EQ(w.position(s2).x, 3.0f);
    EXPECT_EQ(w.position(s2).y, 1.0f);
    EXPECT_LT(distance(anchorA(w, pinId), anchorB(w, pinId)), 0.01f);
    EXPECT_LT(w.position(bob).y, -1.0f);  // the pendulum swings down
}

// Joined dynamic bodies form one island and sleep together; a joint change wakes them.
TEST(JointIslands, JointLinksIslandAndWakesOnChange) {
    World w;  // sleep on: the island falls asleep
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId a = addBox(w, {-1.0f, 0.5f}, 0.5f, 0.5f);
    BodyId b = addBox(w, {1.0f, 0.5f}, 0.5f, 0.5f);
    DistanceJointDef d;
    d.bodyA = a;
    d.bodyB = b;
    d.length = 2.0f;
    JointId j = w.createJoint(d);
    run(w, 240);
    EXPECT_FALSE(w.isAwake(a));
    EXPECT_FALSE(w.isAwake(b));
    EXPECT_EQ(w.counters().islands, 1);
    w.setDistanceJointLength(j, 2.5f);
    EXPECT_TRUE(w.isAwake(a));
    EXPECT_TRUE(w.isAwake(b));
    run(w, 120);
    EXPECT_NEAR(w.distanceJointLength(j), 2.5f, 0.02f);
    // Removing the joint and the shared contact-free link splits the island
    // when it next falls asleep.
    w.destroyJoint(j);
    run(w, 240);
    EXPECT_EQ(w.counters().islands, 2);
}

// A joint between two static bodies is accepted and ignored; a joint
// between a static and a sleeping body wakes it.
TEST(JointIslands, StaticJointIsIgnoredAndSleeperWakes) {
    World w;
    BodyId a = addStatic(w);
    BodyDef bd;
    bd.position = {3.0f, 0.0f};
    BodyId b = w.createBody(bd);
    RevoluteJointDef d;
    d.bodyA = a;
    d.bodyB = b;
    JointId j = w.createJoint(d);
    run(w, 10);
    EXPECT_EQ(w.jointReactionForce(j), Vec2(0.0f, 0.0f));
    EXPECT_EQ(w.position(b), Vec2(3.0f, 0.0f));

    BodyDef sleeper;
    sleeper.type = BodyType::Dynamic;
    sleeper.isAwake = false;
    sleeper.position = {0.0f, -1.0f};
    BodyId c = w.createBody(sleeper);
    w.createShape(c, ShapeDef{}, makeBox(0.1f, 0.1f));
    w.setAwake(c, false);
    ASSERT_FALSE(w.isAwake(c));
    DistanceJointDef dj;
    dj.bodyA = a;
    dj.bodyB = c;
    dj.length = 1.0f;
    w.createJoint(dj);
    EXPECT_TRUE(w.isAwake(c));
}

// Changing a joint wakes its bodies and the solver sees the change at once.
TEST(JointSetters, WakeBodiesAndTakeEffect) {
    World w = makeWorld(true);
    BodyId ground = addStatic(w);
    BodyId disc = addBall(w, {0.0f, 0.0f}, 0.5f);
    RevoluteJointDef d;
    d.bodyA = ground;
    d.bodyB = disc;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 120; ++i) w.step(kDt);
    ASSERT_FALSE(w.isAwake(disc));  // at rest on its pin: asleep

    w.enableJointMotor(j, true);
    w.setJointMaxMotorForce(j, 100.0f);
    w.setJointMotorSpeed(j, 3.0f);
    EXPECT_TRUE(w.isAwake(disc));
    w.step(kDt);
    EXPECT_NEAR(w.angularVelocity(disc), 3.0f, 1e-3f);

    // Switching the motor off drops its impulse: the disc keeps spinning freely.
    w.enableJointMotor(j, false);
    for (int i = 0; i < 10; ++i) w.step(kDt);
    EXPECT_NEAR(w.angularVelocity(disc), 3.0f, 1e-3f);
    EXPECT_EQ(w.jointReactionTorque(j), 0.0f);
}

}  // namespace
}  // namespace carom::test
