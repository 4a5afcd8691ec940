// Box2D v3.2's body and query calls that Carom took over: waking what
// touches a body (b2Body_WakeTouching), recomputing the mass from the shapes
// on request (b2Body_ApplyMassFromShapes), clearing the accumulated forces
// (b2Body_ClearForces), the closest-hit shape cast and the per-body switch
// for contact recycling, each against what its header promises.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::addBox;
using test::addGround;
using test::kDt;
using test::noGravity;
using test::run;

// Box2D's "Wake Touching" sample: a row of boxes asleep on the ground, each
// its own island; waking what touches the ground wakes every one of them,
// and a sleeping box the ground does not touch stays asleep.
TEST(WakeTouching, WakesEverySleepingBodyOnTheGround) {
    World w;
    const BodyId ground = addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f);
    std::vector<BodyId> boxes;
    for (int i = 0; i < 10; ++i)
        boxes.push_back(addBox(w, {-9.0f + 2.0f * float(i), 0.5f}, 0.5f, 0.5f));
    BodyDef far;
    far.type = BodyType::Dynamic;
    far.position = {0.0f, 50.0f};
    far.gravityScale = 0.0f;
    const BodyId floating = w.createBody(far);
    w.createShape(floating, ShapeDef{}, makeBox(0.5f, 0.5f));
    for (int i = 0; i < 200; ++i) w.step(kDt);
    for (BodyId b : boxes) ASSERT_FALSE(w.isAwake(b));
    ASSERT_FALSE(w.isAwake(floating));

    w.wakeTouching(ground);
    for (BodyId b : boxes) EXPECT_TRUE(w.isAwake(b));
    EXPECT_FALSE(w.isAwake(floating));
    EXPECT_FALSE(w.isAwake(ground));  // a static body is never awake
}

// From a dynamic body: its touching neighbour wakes (with its island), a
// body merely near it (a contact without points) does not.
TEST(WakeTouching, WakesOnlyBodiesWithManifoldPoints) {
    World w(noGravity());
    const BodyId a = addBox(w, {0.0f, 0.0f}, 0.5f, 0.5f);
    const BodyId touching = addBox(w, {1.0f, 0.0f}, 0.5f, 0.5f);
    // Fat boxes overlap (a contact exists) but the faces are 0.1 m apart,
    // beyond the speculative distance: no points.
    const BodyId near = addBox(w, {-1.1f, 0.0f}, 0.5f, 0.5f);
    w.step(kDt);
    ASSERT_EQ(w.counters().contacts, 2);
    ASSERT_EQ(w.counters().touchingContacts, 1);
    for (BodyId b : {a, touching, near}) w.setAwake(b, false);
    for (BodyId b : {a, touching, near}) ASSERT_FALSE(w.isAwake(b));

    w.wakeTouching(a);
    EXPECT_TRUE(w.isAwake(touching));
    EXPECT_FALSE(w.isAwake(near));
}

// The mass a body's shapes give, for comparison: a fresh body with the
// same shapes.
MassData massOfBoxes(float density) {
    World w;
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    const BodyId b = w.createBody(bd);
    ShapeDef sd;
    sd.density = density;
    w.createShape(b, sd, makeBox(0.5f, 0.25f));
    w.createShape(b, sd, makeOffsetBox(0.25f, 0.25f, {1.0f, 0.5f}, 0.0f));
    return w.massData(b);
}

void expectSameMass(const MassData& a, const MassData& b) {
    EXPECT_EQ(a.mass, b.mass);
    EXPECT_EQ(a.center.x, b.center.x);
    EXPECT_EQ(a.center.y, b.center.y);
    EXPECT_EQ(a.rotationalInertia, b.rotationalInertia);
}

// After setMassData, applyMassFromShapes gives back the shapes' mass, to the
// bit, and the override is over.
TEST(ApplyMassFromShapes, EndsASetMassDataOverride) {
    World w(noGravity());
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    const BodyId b = w.createBody(bd);
    ShapeDef sd;
    sd.density = 2.0f;
    w.createShape(b, sd, makeBox(0.5f, 0.25f));
    w.createShape(b, sd, makeOffsetBox(0.25f, 0.25f, {1.0f, 0.5f}, 0.0f));
    w.setMassData(b, MassData{7.0f, {0.0f, 0.0f}, 3.0f});
    ASSERT_TRUE(w.isMassOverridden(b));
    ASSERT_EQ(w.mass(b), 7.0f);

    w.applyMassFromShapes(b);
    EXPECT_FALSE(w.isMassOverridden(b));
    expectSameMass(w.massData(b), massOfBoxes(2.0f));
}

// Shapes added with updateBodyMass = false count only once asked: then the
// mass is what adding them with the update would have given.
TEST(ApplyMassFromShapes, TakesInShapesAddedWithoutTheUpdate) {
    World w(noGravity());
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    const BodyId b = w.createBody(bd);
    ShapeDef sd;
    sd.density = 2.0f;
    sd.updateBodyMass = false;
    w.createShape(b, sd, makeBox(0.5f, 0.25f));
    w.createShape(b, sd, makeOffsetBox(0.25f, 0.25f, {1.0f, 0.5f}, 0.0f));
    EXPECT_EQ(w.mass(b), 1.0f);  // a dynamic body without mass moves as 1 kg

    w.applyMassFromShapes(b);
    expectSameMass(w.massData(b), massOfBoxes(2.0f));
}

// Moving the centre keeps the velocity of the body's material points (as
// every mass change does), and motion locks still hold.
TEST(ApplyMassFromShapes, KeepsMaterialPointVelocitiesAndLocks) {
    World w(noGravity());
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.motionLocks.linearY = true;
    const BodyId b = w.createBody(bd);
    ShapeDef sd;
    sd.updateBodyMass = false;
    w.createShape(b, sd, makeOffsetBox(0.5f, 0.5f, {2.0f, 0.0f}, 0.0f));
    w.setAngularVelocity(b, 1.0f);
    const Vec2 probe{2.0f, 0.0f};
    const Vec2 before = w.pointVelocity(b, probe);
    w.applyMassFromShapes(b);
    EXPECT_EQ(w.localCenterOfMass(b).x, 2.0f);
    EXPECT_NEAR(w.pointVelocity(b, probe).x, before.x, 1e-6f);
    EXPECT_EQ(w.linearVelocity(b).y, 0.0f);  // the locked axis
}

// A static body has no mass to compute.
TEST(ApplyMassFromShapes, StaticBodyKeepsNoMass) {
    World w;
    const BodyId g = addGround(w, {0.0f, 0.0f}, 1.0f, 1.0f);
    w.applyMassFromShapes(g);
    EXPECT_EQ(w.mass(g), 0.0f);
    EXPECT_FALSE(w.isMassOverridden(g));
}

// Forces and torques applied and then cleared act on no step: the body
// moves as one that was never pushed, to the bit.
TEST(ClearForces, ClearedForcesDoNotAct) {
    auto build = [](World& w) { return addBox(w, {0.0f, 2.0f}, 0.5f, 0.5f); };
    World pushed, untouched;
    const BodyId a = build(pushed), b = build(untouched);
    pushed.applyForce(a, {100.0f, 50.0f}, {0.5f, 2.5f});
    pushed.applyTorque(a, 20.0f);
    pushed.clearForces(a);
    pushed.step(kDt);
    untouched.step(kDt);
    EXPECT_EQ(pushed.stateHash(), untouched.stateHash());
    // A force applied after clearing still acts.
    pushed.applyForceToCenter(a, {100.0f, 0.0f});
    pushed.step(kDt);
    EXPECT_GT(pushed.linearVelocity(a).x, 0.0f);
    (void)b;
}

// Clearing does not wake a sleeping body, and is accepted on any body type.
TEST(ClearForces, DoesNotWake) {
    World w;
    addGround(w, {0.0f, -0.5f}, 5.0f, 0.5f);
    const BodyId box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    run(w, 200);
    ASSERT_FALSE(w.isAwake(box));
    w.clearForces(box);
    EXPECT_FALSE(w.isAwake(box));
}

// Static boxes of half size 0.5 at `centres`, in creation (id) order.
std::vector<ShapeId> boxRow(World& w, std::initializer_list<Vec2> centres) {
    std::vector<ShapeId> out;
    for (Vec2 c : centres) {
        BodyDef bd;
        bd.position = c;
        out.push_back(w.createShape(w.createBody(bd), ShapeDef{}, makeBox(0.5f, 0.5f)));
    }
    return out;
}

WorldDef withBroadphase(BroadphaseType type) {
    WorldDef def;
    def.broadphase = type;
    return def;
}

// A circle swept along a row of boxes stops at the nearest one, with the
// hit the callback form reports as its least fraction, whatever the
// broadphase (the boxes created far side first).
TEST(CastShapeClosest, TheNearestOfARow) {
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        World w(withBroadphase(type));
        const std::vector<ShapeId> row = boxRow(w, {{6.0f, 0.0f}, {4.0f, 0.0f}, {2.0f, 0.0f}});
        const Circle ball{{0.0f, 0.0f}, 0.25f};
        const Transform at{{0.0f, 0.0f}, Rot{}};
        const RayResult r = w.castShapeClosest(ball, at, {10.0f, 0.0f});
        ASSERT_TRUE(r.hit);
        EXPECT_EQ(r.shape, row[2]);
        EXPECT_NEAR(r.fraction, (2.0f - 0.5f - 0.25f) / 10.0f, 1e-4f);
        EXPECT_NEAR(r.normal.x, -1.0f, 1e-4f);
        RayResult least;
        w.castShape(ball, at, {10.0f, 0.0f}, {}, [&](ShapeId id, Vec2 p, Vec2 n, float f) {
            if (!least.hit || f < least.fraction) least = {id, p, n, f, true};
            return 1.0f;  // see every hit
        });
        EXPECT_EQ(least.shape, r.shape);
        EXPECT_EQ(least.fraction, r.fraction);
        EXPECT_EQ(least.point.x, r.point.x);
    }
}

// Two boxes met at the same fraction: the lower shape id, whatever the
// broadphase; a sweep that meets nothing has no hit; the filter applies.
TEST(CastShapeClosest, TiesGoToTheLowerIdAndMissesAreNoHit) {
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        World w(withBroadphase(type));
        const std::vector<ShapeId> pair = boxRow(w, {{3.0f, 0.6f}, {3.0f, -0.6f}});
        const Capsule wide{{0.0f, -1.0f}, {0.0f, 1.0f}, 0.2f};
        const Transform at{{0.0f, 0.0f}, Rot{}};
        const RayResult r = w.castShapeClosest(wide, at, {5.0f, 0.0f});
        ASSERT_TRUE(r.hit);
        EXPECT_EQ(r.shape, pair[0]);
        EXPECT_FALSE(w.castShapeClosest(wide, at, {0.0f, 5.0f}).hit);
        QueryFilter none;
        none.maskBits = 0;
        EXPECT_FALSE(w.castShapeClosest(wide, at, {5.0f, 0.0f}, none).hit);
    }
}

// Refused as castShape refuses: a translation that is not finite.
TEST(CastShapeClosest, RefusesWhatCastShapeRefuses) {
    World w;
    boxRow(w, {{2.0f, 0.0f}});
    const float nan = std::numeric_limits<float>::quiet_NaN();
    try {
        (void)w.castShapeClosest(Circle{{0.0f, 0.0f}, 0.25f}, Transform{{0.0f, 0.0f}, Rot{}},
                                 {nan, 0.0f});
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.field(), "translation");
    }
    // A moved-from World has no state: StaleId, as for castRayClosest.
    World gone = std::move(w);
    try {
        (void)w.castShapeClosest(Circle{{0.0f, 0.0f}, 0.25f}, Transform{{0.0f, 0.0f}, Rot{}},
                                 {1.0f, 0.0f});
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::StaleId);
    }
}

// Box2D v3.2's per-body contact recycling switch: a box at rest on the
// ground keeps its manifolds by default; with the switch off on either body
// of the pair the narrowphase runs every step, and the flag travels with a
// snapshot.
TEST(ContactReuse, PerBodySwitchTurnsReuseOff) {
    World w;
    addGround(w, {0.0f, -0.5f}, 5.0f, 0.5f);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.0f, 0.5f};
    bd.enableSleep = false;  // keep it stepping at rest
    const BodyId box = w.createBody(bd);
    w.createShape(box, ShapeDef{}, makeBox(0.5f, 0.5f));
    EXPECT_TRUE(w.isContactReuseEnabled(box));
    run(w, 60);
    int reused = 0;
    for (int i = 0; i < 30; ++i) {
        w.step(kDt);
        reused += w.profile().reusedManifolds;
    }
    ASSERT_GT(reused, 0);

    w.enableContactReuse(box, false);
    EXPECT_FALSE(w.isContactReuseEnabled(box));
    for (int i = 0; i < 30; ++i) {
        w.step(kDt);
        EXPECT_EQ(w.profile().reusedManifolds, 0);
    }
    World copy;
    copy.restore(w.snapshot());
    EXPECT_FALSE(copy.isContactReuseEnabled(box));
    bd.enableContactReuse = false;
    EXPECT_FALSE(w.isContactReuseEnabled(w.createBody(bd)));
}

}  // namespace
}  // namespace carom
