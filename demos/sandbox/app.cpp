#include "app.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

namespace carom::sandbox {

App::App(Options options) : opts_(std::move(options)) {
    controls_.playing = !opts_.paused;
    controls_.showUi = opts_.showUi;
    controls_.draw = opts_.draw;
    sim_.setBroadphase(opts_.broadphase);
    sim_.setThreads(opts_.threads);
    if (!opts_.script.empty()) script_ = Script::load(opts_.script);
}

App::~App() {
    shutdown();
}

namespace {

bool envSet(const char* name) {
    const char* v = SDL_getenv(name);
    return v != nullptr && v[0] != '\0';
}

// Whether a window could be seen. Without one SDL would quietly fall back to
// its invisible "offscreen" driver and the sandbox would run unseen, so on
// X11 / Wayland systems with neither display variable set, and whenever SDL
// picked a display-less driver the user did not ask for, the sandbox
// renders headless instead.
bool displayLikely() {
#if defined(__linux__) || defined(__FreeBSD__)
    if (!envSet("SDL_VIDEODRIVER") && !envSet("DISPLAY") && !envSet("WAYLAND_DISPLAY"))
        return false;
#endif
    return true;
}

}  // namespace

bool App::initWindow() {
    if (!displayLikely()) return false;
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER) != 0) {
        std::fprintf(stderr, "carom-sandbox: cannot open a window: %s\n", SDL_GetError());
        return false;
    }
    sdlInit_ = true;
    const char* driver = SDL_GetCurrentVideoDriver();
    if (!envSet("SDL_VIDEODRIVER") && driver != nullptr &&
        (std::strcmp(driver, "offscreen") == 0 || std::strcmp(driver, "dummy") == 0)) {
        return false;
    }
    window_ = SDL_CreateWindow("Carom sandbox", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                               opts_.width, opts_.height, SDL_WINDOW_RESIZABLE);
    if (window_ == nullptr) {
        std::fprintf(stderr, "carom-sandbox: error: cannot create the window: %s\n",
                     SDL_GetError());
        return false;
    }
    renderer_ =
        SDL_CreateRenderer(window_, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (renderer_ == nullptr) renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_SOFTWARE);
    if (renderer_ == nullptr) {
        std::fprintf(stderr, "carom-sandbox: error: cannot create a renderer: %s\n",
                     SDL_GetError());
        return false;
    }
    initImGui();
    ImGui_ImplSDL2_InitForSDLRenderer(window_);
    imguiPlatform_ = true;
    return imgui_.init(renderer_);
}

bool App::initHeadless() {
    // No video subsystem at all: the software renderer draws into a surface.
    if (SDL_Init(0) != 0) return false;
    sdlInit_ = true;
    surface_ =
        SDL_CreateRGBSurfaceWithFormat(0, opts_.width, opts_.height, 32, SDL_PIXELFORMAT_RGBA32);
    if (surface_ == nullptr) {
        std::fprintf(stderr, "carom-sandbox: error: cannot create the image: %s\n", SDL_GetError());
        return false;
    }
    renderer_ = SDL_CreateSoftwareRenderer(surface_);
    if (renderer_ == nullptr) {
        std::fprintf(stderr, "carom-sandbox: error: cannot create the software renderer: %s\n",
                     SDL_GetError());
        return false;
    }
    initImGui();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(opts_.width), static_cast<float>(opts_.height));
    return imgui_.init(renderer_);
}

void App::initImGui() {
    ImGui::CreateContext();
    imguiContext_ = true;
    ImGuiIO& io = ImGui::GetIO();
    // No imgui.ini in whatever folder the sandbox was started from: every
    // run starts with the same layout (and tests leave no files behind).
    io.IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 4.0f;
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 0.88f;
    panels_ = std::make_unique<Panels>();
}

void App::shutdown() {
    if (imguiContext_) {
        imgui_.shutdown();
        if (imguiPlatform_) ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
        imguiContext_ = false;
        imguiPlatform_ = false;
    }
    draw_.reset();
    if (renderer_ != nullptr) SDL_DestroyRenderer(renderer_);
    if (surface_ != nullptr) SDL_FreeSurface(surface_);
    if (window_ != nullptr) SDL_DestroyWindow(window_);
    renderer_ = nullptr;
    surface_ = nullptr;
    window_ = nullptr;
    if (sdlInit_) SDL_Quit();
    sdlInit_ = false;
}

void App::reportError() {
    if (!sim_.error().empty() && sim_.error() != lastReported_)
        std::fprintf(stderr, "carom-sandbox: %s\n", sim_.error().c_str());
    lastReported_ = sim_.error();
}

int App::run() {
    bool ready = opts_.headless ? initHeadless() : initWindow();
    if (!ready && !opts_.headless) {
        // No display (a server, a container): still show the scene, as a
        // picture, and say where it is.
        shutdown();
        opts_.headless = true;
        if (opts_.screenshot.empty()) opts_.screenshot = "carom-sandbox.png";
        std::fprintf(stderr, "carom-sandbox: no display; rendering headless into %s instead\n",
                     opts_.screenshot.c_str());
        ready = initHeadless();
    }
    if (!ready) return 1;
    draw_ = std::make_unique<SdlDebugDraw>(renderer_);
    camera_.setViewport(opts_.width, opts_.height);

    std::string path = opts_.scene;
    if (path.empty()) {
        path = defaultScenePath().string();
        if (path.empty()) {
            sim_.setError("no default scene found (looked for demos/scenes/default.json)");
        }
    }
    if (!opts_.replay.empty()) {
        // The recording brings its own scene.
        try {
            tape_.openReplay(opts_.replay, sim_);
            path = opts_.replay;
        } catch (const std::exception& e) {
            sim_.setError(opts_.replay + ": " + e.what());
        }
    } else if (!path.empty()) {
        sim_.open(path);
    }
    if (!opts_.record.empty() && sim_.loaded()) tape_.startRecording(sim_.runner(), opts_.record);
    panels_->setPath(path);
    reportError();
    if (!sim_.loaded() && opts_.headless) return 2;  // a bad scene file is bad input
    resetCamera();
    seenGeneration_ = sim_.generation();

    // How long to run: frames, or seconds (simulated headless, wall clock in a window).
    int lastFrame = opts_.frames;
    if (opts_.headless && lastFrame < 0) {
        lastFrame = opts_.seconds >= 0.0 && sim_.loaded()
                        ? static_cast<int>(sim_.runner().stepsFor(opts_.seconds))
                        : 60;
    }
    const Uint64 freq = SDL_GetPerformanceFrequency();
    const Uint64 start = SDL_GetPerformanceCounter();
    Uint64 last = start;
    float frameMs = 0.0f;

    for (int frame = 0;; ++frame) {
        Uint64 now = SDL_GetPerformanceCounter();
        double real = static_cast<double>(now - last) / static_cast<double>(freq);
        last = now;
        if (!opts_.headless) pollEvents();
        scriptEvents(frame);
        actOnRequests();
        // A quit still draws its frame: the exit screenshot shows where it stopped.
        bool quit = controls_.requestQuit;
        if (frame > 0 && !quit) advance(real);
        // Headless pictures of frame 0 should show the panels too.
        if (frame == 0 && opts_.headless) render(frameMs, true);
        render(frameMs);
        if (quit || frame == lastFrame ||
            (!opts_.headless && opts_.seconds >= 0.0 &&
             static_cast<double>(now - start) / static_cast<double>(freq) >= opts_.seconds)) {
            break;
        }
        SDL_RenderPresent(renderer_);
        frameMs =
            static_cast<float>(1000.0 * static_cast<double>(SDL_GetPerformanceCounter() - now) /
                               static_cast<double>(freq));
        // Without vsync (a software renderer, Xvfb) cap the loop near 60 Hz.
        if (!opts_.headless && frameMs < 15.0f) SDL_Delay(static_cast<Uint32>(16.0f - frameMs));
    }
    if (!opts_.screenshot.empty()) writePng(opts_.screenshot);
    if (tape_.recording()) {
        const std::string done = tape_.stopRecording(sim_.runner());
        std::fprintf(stderr, "carom-sandbox: %s\n", done.c_str());
        if (done.rfind("wrote ", 0) != 0) failed_ = true;
    }
    return failed_ ? 1 : 0;
}

void App::pollEvents() {
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (imguiPlatform_) ImGui_ImplSDL2_ProcessEvent(&e);
        dispatch(e, false);
    }
}

void App::scriptEvents(int frame) {
    for (const ScriptEvent& s : script_.eventsAt(frame)) {
        SDL_Event e{};
        Vec2 p = s.world ? camera_.worldToScreen(s.pos) : s.pos;
        switch (s.kind) {
            case ScriptEvent::Kind::Move:
                e.type = SDL_MOUSEMOTION;
                e.motion.x = static_cast<Sint32>(p.x);
                e.motion.y = static_cast<Sint32>(p.y);
                break;
            case ScriptEvent::Kind::Down:
            case ScriptEvent::Kind::Up: {
                Vec2 m = tools_.mouseScreen();
                e.type =
                    s.kind == ScriptEvent::Kind::Down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
                e.button.button = static_cast<Uint8>(s.button);
                e.button.x = static_cast<Sint32>(m.x);
                e.button.y = static_cast<Sint32>(m.y);
                break;
            }
            case ScriptEvent::Kind::Wheel:
                e.type = SDL_MOUSEWHEEL;
                e.wheel.y = static_cast<Sint32>(s.wheel);
                break;
            case ScriptEvent::Kind::Key:
            case ScriptEvent::Kind::Press:
            case ScriptEvent::Kind::Release:
                e.type = s.kind == ScriptEvent::Kind::Release ? SDL_KEYUP : SDL_KEYDOWN;
                e.key.keysym.sym = SDL_GetKeyFromName(s.text.c_str());
                if (s.kind == ScriptEvent::Kind::Key) {
                    // A tap: pressed and released within the frame.
                    dispatch(e, true);
                    e.type = SDL_KEYUP;
                }
                break;
            case ScriptEvent::Kind::Screenshot:
                controls_.requestScreenshot = s.text;
                continue;
            case ScriptEvent::Kind::Quit:
                controls_.requestQuit = true;
                continue;
        }
        dispatch(e, true);
    }
}

void App::dispatch(const SDL_Event& e, bool fromScript) {
    if (e.type == SDL_QUIT) {
        controls_.requestQuit = true;
        return;
    }
    // Real input that a panel wants stays with the panel; scripted input
    // always goes to the world (ImGui does not see it).
    const ImGuiIO& io = ImGui::GetIO();
    bool mouse = e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEWHEEL;
    bool key = e.type == SDL_KEYDOWN;
    if (!fromScript && ((mouse && io.WantCaptureMouse) || (key && io.WantCaptureKeyboard))) return;
    if (key && e.key.repeat != 0 && sim_.loaded() && !sim_.runner().characters().empty()) {
        switch (e.key.keysym.sym) {
            case SDLK_LEFT:
            case SDLK_RIGHT:
            case SDLK_UP:
            case SDLK_a:
            case SDLK_d:
            case SDLK_w:
            case SDLK_SPACE:
                return;
            default:
                break;
        }
    }
    if (key && e.key.repeat != 0) {
        // Held keys repeat only for stepping, panning and zooming, not toggles.
        switch (e.key.keysym.sym) {
            case SDLK_s:
            case SDLK_PERIOD:
            case SDLK_LEFT:
            case SDLK_RIGHT:
            case SDLK_UP:
            case SDLK_DOWN:
            case SDLK_EQUALS:
            case SDLK_PLUS:
            case SDLK_MINUS:
            case SDLK_KP_PLUS:
            case SDLK_KP_MINUS:
                break;
            default:
                return;
        }
    }
    try {
        // A replay's world is the recording's: the tools only move the view,
        // and the character keys are the recording's.
        const bool replaying = tape_.replaying();
        controls_.characterKeys =
            !replaying && sim_.loaded() && !sim_.runner().characters().empty();
        // What the tools did to the world travels with the next recorded
        // step as an edit.
        if (tools_.handleEvent(e, sim_.loaded() && !replaying ? &sim_.world() : nullptr, camera_,
                               controls_))
            tape_.edited();
    } catch (const std::exception& ex) {
        sim_.setError(ex.what());
        reportError();
    }
}

}  // namespace carom::sandbox
