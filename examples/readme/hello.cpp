// The README's example: a box falls onto the ground and comes to rest.
#include <carom/carom.hpp>
#include <cstdio>

int main() {
    carom::World world;  // gravity (0, -10) m/s²

    carom::BodyDef groundDef;  // static by default
    groundDef.position = {0.0f, -1.0f};
    carom::BodyId ground = world.createBody(groundDef);
    world.createShape(ground, carom::ShapeDef{}, carom::makeBox(20.0f, 1.0f));

    carom::BodyDef boxDef;
    boxDef.type = carom::BodyType::Dynamic;
    boxDef.position = {0.0f, 4.0f};
    carom::BodyId box = world.createBody(boxDef);
    world.createShape(box, carom::ShapeDef{}, carom::makeBox(0.5f, 0.5f));

    for (int i = 0; i < 120; ++i) world.step(1.0f / 60.0f);

    carom::Vec2 p = world.position(box);
    std::printf("box rests at (%.2f, %.2f), angle %.2f\n", p.x, p.y, world.angle(box));
    return 0;
}
