// Smooth, one-sided collision against chain segments.
//
// A chain is a polyline of segments, each collided separately. Naively, a
// box sliding over a flat chain catches on the inner vertices: near a
// vertex, the box's corner overlaps the end of the next segment and SAT
// reports a sideways normal (the "ghost collision"). Each chain segment
// therefore knows its neighbours' far points (ghost1, ghost2) and only
// accepts contact normals in its own part of the chain's Gauss map
// (Catto, "Ghost collisions", box2d.org 2020; Box2D v3 manifold.c):
//
//   normal1 = right perpendicular of the segment (the collision side)
//   at each end, the vertex is convex when the chain turns away from the
//   collision side there; the normals between the neighbour's normal and
//   normal1 then belong to that vertex:
//     classify(normal):
//       towards end 1 (dot(normal, edge) <= 0):
//         convex1 ? (normal beyond neighbour 0's normal ? skip : admit) : snap
//       towards end 2: the same with neighbour 2
//   skip  = the neighbour segment owns this normal: no contact here
//   admit = use the normal as is
//   snap  = concave or flat vertex: the only valid normal is normal1
//
// With a flat chain both ends are non-convex, every normal snaps to normal1
// and the box sees one continuous floor. The shape is ignored when its
// centroid is behind the segment (and behind the convex neighbours), which
// makes the chain one-sided.
#include <cfloat>

#include "narrowphase/src/gjk.hpp"
#include "narrowphase/src/manifold_internal.hpp"

namespace carom::detail {
namespace {

enum class NormalClass { Skip, Admit, Snap };

struct ChainParams {
    Vec2 edge1{1.0f, 0.0f};
    Vec2 normal0{0.0f, -1.0f};
    Vec2 normal1{0.0f, -1.0f};
    Vec2 normal2{0.0f, -1.0f};
    bool convex1 = false;
    bool convex2 = false;
};

Vec2 unitOr(Vec2 v, Vec2 fallback) {
    Vec2 u = normalizeOrZero(v);
    return (u.x == 0.0f && u.y == 0.0f) ? fallback : u;
}

ChainParams makeParams(const ChainSegment& s) {
    ChainParams p;
    Vec2 p1 = s.segment.point1;
    Vec2 p2 = s.segment.point2;
    p.edge1 = unitOr(p2 - p1, Vec2{1.0f, 0.0f});
    p.normal1 = rightPerp(p.edge1);
    // A ghost equal to its end point (open chain end) acts as a straight
    // continuation: a flat, non-convex vertex.
    Vec2 edge0 = unitOr(p1 - s.ghost1, p.edge1);
    Vec2 edge2 = unitOr(s.ghost2 - p2, p.edge1);
    constexpr float kConvexTolerance = 0.01f;  // sine of ~0.6 degrees
    p.normal0 = rightPerp(edge0);
    p.normal2 = rightPerp(edge2);
    p.convex1 = cross(edge0, p.edge1) >= kConvexTolerance;
    p.convex2 = cross(p.edge1, edge2) >= kConvexTolerance;
    return p;
}

NormalClass classify(const ChainParams& p, Vec2 normal) {
    constexpr float kSinTolerance = 0.01f;
    if (dot(normal, p.edge1) <= 0.0f) {
        if (!p.convex1) return NormalClass::Snap;
        return cross(normal, p.normal0) > kSinTolerance ? NormalClass::Skip : NormalClass::Admit;
    }
    if (!p.convex2) return NormalClass::Snap;
    return cross(p.normal2, normal) > kSinTolerance ? NormalClass::Skip : NormalClass::Admit;
}

// A manifold whose reference edge is polygon edge ib1 -> ib2 (normal nB,
// pointing from B towards the segment), clipped against the segment; the
// result is expressed from A (segment) to B.
Manifold clipAgainstPolygonEdge(const PolyView& b, int ib1, Vec2 p1, Vec2 p2) {
    int ib2 = ib1 + 1 < b.count ? ib1 + 1 : 0;
    Manifold m = clipSegments(b.v[ib1], b.v[ib2], p1, p2, b.n[ib1], b.radius, 0.0f, makeId(1, ib1),
                              makeId(0, ib2));
    m.normal = -b.n[ib1];
    if (m.pointCount == 2) {
        ManifoldPoint t = m.points[0];
        m.points[0] = m.points[1];
        m.points[1] = t;
    }
    return m;
}

}  // namespace

Manifold collideChainCircleLocal(const ChainSegment& a, Vec2 c, float radiusB) {
    Manifold m;
    Vec2 p1 = a.segment.point1;
    Vec2 p2 = a.segment.point2;
    Vec2 e = p2 - p1;
    if (dot(rightPerp(e), c - p1) < 0.0f) return m;  // one-sided

    float u = dot(e, p2 - c);
    float v = dot(e, c - p1);
    Vec2 pA{0.0f, 0.0f};
    int feature = 0;
    if (v <= 0.0f) {
        // Before point1: the previous segment owns the region past its end.
        if (dot(p1 - a.ghost1, c - p1) > 0.0f) return m;
        pA = p1;
    } else if (u <= 0.0f) {
        if (dot(a.ghost2 - p2, c - p2) > 0.0f) return m;
        pA = p2;
        feature = 1;
    } else {
        float ee = dot(e, e);
        pA = ee > 0.0f ? (u * p1 + v * p2) * (1.0f / ee) : p1;
    }
    Vec2 d = c - pA;
    float dist = length(d);
    float separation = dist - radiusB;
    if (separation > kSpeculativeDistance) return m;
    Vec2 normal = dist > 1.0e-9f ? d * (1.0f / dist) : rightPerp(unitOr(e, Vec2{1.0f, 0.0f}));
    Vec2 cB = c - radiusB * normal;
    m.normal = normal;
    m.points[0].anchorA = lerp(pA, cB, 0.5f);
    m.points[0].separation = separation;
    m.points[0].id = makeId(feature, 0);
    m.pointCount = 1;
    return m;
}

Manifold collideChainPolyLocal(const ChainSegment& a, const PolyView& b, SimplexCache* cache) {
    Manifold m;
    ChainParams sp = makeParams(a);
    Vec2 p1 = a.segment.point1;
    Vec2 p2 = a.segment.point2;
    Vec2 normal1 = sp.normal1;
    float radiusB = b.radius;

    bool behind1 = dot(normal1, b.centroid - p1) < 0.0f;
    bool behind0 = !sp.convex1 || dot(sp.normal0, b.centroid - p1) < 0.0f;
    bool behind2 = !sp.convex2 || dot(sp.normal2, b.centroid - p2) < 0.0f;
    if (behind1 && behind0 && behind2) return m;

    // GJK between the segment and B's core (both in A's frame).
    Proxy proxyA;
    proxyA.local[0] = p1;
    proxyA.local[1] = p2;
    proxyA.count = 2;
    Proxy proxyB;
    proxyB.external = b.v;
    proxyB.count = b.count;
    SimplexCache localCache;
    SimplexCache* c = cache != nullptr ? cache : &localCache;
    GjkOutput g = gjkDistance(proxyA, proxyB, Transform{}, c);
    if (g.distance > radiusB + kSpeculativeDistance) return m;

    // Normals of the neighbours as seen by this segment (concave ones snap).
    Vec2 n0 = sp.convex1 ? sp.normal0 : normal1;
    Vec2 n2 = sp.convex2 ? sp.normal2 : normal1;

    int incidentIndex = -1;   // deepest polygon vertex along normal1
    int incidentNormal = -1;  // polygon edge to clip against the segment

    if (!behind1 && g.distance > 0.1f * kLinearSlop && c->count <= 2) {
        if (c->count == 1) {
            // Vertex against vertex.
            Vec2 normal = normalizeOrZero(g.pointB - g.pointA);
            NormalClass type = classify(sp, normal);
            if (type == NormalClass::Skip) return m;
            if (type == NormalClass::Admit) {
                m.normal = normal;
                m.points[0].anchorA = g.pointA + 0.5f * (g.distance - radiusB) * normal;
                m.points[0].separation = g.distance - radiusB;
                m.points[0].id = makeId(c->indexA[0], c->indexB[0]);
                m.pointCount = 1;
                return m;
            }
            incidentIndex = c->indexB[0];
        } else {
            int ia1 = c->indexA[0], ia2 = c->indexA[1];
            int ib1 = c->indexB[0], ib2 = c->indexB[1];
            if (ia1 == ia2 && ib1 != ib2) {
                // Segment vertex against a polygon edge: the polygon normal
                // most aligned with the closest-point direction.
                Vec2 nB = g.pointA - g.pointB;
                int ib = dot(nB, b.n[ib1]) > dot(nB, b.n[ib2]) ? ib1 : ib2;
                Vec2 normalB = b.n[ib];
                NormalClass type = classify(sp, -normalB);
                if (type == NormalClass::Skip) return m;
                if (type == NormalClass::Admit) {
                    Vec2 bv = b.v[ib];
                    float d1 = dot(normalB, p1 - bv);
                    float d2 = dot(normalB, p2 - bv);
                    Vec2 nNeighbour = d1 < d2 ? n0 : n2;
                    if (dot(nNeighbour, normalB) < dot(normal1, normalB)) return m;
                    return clipAgainstPolygonEdge(b, ib, p1, p2);
                }
                incidentNormal = ib;
            } else {
                // Segment edge against polygon vertex (or parallel edges).
                float d1 = dot(normal1, b.v[ib1] - p1);
                float d2 = dot(normal1, b.v[ib2] - p2);
                incidentIndex = d1 < d2 ? ib1 : ib2;
            }
        }
    } else {
        // Overlapping (or behind): SAT restricted to admissible axes.
        float edgeSeparation = FLT_MAX;
        for (int i = 0; i < b.count; ++i) {
            float s = dot(normal1, b.v[i] - p1);
            if (s < edgeSeparation) {
                edgeSeparation = s;
                incidentIndex = i;
            }
        }
        // A convex neighbour separating better owns the contact.
        if (sp.convex1) {
            float s0 = FLT_MAX;
            for (int i = 0; i < b.count; ++i) {
                float s = dot(sp.normal0, b.v[i] - p1);
                if (s < s0) s0 = s;
            }
            if (s0 > edgeSeparation) {
                edgeSeparation = s0;
                incidentIndex = -1;
            }
        }
        if (sp.convex2) {
            float s2 = FLT_MAX;
            for (int i = 0; i < b.count; ++i) {
                float s = dot(sp.normal2, b.v[i] - p2);
                if (s < s2) s2 = s;
            }
            if (s2 > edgeSeparation) {
                edgeSeparation = s2;
                incidentIndex = -1;
            }
        }
        // Polygon edge normals, only those this segment may use.
        float polygonSeparation = -FLT_MAX;
        int referenceIndex = -1;
        for (int i = 0; i < b.count; ++i) {
            Vec2 n = b.n[i];
            if (classify(sp, -n) != NormalClass::Admit) continue;
            Vec2 p = b.v[i];
            float s1 = dot(n, p1 - p);
            float s2 = dot(n, p2 - p);
            float s = s1 < s2 ? s1 : s2;
            if (s > polygonSeparation) {
                polygonSeparation = s;
                referenceIndex = i;
            }
        }
        if (referenceIndex >= 0 && polygonSeparation > edgeSeparation) {
            Vec2 n = b.n[referenceIndex];
            Vec2 bv = b.v[referenceIndex];
            float d1 = dot(n, p1 - bv);
            float d2 = dot(n, p2 - bv);
            Vec2 nNeighbour = d1 < d2 ? n0 : n2;
            if (dot(nNeighbour, n) < dot(normal1, n)) return m;
            return clipAgainstPolygonEdge(b, referenceIndex, p1, p2);
        }
        if (incidentIndex == -1) return m;
    }

    // The segment is the reference (normal1). Incident polygon edge: the one
    // next to the deepest vertex most anti-parallel to normal1.
    int ib1 = 0;
    if (incidentNormal >= 0) {
        ib1 = incidentNormal;
    } else {
        int i2 = incidentIndex;
        int i1 = i2 > 0 ? i2 - 1 : b.count - 1;
        ib1 = dot(normal1, b.n[i1]) < dot(normal1, b.n[i2]) ? i1 : i2;
    }
    int ib2 = ib1 + 1 < b.count ? ib1 + 1 : 0;
    return clipSegments(p1, p2, b.v[ib1], b.v[ib2], normal1, 0.0f, radiusB, makeId(0, ib2),
                        makeId(1, ib1));
}

}  // namespace carom::detail
