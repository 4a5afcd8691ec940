// Friction only in the relax pass (WorldDef::frictionInRelaxOnly, as in Box2D
// v3's b2SolveContactsTask): the biased solve pass runs the normal rows alone, friction and
// rolling resistance run in the relax pass. The Coulomb results of
// test_contacts.cpp must still hold with it on (ContactsCoulomb runs them
// both ways), it must change the run (the
// switch reaches the kernels), keep the worker-count contract, and travel
// with a snapshot.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::run;

WorldDef relaxFriction(bool on, int workers = 1) {
    WorldDef def = test::awakeDef(workers);
    def.frictionInRelaxOnly = on;
    return def;
}

TEST(FrictionInRelax, OffByDefault) { EXPECT_FALSE(WorldDef{}.frictionInRelaxOnly); }

// The Coulomb results (incline holds and slides, sliding stop, rolling
// resistance) run with the switch on and off in test_contacts.cpp
// (ContactsCoulomb, a parameterised suite), not copied here.

// A 10-row pyramid: the switch changes the run, and with it on the state is
// the same at 1 and 2 workers and at every SIMD width.
TEST(FrictionInRelax, ChangesTheRunAndKeepsDeterminism) {
    World off = test::tenRowPyramid(relaxFriction(false));
    run(off, 120);
    uint64_t first = 0;
    for (SimdWidth simd : {SimdWidth::Scalar, SimdWidth::SSE2, SimdWidth::AVX2}) {
        for (int workers : {1, 2}) {
            WorldDef def = relaxFriction(true, workers);
            def.simdWidth = simd;
            World on = test::tenRowPyramid(def);
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
    World on = test::tenRowPyramid(relaxFriction(true));
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
    test::expectRestoreRefused(other, snap, "snapshot.def.frictionInRelaxOnly");
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
    World one = test::tenRowPyramid(relaxFriction(false));
    run(one, 60);
    uint64_t first = 0;
    for (int workers : {1, 2}) {
        WorldDef def = relaxFriction(false, workers);
        def.contactRelaxPasses = 2;
        World w = test::tenRowPyramid(def);
        run(w, 60);
        if (first == 0) first = w.stateHash();
        EXPECT_EQ(w.stateHash(), first) << "workers " << workers;
    }
    EXPECT_NE(first, one.stateHash());
}

}  // namespace
}  // namespace carom
