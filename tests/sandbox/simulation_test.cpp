// The sandbox's Simulation: loading keeps the previous scene on errors,
// restart goes back to the start, settings changes keep the state.
#include <gtest/gtest.h>

#include "sandbox_run.hpp"
#include "simulation.hpp"

namespace carom::sandbox {
namespace {

TEST(SandboxSimulation, BadFileKeepsThePreviousScene) {
    Simulation sim;
    ASSERT_TRUE(sim.open(test::sourceFile("scenes/window.json"))) << sim.error();
    EXPECT_EQ(sim.desc().name, "window test");
    for (int i = 0; i < 10; ++i) sim.step();
    uint64_t hash = sim.world().stateHash();
    uint64_t generation = sim.generation();

    EXPECT_FALSE(sim.open(test::sourceFile("scenes/bad.json")));
    EXPECT_NE(sim.error().find("bad.json:5:"), std::string::npos) << sim.error();
    ASSERT_TRUE(sim.loaded());
    EXPECT_EQ(sim.desc().name, "window test");
    EXPECT_EQ(sim.world().stateHash(), hash);
    EXPECT_EQ(sim.generation(), generation);

    EXPECT_FALSE(sim.open(test::sourceFile("scenes/missing.json")));
    EXPECT_TRUE(sim.loaded());

    ASSERT_TRUE(sim.open(test::sourceFile("scenes/shapes.json")));
    EXPECT_TRUE(sim.error().empty());
    EXPECT_EQ(sim.desc().name, "shapes");
}

TEST(SandboxSimulation, FirstFileBadLeavesNothingLoaded) {
    Simulation sim;
    EXPECT_FALSE(sim.open(test::sourceFile("scenes/bad.json")));
    EXPECT_FALSE(sim.loaded());
    EXPECT_FALSE(sim.error().empty());
}

TEST(SandboxSimulation, RestartReturnsToTheInitialState) {
    Simulation sim;
    ASSERT_TRUE(sim.open(test::sourceFile("scenes/window.json"))) << sim.error();
    uint64_t initial = sim.world().stateHash();
    for (int i = 0; i < 30; ++i) sim.step();
    EXPECT_NE(sim.world().stateHash(), initial);
    EXPECT_GT(sim.time(), 0.4);
    sim.restart();
    EXPECT_EQ(sim.world().stateHash(), initial);
    EXPECT_EQ(sim.time(), 0.0);
}

TEST(SandboxSimulation, ChangingSettingsKeepsTheState) {
    Simulation sim;
    ASSERT_TRUE(sim.open(test::sourceFile("scenes/window.json"))) << sim.error();
    for (int i = 0; i < 20; ++i) sim.step();
    uint64_t hash = sim.world().stateHash();
    double t = sim.time();
    sim.applySettings(BroadphaseType::SortAndSweep, 7);
    EXPECT_TRUE(sim.error().empty()) << sim.error();
    EXPECT_EQ(sim.world().broadphaseType(), BroadphaseType::SortAndSweep);
    EXPECT_EQ(sim.substeps(), 7);
    EXPECT_EQ(sim.runner().substeps(), 7);
    EXPECT_EQ(sim.world().stateHash(), hash);
    EXPECT_DOUBLE_EQ(sim.time(), t);
    // Restart keeps the new settings.
    sim.restart();
    EXPECT_EQ(sim.world().broadphaseType(), BroadphaseType::SortAndSweep);
    EXPECT_EQ(sim.runner().substeps(), 7);
}

TEST(SandboxSimulation, ExactJointTreesCanBeSwitchedKeepingTheState) {
    Simulation sim;
    ASSERT_TRUE(sim.open(test::sourceFile("../../demos/scenes/bridge.json"))) << sim.error();
    EXPECT_TRUE(sim.exactJoints());
    EXPECT_TRUE(sim.world().def().tuning.enableJointDirectSolve);
    for (int i = 0; i < 20; ++i) sim.step();
    const uint64_t hash = sim.world().stateHash();
    sim.applySettings(sim.broadphase(), sim.substeps(), false);
    EXPECT_TRUE(sim.error().empty()) << sim.error();
    EXPECT_FALSE(sim.exactJoints());
    EXPECT_FALSE(sim.world().def().tuning.enableJointDirectSolve);
    EXPECT_EQ(sim.world().stateHash(), hash);
    // Settings given without it keep it; restart keeps it.
    sim.applySettings(sim.broadphase(), 6);
    EXPECT_FALSE(sim.world().def().tuning.enableJointDirectSolve);
    sim.restart();
    EXPECT_FALSE(sim.world().def().tuning.enableJointDirectSolve);
}

}  // namespace
}  // namespace carom::sandbox
