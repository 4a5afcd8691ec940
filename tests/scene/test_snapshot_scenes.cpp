// World::snapshot / restore on every shipped scene (docs/snapshot.md): after
// a second, snapshot; two seconds more give hash H; restoring (in the same
// world, in a fresh world built from the same file, and through the byte
// form) and running the same two seconds gives H again.
#include <gtest/gtest.h>

#include <filesystem>

#include <carom/scene.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

uint64_t runHash(World& w, float dt, int steps) {
    for (int i = 0; i < steps; ++i) w.step(dt);
    return w.stateHash();
}

TEST(SnapshotScenes, RestoreRepeatsTheStepsOnEveryShippedScene) {
    for (const std::string& file : test::jsonFiles(CAROM_SCENES_DIR)) {
        SCOPED_TRACE(std::filesystem::path(file).filename().string());
        const SceneDesc desc = loadFile(file);
        SceneRunner runner(desc);
        runner.run(runner.stepsFor(1.0));
        World& w = runner.world();
        const float dt = runner.timestep();
        const int steps = int(runner.stepsFor(2.0));
        const Snapshot snap = w.snapshot();
        const uint64_t h = runHash(w, dt, steps);

        w.restore(snap);
        EXPECT_EQ(runHash(w, dt, steps), h) << "same world";

        SceneRunner fresh(desc);
        fresh.world().restore(snap);
        EXPECT_EQ(runHash(fresh.world(), dt, steps), h) << "fresh world";

        SceneRunner fromBytes(desc);
        fromBytes.world().restore(Snapshot::fromBytes(snap.bytes()));
        EXPECT_EQ(runHash(fromBytes.world(), dt, steps), h) << "through bytes";
    }
}

}  // namespace
}  // namespace carom::scene
