// Loads a scene file given on the command line (or a small built-in one),
// runs it for its duration and prints where its body named "box" rests.
#include <carom/scene.hpp>
#include <cstdio>

int main(int argc, char** argv) {
    const char* text = R"({"carom": 1, "name": "drop", "duration": 3,
        "bodies": [
          {"name": "ground", "type": "static", "shapes": [{"type": "box", "half_extents": [20, 1], "center": [0, -1]}]},
          {"name": "box", "position": [0, 4], "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}]})";
    try {
        carom::scene::SceneDesc desc = argc > 1 ? carom::scene::loadFile(argv[1])
                                                : carom::scene::loadString(text, "drop.json");
        carom::scene::SceneRunner runner(desc);
        while (runner.time() < desc.duration) runner.step();
        carom::Vec2 p = runner.world().position(runner.findBody("box"));
        std::printf("rest %.3f %.3f\n", p.x, p.y);
    } catch (const carom::scene::SceneError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    return 0;
}
