// Scene files: a world written in JSON, run by the scene library, saved as
// JSON again; the saved text loads back to the same state.
#include <carom/carom.hpp>
#include <carom/scene.hpp>
#include <cmath>
#include <cstdio>
#include <string>

int main() {
    const char* text = R"({"carom": 1, "name": "drop", "bodies": [
        {"name": "ground", "type": "static", "shapes": [{"type": "box", "half_extents": [5, 0.5]}]},
        {"name": "ball", "position": [0, 3], "shapes": [{"type": "circle", "radius": 0.5}]}]})";
    carom::scene::SceneRunner runner(carom::scene::loadString(text, "drop.json"));
    runner.run(runner.stepsFor(2.0));  // two seconds at the file's timestep (1/60 s by default)
    carom::World& world = runner.world();
    float y = world.position(world.findBody("ball")).y;

    std::string saved = carom::scene::worldJson(world);  // carom::scene::saveWorld writes a file
    carom::scene::SceneRunner reloaded(carom::scene::loadString(saved, "saved.json"));
    std::printf("ball rests at y = %.3f; reloaded state equal: %d\n", y,
                reloaded.world().stateHash() == world.stateHash());
    return std::fabs(y - 1.0f) < 0.02f && reloaded.world().stateHash() == world.stateHash() ? 0 : 1;
}
