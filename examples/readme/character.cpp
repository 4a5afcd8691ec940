// A platformer character: runs right along a floor, steps up a 0.2 m ledge
// without a jump, and jumps up through a one-way board to stand on it.
#include <carom/carom.hpp>
#include <cstdio>

int main() {
    carom::World world;
    carom::BodyId ground = world.createBody(carom::BodyDef{});
    world.createShape(ground, carom::ShapeDef{},
                      carom::makeOffsetBox(20.0f, 0.5f, {0.0f, -0.5f}, 0.0f));
    world.createShape(ground, carom::ShapeDef{},
                      carom::makeOffsetBox(5.0f, 0.1f, {5.0f, 0.1f}, 0.0f));
    carom::ShapeId board = world.createShape(ground, carom::ShapeDef{},
                                             carom::makeOffsetBox(2.0f, 0.1f, {4.0f, 1.6f}, 0.0f));

    carom::CharacterDef def;  // a 0.3 m by 1.4 m capsule, 6 m/s run, 0.3 m step
    def.position = {-3.0f, 0.71f};
    carom::Character hero(world, def);
    hero.setOneWayShapes({&board, 1});

    const float dt = 1.0f / 60.0f;
    for (int i = 0; i < 180; ++i) {
        carom::CharacterInput input;
        input.move = i < 70 ? 1.0f : 0.0f;  // run right for 70 steps, then stand
        input.jump = i == 90;               // and jump once
        hero.beginStep();
        world.step(dt);
        hero.update(input, dt);
    }
    const carom::Vec2 p = world.position(hero.body());
    std::printf("hero at (%.2f, %.2f), on the board: %d\n", p.x, p.y, hero.ground() == ground);
    return hero.grounded() && hero.ground() == ground && p.y > 2.3f ? 0 : 1;
}
