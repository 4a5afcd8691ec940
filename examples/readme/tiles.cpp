// Seamless tiled terrain: 100 separate segment tiles, one static body each,
// behave as one smooth floor. A frictionless box slides across every seam
// without a bump or a snag.
#include <carom/carom.hpp>
#include <cmath>
#include <cstdio>

int main() {
    carom::World world;  // WorldDef::joinTileSeams is true by default

    for (int i = 0; i < 100; ++i) {  // tiles 0.5 m wide along y = 0
        carom::BodyDef tileDef;
        tileDef.position = {0.5f * float(i) + 0.25f, 0.0f};
        carom::ShapeDef tile;
        tile.friction = 0.0f;
        world.createShape(world.createBody(tileDef), tile,
                          carom::Segment{{-0.25f, 0.0f}, {0.25f, 0.0f}});
    }

    carom::BodyDef boxDef;
    boxDef.type = carom::BodyType::Dynamic;
    boxDef.position = {1.0f, 0.25f};
    boxDef.linearVelocity = {8.0f, 0.0f};
    carom::BodyId box = world.createBody(boxDef);
    carom::ShapeDef ice;
    ice.friction = 0.0f;
    world.createShape(box, ice, carom::makeBox(0.25f, 0.25f));

    float kick = 0.0f;  // largest vertical speed
    for (int i = 0; i < 330; ++i) {
        world.step(1.0f / 60.0f);
        kick = std::fmax(kick, std::fabs(world.linearVelocity(box).y));
    }
    const carom::Vec2 p = world.position(box);
    std::printf("box at x = %.1f, speed %.3f m/s, largest vertical speed %.1e m/s\n", p.x,
                world.linearVelocity(box).x, kick);
    return p.x > 45.0f && kick < 1.0e-3f ? 0 : 1;
}
