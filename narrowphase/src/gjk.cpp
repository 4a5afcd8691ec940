// GJK distance between convex cores, after Gilbert-Johnson-Keerthi (1988) in
// the form Erin Catto presents in "Computing distance using GJK" (GDC 2010):
// the simplex is solved with barycentric coordinates (Johnson's sub-simplex
// algorithm written for 2D), the search direction for an edge is the edge's
// perpendicular (not the difference of two nearly equal closest points), and
// termination comes from a repeated support point, a lack of progress along
// the search direction, or the iteration cap.
//
//   simplex = cached support indices (or vertex 0 of each shape)
//   loop (at most kMaxGjkIterations):
//     reduce simplex to the smallest sub-simplex whose span holds the point
//       of the simplex closest to the origin (solve2 / solve3)
//     if it is a triangle: the origin is inside -> the cores overlap
//     d = direction from the simplex towards the origin
//     w = support of (B - A) along d
//     if w is already in the simplex or w does not get past the simplex
//       along d: converged
//     add w
//   closest points = barycentric combination of the simplex support points
#include "narrowphase/src/gjk.hpp"

#include <cfloat>

namespace carom::detail {
namespace {

// Below this core distance (metres) the cores count as touching: a micron,
// far below any tolerance of the solver, far above float noise of shapes
// near the origin of A's frame.
constexpr float kOverlapDistance = 1.0e-6f;

SimplexVertex makeVertex(const Proxy& a, const Proxy& b, const Transform& xf, int ia, int ib) {
    SimplexVertex v;
    v.indexA = ia;
    v.indexB = ib;
    v.wA = a.vertex(ia);
    v.wB = transformPoint(xf, b.vertex(ib));
    v.w = v.wB - v.wA;
    v.a = 1.0f;
    return v;
}

// Closest point of segment [w1, w2] to the origin, in barycentric form:
// u1 = dot(w2, e), u2 = -dot(w1, e) with e = w2 - w1. A non-positive u
// means the origin projects beyond the opposite vertex.
void solve2(Simplex& s) {
    Vec2 w1 = s.v[0].w;
    Vec2 w2 = s.v[1].w;
    Vec2 e12 = w2 - w1;
    float d12_2 = -dot(w1, e12);
    if (d12_2 <= 0.0f) {
        s.v[0].a = 1.0f;
        s.count = 1;
        return;
    }
    float d12_1 = dot(w2, e12);
    if (d12_1 <= 0.0f) {
        s.v[1].a = 1.0f;
        s.v[0] = s.v[1];
        s.count = 1;
        return;
    }
    float inv = 1.0f / (d12_1 + d12_2);
    s.v[0].a = d12_1 * inv;
    s.v[1].a = d12_2 * inv;
    s.count = 2;
}

// Voronoi regions of a triangle: vertices, then edges (with the signed area
// of the sub-triangle with the origin), else the interior. A degenerate
// (collinear) triangle has all areas zero and falls into an edge region, so
// no division by a zero area happens.
void solve3(Simplex& s) {
    Vec2 w1 = s.v[0].w;
    Vec2 w2 = s.v[1].w;
    Vec2 w3 = s.v[2].w;

    Vec2 e12 = w2 - w1;
    float d12_1 = dot(w2, e12);
    float d12_2 = -dot(w1, e12);
    Vec2 e13 = w3 - w1;
    float d13_1 = dot(w3, e13);
    float d13_2 = -dot(w1, e13);
    Vec2 e23 = w3 - w2;
    float d23_1 = dot(w3, e23);
    float d23_2 = -dot(w2, e23);

    float n123 = cross(e12, e13);
    float d123_1 = n123 * cross(w2, w3);
    float d123_2 = n123 * cross(w3, w1);
    float d123_3 = n123 * cross(w1, w2);

    if (d12_2 <= 0.0f && d13_2 <= 0.0f) {
        s.v[0].a = 1.0f;
        s.count = 1;
        return;
    }
    if (d12_1 > 0.0f && d12_2 > 0.0f && d123_3 <= 0.0f) {
        float inv = 1.0f / (d12_1 + d12_2);
        s.v[0].a = d12_1 * inv;
        s.v[1].a = d12_2 * inv;
        s.count = 2;
        return;
    }
    if (d13_1 > 0.0f && d13_2 > 0.0f && d123_2 <= 0.0f) {
        float inv = 1.0f / (d13_1 + d13_2);
        s.v[0].a = d13_1 * inv;
        s.v[2].a = d13_2 * inv;
        s.v[1] = s.v[2];
        s.count = 2;
        return;
    }
    if (d12_1 <= 0.0f && d23_2 <= 0.0f) {
        s.v[1].a = 1.0f;
        s.v[0] = s.v[1];
        s.count = 1;
        return;
    }
    if (d13_1 <= 0.0f && d23_1 <= 0.0f) {
        s.v[2].a = 1.0f;
        s.v[0] = s.v[2];
        s.count = 1;
        return;
    }
    if (d23_1 > 0.0f && d23_2 > 0.0f && d123_1 <= 0.0f) {
        float inv = 1.0f / (d23_1 + d23_2);
        s.v[1].a = d23_1 * inv;
        s.v[2].a = d23_2 * inv;
        s.v[0] = s.v[2];
        s.count = 2;
        return;
    }
    float sum = d123_1 + d123_2 + d123_3;
    float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
    s.v[0].a = d123_1 * inv;
    s.v[1].a = d123_2 * inv;
    s.v[2].a = d123_3 * inv;
    s.count = 3;
}

// Direction from the simplex towards the origin. For an edge it is the
// perpendicular on the origin's side: exact however short the edge is, where
// "minus the closest point" would lose all precision near touching.
Vec2 searchDirection(const Simplex& s) {
    if (s.count == 1) return -s.v[0].w;
    Vec2 e12 = s.v[1].w - s.v[0].w;
    float sgn = cross(e12, -s.v[0].w);
    if (sgn > 0.0f) return leftPerp(e12);
    if (sgn < 0.0f) return rightPerp(e12);
    return {0.0f, 0.0f};  // the origin is on the edge
}

bool validCache(const SimplexCache* c, const Proxy& a, const Proxy& b) {
    if (c == nullptr || c->count < 1 || c->count > 3) return false;
    for (int i = 0; i < c->count; ++i) {
        if (c->indexA[i] >= a.count || c->indexB[i] >= b.count) return false;
    }
    return true;
}

}  // namespace

GjkOutput gjkDistance(const Proxy& a, const Proxy& b, const Transform& xf, SimplexCache* cache) {
    GjkOutput out;
    Simplex& s = out.simplex;

    if (validCache(cache, a, b)) {
        s.count = cache->count;
        for (int i = 0; i < s.count; ++i) {
            s.v[i] = makeVertex(a, b, xf, cache->indexA[i], cache->indexB[i]);
        }
    } else {
        s.count = 1;
        s.v[0] = makeVertex(a, b, xf, 0, 0);
    }

    int hintA = s.v[s.count - 1].indexA;
    int hintB = s.v[s.count - 1].indexB;

    int iter = 0;
    while (iter < kMaxGjkIterations) {
        int saveA[3];
        int saveB[3];
        int saveCount = s.count;
        for (int i = 0; i < saveCount; ++i) {
            saveA[i] = s.v[i].indexA;
            saveB[i] = s.v[i].indexB;
        }

        if (s.count == 2)
            solve2(s);
        else if (s.count == 3)
            solve3(s);
        if (s.count == 3) break;

        Vec2 d = searchDirection(s);
        if (d.x == 0.0f && d.y == 0.0f) break;

        int ia = support(a, -d, hintA);
        int ib = support(b, invRotate(xf.q, d), hintB);
        hintA = ia;
        hintB = ib;
        ++iter;

        bool duplicate = false;
        for (int i = 0; i < saveCount; ++i) {
            if (saveA[i] == ia && saveB[i] == ib) {
                duplicate = true;
                break;
            }
        }
        if (duplicate) break;

        SimplexVertex nv = makeVertex(a, b, xf, ia, ib);
        // Every point of the current simplex projects to the same value on d
        // (a vertex trivially, an edge because d is its perpendicular). A new
        // point that does not get past it brings the simplex no closer.
        if (!(dot(nv.w - s.v[0].w, d) > 0.0f)) break;
        s.v[s.count] = nv;
        ++s.count;
    }
    out.iterations = iter;

    // Witness points and the normal from the final (solved) simplex.
    Vec2 normal{1.0f, 0.0f};
    switch (s.count) {
        case 1:
            out.pointA = s.v[0].wA;
            out.pointB = s.v[0].wB;
            normal = normalizeOrZero(s.v[0].w);
            break;
        case 2: {
            out.pointA = s.v[0].a * s.v[0].wA + s.v[1].a * s.v[1].wA;
            out.pointB = s.v[0].a * s.v[0].wB + s.v[1].a * s.v[1].wB;
            Vec2 e = s.v[1].w - s.v[0].w;
            Vec2 perp = normalizeOrZero(leftPerp(e));
            normal = dot(perp, s.v[0].w) >= 0.0f ? perp : -perp;
            break;
        }
        default:
            out.pointA = s.v[0].a * s.v[0].wA + s.v[1].a * s.v[1].wA + s.v[2].a * s.v[2].wA;
            out.pointB = out.pointA;
            break;
    }
    out.distance = s.count == 3 ? 0.0f : distance(out.pointA, out.pointB);
    out.overlap =
        s.count == 3 || out.distance < kOverlapDistance || (normal.x == 0.0f && normal.y == 0.0f);
    if (!out.overlap) {
        // For a separated pair the witness difference has the right direction
        // by construction; the edge perpendicular is used only when it
        // agrees (it is more precise for a short closest-point vector).
        Vec2 v = normalizeOrZero(out.pointB - out.pointA);
        if (s.count == 1 || dot(v, normal) < 0.99f) normal = v;
        out.normal = normal;
    }

    if (cache != nullptr) {
        cache->count = static_cast<uint16_t>(s.count);
        for (int i = 0; i < s.count; ++i) {
            cache->indexA[i] = static_cast<uint8_t>(s.v[i].indexA);
            cache->indexB[i] = static_cast<uint8_t>(s.v[i].indexB);
        }
    }
    return out;
}

DistanceResult distanceLocal(const Proxy& a, const Proxy& b, const Transform& xf,
                             SimplexCache* cache) {
    DistanceResult r;
    GjkOutput g = gjkDistance(a, b, xf, cache);
    r.iterations = g.iterations;
    float radius = a.radius + b.radius;
    if (!g.overlap) {
        Vec2 n = g.normal;
        float signedDistance = g.distance - radius;
        r.normal = n;
        r.pointA = g.pointA + a.radius * n;
        r.pointB = g.pointB - b.radius * n;
        r.distance = signedDistance > 0.0f ? signedDistance : 0.0f;
        r.overlap = signedDistance < 0.0f;
        r.depth = signedDistance < 0.0f ? -signedDistance : 0.0f;
        return r;
    }
    EpaOutput e = epaPenetration(a, b, xf, g.simplex);
    r.iterations += e.iterations;
    r.normal = e.normal;
    r.pointA = e.pointA + a.radius * e.normal;
    r.pointB = e.pointB - b.radius * e.normal;
    r.distance = 0.0f;
    r.overlap = true;
    r.depth = e.depth + radius;
    return r;
}

}  // namespace carom::detail
