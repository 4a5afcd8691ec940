// A lamp hangs on a breakable pin; pulled too hard, the pin reports it, the
// game breaks it, and the landing comes with its contact points.
#include <carom/carom.hpp>
#include <cstdio>

int main() {
    carom::World world;  // gravity (0, -10) m/s²
    carom::BodyId ground = world.createBody(carom::BodyDef{});
    world.createShape(ground, carom::ShapeDef{}, carom::makeBox(5.0f, 0.5f));

    carom::BodyDef lampDef;
    lampDef.type = carom::BodyType::Dynamic;
    lampDef.position = {0.0f, 3.0f};
    carom::BodyId lamp = world.createBody(lampDef);
    world.createShape(lamp, carom::ShapeDef{},
                      carom::makeBox(0.5f, 0.5f));  // 1 kg: 10 N on the pin

    carom::RevoluteJointDef pin = world.makeRevoluteJointDef(ground, lamp, {0.0f, 3.0f});
    pin.forceThreshold = 15.0f;  // N: report when the pin carries more
    world.createJoint(pin);

    bool broke = false, landed = false;
    for (int i = 0; i < 180; ++i) {
        if (i >= 60) world.applyForceToCenter(lamp, {0.0f, -10.0f});  // someone pulls: 20 N
        world.step(1.0f / 60.0f);
        for (const carom::JointEvent& e : world.jointEvents()) {
            world.destroyJoint(e.jointId);  // the engine only reports; the game breaks it
            broke = true;
        }
        for (const carom::ContactBeginEvent& e : world.contactEvents().begin) {
            const carom::ContactManifold& m = e.manifold;
            std::printf("landed: %d points, normal (%.1f, %.1f), first at (%.2f, %.2f)\n",
                        m.pointCount, m.normal.x, m.normal.y, m.points[0].point.x,
                        m.points[0].point.y);
            landed = world.contactData(e.contact).pointCount == 2;  // valid while they touch
        }
    }
    return broke && landed ? 0 : 1;
}
