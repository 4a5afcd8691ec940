// The per-frame half of App: carrying out requests, stepping, drawing.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <vector>

#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include "app.hpp"
#include "png.hpp"

namespace carom::sandbox {

namespace {
// At most this many world steps per frame: when the machine cannot keep up,
// the simulation slows down instead of spiralling (each late frame owing
// more steps, which makes the next frame later still).
constexpr int kMaxStepsPerFrame = 8;
constexpr uint32_t kGridColor = 0x3a3d46;
constexpr uint32_t kAxisColor = 0x5a5f6e;
}  // namespace

ScreenInsets App::viewInsets() const {
    if (!controls_.showUi) return {};
    const float width = static_cast<float>(camera_.width());
    return {panels_->coveredRight(width),
            controls_.showProfiler ? profiler_.coveredWidth(width) : 0.0f};
}

void App::resetCamera() {
    if (!sim_.loaded()) return;
    // The scene's view, as its author framed it for the whole window, shown
    // in the part the panels leave free.
    scene::View v = sim_.runner().view();
    const ScreenInsets insets = viewInsets();
    if (insets.left <= 0.0f && insets.right <= 0.0f) {
        camera_.set(v.center, v.height);
        return;
    }
    const float aspect = static_cast<float>(camera_.width()) / static_cast<float>(camera_.height());
    const Vec2 half{0.5f * v.height * aspect, 0.5f * v.height};
    camera_.fit({v.center - half, v.center + half}, 0.0f, insets);
}

void App::fitView() {
    // The bounds of every shape, fitted to this window's aspect ratio.
    World& world = sim_.world();
    bool any = false;
    AABB box{};
    for (BodyId b : world.bodies()) {
        for (ShapeId s : world.shapes(b)) {
            AABB a = world.shapeAABB(s);
            box = any ? aabbUnion(box, a) : a;
            any = true;
        }
    }
    if (any) camera_.fit(box, 0.05f, viewInsets());
}

void App::actOnRequests() {
    Controls& c = controls_;
    // Restarting or opening leaves a replay; a recording stops (and is
    // written) before its scene goes away.
    const bool replace = c.requestRestart || c.requestReload || !c.requestOpen.empty();
    if (replace && tape_.replaying()) tape_.closeReplay();
    if ((replace || c.requestRecord) && tape_.recording() && sim_.loaded()) {
        c.tapeMessage = tape_.stopRecording(sim_.runner());
        c.requestRecord = false;
    }
    if (c.requestRecord && sim_.loaded()) {
        tape_.startRecording(sim_.runner(), c.recordPath);
        c.tapeMessage.clear();
    }
    c.requestRecord = false;
    if (c.requestSeek >= 0 && tape_.replaying()) {
        try {
            tape_.seek(c.requestSeek, sim_);
        } catch (const std::exception& e) {
            sim_.setError(e.what());
        }
    }
    c.requestSeek = -1;
    if (c.requestLeaveReplay) tape_.closeReplay();
    c.requestLeaveReplay = false;
    if (c.requestRestart) {
        sim_.restart();
        accumulator_ = 0.0;
    }
    if (c.requestReload) sim_.reload();
    if (!c.requestOpen.empty()) {
        bool wasLoaded = sim_.loaded();
        std::string before = sim_.path();
        if (sim_.open(c.requestOpen) && (!wasLoaded || sim_.path() != before)) resetCamera();
        panels_->setPath(c.requestOpen);
    }
    if (c.watchFile && !tape_.replaying() && sim_.fileChanged()) {
        bool wasLoaded = sim_.loaded();
        if (sim_.reload() && !wasLoaded) resetCamera();
    }
    if (c.requestApply && sim_.loaded()) {
        // New settings make a new world: a replay ends there, and a
        // recording carries the rebuilt scene as an edit.
        tape_.closeReplay();
        tape_.edited();
        tools_.removeFromWorld(sim_.world());
        sim_.applySettings(c.applyBroadphase, c.applySubsteps, c.applyExactJoints);
    }
    if (c.requestFit && sim_.loaded()) fitView();
    c.requestRestart = c.requestReload = c.requestFit = c.requestApply = false;
    c.requestOpen.clear();
    controls_.characterKeys =
        !tape_.replaying() && sim_.loaded() && !sim_.runner().characters().empty();
    c.tapeRecording = tape_.recording();
    c.tapeReplaying = tape_.replaying();
    c.tapeStep = tape_.position();
    c.tapeLength = tape_.length();
    c.tapeMismatch = tape_.firstMismatch();
    if (sim_.generation() != seenGeneration_) {
        seenGeneration_ = sim_.generation();
        tools_.reset();
        profiler_.clear();
        accumulator_ = 0.0;
    }
    reportError();
}

void App::advance(double realSeconds) {
    if (!sim_.loaded()) return;
    scene::SceneRunner& runner = sim_.runner();
    const double dt = static_cast<double>(runner.timestep());
    int steps = 0;
    if (controls_.playing) {
        // Headless, a frame is exactly one timestep (times the scale), so
        // runs are reproducible; in a window it is the real time elapsed,
        // clamped so that a stall (a drag of the window) is not caught up.
        double elapsed = opts_.headless ? dt : std::min(realSeconds, 0.1);
        accumulator_ += elapsed * static_cast<double>(controls_.timeScale);
        while (accumulator_ >= dt && steps < kMaxStepsPerFrame) {
            accumulator_ -= dt;
            ++steps;
        }
        if (steps == kMaxStepsPerFrame) accumulator_ = 0.0;
    } else {
        accumulator_ = 0.0;
        if (controls_.stepOnce) steps = 1;
    }
    controls_.stepOnce = false;
    try {
        for (int i = 0; i < steps; ++i) {
            if (!tape_.replaying()) tools_.update(&sim_.world(), camera_);
            // A drag moves its joint's target every step: an edit.
            if (tools_.dragging()) tape_.edited();
            if (controls_.characterKeys) {
                scene::CharacterInput input;
                input.move = (controls_.runRight ? 1.0f : 0.0f) - (controls_.runLeft ? 1.0f : 0.0f);
                input.jump = controls_.jumpHeld || controls_.jumpQueued;
                controls_.jumpQueued = false;
                runner.setInput(input);
            }
            if (!tape_.step(sim_)) {  // the end of a replay
                controls_.playing = false;
                break;
            }
            profiler_.record(sim_.world().profile());
        }
        controls_.tapeStep = tape_.position();
        controls_.tapeLength = tape_.length();
        controls_.tapeMismatch = tape_.firstMismatch();
    } catch (const std::exception& e) {
        sim_.setError(std::string("step failed: ") + e.what());
        controls_.playing = false;
        reportError();
    }
}

void App::drawGrid() {
    // Lines every 10^k metres, k chosen so that about 5..50 lines cross the
    // view; the world axes a little brighter.
    AABB box = camera_.visibleBounds();
    float spacing =
        std::pow(10.0f, std::floor(std::log10(std::max(camera_.viewHeight(), 1.0e-3f) / 5.0f)));
    if (!(spacing > 0.0f) || !std::isfinite(spacing)) return;
    float w = static_cast<float>(camera_.width());
    float h = static_cast<float>(camera_.height());
    for (float x = std::floor(box.lower.x / spacing) * spacing; x <= box.upper.x; x += spacing) {
        float sx = camera_.worldToScreen({x, 0.0f}).x;
        draw_->screenLine({sx, 0.0f}, {sx, h}, 1.0f,
                          std::fabs(x) < 0.5f * spacing ? kAxisColor : kGridColor);
    }
    for (float y = std::floor(box.lower.y / spacing) * spacing; y <= box.upper.y; y += spacing) {
        float sy = camera_.worldToScreen({0.0f, y}).y;
        draw_->screenLine({0.0f, sy}, {w, sy}, 1.0f,
                          std::fabs(y) < 0.5f * spacing ? kAxisColor : kGridColor);
    }
}

void App::drawImpulseLabels() {
    // The engine draws each normal impulse as a segment along the normal;
    // close enough in, the value itself (N·s) is written next to the point.
    constexpr float kMinPixelsPerMetre = 60.0f;
    constexpr int kMaxLabels = 400;
    if (!controls_.draw.contactImpulses || camera_.scale() < kMinPixelsPerMetre) return;
    AABB view = camera_.visibleBounds();
    auto inView = [&](Vec2 p) {
        return p.x >= view.lower.x && p.x <= view.upper.x && p.y >= view.lower.y &&
               p.y <= view.upper.y;
    };
    std::vector<ContactData> contacts = sim_.world().contacts();
    // Values under 2% of the largest one in view (side contacts of a
    // stack, grazing points) would only clutter the picture with zeros.
    float largest = 0.0f;
    for (const ContactData& c : contacts)
        for (int i = 0; i < c.pointCount; ++i)
            if (inView(c.points[i].point)) largest = std::max(largest, c.points[i].normalImpulse);
    int labels = 0;
    char text[32];
    for (const ContactData& c : contacts) {
        for (int i = 0; i < c.pointCount && labels < kMaxLabels; ++i) {
            const ContactData::Point& p = c.points[i];
            if (!inView(p.point) || !(p.normalImpulse > 0.02f * largest)) continue;
            std::snprintf(text, sizeof text, "%.3g", static_cast<double>(p.normalImpulse));
            draw_->drawString(p.point, text, 0xe5e5e5);
            ++labels;
        }
    }
}

void App::render(float frameMs, bool warmUp) {
    int w = opts_.width;
    int h = opts_.height;
    SDL_GetRendererOutputSize(renderer_, &w, &h);
    camera_.setViewport(w, h);

    ImGuiIO& io = ImGui::GetIO();
    if (imguiPlatform_) {
        ImGui_ImplSDL2_NewFrame();
    } else {
        io.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
        io.DeltaTime = 1.0f / 60.0f;
    }
    ImGui::NewFrame();

    SDL_SetRenderDrawColor(renderer_, 0x1c, 0x1e, 0x24, 0xff);
    SDL_RenderClear(renderer_);
    draw_->begin(camera_, ImGui::GetBackgroundDrawList());
    drawGrid();
    Counters counters{};
    if (sim_.loaded()) {
        try {
            sim_.world().draw(*draw_, controls_.draw);
            drawImpulseLabels();
            counters = sim_.world().counters();
        } catch (const std::exception& e) {
            sim_.setError(std::string("draw failed: ") + e.what());
            reportError();
        }
        tools_.drawOverlay(*draw_, &sim_.world(), camera_);
    }
    draw_->flush();

    if (controls_.showUi) {
        panels_->draw(sim_, controls_, camera_);
        if (controls_.showProfiler) profiler_.draw(&controls_.showProfiler, counters, frameMs);
    }
    if (controls_.showHelp) drawHelp(&controls_.showHelp);
    ImGui::Render();
    imgui_.render(ImGui::GetDrawData());

    if (!warmUp && !controls_.requestScreenshot.empty()) {
        writePng(controls_.requestScreenshot);
        controls_.requestScreenshot.clear();
    }
}

void App::writePng(const std::string& path) {
    int w = opts_.width;
    int h = opts_.height;
    SDL_GetRendererOutputSize(renderer_, &w, &h);
    try {
        writeScreenshot(renderer_, w, h, path);
        std::error_code ec;
        std::filesystem::path shown = std::filesystem::absolute(path, ec);
        std::printf("carom-sandbox: wrote %s (%dx%d)\n", (ec ? path : shown.string()).c_str(), w,
                    h);
        std::fflush(stdout);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "carom-sandbox: error: %s\n", e.what());
        failed_ = true;
    }
}

}  // namespace carom::sandbox
