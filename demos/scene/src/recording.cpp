// Scene recordings (<carom/scene_recording.hpp>).
#include <carom/scene_recording.hpp>

#include <cmath>
#include <cstring>
#include <string_view>

#include <carom/error.hpp>

namespace carom::scene {

namespace {

SaveOptions exact() {
    SaveOptions o;
    o.warm = true;
    return o;
}

std::vector<uint8_t> toBytes(const std::string& s) {
    return std::vector<uint8_t>(s.begin(), s.end());
}

std::unique_ptr<SceneRunner> load(const std::vector<uint8_t>& state, const std::string& label,
                                  const RunOptions& options) {
    const std::string_view json(reinterpret_cast<const char*>(state.data()), state.size());
    return std::make_unique<SceneRunner>(loadString(json, label), options);
}

// One recorded step: the scene an edit left, if the frame has one, then the
// input and the step.
void stepWith(std::unique_ptr<SceneRunner>& runner, const Recording::Frame& frame,
              const std::string& label, const RunOptions& options) {
    const CharacterInput input = decodeInput(frame.input);
    if (frame.input.size() > kInputBytes) {
        runner = load(std::vector<uint8_t>(frame.input.begin() + kInputBytes, frame.input.end()),
                      label, options);
    }
    runner->setInput(input);
    runner->step();
}

void refuseKind(const Recording& r) {
    if (r.kind != "scene")
        throw Error(ErrorCode::InvalidArgument,
                    "kind: a scene replay needs a recording of kind \"scene\", this one is \"" +
                        r.kind + "\"",
                    "kind");
}

}  // namespace

std::vector<uint8_t> encodeInput(const CharacterInput& input) {
    uint32_t bits = 0;
    std::memcpy(&bits, &input.move, 4);
    return {uint8_t(bits), uint8_t(bits >> 8), uint8_t(bits >> 16), uint8_t(bits >> 24),
            uint8_t(input.jump ? 1 : 0)};
}

CharacterInput decodeInput(std::span<const uint8_t> bytes) {
    auto refuse = [&](const std::string& why) -> CharacterInput {
        throw Error(ErrorCode::InvalidArgument, "input: " + why, "input");
    };
    if (bytes.size() < kInputBytes)
        return refuse("5 bytes expected, got " + std::to_string(bytes.size()));
    const uint32_t bits = uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 | uint32_t(bytes[2]) << 16 |
                          uint32_t(bytes[3]) << 24;
    CharacterInput in;
    std::memcpy(&in.move, &bits, 4);
    if (!(in.move >= -1.0f && in.move <= 1.0f))
        return refuse("the run direction is not in [-1, 1]");
    if (bytes[4] > 1) return refuse("the jump flag is not 0 or 1");
    in.jump = bytes[4] == 1;
    return in;
}

SceneRecorder::SceneRecorder(const SceneRunner& runner, int32_t keyframeInterval) {
    if (keyframeInterval < 1)
        throw Error(ErrorCode::InvalidArgument,
                    "keyframeInterval: must be >= 1, got " + std::to_string(keyframeInterval),
                    "keyframeInterval");
    recording_.kind = "scene";
    recording_.keyframeInterval = keyframeInterval;
    recording_.initial = toBytes(sceneJson(runner, exact()));
}

void SceneRecorder::step(SceneRunner& runner) {
    std::vector<uint8_t> input = encodeInput(runner.input());
    if (edited_) {
        const std::string scene = sceneJson(runner, exact());
        input.insert(input.end(), scene.begin(), scene.end());
        edited_ = false;
    }
    runner.step();
    recording_.frames.push_back({std::move(input), runner.world().stateHash()});
    const int64_t step = int64_t(recording_.frames.size());
    if (step % recording_.keyframeInterval == 0)
        recording_.keyframes.push_back({step, toBytes(sceneJson(runner, exact()))});
}

Recording SceneRecorder::finish(const SceneRunner& runner) const {
    Recording r = recording_;
    const int64_t last = int64_t(r.frames.size());
    if (last > 0 && (r.keyframes.empty() || r.keyframes.back().step != last))
        r.keyframes.push_back({last, toBytes(sceneJson(runner, exact()))});
    return r;
}

RecordingPlayer::RecordingPlayer(Recording recording, std::string label, RunOptions options)
    : recording_(std::move(recording)), label_(std::move(label)), options_(options) {
    refuseKind(recording_);
}

std::unique_ptr<SceneRunner> RecordingPlayer::seek(int64_t step) {
    if (step < 0 || step > steps())
        throw Error(ErrorCode::InvalidArgument,
                    "step: must be within [0, " + std::to_string(steps()) + "], got " +
                        std::to_string(step),
                    "step");
    const Recording::Keyframe* key = recording_.keyframeBefore(step);
    std::unique_ptr<SceneRunner> runner =
        load(key ? key->state : recording_.initial, label_, options_);
    step_ = key ? key->step : 0;
    matched_ = true;
    while (step_ < step) forward(runner);
    return runner;
}

bool RecordingPlayer::forward(std::unique_ptr<SceneRunner>& runner) {
    if (step_ >= steps()) return false;
    const Recording::Frame& frame = recording_.frames[size_t(step_)];
    stepWith(runner, frame, label_, options_);
    ++step_;
    matched_ = runner->world().stateHash() == frame.hash;
    return true;
}

std::unique_ptr<SceneRunner> seekRecording(const Recording& recording, int64_t step,
                                           const std::string& label, const RunOptions& options) {
    return RecordingPlayer(recording, label, options).seek(step);
}

ReplayReport replayRecording(const Recording& recording, const std::string& label,
                             const RunOptions& options) {
    RecordingPlayer player(recording, label, options);
    ReplayReport report;
    report.steps = player.steps();
    std::unique_ptr<SceneRunner> runner = player.seek(0);
    while (player.forward(runner)) {
        if (player.matched()) continue;
        const int64_t k = player.step();
        report.firstDifferentStep = k;
        report.recordedHash = recording.frames[size_t(k - 1)].hash;
        report.replayedHash = runner->world().stateHash();
        // The bodies as recorded exist only at keyframes: run on to the first
        // one at or after the differing step and compare there.
        const Recording::Keyframe* key = nullptr;
        for (const Recording::Keyframe& kf : recording.keyframes) {
            if (kf.step >= k) {
                key = &kf;
                break;
            }
        }
        if (!key) return report;
        while (player.step() < key->step) player.forward(runner);
        const std::unique_ptr<SceneRunner> recorded = load(key->state, label, options);
        report.comparedAtStep = key->step;
        report.body = firstBodyDifference(recorded->world(), runner->world());
        if (report.body.found && !report.body.recorded.isNull()) {
            if (std::optional<std::string> name = recorded->nameOf(report.body.recorded))
                report.bodyName = *name;
        }
        return report;
    }
    return report;
}

}  // namespace carom::scene
