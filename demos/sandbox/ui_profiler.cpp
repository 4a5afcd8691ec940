#include "ui_profiler.hpp"

#include <algorithm>
#include <cstdio>

#include <imgui.h>

namespace carom::sandbox {

namespace {
constexpr const char* kStageNames[] = {"step",       "broadphase", "narrowphase",
                                       "continuous", "solver",     "finalize"};
}

void ProfilerPanel::record(const Profile& p) {
    const float values[StageCount] = {p.step,       p.pairs, p.collide,
                                      p.continuous, p.solve, p.finalize};
    for (int s = 0; s < StageCount; ++s) samples_[s][next_] = values[s];
    next_ = (next_ + 1) % kHistory;
    count_ = std::min(count_ + 1, kHistory);
}

void ProfilerPanel::clear() {
    next_ = 0;
    count_ = 0;
}

float ProfilerPanel::mean(Stage s) const {
    if (count_ == 0) return 0.0f;
    float sum = 0.0f;
    for (int i = 0; i < count_; ++i) sum += samples_[s][i];
    return sum / static_cast<float>(count_);
}

namespace {
constexpr float kWidth = 300.0f;
constexpr float kGap = 10.0f;
// Below this window width the panel starts collapsed: open, it would take
// most of what the control panel leaves of the view.
constexpr float kCollapsedBelow = 1100.0f;
}  // namespace

float ProfilerPanel::coveredWidth(float displayWidth) const {
    if (coveredWidth_ >= 0.0f) return coveredWidth_;
    return displayWidth < kCollapsedBelow ? 0.0f : kWidth + kGap;
}

void ProfilerPanel::draw(bool* open, const Counters& c, float frameMs) {
    const float display = ImGui::GetIO().DisplaySize.x;
    ImGui::SetNextWindowPos(ImVec2(display - kWidth - kGap, kGap), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(kWidth, 0.0f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowCollapsed(display < kCollapsedBelow, ImGuiCond_FirstUseEver);
    const bool expanded = ImGui::Begin("Profiler", open);
    coveredWidth_ = expanded && *open ? display - ImGui::GetWindowPos().x : 0.0f;
    if (!expanded) {
        ImGui::End();
        return;
    }
    ImGui::Text("frame %.2f ms   bodies %d   awake %d", static_cast<double>(frameMs), c.bodies,
                c.awakeBodies);
    ImGui::Text("contacts %d (touching %d)   joints %d", c.contacts, c.touchingContacts, c.joints);
    ImGui::Text("islands %d (awake %d)   tree height %d", c.islands, c.awakeIslands,
                c.broadphaseHeight);
    ImGui::Separator();
    // Oldest sample first: when the buffer is full that is next_, else 0.
    int offset = count_ == kHistory ? next_ : 0;
    // PlotLines in ImGui 1.86 takes no negative "fill the width" size.
    float width = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
    for (int s = 0; s < StageCount; ++s) {
        float hi = 0.0f;
        for (int i = 0; i < count_; ++i) hi = std::max(hi, samples_[s][i]);
        int last = (next_ + kHistory - 1) % kHistory;
        // The figures on their own line above the plot, so that the plot's
        // spikes never cross them; the plot's scale leaves room at the top.
        ImGui::Text("%s  %.3f ms  (mean %.3f)", kStageNames[s],
                    static_cast<double>(count_ > 0 ? samples_[s][last] : 0.0f),
                    static_cast<double>(mean(static_cast<Stage>(s))));
        ImGui::PushID(s);
        ImGui::PlotLines("##plot", samples_[s].data(), count_, offset, nullptr, 0.0f,
                         std::max(hi * 1.1f, 0.01f), ImVec2(width, 28.0f));
        ImGui::PopID();
    }
    ImGui::End();
}

}  // namespace carom::sandbox
