#include "world_tools.hpp"

#include <algorithm>

namespace carom::sandbox {

namespace {

// Spawned shapes scale with the view so that they are visible and sensible
// in a 2 m close-up and in a 200 m overview alike.
float spawnSize(float viewHeight) {
    return std::clamp(viewHeight / 40.0f, 0.05f, 5.0f);
}

}  // namespace

BodyId spawnBody(World& world, Tool kind, Vec2 at, float viewHeight) {
    float s = spawnSize(viewHeight);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = at;
    BodyId body = world.createBody(bd);
    ShapeDef sd;
    switch (kind) {
        case Tool::SpawnCircle:
            world.createShape(body, sd, Circle{{0.0f, 0.0f}, s});
            break;
        case Tool::SpawnCapsule:
            world.createShape(body, sd, Capsule{{-s, 0.0f}, {s, 0.0f}, 0.5f * s});
            break;
        default:
            world.createShape(body, sd, makeBox(s, s));
            break;
    }
    return body;
}

BodyId fireBullet(World& world, const Camera& camera, Vec2 target) {
    AABB view = camera.visibleBounds();
    Vec2 ext = aabbExtents(view);
    Vec2 from = view.lower + Vec2{0.05f * ext.x, 1.9f * ext.y};
    Vec2 dir = normalizeOrZero(target - from);
    if (lengthSquared(dir) == 0.0f) dir = {1.0f, 0.0f};
    // Fast enough to need continuous collision: several body sizes per step.
    float speed = std::clamp(4.0f * camera.viewHeight(), 30.0f, 300.0f);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = from;
    bd.isBullet = true;
    bd.linearVelocity = speed * dir;
    BodyId body = world.createBody(bd);
    ShapeDef sd;
    sd.density = 20.0f;
    world.createShape(body, sd, Circle{{0.0f, 0.0f}, 0.5f * spawnSize(camera.viewHeight())});
    return body;
}

JointId grabBody(World& world, Vec2 p, BodyId& ground, BodyId& grabbed) {
    BodyId pick{};
    for (ShapeId s : world.queryPoint(p)) {
        BodyId b = world.shapeBody(s);
        if (world.bodyType(b) == BodyType::Dynamic) {
            pick = b;
            break;
        }
    }
    if (pick.isNull()) return {};
    if (ground.isNull() || !world.isValid(ground)) ground = world.createBody(BodyDef{});
    MouseJointDef jd;
    jd.bodyA = ground;
    jd.bodyB = pick;
    jd.localAnchorA = world.localPoint(ground, p);
    jd.localAnchorB = world.localPoint(pick, p);
    jd.target = p;
    jd.hertz = 5.0f;
    jd.dampingRatio = 0.7f;
    jd.maxForce = 1000.0f * world.mass(pick);
    JointId joint = world.createJoint(jd);
    grabbed = pick;
    world.setAwake(pick, true);
    return joint;
}

}  // namespace carom::sandbox
