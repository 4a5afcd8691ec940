// The sandbox's ImGui panels: one column with the scene controls, the draw
// layers and the scene browser, and the help overlay with the keyboard
// shortcuts. (The profiler is ui_profiler.hpp.)
//
// Panels never change the simulation directly except for immediate,
// harmless edits (gravity); everything else becomes a request in Controls
// that the frame loop carries out, the same way as a keyboard shortcut.
#pragma once

#include <array>
#include <filesystem>
#include <vector>

#include "camera.hpp"
#include "controls.hpp"
#include "scene_files.hpp"
#include "simulation.hpp"

namespace carom::sandbox {

class Panels {
   public:
    Panels();
    void draw(Simulation& sim, Controls& c, const Camera& camera);
    /// Puts a path into the "open file" box (the current scene's, usually).
    void setPath(const std::string& path);
    /// The x pixel where the control panel ends, 0 when it is collapsed: the
    /// left inset of a fit. Before the first frame, where it will be.
    float coveredRight(float displayWidth) const;

   private:
    void controlPanel(Simulation& sim, Controls& c, const Camera& camera);
    void browser(const Simulation& sim, Controls& c);
    void recordingPanel(Controls& c);
    void rescan();

    std::vector<SceneFolder> folders_;
    std::vector<std::vector<std::filesystem::path>> files_;
    double lastScan_ = -100.0;
    std::array<char, 1024> path_{};
    std::array<char, 1024> recordPath_{};
    int substeps_ = 4;
    int broadphase_ = 0;       ///< 0 tree, 1 sort-and-sweep
    bool exactJoints_ = true;  ///< joint trees solved exactly
    bool sleep_ = true;        ///< the world's sleep switch (reset with each new world)
    bool continuous_ = true;   ///< the world's continuous-collision switch
    uint64_t seenGeneration_ = ~0ull;
    float coveredRight_ = -1.0f;  ///< the last frame's, -1 before the first
};

/// The control panel's width in a window displayWidth pixels wide: narrower
/// in small windows, so that the scene keeps most of the view.
float panelWidth(float displayWidth);
/// Gap between a panel and the window's edge, pixels.
inline constexpr float kPanelGap = 10.0f;

/// The help overlay listing every shortcut.
void drawHelp(bool* open);

}  // namespace carom::sandbox
