// The scene the sandbox shows: a loaded SceneDesc, the SceneRunner stepping
// it, and the user's overrides of its settings.
//
// Loading never disturbs what runs: a file is parsed and its world built
// completely before it replaces the current one, so a bad file (or a file
// caught half-written while the reload-on-change watcher polls it) only sets
// an error message, and the previous scene keeps running.
//
// Settings that the World fixes at creation (broadphase, substeps) are
// changed without losing the current state by a round trip through the scene
// library: the running world is written as a scene (sceneJson), read back with
// the new settings, and rebuilt. Restart always starts again from the file as
// loaded, with the current overrides.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <carom/scene.hpp>

#include "scene_files.hpp"

namespace carom::sandbox {

class Simulation {
   public:
    /// Opens a scene file. On success the new scene replaces the current one
    /// and the error is cleared; on failure the current scene stays and
    /// error() says why. Returns success.
    bool open(const std::string& path);
    /// Re-reads the current file (same rules as open).
    bool reload();
    /// Starts the loaded scene again from its initial state.
    void restart();
    /// True when the watched file changed on disk since the last check.
    bool fileChanged() { return watcher_.changed(); }

    bool loaded() const { return runner_ != nullptr; }
    scene::SceneRunner& runner() { return *runner_; }
    const scene::SceneRunner& runner() const { return *runner_; }
    World& world() { return runner_->world(); }
    const scene::SceneDesc& desc() const { return desc_; }
    const std::string& path() const { return path_; }
    const std::string& error() const { return error_; }
    void setError(std::string message) { error_ = std::move(message); }
    /// Bumped whenever the world is replaced (ids held elsewhere go stale).
    uint64_t generation() const { return generation_; }

    // ---- overrides ------------------------------------------------------------
    void setThreads(std::optional<int> threads) { options_.threads = threads; }
    BroadphaseType broadphase() const;
    int substeps() const;
    /// Whether joint trees are solved exactly (WorldDef::tuning.enableJointDirectSolve).
    bool exactJoints() const;
    /// Changes broadphase, substeps and (when given) the exact joint trees,
    /// keeping the current state.
    void applySettings(BroadphaseType broadphase, int substeps,
                       std::optional<bool> exactJoints = std::nullopt);
    /// Overrides for the next load (command line).
    void setBroadphase(std::optional<BroadphaseType> bp) { options_.broadphase = bp; }

    /// Simulated seconds and steps since the scene (re)started, across
    /// setting changes and a replay's edits and jumps.
    double time() const { return runner_ ? timeOffset_ + runner_->time() : 0.0; }
    int64_t steps() const { return runner_ ? stepOffset_ + runner_->steps() : 0; }
    /// Steps the world once (events due are applied first).
    void step() { runner_->step(); }

    /// Shows a scene that is not a file's (a recording's initial scene):
    /// restart starts it again. Throws as SceneRunner's constructor does.
    void openDesc(scene::SceneDesc desc, const std::string& label) {
        install(std::move(desc), label);
    }
    /// Shows a runner of the loaded scene at another point (a recording
    /// being replayed at step atStep).
    void show(std::unique_ptr<scene::SceneRunner> runner, int64_t atStep);
    /// Calls fn with the running runner, which fn may step or replace (a
    /// replay's edit frame); a replaced world counts as a new one. Returns
    /// what fn returns.
    template <class Fn>
    bool swapRunner(Fn&& fn) {
        const scene::SceneRunner* before = runner_.get();
        const double time = runner_->time();
        const int64_t steps = runner_->steps();
        const bool result = fn(runner_);
        if (runner_.get() != before) {
            // The new runner counts from the moment the old one stopped.
            ++generation_;
            timeOffset_ += time;
            stepOffset_ += steps;
        }
        return result;
    }

   private:
    bool install(scene::SceneDesc desc, const std::string& path);
    scene::SceneDesc withOverrides(scene::SceneDesc desc) const;

    scene::SceneDesc desc_{};  ///< as loaded from the file
    std::unique_ptr<scene::SceneRunner> runner_;
    std::string path_;
    std::string error_;
    FileWatcher watcher_;
    scene::RunOptions options_{};
    std::optional<int> substeps_;      ///< override of desc_.world.substeps
    std::optional<bool> exactJoints_;  ///< override of desc_.world.tuning.enableJointDirectSolve
    double timeOffset_ = 0.0;
    int64_t stepOffset_ = 0;
    uint64_t generation_ = 0;
};

}  // namespace carom::sandbox
