// Recording and replaying the scene runner (docs/manual/recording.md).
//
// A scene recording is a carom::Recording of kind "scene": the initial state
// and the keyframes are scene files with their warm section (sceneJson with
// SaveOptions::warm), so they reload to the same bits on any platform; each
// frame's input is the runner's CharacterInput for that step, followed, when
// something outside the runner changed the world before the step (the
// sandbox's mouse tools, a game's own calls), by the whole scene as it was
// then: the replay loads it and steps on from there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <carom/recording.hpp>
#include <carom/scene.hpp>

namespace carom::scene {

/// The first bytes of a frame's input: the run direction's float bits (u32,
/// little endian) and the jump flag (u8).
inline constexpr std::size_t kInputBytes = 5;
std::vector<uint8_t> encodeInput(const CharacterInput& input);
/// The input the first kInputBytes bytes hold; throws carom::Error (field
/// "input") for bytes that encodeInput cannot have written.
CharacterInput decodeInput(std::span<const uint8_t> bytes);

/// Records a runner's run: the scene as it is when made, then one frame per
/// step() and a keyframe every keyframeInterval steps.
class SceneRecorder {
   public:
    explicit SceneRecorder(const SceneRunner& runner, int32_t keyframeInterval = 60);
    /// Steps the runner once with its current input, and records the step.
    void step(SceneRunner& runner);
    /// Says that the world was changed since the last step by calls the
    /// runner does not know of: the next frame carries the whole scene.
    void edited() { edited_ = true; }
    /// The recording so far, with a keyframe at its last step (where the
    /// replay compares the bodies when a later step differs).
    Recording finish(const SceneRunner& runner) const;

   private:
    Recording recording_;
    bool edited_ = false;
};

/// Plays a scene recording forwards and jumps to any step: what the sandbox
/// scrubs with. label names the file in errors (SceneError when a state in
/// the recording is not a scene the loader accepts).
class RecordingPlayer {
   public:
    /// Throws carom::Error (field "kind") unless the recording is a scene's.
    RecordingPlayer(Recording recording, std::string label, RunOptions options = {});
    const Recording& recording() const { return recording_; }
    /// The step the runner last given out or stepped is at.
    int64_t step() const { return step_; }
    int64_t steps() const { return int64_t(recording_.frames.size()); }
    /// The runner at `step` (within [0, steps()]): loaded from the last
    /// keyframe at or before it (or the initial scene), then stepped with the
    /// recorded inputs.
    std::unique_ptr<SceneRunner> seek(int64_t step);
    /// Steps runner, which must be at step(), with the next frame (an edit
    /// frame replaces it with the scene it carries first). False at the end.
    bool forward(std::unique_ptr<SceneRunner>& runner);
    /// Whether the state after the last forward() had the recorded hash.
    bool matched() const { return matched_; }

   private:
    Recording recording_;
    std::string label_;
    RunOptions options_;
    int64_t step_ = 0;
    bool matched_ = true;
};

/// RecordingPlayer(recording, label, options).seek(step).
std::unique_ptr<SceneRunner> seekRecording(const Recording& recording, int64_t step,
                                           const std::string& label,
                                           const RunOptions& options = {});

/// What replayRecording found.
struct ReplayReport {
    int64_t steps = 0;               ///< steps in the recording
    int64_t firstDifferentStep = 0;  ///< 0 when every step's hash matched
    uint64_t recordedHash = 0;       ///< at that step
    uint64_t replayedHash = 0;
    /// Where the bodies were compared: the first keyframe at or after the
    /// differing step (0 when the recording has none).
    int64_t comparedAtStep = 0;
    BodyDifference body;   ///< the first body that differs there
    std::string bodyName;  ///< its scene name, if it has one
};

/// Replays the recording from its initial scene with its inputs and checks
/// each step's state hash; on the first difference, runs on to the next
/// keyframe and compares the bodies there. Throws SceneError when a state
/// in the recording is not a scene the loader accepts.
ReplayReport replayRecording(const Recording& recording, const std::string& label,
                             const RunOptions& options = {});

}  // namespace carom::scene
