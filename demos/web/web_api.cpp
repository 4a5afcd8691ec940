// The browser sandbox's C API (called from app.js through ccall/cwrap): the
// scene library runs a scene file, World::draw records what to draw into a
// float buffer the page reads from the module's memory, and the sandbox's
// own camera and tools (demos/sandbox: Camera, spawnBody, fireBullet,
// grabBody) do the rest. One scene at a time; every function is a thin
// wrapper, the page keeps no physics of its own.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <emscripten/emscripten.h>

#include <carom/debug_draw.hpp>
#include <carom/error.hpp>
#include <carom/scene.hpp>

#include "camera.hpp"
#include "world_tools.hpp"

namespace {

using namespace carom;

// Draw commands, six floats each after the kind: what app.js draws.
enum Kind : int { kPolygon = 1, kCircle = 2, kCapsule = 3, kSegment = 4, kPoint = 5 };

// Records World::draw's calls as [kind, color, n, values...] records.
class Recorder final : public DebugDraw {
   public:
    std::vector<float> data;

    void drawPolygon(std::span<const Vec2> vertices, uint32_t color) override {
        begin(kPolygon, color, int(vertices.size()), 0.0f);
        for (Vec2 v : vertices) push(v);
    }
    void drawSolidPolygon(const Transform& xf, std::span<const Vec2> vertices, float radius,
                          uint32_t color) override {
        begin(kPolygon, color, int(vertices.size()), radius);
        for (Vec2 v : vertices) push(transformPoint(xf, v));
    }
    void drawCircle(Vec2 center, float radius, uint32_t color) override {
        circle(center, center, radius, color);
    }
    void drawSolidCircle(const Transform& xf, float radius, uint32_t color) override {
        circle(xf.p, transformPoint(xf, Vec2{radius, 0.0f}), radius, color);
    }
    void drawSolidCapsule(Vec2 p1, Vec2 p2, float radius, uint32_t color) override {
        begin(kCapsule, color, 2, radius);
        push(p1);
        push(p2);
    }
    void drawSegment(Vec2 p1, Vec2 p2, uint32_t color) override {
        begin(kSegment, color, 2, 0.0f);
        push(p1);
        push(p2);
    }
    void drawPoint(Vec2 p, float sizePixels, uint32_t color) override {
        begin(kPoint, color, 1, sizePixels);
        push(p);
    }

   private:
    void circle(Vec2 c, Vec2 mark, float r, uint32_t color) {
        begin(kCircle, color, 2, r);
        push(c);
        push(mark);
    }
    // A record: kind, colour (exact in a float: 24 bits), point count, radius.
    void begin(int kind, uint32_t color, int points, float radius) {
        data.push_back(float(kind));
        data.push_back(float(color & 0xffffffu));
        data.push_back(float(points));
        data.push_back(radius);
    }
    void push(Vec2 v) {
        data.push_back(v.x);
        data.push_back(v.y);
    }
};

struct Sandbox {
    std::unique_ptr<scene::SceneRunner> runner;
    scene::SceneDesc desc;
    sandbox::Camera camera;
    Recorder recorder;
    BodyId ground{};
    JointId drag{};
    BodyId grabbed{};
    std::string text;  ///< the last string handed to the page
    std::string error;
};

Sandbox& app() {
    static Sandbox s;
    return s;
}

const char* hand(std::string s) {
    app().text = std::move(s);
    return app().text.c_str();
}

// Installs a loaded scene; on failure the previous scene keeps running.
int install(scene::SceneDesc desc) {
    Sandbox& s = app();
    try {
        auto runner = std::make_unique<scene::SceneRunner>(desc);
        s.runner = std::move(runner);
        s.desc = std::move(desc);
        s.ground = {};
        s.drag = {};
        s.grabbed = {};
        s.error.clear();
        return 1;
    } catch (const scene::SceneError& e) {
        s.error = e.report();
    } catch (const std::exception& e) {
        s.error = e.what();
    }
    return 0;
}

bool running() {
    return app().runner != nullptr;
}

}  // namespace

extern "C" {

/// Every scene file under dir (recursively, sorted), one path per line.
EMSCRIPTEN_KEEPALIVE const char* web_list_scenes(const char* dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file() && it->path().extension() == ".json")
            files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    std::string out;
    for (const std::string& f : files) out += f + "\n";
    return hand(out);
}

/// Opens a scene file (from the page's preloaded files): 1, or 0 with web_error().
EMSCRIPTEN_KEEPALIVE int web_open(const char* path) {
    try {
        return install(scene::loadFile(path));
    } catch (const scene::SceneError& e) {
        app().error = e.report();
    }
    return 0;
}

/// Loads scene text (the page's editor) as file `name`: 1, or 0 with web_error()
/// holding SceneError::report(), FILE:LINE:COL per error.
EMSCRIPTEN_KEEPALIVE int web_load_text(const char* text, const char* name) {
    try {
        return install(scene::loadString(text, name));
    } catch (const scene::SceneError& e) {
        app().error = e.report();
    }
    return 0;
}

EMSCRIPTEN_KEEPALIVE const char* web_error() {
    return app().error.c_str();
}

/// Starts the current scene again from its file.
EMSCRIPTEN_KEEPALIVE int web_restart() {
    return running() ? install(app().desc) : 0;
}

/// Steps n times (events due first, as the native sandbox and `carom run`).
EMSCRIPTEN_KEEPALIVE void web_step(int n) {
    Sandbox& s = app();
    if (!running()) return;
    for (int i = 0; i < n; ++i) s.runner->step();
}

EMSCRIPTEN_KEEPALIVE int web_steps() {
    return running() ? int(app().runner->steps()) : 0;
}
EMSCRIPTEN_KEEPALIVE int web_body_count() {
    return running() ? int(app().runner->world().bodies().size()) : 0;
}
EMSCRIPTEN_KEEPALIVE const char* web_hash() {
    return hand(running() ? scene::hashHex(app().runner->world().stateHash()) : "");
}
EMSCRIPTEN_KEEPALIVE const char* web_scene_name() {
    return hand(running() ? app().desc.name : "");
}

// ---- camera (pixels <-> metres, the native sandbox's Camera) ----------------

EMSCRIPTEN_KEEPALIVE void web_viewport(int width, int height) {
    app().camera.setViewport(width, height);
}

/// The scene's own view (its `view` section, else fitted by the runner).
EMSCRIPTEN_KEEPALIVE void web_reset_view() {
    if (!running()) return;
    scene::View v = app().runner->view();
    app().camera.set(v.center, v.height);
}
EMSCRIPTEN_KEEPALIVE void web_zoom(float x, float y, float factor) {
    app().camera.zoomAt({x, y}, factor);
}
EMSCRIPTEN_KEEPALIVE void web_pan(float dx, float dy) {
    app().camera.panPixels({dx, dy});
}
/// Screen pixel -> world: index 0 x, 1 y.
EMSCRIPTEN_KEEPALIVE float web_to_world(float x, float y, int axis) {
    Vec2 w = app().camera.screenToWorld({x, y});
    return axis == 0 ? w.x : w.y;
}
/// The camera: centre x, centre y, metres visible vertically, pixels per metre.
EMSCRIPTEN_KEEPALIVE float web_camera(int what) {
    const sandbox::Camera& c = app().camera;
    switch (what) {
        case 0:
            return c.center().x;
        case 1:
            return c.center().y;
        case 2:
            return c.viewHeight();
        default:
            return c.scale();
    }
}

// ---- tools (the native sandbox's, demos/sandbox/world_tools.hpp) -------------

/// Spawns at screen pixel (x, y): kind 0 box, 1 circle, 2 capsule, 3 bullet.
EMSCRIPTEN_KEEPALIVE void web_spawn(int kind, float x, float y) {
    if (!running()) return;
    Sandbox& s = app();
    World& w = s.runner->world();
    Vec2 p = s.camera.screenToWorld({x, y});
    switch (kind) {
        case 1:
            sandbox::spawnBody(w, sandbox::Tool::SpawnCircle, p, s.camera.viewHeight());
            break;
        case 2:
            sandbox::spawnBody(w, sandbox::Tool::SpawnCapsule, p, s.camera.viewHeight());
            break;
        case 3:
            sandbox::fireBullet(w, s.camera, p);
            break;
        default:
            sandbox::spawnBody(w, sandbox::Tool::SpawnBox, p, s.camera.viewHeight());
            break;
    }
}

/// Grabs the dynamic body under screen pixel (x, y) with a mouse joint: 1
/// when one was grabbed.
EMSCRIPTEN_KEEPALIVE int web_drag_begin(float x, float y) {
    if (!running()) return 0;
    Sandbox& s = app();
    s.drag =
        sandbox::grabBody(s.runner->world(), s.camera.screenToWorld({x, y}), s.ground, s.grabbed);
    return s.drag.isNull() ? 0 : 1;
}
EMSCRIPTEN_KEEPALIVE void web_drag_move(float x, float y) {
    Sandbox& s = app();
    if (!running() || s.drag.isNull() || !s.runner->world().isValid(s.drag)) return;
    s.runner->world().setMouseTarget(s.drag, s.camera.screenToWorld({x, y}));
}
EMSCRIPTEN_KEEPALIVE void web_drag_end() {
    Sandbox& s = app();
    if (running() && !s.drag.isNull() && s.runner->world().isValid(s.drag))
        s.runner->world().destroyJoint(s.drag);
    s.drag = {};
}
/// The grabbed body's position (axis 0 x, 1 y), or NaN when none.
EMSCRIPTEN_KEEPALIVE float web_grabbed_position(int axis) {
    Sandbox& s = app();
    if (!running() || s.grabbed.isNull() || !s.runner->world().isValid(s.grabbed))
        return std::numeric_limits<float>::quiet_NaN();
    Vec2 p = s.runner->world().position(s.grabbed);
    return axis == 0 ? p.x : p.y;
}

/// The position (axis 0 x, 1 y) of the scene's last dynamic body in creation
/// order (the top of a stack), or NaN when it has none: where the self-test
/// grabs.
EMSCRIPTEN_KEEPALIVE float web_last_dynamic_position(int axis) {
    if (!running()) return std::numeric_limits<float>::quiet_NaN();
    const World& w = app().runner->world();
    const auto& bodies = app().runner->bodies();
    for (auto it = bodies.rbegin(); it != bodies.rend(); ++it) {
        if (w.isValid(it->id) && w.bodyType(it->id) == BodyType::Dynamic) {
            Vec2 p = w.position(it->id);
            return axis == 0 ? p.x : p.y;
        }
    }
    return std::numeric_limits<float>::quiet_NaN();
}

// ---- drawing -------------------------------------------------------------------

/// Records the world's shapes and joints; returns the number of floats at web_draw_data().
EMSCRIPTEN_KEEPALIVE int web_draw() {
    Sandbox& s = app();
    s.recorder.data.clear();
    if (running()) {
        DebugDrawFlags flags;
        flags.shapes = true;
        flags.joints = true;
        s.runner->world().draw(s.recorder, flags);
    }
    return int(s.recorder.data.size());
}
EMSCRIPTEN_KEEPALIVE const float* web_draw_data() {
    return app().recorder.data.data();
}

}  // extern "C"
