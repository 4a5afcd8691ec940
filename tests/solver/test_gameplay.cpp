// Explosions and kinematic targets against their documented formulas.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::addBall;
using test::addBox;
using test::addGround;
using test::kDt;
using test::noGravity;
using test::run;

// Two equal boxes mirrored about the blast get equal and opposite impulses,
// each along the line to the blast, of impulsePerLength × width × scale.
TEST(Explosion, SymmetricAndSizedByWidth) {
    World w(noGravity());
    BodyId left = addBox(w, {-3.0f, 0.0f}, 0.5f, 1.0f);
    BodyId right = addBox(w, {3.0f, 0.0f}, 0.5f, 1.0f);
    ExplosionDef e;
    e.radius = 5.0f;
    e.impulsePerLength = 2.0f;
    w.explode(e);
    const Vec2 vl = w.linearVelocity(left), vr = w.linearVelocity(right);
    EXPECT_FLOAT_EQ(vl.x, -vr.x);
    EXPECT_FLOAT_EQ(vl.y, vr.y);
    EXPECT_NEAR(vl.y, 0.0f, 1e-6f);
    EXPECT_NEAR(w.angularVelocity(left), 0.0f, 1e-5f);  // pushed through the centre of mass
    // The box faces the blast with its 2 m tall side: impulse 2 N·s/m × 2 m; mass 2 kg.
    EXPECT_NEAR(vr.x, 2.0f * 2.0f / w.mass(right), 1e-4f);
}

// Within radius full strength; over the falloff linear to zero; beyond nothing.
TEST(Explosion, FallsOffLinearly) {
    World w(noGravity());
    const float r = 0.5f;
    BodyId inside = addBall(w, {1.5f, 0.0f}, r);    // surface at 1.0: within radius 2
    BodyId half = addBall(w, {0.0f, 3.5f}, r);      // surface at 3.0: halfway over falloff 2
    BodyId outside = addBall(w, {-4.6f, 0.0f}, r);  // surface at 4.1: beyond 2 + 2
    ExplosionDef e;
    e.radius = 2.0f;
    e.falloff = 2.0f;
    e.impulsePerLength = 1.0f;
    w.explode(e);
    const float m = w.mass(inside);
    EXPECT_NEAR(w.linearVelocity(inside).x, 2.0f * r / m, 1e-4f);
    EXPECT_NEAR(w.linearVelocity(half).y, 0.5f * 2.0f * r / m, 1e-4f);
    EXPECT_EQ(w.linearVelocity(outside).x, 0.0f);
    EXPECT_EQ(w.linearVelocity(outside).y, 0.0f);
}

// Static bodies, sensors and masked-out categories are not pushed; a sleeping
// body is woken.
TEST(Explosion, RespectsMaskAndWakes) {
    World w(noGravity());
    addGround(w, {0.0f, -2.0f}, 5.0f, 0.5f);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {2.0f, 0.0f};
    bd.isAwake = false;
    BodyId sleeper = w.createBody(bd);
    w.createShape(sleeper, ShapeDef{}, makeBox(0.5f, 0.5f));
    bd.position = {-2.0f, 0.0f};
    bd.isAwake = true;
    BodyId other = w.createBody(bd);
    ShapeDef sd;
    sd.filter.categoryBits = 4;
    w.createShape(other, sd, makeBox(0.5f, 0.5f));
    ASSERT_FALSE(w.isAwake(sleeper));
    ExplosionDef e;
    e.radius = 4.0f;
    e.maskBits = 1;
    w.explode(e);
    EXPECT_TRUE(w.isAwake(sleeper));
    EXPECT_GT(w.linearVelocity(sleeper).x, 0.0f);
    EXPECT_EQ(w.linearVelocity(other).x, 0.0f);
}

TEST(Explosion, RefusesBadDefUnchanged) {
    World w(noGravity());
    BodyId b = addBox(w, {1.0f, 0.0f}, 0.5f, 0.5f);
    const uint64_t before = w.stateHash();
    for (ExplosionDef e :
         {ExplosionDef{{NAN, 0.0f}}, ExplosionDef{{0, 0}, -1.0f}, ExplosionDef{{0, 0}, 1.0f, -1.0f},
          ExplosionDef{{0, 0}, 1.0f, 0.0f, INFINITY}, ExplosionDef{{0, 0}, 3e38f, 3e38f}}) {
        EXPECT_THROW(w.explode(e), Error);
        EXPECT_EQ(w.stateHash(), before);
    }
    EXPECT_EQ(w.linearVelocity(b).x, 0.0f);
}

// A kinematic platform driven by setTargetTransform reaches each target pose
// in one step (to float rounding) and carries the box standing on it.
TEST(KinematicTarget, ReachesPoseAndCarriesLoad) {
    World w;
    BodyDef pd;
    pd.type = BodyType::Kinematic;
    BodyId platform = w.createBody(pd);
    w.createShape(platform, ShapeDef{}, makeBox(3.0f, 0.25f));
    BodyId box = addBox(w, {0.0f, 0.75f}, 0.5f, 0.5f);
    run(w, 30);  // settle
    const float x0 = w.position(box).x;
    for (int i = 1; i <= 120; ++i) {
        const float t = float(i) * kDt;
        // Gentle accelerations (≤ 2 m/s² sideways), well within what friction holds.
        const Transform target{{2.0f * (1.0f - std::cos(t)), 0.25f * t * t}, makeRot(0.0f)};
        w.setTargetTransform(platform, target, kDt);
        w.step(kDt);
        ASSERT_NEAR(w.position(platform).x, target.p.x, 1e-4f);
        ASSERT_NEAR(w.position(platform).y, target.p.y, 1e-4f);
    }
    // The platform moved 2 (1 - cos 2) ≈ 2.83 m sideways and 1 m up; the box with it.
    EXPECT_NEAR(w.position(box).x - x0, 2.0f * (1.0f - std::cos(2.0f)), 0.05f);
    EXPECT_NEAR(w.position(box).y, 0.25f * 4.0f + 0.75f, 0.02f);
}

// Rotation by the shortest way, across the ±π seam. The step's rotation
// update is the small-angle one (normalise q + hω q⊥ per substep), so a turn
// of θ in one step lands within about θ³/(3n²) of the target (n substeps).
TEST(KinematicTarget, TurnsTheShortWay) {
    World w(noGravity());
    BodyDef bd;
    bd.type = BodyType::Kinematic;
    bd.angle = 3.0f;
    BodyId door = w.createBody(bd);
    w.createShape(door, ShapeDef{}, makeBox(1.0f, 0.1f));
    const float targetAngle = -3.0f;  // 0.283 rad further counter-clockwise, not 6 rad back
    w.setTargetTransform(door, Transform{{0.0f, 0.0f}, makeRot(targetAngle)}, kDt);
    EXPECT_NEAR(w.angularVelocity(door), (2.0f * kPi - 6.0f) / kDt, 1e-2f);
    w.step(kDt);
    const float turn = 2.0f * kPi - 6.0f;
    EXPECT_NEAR(std::remainder(w.angle(door) - targetAngle, 2.0f * kPi), 0.0f,
                turn * turn * turn / 3.0f / 16.0f * 1.1f);
    EXPECT_THROW(w.setTargetTransform(door, Transform{{0.0f, 0.0f}, makeRot(0.0f)}, 0.0f), Error);
}

}  // namespace
}  // namespace carom
