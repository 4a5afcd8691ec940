// Narrowphase queries on pairs of shapes: distance (GJK), penetration (EPA),
// contact manifolds, shape casts and time of impact (conservative
// advancement). The World uses the same functions internally; they are
// public so that tools and tests can ask the geometry questions directly.
// Each refuses bad input with carom::Error naming the argument as written
// here ("xfA.q", "sweepB.c1", "maxFraction", or the geometry's member):
// geometry that validate() refuses, a position beyond ±kMaxCoordinate, a
// rotation that is not a unit (cos, sin) pair, a translation beyond
// ±kMaxDistance.
#pragma once

#include <cstdint>

#include <carom/geometry.hpp>
#include <carom/math.hpp>

namespace carom {

/// Warm-start state for GJK between two shapes: the support indices of the
/// last simplex. Keep one per pair across steps; zero-initialised is "empty".
struct SimplexCache {
    uint16_t count = 0;
    uint8_t indexA[3] = {0, 0, 0};
    uint8_t indexB[3] = {0, 0, 0};
};

/// Signed distance between two shapes' rounded surfaces.
struct DistanceResult {
    float distance = 0.0f;  ///< >= 0, between the rounded surfaces; 0 when overlapping
    bool overlap = false;   ///< the shapes overlap (distance 0 and depth > 0, or touching cores)
    float depth = 0.0f;     ///< penetration depth when overlapping, else 0
    Vec2 normal{1.0f,
                0.0f};  ///< unit, from A to B (for overlap: the minimum translation direction of B)
    Vec2 pointA{0.0f, 0.0f};  ///< closest (or deepest) point on A, world
    Vec2 pointB{0.0f, 0.0f};  ///< closest (or deepest) point on B, world
    int iterations = 0;       ///< GJK (+ EPA) iterations
};

/// Distance between a and b placed at xfA and xfB. cache may be null.
[[nodiscard]] DistanceResult shapeDistance(const ShapeGeometry& a, const Transform& xfA,
                                           const ShapeGeometry& b, const Transform& xfB,
                                           SimplexCache* cache = nullptr);

/// One contact point of a manifold.
struct ManifoldPoint {
    Vec2 point{0.0f, 0.0f};      ///< world point, midway between the surfaces
    Vec2 anchorA{0.0f, 0.0f};    ///< point relative to A's origin (world orientation)
    Vec2 anchorB{0.0f, 0.0f};    ///< point relative to B's origin (world orientation)
    float separation = 0.0f;     ///< negative when overlapping, metres
    float normalImpulse = 0.0f;  ///< solver state, carried over by id (warm start)
    float tangentImpulse = 0.0f;
    float totalNormalImpulse = 0.0f;
    float normalVelocity = 0.0f;  ///< relative normal velocity before solving
    uint16_t id = 0;              ///< feature id: same features touching → same id
    bool persisted = false;       ///< matched a point of the previous manifold
};

/// Up to two contact points sharing a normal. Points are kept while the
/// shapes are within kSpeculativeDistance (speculative contacts).
struct Manifold {
    Vec2 normal{0.0f, 0.0f};  ///< unit, from A to B
    float rollingImpulse = 0.0f;
    ManifoldPoint points[2]{};
    int pointCount = 0;
};

/// The contact manifold between a and b placed at xfA and xfB.
[[nodiscard]] Manifold collide(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                               const Transform& xfB, SimplexCache* cache = nullptr);

/// Motion of a body over a step for time of impact: the centre of mass moves
/// linearly from c1 to c2 while the rotation goes from q1 to q2.
struct Sweep {
    Vec2 localCenter{0.0f, 0.0f};  ///< centre of mass in the body frame
    Vec2 c1{0.0f, 0.0f};           ///< centre at t = 0, world
    Vec2 c2{0.0f, 0.0f};           ///< centre at t = 1, world
    Rot q1{};
    Rot q2{};
};

/// The transform of a body at fraction t of its sweep (angle interpolated linearly).
[[nodiscard]] Transform sweepTransform(const Sweep& sweep, float t);

enum class ToiState : uint8_t { Unknown, Failed, Overlapped, Hit, Separated };

struct ToiResult {
    ToiState state = ToiState::Unknown;
    float t = 1.0f;  ///< fraction of the sweep at the hit (or tMax)
    int iterations = 0;
};

/// Time of impact by conservative advancement: the first t in [0, tMax] at
/// which a and b, moving along their sweeps, come within `target` of touching
/// (default kLinearSlop), never later than first contact.
[[nodiscard]] ToiResult timeOfImpact(const ShapeGeometry& a, const Sweep& sweepA,
                                     const ShapeGeometry& b, const Sweep& sweepB, float tMax = 1.0f,
                                     float target = kLinearSlop);

/// Sweeps b (at xfB) along translationB against a (at xfA). The result is in world frame;
/// fraction is the fraction of translationB at first contact.
[[nodiscard]] CastOutput shapeCast(const ShapeGeometry& a, const Transform& xfA,
                                   const ShapeGeometry& b, const Transform& xfB, Vec2 translationB,
                                   float maxFraction = 1.0f);

}  // namespace carom
