// Bodies, shapes and joints: a car, a box on two wheels with sprung, motorised
// wheel joints, drives along a one-sided chain.
#include <carom/carom.hpp>
#include <cstdio>

int main() {
    carom::World world;
    carom::ChainDef road;
    road.points = {{50.0f, 0.0f}, {-5.0f, 0.0f}};  // right to left: the road collides from above
    world.createChain(world.createBody(carom::BodyDef{}), road);  // on a static body

    auto dynamicBody = [&](carom::Vec2 position) {
        carom::BodyDef def;  // static unless told otherwise
        def.type = carom::BodyType::Dynamic;
        def.position = position;
        return world.createBody(def);
    };
    carom::BodyId chassis = dynamicBody({0.0f, 1.0f});
    world.createShape(chassis, carom::ShapeDef{}, carom::makeBox(1.5f, 0.3f));  // density 1 kg/m²
    carom::ShapeDef rubber;
    rubber.friction = 0.9f;
    for (float x : {-1.0f, 1.0f}) {
        carom::BodyId wheel = dynamicBody({x, 0.4f});
        world.createShape(wheel, rubber, carom::Circle{{0.0f, 0.0f}, 0.4f});
        carom::WheelJointDef axle =
            world.makeWheelJointDef(chassis, wheel, {x, 0.4f}, {0.0f, 1.0f});
        axle.enableMotor = true;      // the suspension spring is on by default: 1 Hz, damping 0.7
        axle.motorSpeed = -10.0f;     // rad/s; clockwise rolls towards +x
        axle.maxMotorTorque = 20.0f;  // N·m
        world.createJoint(axle);
    }
    for (int i = 0; i < 180; ++i) world.step(1.0f / 60.0f);
    std::printf("after 3 s the car is at x = %.1f m\n", world.position(chassis).x);
    return world.position(chassis).x > 5.0f ? 0 : 1;
}
