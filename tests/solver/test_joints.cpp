// Joints through the full World::step pipeline (joint math: solver/joint_*.cpp;
// these tests check the step drives it: prepare, warm start, solve, relax,
// islands). Analytic references as in the solver issue.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/solver/helpers.hpp"

namespace carom {
namespace {

using test::kDt;

BodyId addStatic(World& w) { return w.createBody(BodyDef{}); }

// A small box on a 1 m massless arm released at 0.1 rad swings with the
// period of a physical pendulum, T = 2π √(I / (m g l)), I about the pivot;
// the pivot stays within 1 cm of the anchor all along.
TEST(SolverJoints, PendulumPeriodAndLength) {
    World w;
    const float l = 1.0f, theta0 = 0.1f;
    BodyId ground = addStatic(w);
    BodyId bob = test::addBox(w, {l * std::sin(theta0), -l * std::cos(theta0)}, 0.1f, 0.1f);
    RevoluteJointDef d;
    d.bodyA = ground;
    d.bodyB = bob;
    d.localAnchorA = {0.0f, 0.0f};
    d.localAnchorB = w.localPoint(bob, {0.0f, 0.0f});
    w.createJoint(d);
    const double m = w.mass(bob);
    const double I = double(w.rotationalInertia(bob)) + m * l * l;
    const double expected = 2.0 * 3.14159265358979 * std::sqrt(I / (m * 10.0 * l));
    std::vector<double> crossings;
    float prevX = w.worldCenterOfMass(bob).x;
    for (int i = 1; i <= 600; ++i) {
        w.step(kDt);
        const float x = w.worldCenterOfMass(bob).x;
        if (prevX < 0.0f && x >= 0.0f) crossings.push_back((double(i - 1) + double(prevX / (prevX - x))) * kDt);
        prevX = x;
        ASSERT_NEAR(length(w.worldPoint(bob, d.localAnchorB)), 0.0f, 0.01f) << "step " << i;
        ASSERT_NEAR(length(w.worldCenterOfMass(bob)), l, 0.01f) << "step " << i;
    }
    ASSERT_GE(crossings.size(), 4u);
    const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    EXPECT_NEAR(period, expected, 0.015 * expected);
}

// A rigid distance joint keeps two swinging bodies at its length.
TEST(SolverJoints, RigidDistanceJointKeepsLength) {
    World w;
    BodyId ground = addStatic(w);
    BodyId a = test::addBall(w, {0.0f, 0.0f}, 0.2f);
    BodyId b = test::addBall(w, {2.0f, 0.0f}, 0.2f);
    RevoluteJointDef pinA;
    pinA.bodyA = ground;
    pinA.bodyB = a;
    w.createJoint(pinA);
    DistanceJointDef d;
    d.bodyA = a;
    d.bodyB = b;
    d.length = 2.0f;
    JointId j = w.createJoint(d);
    float worst = 0.0f, lowest = 0.0f;
    for (int i = 0; i < 300; ++i) {
        w.step(kDt);
        worst = std::max(worst, std::fabs(w.distanceJointLength(j) - 2.0f));
        lowest = std::min(lowest, w.position(b).y);
    }
    EXPECT_LT(worst, 0.01f);
    EXPECT_LT(lowest, -1.5f);  // it swung down
}

// A bar pinned at one end falls onto a revolute limit and stays there.
TEST(SolverJoints, RevoluteLimitHolds) {
    World w;
    BodyId ground = addStatic(w);
    BodyId bar = test::addBox(w, {1.0f, 0.0f}, 1.0f, 0.1f);
    RevoluteJointDef d;
    d.bodyA = ground;
    d.bodyB = bar;
    d.localAnchorB = {-1.0f, 0.0f};
    d.enableLimit = true;
    d.lowerAngle = -0.5f;
    d.upperAngle = 0.5f;
    JointId j = w.createJoint(d);
    float lowest = 0.0f;
    for (int i = 0; i < 240; ++i) {
        w.step(kDt);
        lowest = std::min(lowest, w.revoluteAngle(j));
    }
    EXPECT_GT(lowest, -0.5f - 0.02f);
    EXPECT_NEAR(w.revoluteAngle(j), -0.5f, 0.02f);
}

// A motor with enough torque spins a wheel at its speed.
TEST(SolverJoints, MotorReachesSpeed) {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World w(def);
    BodyId ground = addStatic(w);
    BodyId wheel = test::addBall(w, {0.0f, 0.0f}, 0.5f);
    RevoluteJointDef d;
    d.bodyA = ground;
    d.bodyB = wheel;
    d.enableMotor = true;
    d.motorSpeed = 3.0f;
    d.maxMotorTorque = 100.0f;
    w.createJoint(d);
    test::run(w, 60);
    EXPECT_NEAR(w.angularVelocity(wheel), 3.0f, 0.01f);
    EXPECT_NEAR(length(w.position(wheel)), 0.0f, 0.005f);
}

// Joined dynamic bodies form one island and sleep together; a joint change wakes them.
TEST(SolverJoints, JointLinksIslandAndWakesOnChange) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId a = test::addBox(w, {-1.0f, 0.5f}, 0.5f, 0.5f);
    BodyId b = test::addBox(w, {1.0f, 0.5f}, 0.5f, 0.5f);
    DistanceJointDef d;
    d.bodyA = a;
    d.bodyB = b;
    d.length = 2.0f;
    JointId j = w.createJoint(d);
    test::run(w, 240);
    EXPECT_FALSE(w.isAwake(a));
    EXPECT_FALSE(w.isAwake(b));
    EXPECT_EQ(w.counters().islands, 1);
    w.setDistanceJointLength(j, 2.5f);
    EXPECT_TRUE(w.isAwake(a));
    EXPECT_TRUE(w.isAwake(b));
    test::run(w, 120);
    EXPECT_NEAR(w.distanceJointLength(j), 2.5f, 0.02f);
    // Removing the joint and the shared contact-free link splits the island
    // when it next falls asleep.
    w.destroyJoint(j);
    test::run(w, 240);
    EXPECT_EQ(w.counters().islands, 2);
}

// A joint between two static bodies is accepted and ignored; a joint
// between a static and a sleeping body wakes it.
TEST(SolverJoints, StaticJointsAreIgnoredAndSleepersWake) {
    World w;
    BodyId a = addStatic(w);
    BodyDef bd;
    bd.position = {3.0f, 0.0f};
    BodyId b = w.createBody(bd);
    RevoluteJointDef d;
    d.bodyA = a;
    d.bodyB = b;
    JointId j = w.createJoint(d);
    test::run(w, 10);
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

}  // namespace
}  // namespace carom
