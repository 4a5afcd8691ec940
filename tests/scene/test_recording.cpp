// Recordings and replays (docs/manual/recording.md): every shipped scene
// replays to the bit, the file refuses damage, and a replay that differs
// names the first step and the first body.
#include <gtest/gtest.h>

#include <filesystem>

#include <carom/error.hpp>
#include <carom/recording.hpp>
#include <carom/scene_recording.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

std::string sceneFile(const char* name) {
    return std::string(CAROM_SCENES_DIR) + "/" + name;
}

// Runs `steps` steps of the scene with a recorder; the platformer's hero runs
// right and jumps now and then, so the inputs matter.
Recording record(const std::string& file, int steps, int keyframeInterval) {
    SceneRunner runner(loadFile(file));
    SceneRecorder recorder(runner, keyframeInterval);
    for (int k = 0; k < steps; ++k) {
        runner.setInput(CharacterInput{k < steps / 2 ? 1.0f : -0.5f, k % 37 < 3});
        recorder.step(runner);
    }
    return recorder.finish(runner);
}

TEST(Recording, EveryShippedSceneReplaysToTheBit) {
    for (const std::string& file : test::jsonFiles(CAROM_SCENES_DIR)) {
        SCOPED_TRACE(std::filesystem::path(file).filename().string());
        const Recording recorded = record(file, 90, 40);
        ASSERT_EQ(recorded.frames.size(), 90u);
        ASSERT_EQ(recorded.keyframes.size(), 3u);  // steps 40, 80 and the last, 90
        // Through the byte form, at another worker count.
        const Recording r = Recording::fromBytes(recorded.bytes());
        RunOptions options;
        options.threads = 3;
        const ReplayReport report = replayRecording(r, file, options);
        EXPECT_EQ(report.steps, 90);
        EXPECT_EQ(report.firstDifferentStep, 0)
            << "recorded " << report.recordedHash << ", replayed " << report.replayedHash;
        // Seeking starts from the keyframe before and lands on the same bits.
        for (int64_t step : {0, 39, 40, 65, 90}) {
            const std::unique_ptr<SceneRunner> at = seekRecording(r, step, file);
            const uint64_t expected = step == 0 ? SceneRunner(loadFile(file)).world().stateHash()
                                                : r.frames[size_t(step - 1)].hash;
            EXPECT_EQ(at->world().stateHash(), expected) << "step " << step;
        }
    }
}

TEST(Recording, ReplayNamesTheFirstDifferingStepAndBody) {
    Recording r = record(sceneFile("platformer.json"), 120, 50);
    // The hero is told to stand still before step 70 instead of running.
    r.frames[69].input = encodeInput(CharacterInput{0.0f, false});
    const ReplayReport report = replayRecording(Recording::fromBytes(r.bytes()), "platformer");
    EXPECT_EQ(report.firstDifferentStep, 70);
    EXPECT_EQ(report.recordedHash, r.frames[69].hash);
    EXPECT_NE(report.replayedHash, report.recordedHash);
    EXPECT_EQ(report.comparedAtStep, 100);
    ASSERT_TRUE(report.body.found);
    EXPECT_EQ(report.bodyName, "hero");
    EXPECT_EQ(report.body.what.rfind("position", 0), 0u) << report.body.what;
}

// Changes made between steps outside the runner (the sandbox's mouse tools)
// travel as the scene they left: the replay loads it and matches on.
TEST(Recording, EditsBetweenStepsReplay) {
    SceneRunner runner(loadFile(sceneFile("pyramid.json")));
    SceneRecorder recorder(runner, 50);
    for (int k = 0; k < 120; ++k) {
        if (k == 30 || k == 31 || k == 75) {
            World& w = runner.world();
            const BodyId box = w.bodies()[size_t(1 + k % 7)];
            w.setLinearVelocity(box, Vec2{3.0f, 4.0f});
            if (k == 75) w.destroyBody(w.bodies()[20]);
            recorder.edited();
        }
        recorder.step(runner);
    }
    const Recording r = Recording::fromBytes(recorder.finish(runner).bytes());
    EXPECT_GT(r.frames[30].input.size(), kInputBytes);
    EXPECT_EQ(r.frames[32].input.size(), kInputBytes);
    EXPECT_EQ(replayRecording(r, "pyramid").firstDifferentStep, 0);
    // Without the edit the replay parts from the recording at that step.
    Recording cut = r;
    cut.frames[75].input.resize(kInputBytes);
    EXPECT_EQ(replayRecording(cut, "pyramid").firstDifferentStep, 76);
    EXPECT_EQ(seekRecording(r, 100, "pyramid")->world().stateHash(), r.frames[99].hash);
}

TEST(Recording, ADamagedFileIsRefusedWithItsReason) {
    const std::vector<uint8_t> good = record(sceneFile("pyramid.json"), 10, 5).bytes();
    auto refusal = [](const std::vector<uint8_t>& bytes) -> std::string {
        try {
            (void)Recording::fromBytes(bytes);
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), "bytes");
            return e.what();
        }
        return "accepted";
    };
    std::vector<uint8_t> bad = good;
    bad[bad.size() / 2] ^= 0x10;
    EXPECT_NE(refusal(bad).find("checksum mismatch"), std::string::npos) << refusal(bad);
    bad = good;
    bad.resize(bad.size() - 7);
    EXPECT_NE(refusal(bad).find("payload of"), std::string::npos) << refusal(bad);
    bad.resize(20);
    EXPECT_NE(refusal(bad).find("truncated header"), std::string::npos) << refusal(bad);
    bad = good;
    bad[0] = 'X';
    EXPECT_NE(refusal(bad).find("not a Carom recording"), std::string::npos);
    bad = good;
    bad[8] = 2;  // the format version
    EXPECT_NE(refusal(bad).find("format version 2, this build reads 1"), std::string::npos)
        << refusal(bad);
    EXPECT_EQ(refusal(good), "accepted");
    // A scene replay needs a scene recording, and inputs it could have written.
    Recording world = Recording::fromBytes(good);
    world.kind = "world";
    EXPECT_THROW((void)replayRecording(world, "x"), Error);
    EXPECT_THROW((void)decodeInput(std::vector<uint8_t>{0, 0, 0x80, 0x7f, 0}), Error);  // +inf
    EXPECT_THROW((void)decodeInput(std::vector<uint8_t>{0, 0, 0, 0, 2}), Error);
    EXPECT_EQ(decodeInput(encodeInput(CharacterInput{-0.25f, true})).move, -0.25f);
}

// The World-level recorder: world snapshots, a frame per step, keyframes.
TEST(Recording, TheWorldRecorderReplaysFromItsSnapshots) {
    SceneRunner runner(loadFile(sceneFile("pyramid.json")));
    World& w = runner.world();
    Recorder recorder(w, 25);
    for (int k = 0; k < 60; ++k) {
        w.step(runner.timestep());
        recorder.frame(w);
    }
    const Recording r = Recording::fromBytes(recorder.recording().bytes());
    ASSERT_EQ(r.kind, "world");
    ASSERT_EQ(r.keyframes.size(), 2u);
    SceneRunner replay(loadFile(sceneFile("pyramid.json")));
    replay.world().restore(Snapshot::fromBytes(r.initial));
    for (const Recording::Frame& f : r.frames) {
        replay.world().step(runner.timestep());
        ASSERT_EQ(replay.world().stateHash(), f.hash);
    }
    EXPECT_FALSE(firstBodyDifference(w, replay.world()).found);
    // From the keyframe at step 50 to the end.
    const Recording::Keyframe* key = r.keyframeBefore(55);
    ASSERT_NE(key, nullptr);
    EXPECT_EQ(key->step, 50);
    replay.world().restore(Snapshot::fromBytes(key->state));
    for (int64_t k = key->step; k < 60; ++k) replay.world().step(runner.timestep());
    EXPECT_EQ(replay.world().stateHash(), r.frames.back().hash);
    // One body set moving in both worlds (which wakes its island in both),
    // a little faster in the replay: named by its place, with what differs.
    w.setLinearVelocity(w.bodies()[5], Vec2{1.0f, 0.0f});
    replay.world().setLinearVelocity(replay.world().bodies()[5], Vec2{1.0f, 1e-3f});
    const BodyDifference d = firstBodyDifference(w, replay.world());
    EXPECT_TRUE(d.found);
    EXPECT_EQ(d.index, 5);
    EXPECT_EQ(d.what.rfind("linear velocity", 0), 0u) << d.what << " at " << d.index;
}

}  // namespace
}  // namespace carom::scene
