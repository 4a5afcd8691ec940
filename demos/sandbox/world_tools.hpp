// What the sandbox's tools do to a World, without a window: spawn a body at
// a point, fire a bullet, grab a body with a mouse joint. The SDL sandbox
// (tools.cpp) and the browser sandbox (demos/web) both call these.
#pragma once

#include <carom/world.hpp>

#include "camera.hpp"
#include "controls.hpp"

namespace carom::sandbox {

/// Creates a dynamic body with one shape (a box, circle or capsule after
/// kind; Tool::SpawnBox for anything else) at a world point, sized for a
/// view viewHeight metres high.
BodyId spawnBody(World& world, Tool kind, Vec2 at, float viewHeight);
/// Fires a fast bullet from the upper left of the camera's view towards a
/// world point.
BodyId fireBullet(World& world, const Camera& camera, Vec2 target);
/// Grabs the first dynamic body under world point p with a mouse joint
/// (its target then follows World::setMouseTarget) whose other body is
/// `ground` (a static body created here when null or gone). Returns the
/// joint, or a null id when no dynamic body is under p; grabbed is set to
/// the body.
JointId grabBody(World& world, Vec2 p, BodyId& ground, BodyId& grabbed);

}  // namespace carom::sandbox
