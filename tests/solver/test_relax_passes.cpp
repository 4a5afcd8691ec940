// WorldDef::tuning.contactRelaxPasses: more relax passes over the contacts
// per substep. Validated, reaches the solver (an extra pass changes the
// run) and keeps the worker-count contract.
#include <gtest/gtest.h>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::run;

// Default 1, within [1, kMaxContactRelaxPasses] (a refused World is not
// built), and an extra pass changes the run while keeping the worker-count
// contract.
TEST(ContactRelaxPasses, ValidatedAndDeterministic) {
    EXPECT_EQ(WorldDef{}.tuning.contactRelaxPasses, 1);
    for (int bad : {0, -1, kMaxContactRelaxPasses + 1}) {
        WorldDef def;
        def.tuning.contactRelaxPasses = bad;
        try {
            World w(def);
            ADD_FAILURE() << "accepted contactRelaxPasses " << bad;
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), "tuning.contactRelaxPasses");
        }
    }
    World one = test::tenRowPyramid(test::awakeDef());
    run(one, 60);
    uint64_t first = 0;
    for (int workers : {1, 2}) {
        WorldDef def = test::awakeDef(workers);
        def.tuning.contactRelaxPasses = 2;
        World w = test::tenRowPyramid(def);
        run(w, 60);
        if (first == 0) first = w.stateHash();
        EXPECT_EQ(w.stateHash(), first) << "workers " << workers;
    }
    EXPECT_NE(first, one.stateHash());
}

// The setting is part of a snapshot's fixed WorldDef: a world with another
// number of passes refuses the snapshot and is left as it was.
TEST(ContactRelaxPasses, SnapshotRefusesAnotherSetting) {
    WorldDef two = test::awakeDef();
    two.tuning.contactRelaxPasses = 2;
    test::expectSnapshotKeepsSwitch(
        two, test::awakeDef(), [](World& w) { test::boxColumn(w, 4); },
        "snapshot.def.tuning.contactRelaxPasses");
}

}  // namespace
}  // namespace carom
