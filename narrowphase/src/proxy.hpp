// Support-function view of a shape, the only thing GJK, EPA, shape cast and
// time of impact need to know about geometry.
//
// Every Carom shape is a convex "core" (a point, a segment or a convex
// polygon) rounded by a radius: a circle is a rounded point, a capsule a
// rounded segment, a polygon may carry rounded corners. The algorithms work
// on the cores only and add the radii at the end, which makes rounded shapes
// exact (no polygonal approximation of the round parts) and keeps GJK away
// from curved boundaries, where it would only converge asymptotically.
//
// A Proxy holds up to two core vertices inline (circle, capsule, segment,
// chain segment) or points at a Polygon's vertex array: it is copy-safe and
// never copies the 64-vertex array.
//
// Support points on polygons with many vertices are found by hill climbing:
// the function i -> dot(v[i], d) on a convex polygon is unimodal around the
// ring, so from any start we walk towards the increasing neighbour until
// neither neighbour is better. Started from the answer of the previous query
// (GJK keeps support indices in the per-pair SimplexCache, and successive
// GJK directions rotate only a little), the walk takes O(1) steps instead of
// the O(n) of a full scan. bench/narrowphase shows where this pays
// (kHillClimbMinVertices).
#pragma once

#include <carom/geometry.hpp>
#include <carom/math.hpp>

#include "narrowphase/narrowphase.hpp"

namespace carom::detail {

/// Polygons with at least this many vertices use hill climbing for support
/// points; smaller ones scan (a scan of a few vertices has no branches to
/// mispredict and beats the walk). Chosen from bench/narrowphase: at 4
/// vertices the scan is faster, from 8 on the walk wins even from a random
/// start, and from a coherent start it costs the same at any size.
inline constexpr int kHillClimbMinVertices = 8;

struct Proxy {
    Vec2 local[2] = {Vec2{0.0f, 0.0f}, Vec2{0.0f, 0.0f}};  ///< inline core for count <= 2
    const Vec2* external = nullptr;  ///< polygon vertices, or null when inline
    int count = 0;
    float radius = 0.0f;

    const Vec2* data() const { return external != nullptr ? external : local; }
    Vec2 vertex(int i) const { return data()[i]; }
};

/// The proxy of a shape (core and radius, in the shape's local frame).
Proxy makeProxy(ShapeRef s);

/// Index of the vertex of v[0..n) furthest along d, by scanning.
int supportScan(const Vec2* v, int n, Vec2 d);
/// The same by hill climbing from start (any index in range).
int supportHillClimb(const Vec2* v, int n, Vec2 d, int start);

/// Support index of a proxy along d (local frame), from a start hint.
inline int support(const Proxy& p, Vec2 d, int start) {
    if (p.count >= kHillClimbMinVertices) return supportHillClimb(p.data(), p.count, d, start);
    return supportScan(p.data(), p.count, d);
}

/// A representative interior point of the shape's core (local frame).
Vec2 proxyCenter(const Proxy& p);

}  // namespace carom::detail
