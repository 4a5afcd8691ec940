// The stability goals, each on its scene of the suite (demos/scenes/stability)
// run for its whole duration by `carom stability`, with the goal's threshold
// (docs/stability.md, the table). Two goals are reached only with settings
// that are not the defaults: the 100-row pyramid and the arch at 8 substeps
// with contacts at 116 Hz (*_substeps8; the default 4 substeps cap the
// contacts at 60 Hz, and a soft contact sinks load / (m omega^2)). The
// figures and the alternatives considered are in docs/stability.md.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

std::string suitePath(const char* scene) {
    return std::string(CAROM_STABILITY_SCENES_DIR) + "/" + scene + ".json";
}

// A copy of the suite's scene with these keys of its `world` changed, in a
// temporary file named name.json.
std::string withWorld(const char* scene, const nlohmann::json& world, const std::string& name) {
    std::ifstream in(suitePath(scene));
    nlohmann::json s = nlohmann::json::parse(in);
    for (const auto& [key, value] : world.items()) s["world"][key] = value;
    const std::string path = ::testing::TempDir() + name + ".json";
    std::ofstream(path) << s.dump();
    return path;
}

// The scene's one result from `carom stability PATH --json`, at 1 or 2 workers.
nlohmann::json measure(const std::string& path, int workers) {
    test::CliResult r =
        test::runCli({"stability", path, "--json", "--threads", std::to_string(workers)});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.size(), 1u);
    EXPECT_TRUE(j[0]["error"].is_null()) << path << ": a step threw";
    EXPECT_EQ(j[0]["finite"], true) << path;
    return j[0];
}

// The scene's figure is at most goal at 1 worker (and the scene stands, when
// standsToo), and the whole result is the same at 2 workers.
nlohmann::json expectGoalAtOneAndTwoWorkers(const std::string& path, double goal,
                                            bool standsToo = false) {
    const nlohmann::json one = measure(path, 1);
    EXPECT_TRUE(one["value"].is_number()) << path;
    if (one["value"].is_number()) {
        EXPECT_LE(one["value"].get<double>(), goal) << path;
    }
    if (standsToo) {
        EXPECT_EQ(one["stands"], true) << path;
    }
    EXPECT_EQ(measure(path, 2), one) << path;
    return one;
}

nlohmann::json expectGoalAtOneAndTwoWorkers(const char* scene, double goal,
                                            bool standsToo = false) {
    return expectGoalAtOneAndTwoWorkers(suitePath(scene), goal, standsToo);
}

// 150 boxes in a bowl with 30 random welds, 5 s: no body above
// maxLinearSpeed (400 m/s), nothing thrown, the same at 2 workers.
TEST(StabilityGoals, WeldBowlStaysUnderMaxLinearSpeedAtOneAndTwoWorkers) {
    const nlohmann::json one = expectGoalAtOneAndTwoWorkers("weld_bowl", 400.0);
    EXPECT_LE(one["peak_speed"].get<double>(), 400.0);
}

// Ten 1 m boxes stacked, 5 s: the measured box drifts at most 1 cm (the
// contacts sink F / (m ω²) each; 58 Hz sinks about a quarter of what 30 Hz did),
// the same at 2 workers.
TEST(StabilityGoals, Stack10DriftsAtMostOneCentimetreAtOneAndTwoWorkers) {
    expectGoalAtOneAndTwoWorkers("stack10", 0.01);
}

// The 20-row pyramid, 10 s: no box drifts more than 1 cm from where it is
// at the start (with tuning.contactLeakScale at its default; at 1 it drifts
// more), the same at 2 workers (docs/stability.md).
TEST(StabilityGoals, Pyramid20DriftsAtMostOneCentimetreAtOneAndTwoWorkers) {
    expectGoalAtOneAndTwoWorkers("pyramid20", 0.01, true);
}

// Ten boxes created overlapping, 5 s: the top box rises at most 0.5 m
// above its resting height while the overlaps are pushed out (at most
// contactPushMaxSpeed per contact; 3 m/s threw it 4 m), the same at 2 workers.
TEST(StabilityGoals, Overlap10RisesLessThanHalfAMetreAtOneAndTwoWorkers) {
    expectGoalAtOneAndTwoWorkers("overlap10", 0.5);
}

// The card house's figure is its drift from where it is at 0.5 s: its
// layout (Box2D's sample) starts the cards up to 2.3 mm apart and 1.7 mm
// into the ground, so the top storey must drop about 2 cm before it rests,
// in any engine (docs/stability.md, "The card house's layout").
//
// With the defaults, shock propagation in the relax pass among them
// (WorldDef::tuning.relaxShockScale 0.25; it collapsed, 2.09 m, before that
// default), the 2 mm card house stands and drifts at most 1 cm once
// settled (0.34 mm; Box2D v3 0.47 mm), the same at 2 workers.
TEST(StabilityGoals, CardHouseStandsAndDriftsAtMostOneCentimetreAtOneAndTwoWorkers) {
    expectGoalAtOneAndTwoWorkers("card_house", 0.01, true);
}

// The 100-row pyramid at 8 substeps and 116 Hz contacts, 5 s: the top six
// boxes drift at most 0.1 m (0.064 m; 0.254 m at the default 4 substeps
// and 58 Hz; Box2D v3 at 8 substeps and 116 Hz: 0.235 m), the same at 2
// workers. The sink is load / (m omega^2): twice the hertz, a quarter of it.
TEST(StabilityGoals, Pyramid100At8SubstepsDriftsAtMostATenthOfAMetreAtOneAndTwoWorkers) {
    expectGoalAtOneAndTwoWorkers("pyramid100_substeps8", 0.1, true);
}

// Box2D's arch at 8 substeps and 116 Hz contacts, 10 s: the crown sags at
// most 5 cm (0.032 m; 0.104 m at the defaults; Box2D v3 at 8 substeps and
// 116 Hz: 0.081 m), the same at 2 workers.
TEST(StabilityGoals, ArchAt8SubstepsSagsAtMostFiveCentimetresAtOneAndTwoWorkers) {
    expectGoalAtOneAndTwoWorkers("arch_substeps8", 0.05, true);
}

// A 1 kg chain of ten links holding 1e6 kg, 5 s, with the defaults (the
// joint trees solved exactly, WorldDef::tuning.enableJointDirectSolve): the
// distance from the anchor to the load changes by at most 2 % of its 10 m,
// the same at 2 workers. (chain_load_iterative, every joint iterative,
// stretches 125 m: the load falls freely.)
TEST(StabilityGoals, ChainLoadStretchesAtMostTwoPercentAtOneAndTwoWorkers) {
    expectGoalAtOneAndTwoWorkers("chain_load", 0.2);
}

// A 20 m box of 400 kg dropped from 15 m onto two 1 kg boxes 18 m apart on
// a segment ground, 5 s: from 4 s it is at most 2 cm below its resting
// height on them, and it ends at most 5 cm sideways of where it fell (the
// scene is symmetric), the same at 2 workers. Both with the suite's sleep
// off and at the defaults of a scene file, sleep on, where both light boxes
// are asleep when it lands. Before the light supports were solved with a
// raised inertia (docs/solver.md, "Light supports under heavy loads") it
// sank 11.4 cm and slid 5.42 m with sleep on (sleep off: 0.45 cm below, but
// a light box left tipped, and 9.1 cm sideways); Box2D v3 sinks 8.6 cm and
// slides 0.34 m.
TEST(StabilityGoals,
     HeavyBoxDroppedOnLightBoxesSinksAtMostTwoCentimetresAndSlidesAtMostFiveAtOneAndTwoWorkers) {
    for (const std::string& path :
         {suitePath("heavy_on_light"),
          withWorld("heavy_on_light", {{"sleep", true}}, "heavy_on_light_sleep")}) {
        const nlohmann::json one = expectGoalAtOneAndTwoWorkers(path, 0.02);
        EXPECT_LE(one["slide"].get<double>(), 0.05) << path;
    }
}

}  // namespace
}  // namespace carom::scene
