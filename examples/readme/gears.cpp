// Two wheels geared 1:2, and a heavy box lifting a light one over a pulley.
#include <carom/carom.hpp>
#include <cmath>
#include <cstdio>

int main() {
    carom::World world;
    carom::BodyId ground = world.createBody(carom::BodyDef{});
    auto disc = [&](carom::Vec2 p, float radius) {
        carom::BodyDef d;
        d.type = carom::BodyType::Dynamic;
        d.position = p;
        carom::BodyId id = world.createBody(d);
        world.createShape(id, carom::ShapeDef{}, carom::Circle{{0.0f, 0.0f}, radius});
        return id;
    };
    carom::BodyId big = disc({0.0f, 5.0f}, 1.0f), small = disc({1.5f, 5.0f}, 0.5f);
    carom::RevoluteJointDef drive = world.makeRevoluteJointDef(ground, big, {0.0f, 5.0f});
    drive.enableMotor = true;
    drive.motorSpeed = 1.0f;  // rad/s
    drive.maxMotorTorque = 100.0f;
    carom::JointId a = world.createJoint(drive);
    carom::JointId b = world.createJoint(world.makeRevoluteJointDef(ground, small, {1.5f, 5.0f}));
    // angleBig + 0.5 * angleSmall stays constant: the small wheel turns twice as fast, backwards.
    world.createJoint(world.makeGearJointDef(a, b, 0.5f));

    carom::BodyId light = disc({5.0f, 0.0f}, 0.5f), heavy = disc({8.0f, 0.0f}, 0.8f);
    carom::JointId rope = world.createJoint(world.makePulleyJointDef(
        light, heavy, {5.0f, 4.0f}, {8.0f, 4.0f}, {5.0f, 0.0f}, {8.0f, 0.0f}, 1.0f));

    for (int i = 0; i < 60; ++i) world.step(1.0f / 60.0f);

    float ws = world.angularVelocity(small);
    float total = world.pulleyLengthA(rope) + world.pulleyLengthB(rope);  // 8 m of rope
    std::printf("small wheel %.3f rad/s, light disc rose %.2f m, rope %.4f m\n", ws,
                world.position(light).y, total);
    return std::fabs(ws + 2.0f) < 0.01f && world.position(light).y > 0.5f &&
                   std::fabs(total - 8.0f) < 0.08f
               ? 0
               : 1;
}
