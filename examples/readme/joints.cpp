// Joints: a pendulum on a pin with a limit, and a box hanging from a spring.
#include <carom/carom.hpp>
#include <cstdio>

int main() {
    carom::World world;
    carom::BodyId ground = world.createBody(carom::BodyDef{});
    carom::BodyDef def;
    def.type = carom::BodyType::Dynamic;
    def.position = {2.0f, 5.0f};
    carom::BodyId bob = world.createBody(def);
    world.createShape(bob, carom::ShapeDef{}, carom::Circle{{0.0f, 0.0f}, 0.25f});
    def.position = {-2.0f, 3.0f};
    carom::BodyId box = world.createBody(def);
    world.createShape(box, carom::ShapeDef{}, carom::makeBox(0.25f, 0.25f));

    // make*JointDef fills the local anchors from world points at the current poses.
    carom::RevoluteJointDef pin = world.makeRevoluteJointDef(ground, bob, {0.0f, 5.0f});
    pin.enableLimit = true;
    pin.lowerAngle = -0.5f;  // radians, from the angle at creation
    pin.upperAngle = 0.5f;
    carom::JointId hinge = world.createJoint(pin);
    carom::DistanceJointDef spring =
        world.makeDistanceJointDef(ground, box, {-2.0f, 5.0f}, {-2.0f, 3.0f});
    spring.enableSpring = true;
    spring.hertz = 2.0f;
    spring.dampingRatio = 0.5f;
    carom::JointId hang = world.createJoint(spring);

    for (int i = 0; i < 120; ++i) world.step(1.0f / 60.0f);
    float angle = world.revoluteAngle(hinge), length = world.distanceJointLength(hang);
    std::printf("pendulum at %.2f rad, spring stretched to %.2f m\n", angle, length);
    return angle > -0.52f && length > 2.0f ? 0 : 1;
}
