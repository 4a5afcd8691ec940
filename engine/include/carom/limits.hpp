// Every range the API accepts, as a named constant. The validate() functions
// (<carom/validate.hpp>) check these, the World runs those functions before it
// changes anything, and the scene loader runs the same ones: this file is the
// one place a range is written down (docs/robustness.md has the table).
//
// The ranges are chosen so that whatever is accepted can be simulated without
// overflow to inf or NaN, with wide margins:
// - every shape point lies within kMaxCoordinate of its body origin plus a
//   radius of at most kMaxShapeRadius, and a body origin stays within
//   kMaxCoordinate (World::step stops a body there): a shape's box is then
//   within ~4e6 m, far inside what the broadphase takes (1e15);
// - density × area × extent² (a shape's rotational inertia) stays below
//   ~1e32 kg·m² at kMaxDensity, and above ~1e-18 at kMinDensity and the
//   smallest round shape, so 1/mass and 1/inertia are finite;
// - speeds, rates, stiffnesses and forces are bounded so that one step
//   (at most kMaxTimeStep) multiplies finite numbers into finite numbers.
#pragma once

#include <cstddef>

#include <carom/constants.hpp>

namespace carom {

// ---- positions and sizes -------------------------------------------------

/// Largest coordinate accepted anywhere (positions, local points, anchors,
/// chain points, targets, centres of mass), metres, per component. A body
/// whose origin would leave ±kMaxCoordinate during a step is stopped at the
/// bound (see World::step and Counters::boundedBodies).
inline constexpr float kMaxCoordinate = kHuge;  // 1e6 m

/// Largest distance the API takes, metres: across the world, the farthest
/// two points within ±kMaxCoordinate can be on one axis. An explosion's
/// radius and falloff (World::explode), a mover cast's translation
/// components (World::castMover).
inline constexpr float kMaxDistance = 2.0f * kMaxCoordinate;  // 2e6 m

/// Largest shape radius (circle, capsule, polygon rounding), metres.
inline constexpr float kMaxShapeRadius = 1.0e6f;
/// Smallest circle or capsule radius, metres: a millimetre, a fifth of the
/// collision slop. Smaller round shapes have a mass and inertia that float
/// cannot invert reliably.
inline constexpr float kMinShapeRadius = 1.0e-3f;

/// Largest length a joint works with (distance joint length and limits,
/// prismatic and wheel translation limits, local anchor and motor offset
/// components), metres: two points within ±kMaxCoordinate of two body origins
/// within ±kMaxCoordinate are closer than this.
inline constexpr float kMaxJointLength = 1.0e7f;

/// Gear and pulley ratios: |ratio| within [kMinJointRatio, kMaxJointRatio].
/// The ratio multiplies a coordinate and, squared, a body's inverse mass in
/// the constraint's effective mass; a thousandfold either way keeps both far
/// from overflow and the constraint from leaving one side with no say.
inline constexpr float kMinJointRatio = 1.0e-3f;
inline constexpr float kMaxJointRatio = 1.0e3f;

// ---- material and mass ------------------------------------------------------

/// Shape density, kg/m²: 0 (no mass) or within [kMinDensity, kMaxDensity].
inline constexpr float kMinDensity = 1.0e-6f;
inline constexpr float kMaxDensity = 1.0e6f;
/// Largest friction, restitution and rolling resistance coefficient.
inline constexpr float kMaxMaterialCoefficient = 1.0e3f;

/// Mass given with World::setMassData, kg.
inline constexpr float kMinMass = 1.0e-12f;
inline constexpr float kMaxMass = 1.0e20f;
/// Rotational inertia given with World::setMassData, kg·m²: 0 (no rotation)
/// or within [kMinRotationalInertia, kMaxRotationalInertia].
inline constexpr float kMinRotationalInertia = 1.0e-24f;
inline constexpr float kMaxRotationalInertia = 1.0e34f;

// ---- motion ----------------------------------------------------------------

/// Largest linear speed given to a body (velocity, motor speed of a prismatic
/// joint, WorldDef::maxLinearSpeed and speed thresholds), m/s.
inline constexpr float kMaxLinearSpeed = 1.0e5f;
/// Largest angular speed given to a body or a revolute or wheel motor, rad/s.
inline constexpr float kMaxAngularSpeed = 1.0e5f;
/// Largest gravity component, m/s².
inline constexpr float kMaxGravity = 1.0e5f;
/// Largest |gravity scale| of a body.
inline constexpr float kMaxGravityScale = 1.0e3f;
/// Largest damping (linear, angular; 1/s).
inline constexpr float kMaxDamping = 1.0e6f;
/// Largest force, torque, impulse or angular impulse component the API takes
/// (N, N·m, N·s). A joint's max force or torque is only a clamp and may be any
/// finite value >= 0 (3.4e38 reads as "unlimited"); the joint stores a value
/// above kMaxForce as kMaxForce. The weight of the
/// heaviest body (kMaxMass × kMaxGravity) fits; on the lightest body
/// (kMinMass) it still gives a finite acceleration. Forces accumulated
/// between steps are kept within it too.
inline constexpr float kMaxForce = 1.0e25f;

// ---- solver settings -----------------------------------------------------

/// Largest stiffness of any spring or soft constraint (WorldDef contact and
/// joint hertz, joint spring hertz), Hz.
inline constexpr float kMaxHertz = 1.0e6f;
/// Largest damping ratio of any spring or soft constraint.
inline constexpr float kMaxDampingRatio = 1.0e6f;
/// Largest time step, seconds (a step of 0 only refreshes contacts).
inline constexpr float kMaxTimeStep = 1.0f;
/// WorldDef::contactReuseDistance, metres: within [0, kMaxContactReuseDistance].
/// A manifold kept over a metre of relative motion would be a guess, not a
/// contact (Box2D v3 uses 0.05 m).
inline constexpr float kMaxContactReuseDistance = 1.0f;
/// Longest step the world takes in one go, seconds. World::step(dt) with a
/// longer dt (a game that hitches and calls step(0.5)) runs
/// ceil(dt / kMaxStepPart) equal full steps (collision, solver with its
/// substeps, continuous collision each time) with the events of all of them;
/// at 1/60 s or 1/30 s nothing changes. docs/solver.md, "Long steps".
inline constexpr float kMaxStepPart = 1.0f / 30.0f;

// ---- counts ----------------------------------------------------------------

/// Most solver substeps per step.
inline constexpr int kMaxSubsteps = 256;
/// Most worker threads.
inline constexpr int kMaxWorkers = 256;
/// Most contact relax passes per substep (WorldDef::tuning.contactRelaxPasses).
inline constexpr int kMaxContactRelaxPasses = 8;
/// Most points in one chain (creating and destroying one takes linear time).
inline constexpr std::size_t kMaxChainPoints = 100000;
/// Most vertices of a polygon: kMaxPolygonVertices (constants.hpp).
/// Longest body name (BodyDef::name, World::setName), bytes.
inline constexpr std::size_t kMaxBodyNameLength = 255;

}  // namespace carom
