// The API's rules as pure functions: no World needed.
//
// Each validate() throws carom::Error (error.hpp) when its argument breaks a
// documented rule, with field() naming the refused member as written in the
// def ("density", "center1", "linearVelocity", "massData.center", ...) and a
// message that quotes the value as given. The World runs exactly these
// functions before a creating or changing call touches anything, and the
// scene loader runs the same ones, so there is one copy of every rule. The
// ranges are the constants of <carom/limits.hpp>.
//
// What needs a world is not checked here: whether an id is live
// (ErrorCode::StaleId) and whether the call comes from inside a callback
// the world runs (Locked).
// The geometry validators (Circle, Capsule, Segment, Polygon, ChainSegment,
// ShapeGeometry) are declared in <carom/geometry.hpp>.
#pragma once

#include <carom/geometry.hpp>
#include <carom/joint.hpp>
#include <carom/limits.hpp>
#include <carom/types.hpp>

namespace carom {

void validate(const WorldDef& def);
void validate(const BodyDef& def);
/// Material and flags; the geometry is validated on its own.
void validate(const ShapeDef& def);
/// World::applyWind's medium (see Wind).
void validate(const Wind& wind);
/// Point count (2..kMaxChainPoints, 3 for a loop), points within
/// ±kMaxCoordinate, consecutive points further apart than kLinearSlop, material.
void validate(const ChainDef& def);
/// As given to World::setMassData; fields "massData.mass", "massData.center",
/// "massData.rotationalInertia".
void validate(const MassData& data);

/// Joint defs. Checks what needs no world: bodyA != bodyB, anchors, axes,
/// limits, motors, springs. Live ids are checked by World::createJoint.
void validate(const RevoluteJointDef& def);
void validate(const PrismaticJointDef& def);
void validate(const DistanceJointDef& def);
void validate(const WeldJointDef& def);
void validate(const WheelJointDef& def);
void validate(const MotorJointDef& def);
void validate(const MouseJointDef& def);
/// Gear: jointA and jointB non-null and different, ratio within the range.
/// That they are live revolute or prismatic joints is checked by World::createJoint.
void validate(const GearJointDef& def);
void validate(const PulleyJointDef& def);
void validate(const RopeJointDef& def);
void validate(const FilterJointDef& def);

/// A position or point: both components finite and within ±kMaxCoordinate.
/// The rule of BodyDef::position, shape points, poses and targets; `field`
/// names it in the Error.
void validatePosition(Vec2 p, const char* field = "position");
/// A cast's translation: both components finite and within ±kMaxDistance
/// (World::castShape, World::castMover, shapeCast).
void validateTranslation(Vec2 v, const char* field = "translation");
/// A rotation given as a (cos, sin) pair: finite and of unit length within
/// 1e-4, which every rotation makeRot returns is by a wide margin. The rule
/// that World::setTransform, the queries, <carom/collision.hpp> and the
/// scene loader apply to a rotation; `field` names it in the Error.
void validateRotation(Rot q, const char* field = "rotation");

/// World::step's arguments: timeStep in [0, kMaxTimeStep] ("timeStep"),
/// substeps in [1, kMaxSubsteps] ("substeps").
void validateStep(float timeStep, int substeps);

}  // namespace carom
