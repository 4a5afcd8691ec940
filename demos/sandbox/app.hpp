// The sandbox application: owns SDL, ImGui and the scene, and runs the
// frame loop in a window or headless.
//
// One frame, in a window or not:
//
//     events    SDL events (window) and input-script events for this frame
//               go to ImGui and then, unless a panel wants them, to the tools
//     requests  open / reload / restart / fit / quit asked for by the above
//     advance   (from frame 1 on) step the scene by the elapsed time times
//               the time scale, in whole fixed steps; headless, a frame is
//               exactly one timestep, so frame N shows the state after N steps
//     render    clear, World::draw through SdlDebugDraw, the panels, then
//               screenshots asked for this frame; present
//
// Headless mode renders into an SDL_Surface with SDL's software renderer:
// no display, no video driver, the same drawing code.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <SDL.h>

#include "camera.hpp"
#include "controls.hpp"
#include "draw_sdl.hpp"
#include "options.hpp"
#include "render_imgui.hpp"
#include "script.hpp"
#include "simulation.hpp"
#include "tape.hpp"
#include "tools.hpp"
#include "ui.hpp"
#include "ui_profiler.hpp"

namespace carom::sandbox {

class App {
   public:
    explicit App(Options options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    /// Runs until quit; returns the exit status (0, 1, or 2 for a bad scene headless).
    int run();

   private:
    bool initWindow();
    bool initHeadless();
    void initImGui();
    void shutdown();

    void pollEvents();
    void scriptEvents(int frame);
    void dispatch(const SDL_Event& e, bool fromScript);
    void actOnRequests();
    void advance(double realSeconds);
    /// Draws a frame. A warm-up frame only lets ImGui lay out its windows
    /// (it hides new windows on their first frame) and writes no screenshot.
    void render(float frameMs, bool warmUp = false);
    void writePng(const std::string& path);
    /// What the panels cover of the window's sides, for fits.
    ScreenInsets viewInsets() const;
    void resetCamera();
    void fitView();
    void reportError();
    void drawGrid();
    void drawImpulseLabels();

    Options opts_;
    SDL_Window* window_ = nullptr;
    SDL_Renderer* renderer_ = nullptr;
    SDL_Surface* surface_ = nullptr;  ///< headless render target
    bool sdlInit_ = false;
    bool imguiContext_ = false;
    bool imguiPlatform_ = false;  ///< ImGui's SDL2 backend is running (window mode)

    Camera camera_;
    std::unique_ptr<SdlDebugDraw> draw_;
    ImGuiSdlRenderer imgui_;
    Simulation sim_;
    Controls controls_;
    Tools tools_;
    std::unique_ptr<Panels> panels_;
    ProfilerPanel profiler_;
    Script script_;
    Tape tape_;

    double accumulator_ = 0.0;  ///< simulated seconds owed to the world
    uint64_t seenGeneration_ = 0;
    std::string lastReported_;
    bool failed_ = false;  ///< a screenshot could not be written
};

}  // namespace carom::sandbox
