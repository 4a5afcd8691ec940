// Friction only in the relax pass (WorldDef::frictionInRelaxOnly, Box2D v3
// 617d32a): the biased solve pass runs the normal rows alone, friction and
// rolling resistance run in the relax pass. The Coulomb results of
// test_contacts.cpp must still hold with it on, it must change the run (the
// switch reaches the kernels), keep the worker-count contract, and travel
// with a snapshot.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::addBox;
using test::addGround;
using test::kDt;
using test::run;

WorldDef relaxFriction(bool on, int workers = 1) {
    WorldDef def;
    def.frictionInRelaxOnly = on;
    def.workerCount = workers;
    def.enableSleep = false;  // a sleeping body would hold trivially
    return def;
}

TEST(FrictionInRelax, OffByDefault) { EXPECT_FALSE(WorldDef{}.frictionInRelaxOnly); }

// μ 0.5 > tan 20° = 0.364: the box holds on the slope.
TEST(FrictionInRelax, InclineHoldsWhenFrictionExceedsTangent) {
    const float theta = 20.0f * kPi / 180.0f;
    World w(relaxFriction(true));
    const Vec2 up{std::cos(theta), std::sin(theta)};
    const Vec2 n{-std::sin(theta), std::cos(theta)};
    addGround(w, {0.0f, 0.0f}, 20.0f, 0.5f, theta, 0.5f);
    BodyId box = addBox(w, 1.001f * n, 0.5f, 0.5f, theta, 1.0f, 0.5f);
    const Vec2 start = w.position(box);
    run(w, 300);
    EXPECT_NEAR(dot(w.position(box) - start, up), 0.0f, 0.005f);
    EXPECT_NEAR(dot(w.linearVelocity(box), up), 0.0f, 1e-3f);
}

// μ 0.2 < tan 20°: the box slides with a = g (sin θ - μ cos θ).
TEST(FrictionInRelax, InclineSlidesWithCoulombAcceleration) {
    const float theta = 20.0f * kPi / 180.0f;
    const float mu = 0.2f;
    World w(relaxFriction(true));
    const Vec2 up{std::cos(theta), std::sin(theta)};
    const Vec2 n{-std::sin(theta), std::cos(theta)};
    addGround(w, {0.0f, 0.0f}, 40.0f, 0.5f, theta, mu);
    BodyId box = addBox(w, n + 10.0f * up, 0.5f, 0.5f, theta, 1.0f, mu);
    run(w, 20);
    const float v0 = dot(w.linearVelocity(box), up);
    const int steps = 60;
    run(w, steps);
    const float v1 = dot(w.linearVelocity(box), up);
    const float measured = -(v1 - v0) / (float(steps) * kDt);
    const float expected = 10.0f * (std::sin(theta) - mu * std::cos(theta));
    EXPECT_NEAR(measured, expected, 0.08f * expected);
}

// A box sliding at v on μ 0.4 stops after v² / (2 μ g).
TEST(FrictionInRelax, SlidingBoxStopsAtCoulombDistance) {
    const float mu = 0.4f, v = 5.0f, g = 10.0f;
    World w(relaxFriction(true));
    addGround(w, {0.0f, -0.5f}, 50.0f, 0.5f, 0.0f, mu);
    BodyId box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f, 0.0f, 1.0f, mu);
    run(w, 10);
    const float x0 = w.position(box).x;
    w.setLinearVelocity(box, {v, 0.0f});
    run(w, 180);
    const float distance = w.position(box).x - x0;
    const float expected = v * v / (2.0f * mu * g);
    EXPECT_NEAR(distance, expected, 0.05f * expected);
    EXPECT_NEAR(w.linearVelocity(box).x, 0.0f, 1e-3f);
}

// Rolling resistance runs in the relax pass too: a disc rolling at v with
// resistance c decelerates at c g / 1.5 (I = ½ m r²) and stops after v² / (2a).
TEST(FrictionInRelax, RollingResistanceStopsARollingDisc) {
    const float r = 0.5f, v = 2.0f, c = 0.2f, g = 10.0f;
    World w(relaxFriction(true));
    addGround(w, {0.0f, -0.5f}, 50.0f, 0.5f);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.0f, r};
    bd.linearVelocity = {v, 0.0f};
    bd.angularVelocity = -v / r;
    const BodyId disc = w.createBody(bd);
    ShapeDef sd;
    sd.rollingResistance = c;
    w.createShape(disc, sd, Circle{{0.0f, 0.0f}, r});
    run(w, 180);
    const float expected = v * v / (2.0f * c * g / 1.5f);
    EXPECT_NEAR(w.position(disc).x, expected, 0.1f * expected);
    EXPECT_NEAR(w.linearVelocity(disc).x, 0.0f, 0.01f);
}

// A 10-row pyramid: the switch changes the run, and with it on the state is
// the same at 1 and 2 workers and at every SIMD width.
World pyramid(const WorldDef& def) {
    World w(def);
    addGround(w, {0.0f, -0.5f}, 40.0f, 0.5f);
    for (int row = 0; row < 10; ++row)
        for (int i = 0; i < 10 - row; ++i)
            addBox(w, {float(i) - 0.5f * float(9 - row), 0.5f + float(row)}, 0.5f, 0.5f);
    return w;
}

TEST(FrictionInRelax, ChangesTheRunAndKeepsDeterminism) {
    World off = pyramid(relaxFriction(false));
    run(off, 120);
    uint64_t first = 0;
    for (SimdWidth simd : {SimdWidth::Scalar, SimdWidth::SSE2, SimdWidth::AVX2}) {
        for (int workers : {1, 2}) {
            WorldDef def = relaxFriction(true, workers);
            def.simdWidth = simd;
            World on = pyramid(def);
            run(on, 120);
            if (first == 0) first = on.stateHash();
            EXPECT_EQ(on.stateHash(), first) << "workers " << workers << ", simd " << int(simd);
        }
    }
    EXPECT_NE(first, off.stateHash());
}

// The setting is part of a snapshot's fixed WorldDef: it survives the byte
// form, and a world with the other setting refuses the snapshot unchanged.
TEST(FrictionInRelax, SnapshotKeepsItAndRefusesAMismatch) {
    World on = pyramid(relaxFriction(true));
    run(on, 30);
    const Snapshot snap = on.snapshot();
    World fromBytes(relaxFriction(true));
    fromBytes.restore(Snapshot::fromBytes(snap.bytes()));
    EXPECT_TRUE(fromBytes.def().frictionInRelaxOnly);
    EXPECT_EQ(fromBytes.stateHash(), on.stateHash());
    run(on, 30);
    run(fromBytes, 30);
    EXPECT_EQ(fromBytes.stateHash(), on.stateHash());

    World other(relaxFriction(false));
    const uint64_t before = other.stateHash();
    try {
        other.restore(snap);
        ADD_FAILURE() << "restore accepted a snapshot with another frictionInRelaxOnly";
    } catch (const Error& e) {
        EXPECT_EQ(e.field(), "snapshot.def.frictionInRelaxOnly");
    }
    EXPECT_EQ(other.stateHash(), before);
    EXPECT_FALSE(other.def().frictionInRelaxOnly);
}

// WorldDef::contactRelaxPasses: default 1, within [1, kMaxContactRelaxPasses]
// (a refused World is not built), and an extra pass changes the run while
// keeping the worker-count contract.
TEST(ContactRelaxPasses, ValidatedAndDeterministic) {
    EXPECT_EQ(WorldDef{}.contactRelaxPasses, 1);
    for (int bad : {0, -1, kMaxContactRelaxPasses + 1}) {
        WorldDef def;
        def.contactRelaxPasses = bad;
        try {
            World w(def);
            ADD_FAILURE() << "accepted contactRelaxPasses " << bad;
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), "contactRelaxPasses");
        }
    }
    World one = pyramid(relaxFriction(false));
    run(one, 60);
    uint64_t first = 0;
    for (int workers : {1, 2}) {
        WorldDef def = relaxFriction(false, workers);
        def.contactRelaxPasses = 2;
        World w = pyramid(def);
        run(w, 60);
        if (first == 0) first = w.stateHash();
        EXPECT_EQ(w.stateHash(), first) << "workers " << workers;
    }
    EXPECT_NE(first, one.stateHash());
}

}  // namespace
}  // namespace carom
