// The contact budget (WorldDef::maxContacts): 10 000 bodies
// created at one point overlap in 49 995 000 pairs. A step must neither
// allocate without bound nor throw: it creates the budget's worth of
// contacts (the lowest shape pairs), reports the rest, and stays
// deterministic across broadphases and worker counts.
#include <gtest/gtest.h>

#include "tests/support/fixtures.hpp"
#include "tests/support/process_memory.hpp"

namespace carom {
namespace {

constexpr int kBodies = 10000;
constexpr int kBudget = 20000;

struct Pile {
    World world;
    std::vector<BodyId> bodies;
    explicit Pile(const WorldDef& def, int count = kBodies) : world(def) {
        for (int i = 0; i < count; ++i)
            bodies.push_back(test::addBox(world, {1.0f, 2.0f}, 0.5f, 0.5f));
    }
};

WorldDef budgetDef(BroadphaseType type, int workers) {
    WorldDef def;
    def.maxContacts = kBudget;
    def.broadphase = type;
    def.workerCount = workers;
    return def;
}

TEST(ContactBudget, TenThousandBodiesAtOnePoint) {
    const long long before = test::peakResidentBytes();
    Pile pile(budgetDef(BroadphaseType::Tree, 1));
    EXPECT_FALSE(pile.world.contactBudgetExceeded());
    ASSERT_NO_THROW(pile.world.step(test::kDt));
    const Counters c = pile.world.counters();
    EXPECT_EQ(c.contacts, kBudget);
    const int64_t allPairs = int64_t(kBodies) * (kBodies - 1) / 2;
    EXPECT_EQ(c.pairsOverBudget, allPairs - kBudget);
    EXPECT_TRUE(pile.world.contactBudgetExceeded());
    // Lowest keys first: shape 0 pairs with every other shape (9 999), shape 1
    // with every later one (9 998), shape 2 with shapes 3, 4 and 5.
    EXPECT_EQ(pile.world.contacts(pile.bodies[0]).size(), size_t(kBodies - 1));
    EXPECT_EQ(pile.world.contacts(pile.bodies[2]).size(), 2u + 3u);  // (0,2), (1,2), (2,3..5)
    EXPECT_EQ(pile.world.contacts(pile.bodies[6]).size(), 2u);       // (0,6), (1,6)
    ASSERT_NO_THROW(pile.world.step(test::kDt));
    EXPECT_LE(pile.world.counters().contacts, kBudget);
    for (BodyId b : pile.bodies) ASSERT_TRUE(isFinite(pile.world.position(b)));
    // 50 M candidate pairs kept would need 400 MB for their keys alone, and
    // 50 M contacts tens of GB: the whole run stays far below.
    EXPECT_LT(test::peakResidentBytes() - before, 256LL << 20);
}

TEST(ContactBudget, SameResultForBothBroadphasesAndTwoWorkers) {
    // 3 000 bodies (4.5 M pairs) keep the test short; the budget still binds.
    Pile tree(budgetDef(BroadphaseType::Tree, 1), 3000);
    Pile sap(budgetDef(BroadphaseType::SortAndSweep, 2), 3000);
    for (int k = 0; k < 2; ++k) {
        tree.world.step(test::kDt);
        sap.world.step(test::kDt);
        ASSERT_EQ(tree.world.stateHash(), sap.world.stateHash()) << "step " << k;
        ASSERT_EQ(tree.world.counters().pairsOverBudget, sap.world.counters().pairsOverBudget);
    }
    EXPECT_TRUE(tree.world.contactBudgetExceeded());
}

TEST(ContactBudget, DefaultAndRefusal) {
    EXPECT_EQ(WorldDef{}.maxContacts, 1000000);
    WorldDef def;
    def.maxContacts = -1;
    try {
        World w(def);
        FAIL() << "a negative budget was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    }
    // A normal scene never reaches the default budget.
    World w;
    test::addGround(w, {0.0f, -1.0f}, 20.0f, 1.0f);
    for (int i = 0; i < 20; ++i) test::addBox(w, {0.0f, 0.5f + 1.1f * float(i)}, 0.5f, 0.5f);
    test::run(w, 60);
    EXPECT_FALSE(w.contactBudgetExceeded());
    EXPECT_EQ(w.counters().pairsOverBudget, 0);
}

}  // namespace
}  // namespace carom
