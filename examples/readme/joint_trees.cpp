// A 1 kg chain holding 1e6 kg: joint trees solved exactly (tuning.enableJointDirectSolve).
#include <carom/carom.hpp>
#include <cmath>
#include <cstdio>

int main() {
    carom::WorldDef def;
    def.tuning.enableJointDirectSolve = true;  // the default; off, the load falls through the chain
    carom::World world(def);
    carom::BodyDef anchorDef;
    anchorDef.position = {0.0f, 20.0f};
    carom::BodyId prev = world.createBody(anchorDef);
    for (int i = 0; i <= 10; ++i) {  // ten 0.1 kg links, then the load
        carom::BodyDef d;
        d.type = carom::BodyType::Dynamic;
        d.position = {0.0f, 19.5f - float(i)};
        carom::BodyId body = world.createBody(d);
        carom::ShapeDef shape;
        shape.filter.groupIndex = -1;  // the chain does not collide with itself
        shape.density = i < 10 ? 1.0f : 1e6f;
        world.createShape(body, shape,
                          i < 10 ? carom::makeBox(0.05f, 0.5f) : carom::makeBox(0.5f, 0.5f));
        world.createJoint(world.makeRevoluteJointDef(prev, body, {0.0f, 20.0f - float(i)}));
        prev = body;
    }
    for (int i = 0; i < 300; ++i) world.step(1.0f / 60.0f);

    float length = 20.0f - world.worldPoint(prev, {0.0f, 0.5f}).y;  // 10 m when held
    std::printf("after 5 s the chain is %.4f m long\n", length);
    return std::fabs(length - 10.0f) < 0.2f ? 0 : 1;
}
