// Manifolds of two-vertex cores (capsules and segments) against each other
// and against circles.
//
// A two-vertex core has no area, so SAT on its two edge normals is not
// complete: two collinear (or nearly collinear) capsules lying end to end are
// separated along their common axis, which is no edge normal, and the
// polygon path would see a deep sideways overlap. These routines start from
// the exact closest points of the two segments (Ericson 5.1.9) instead:
//
//   closest points c1, c2 of the cores, d = |c2 - c1|
//   if each segment projects (partly) onto the other: try two points by
//     clipping one segment to the other's extent, the reference being the
//     segment whose normal separates better (no hysteresis here: with a
//     worse reference, the deeper end of the other segment can be clipped
//     away); keep them if one of them is at distance d (up to rounding)
//   otherwise: one point along c2 - c1
//
// (Box2D v3 b2CollideCapsules follows the same plan.)
#include <cfloat>
#include <cmath>

#include "narrowphase/src/manifold_internal.hpp"

namespace carom::detail {
namespace {

// The clipped points are kept only if one of them is as close as the true
// closest points (up to rounding). Otherwise the closest points lie outside
// the clipped range (two ends closest) and the deeper pair would be missed:
// one exact point is better than two that understate the overlap.
constexpr float kClipTolerance = 0.02f * kLinearSlop;

void addPoint(Manifold& m, Vec2 point, float separation, uint16_t id) {
    if (separation > kSpeculativeDistance) return;
    ManifoldPoint& p = m.points[m.pointCount++];
    p.anchorA = point;
    p.separation = separation;
    p.id = id;
}

// Separation of segment (p, q) from the line through origin with normal n,
// choosing the side of n that separates better.
float sideSeparation(Vec2 origin, Vec2& n, Vec2 p, Vec2 q) {
    float s1 = dot(p - origin, n);
    float s2 = dot(q - origin, n);
    float pos = s1 < s2 ? s1 : s2;
    float neg = -s1 < -s2 ? -s1 : -s2;
    if (pos > neg) return pos;
    n = -n;
    return neg;
}

// Clip segment (p, q), whose projections on the reference axis u (from
// origin, reference length len) are fp and fq, to [0, len].
void clipToExtent(Vec2& cp, Vec2& cq, Vec2 p, Vec2 q, float fp, float fq, float len) {
    cp = p;
    cq = q;
    if (fp < 0.0f && fq > 0.0f)
        cp = lerp(p, q, (0.0f - fp) / (fq - fp));
    else if (fq < 0.0f && fp > 0.0f)
        cq = lerp(q, p, (0.0f - fq) / (fp - fq));
    if (fp > len && fq < len)
        cp = lerp(p, q, (fp - len) / (fp - fq));
    else if (fq > len && fp < len)
        cq = lerp(q, p, (fq - len) / (fq - fp));
}

}  // namespace

Manifold collideCapsulesLocal(Vec2 p1, Vec2 q1, float radiusA, Vec2 p2, Vec2 q2, float radiusB) {
    Manifold m;
    SegmentDistanceResult r = segmentDistance(p1, q1, p2, q2);
    float radius = radiusA + radiusB;
    float maxDistance = radius + kSpeculativeDistance;
    if (r.distanceSquared > maxDistance * maxDistance) return m;
    float dist = std::sqrt(r.distanceSquared);

    float len1 = 0.0f, len2 = 0.0f;
    Vec2 d1 = q1 - p1, d2 = q2 - p2;
    Vec2 u1 = d1;
    Vec2 u2 = d2;
    len1 = normalizeReturnLength(u1);
    len2 = normalizeReturnLength(u2);
    if (len1 == 0.0f) u1 = Vec2{1.0f, 0.0f};
    if (len2 == 0.0f) u2 = Vec2{1.0f, 0.0f};

    float fp2 = dot(p2 - p1, u1), fq2 = dot(q2 - p1, u1);
    bool outsideA = (fp2 <= 0.0f && fq2 <= 0.0f) || (fp2 >= len1 && fq2 >= len1);
    float fp1 = dot(p1 - p2, u2), fq1 = dot(q1 - p2, u2);
    bool outsideB = (fp1 <= 0.0f && fq1 <= 0.0f) || (fp1 >= len2 && fq1 >= len2);

    if (!outsideA && !outsideB && len1 > 0.0f && len2 > 0.0f) {
        Vec2 normalA = leftPerp(u1);
        float separationA = sideSeparation(p1, normalA, p2, q2);
        Vec2 normalB = leftPerp(u2);
        float separationB = sideSeparation(p2, normalB, p1, q1);

        if (!(separationB > separationA)) {
            Vec2 cp, cq;
            clipToExtent(cp, cq, p2, q2, fp2, fq2, len1);
            float sp = dot(cp - p1, normalA);
            float sq = dot(cq - p1, normalA);
            if (sp <= dist + kClipTolerance || sq <= dist + kClipTolerance) {
                m.normal = normalA;
                addPoint(m, cp + 0.5f * (radiusA - radiusB - sp) * normalA, sp - radius,
                         makeId(0, 0));
                addPoint(m, cq + 0.5f * (radiusA - radiusB - sq) * normalA, sq - radius,
                         makeId(0, 1));
                return m;
            }
        } else {
            Vec2 cp, cq;
            clipToExtent(cp, cq, p1, q1, fp1, fq1, len2);
            float sp = dot(cp - p2, normalB);
            float sq = dot(cq - p2, normalB);
            if (sp <= dist + kClipTolerance || sq <= dist + kClipTolerance) {
                m.normal = -normalB;
                addPoint(m, cp + 0.5f * (radiusB - radiusA - sp) * normalB, sp - radius,
                         makeId(0, 0));
                addPoint(m, cq + 0.5f * (radiusB - radiusA - sq) * normalB, sq - radius,
                         makeId(1, 0));
                return m;
            }
        }
    }

    // One point between the closest points.
    Vec2 normal = r.closest2 - r.closest1;
    if (r.distanceSquared > FLT_EPSILON * FLT_EPSILON) {
        normal = normal * (1.0f / dist);
    } else {
        normal = leftPerp(u1);
    }
    Vec2 cA = r.closest1 + radiusA * normal;
    Vec2 cB = r.closest2 - radiusB * normal;
    m.normal = normal;
    addPoint(m, lerp(cA, cB, 0.5f), dist - radius,
             makeId(r.fraction1 == 0.0f ? 0 : 1, r.fraction2 == 0.0f ? 0 : 1));
    return m;
}

Manifold collideCapsuleCircleLocal(Vec2 p1, Vec2 q1, float radiusA, Vec2 c, float radiusB) {
    Manifold m;
    Vec2 e = q1 - p1;
    float s1 = dot(c - p1, e);
    float s2 = dot(q1 - c, e);
    Vec2 pA = p1;
    int feature = 0;
    if (s1 < 0.0f) {
        pA = p1;
    } else if (s2 < 0.0f) {
        pA = q1;
        feature = 1;
    } else {
        float ee = dot(e, e);
        pA = ee > 0.0f ? p1 + (s1 / ee) * e : p1;
    }
    Vec2 d = c - pA;
    float dist = length(d);
    float separation = dist - radiusA - radiusB;
    if (separation > kSpeculativeDistance) return m;
    Vec2 normal = dist > 1.0e-9f ? d * (1.0f / dist) : rightPerp(normalizeOrZero(e));
    if (normal.x == 0.0f && normal.y == 0.0f) normal = Vec2{0.0f, 1.0f};
    Vec2 cA = pA + radiusA * normal;
    Vec2 cB = c - radiusB * normal;
    m.normal = normal;
    m.points[0].anchorA = lerp(cA, cB, 0.5f);
    m.points[0].separation = separation;
    m.points[0].id = makeId(feature, 0);
    m.pointCount = 1;
    return m;
}

}  // namespace carom::detail
