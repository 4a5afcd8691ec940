// libFuzzer target for scene files: load -> run a few steps -> save -> load.
//
// The bytes are a scene file. The loader must either refuse it with a
// SceneError (located, in the user's words) or return a scene that builds
// and steps. Building may still refuse with a SceneError. Stepping must
// keep every body finite. Saving must either write a file that loads back
// to the same state hash or refuse with SceneError::Kind::Unsavable; a
// saved file that the loader refuses, a changed hash, a NaN, or any other
// exception escaping is a crash (abort), which libFuzzer reports with the
// input. Scenes with many bodies are only loaded (not stepped), so that the
// fuzzer spends its time on variety rather than on big worlds.
//
// Seed corpus: the shipped scenes and the malformed corpus (docs/robustness.md).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <carom/scene.hpp>

namespace {

using namespace carom;

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_scene: %s: %s\n", what, detail.c_str());
    std::abort();
}

void requireFinite(const World& w) {
    for (BodyId id : w.bodies()) {
        Vec2 p = w.position(id);
        Rot q = w.rotation(id);
        Vec2 v = w.linearVelocity(id);
        float a = w.angularVelocity(id);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(q.c) ||
            !std::isfinite(q.s) || !std::isfinite(v.x) || !std::isfinite(v.y) ||
            !std::isfinite(a)) {
            fail("non-finite state after a step", std::to_string(id.index));
        }
    }
}

constexpr std::int64_t kMaxFuzzBodies = 256;
constexpr int kSteps = 3;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    scene::SceneDesc desc;
    try {
        desc = scene::loadString(text, "fuzz.json");
    } catch (const scene::SceneError& e) {
        if (e.kind != scene::SceneError::Kind::Invalid || e.line < 1 || e.column < 1) {
            fail("a refusal without a location", e.what());
        }
        return 0;
    }
    if (desc.totalBodies > kMaxFuzzBodies) return 0;
    try {
        scene::SceneRunner runner(desc);
        for (int k = 0; k < kSteps; ++k) {
            runner.step();
            requireFinite(runner.world());
        }
        std::string saved;
        try {
            saved = scene::sceneJson(runner);
        } catch (const scene::SceneError& e) {
            if (e.kind != scene::SceneError::Kind::Unsavable) fail("save threw", e.what());
            return 0;
        }
        scene::SceneDesc again;
        try {
            again = scene::loadString(saved, "saved.json");
        } catch (const scene::SceneError& e) {
            fail("a saved file does not load", e.what());
        }
        scene::SceneRunner reloaded(again);
        if (reloaded.world().stateHash() != runner.world().stateHash()) {
            fail("the saved file loads to another state", saved);
        }
    } catch (const scene::SceneError& e) {
        // Building the world or applying an event refused, at a location.
        if (e.line < 1 || e.column < 1) fail("a refusal without a location", e.what());
    }
    return 0;
}
