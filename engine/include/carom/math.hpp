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
#include <limits>

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

inline bool isFinite(float x) {
    return std::isfinite(x);
}
inline bool isFinite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

inline float dot(Vec2 a, Vec2 b) {
    return a.x * b.x + a.y * b.y;
}
/// The z component of the 3D cross product of a and b.
inline float cross(Vec2 a, Vec2 b) {
    return a.x * b.y - a.y * b.x;
}
/// v × s: the vector v rotated clockwise by 90° and scaled by s.
inline Vec2 crossVS(Vec2 v, float s) {
    return {s * v.y, -s * v.x};
}
/// s × v: the vector v rotated counter-clockwise by 90° and scaled by s.
inline Vec2 crossSV(float s, Vec2 v) {
    return {-s * v.y, s * v.x};
}
/// v rotated counter-clockwise by 90°.
inline Vec2 leftPerp(Vec2 v) {
    return {-v.y, v.x};
}
/// v rotated clockwise by 90°.
inline Vec2 rightPerp(Vec2 v) {
    return {v.y, -v.x};
}
inline float lengthSquared(Vec2 v) {
    return v.x * v.x + v.y * v.y;
}
inline float length(Vec2 v) {
    return std::sqrt(v.x * v.x + v.y * v.y);
}
inline float distance(Vec2 a, Vec2 b) {
    return length(b - a);
}
inline float distanceSquared(Vec2 a, Vec2 b) {
    return lengthSquared(b - a);
}
inline Vec2 lerp(Vec2 a, Vec2 b, float t) {
    return {(1.0f - t) * a.x + t * b.x, (1.0f - t) * a.y + t * b.y};
}
inline Vec2 minVec(Vec2 a, Vec2 b) {
    return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y};
}
inline Vec2 maxVec(Vec2 a, Vec2 b) {
    return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y};
}
inline Vec2 absVec(Vec2 a) {
    return {std::fabs(a.x), std::fabs(a.y)};
}

/// The unit vector along v, or (0, 0) when v is too short to have a direction.
inline Vec2 normalizeOrZero(Vec2 v) {
    float len = length(v);
    if (len < 1.0e-12f) return {0.0f, 0.0f};
    float inv = 1.0f / len;
    return {inv * v.x, inv * v.y};
}

/// Normalises v in place and returns its former length (0 leaves v as is).
/// |v| in double precision: no float pair overflows when squared there, and
/// the result is the same bits everywhere (std::hypot's last bit is not).
inline double lengthInDouble(Vec2 v) {
    const double x = double(v.x), y = double(v.y);
    return std::sqrt(x * x + y * y);
}
inline float normalizeReturnLength(Vec2& v) {
    float len = length(v);
    if (len < 1.0e-12f) return 0.0f;
    float inv = 1.0f / len;
    v = {inv * v.x, inv * v.y};
    return len;
}

// ---- rotations -------------------------------------------------------------

// Carom's own cosine, sine and arctangent. The C library's differ in their
// last bit from one platform to the next, so every angle that reaches a
// world's state goes through these instead: the same bits on every compiler,
// CPU and C library. They work in double precision with IEEE operations
// only (add, multiply, divide, square root and exact rounding to integers;
// no contraction), which every supported target does alike, and are within
// about one float rounding (1e-7) of the true values.

/// The cosine and sine of angle (radians), as a rotation. Exact at 0; for
/// |angle| up to 1e5 within 1e-7 of the true values; beyond that the range
/// reduction in double loses digits (still the same bits everywhere).
inline Rot computeCosSin(float angle) {
    if (!std::isfinite(angle)) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        return {nan, nan};
    }
    // angle = k·π/2 + r with |r| <= π/4; π/2 in two parts (Cody and Waite),
    // so that k·(π/2) is subtracted nearly exactly.
    constexpr double kPiOver2Hi = 1.5707963267341256;     // 33 bits of π/2
    constexpr double kPiOver2Lo = 6.077100506506192e-11;  // π/2 - kPiOver2Hi
    constexpr double kTwoOverPi = 0.63661977236758134;
    const double x = double(angle);
    const double k = std::floor(x * kTwoOverPi + 0.5);
    const double r = (x - k * kPiOver2Hi) - k * kPiOver2Lo;
    const double r2 = r * r;
    // Taylor series to the 13th / 12th power: the next terms are below 1e-11.
    const double sr =
        r * (1.0 + r2 * (-1.0 / 6 +
                         r2 * (1.0 / 120 +
                               r2 * (-1.0 / 5040 +
                                     r2 * (1.0 / 362880 +
                                           r2 * (-1.0 / 39916800 + r2 * (1.0 / 6227020800.0)))))));
    const double cr =
        1.0 +
        r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 +
                                            r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800 +
                                                                      r2 * (1.0 / 479001600.0))))));
    const double q = k - 4.0 * std::floor(k * 0.25);  // the quadrant, 0..3
    if (q == 0.0) return {float(cr), float(sr)};
    if (q == 1.0) return {float(-sr), float(cr)};
    if (q == 2.0) return {float(-cr), float(-sr)};
    return {float(sr), float(-cr)};
}

/// The angle of the point (x, y) from the x axis, in [-π, π], as
/// std::atan2 defines it (signed zeros and infinities included; NaN if
/// either is NaN). Within 1e-7 of the true value.
inline float computeAtan2(float y, float x) {
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<float>::quiet_NaN();
    constexpr double kPi = 3.14159265358979323846;
    const double ax = std::fabs(double(x)), ay = std::fabs(double(y));
    double a;  // the angle in [0, π/2] of (ax, ay)
    if (ax == 0.0 && ay == 0.0) {
        a = 0.0;
    } else if (std::isinf(ax) || std::isinf(ay)) {
        a = std::isinf(ax) && std::isinf(ay) ? 0.25 * kPi : (std::isinf(ax) ? 0.0 : 0.5 * kPi);
    } else {
        const bool steep = ay > ax;
        double t = steep ? ax / ay : ay / ax;  // in [0, 1]
        // atan t = π/6 + atan((√3·t - 1)/(t + √3)) brings t to |t| <= tan(π/12).
        constexpr double kSqrt3 = 1.7320508075688772;
        constexpr double kTanPiOver12 = 0.26794919243112270;
        double base = 0.0;
        if (t > kTanPiOver12) {
            t = (kSqrt3 * t - 1.0) / (t + kSqrt3);
            base = kPi / 6.0;
        }
        const double t2 = t * t;
        // Taylor series to the 19th power: the next term is below 1e-12.
        const double at =
            t *
            (1.0 +
             t2 * (-1.0 / 3 +
                   t2 * (1.0 / 5 +
                         t2 * (-1.0 / 7 +
                               t2 * (1.0 / 9 +
                                     t2 * (-1.0 / 11 +
                                           t2 * (1.0 / 13 +
                                                 t2 * (-1.0 / 15 +
                                                       t2 * (1.0 / 17 + t2 * (-1.0 / 19))))))))));
        a = base + at;
        if (steep) a = 0.5 * kPi - a;
    }
    if (std::signbit(x)) a = kPi - a;
    return float(std::signbit(y) ? -a : a);
}

inline Rot makeRot(float angle) {
    return computeCosSin(angle);
}
/// The angle of q in [-π, π].
inline float angleOf(Rot q) {
    return computeAtan2(q.s, q.c);
}
inline bool isFinite(Rot q) {
    return std::isfinite(q.c) && std::isfinite(q.s);
}
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
inline Vec2 rotate(Rot q, Vec2 v) {
    return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y};
}
inline Vec2 invRotate(Rot q, Vec2 v) {
    return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y};
}
/// q * r: first rotate by r, then by q.
inline Rot mulRot(Rot q, Rot r) {
    return {q.c * r.c - q.s * r.s, q.s * r.c + q.c * r.s};
}
/// transpose(q) * r: the rotation from q to r.
inline Rot invMulRot(Rot q, Rot r) {
    return {q.c * r.c + q.s * r.s, q.c * r.s - q.s * r.c};
}
/// The angle from q to r in (-π, π].
inline float relativeAngle(Rot q, Rot r) {
    return angleOf(invMulRot(q, r));
}
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

inline Transform makeTransform(Vec2 p, float angle) {
    return {p, makeRot(angle)};
}
inline Vec2 transformPoint(const Transform& t, Vec2 p) {
    return rotate(t.q, p) + t.p;
}
inline Vec2 invTransformPoint(const Transform& t, Vec2 p) {
    return invRotate(t.q, p - t.p);
}
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
inline Vec2 aabbCenter(const AABB& a) {
    return 0.5f * (a.lower + a.upper);
}
inline Vec2 aabbExtents(const AABB& a) {
    return 0.5f * (a.upper - a.lower);
}

}  // namespace carom
