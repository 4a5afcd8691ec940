// Shock propagation in the relax pass (WorldDef::tuning.relaxShockScale):
// 0.25 by default, with the scaled bodies' derived masses, validated,
// reaches the kernels, keeps the determinism contract
// (every SIMD width, 1 and 2 workers, both broadphases), travels with a
// snapshot, does nothing without gravity (nothing is "below") and
// allocates nothing in a warm step. What it does to the stability suite is
// in docs/stability.md and tests/stability/test_goals.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/support/alloc_counter.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::addBox;
using test::run;

WorldDef shockDef(float scale, int workers = 1) {
    return test::awakeDefWith(&SolverTuning::relaxShockScale, scale, workers);
}

TEST(RelaxShock, AQuarterByDefault) {
    EXPECT_EQ(WorldDef{}.tuning.relaxShockScale, 0.25f);
}

// Within (0, 1]: 0 (an infinite mass below) and anything outside is refused
// with the field's name, and no World is built.
TEST(RelaxShock, Validated) {
    test::expectSwitchValidated(
        [](float v) { return shockDef(v); },
        {0.0f, -0.25f, 1.5f, std::numeric_limits<float>::infinity(), std::nanf("")},
        {1.0f, 0.25f, 1e-3f}, "tuning.relaxShockScale");
}

// The same at every width, worker count and broadphase, and not the run
// with the shock off.
TEST(RelaxShock, ChangesTheRunAndKeepsDeterminism) {
    World off = test::tenRowPyramid(shockDef(1.0f));
    run(off, 120);
    uint64_t first = 0;
    for (BroadphaseType bp : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        for (SimdWidth simd : {SimdWidth::Scalar, SimdWidth::SSE2, SimdWidth::AVX2}) {
            for (int workers : {1, 2}) {
                WorldDef def = shockDef(0.25f, workers);
                def.simdWidth = simd;
                def.broadphase = bp;
                World on = test::tenRowPyramid(def);
                run(on, 120);
                if (first == 0) first = on.stateHash();
                EXPECT_EQ(on.stateHash(), first) << "workers " << workers << ", simd " << int(simd)
                                                 << ", broadphase " << int(bp);
            }
        }
    }
    EXPECT_NE(first, off.stateHash());
}

// Without gravity no contact has a body below the other: the switch's
// kernel runs with every scale 1 and must give the run of the switch off,
// bit for bit. Boxes pushed into each other so that contacts do work.
TEST(RelaxShock, WithoutGravityItChangesNothing) {
    auto world = [](float scale) {
        WorldDef def = shockDef(scale);
        def.gravity = {0.0f, 0.0f};
        World w(def);
        for (int i = 0; i < 6; ++i) {
            const BodyId b = addBox(w, {0.0f, 0.9f * float(i)}, 0.5f, 0.5f, 0.1f * float(i));
            w.setLinearVelocity(b, {0.0f, i % 2 == 0 ? 2.0f : -2.0f});
        }
        return w;
    };
    World off = world(1.0f);
    World on = world(0.25f);  // every scale 1 derives the true masses
    run(off, 90);
    run(on, 90);
    EXPECT_EQ(on.stateHash(), off.stateHash());
}

// The setting is part of a snapshot's fixed WorldDef: it survives the byte
// form, and a world with another setting refuses the snapshot unchanged.
TEST(RelaxShock, SnapshotKeepsItAndRefusesAMismatch) {
    World on = test::tenRowPyramid(shockDef(0.25f));
    run(on, 30);
    const Snapshot snap = on.snapshot();
    World fromBytes(shockDef(0.25f));
    fromBytes.restore(Snapshot::fromBytes(snap.bytes()));
    EXPECT_EQ(fromBytes.def().tuning.relaxShockScale, 0.25f);
    EXPECT_EQ(fromBytes.stateHash(), on.stateHash());
    run(on, 30);
    run(fromBytes, 30);
    EXPECT_EQ(fromBytes.stateHash(), on.stateHash());

    World other(shockDef(0.5f));
    test::expectRestoreRefused(other, snap, "snapshot.def.tuning.relaxShockScale");
    EXPECT_EQ(other.def().tuning.relaxShockScale, 0.5f);
}

TEST(RelaxShock, WarmStepAllocatesNothing) {
    for (int workers : {1, 2}) {
        World w = test::tenRowPyramid(shockDef(0.25f, workers));
        run(w, 120);  // warm up: every contact exists
        const long long before = test::allocationCount();
        run(w, 60);
        EXPECT_EQ(test::allocationCount() - before, 0) << workers << " workers";
    }
}

}  // namespace
}  // namespace carom
