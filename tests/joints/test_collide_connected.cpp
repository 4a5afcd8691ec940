// Changing collideConnected on a live joint (Box2D's
// b2Joint_SetCollideConnected): the contacts between the joint's bodies
// appear at the next step once allowed, and go at once when forbidden,
// deterministically whatever the worker count. And the filter joint (Box2D
// v3.2's b2FilterJointDef): two bodies that never collide, and nothing else.
#include <gtest/gtest.h>

#include <cstdint>

#include "tests/support/fixtures.hpp"

namespace carom::test {
namespace {

// Two boxes face to face with no gravity, tied by a slack rope that
// forbids their collision: B drifts into A. Box2D's own sample pins them
// with a revolute joint; a rope leaves them free to meet.
struct Pair {
    World w;
    BodyId a, b;
    JointId rope;
    explicit Pair(int workers = 1, bool filter = false) : w(worldDef(workers)) {
        a = addBox(w, {0.0f, 0.0f}, 0.5f, 0.5f);
        b = addBox(w, {1.0f, 0.0f}, 0.5f, 0.5f);
        if (filter) {
            FilterJointDef d;
            d.bodyA = a;
            d.bodyB = b;
            rope = w.createJoint(d);
            return;
        }
        RopeJointDef d = w.makeRopeJointDef(a, b, {0.0f, 0.0f}, {1.0f, 0.0f});
        d.maxLength = 5.0f;
        rope = w.createJoint(d);
    }
    static WorldDef worldDef(int workers) {
        WorldDef def = noGravity();
        def.workerCount = workers;
        return def;
    }
    int touching() const { return w.counters().touchingContacts; }
};

TEST(SetCollideConnected, TurnedOnMakesTheContactAtTheNextStep) {
    Pair p;
    p.w.step(kDt);
    ASSERT_EQ(p.w.counters().contacts, 0);
    p.w.setJointCollideConnected(p.rope, true);
    EXPECT_TRUE(p.w.jointCollideConnected(p.rope));
    EXPECT_EQ(p.w.counters().contacts, 0);  // not before the step
    p.w.step(kDt);
    EXPECT_EQ(p.touching(), 1);
    ASSERT_EQ(p.w.contactEvents().begin.size(), 1u);
}

TEST(SetCollideConnected, TurnedOffDestroysTheContactNow) {
    Pair p;
    p.w.setJointCollideConnected(p.rope, true);
    p.w.step(kDt);
    ASSERT_EQ(p.touching(), 1);
    p.w.setJointCollideConnected(p.rope, false);
    EXPECT_FALSE(p.w.jointCollideConnected(p.rope));
    EXPECT_EQ(p.w.counters().contacts, 0);
    p.w.step(kDt);
    EXPECT_EQ(p.w.counters().contacts, 0);
    EXPECT_EQ(p.w.contactEvents().end.size(), 1u);  // the touch that ended
}

// Another joint between the same bodies that forbids their collision still
// does, whatever this one allows.
TEST(SetCollideConnected, AnotherForbiddingJointStillForbids) {
    Pair p;
    RopeJointDef d = p.w.makeRopeJointDef(p.a, p.b, {0.0f, 0.0f}, {1.0f, 0.0f});
    d.maxLength = 5.0f;
    p.w.createJoint(d);
    p.w.setJointCollideConnected(p.rope, true);
    p.w.step(kDt);
    EXPECT_EQ(p.w.counters().contacts, 0);
}

// Allowed, the boxes push apart as two free boxes created touching do; the
// toggled run is the same bits at one and at four workers.
TEST(SetCollideConnected, ToggledRunIsDeterministic) {
    auto run = [](int workers) {
        Pair p(workers);
        p.w.setLinearVelocity(p.b, {-1.0f, 0.0f});
        for (int i = 0; i < 60; ++i) {
            if (i % 20 == 5) p.w.setJointCollideConnected(p.rope, true);
            if (i % 20 == 15) p.w.setJointCollideConnected(p.rope, false);
            p.w.step(kDt);
        }
        return p.w.stateHash();
    };
    const uint64_t one = run(1);
    EXPECT_EQ(one, run(4));
    // And the flag changes the outcome: a run never allowed differs.
    Pair never;
    never.w.setLinearVelocity(never.b, {-1.0f, 0.0f});
    for (int i = 0; i < 60; ++i) never.w.step(kDt);
    EXPECT_NE(one, never.w.stateHash());
}

// The same value again changes nothing (no wake, no pair search).
TEST(SetCollideConnected, SameValueIsNoChange) {
    Pair p;
    p.w.step(kDt);
    p.w.setAwake(p.a, false);
    ASSERT_FALSE(p.w.isAwake(p.a));
    p.w.setJointCollideConnected(p.rope, false);
    EXPECT_FALSE(p.w.isAwake(p.a));
    p.w.setJointCollideConnected(p.rope, true);
    EXPECT_TRUE(p.w.isAwake(p.a));
}

// A filter joint: B drifts through A untouched, its velocity exact (no
// constraint acts), and the joint reports no force.
TEST(FilterJoint, BodiesPassThroughEachOtherUntouched) {
    Pair p(1, true);
    EXPECT_EQ(p.w.jointType(p.rope), JointType::Filter);
    p.w.setLinearVelocity(p.b, {-1.0f, 0.0f});
    for (int i = 0; i < 90; ++i) {
        p.w.step(kDt);
        ASSERT_EQ(p.w.counters().contacts, 0);
    }
    EXPECT_EQ(p.w.linearVelocity(p.b).x, -1.0f);
    EXPECT_EQ(p.w.linearVelocity(p.b).y, 0.0f);
    EXPECT_EQ(p.w.linearVelocity(p.a).x, 0.0f);
    EXPECT_LT(p.w.position(p.b).x, -0.4f);  // through A and out
    EXPECT_EQ(p.w.jointConstraintForce(p.rope).x, 0.0f);
    EXPECT_EQ(p.w.jointConstraintForce(p.rope).y, 0.0f);
}

// Like every joint it keeps its bodies in one island: they sleep together.
TEST(FilterJoint, KeepsItsBodiesInOneIsland) {
    Pair p(1, true);
    p.w.step(kDt);
    p.w.setAwake(p.a, false);
    EXPECT_FALSE(p.w.isAwake(p.b));
}

// collideConnected turned on lets the bodies collide without destroying the
// joint; destroying the joint does too.
TEST(FilterJoint, OffByCollideConnectedOrDestruction) {
    Pair on(1, true);
    on.w.setJointCollideConnected(on.rope, true);
    on.w.step(kDt);
    EXPECT_EQ(on.touching(), 1);
    Pair gone(1, true);
    gone.w.destroyJoint(gone.rope);
    gone.w.step(kDt);
    EXPECT_EQ(gone.touching(), 1);
}

// A snapshot carries the filter joint: the restored world steps to the same
// bits and still keeps the bodies apart.
TEST(FilterJoint, SnapshotCarriesIt) {
    Pair p(1, true);
    p.w.setLinearVelocity(p.b, {-1.0f, 0.0f});
    p.w.step(kDt);
    const Snapshot snap = p.w.snapshot();
    for (int i = 0; i < 30; ++i) p.w.step(kDt);
    const uint64_t expected = p.w.stateHash();
    World copy(Pair::worldDef(1));
    copy.restore(Snapshot::fromBytes(snap.bytes()));
    EXPECT_EQ(copy.jointType(p.rope), JointType::Filter);
    for (int i = 0; i < 30; ++i) copy.step(kDt);
    EXPECT_EQ(copy.stateHash(), expected);
    EXPECT_EQ(copy.counters().contacts, 0);
}

}  // namespace
}  // namespace carom::test
