// `carom stability` run as a process: analytic scenes, then the suite of
// demos/scenes/stability for one second (figures computed, finite, the
// same at 1 and 2 workers). The stability goals are not asserted here
// (test_goals.cpp does).
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include <carom/scene.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

using test::runCli;

nlohmann::json runJson(const std::vector<std::string>& args) {
    test::CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return nlohmann::json::parse(r.out);
}

// A puck coasting at 1 m/s without gravity: from 1 s to 3 s it moves 2 m.
std::string coastingPuck() {
    return test::writeTemp("coast.json", R"({"carom": 1, "name": "coast", "duration": 3,
        "world": {"gravity": [0, 0], "sleep": false},
        "bodies": [{"name": "puck", "linear_velocity": [1, 0], "shapes": [{"type": "circle", "radius": 0.5}]}],
        "stability": {"figure": "drift", "settle": 1, "goal": 2.5, "collapse": 2}})");
}

TEST(StabilityVerb, DriftOfACoastingPuck) {
    nlohmann::json all = runJson({"stability", coastingPuck(), "--json"});
    ASSERT_EQ(all.size(), 1u);
    const nlohmann::json& r = all[0];
    EXPECT_EQ(r["scene"], "coast");
    EXPECT_EQ(r["figure"], "drift");
    EXPECT_NEAR(r["value"].get<double>(), 2.0, 1e-4);
    EXPECT_NEAR(r["displacement"].get<double>(), 3.0, 1e-4);
    EXPECT_NEAR(r["slide"].get<double>(), 3.0, 1e-4);  // all of it sideways
    EXPECT_NEAR(r["peak_speed"].get<double>(), 1.0, 1e-6);
    EXPECT_TRUE(r["joint_error"].is_null());
    EXPECT_EQ(r["goal"], 2.5);
    EXPECT_EQ(r["meets_goal"], true);
    EXPECT_EQ(r["stands"], false);  // it ends 3 m from its start
    EXPECT_EQ(r["steps"], 180);
    EXPECT_EQ(r["window_start"], 60);
    EXPECT_EQ(r["last_sample"], 180);
    EXPECT_EQ(r["samples"], 181);
    EXPECT_EQ(r["finite"], true);
    EXPECT_TRUE(r["error"].is_null());

    test::CliResult text = runCli({"stability", coastingPuck()});
    EXPECT_EQ(text.exitCode, 0);
    EXPECT_NE(text.out.find("coast"), std::string::npos);
    EXPECT_NE(text.out.find("drift"), std::string::npos);
}

TEST(StabilityVerb, SagOfAFallingBall) {
    // Free fall for 1 s: 5 m, up to the integrator's first-order error
    // (semi-implicit Euler over 240 substeps: 5 * 241/240 m).
    std::string scene = test::writeTemp("fall.json", R"({"carom": 1, "name": "fall", "duration": 1,
        "world": {"sleep": false},
        "bodies": [{"name": "ball", "position": [0, 100], "shapes": [{"type": "circle", "radius": 0.5}]}],
        "stability": {"figure": "sag", "bodies": ["ball"]}})");
    nlohmann::json r = runJson({"stability", scene, "--json"})[0];
    EXPECT_NEAR(r["value"].get<double>(), 5.0, 0.05);
    EXPECT_NEAR(r["peak_speed"].get<double>(), 10.0, 0.01);
}

TEST(StabilityVerb, BadInput) {
    std::string plain = test::writeTemp("plain.json", R"({"carom": 1, "bodies": []})");
    EXPECT_EQ(runCli({"stability", plain}).exitCode, 2);
    EXPECT_EQ(runCli({"stability", coastingPuck(), "--seconds", "0.5"}).exitCode,
              2);  // ends before the settle time
    EXPECT_EQ(runCli({"stability"}).exitCode, 2);
    EXPECT_EQ(runCli({"stability", coastingPuck(), "--threads", "0"}).exitCode, 2);
    EXPECT_EQ(runCli({"stability", coastingPuck(), "--frobnicate"}).exitCode, 2);
    test::CliResult help = runCli({"stability", "--help"});
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_EQ(help.out.rfind("usage: carom stability", 0), 0u);
}

TEST(StabilityVerb, EverySuiteSceneDeclaresItsFigure) {
    std::vector<std::string> files = test::jsonFiles(CAROM_STABILITY_SCENES_DIR);
    EXPECT_GE(files.size(), 16u);
    for (const std::string& f : files) {
        SceneDesc d = loadFile(f);
        EXPECT_TRUE(d.stability) << f;
        EXPECT_FALSE(d.world.sleep)
            << f << ": the suite measures the solver, not the sleep heuristic";
    }
}

TEST(StabilityVerb, SuiteFiguresAreComputedAndFiniteOverOneSecond) {
    std::string dir = CAROM_STABILITY_SCENES_DIR;
    std::vector<std::string> args = {"stability"};
    for (const char* s : {"stack10", "pyramid100", "card_house", "arch", "weld_bowl", "overlap10",
                          "chain_load", "ragdoll_pile", "far_origin"}) {
        args.push_back(dir + "/" + s + ".json");
    }
    args.push_back("--seconds");
    args.push_back("1");
    args.push_back("--json");
    nlohmann::json one = runJson(args);
    ASSERT_EQ(one.size(), 9u);
    for (const nlohmann::json& r : one) {
        SCOPED_TRACE(r["scene"].get<std::string>());
        ASSERT_TRUE(r["value"].is_number());
        EXPECT_TRUE(std::isfinite(r["value"].get<double>()));
        EXPECT_TRUE(std::isfinite(r["peak_speed"].get<double>()));
        EXPECT_TRUE(std::isfinite(r["displacement"].get<double>()));
        EXPECT_LE(r["slide"].get<double>(), r["displacement"].get<double>());
        EXPECT_EQ(r["finite"], true);
        EXPECT_TRUE(r["error"].is_null());
        EXPECT_EQ(r["steps"], 60);
        EXPECT_EQ(r["last_sample"], 60);
        // The card house's window starts once its layout has settled, at 0.5 s.
        EXPECT_EQ(r["window_start"], r["scene"] == "card_house" ? 30 : 0);
    }
    // The joint scenes report a joint error, the others none.
    EXPECT_TRUE(one[4]["joint_error"].is_number());
    EXPECT_TRUE(one[0]["joint_error"].is_null());

    // Worker threads change nothing.
    args.push_back("--threads");
    args.push_back("2");
    EXPECT_EQ(runJson(args), one);
}

}  // namespace
}  // namespace carom::scene
