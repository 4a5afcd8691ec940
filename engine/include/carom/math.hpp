// Carom math: 2D vectors, rotations, transforms and axis-aligned boxes.
//
// Vectors are GLM's glm::vec2. GLM does not zero a default-constructed
// vector, so every Vec2 in Carom is written with an initialiser.
//
// A rotation is stored as its cosine and sine, never as an angle: composing,
// applying and integrating rotations then needs no trigonometry, and the
// solver can nudge a rotation by a small angle and re-normalise it
// (Box2D v3 does the same). Angles appear only at the API edge.
#pragma once

#include <cmath>
#include <cstdint>

#include <glm/vec2.hpp>

namespace carom {

using Vec2 = glm::vec2;

inline constexpr float kPi = 3.14159265358979323846f;

/// A rotation as (cos, sin). The identity is (1, 0).
struct Rot {
    float c = 1.0f;  ///< cosine of the angle
    float s = 0.0f;  ///< sine of the angle
};

/// A rigid transform: rotate, then translate by p.
struct Transform {
    Vec2 p{0.0f, 0.0f};  ///< translation, metres
    Rot q{};             ///< rotation
};

/// An axis-aligned bounding box.
struct AABB {
    Vec2 lower{0.0f, 0.0f};
    Vec2 upper{0.0f, 0.0f};
};

// ---- scalars and vectors -------------------------------------------------

inline bool isFinite(float x) { return std::isfinite(x); }
inline bool isFinite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

inline float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
/// The z component of the 3D cross product of a and b.
inline float cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
/// v × s: the vector v rotated clockwise by 90° and scaled by s.
inline Vec2 crossVS(Vec2 v, float s) { return {s * v.y, -s * v.x}; }
/// s × v: the vector v rotated counter-clockwise by 90° and scaled by s.
inline Vec2 crossSV(float s, Vec2 v) { return {-s * v.y, s * v.x}; }
/// v rotated counter-clockwise by 90°.
inline Vec2 leftPerp(Vec2 v) { return {-v.y, v.x}; }
/// v rotated clockwise by 90°.
inline Vec2 rightPerp(Vec2 v) { return {v.y, -v.x}; }
inline float lengthSquared(Vec2 v) { return v.x * v.x + v.y * v.y; }
inline float length(Vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }
inline float distance(Vec2 a, Vec2 b) { return length(b - a); }
inline float distanceSquared(Vec2 a, Vec2 b) { return lengthSquared(b - a); }
inline Vec2 lerp(Vec2 a, Vec2 b, float t) { return {(1.0f - t) * a.x + t * b.x, (1.0f - t) * a.y + t * b.y}; }
inline Vec2 minVec(Vec2 a, Vec2 b) { return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y}; }
inline Vec2 maxVec(Vec2 a, Vec2 b) { return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y}; }
inline Vec2 absVec(Vec2 a) { return {std::fabs(a.x), std::fabs(a.y)}; }

/// The unit vector along v, or (0, 0) when v is too short to have a direction.
inline Vec2 normalizeOrZero(Vec2 v) {
    float len = length(v);
    if (len < 1.0e-12f) return {0.0f, 0.0f};
    float inv = 1.0f / len;
    return {inv * v.x, inv * v.y};
}

/// Normalises v in place and returns its former length (0 leaves v as is).
inline float normalizeReturnLength(Vec2& v) {
    float len = length(v);
    if (len < 1.0e-12f) return 0.0f;
    float inv = 1.0f / len;
    v = {inv * v.x, inv * v.y};
    return len;
}

// ---- rotations -------------------------------------------------------------

inline Rot makeRot(float angle) { return {std::cos(angle), std::sin(angle)}; }
/// The angle of q in (-π, π].
inline float angleOf(Rot q) { return std::atan2(q.s, q.c); }
inline bool isFinite(Rot q) { return std::isfinite(q.c) && std::isfinite(q.s); }
/// q normalised to unit length (identity when q is degenerate).
inline Rot normalizeRot(Rot q) {
    float mag = std::sqrt(q.c * q.c + q.s * q.s);
    if (mag < 1.0e-12f) return {};
    float inv = 1.0f / mag;
    return {q.c * inv, q.s * inv};
}
/// q advanced by a small angle, re-normalised: cheap and accurate for the
/// small per-substep angles the solver uses.
inline Rot integrateRot(Rot q, float deltaAngle) {
    return normalizeRot({q.c - deltaAngle * q.s, q.s + deltaAngle * q.c});
}
inline Vec2 rotate(Rot q, Vec2 v) { return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y}; }
inline Vec2 invRotate(Rot q, Vec2 v) { return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y}; }
/// q * r: first rotate by r, then by q.
inline Rot mulRot(Rot q, Rot r) { return {q.c * r.c - q.s * r.s, q.s * r.c + q.c * r.s}; }
/// transpose(q) * r: the rotation from q to r.
inline Rot invMulRot(Rot q, Rot r) { return {q.c * r.c + q.s * r.s, q.c * r.s - q.s * r.c}; }
/// The angle from q to r in (-π, π].
inline float relativeAngle(Rot q, Rot r) { return angleOf(invMulRot(q, r)); }
/// Normalised linear interpolation between two rotations.
inline Rot nlerpRot(Rot q, Rot r, float t) {
    float u = 1.0f - t;
    return normalizeRot({u * q.c + t * r.c, u * q.s + t * r.s});
}
/// An angle wrapped into (-π, π].
inline float unwindAngle(float a) {
    if (a > kPi) return a - 2.0f * kPi * std::ceil((a - kPi) / (2.0f * kPi));
    if (a <= -kPi) return a + 2.0f * kPi * std::ceil((-kPi - a) / (2.0f * kPi) + 1e-7f);
    return a;
}

// ---- transforms ------------------------------------------------------------

inline Transform makeTransform(Vec2 p, float angle) { return {p, makeRot(angle)}; }
inline Vec2 transformPoint(const Transform& t, Vec2 p) { return rotate(t.q, p) + t.p; }
inline Vec2 invTransformPoint(const Transform& t, Vec2 p) { return invRotate(t.q, p - t.p); }
/// a * b: apply b, then a.
inline Transform mulTransforms(const Transform& a, const Transform& b) {
    return {rotate(a.q, b.p) + a.p, mulRot(a.q, b.q)};
}
/// inverse(a) * b: b expressed in a's frame.
inline Transform invMulTransforms(const Transform& a, const Transform& b) {
    return {invRotate(a.q, b.p - a.p), invMulRot(a.q, b.q)};
}

// ---- boxes -----------------------------------------------------------------

inline bool isValid(const AABB& b) {
    return isFinite(b.lower) && isFinite(b.upper) && b.lower.x <= b.upper.x &&
           b.lower.y <= b.upper.y;
}
inline AABB aabbUnion(const AABB& a, const AABB& b) {
    return {minVec(a.lower, b.lower), maxVec(a.upper, b.upper)};
}
inline bool aabbOverlaps(const AABB& a, const AABB& b) {
    return !(b.lower.x > a.upper.x || b.lower.y > a.upper.y || a.lower.x > b.upper.x ||
             a.lower.y > b.upper.y);
}
/// True when a contains b entirely.
inline bool aabbContains(const AABB& a, const AABB& b) {
    return a.lower.x <= b.lower.x && a.lower.y <= b.lower.y && b.upper.x <= a.upper.x &&
           b.upper.y <= a.upper.y;
}
inline float aabbPerimeter(const AABB& a) {
    return 2.0f * ((a.upper.x - a.lower.x) + (a.upper.y - a.lower.y));
}
inline Vec2 aabbCenter(const AABB& a) { return 0.5f * (a.lower + a.upper); }
inline Vec2 aabbExtents(const AABB& a) { return 0.5f * (a.upper - a.lower); }

}  // namespace carom
