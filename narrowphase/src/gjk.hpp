// GJK distance and EPA penetration between two proxies.
//
// Both work in the local frame of shape A: B's proxy is placed by xf, the
// transform of B relative to A. Coordinates then stay near the origin of A,
// whatever the world position, which keeps the simplex arithmetic accurate
// far from the world origin.
//
// Minkowski convention: simplex points are w = wB - wA (points of B minus
// points of A). The cores overlap iff the origin lies in that difference.
#pragma once

#include <carom/collision.hpp>

#include "narrowphase/src/proxy.hpp"

namespace carom::detail {

inline constexpr int kMaxGjkIterations = 32;
inline constexpr int kMaxEpaIterations = 2 * kMaxPolygonVertices;

struct SimplexVertex {
    Vec2 wA{0.0f, 0.0f};  ///< support point of A
    Vec2 wB{0.0f, 0.0f};  ///< support point of B (in A's frame)
    Vec2 w{0.0f, 0.0f};   ///< wB - wA
    float a = 1.0f;       ///< barycentric weight of the closest point
    int indexA = 0;
    int indexB = 0;
};

struct Simplex {
    SimplexVertex v[3];
    int count = 0;
};

/// Closest points between the cores.
struct GjkOutput {
    Vec2 pointA{0.0f, 0.0f};  ///< on A's core (A frame)
    Vec2 pointB{0.0f, 0.0f};  ///< on B's core (A frame)
    Vec2 normal{1.0f, 0.0f};  ///< unit, from A's core to B's core (when apart)
    float distance = 0.0f;    ///< between the cores
    int iterations = 0;
    bool overlap = false;  ///< the cores overlap or touch (distance ~ 0)
    Simplex simplex;       ///< the final simplex (input of EPA)
};

/// GJK distance between the cores of a and b (b placed by xf in a's frame).
/// The cache (may be null) warm-starts the simplex and receives the final one.
GjkOutput gjkDistance(const Proxy& a, const Proxy& b, const Transform& xf, SimplexCache* cache);

/// Penetration of overlapping cores.
struct EpaOutput {
    Vec2 normal{1.0f, 0.0f};  ///< unit, from A to B: the direction B must move to separate
    float depth = 0.0f;       ///< core penetration depth, >= 0
    Vec2 pointA{0.0f, 0.0f};  ///< deepest core point of A (A frame)
    Vec2 pointB{0.0f, 0.0f};  ///< deepest core point of B (A frame)
    int iterations = 0;
};

/// Expanding polytope from the simplex GJK ended with (any count 1..3).
EpaOutput epaPenetration(const Proxy& a, const Proxy& b, const Transform& xf, const Simplex& s);

/// Signed distance query in A's frame (core results + radii), see DistanceResult.
DistanceResult distanceLocal(const Proxy& a, const Proxy& b, const Transform& xf,
                             SimplexCache* cache);

}  // namespace carom::detail
