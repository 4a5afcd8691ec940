// Prismatic, wheel and distance joints against analytic truth: limits,
// force-limited motors (a = (F - m g) / m), spring equilibria (m g / k with
// k = m ω²), rigid lengths and ropes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/support/fixtures.hpp"

namespace carom::test {
namespace {

constexpr float kG = 10.0f;

float omega(float hertz) {
    return 2.0f * kPi * hertz;
}

// A box on a vertical slider from a static body, anchors at the box centre.
PrismaticJointDef slider(World& w, BodyId ground, BodyId box) {
    PrismaticJointDef d;
    d.bodyA = ground;
    d.bodyB = box;
    d.localAnchorA = w.localPoint(ground, w.position(box));
    d.localAxisA = {0.0f, 1.0f};
    return d;
}

TEST(Prismatic, LimitHoldsAndKeepsTheLine) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 5.0f});
    BodyId box = addBox(w, {0.0f, 5.0f}, 0.3f, 0.2f);
    w.setLinearVelocity(box, {2.0f, 0.0f});  // pushes across the axis: the joint must refuse
    w.setAngularVelocity(box, 3.0f);
    PrismaticJointDef d = slider(w, ground, box);
    d.enableLimit = true;
    d.lowerTranslation = -1.0f;
    d.upperTranslation = 1.0f;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 180; ++i) {
        w.step(kDt);
        ASSERT_GE(w.jointTranslation(j), -1.0f - 0.01f);
        ASSERT_NEAR(w.position(box).x, 0.0f, 0.01f);
        ASSERT_NEAR(w.angle(box), 0.0f, 0.01f);
    }
    EXPECT_NEAR(w.jointTranslation(j), -1.0f, 0.005f);
    const float mg = w.mass(box) * kG;
    EXPECT_NEAR(w.jointReactionForce(j).y, mg, 0.01f * mg);

    // Upper limit: flip gravity.
    w.setGravity({0.0f, kG});
    for (int i = 0; i < 180; ++i) {
        w.step(kDt);
        ASSERT_LE(w.jointTranslation(j), 1.0f + 0.01f);
    }
    EXPECT_NEAR(w.jointTranslation(j), 1.0f, 0.005f);
}

TEST(Prismatic, MotorSpeedAndForceLimit) {
    // Strong motor (F = 2 m g): reaches 1 m/s upwards and holds it.
    {
        World w = makeWorld();
        BodyId ground = addStatic(w, {0.0f, 0.0f});
        BodyId box = addBox(w, {0.0f, 0.0f}, 0.25f, 0.25f);
        PrismaticJointDef d = slider(w, ground, box);
        d.enableMotor = true;
        d.motorSpeed = 1.0f;
        d.maxMotorForce = 2.0f * w.mass(box) * kG;
        JointId j = w.createJoint(d);
        for (int i = 0; i < 60; ++i) w.step(kDt);
        EXPECT_NEAR(w.linearVelocity(box).y, 1.0f, 1e-3f);
        EXPECT_NEAR(w.jointReactionForce(j).y, w.mass(box) * kG, 0.01f * w.mass(box) * kG);
    }
    // Weak motor (F = m g / 2) cannot hold the box: it sinks at a = -g / 2.
    {
        World w = makeWorld();
        BodyId ground = addStatic(w, {0.0f, 0.0f});
        BodyId box = addBox(w, {0.0f, 0.0f}, 0.25f, 0.25f);
        PrismaticJointDef d = slider(w, ground, box);
        d.enableMotor = true;
        d.motorSpeed = 1.0f;
        d.maxMotorForce = 0.5f * w.mass(box) * kG;
        w.createJoint(d);
        for (int i = 0; i < 60; ++i) w.step(kDt);
        EXPECT_NEAR(w.linearVelocity(box).y, -0.5f * kG * 1.0f, 0.02f * 0.5f * kG);
    }
}

TEST(Prismatic, SpringEquilibrium) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 0.0f});
    BodyId box = addBox(w, {0.0f, 0.0f}, 0.25f, 0.25f);
    PrismaticJointDef d = slider(w, ground, box);
    d.enableSpring = true;
    d.hertz = 2.0f;
    d.dampingRatio = 0.7f;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 300; ++i) w.step(kDt);
    const float expected = -kG / (omega(2.0f) * omega(2.0f));  // m g / k, k = m ω²
    EXPECT_NEAR(w.jointTranslation(j), expected, 0.01f * std::fabs(expected));
}

// Box2D v3.2's targetTranslation: the spring's rest point moves to the
// target, so the box hangs at target - m g / k, and follows a new target.
TEST(Prismatic, SpringDrivesToTargetTranslation) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 0.0f});
    BodyId box = addBox(w, {0.0f, 0.0f}, 0.25f, 0.25f);
    PrismaticJointDef d = slider(w, ground, box);
    d.enableSpring = true;
    d.hertz = 2.0f;
    d.dampingRatio = 0.7f;
    d.targetTranslation = 0.75f;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 300; ++i) w.step(kDt);
    const float sag = kG / (omega(2.0f) * omega(2.0f));  // m g / k, k = m ω²
    EXPECT_NEAR(w.jointTranslation(j), 0.75f - sag, 0.01f * sag);
    w.setJointSpringTarget(j, -1.0f);
    EXPECT_EQ(w.prismaticJointDef(j).targetTranslation, -1.0f);
    for (int i = 0; i < 300; ++i) w.step(kDt);
    EXPECT_NEAR(w.jointTranslation(j), -1.0f - sag, 0.01f * sag);
}

// A wheel below a static chassis on a vertical suspension.
WheelJointDef wheelDef(World& w, BodyId chassis, BodyId wheel) {
    WheelJointDef d;
    d.bodyA = chassis;
    d.bodyB = wheel;
    d.localAnchorA = w.localPoint(chassis, w.position(wheel));
    d.localAxisA = {0.0f, 1.0f};
    d.hertz = 2.0f;
    d.dampingRatio = 0.7f;
    return d;
}

TEST(Wheel, SpringEquilibriumDeflection) {
    World w = makeWorld();
    BodyId chassis = addStatic(w, {0.0f, 1.0f});
    BodyId wheel = addBall(w, {0.0f, 0.0f}, 0.4f);
    JointId j = w.createJoint(wheelDef(w, chassis, wheel));
    for (int i = 0; i < 300; ++i) w.step(kDt);
    const float m = w.mass(wheel);
    const float k = m * omega(2.0f) * omega(2.0f);
    const float expected = -m * kG / k;
    EXPECT_NEAR(w.jointTranslation(j), expected, 0.01f * std::fabs(expected));
    EXPECT_NEAR(w.position(wheel).x, 0.0f, 1e-3f);
    EXPECT_NEAR(w.jointReactionForce(j).y, m * kG, 0.01f * m * kG);
}

TEST(Wheel, MotorSpinsWheelAndLimitStopsSuspension) {
    World w = makeWorld();
    BodyId chassis = addStatic(w, {0.0f, 1.0f});
    BodyId wheel = addBall(w, {0.0f, 0.0f}, 0.4f);
    WheelJointDef d = wheelDef(w, chassis, wheel);
    d.enableMotor = true;
    d.motorSpeed = -10.0f;
    d.maxMotorTorque = 5.0f;
    d.enableLimit = true;  // the free deflection (-6.3 cm) is beyond the limit
    d.lowerTranslation = -0.03f;
    d.upperTranslation = 0.03f;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 180; ++i) {
        w.step(kDt);
        ASSERT_GE(w.jointTranslation(j), -0.03f - 0.005f);
    }
    EXPECT_NEAR(w.angularVelocity(wheel), -10.0f, 1e-3f);
    EXPECT_NEAR(w.jointTranslation(j), -0.03f, 0.002f);
    EXPECT_NEAR(w.jointReactionTorque(j), 0.0f, 1e-3f);  // free spinning needs no torque
}

DistanceJointDef rope(World&, BodyId a, BodyId b, float length) {
    DistanceJointDef d;
    d.bodyA = a;
    d.bodyB = b;
    d.localAnchorA = {0.0f, 0.0f};
    d.localAnchorB = {0.0f, 0.0f};
    d.length = length;
    return d;
}

// A disc on a rigid 1 m rod, released horizontally: the rod keeps its length.
TEST(Distance, RigidKeepsLength) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 0.0f});
    BodyId disc = addBall(w, {1.0f, 0.0f}, 0.1f);
    JointId j = w.createJoint(rope(w, ground, disc, 1.0f));
    float worst = 0.0f;
    for (int i = 0; i < 300; ++i) {
        w.step(kDt);
        worst = std::max(worst, std::fabs(w.distanceJointLength(j) - 1.0f));
    }
    EXPECT_LT(worst, 0.005f);
    // Two free bodies linked by a rod, thrown spinning: still the same length.
    World w2 = makeWorld();
    BodyId a = addBox(w2, {0.0f, 0.0f}, 0.2f, 0.2f);
    BodyId b = addBall(w2, {2.0f, 0.0f}, 0.3f);
    w2.setLinearVelocity(b, {0.0f, 6.0f});
    JointId j2 = w2.createJoint(rope(w2, a, b, 2.0f));
    worst = 0.0f;
    for (int i = 0; i < 300; ++i) {
        w2.step(kDt);
        worst = std::max(worst, std::fabs(w2.distanceJointLength(j2) - 2.0f));
    }
    EXPECT_LT(worst, 0.01f);
}

// Box2D v3's distance motor on a slack rope (0 Hz spring) without gravity:
// it winds the length in at its speed until the min length stops it, and the
// generic motor setters reach it.
TEST(Distance, MotorWindsAtItsSpeedUntilTheLimit) {
    World w(noGravity());
    BodyId ground = addStatic(w, {0.0f, 0.0f});
    BodyId disc = addBall(w, {2.0f, 0.0f}, 0.1f);
    DistanceJointDef d = rope(w, ground, disc, 2.0f);
    d.enableSpring = true;
    d.hertz = 0.0f;
    d.enableLimit = true;
    d.minLength = 0.5f;
    d.maxLength = 3.0f;
    d.enableMotor = true;
    d.motorSpeed = -0.5f;
    // Ample for the 0.03 kg disc, yet not enough to press it through the
    // soft limit row (which gives F / (m ω²) at the joint softness).
    d.maxMotorForce = 10.0f;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 60; ++i) w.step(kDt);
    EXPECT_NEAR(w.distanceJointLength(j), 1.5f, 1e-3f);
    EXPECT_NEAR(w.linearVelocity(disc).x, -0.5f, 1e-3f);
    for (int i = 0; i < 180; ++i) w.step(kDt);
    EXPECT_NEAR(w.distanceJointLength(j), 0.5f, 0.01f);
    // Reversed through the setter: paid out again.
    w.setJointMotorSpeed(j, 1.0f);
    for (int i = 0; i < 60; ++i) w.step(kDt);
    EXPECT_NEAR(w.linearVelocity(disc).x, 1.0f, 1e-3f);
    w.enableJointMotor(j, false);
    EXPECT_FALSE(w.distanceJointDef(j).enableMotor);
}

// The motor's force is bounded: holding a hanging disc (speed 0) with half
// its weight, the disc sinks at g / 2, and the joint reports that force.
TEST(Distance, MotorForceIsBounded) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 0.0f});
    BodyId disc = addBall(w, {0.0f, -1.0f}, 0.2f);
    DistanceJointDef d = rope(w, ground, disc, 1.0f);
    d.enableSpring = true;
    d.hertz = 0.0f;
    d.enableMotor = true;
    d.maxMotorForce = 0.5f * w.mass(disc) * kG;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 60; ++i) w.step(kDt);
    EXPECT_NEAR(w.linearVelocity(disc).y, -0.5f * kG * 1.0f, 0.01f * 0.5f * kG);
    EXPECT_NEAR(w.jointConstraintForce(j).y, d.maxMotorForce, 1e-3f * d.maxMotorForce);
    w.setJointMaxMotorForce(j, 2.0f * d.maxMotorForce);
    EXPECT_EQ(w.distanceJointDef(j).maxMotorForce, 2.0f * d.maxMotorForce);
}

TEST(Distance, SpringEquilibriumAndReaction) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 0.0f});
    BodyId disc = addBall(w, {0.0f, -1.0f}, 0.2f);
    DistanceJointDef d = rope(w, ground, disc, 1.0f);
    d.enableSpring = true;
    d.hertz = 2.0f;
    d.dampingRatio = 0.7f;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 300; ++i) w.step(kDt);
    const float stretch = kG / (omega(2.0f) * omega(2.0f));
    EXPECT_NEAR(w.distanceJointLength(j), 1.0f + stretch, 0.01f * stretch);
    const float mg = w.mass(disc) * kG;
    EXPECT_NEAR(w.jointReactionForce(j).y, mg, 0.01f * mg);
}

// A slack rope (spring without stiffness) with max length 1: the disc falls
// freely from 0.5 m and is caught at 1 m.
TEST(Distance, RopeLimits) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 0.0f});
    BodyId disc = addBall(w, {0.0f, -0.5f}, 0.1f);
    DistanceJointDef d = rope(w, ground, disc, 1.0f);
    d.enableSpring = true;
    d.hertz = 0.0f;
    d.enableLimit = true;
    d.minLength = 0.0f;
    d.maxLength = 1.0f;
    JointId j = w.createJoint(d);
    w.step(kDt);
    EXPECT_NEAR(w.linearVelocity(disc).y, -kG * kDt, 1e-4f);  // slack: free fall
    for (int i = 0; i < 180; ++i) {
        w.step(kDt);
        ASSERT_LE(w.distanceJointLength(j), 1.0f + 0.01f);
    }
    EXPECT_NEAR(w.distanceJointLength(j), 1.0f, 0.005f);

    // A min length pushes: the disc thrown up towards the anchor stops at 0.5 m.
    w.setJointLimits(j, 0.5f, 1.0f);
    w.setLinearVelocity(disc, {0.0f, 8.0f});
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        ASSERT_GE(w.distanceJointLength(j), 0.5f - 0.01f);
    }
}

// Limits with min == max make the joint rigid at that length even with a spring.
TEST(Distance, EqualLimitsAreRigid) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 0.0f});
    BodyId disc = addBall(w, {0.0f, -0.8f}, 0.1f);
    DistanceJointDef d = rope(w, ground, disc, 2.0f);
    d.enableSpring = true;
    d.hertz = 1.0f;
    d.enableLimit = true;
    d.minLength = 0.8f;
    d.maxLength = 0.8f;
    JointId j = w.createJoint(d);
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        ASSERT_NEAR(w.distanceJointLength(j), 0.8f, 0.005f);
    }
}

}  // namespace
}  // namespace carom::test
