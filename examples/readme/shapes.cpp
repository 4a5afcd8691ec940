// Bodies and shapes: a one-sided chain floor, and a cart made of a box and a
// capsule with their own materials.
#include <carom/carom.hpp>
#include <cmath>
#include <cstdio>

int main() {
    carom::World world;
    carom::ChainDef floor;
    floor.points = {{10.0f, 0.0f}, {-10.0f, 0.0f}};  // right to left: the floor collides from above
    world.createChain(world.createBody(carom::BodyDef{}), floor);  // a static body

    carom::BodyDef cartDef;
    cartDef.type = carom::BodyType::Dynamic;
    cartDef.position = {0.0f, 2.0f};
    carom::BodyId cart = world.createBody(cartDef);
    carom::ShapeDef rubber;
    rubber.density = 2.0f;  // kg/m²
    rubber.friction = 0.9f;
    world.createShape(cart, rubber, carom::makeBox(1.0f, 0.25f));
    world.createShape(cart, carom::ShapeDef{}, carom::Capsule{{-0.5f, 0.5f}, {0.5f, 0.5f}, 0.2f});

    for (int i = 0; i < 120; ++i) world.step(1.0f / 60.0f);
    std::printf("cart of %.2f kg rests at y = %.3f\n", world.mass(cart), world.position(cart).y);
    return std::fabs(world.position(cart).y - 0.25f) < 0.02f ? 0 : 1;
}
