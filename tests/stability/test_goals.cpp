// Issue 11's goals that the solver reaches, each on its scene of the suite
// (demos/scenes/stability) run for its whole duration by `carom stability`,
// with the goal's threshold (docs/stability.md, the table). Goals not yet
// reached have no test here; the figures reached and what was tried are in
// docs/stability.md, "What was tried" (stack10 and overlap10 reach theirs
// since the defaults became contact hertz 58 and push 1 m/s).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

// The scene's one result from `carom stability SCENE --json`, at 1 or 2 workers.
nlohmann::json measure(const char* scene, int workers) {
    const std::string path = std::string(CAROM_STABILITY_SCENES_DIR) + "/" + scene + ".json";
    test::CliResult r = test::runCli({"stability", path, "--json", "--threads", std::to_string(workers)});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.size(), 1u);
    EXPECT_TRUE(j[0]["error"].is_null()) << scene << ": a step threw";
    EXPECT_EQ(j[0]["finite"], true) << scene;
    return j[0];
}

// 150 boxes in a bowl with 30 random welds, 5 s: no body above
// maxLinearSpeed (400 m/s), nothing thrown, the same at 2 workers.
TEST(StabilityGoals, WeldBowlStaysUnderMaxLinearSpeedAtOneAndTwoWorkers) {
    const nlohmann::json one = measure("weld_bowl", 1);
    ASSERT_TRUE(one["value"].is_number());
    EXPECT_LE(one["value"].get<double>(), 400.0);
    EXPECT_LE(one["peak_speed"].get<double>(), 400.0);
    EXPECT_EQ(measure("weld_bowl", 2), one);
}

// Ten 1 m boxes stacked, 5 s: the measured box drifts at most 1 cm (the
// contacts sink F / (m ω²) each; 58 Hz sinks about a quarter of what 30 Hz did),
// the same at 2 workers.
TEST(StabilityGoals, Stack10DriftsAtMostOneCentimetreAtOneAndTwoWorkers) {
    const nlohmann::json one = measure("stack10", 1);
    ASSERT_TRUE(one["value"].is_number());
    EXPECT_LE(one["value"].get<double>(), 0.01);
    EXPECT_EQ(measure("stack10", 2), one);
}

// The 20-row pyramid, 10 s: no box drifts more than 1 cm from where it is
// at the start (0.0095 m with contactLeakScale 0.65, the default; 0.0130 at
// 1), the same at 2 workers (docs/stability.md, "What was tried", stab14).
TEST(StabilityGoals, Pyramid20DriftsAtMostOneCentimetreAtOneAndTwoWorkers) {
    const nlohmann::json one = measure("pyramid20", 1);
    ASSERT_TRUE(one["value"].is_number());
    EXPECT_LE(one["value"].get<double>(), 0.01);
    EXPECT_EQ(one["stands"], true);
    EXPECT_EQ(measure("pyramid20", 2), one);
}

// Ten boxes created overlapping, 5 s: the top box rises less than 0.5 m
// above its resting height while the overlaps are pushed out (at most
// contactPushMaxSpeed per contact; 3 m/s threw it 4 m), the same at 2 workers.
TEST(StabilityGoals, Overlap10RisesLessThanHalfAMetreAtOneAndTwoWorkers) {
    const nlohmann::json one = measure("overlap10", 1);
    ASSERT_TRUE(one["value"].is_number());
    EXPECT_LT(one["value"].get<double>(), 0.5);
    EXPECT_EQ(measure("overlap10", 2), one);
}

// Not a goal reached (the goal is 1 cm), the best card house so far: with
// friction only in the relax pass and two contact relax passes (both
// WorldDef switches, off by default for their speed and LargeSteps cost,
// docs/stability.md "What was tried") the 2 mm card house stands and drifts
// less than Box2D v3's 0.0346 m (Carom's defaults: it collapses, 2.09 m),
// the same at 2 workers.
TEST(StabilityGoals, CardHouseStandsWithRelaxFrictionAndTwoRelaxPasses) {
    const std::string from = std::string(CAROM_STABILITY_SCENES_DIR) + "/card_house.json";
    std::ifstream in(from);
    nlohmann::json scene = nlohmann::json::parse(in);
    scene["world"]["friction_in_relax_only"] = true;
    scene["world"]["contact_relax_passes"] = 2;
    const std::string path = ::testing::TempDir() + "card_house_relax2.json";
    std::ofstream(path) << scene.dump();
    auto run = [&](int workers) {
        test::CliResult r = test::runCli({"stability", path, "--json", "--threads", std::to_string(workers)});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        nlohmann::json j = nlohmann::json::parse(r.out);
        j[0].erase("file");
        return j[0];
    };
    const nlohmann::json one = run(1);
    EXPECT_EQ(one["stands"], true);
    ASSERT_TRUE(one["value"].is_number());
    EXPECT_LT(one["value"].get<double>(), 0.0346);
    EXPECT_EQ(run(2), one);
}

// Not a goal reached either (the goal is 1 cm): with the defaults, shock
// propagation in the relax pass among them (WorldDef::relaxShockScale
// 0.25), the 2 mm card house stands and drifts less than Box2D v3's
// 0.0346 m (it collapsed, 2.09 m, before that default), the same at 2
// workers.
TEST(StabilityGoals, CardHouseStandsWithTheDefaultsAtOneAndTwoWorkers) {
    const nlohmann::json one = measure("card_house", 1);
    EXPECT_EQ(one["stands"], true);
    ASSERT_TRUE(one["value"].is_number());
    EXPECT_LT(one["value"].get<double>(), 0.0346);
    EXPECT_EQ(measure("card_house", 2), one);
}

// A 1 kg chain of ten links holding 1e6 kg, 5 s, with the joint trees
// solved exactly (chain_load_direct: chain_load with joint_direct_solve):
// the distance from the anchor to the load changes by at most 2 % of its
// 10 m, the same at 2 workers. (chain_load itself, iterative, stretches
// 125 m: the load falls freely.)
TEST(StabilityGoals, ChainLoadStretchesAtMostTwoPercentWithTheDirectSolveAtOneAndTwoWorkers) {
    const nlohmann::json one = measure("chain_load_direct", 1);
    ASSERT_TRUE(one["value"].is_number());
    EXPECT_LE(one["value"].get<double>(), 0.2);
    EXPECT_EQ(measure("chain_load_direct", 2), one);
}

}  // namespace
}  // namespace carom::scene
