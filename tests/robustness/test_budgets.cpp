// The sensor budget (WorldDef::maxSensorOverlaps, docs/robustness.md
// "Budgets"): thousands of static sensors over thousands of shapes at one
// point would keep and test every pair, step after step, until memory ran
// out. A step keeps the
// budget's worth of overlaps (each cut sensor its lowest shape ids), skips
// the sensors after it, reports them, and stays deterministic.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

#include "tests/support/internals.hpp"
#include "tests/support/fixtures.hpp"

using namespace carom;

namespace {

using test::kDt;

// `sensors` static sensor circles and `visitors` dynamic circles of one
// negative group (they never collide with each other), all at the origin,
// without gravity so that they stay there.
struct SensorPile {
    World world;
    std::vector<ShapeId> sensors, visitors;
    SensorPile(WorldDef def, int sensorCount, int visitorCount)
        : world((def.gravity = {0.0f, 0.0f}, def)) {
        ShapeDef sd;
        sd.isSensor = true;
        for (int i = 0; i < sensorCount; ++i)
            sensors.push_back(
                world.createShape(world.createBody(BodyDef{}), sd, Circle{{0.0f, 0.0f}, 1.0f}));
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        ShapeDef vd;
        vd.filter.groupIndex = -1;
        for (int i = 0; i < visitorCount; ++i)
            visitors.push_back(
                world.createShape(world.createBody(bd), vd, Circle{{0.0f, 0.0f}, 0.5f}));
    }
    int64_t keptOverlaps() const {
        int64_t n = 0;
        for (ShapeId s : sensors) n += int64_t(world.sensorOverlaps(s).size());
        return n;
    }
    // Everything the sensor pass keeps from step to step: both lists of every
    // sensor and the sensor events, in elements.
    size_t heldCapacity() const {
        const detail::WorldImpl& w = internals(world);
        size_t n = w.sensorBeginEvents.capacity() + w.sensorEndEvents.capacity();
        for (const detail::Sensor& s : w.sensors)
            n += s.overlaps.capacity() + s.previous.capacity();
        return n;
    }
};

WorldDef budgetDef(int budget, BroadphaseType type = BroadphaseType::Tree, int workers = 1) {
    WorldDef def;
    def.maxSensorOverlaps = budget;
    def.broadphase = type;
    def.workerCount = workers;
    return def;
}

TEST(SensorBudget, ThousandsOfSensorsOverThousandsOfShapesAtOnePoint) {
    constexpr int kSensors = 2000, kVisitors = 2000, kBudget = 50 * kVisitors + 500;
    SensorPile pile(budgetDef(kBudget), kSensors, kVisitors);
    EXPECT_FALSE(pile.world.sensorBudgetExceeded());
    for (int step = 0; step < 3; ++step) {
        ASSERT_NO_THROW(pile.world.step(kDt));
        // 50 sensors keep all 2 000 visitors, the 51st the 500 lowest ids,
        // the other 1 949 none: 1 950 sensors over budget.
        EXPECT_EQ(pile.keptOverlaps(), kBudget);
        EXPECT_EQ(pile.world.counters().sensorsOverBudget, kSensors - 50);
        EXPECT_EQ(pile.world.sensorOverlaps(pile.sensors[49]), pile.visitors);
        const std::vector<ShapeId> cut(pile.visitors.begin(), pile.visitors.begin() + 500);
        EXPECT_EQ(pile.world.sensorOverlaps(pile.sensors[50]), cut);
        EXPECT_TRUE(pile.world.sensorOverlaps(pile.sensors[51]).empty());
        EXPECT_EQ(pile.world.sensorEvents().begin.size(), step == 0 ? size_t(kBudget) : 0u);
        EXPECT_TRUE(pile.world.sensorEvents().end.empty());
        // Bounded memory: two lists and a step's events, none above the
        // budget (all 4 million overlaps would need 32 million elements).
        EXPECT_LE(pile.heldCapacity(), 6u * size_t(kBudget));
    }
    EXPECT_TRUE(pile.world.sensorBudgetExceeded());
}

TEST(SensorBudget, SameListsForBothBroadphasesAndTwoWorkers) {
    constexpr int kBudget = 300 * 50 + 123;
    SensorPile tree(budgetDef(kBudget), 600, 300);
    SensorPile sap(budgetDef(kBudget, BroadphaseType::SortAndSweep, 2), 600, 300);
    for (int step = 0; step < 2; ++step) {
        tree.world.step(kDt);
        sap.world.step(kDt);
        ASSERT_EQ(tree.world.stateHash(), sap.world.stateHash());
        ASSERT_EQ(tree.world.counters().sensorsOverBudget, sap.world.counters().sensorsOverBudget);
        for (size_t i = 0; i < tree.sensors.size(); ++i)
            ASSERT_EQ(tree.world.sensorOverlaps(tree.sensors[i]),
                      sap.world.sensorOverlaps(sap.sensors[i]))
                << i;
    }
    EXPECT_TRUE(sap.world.sensorBudgetExceeded());
}

TEST(SensorBudget, DefaultRefusalAndSnapshots) {
    EXPECT_EQ(WorldDef{}.maxSensorOverlaps, 1000000);
    WorldDef bad;
    bad.maxSensorOverlaps = -1;
    try {
        World w(bad);
        FAIL() << "a negative budget was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_EQ(e.field(), "maxSensorOverlaps");
    }
    // A scene of ordinary size never reaches the default budget.
    SensorPile normal(WorldDef{}, 20, 200);
    test::run(normal.world, 3);
    EXPECT_EQ(normal.keptOverlaps(), 20 * 200);
    EXPECT_FALSE(normal.world.sensorBudgetExceeded());
    EXPECT_EQ(normal.world.counters().sensorsOverBudget, 0);
    // The budget decides which overlaps a step keeps: a snapshot only fits a
    // world with the same budget, and carries the report.
    SensorPile over(budgetDef(1000), 20, 200);
    over.world.step(kDt);
    const Snapshot snap = over.world.snapshot();
    test::expectRestoreRefused(normal.world, snap, "snapshot.def.maxSensorOverlaps");
    SensorPile again(budgetDef(1000), 20, 200);
    again.world.restore(Snapshot::fromBytes(snap.bytes()));
    EXPECT_TRUE(again.world.sensorBudgetExceeded());
    EXPECT_EQ(again.world.counters().sensorsOverBudget, 15);
}

}  // namespace
