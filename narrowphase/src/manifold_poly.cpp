// Manifolds between round and polygon-like shapes (see manifold_internal.hpp).
//
// Polygon against polygon follows the reference/incident edge scheme of
// Box2D (Catto, "Contact manifolds", GDC 2007; Box2D v3 manifold.c):
//
//   sA, edgeA = max over A's edge normals of the separation of B from that edge
//   sB, edgeB = the same with the roles swapped
//   if max(sA, sB) > speculative distance + radii: no contact
//   reference = the shape with the larger separation (A unless B is
//     larger by more than 0.1 slop, for coherence),
//   incident edge = the other shape's edge most anti-parallel to the
//     reference normal
//   if the cores are apart (separation > 0.1 slop):
//     closest points of the reference and incident edges; if they are two
//     vertices, the contact is vertex-vertex: one point, normal along the
//     closest points (exact for rounded corners)
//   otherwise clip the incident edge to the reference edge's side planes:
//     up to two points with separations measured along the reference normal
//
// SAT on edge normals is exact for the cores (polygons): the minimum
// translation of two convex polygons is along one of their edge normals.
// Radii are added to separations and contact points are put midway between
// the rounded surfaces.
#include <cfloat>
#include <cmath>

#include "narrowphase/src/manifold_internal.hpp"
#include "narrowphase/src/proxy.hpp"

namespace carom::detail {

PolyView capsuleView(Vec2 p1, Vec2 p2, float radius, PolyBuffer& buf) {
    buf.v[0] = p1;
    buf.v[1] = p2;
    Vec2 axis = normalizeOrZero(p2 - p1);
    if (axis.x == 0.0f && axis.y == 0.0f) axis = Vec2{1.0f, 0.0f};
    buf.n[0] = rightPerp(axis);
    buf.n[1] = -buf.n[0];
    PolyView view;
    view.v = buf.v;
    view.n = buf.n;
    view.count = 2;
    view.radius = radius;
    view.centroid = lerp(p1, p2, 0.5f);
    return view;
}

PolyView polyView(ShapeRef s, const Transform& xf, bool identity, PolyBuffer& buf) {
    switch (s.type) {
        case ShapeType::Capsule: {
            const auto& g = *static_cast<const Capsule*>(s.geometry);
            return capsuleView(transformPoint(xf, g.center1), transformPoint(xf, g.center2),
                               g.radius, buf);
        }
        case ShapeType::Segment: {
            const auto& g = *static_cast<const Segment*>(s.geometry);
            return capsuleView(transformPoint(xf, g.point1), transformPoint(xf, g.point2), 0.0f,
                               buf);
        }
        case ShapeType::ChainSegment: {
            const auto& g = *static_cast<const ChainSegment*>(s.geometry);
            return capsuleView(transformPoint(xf, g.segment.point1),
                               transformPoint(xf, g.segment.point2), 0.0f, buf);
        }
        case ShapeType::Polygon: {
            const PolygonParts g = polygonParts(s);
            PolyView view;
            view.count = g.count;
            view.radius = g.radius;
            if (identity) {
                view.v = g.vertices;
                view.n = g.normals;
                view.centroid = g.centroid;
                return view;
            }
            for (int i = 0; i < g.count; ++i) {
                buf.v[i] = transformPoint(xf, g.vertices[i]);
                buf.n[i] = rotate(xf.q, g.normals[i]);
            }
            view.v = buf.v;
            view.n = buf.n;
            view.centroid = transformPoint(xf, g.centroid);
            return view;
        }
        default:
            break;
    }
    // Circles are not polygon-like; callers never ask. A point keeps it total.
    return capsuleView(xf.p, xf.p, 0.0f, buf);
}

SegmentDistanceResult segmentDistance(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
    SegmentDistanceResult r;
    Vec2 d1 = q1 - p1;
    Vec2 d2 = q2 - p2;
    Vec2 rr = p1 - p2;
    float dd1 = dot(d1, d1);
    float dd2 = dot(d2, d2);
    float rd1 = dot(rr, d1);
    float rd2 = dot(rr, d2);
    const float epsSqr = FLT_EPSILON * FLT_EPSILON;
    auto clamp01 = [](float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); };

    if (dd1 < epsSqr || dd2 < epsSqr) {
        if (dd1 >= epsSqr) {
            r.fraction1 = clamp01(-rd1 / dd1);
            r.fraction2 = 0.0f;
        } else if (dd2 >= epsSqr) {
            r.fraction1 = 0.0f;
            r.fraction2 = clamp01(rd2 / dd2);
        }
    } else {
        float d12 = dot(d1, d2);
        float denom = dd1 * dd2 - d12 * d12;
        float f1 = 0.0f;
        if (denom != 0.0f) f1 = clamp01((d12 * rd2 - rd1 * dd2) / denom);
        float f2 = (d12 * f1 + rd2) / dd2;
        if (f2 < 0.0f) {
            f2 = 0.0f;
            f1 = clamp01(-rd1 / dd1);
        } else if (f2 > 1.0f) {
            f2 = 1.0f;
            f1 = clamp01((d12 - rd1) / dd1);
        }
        r.fraction1 = f1;
        r.fraction2 = f2;
    }
    r.closest1 = p1 + r.fraction1 * d1;
    r.closest2 = p2 + r.fraction2 * d2;
    r.distanceSquared = distanceSquared(r.closest1, r.closest2);
    return r;
}

// Side planes of the reference edge along its tangent t: the reference edge
// spans [0, upper1]; the incident edge runs opposite to t (counter-clockwise
// winding of both shapes), from upper2 (at b1) down to lower2 (at b2).
Manifold clipSegments(Vec2 a1, Vec2 a2, Vec2 b1, Vec2 b2, Vec2 normal, float ra, float rb,
                      uint16_t id1, uint16_t id2) {
    Manifold m;
    Vec2 tangent = leftPerp(normal);
    float lower1 = 0.0f;
    float upper1 = dot(a2 - a1, tangent);
    float upper2 = dot(b1 - a1, tangent);
    float lower2 = dot(b2 - a1, tangent);
    float span = upper2 - lower2;

    Vec2 vLower = b2;
    if (lower2 < lower1 && span > FLT_EPSILON) vLower = lerp(b2, b1, (lower1 - lower2) / span);
    Vec2 vUpper = b1;
    if (upper2 > upper1 && span > FLT_EPSILON) vUpper = lerp(b2, b1, (upper1 - lower2) / span);

    float sLower = dot(vLower - a1, normal);
    float sUpper = dot(vUpper - a1, normal);
    float radius = ra + rb;
    m.normal = normal;

    Vec2 pts[2] = {vLower + 0.5f * (ra - rb - sLower) * normal,
                   vUpper + 0.5f * (ra - rb - sUpper) * normal};
    float seps[2] = {sLower - radius, sUpper - radius};
    uint16_t ids[2] = {id1, id2};

    // Two clipped points closer than a tenth of the slop are one contact;
    // keep the deeper so the solver never sees a duplicated point.
    if (distanceSquared(vLower, vUpper) < (0.1f * kLinearSlop) * (0.1f * kLinearSlop)) {
        int k = seps[0] <= seps[1] ? 0 : 1;
        if (seps[k] <= kSpeculativeDistance) {
            m.points[0].anchorA = pts[k];
            m.points[0].separation = seps[k];
            m.points[0].id = ids[k];
            m.pointCount = 1;
        }
        return m;
    }
    for (int k = 0; k < 2; ++k) {
        if (seps[k] > kSpeculativeDistance) continue;
        ManifoldPoint& p = m.points[m.pointCount++];
        p.anchorA = pts[k];
        p.separation = seps[k];
        p.id = ids[k];
    }
    return m;
}

Manifold collideCirclesLocal(Vec2 centerA, float radiusA, Vec2 centerB, float radiusB) {
    Manifold m;
    Vec2 d = centerB - centerA;
    float dist = length(d);
    float separation = dist - radiusA - radiusB;
    if (separation > kSpeculativeDistance) return m;
    // Concentric circles have no preferred direction: +y, deterministically.
    Vec2 normal = dist > 1.0e-9f ? d * (1.0f / dist) : Vec2{0.0f, 1.0f};
    Vec2 cA = centerA + radiusA * normal;
    Vec2 cB = centerB - radiusB * normal;
    m.normal = normal;
    m.points[0].anchorA = lerp(cA, cB, 0.5f);
    m.points[0].separation = separation;
    m.points[0].id = 0;
    m.pointCount = 1;
    return m;
}

// The circle centre against the polygon core: the edge of largest
// separation; outside the polygon past one of that edge's vertices the
// contact is with the (rounded) vertex, otherwise with the edge.
Manifold collidePolyCircleLocal(const PolyView& a, Vec2 c, float radiusB) {
    Manifold m;
    float radius = a.radius + radiusB;
    int normalIndex = 0;
    float separation = -FLT_MAX;
    for (int i = 0; i < a.count; ++i) {
        float s = dot(a.n[i], c - a.v[i]);
        if (s > separation) {
            separation = s;
            normalIndex = i;
        }
    }
    if (separation > radius + kSpeculativeDistance) return m;

    int i1 = normalIndex;
    int i2 = i1 + 1 < a.count ? i1 + 1 : 0;
    Vec2 v1 = a.v[i1];
    Vec2 v2 = a.v[i2];
    float u1 = dot(c - v1, v2 - v1);
    float u2 = dot(c - v2, v1 - v2);

    Vec2 vertex{0.0f, 0.0f};
    int vertexIndex = -1;
    if (u1 < 0.0f && separation > FLT_EPSILON) {
        vertex = v1;
        vertexIndex = i1;
    } else if (u2 < 0.0f && separation > FLT_EPSILON) {
        vertex = v2;
        vertexIndex = i2;
    }
    if (vertexIndex >= 0) {
        Vec2 d = c - vertex;
        float dist = length(d);
        if (dist - radius > kSpeculativeDistance) return m;
        Vec2 normal = dist > 1.0e-9f ? d * (1.0f / dist) : a.n[i1];
        Vec2 cA = vertex + a.radius * normal;
        Vec2 cB = c - radiusB * normal;
        m.normal = normal;
        m.points[0].anchorA = lerp(cA, cB, 0.5f);
        m.points[0].separation = dot(cB - cA, normal);
        m.points[0].id = makeId(vertexIndex, 0);
        m.pointCount = 1;
        return m;
    }
    Vec2 normal = a.n[normalIndex];
    Vec2 cA = c + (a.radius - dot(c - v1, normal)) * normal;
    Vec2 cB = c - radiusB * normal;
    m.normal = normal;
    m.points[0].anchorA = lerp(cA, cB, 0.5f);
    m.points[0].separation = separation - radius;
    m.points[0].id = makeId(normalIndex, 0);
    m.pointCount = 1;
    return m;
}

namespace {

// For each edge normal n of p1, the deepest vertex of p2 along n is p2's
// support point along -n. As i runs counter-clockwise over p1's edges, -n
// turns counter-clockwise too, so for polygons with many vertices the
// support is hill-climbed from the previous answer: the walks add up to
// about one turn around p2, O(n1 + n2) instead of O(n1 * n2).
float findMaxSeparation(int& edgeIndex, const PolyView& p1, const PolyView& p2) {
    int best = 0;
    float maxSeparation = -FLT_MAX;
    bool climb = p2.count >= kHillClimbMinVertices;
    int support = 0;
    for (int i = 0; i < p1.count; ++i) {
        Vec2 n = p1.n[i];
        Vec2 v1 = p1.v[i];
        float si;
        if (climb) {
            support = supportHillClimb(p2.v, p2.count, -n, support);
            si = dot(n, p2.v[support] - v1);
        } else {
            si = FLT_MAX;
            for (int j = 0; j < p2.count; ++j) {
                float sij = dot(n, p2.v[j] - v1);
                if (sij < si) si = sij;
            }
        }
        if (si > maxSeparation) {
            maxSeparation = si;
            best = i;
        }
    }
    edgeIndex = best;
    return maxSeparation;
}

int incidentEdge(const PolyView& p, Vec2 referenceNormal) {
    int best = 0;
    float minDot = FLT_MAX;
    for (int i = 0; i < p.count; ++i) {
        float d = dot(referenceNormal, p.n[i]);
        if (d < minDot) {
            minDot = d;
            best = i;
        }
    }
    return best;
}

Manifold clipPolygons(const PolyView& a, const PolyView& b, int edgeA, int edgeB, bool flip) {
    int iA2 = edgeA + 1 < a.count ? edgeA + 1 : 0;
    int iB2 = edgeB + 1 < b.count ? edgeB + 1 : 0;
    if (!flip) {
        return clipSegments(a.v[edgeA], a.v[iA2], b.v[edgeB], b.v[iB2], a.n[edgeA], a.radius,
                            b.radius, makeId(edgeA, iB2), makeId(iA2, edgeB));
    }
    // B is the reference: clip A's edge, then express the result as A -> B.
    Manifold m = clipSegments(b.v[edgeB], b.v[iB2], a.v[edgeA], a.v[iA2], b.n[edgeB], b.radius,
                              a.radius, makeId(iA2, edgeB), makeId(edgeA, iB2));
    m.normal = -m.normal;
    if (m.pointCount == 2) {
        ManifoldPoint t = m.points[0];
        m.points[0] = m.points[1];
        m.points[1] = t;
    }
    return m;
}

}  // namespace

Manifold collidePolygonsLocal(const PolyView& a, const PolyView& b) {
    int edgeA = 0;
    float separationA = findMaxSeparation(edgeA, a, b);
    int edgeB = 0;
    float separationB = findMaxSeparation(edgeB, b, a);
    float radius = a.radius + b.radius;
    if (separationA > kSpeculativeDistance + radius ||
        separationB > kSpeculativeDistance + radius) {
        return Manifold{};
    }

    // B becomes the reference only when clearly better: parallel resting
    // faces have equal separations up to rounding, and flipping between
    // them from step to step would change the feature ids (and lose the
    // solver's warm start).
    bool flip = separationB > separationA + 0.1f * kLinearSlop;
    if (!flip)
        edgeB = incidentEdge(b, a.n[edgeA]);
    else
        edgeA = incidentEdge(a, b.n[edgeB]);

    if (separationA > 0.1f * kLinearSlop || separationB > 0.1f * kLinearSlop) {
        // Cores apart: the closest features are on the two chosen edges.
        int i11 = edgeA;
        int i12 = edgeA + 1 < a.count ? edgeA + 1 : 0;
        int i21 = edgeB;
        int i22 = edgeB + 1 < b.count ? edgeB + 1 : 0;
        SegmentDistanceResult r = segmentDistance(a.v[i11], a.v[i12], b.v[i21], b.v[i22]);
        bool endA = r.fraction1 == 0.0f || r.fraction1 == 1.0f;
        bool endB = r.fraction2 == 0.0f || r.fraction2 == 1.0f;
        if (endA && endB && r.distanceSquared > 0.0f) {
            // Vertex against vertex.
            int ia = r.fraction1 == 0.0f ? i11 : i12;
            int ib = r.fraction2 == 0.0f ? i21 : i22;
            float dist = std::sqrt(r.distanceSquared);
            Manifold m;
            if (dist - radius > kSpeculativeDistance) return m;
            Vec2 normal = (r.closest2 - r.closest1) * (1.0f / dist);
            Vec2 c1 = r.closest1 + a.radius * normal;
            Vec2 c2 = r.closest2 - b.radius * normal;
            m.normal = normal;
            m.points[0].anchorA = lerp(c1, c2, 0.5f);
            m.points[0].separation = dist - radius;
            m.points[0].id = makeId(ia, ib);
            m.pointCount = 1;
            return m;
        }
    }
    return clipPolygons(a, b, edgeA, edgeB, flip);
}

Manifold toWorld(const Manifold& local, const Transform& xfA, const Transform& xfB) {
    Manifold m;
    if (local.pointCount == 0) return m;
    m.normal = rotate(xfA.q, local.normal);
    m.pointCount = local.pointCount;
    Vec2 pAB = xfA.p - xfB.p;
    for (int i = 0; i < local.pointCount; ++i) {
        ManifoldPoint& p = m.points[i];
        p.anchorA = rotate(xfA.q, local.points[i].anchorA);
        p.anchorB = p.anchorA + pAB;
        p.point = xfA.p + p.anchorA;
        p.separation = local.points[i].separation;
        p.id = local.points[i].id;
    }
    return m;
}

}  // namespace carom::detail
