// Explosions, wind and kinematic targets against their documented formulas.
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

// Wind (World::applyWind): the force of one step, read back as F·dt/m from
// a body at rest without gravity.
Vec2 windKick(World& w, BodyId b, const Wind& wind) {
    w.applyWind(w.shapes(b)[0], wind);
    const Vec2 v0 = w.linearVelocity(b);
    w.step(kDt);
    return (w.mass(b) / kDt) * (w.linearVelocity(b) - v0);
}

// A face square to the flow is pushed by ½·ρ·u²·width·drag, along the flow:
// the 2 m tall side of a box in a 10 m/s wind, then its 1 m wide side.
TEST(Wind, PushesByDynamicPressureTimesWidth) {
    World w(noGravity());
    const BodyId b = addBox(w, {0.0f, 0.0f}, 0.5f, 1.0f);
    const float q = 0.5f * 1.225f * 100.0f;
    Vec2 f = windKick(w, b, Wind{{10.0f, 0.0f}});
    EXPECT_NEAR(f.x, q * 2.0f, 1e-3f * q);
    EXPECT_NEAR(f.y, 0.0f, 1e-6f * q);
    EXPECT_NEAR(w.angularVelocity(b), 0.0f, 1e-6f);  // through the centre: no turn
    World w2(noGravity());
    const BodyId b2 = addBox(w2, {0.0f, 0.0f}, 0.5f, 1.0f);
    Wind down{{0.0f, -10.0f}};
    down.drag = 2.0f;
    f = windKick(w2, b2, down);
    EXPECT_NEAR(f.y, -2.0f * q * 1.0f, 1e-3f * q);
    // A circle meets the flow with its diameter; water is 1000 kg/m².
    World w3(noGravity());
    const BodyId ball = addBall(w3, {0.0f, 0.0f}, 0.25f);
    Wind water{{0.0f, 2.0f}};
    water.density = 1000.0f;
    water.timeStep = 0.0f;  // unlimited: this light ball would overshoot the flow in a step
    f = windKick(w3, ball, water);
    EXPECT_NEAR(f.y, 0.5f * 1000.0f * 4.0f * 0.5f, 1e-3f * 1000.0f);
    EXPECT_NEAR(f.x, 0.0f, 1e-3f);
}

// Lift: a thin plate at 45° to the flow with drag 0 is pushed across the
// flow, away from the side its windward face turns the air to. Each face
// gives q·L·cos·sin = q·L/2; the plate's two thin ends push the other way.
TEST(Wind, LiftActsAcrossTheFlowOnAPlateAtAnAngle) {
    World w(noGravity());
    const float half = 0.5f, thin = 0.01f;
    const BodyId plate = addBox(w, {0.0f, 0.0f}, half, thin, 0.25f * kPi);
    Wind wind{{10.0f, 0.0f}};
    wind.drag = 0.0f;
    wind.lift = 1.0f;
    wind.timeStep = 0.0f;  // unlimited: the thin plate is light
    const Vec2 f = windKick(w, plate, wind);
    const float q = 0.5f * 1.225f * 100.0f;
    EXPECT_NEAR(f.x, 0.0f, 1e-3f * q);
    EXPECT_NEAR(f.y, -q * 0.5f * (2.0f * half - 2.0f * thin), 2e-3f * q);
    // The plate turned the other way is lifted up.
    World w2(noGravity());
    const BodyId other = addBox(w2, {0.0f, 0.0f}, half, thin, -0.25f * kPi);
    EXPECT_NEAR(windKick(w2, other, wind).y, -f.y, 2e-3f * q);
}

// Still air is drag against the body's own motion: a falling ball reaches
// the terminal speed sqrt(2·m·g / (ρ·2r·drag)) and holds it.
TEST(Wind, AFallingBallReachesItsTerminalSpeed) {
    World w;  // gravity 10 m/s² down
    const BodyId ball = addBall(w, {0.0f, 0.0f}, 0.5f);
    const ShapeId s = w.shapes(ball)[0];
    const float terminal = std::sqrt(2.0f * w.mass(ball) * 10.0f / (1.225f * 1.0f));
    for (int i = 0; i < 600; ++i) {
        w.applyWind(s, Wind{});
        w.step(kDt);
        ASSERT_LE(-w.linearVelocity(ball).y, terminal * 1.001f) << "step " << i;
    }
    EXPECT_NEAR(-w.linearVelocity(ball).y, terminal, 1e-3f * terminal);
    EXPECT_NEAR(w.linearVelocity(ball).x, 0.0f, 1e-6f);
}

// Each face meets the air at its own speed, so a box spinning in still air
// is slowed (and not pushed sideways: the faces' drags cancel).
TEST(Wind, StillAirSlowsASpinningBox) {
    World w(noGravity());
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.angularVelocity = 6.0f;
    const BodyId b = w.createBody(bd);
    const ShapeId s = w.createShape(b, ShapeDef{}, makeBox(1.0f, 0.25f));
    float last = 6.0f;
    for (int i = 0; i < 120; ++i) {
        w.applyWind(s, Wind{});
        w.step(kDt);
        const float now = w.angularVelocity(b);
        ASSERT_GT(now, 0.0f);
        ASSERT_LT(now, last);
        last = now;
    }
    EXPECT_LT(last, 5.0f);
    EXPECT_NEAR(w.linearVelocity(b).x, 0.0f, 1e-4f);
    EXPECT_NEAR(w.linearVelocity(b).y, 0.0f, 1e-4f);
}

// Wind::timeStep's limit: a balloon so light that one step of its drag would
// carry it past the wind (unlimited, it swings ever wider) is brought up to
// the wind's speed without passing it, at any step length.
TEST(Wind, ALightBodyNeverOvershootsTheFlow) {
    for (float dt : {1.0f / 240.0f, 1.0f / 60.0f, 1.0f / 20.0f}) {
        World w(noGravity());
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        const BodyId b = w.createBody(bd);
        ShapeDef sd;
        sd.density = 0.02f;
        const ShapeId s = w.createShape(b, sd, makeBox(0.4f, 0.1f));
        Wind gust{{5.0f, 0.0f}};
        gust.lift = 1.0f;
        gust.timeStep = dt;
        for (int i = 0; i < 200; ++i) {
            w.applyWind(s, gust);
            w.step(dt);
            ASSERT_LE(w.linearVelocity(b).x, 5.0f * 1.0001f) << "dt " << dt << " step " << i;
            ASSERT_GE(w.linearVelocity(b).x, 0.0f);
        }
        EXPECT_NEAR(w.linearVelocity(b).x, 5.0f, 0.05f) << "dt " << dt;
        EXPECT_NEAR(w.linearVelocity(b).y, 0.0f, 0.05f) << "dt " << dt;
    }
}

// Static and kinematic bodies and sensors catch no wind; wake false leaves a
// sleeping body asleep and its state untouched; true wakes it.
TEST(Wind, DynamicBodiesOnlyAndWakeAsAsked) {
    World w(noGravity());
    const BodyId ground = addGround(w, {0.0f, -5.0f}, 5.0f, 0.5f);
    BodyDef bd;
    bd.type = BodyType::Kinematic;
    const BodyId kin = w.createBody(bd);
    w.createShape(kin, ShapeDef{}, makeBox(0.5f, 0.5f));
    bd.type = BodyType::Dynamic;
    bd.position = {3.0f, 0.0f};
    bd.isAwake = false;
    const BodyId sleeper = w.createBody(bd);
    w.createShape(sleeper, ShapeDef{}, makeBox(0.5f, 0.5f));
    bd.position = {-3.0f, 0.0f};
    bd.isAwake = true;
    const BodyId sensorBody = w.createBody(bd);
    ShapeDef sensor;
    sensor.isSensor = true;
    const ShapeId sensorShape = w.createShape(sensorBody, sensor, makeBox(0.5f, 0.5f));
    const Wind gale{{30.0f, 5.0f}};
    const uint64_t before = w.stateHash();
    w.applyWind(w.shapes(ground)[0], gale);
    w.applyWind(w.shapes(kin)[0], gale);
    w.applyWind(w.shapes(sleeper)[0], gale, false);
    w.applyWind(sensorShape, gale);
    EXPECT_EQ(w.stateHash(), before);
    EXPECT_FALSE(w.isAwake(sleeper));
    w.step(kDt);
    EXPECT_EQ(w.linearVelocity(sensorBody).x, 0.0f);
    EXPECT_EQ(w.linearVelocity(kin).x, 0.0f);
    w.applyWind(w.shapes(sleeper)[0], gale);
    EXPECT_TRUE(w.isAwake(sleeper));
    w.step(kDt);
    EXPECT_GT(w.linearVelocity(sleeper).x, 0.0f);
}

// Refused winds name the member and leave the world as it was.
TEST(Wind, RefusesBadWindUnchanged) {
    World w(noGravity());
    const BodyId b = addBox(w, {1.0f, 0.0f}, 0.5f, 0.5f);
    const ShapeId s = w.shapes(b)[0];
    const uint64_t before = w.stateHash();
    struct Case {
        Wind wind;
        const char* field;
    };
    const Case cases[] = {{Wind{{NAN, 0.0f}}, "velocity"},
                          {Wind{{2e5f, 0.0f}}, "velocity"},
                          {Wind{{1.0f, 0.0f}, -1.0f}, "drag"},
                          {Wind{{1.0f, 0.0f}, 1.0f, INFINITY}, "lift"},
                          {Wind{{1.0f, 0.0f}, 1.0f, 0.0f, -1.0f}, "density"},
                          {Wind{{1.0f, 0.0f}, 1.0f, 0.0f, 1.0f, 2.0f}, "timeStep"}};
    for (const Case& c : cases) {
        try {
            w.applyWind(s, c.wind);
            ADD_FAILURE() << c.field << " accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), c.field);
        }
        EXPECT_EQ(w.stateHash(), before);
    }
    EXPECT_THROW(w.applyWind(ShapeId{}, Wind{}), Error);
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
