// The profiler panel: milliseconds per step stage over the last seconds,
// and the world's object counts.
//
// Each stage keeps a ring buffer of its last kHistory samples (one per world
// step, so about five seconds at 60 Hz); ImGui::PlotLines draws a ring buffer
// directly when given the index of the oldest sample as values_offset.
#pragma once

#include <array>

#include <carom/world.hpp>

namespace carom::sandbox {

class ProfilerPanel {
   public:
    static constexpr int kHistory = 300;
    enum Stage { Step, Pairs, Collide, Continuous, Solve, Finalize, StageCount };

    /// Records the profile of one world step.
    void record(const Profile& p);
    void clear();
    /// Draws the panel (no-op when the window is collapsed or closed).
    void draw(bool* open, const Counters& counters, float frameMs);
    /// Pixels the panel covers along the window's right edge, 0 when it is
    /// collapsed or closed: the right inset of a fit. Before the first frame,
    /// what it will cover.
    float coveredWidth(float displayWidth) const;

    /// Mean of the recorded samples of a stage, milliseconds (0 when empty).
    float mean(Stage s) const;

   private:
    std::array<std::array<float, kHistory>, StageCount> samples_{};
    int next_ = 0;                ///< where the next sample goes
    int count_ = 0;               ///< samples recorded, up to kHistory
    float coveredWidth_ = -1.0f;  ///< the last frame's, -1 before the first
};

}  // namespace carom::sandbox
