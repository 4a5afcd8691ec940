// Test support for the joint tests: scene helpers.
//
// The tests step the world through World::step, i.e. the full pipeline
// (broadphase, contacts, islands, the soft-step substep loop that drives
// prepareJoint / warmStartJoint / solveJoint / finishJoint). The scenes are
// built so that contacts play no part: joint-connected shapes do not collide
// (collideConnected = false) and the static bodies have no shapes.
#pragma once

#include <carom/world.hpp>

namespace carom::test {

/// A world with default settings except sleep: equilibrium tests must not
/// freeze a body that is still settling within the sleep threshold.
inline World makeWorld(bool enableSleep = false) {
    WorldDef def;
    def.enableSleep = enableSleep;
    return World(def);
}

inline BodyId addStatic(World& world, Vec2 p = {0.0f, 0.0f}) {
    BodyDef d;
    d.type = BodyType::Static;
    d.position = p;
    return world.createBody(d);
}

/// A dynamic box of half extents (hx, hy) and density 1 kg/m².
inline BodyId addBox(World& world, Vec2 p, float hx, float hy, float angle = 0.0f) {
    BodyDef d;
    d.type = BodyType::Dynamic;
    d.position = p;
    d.angle = angle;
    BodyId id = world.createBody(d);
    world.createShape(id, ShapeDef{}, makeBox(hx, hy));
    return id;
}

/// A dynamic disc of the given radius and density 1 kg/m².
inline BodyId addDisc(World& world, Vec2 p, float radius) {
    BodyDef d;
    d.type = BodyType::Dynamic;
    d.position = p;
    BodyId id = world.createBody(d);
    world.createShape(id, ShapeDef{}, Circle{{0.0f, 0.0f}, radius});
    return id;
}

/// World position of a joint's anchor on A and on B.
inline Vec2 anchorA(const World& world, JointId j) {
    return world.worldPoint(world.jointBodyA(j), world.jointLocalAnchorA(j));
}
inline Vec2 anchorB(const World& world, JointId j) {
    return world.worldPoint(world.jointBodyB(j), world.jointLocalAnchorB(j));
}

}  // namespace carom::test
