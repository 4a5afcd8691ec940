// Building blocks of the contact manifolds.
//
// Every manifold is computed in the local frame of shape A ("local
// manifold": normal and points in A's frame, points[i].anchorA holding the
// contact point in A's frame) and converted to world space once at the end.
// Working near A's origin keeps clipping accurate far from the world origin.
//
// Shapes with straight sides (polygons, capsules, segments) are all handled
// as "polygon-like" views: a capsule or a segment is a two-vertex polygon
// whose two edges are the segment in both directions, with normals n and -n
// (Box2D v3 does the same). A circle is a rounded point and gets the cheap
// dedicated routines.
#pragma once

#include <carom/collision.hpp>

#include "narrowphase/narrowphase.hpp"

namespace carom::detail {

inline uint16_t makeId(int a, int b) {
    return static_cast<uint16_t>((static_cast<unsigned>(a) & 0xffu) << 8 |
                                 (static_cast<unsigned>(b) & 0xffu));
}

/// A polygon-like shape: counter-clockwise vertices, outward edge normals
/// (normal i belongs to edge i -> i+1), rounding radius.
struct PolyView {
    const Vec2* v = nullptr;
    const Vec2* n = nullptr;
    int count = 0;
    float radius = 0.0f;
    Vec2 centroid{0.0f, 0.0f};
};

/// Storage for a view of a transformed shape.
struct PolyBuffer {
    Vec2 v[kMaxPolygonVertices];
    Vec2 n[kMaxPolygonVertices];
};

/// The view of a capsule core p1 -> p2 with a radius, stored in buf.
PolyView capsuleView(Vec2 p1, Vec2 p2, float radius, PolyBuffer& buf);
/// The view of a polygon-like shape (Capsule, Segment, Polygon, ChainSegment's
/// segment) placed by xf. With an identity xf and a Polygon, no copy is made.
PolyView polyView(ShapeRef s, const Transform& xf, bool identity, PolyBuffer& buf);

/// Closest points of segments p1-q1 and p2-q2 (Ericson, Real-Time Collision
/// Detection, 5.1.9); fractions are exactly 0 or 1 at the ends.
struct SegmentDistanceResult {
    Vec2 closest1{0.0f, 0.0f};
    Vec2 closest2{0.0f, 0.0f};
    float fraction1 = 0.0f;
    float fraction2 = 0.0f;
    float distanceSquared = 0.0f;
};
SegmentDistanceResult segmentDistance(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2);

/// Clip incident edge (b1 -> b2, of the other shape) against the side planes
/// of reference edge a1 -> a2 with outward normal `normal`; ra is the
/// reference radius, rb the incident one. Points separated by more than
/// kSpeculativeDistance are dropped. ids: of the lower and the upper point.
Manifold clipSegments(Vec2 a1, Vec2 a2, Vec2 b1, Vec2 b2, Vec2 normal, float ra, float rb,
                      uint16_t id1, uint16_t id2);

// ---- local manifolds (B already in A's frame) ------------------------------

Manifold collideCirclesLocal(Vec2 centerA, float radiusA, Vec2 centerB, float radiusB);
Manifold collidePolyCircleLocal(const PolyView& a, Vec2 centerB, float radiusB);
Manifold collidePolygonsLocal(const PolyView& a, const PolyView& b);
/// Two-vertex cores (capsules, segments): from exact segment closest points.
Manifold collideCapsulesLocal(Vec2 p1, Vec2 q1, float radiusA, Vec2 p2, Vec2 q2, float radiusB);
Manifold collideCapsuleCircleLocal(Vec2 p1, Vec2 q1, float radiusA, Vec2 centerB, float radiusB);
Manifold collideChainCircleLocal(const ChainSegment& a, Vec2 centerB, float radiusB);
Manifold collideChainPolyLocal(const ChainSegment& a, const PolyView& b, SimplexCache* cache);

/// A local manifold moved to world space (see the header comment).
Manifold toWorld(const Manifold& local, const Transform& xfA, const Transform& xfB);

}  // namespace carom::detail
