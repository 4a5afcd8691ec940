// Recordings: a run of a world kept for replay, scrubbing and checking that a
// replay matches, bit for bit.
//
// A recording holds where the run started (`initial`), then per step what
// the game did before it (`input`: bytes the game or the scene runner
// writes and reads back, such as its controls or the calls it made) and the
// world's state hash after it, and every `keyframeInterval` steps a full
// state (`keyframes`) to jump to. What `initial` and the keyframes hold is
// named by `kind`: "world" for World::snapshot() bytes (exact, for the same
// build), "scene" for scene files with their warm section (exact and
// portable, written by the scene runner; docs/manual/recording.md).
//
//   carom::Recorder rec(world, 60);          // initial snapshot
//   for (...) { apply(input); world.step(dt); rec.frame(world, inputBytes); }
//   std::vector<uint8_t> file = rec.recording().bytes();
//
// bytes() / fromBytes() give a versioned, checksummed byte form
// (docs/manual/recording.md, "Byte format"); fromBytes refuses a damaged or
// truncated file with carom::Error naming what is wrong.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <carom/id.hpp>

namespace carom {

class World;

struct Recording {
    /// One step: what the game did before it, and the state hash after it.
    struct Frame {
        std::vector<uint8_t> input;
        uint64_t hash = 0;
    };
    /// A full state: after step `step` (0: before the first).
    struct Keyframe {
        int64_t step = 0;
        std::vector<uint8_t> state;
    };

    /// What initial and the keyframes hold: "world" or "scene" (1 to 32
    /// characters, letters, digits and '-').
    std::string kind = "world";
    std::vector<uint8_t> initial;
    int32_t keyframeInterval = 60;    ///< steps between keyframes, >= 1
    std::vector<Frame> frames;        ///< frames[k] is step k + 1
    std::vector<Keyframe> keyframes;  ///< by increasing step, each within [0, frames.size()]

    /// The keyframe to start from to reach step `step`: the last one at or
    /// before it, or null when there is none (start from initial).
    const Keyframe* keyframeBefore(int64_t step) const;

    /// The byte form: magic "CAROMREC", u32 format version, u32 0, u64
    /// payload size, u64 checksum of the payload, then the payload. Throws
    /// carom::Error when the recording breaks a rule above (field named).
    std::vector<uint8_t> bytes() const;
    /// The recording written by bytes(). Throws carom::Error
    /// (InvalidArgument, field "bytes") for a buffer that is truncated, too
    /// long, of another format version, whose checksum does not match, or
    /// whose contents break a rule above; it never reads outside the buffer.
    static Recording fromBytes(std::span<const uint8_t> bytes);
};

/// The byte format version Recording::bytes writes and fromBytes reads.
inline constexpr uint32_t kRecordingFormatVersion = 1;

/// Records a World's run with "world" snapshots: the initial one when made,
/// then a frame per frame() call and a keyframe every interval steps.
class Recorder {
   public:
    /// Snapshots world now as the recording's start. interval >= 1.
    Recorder(const World& world, int32_t keyframeInterval = 60);
    /// Call after each step with what the game did before it.
    void frame(const World& world, std::span<const uint8_t> input = {});
    const Recording& recording() const { return recording_; }

   private:
    Recording recording_;
};

/// Where two worlds first differ, body by body in creation order (the
/// worlds of a recording and of its replay at the same step): the first body
/// whose type, pose, velocities or awake flag differ in any bit, or that
/// only one world has.
struct BodyDifference {
    bool found = false;
    int index = -1;  ///< position in World::bodies()
    BodyId recorded{}, replayed{};
    std::string what;  ///< "position (1, 2) against (1, 2.0000002)", ...
};
BodyDifference firstBodyDifference(const World& recorded, const World& replayed);

}  // namespace carom
