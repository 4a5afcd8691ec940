// Recording and replaying in the sandbox (docs/sandbox.md, "Recording and
// replay"; the recording itself is docs/manual/recording.md).
//
// Recording: every step goes through a scene::SceneRecorder, with the
// character keys as the frame's input; a step after the mouse tools changed
// the world (a drag, a spawn, a bullet) carries the whole scene as an edit,
// so the file replays exactly. Stop writes the file.
//
// Replaying: the scene shown is the recording's, stepped with its frames;
// the step slider jumps anywhere (from the keyframe before), and each step
// is checked against the recorded hash. The tools and the character keys
// leave the world alone while a recording plays.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <carom/scene_recording.hpp>

#include "simulation.hpp"

namespace carom::sandbox {

class Tape {
   public:
    bool recording() const { return recorder_.has_value(); }
    bool replaying() const { return player_ != nullptr; }

    /// Starts recording the scene as it is now, to be written to path.
    void startRecording(const scene::SceneRunner& runner, std::string path);
    /// Writes the recording (with a keyframe at its last step) and stops.
    /// Returns what happened, for the panel ("wrote FILE (N steps)" or why not).
    std::string stopRecording(const scene::SceneRunner& runner);
    /// The next recorded step carries the whole scene (the tools changed it).
    void edited() {
        if (recorder_) recorder_->edited();
    }

    /// Opens a recording and shows its first step. Throws on a bad file
    /// (carom::Error, SceneError, std::runtime_error when unreadable).
    void openReplay(const std::string& path, Simulation& sim);
    /// Leaves the replay (the scene shown stays where it is).
    void closeReplay() { player_.reset(); }
    /// Shows the replay at `step`.
    void seek(int64_t step, Simulation& sim);

    /// One step of the scene: recorded, replayed (false at the end of the
    /// replay, which then stops), or plain.
    bool step(Simulation& sim);

    int64_t position() const;  ///< steps recorded, or the replay's step
    int64_t length() const;    ///< the replay's steps
    /// The first replayed step whose state differed from the recording, 0 if none.
    int64_t firstMismatch() const { return firstMismatch_; }
    const std::string& path() const { return path_; }

   private:
    std::optional<scene::SceneRecorder> recorder_;
    int64_t recorded_ = 0;
    std::unique_ptr<scene::RecordingPlayer> player_;
    int64_t firstMismatch_ = 0;
    std::string path_;
};

}  // namespace carom::sandbox
