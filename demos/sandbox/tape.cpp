#include "tape.hpp"

#include <fstream>
#include <iterator>
#include <string_view>
#include <stdexcept>
#include <vector>

namespace carom::sandbox {

void Tape::startRecording(const scene::SceneRunner& runner, std::string path) {
    player_.reset();
    recorder_.emplace(runner, 60);
    recorded_ = 0;
    path_ = std::move(path);
}

std::string Tape::stopRecording(const scene::SceneRunner& runner) {
    if (!recorder_) return {};
    const std::vector<uint8_t> bytes = recorder_->finish(runner).bytes();
    recorder_.reset();
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return "cannot write " + path_;
    return "wrote " + path_ + " (" + std::to_string(recorded_) + " steps)";
}

void Tape::openReplay(const std::string& path, Simulation& sim) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    auto player = std::make_unique<scene::RecordingPlayer>(Recording::fromBytes(bytes), path);
    std::unique_ptr<scene::SceneRunner> runner = player->seek(0);
    const Recording& r = player->recording();
    scene::SceneDesc initial = scene::loadString(
        std::string_view(reinterpret_cast<const char*>(r.initial.data()), r.initial.size()), path);
    sim.openDesc(std::move(initial), path);  // what Restart starts again
    recorder_.reset();
    player_ = std::move(player);
    path_ = path;
    firstMismatch_ = 0;
    sim.show(std::move(runner), 0);
}

void Tape::seek(int64_t step, Simulation& sim) {
    if (!player_) return;
    std::unique_ptr<scene::SceneRunner> runner = player_->seek(step);
    sim.show(std::move(runner), player_->step());
}

bool Tape::step(Simulation& sim) {
    if (recorder_) {
        recorder_->step(sim.runner());
        ++recorded_;
        return true;
    }
    if (player_) {
        const bool stepped = sim.swapRunner(
            [&](std::unique_ptr<scene::SceneRunner>& runner) { return player_->forward(runner); });
        if (stepped && !player_->matched() && firstMismatch_ == 0) firstMismatch_ = player_->step();
        return stepped;
    }
    sim.step();
    return true;
}

int64_t Tape::position() const {
    if (player_) return player_->step();
    return recorded_;
}

int64_t Tape::length() const {
    return player_ ? player_->steps() : recorded_;
}

}  // namespace carom::sandbox
