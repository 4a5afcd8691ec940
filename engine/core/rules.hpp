// The primitive rules behind <carom/validate.hpp>, shared with the World's
// setters so that a value is judged the same way whether it arrives in a def
// or through a setter (setLinearVelocity runs the rule of
// BodyDef::linearVelocity). Each throws carom::Error(InvalidArgument) with
// the field named and the value quoted as given.
#pragma once

#include <string>
#include <string_view>

#include <carom/error.hpp>
#include <carom/limits.hpp>
#include <carom/math.hpp>
#include <carom/types.hpp>

namespace carom::detail {

/// The shortest decimal that reads back as exactly x ("1e-07", "0.1", "3e+38").
std::string formatFloat(float x);
/// "[x, y]" with formatFloat.
std::string formatVec(Vec2 v);

[[noreturn]] void refuse(const std::string& field, const std::string& rule, const std::string& got,
                         ErrorCode code = ErrorCode::InvalidArgument);
/// A refusal that is not about one value's range (two values together).
[[noreturn]] void refuseWhy(const std::string& field, const std::string& message,
                            ErrorCode code = ErrorCode::InvalidArgument);

void requireFinite(float x, const char* field);
void requireFinite(Vec2 v, const char* field);
/// Finite and >= 0.
void requireNonNegative(float x, const char* field);
/// Finite and within [lo, hi]; `unit` (may be empty) is printed after the range.
void requireRange(float x, float lo, float hi, const char* field, const char* unit = "");
/// 0 or within [lo, hi].
void requireZeroOrRange(float x, float lo, float hi, const char* field, const char* unit = "");
/// Both components finite and within ±bound.
void requireBox(Vec2 v, float bound, const char* field, const char* unit = "m");
/// A point: both components within ±kMaxCoordinate metres.
inline void requireCoordinate(Vec2 v, const char* field) {
    requireBox(v, kMaxCoordinate, field);
}
/// A velocity: finite with length <= kMaxLinearSpeed.
void requireLinearVelocity(Vec2 v, const char* field);
inline void requireAngularVelocity(float w, const char* field) {
    requireRange(w, -kMaxAngularSpeed, kMaxAngularSpeed, field, " rad/s");
}
/// A force, impulse, torque or angular impulse component: |x| <= kMaxForce.
inline void requireForce(float x, const char* field) {
    requireRange(x, -kMaxForce, kMaxForce, field);
}
inline void requireForce(Vec2 v, const char* field) {
    requireBox(v, kMaxForce, field, "");
}
/// How far from 1 the length of a unit vector or (cos, sin) pair may be.
/// makeRot, normalizeRot and products of a few such rotations are within a
/// few float roundings (about 1e-7) of unit length; 1e-4 leaves them a
/// thousandfold margin and still refuses a pair that is not a rotation (an
/// unnormalised direction, an angle in degrees): a rotation 1e-4 off unit
/// scales the shape it turns by 1e-4, a tenth of a millimetre on a metre.
inline constexpr double kUnitTolerance = 1.0e-4;
/// Finite, with a length (in double) within kUnitTolerance of 1.
bool isUnitVector(Vec2 v);
inline bool isUnitRotation(Rot q) {
    return isUnitVector({q.c, q.s});
}
/// A unit (cos, sin) pair: isUnitRotation.
void requireRotation(Rot q, const char* field);
/// A direction (a joint axis): finite, within ±kMaxCoordinate (its length
/// must not overflow), not zero; any length.
void requireAxis(Vec2 axis, const char* field);
/// A pose: position by requireCoordinate ("<field>.p"), rotation by
/// requireRotation ("<field>.q").
void requirePose(const Transform& xf, const std::string& field);
/// A translation (a cast's sweep): both components within ±kMaxDistance.
inline void requireCastTranslation(Vec2 v, const char* field) {
    requireBox(v, kMaxDistance, field);
}
/// A box: finite and ordered (lower <= upper).
void requireAABB(const AABB& box, const char* field);
/// An id's object is gone (or the id is null): StaleId naming the argument.
[[noreturn]] void refuseStale(const char* field, const char* kind);
/// Shape material members (density, friction, restitution, rolling resistance).
void requireDensity(float x, const char* field);
void requireCoefficient(float x, const char* field);
void requireGravity(Vec2 g, const char* field);
inline void requireGravityScale(float x, const char* field) {
    requireRange(x, -kMaxGravityScale, kMaxGravityScale, field);
}
inline void requireDamping(float x, const char* field) {
    requireRange(x, 0.0f, kMaxDamping, field, " 1/s");
}
/// A spring or soft constraint: hertz within [0, kMaxHertz], ratio within [0, kMaxDampingRatio].
void requireSpring(float hertz, float ratio, const char* hertzField, const char* ratioField);
/// A speed threshold or push-out speed: within [0, kMaxLinearSpeed] m/s.
inline void requireSpeedThreshold(float x, const char* field) {
    requireRange(x, 0.0f, kMaxLinearSpeed, field, " m/s");
}
/// WorldDef::maxLinearSpeed: > 0 and at most kMaxLinearSpeed m/s.
void requireMaxLinearSpeed(float x, const char* field);
/// A surface speed (ShapeDef::tangentSpeed): within ±kMaxLinearSpeed m/s.
inline void requireTangentSpeed(float x, const char* field) {
    requireRange(x, -kMaxLinearSpeed, kMaxLinearSpeed, field, " m/s");
}
/// One of the enumerators of the mixing rules.
void requireFrictionMixing(FrictionMixing m, const char* field);
void requireRestitutionMixing(RestitutionMixing m, const char* field);
/// A body name: at most kMaxBodyNameLength bytes, no NUL byte.
void requireBodyName(std::string_view name, const char* field);
/// WorldDef::contactReuseDistance: within [0, kMaxContactReuseDistance] metres.
inline void requireContactReuseDistance(float x, const char* field) {
    requireRange(x, 0.0f, kMaxContactReuseDistance, field, " m");
}
inline void requireWorkerCount(int n, const char* field) {
    if (n < 1 || n > kMaxWorkers)
        refuse(field, "within [1, " + std::to_string(kMaxWorkers) + "]", std::to_string(n));
}

}  // namespace carom::detail
