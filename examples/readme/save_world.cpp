// Saving a world: any World as a scene file, with its body names and, on
// request, the solver's warm state, so that the reload continues bit for bit.
#include <carom/carom.hpp>
#include <carom/scene.hpp>
#include <cstdio>
#include <string>

int main() {
    carom::World world;
    carom::BodyDef groundDef;
    groundDef.name = "ground";
    world.createShape(world.createBody(groundDef), carom::ShapeDef{}, carom::makeBox(20.0f, 0.5f));
    for (int i = 0; i < 3; ++i) {
        carom::BodyDef boxDef;
        boxDef.type = carom::BodyType::Dynamic;
        boxDef.position = {0.0f, 1.0f + 1.1f * float(i)};
        std::string name = "box" + std::to_string(i);
        boxDef.name = name;  // the world keeps its own copy
        world.createShape(world.createBody(boxDef), carom::ShapeDef{}, carom::makeBox(0.5f, 0.5f));
    }
    for (int i = 0; i < 60; ++i) world.step(1.0f / 60.0f);

    carom::scene::SaveOptions options;
    options.warm = true;  // contact impulses, islands, sleep timers: an exact continuation
    carom::scene::saveWorld(world, "stack.json", options);

    carom::scene::SceneRunner reloaded(carom::scene::loadFile("stack.json"));
    carom::World& copy = reloaded.world();
    for (int i = 0; i < 120; ++i) {
        world.step(1.0f / 60.0f);
        copy.step(1.0f / 60.0f);
    }
    carom::BodyId top = copy.findBody("box2");
    bool same = copy.stateHash() == world.stateHash();
    std::printf("box2 rests at y = %.3f; same state as the original: %s\n", copy.position(top).y,
                same ? "yes" : "no");
    return same && !top.isNull() ? 0 : 1;
}
