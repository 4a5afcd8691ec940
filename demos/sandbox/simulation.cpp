#include "simulation.hpp"

#include <exception>

namespace carom::sandbox {

scene::SceneDesc Simulation::withOverrides(scene::SceneDesc desc) const {
    if (substeps_) desc.world.substeps = *substeps_;
    if (exactJoints_) desc.world.tuning.enableJointDirectSolve = *exactJoints_;
    return desc;
}

bool Simulation::install(scene::SceneDesc desc, const std::string& path) {
    // Build the new runner completely before touching the current one.
    auto runner = std::make_unique<scene::SceneRunner>(withOverrides(desc), options_);
    desc_ = std::move(desc);
    runner_ = std::move(runner);
    if (path != path_ || watcher_.file().empty()) watcher_.watch(path);
    path_ = path;
    timeOffset_ = 0.0;
    stepOffset_ = 0;
    ++generation_;
    error_.clear();
    return true;
}

void Simulation::show(std::unique_ptr<scene::SceneRunner> runner, int64_t atStep) {
    runner_ = std::move(runner);
    stepOffset_ = atStep - runner_->steps();
    timeOffset_ = static_cast<double>(stepOffset_) * static_cast<double>(runner_->timestep());
    ++generation_;
    error_.clear();
}

bool Simulation::open(const std::string& path) {
    try {
        scene::SceneDesc desc = scene::loadFile(path);
        return install(std::move(desc), path);
    } catch (const std::exception& e) {
        error_ = e.what();
        // Watch the file even when it is bad, so that fixing it loads it.
        if (!loaded()) {
            path_ = path;
            watcher_.watch(path);
        }
        return false;
    }
}

bool Simulation::reload() {
    if (path_.empty()) return false;
    return open(path_);
}

void Simulation::restart() {
    if (!loaded()) return;
    try {
        install(desc_, path_);
    } catch (const std::exception& e) {
        error_ = e.what();
    }
}

BroadphaseType Simulation::broadphase() const {
    if (options_.broadphase) return *options_.broadphase;
    return desc_.world.broadphase;
}

int Simulation::substeps() const {
    return substeps_ ? *substeps_ : desc_.world.substeps;
}

bool Simulation::exactJoints() const {
    return exactJoints_ ? *exactJoints_ : desc_.world.tuning.enableJointDirectSolve;
}

void Simulation::applySettings(BroadphaseType broadphase, int substeps,
                               std::optional<bool> exactJoints) {
    options_.broadphase = broadphase;
    substeps_ = substeps;
    if (exactJoints) exactJoints_ = exactJoints;
    if (!loaded()) return;
    try {
        // Round trip: the current world as a scene, rebuilt with new settings.
        // A drag in progress belongs to the tools, not to the scene.
        scene::SaveOptions save;
        save.mouseJoints = false;
        scene::SceneDesc now = scene::loadString(scene::sceneJson(*runner_, save), path_);
        now = withOverrides(std::move(now));
        auto runner = std::make_unique<scene::SceneRunner>(now, options_);
        timeOffset_ += runner_->time();
        stepOffset_ += runner_->steps();
        runner_ = std::move(runner);
        ++generation_;
    } catch (const std::exception& e) {
        // The state could not be carried over: start again with the settings.
        std::string why = e.what();
        try {
            install(desc_, path_);
            error_ = "settings applied by restarting: " + why;
        } catch (const std::exception& e2) {
            error_ = e2.what();
        }
    }
}

}  // namespace carom::sandbox
