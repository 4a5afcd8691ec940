#include "ui.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <imgui.h>

namespace carom::sandbox {

namespace {

const long long kZeroSteps = 0;  ///< the step slider's lower end

const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);

struct Shortcut {
    const char* keys;
    const char* action;
};

constexpr Shortcut kShortcuts[] = {
    {"Space", "play / pause"},
    {"S or .", "single step (pauses)"},
    {"R", "restart the scene"},
    {"L", "reload the scene file"},
    {"F", "fit the view to the scene"},
    {"left drag", "drag a body (mouse joint); on empty space: pan"},
    {"right / middle drag", "pan"},
    {"wheel, + / -", "zoom (at the cursor with the wheel)"},
    {"arrows", "pan"},
    {"1 / 2 / 3", "spawn a box / circle / capsule at the cursor"},
    {"B", "fire a bullet at the cursor"},
    {"A", "bounding boxes"},
    {"T", "broadphase structure"},
    {"C", "contact points and normals"},
    {"V", "contact impulses"},
    {"I", "islands (sleeping in grey)"},
    {"M", "centres of mass"},
    {"K", "continuous-collision sweeps"},
    {"J", "joints"},
    {"P", "profiler panel"},
    {"Tab", "hide / show the panels"},
    {"H or F1", "this help"},
    {"Q or Esc", "quit"},
    {"with a character:", "(a scene with a `character` body)"},
    {"Left / Right, A / D", "run"},
    {"Space, Up, W", "jump (pause with the panel's button)"},
};

}  // namespace

Panels::Panels() {
    folders_ = sceneFolders();
}

void Panels::setPath(const std::string& path) {
    std::snprintf(path_.data(), path_.size(), "%s", path.c_str());
}

void Panels::rescan() {
    files_.clear();
    for (const SceneFolder& f : folders_) files_.push_back(listScenes(f.path));
}

void Panels::draw(Simulation& sim, Controls& c, const Camera& camera) {
    if (sim.generation() != seenGeneration_) {
        seenGeneration_ = sim.generation();
        substeps_ = sim.substeps();
        broadphase_ = sim.broadphase() == BroadphaseType::SortAndSweep ? 1 : 0;
        exactJoints_ = sim.exactJoints();
        if (sim.loaded()) {
            sleep_ = sim.world().def().enableSleep;
            continuous_ = sim.world().def().enableContinuous;
        }
    }
    controlPanel(sim, c, camera);
}

float panelWidth(float displayWidth) {
    return std::clamp(0.25f * displayWidth, 270.0f, 300.0f);
}

float Panels::coveredRight(float displayWidth) const {
    return coveredRight_ >= 0.0f ? coveredRight_ : kPanelGap + panelWidth(displayWidth);
}

// Recording and replay (tape.hpp): record the session to a file, or, with
// a recording open, scrub through it with the step slider.
void Panels::recordingPanel(Controls& c) {
    const ImGuiTreeNodeFlags open = c.tapeRecording || c.tapeReplaying
                                        ? ImGuiTreeNodeFlags_DefaultOpen
                                        : ImGuiTreeNodeFlags_None;
    if (!ImGui::CollapsingHeader("Recording", open)) return;
    if (c.tapeReplaying) {
        long long step = c.tapeStep;
        const long long last = c.tapeLength;
        ImGui::SetNextItemWidth(-1.0f);
        if (ImGui::SliderScalar("##step", ImGuiDataType_S64, &step, &kZeroSteps, &last,
                                "step %lld")) {
            c.requestSeek = step;
            c.playing = false;
        }
        if (ImGui::Button("<") && step > 0) {
            c.requestSeek = step - 1;
            c.playing = false;
        }
        ImGui::SameLine();
        if (ImGui::Button(">")) {
            c.playing = false;
            c.stepOnce = true;
        }
        ImGui::SameLine();
        if (ImGui::Button("Leave replay")) c.requestLeaveReplay = true;
        if (c.tapeMismatch > 0) {
            ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
            ImGui::Text("differs from the recording from step %lld",
                        static_cast<long long>(c.tapeMismatch));
            ImGui::PopStyleColor();
        } else {
            ImGui::TextDisabled("every step so far matches the recording");
        }
        return;
    }
    if (!c.tapeRecording) {
        std::snprintf(recordPath_.data(), recordPath_.size(), "%s", c.recordPath.c_str());
        ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Record").x -
                                3.0f * ImGui::GetStyle().ItemSpacing.x);
        if (ImGui::InputText("##file", recordPath_.data(), recordPath_.size()))
            c.recordPath = recordPath_.data();
        ImGui::SameLine();
        if (ImGui::Button("Record")) c.requestRecord = true;
    } else {
        ImGui::Text("recording: %lld steps", static_cast<long long>(c.tapeStep));
        ImGui::SameLine();
        if (ImGui::Button("Stop and save")) c.requestRecord = true;
    }
    if (!c.tapeMessage.empty()) ImGui::TextDisabled("%s", c.tapeMessage.c_str());
}

void Panels::controlPanel(Simulation& sim, Controls& c, const Camera& camera) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(kPanelGap, kPanelGap), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(
        ImVec2(panelWidth(display.x), std::min(display.y - 2.0f * kPanelGap, 700.0f)),
        ImGuiCond_FirstUseEver);
    const bool expanded = ImGui::Begin("Carom sandbox");
    coveredRight_ = expanded ? ImGui::GetWindowPos().x + ImGui::GetWindowSize().x : 0.0f;
    if (!expanded) {
        ImGui::End();
        return;
    }
    // The second column of the two-column rows of checkboxes.
    const float column = 0.5f * ImGui::GetWindowContentRegionMax().x + 4.0f;
    // Controls leave room for their labels on the right, whatever the
    // panel's width.
    ImGui::PushItemWidth(-ImGui::CalcTextSize("time scale").x -
                         ImGui::GetStyle().ItemInnerSpacing.x);
    if (sim.loaded()) {
        ImGui::TextUnformatted(sim.desc().name.c_str());
        if (!sim.desc().description.empty()) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("%s", sim.desc().description.c_str());
            ImGui::PopTextWrapPos();
        }
        ImGui::Text("t = %.2f s   step %lld", sim.time(), static_cast<long long>(sim.steps()));
    } else {
        ImGui::TextDisabled("no scene loaded");
    }
    if (!sim.error().empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(sim.error().c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
        if (ImGui::SmallButton("dismiss")) sim.setError({});
    }
    ImGui::Separator();

    if (ImGui::Button(c.playing ? "Pause" : "Play", ImVec2(60.0f, 0.0f))) c.playing = !c.playing;
    ImGui::SameLine();
    if (ImGui::Button("Step")) {
        c.playing = false;
        c.stepOnce = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Restart")) c.requestRestart = true;
    ImGui::SameLine();
    if (ImGui::Button("Fit")) c.requestFit = true;
    ImGui::SameLine();
    if (ImGui::Button("?")) c.showHelp = !c.showHelp;
    ImGui::SliderFloat("time scale", &c.timeScale, 0.05f, 4.0f, "%.2fx",
                       ImGuiSliderFlags_Logarithmic);

    if (sim.loaded()) {
        Vec2 g = sim.world().gravity();
        float gv[2] = {g.x, g.y};
        if (ImGui::DragFloat2("gravity", gv, 0.1f, -100.0f, 100.0f, "%.1f"))
            sim.world().setGravity({gv[0], gv[1]});
    }
    if (sim.loaded()) {
        if (ImGui::Checkbox("sleep", &sleep_)) sim.world().enableSleep(sleep_);
        ImGui::SameLine(column);
        if (ImGui::Checkbox("continuous", &continuous_)) sim.world().enableContinuous(continuous_);
    }
    if (sim.loaded()) {
        // Stiffer contacts sink less under a load (n·g/ω² per contact), but
        // the solver caps them at a quarter of the substep rate: the slider
        // shows the cap, so a user sees that a stiffer tower needs substeps
        // too (docs/stability.md, "Stiffness bought with substeps").
        World& w = sim.world();
        float hz = w.contactHertz();
        if (ImGui::SliderFloat("contact Hz", &hz, 5.0f, 480.0f, "%.0f",
                               ImGuiSliderFlags_Logarithmic)) {
            w.setContactTuning(hz, w.contactDampingRatio(), w.contactPushMaxSpeed());
        }
        const float cap = 0.25f * float(sim.substeps()) / sim.runner().timestep();
        if (hz > cap)
            ImGui::TextDisabled("(capped at %.0f Hz by %d substeps)", cap, sim.substeps());
    }
    ImGui::SliderInt("substeps", &substeps_, 1, 32);
    const char* broadphases[] = {"dynamic tree", "sort and sweep"};
    ImGui::Combo("broadphase", &broadphase_, broadphases, 2);
    // Fixed when a World is built, like the two above: a light chain under a
    // heavy load holds with it and falls through without (docs/solver.md,
    // "Joint trees solved exactly").
    ImGui::Checkbox("exact joint trees", &exactJoints_);
    BroadphaseType bp = broadphase_ == 1 ? BroadphaseType::SortAndSweep : BroadphaseType::Tree;
    bool changed =
        substeps_ != sim.substeps() || bp != sim.broadphase() || exactJoints_ != sim.exactJoints();
    ImGui::BeginDisabled(!changed);
    if (ImGui::Button("Apply settings")) {
        c.requestApply = true;
        c.applyBroadphase = bp;
        c.applySubsteps = substeps_;
        c.applyExactJoints = exactJoints_;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled("(keeps the state)");

    ImGui::Separator();
    ImGui::TextUnformatted("Left click:");
    int tool = static_cast<int>(c.tool);
    ImGui::RadioButton("drag", &tool, static_cast<int>(Tool::Drag));
    ImGui::SameLine();
    ImGui::RadioButton("box", &tool, static_cast<int>(Tool::SpawnBox));
    ImGui::SameLine();
    ImGui::RadioButton("circle", &tool, static_cast<int>(Tool::SpawnCircle));
    ImGui::RadioButton("capsule", &tool, static_cast<int>(Tool::SpawnCapsule));
    ImGui::SameLine();
    ImGui::RadioButton("bullet", &tool, static_cast<int>(Tool::Bullet));
    c.tool = static_cast<Tool>(tool);

    recordingPanel(c);

    if (ImGui::CollapsingHeader("Draw", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::Checkbox("shapes", &c.draw.shapes);
        ImGui::SameLine(column);
        ImGui::Checkbox("joints", &c.draw.joints);
        ImGui::Checkbox("contact points", &c.draw.contactPoints);
        ImGui::SameLine(column);
        ImGui::Checkbox("normals", &c.draw.contactNormals);
        ImGui::Checkbox("impulses", &c.draw.contactImpulses);
        ImGui::SameLine(column);
        ImGui::Checkbox("AABBs", &c.draw.aabbs);
        ImGui::Checkbox("broadphase", &c.draw.broadphase);
        ImGui::SameLine(column);
        ImGui::Checkbox("islands", &c.draw.islands);
        ImGui::Checkbox("centres of mass", &c.draw.centersOfMass);
        ImGui::SameLine(column);
        ImGui::Checkbox("continuous", &c.draw.continuous);
    }
    ImGui::Checkbox("profiler", &c.showProfiler);
    ImGui::SameLine(column);
    ImGui::Checkbox("reload on change", &c.watchFile);
    ImGui::TextDisabled("view %.1f m at (%.1f, %.1f)", static_cast<double>(camera.viewHeight()),
                        static_cast<double>(camera.center().x),
                        static_cast<double>(camera.center().y));
    browser(sim, c);
    ImGui::PopItemWidth();
    ImGui::End();
}

void Panels::browser(const Simulation& sim, Controls& c) {
    double now = ImGui::GetTime();
    if (now - lastScan_ > 2.0) {
        rescan();
        lastScan_ = now;
    }
    // Open by default when the window is tall enough to show it without scrolling.
    ImGuiTreeNodeFlags open =
        ImGui::GetIO().DisplaySize.y >= 720.0f ? ImGuiTreeNodeFlags_DefaultOpen : 0;
    if (!ImGui::CollapsingHeader("Scenes", open)) return;
    // The path on a line of its own, as wide as the panel, so that it is
    // not cut short by the button.
    ImGui::SetNextItemWidth(-1.0f);
    bool enter = ImGui::InputText("##path", path_.data(), path_.size(),
                                  ImGuiInputTextFlags_EnterReturnsTrue);
    if ((ImGui::Button("Open") || enter) && path_[0] != '\0') c.requestOpen = path_.data();
    for (size_t f = 0; f < folders_.size() && f < files_.size(); ++f) {
        if (!ImGui::TreeNodeEx(folders_[f].label.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) continue;
        if (files_[f].empty()) ImGui::TextDisabled("(no .json files)");
        for (const std::filesystem::path& p : files_[f]) {
            std::error_code ec;
            bool current = std::filesystem::equivalent(p, sim.path(), ec);
            if (ImGui::Selectable(p.filename().string().c_str(), current)) {
                c.requestOpen = p.string();
                setPath(p.string());
            }
        }
        ImGui::TreePop();
    }
    if (folders_.empty()) ImGui::TextDisabled("(no scene folders found)");
}

void drawHelp(bool* open) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0.5f * display.x, 0.5f * display.y), ImGuiCond_Always,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.92f);
    if (!ImGui::Begin("Keyboard and mouse", open,
                      ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        for (const Shortcut& s : kShortcuts) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(s.keys);
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(s.action);
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("The scene file is reloaded when it changes on disk.");
    ImGui::End();
}

}  // namespace carom::sandbox
