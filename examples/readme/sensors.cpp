// Events and queries: a ball falls through a sensor onto the ground; the
// steps report both, and a ray finds the ball where it rests.
#include <carom/carom.hpp>
#include <cstdio>

int main() {
    carom::World world;
    carom::BodyId ground = world.createBody(carom::BodyDef{});
    world.createShape(ground, carom::ShapeDef{}, carom::makeBox(5.0f, 0.5f));
    carom::ShapeDef sensorDef;
    sensorDef.isSensor = true;  // reports what overlaps it, never collides
    world.createShape(ground, sensorDef, carom::makeOffsetBox(1.0f, 0.5f, {0.0f, 3.0f}, 0.0f));
    carom::BodyDef ballDef;
    ballDef.type = carom::BodyType::Dynamic;
    ballDef.position = {0.0f, 6.0f};
    carom::ShapeId ball = world.createShape(world.createBody(ballDef), carom::ShapeDef{},
                                            carom::Circle{{0.0f, 0.0f}, 0.25f});

    int sensed = 0, landed = 0;
    for (int i = 0; i < 120; ++i) {
        world.step(1.0f / 60.0f);  // the event spans below stay valid until the next step
        sensed += int(world.sensorEvents().begin.size() + world.sensorEvents().end.size());
        for (const carom::ContactBeginEvent& e : world.contactEvents().begin) {
            std::printf("landed: normal (%.1f, %.1f), %d point(s)\n", e.manifold.normal.x,
                        e.manifold.normal.y, e.manifold.pointCount);
            ++landed;
        }
    }
    carom::QueryFilter solid;
    solid.categoryBits = 1;  // the ray's category; every shape's default mask accepts it
    carom::RayResult down = world.castRayClosest({0.0f, 1.5f}, {0.0f, -5.0f}, solid);
    std::printf("sensor events: %d; the ray hits the ball at y = %.2f\n", sensed, down.point.y);
    return sensed == 2 && landed == 1 && down.shape == ball ? 0 : 1;
}
