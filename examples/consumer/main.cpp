// Drops a 1 m box from 4 m onto the ground and prints where it rests.
#include <carom/carom.hpp>
#include <cstdio>

int main() {
    carom::World world;
    carom::BodyId ground = world.createBody(carom::BodyDef{});
    world.createShape(ground, carom::ShapeDef{},
                      carom::makeOffsetBox(20.0f, 1.0f, {0.0f, -1.0f}, 0.0f));

    carom::BodyDef def;
    def.type = carom::BodyType::Dynamic;
    def.position = {0.0f, 4.0f};
    carom::BodyId box = world.createBody(def);
    world.createShape(box, carom::ShapeDef{}, carom::makeBox(0.5f, 0.5f));

    for (int i = 0; i < 180; ++i) world.step(1.0f / 60.0f);
    carom::Vec2 p = world.position(box);
    std::printf("rest %.3f %.3f\n", p.x, p.y);
    return 0;
}
