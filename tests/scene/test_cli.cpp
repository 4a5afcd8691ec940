// The `carom` command, run as a process: verbs, flags, exit statuses and
// the shapes of its outputs (docs/cli.md).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include <carom/collision.hpp>
#include <carom/scene.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

using test::runCli;

std::string smallScene() {
    return test::writeTemp("small.json", R"({"carom": 1, "name": "small", "duration": 0.5,
        "bodies": [{"name": "ground", "type": "static", "position": [0, -0.5], "shapes": [{"type": "box", "half_extents": [5, 0.5]}]},
                   {"generate": "pyramid", "rows": 3, "origin": [0, 0.5], "step": [1, 1], "body": {"name": "box", "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}},
                   {"position": [0, 8], "shapes": [{"type": "circle", "radius": 0.5}]}]})");
}

TEST(CaromCommand, HelpForEveryVerb) {
    for (const char* verb : {"run", "bench", "validate", "query"}) {
        test::CliResult r = runCli({verb, "--help"});
        EXPECT_EQ(r.exitCode, 0) << verb;
        EXPECT_EQ(r.out.rfind(std::string("usage: carom ") + verb, 0), 0u) << r.out;
    }
    test::CliResult top = runCli({"--help"});
    EXPECT_EQ(top.exitCode, 0);
    EXPECT_NE(top.out.find("carom run SCENE"), std::string::npos);
    EXPECT_EQ(runCli({}).exitCode, 2);
    EXPECT_EQ(runCli({"simulate", "x.json"}).exitCode, 2);
}

TEST(CaromCommand, RunPrintsTheStateOfTheSpec) {
    std::string scene = smallScene();
    test::CliResult r = runCli({"run", scene});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    nlohmann::json s = nlohmann::json::parse(r.out);
    EXPECT_EQ(s["scene"], "small");
    EXPECT_EQ(s["steps"], 30);  // the scene's duration, 0.5 s at 1/60 s
    EXPECT_DOUBLE_EQ(s["time"].get<double>(), 0.5);
    ASSERT_EQ(s["bodies"].size(), 8u);
    EXPECT_EQ(s["bodies"][1]["name"], "box[0]");
    EXPECT_TRUE(s["bodies"][7]["name"].is_null());

    // The library gives the same text for the same steps.
    SceneRunner runner(loadFile(scene));
    runner.run(30);
    EXPECT_EQ(r.out, stateJson(runner));
}

TEST(CaromCommand, RunOptions) {
    std::string scene = smallScene();
    test::CliResult steps = runCli({"run", scene, "--steps", "7"});
    ASSERT_EQ(steps.exitCode, 0) << steps.err;
    EXPECT_EQ(nlohmann::json::parse(steps.out)["steps"], 7);
    test::CliResult seconds = runCli({"run", scene, "--seconds=0.25"});
    EXPECT_EQ(nlohmann::json::parse(seconds.out)["steps"], 15);

    // Same hash whatever --threads says.
    test::CliResult one = runCli({"run", scene, "--steps", "40", "--threads", "1"});
    test::CliResult two = runCli({"run", scene, "--steps", "40", "--threads", "2"});
    EXPECT_EQ(nlohmann::json::parse(one.out)["hash"], nlohmann::json::parse(two.out)["hash"]);

    std::string out = test::tempDir() + "/state.json";
    test::CliResult toFile =
        runCli({"run", scene, "--steps", "40", "--broadphase", "sap", "--out", out});
    EXPECT_EQ(toFile.exitCode, 0);
    EXPECT_EQ(toFile.out, "");
    EXPECT_EQ(nlohmann::json::parse(test::readText(out))["steps"], 40);

    std::string csv = test::tempDir() + "/trace.csv";
    test::CliResult traced =
        runCli({"run", scene, "--steps", "10", "--trace", csv, "--every", "4"});
    EXPECT_EQ(traced.exitCode, 0) << traced.err;
    std::istringstream lines(test::readText(csv));
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "step,time,name,x,y,angle,vx,vy,w,awake");
    int rows = 0;
    std::set<std::string> stepsSeen;
    while (std::getline(lines, line)) {
        ++rows;
        stepsSeen.insert(line.substr(0, line.find(',')));
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), 9) << line;
    }
    EXPECT_EQ(rows, 8 * 3);  // steps 0, 4 and 8
    EXPECT_EQ(stepsSeen, (std::set<std::string>{"0", "4", "8"}));
}

// Two wheels pinned at their centres to static axles and a rope they can
// never satisfy (JointDirect.PinnedWheelsUnderAnImpossibleRopeStayFinite):
// the joint direct solve once went NaN on it, the step's guard froze b
// (angular velocity 0) and `run` said nothing. Now b keeps turning, and
// `run` warns on standard error only when a step had to stop a body
// (Counters::nonFiniteBodies).
TEST(CaromCommand, RunOfPinnedWheelsUnderAnImpossibleRopeTurnsAndDoesNotWarn) {
    const std::string scene = test::writeTemp(
        "pinned_wheels.json", R"({"carom": 1, "name": "pinned_wheels", "duration": 5,
        "bodies": [{"name": "axle_a", "type": "static", "position": [0, 5]},
                   {"name": "axle_b", "type": "static", "position": [6, 5]},
                   {"name": "a", "position": [0, 5], "shapes": [{"type": "circle", "radius": 1}]},
                   {"name": "b", "position": [6, 5], "shapes": [{"type": "circle", "radius": 1}]}],
        "joints": [{"type": "revolute", "a": "axle_a", "b": "a", "anchor": [0, 5]},
                   {"type": "revolute", "a": "axle_b", "b": "b", "anchor": [6, 5]},
                   {"type": "rope", "a": "a", "b": "b", "anchor_a": [0, 5], "anchor_b": [6, 5.5], "max_length": 3}]})");
    const test::CliResult r = runCli({"run", scene});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
    const nlohmann::json b = nlohmann::json::parse(r.out)["bodies"][3];
    ASSERT_EQ(b["name"], "b");
    ASSERT_TRUE(b["angular_velocity"].is_number()) << b;
    EXPECT_NE(b["angular_velocity"].get<double>(), 0.0);
}

TEST(CaromCommand, BadFlagsExitTwoMissingFilesExitOne) {
    std::string scene = smallScene();
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"run", scene, "--stepz", "3"},
                                               {"run", scene, "--steps", "-1"},
                                               {"run", scene, "--steps", "x"},
                                               {"run", scene, "--steps", "3", "--seconds", "1"},
                                               {"run", scene, "--threads", "0"},
                                               {"run", scene, "--broadphase", "grid"},
                                               {"run", scene, "--every", "3"},
                                               {"run"},
                                               {"run", scene, scene},
                                               {"bench", scene, "--out", "x.json"},
                                               {"run", scene, "--json"},
                                               {"validate", scene, "--steps", "1"},
                                               {"run", scene, "--steps", "10000001"},
                                               {"run", scene, "--seconds", "1e30"},
                                               {"query"}}) {
        test::CliResult r = runCli(args);
        EXPECT_EQ(r.exitCode, 2) << args[0] << " " << (args.size() > 2 ? args[2] : "");
        EXPECT_EQ(r.out, "");
        EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
    }
    test::CliResult missing = runCli({"run", test::tempDir() + "/missing.json"});
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("missing.json: error: cannot open the file"), std::string::npos)
        << missing.err;
}

TEST(CaromCommand, BenchReportsTimesStagesAndCounts) {
    std::string scene = smallScene();
    test::CliResult j = runCli({"bench", scene, "--steps", "20", "--json"});
    ASSERT_EQ(j.exitCode, 0) << j.err;
    nlohmann::json b = nlohmann::json::parse(j.out);
    for (const char* key :
         {"bodies", "steps", "ms_per_step_mean", "ms_per_step_median", "ms_per_step_min",
          "ms_per_step_p95", "joints", "contacts", "hash", "profile_ms"}) {
        EXPECT_TRUE(b.contains(key)) << key;
    }
    EXPECT_EQ(b["bodies"], 8);
    EXPECT_EQ(b["steps"], 20);
    EXPECT_LE(b["ms_per_step_min"].get<double>(), b["ms_per_step_median"].get<double>());
    EXPECT_LE(b["ms_per_step_median"].get<double>(), b["ms_per_step_p95"].get<double>());
    for (const char* stage : {"broadphase", "narrowphase", "continuous", "solver"}) {
        EXPECT_TRUE(b["profile_ms"].contains(stage)) << stage;
    }
    test::CliResult run = runCli({"run", scene, "--steps", "20"});
    EXPECT_EQ(b["hash"], nlohmann::json::parse(run.out)["hash"]);

    test::CliResult text = runCli({"bench", scene, "--steps", "5"});
    EXPECT_EQ(text.exitCode, 0);
    for (const char* word :
         {"ms/step", "mean", "median", "min", "p95", "bodies", "joints", "contacts", "broadphase",
          "narrowphase", "continuous", "solver", "hash"}) {
        EXPECT_NE(text.out.find(word), std::string::npos) << word;
    }
}

TEST(CaromCommand, ValidatePrintsOneLine) {
    std::string scene = smallScene();
    test::CliResult r = runCli({"validate", scene});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);
    EXPECT_NE(r.out.find("ok"), std::string::npos);
    EXPECT_NE(r.out.find("8 bodies"), std::string::npos) << r.out;
}

// The summary said "(8 bodies with spawns)" for a scene that spawns
// nothing: the spawned bodies are mentioned only when events spawn some.
TEST(CaromCommand, ValidateMentionsSpawnsOnlyWhenEventsSpawnBodies) {
    test::CliResult plain = runCli({"validate", smallScene()});
    EXPECT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_EQ(plain.out.find("spawn"), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find("8 bodies, 8 shapes, 0 joints, 0 events, 0.5 s\n"), std::string::npos)
        << plain.out;
    std::string spawning = test::writeTemp("spawning.json", R"({"carom": 1, "duration": 1,
        "bodies": [{"name": "ground", "type": "static", "shapes": [{"type": "box", "half_extents": [5, 0.5]}]}],
        "events": [{"time": 0.5, "action": "spawn", "bodies": [{"generate": "grid", "rows": 2, "columns": 2, "step": [1, 1],
                    "body": {"shapes": [{"type": "circle", "radius": 0.25}]}}]}]})");
    test::CliResult r = runCli({"validate", spawning});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("1 bodies, 1 shapes, 0 joints, 1 events (spawning 4 bodies), 1 s\n"),
              std::string::npos)
        << r.out;
}

// `carom --help` did not list exit status 3 (the contact budget).
TEST(CaromCommand, HelpListsEveryExitStatus) {
    test::CliResult r = runCli({"--help"});
    EXPECT_EQ(r.exitCode, 0);
    for (const char* status :
         {"0 success", "2 bad input", "3 the scene reached the contact", "1 any other failure"})
        EXPECT_NE(r.out.find(status), std::string::npos) << status << "\n" << r.out;
}

// Every verb flushes and checks standard output at the end and exits 1
// with "cannot write" when its output could not be written, not 0
// (/dev/full refuses every write).
TEST(CaromCommand, EveryVerbFailsWhenItsOutputCannotBeWritten) {
#if defined(_WIN32)
    GTEST_SKIP() << "Windows has no /dev/full";
#endif
    const std::string scene = smallScene();
    const std::string stability = test::writeTemp("stable.json", R"({"carom": 1, "duration": 0.2,
        "bodies": [{"name": "ground", "type": "static", "shapes": [{"type": "box", "half_extents": [5, 0.5]}]},
                   {"name": "box", "position": [0, 1], "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}],
        "stability": {"figure": "drift", "bodies": ["box"]}})");
    const std::string queries =
        test::writeTemp("full_queries.json", R"({"queries": [{"kind": "raycast",
        "shape": {"type": "circle", "radius": 1}, "origin": [-5, 0], "translation": [10, 0]}]})");
    const std::vector<std::vector<std::string>> calls = {{"validate", scene},
                                                         {"run", scene, "--steps", "2"},
                                                         {"bench", scene, "--steps", "2"},
                                                         {"bench", scene, "--steps", "2", "--json"},
                                                         {"stability", stability},
                                                         {"stability", stability, "--json"},
                                                         {"query", queries},
                                                         {"--help"},
                                                         {"validate", "--help"}};
    for (const std::vector<std::string>& args : calls) {
        std::string line;
        for (const std::string& a : args) line += a + " ";
        ASSERT_EQ(runCli(args).exitCode, 0) << line;  // the same call writes fine elsewhere
        test::CliResult r = runCli(args, "", "", "/dev/full");
        EXPECT_EQ(r.exitCode, 1) << line << r.err;
        EXPECT_NE(r.err.find("error: cannot write to standard output"), std::string::npos)
            << line << r.err;
    }
    // A bad file still says so (exit 2) when standard output is full too.
    test::CliResult bad =
        runCli({"validate", test::writeTemp("full_bad.json", "{\"carom\": 1, \"duration\": -1}")},
               "", "", "/dev/full");
    EXPECT_EQ(bad.exitCode, 2) << bad.err;
}

TEST(CaromCommand, QueryAnswersFromTheNarrowphase) {
    std::string file = test::writeTemp("queries.json", R"({"queries": [
        {"kind": "distance", "a": {"type": "circle", "radius": 1}, "at_a": {"position": [0, 0], "angle": 0},
         "b": {"type": "circle", "radius": 0.5, "density": 3}, "at_b": {"position": [3, 0], "angle": 0}},
        {"kind": "raycast", "shape": {"type": "circle", "radius": 1}, "at": {"position": [0, 0], "angle": 0},
         "origin": [-5, 0], "translation": [10, 0]},
        {"kind": "raycast", "shape": {"type": "box", "half_extents": [1, 1]}, "at": {"position": [0, 0], "angle": 0.3},
         "origin": [0.2, 0.1], "translation": [10, 0]},
        {"kind": "contact", "a": {"type": "box", "half_extents": [1, 1]}, "at_a": {"position": [0, 0], "angle": 0},
         "b": {"type": "box", "half_extents": [1, 1]}, "at_b": {"position": [0.5, 1.9], "angle": 0}},
        {"kind": "toi", "a": {"type": "circle", "radius": 0.5}, "from_a": {"position": [0, 0], "angle": 0}, "to_a": {"position": [0, 0], "angle": 0},
         "b": {"type": "circle", "radius": 0.5}, "from_b": {"position": [5, 0], "angle": 0}, "to_b": {"position": [-5, 0], "angle": 0}}]})");
    test::CliResult r = runCli({"query", file});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json a = nlohmann::json::parse(r.out);
    ASSERT_EQ(a.size(), 5u);
    EXPECT_NEAR(a[0]["distance"].get<double>(), 1.5, 1e-5);
    EXPECT_EQ(a[0]["overlap"], false);
    EXPECT_EQ(a[0]["depth"], 0);
    EXPECT_NEAR(a[0]["normal"][0].get<double>(), 1.0, 1e-5);
    EXPECT_NEAR(a[0]["point_a"][0].get<double>(), 1.0, 1e-5);
    EXPECT_NEAR(a[0]["point_b"][0].get<double>(), 2.5, 1e-5);
    EXPECT_TRUE(a[0].contains("iterations"));
    EXPECT_EQ(a[1]["hit"], true);
    EXPECT_NEAR(a[1]["fraction"].get<double>(), 0.4, 1e-5);
    EXPECT_NEAR(a[1]["point"][0].get<double>(), -1.0, 1e-5);
    EXPECT_NEAR(a[1]["normal"][0].get<double>(), -1.0, 1e-5);
    EXPECT_EQ(a[2]["hit"], false);  // starts inside the box
    EXPECT_NEAR(a[3]["normal"][1].get<double>(), 1.0, 1e-5);
    ASSERT_EQ(a[3]["points"].size(), 2u);
    for (const auto& p : a[3]["points"]) {
        EXPECT_NEAR(p["separation"].get<double>(), -0.1, 1e-4);
        EXPECT_TRUE(p.contains("id"));
        EXPECT_TRUE(p.contains("point"));
    }
    EXPECT_EQ(a[4]["state"], "hit");
    EXPECT_GT(a[4]["t"].get<double>(), 0.39);
    EXPECT_LE(a[4]["t"].get<double>(), 0.4);
}

// A toi shape turns from its `from` angle to its `to` angle as written, even
// past π: a 4 m rod pivoting at one end turns 4 rad counter-clockwise through
// a block at 2 rad (the short way round, -2.28 rad, would miss it), and at
// the reported time it is within the slop of the block. Far rays answer
// finite numbers (a NaN fraction would print as null).
TEST(CaromCommand, QueryToiTurnsAsWrittenAndFarRaysAreFinite) {
    std::string file = test::writeTemp("turn.json", R"({"queries": [
        {"kind": "toi", "a": {"type": "box", "half_extents": [2, 0.05], "center": [2, 0]},
         "from_a": {"position": [0, 0], "angle": 0}, "to_a": {"position": [0, 0], "angle": 4},
         "b": {"type": "box", "half_extents": [0.2, 0.2]},
         "from_b": {"position": [-1.2484405, 2.7278923], "angle": 0}, "to_b": {"position": [-1.2484405, 2.7278923], "angle": 0}},
        {"kind": "raycast", "shape": {"type": "circle", "radius": 1}, "origin": [-1e6, 0], "translation": [2e6, 0]},
        {"kind": "raycast", "shape": {"type": "capsule", "p1": [-1.5, 0], "p2": [1.5, 0], "radius": 0.5},
         "origin": [-1e5, 0.25], "translation": [2e5, 0]}]})");
    test::CliResult r = runCli({"query", file});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json a = nlohmann::json::parse(r.out);
    ASSERT_EQ(a.size(), 3u);
    ASSERT_EQ(a[0]["state"], "hit");
    const float t = a[0]["t"].get<float>();
    EXPECT_GT(t, 0.4f);
    EXPECT_LT(t, 0.5f);
    const Polygon rod = makeOffsetBox(2.0f, 0.05f, {2.0f, 0.0f}, 0.0f);
    const Polygon block = makeBox(0.2f, 0.2f);
    DistanceResult d = shapeDistance(rod, makeTransform({0.0f, 0.0f}, 4.0f * t), block,
                                     makeTransform({-1.2484405f, 2.7278923f}, 0.0f));
    EXPECT_FALSE(d.overlap);
    EXPECT_LE(d.distance, 1.25f * kLinearSlop + 1e-4f);
    EXPECT_EQ(a[1]["hit"], true);
    EXPECT_NEAR(a[1]["fraction"].get<double>(), 0.5, 1e-6);
    EXPECT_NEAR(a[1]["point"][0].get<double>(), -1.0, 1e-6);
    EXPECT_NEAR(a[1]["normal"][0].get<double>(), -1.0, 1e-6);
    EXPECT_EQ(a[2]["hit"], true);
    EXPECT_NEAR(a[2]["point"][0].get<double>(), -1.5 - std::sqrt(0.1875), 1e-5);
    std::string far = test::writeTemp("far.json", R"({"queries": [
        {"kind": "raycast", "shape": {"type": "circle", "radius": 1}, "origin": [-1e10, 0], "translation": [2e6, 0]}]})");
    test::CliResult refused = runCli({"query", far});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("far.json:2:"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("queries[0].origin"), std::string::npos) << refused.err;
    // A turn too large to ask in bounded time is refused where it is written.
    std::string spin = test::writeTemp("spin.json", R"({"queries": [
        {"kind": "toi", "a": {"type": "circle", "radius": 1}, "to_a": {"angle": 1000},
         "b": {"type": "circle", "radius": 1}, "from_b": {"position": [5, 0]}}]})");
    test::CliResult bad = runCli({"query", spin});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find(spin + ":2:"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("to_a"), std::string::npos) << bad.err;
}

TEST(CaromCommand, QueryFileErrorsUseTheSameForm) {
    std::string file = test::writeTemp("badq.json", R"({"queries": [{"kind": "distanse"}]})");
    test::CliResult r = runCli({"query", file});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, file +
                         ":1:23: error: queries[0].kind: expected \"distance\", \"contact\", "
                         "\"raycast\" or \"toi\", got \"distanse\", did you mean \"distance\"?\n");
    std::string chain = test::writeTemp(
        "chainq.json",
        R"({"queries": [{"kind": "raycast", "shape": {"type": "chain", "points": [[0, 0], [1, 0]]}, "origin": [0, 1], "translation": [0, -2]}]})");
    EXPECT_EQ(runCli({"query", chain}).exitCode, 2);
    // Every bad query of a file is reported, in order; none is answered.
    std::string two = test::writeTemp("twoq.json", R"({"queries": [{"kind": "distanse"},
        {"kind": "raycast", "shape": {"type": "circle", "radius": 1}, "origin": [0, 0], "translation": [1, 0]},
        {"kind": "raycast", "shape": {"type": "circle", "radius": -1}, "origin": [0, 0], "translation": [1, 0]}]})");
    test::CliResult both = runCli({"query", two});
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_EQ(both.out, "");
    EXPECT_EQ(std::count(both.err.begin(), both.err.end(), '\n'), 2) << both.err;
    EXPECT_NE(both.err.find(two + ":1:23: error: queries[0].kind:"), std::string::npos) << both.err;
    EXPECT_NE(both.err.find(two + ":3:67: error: queries[2].shape.radius: must be > 0, got -1"),
              std::string::npos)
        << both.err;
}

// Every source of text is read the same way: a file, standard input ("-"),
// a pipe (/dev/stdin); a directory is refused as unreadable (exit 1) by
// what it is, not by a made-up size.
TEST(CaromCommand, ReadsStandardInputAndPipesRefusesDirectories) {
    std::string scene = smallScene();
    test::CliResult dash = runCli({"validate", "-"}, "", scene);
    EXPECT_EQ(dash.exitCode, 0) << dash.err;
    EXPECT_EQ(dash.out.rfind("-: ok: scene \"small\", 8 bodies", 0), 0u) << dash.out;
    test::CliResult run = runCli({"run", "-", "--steps", "2"}, "", scene);
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("\"steps\": 2"), std::string::npos) << run.out;

    // Through a real pipe, which has no size to ask for (sh, cat and
    // /dev/stdin: not on Windows).
#if !defined(_WIN32)
    std::string out = test::tempDir() + "/pipe.out";
    std::string command =
        "cat '" + scene + "' | " + test::cliCommand() + " validate /dev/stdin >'" + out + "' 2>&1";
    EXPECT_EQ(test::systemExitCode(command), 0) << test::readText(out);
    EXPECT_EQ(test::readText(out).rfind("/dev/stdin: ok: scene \"small\"", 0), 0u)
        << test::readText(out);
    std::string bad = test::writeTemp("pipe_bad.json", "{\"carom\": 1, \"duration\": -1}");
    command = "cat '" + bad + "' | " + test::cliCommand() + " validate - >'" + out + "' 2>&1";
    EXPECT_EQ(test::systemExitCode(command), 2);
    EXPECT_EQ(test::readText(out), "-:1:26: error: duration: must be > 0, got -1\n");
#endif

    test::CliResult dir = runCli({"validate", test::tempDir()});
    EXPECT_EQ(dir.exitCode, 1);
    EXPECT_EQ(dir.err, test::tempDir() + ": error: cannot open the file: it is a directory\n");
}

}  // namespace
}  // namespace carom::scene
