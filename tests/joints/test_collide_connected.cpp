// Changing collideConnected on a live joint (Box2D's
// b2Joint_SetCollideConnected): the contacts between the joint's bodies
// appear at the next step once allowed, and go at once when forbidden,
// deterministically whatever the worker count.
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
    explicit Pair(int workers = 1) : w(worldDef(workers)) {
        a = addBox(w, {0.0f, 0.0f}, 0.5f, 0.5f);
        b = addBox(w, {1.0f, 0.0f}, 0.5f, 0.5f);
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

}  // namespace
}  // namespace carom::test
