// Settings changed while the world runs: a conveyor belt, a crate that
// slides on ice by a friction rule, a door held on one axis, a body taken
// out of the world and put back.
#include <carom/carom.hpp>
#include <cmath>
#include <cstdio>

int main() {
    carom::World world;
    carom::BodyId belt = world.createBody(carom::BodyDef{});
    carom::ShapeDef beltDef;
    beltDef.userMaterialId = 1;  // "ice" in the game's material table
    carom::ShapeId beltShape =
        world.createShape(belt, beltDef, carom::makeOffsetBox(20, 0.5f, {0, -0.5f}, 0));

    carom::BodyDef boxDef;
    boxDef.type = carom::BodyType::Dynamic;
    boxDef.position = {0, 0.5f};
    carom::BodyId crate = world.createBody(boxDef);
    world.createShape(crate, carom::ShapeDef{}, carom::makeBox(0.5f, 0.5f));
    boxDef.position = {5, 3};
    boxDef.motionLocks.linearX = true;  // a door that only slides up and down
    carom::BodyId door = world.createBody(boxDef);
    world.createShape(door, carom::ShapeDef{}, carom::makeBox(0.2f, 1));

    world.setTangentSpeed(beltShape, 2);  // the belt starts: 2 m/s towards +x
    world.setFrictionCallback([](float a, uint64_t ma, float b, uint64_t mb) {
        return ma == 1 || mb == 1 ? 0.6f * std::sqrt(a * b) : std::sqrt(a * b);
    });
    world.setContactTuning(60, 10, 3);  // stiffer contacts
    for (int i = 0; i < 120; ++i) world.step(1.0f / 60);
    const float crateSpeed = world.linearVelocity(crate).x;

    world.disableBody(crate);  // out of the world: no contacts, no queries
    carom::Vec2 parked = world.position(crate);
    for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
    bool stayed =
        world.position(crate).x == parked.x && !world.castRayClosest({parked.x, 5}, {0, -4.6f}).hit;
    world.enableBody(crate);

    std::printf("crate at %.2f m/s, door x %.2f, parked crate stayed: %d\n", crateSpeed,
                world.position(door).x, stayed);
    return std::fabs(crateSpeed - 2) < 0.02f && world.position(door).x == 5 && stayed ? 0 : 1;
}
