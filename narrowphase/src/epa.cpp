// Expanding Polytope Algorithm (van den Bergen, "Collision Detection in
// Interactive 3D Environments", 2003, section 4.3.8), in 2D, where the
// polytope is a convex polygon inside the Minkowski difference M = B - A
// that contains the origin.
//
//   polytope = GJK's final simplex, inflated to a polygon with area
//   loop (at most kMaxEpaIterations):
//     e = polytope edge closest to the origin, outward normal n, distance d
//     w = support of M along n
//     if dot(n, w) - d <= tolerance: e lies on the boundary of M -> done
//     insert w between the ends of e
//   depth = d, B's minimum translation = -d * n, i.e. normal (A to B) = -n
//
// GJK may stop with a point or a segment when the cores only touch or when
// M itself is flat (segment against segment, circle against anything): such
// simplices are inflated with supports perpendicular to them; when M has no
// extent on one side, the origin already lies on M's boundary and the answer
// is depth 0 along that side.
#include "narrowphase/src/gjk.hpp"

namespace carom::detail {
namespace {

struct EpaVertex {
    Vec2 wA{0.0f, 0.0f};
    Vec2 wB{0.0f, 0.0f};
    Vec2 w{0.0f, 0.0f};
    int indexA = 0;
    int indexB = 0;
};

constexpr int kMaxPolytope = kMaxEpaIterations + 4;

struct Context {
    const Proxy& a;
    const Proxy& b;
    const Transform& xf;
    int hintA;
    int hintB;

    EpaVertex supportM(Vec2 d) {
        EpaVertex v;
        v.indexA = support(a, -d, hintA);
        v.indexB = support(b, invRotate(xf.q, d), hintB);
        hintA = v.indexA;
        hintB = v.indexB;
        v.wA = a.vertex(v.indexA);
        v.wB = transformPoint(xf, b.vertex(v.indexB));
        v.w = v.wB - v.wA;
        return v;
    }
};

// Tolerance for "the support point lies on the edge": absolute for small
// shapes, relative for large coordinates.
float tolerance(float scale) {
    return 1.0e-5f + 1.0e-6f * scale;
}

// The answer when the origin lies on the edge p -> q of M's boundary region
// with outward normal n at distance d.
EpaOutput answerFromEdge(const EpaVertex& p, const EpaVertex& q, Vec2 n, float d) {
    EpaOutput out;
    Vec2 e = q.w - p.w;
    float ee = dot(e, e);
    float lambda = ee > 0.0f ? dot(d * n - p.w, e) / ee : 0.0f;
    lambda = lambda < 0.0f ? 0.0f : (lambda > 1.0f ? 1.0f : lambda);
    out.pointA = lerp(p.wA, q.wA, lambda);
    out.pointB = lerp(p.wB, q.wB, lambda);
    out.depth = d > 0.0f ? d : 0.0f;
    out.normal = -n;
    return out;
}

}  // namespace

EpaOutput epaPenetration(const Proxy& a, const Proxy& b, const Transform& xf, const Simplex& s) {
    Context ctx{a, b, xf, s.v[0].indexA, s.v[0].indexB};
    EpaVertex poly[kMaxPolytope];
    int n = 0;

    // Copy the simplex, dropping coincident points.
    for (int i = 0; i < s.count; ++i) {
        EpaVertex v{s.v[i].wA, s.v[i].wB, s.v[i].w, s.v[i].indexA, s.v[i].indexB};
        bool dup = false;
        for (int j = 0; j < n; ++j) {
            if (distanceSquared(poly[j].w, v.w) <= 1.0e-12f) dup = true;
        }
        if (!dup) poly[n++] = v;
    }

    // A triangle must be counter-clockwise and have area; a flat one is
    // reduced to its two extreme points.
    if (n == 3) {
        float area = cross(poly[1].w - poly[0].w, poly[2].w - poly[0].w);
        float scale = lengthSquared(poly[1].w - poly[0].w) + lengthSquared(poly[2].w - poly[0].w);
        if (area * area <= 1.0e-12f * scale * scale) {
            // Keep the pair furthest apart.
            int bi = 0, bj = 1;
            float best = distanceSquared(poly[0].w, poly[1].w);
            if (distanceSquared(poly[0].w, poly[2].w) > best) {
                bi = 0;
                bj = 2;
                best = distanceSquared(poly[0].w, poly[2].w);
            }
            if (distanceSquared(poly[1].w, poly[2].w) > best) {
                bi = 1;
                bj = 2;
            }
            EpaVertex p = poly[bi], q = poly[bj];
            poly[0] = p;
            poly[1] = q;
            n = 2;
        } else if (area < 0.0f) {
            EpaVertex t = poly[1];
            poly[1] = poly[2];
            poly[2] = t;
        }
    }

    // A point: find a second point of M in one of the axis directions.
    if (n == 1) {
        const Vec2 dirs[4] = {Vec2{1.0f, 0.0f}, Vec2{-1.0f, 0.0f}, Vec2{0.0f, 1.0f},
                              Vec2{0.0f, -1.0f}};
        for (Vec2 d : dirs) {
            EpaVertex v = ctx.supportM(d);
            if (dot(v.w - poly[0].w, d) > tolerance(length(v.w))) {
                poly[n++] = v;
                break;
            }
        }
        if (n == 1) {
            // M is a single point (two concentric round shapes): every
            // direction is a minimum translation; pick +x deterministically.
            EpaOutput out;
            out.pointA = poly[0].wA;
            out.pointB = poly[0].wB;
            out.normal = Vec2{1.0f, 0.0f};
            out.depth = 0.0f;
            return out;
        }
    }

    // A segment: add the supports on both sides of it.
    if (n == 2) {
        Vec2 m = normalizeOrZero(leftPerp(poly[1].w - poly[0].w));
        EpaVertex up = ctx.supportM(m);
        EpaVertex down = ctx.supportM(-m);
        float hUp = dot(up.w - poly[0].w, m);
        float hDown = dot(poly[0].w - down.w, m);
        float tol = tolerance(length(poly[0].w) + length(poly[1].w));
        bool hasUp = hUp > tol;
        bool hasDown = hDown > tol;
        if (!hasUp && !hasDown) {
            // M is flat: the origin lies on it; leaving through the side
            // with the smaller support costs the least.
            float dUp = dot(m, up.w);
            float dDown = -dot(m, down.w);
            if (dUp <= dDown) return answerFromEdge(poly[1], poly[0], m, dUp);
            return answerFromEdge(poly[0], poly[1], -m, dDown);
        }
        // Counter-clockwise order: p0 -> (right side) -> p1 -> (left side).
        EpaVertex p0 = poly[0], p1 = poly[1];
        n = 0;
        poly[n++] = p0;
        if (hasDown) poly[n++] = down;
        poly[n++] = p1;
        if (hasUp) poly[n++] = up;
    }

    int iterations = 0;
    int bestEdge = -1;
    Vec2 bestNormal{1.0f, 0.0f};
    float bestDistance = 0.0f;
    for (;;) {
        // Closest edge to the origin.
        bestEdge = -1;
        bestDistance = 0.0f;
        for (int i = 0; i < n; ++i) {
            int j = i + 1 == n ? 0 : i + 1;
            Vec2 e = poly[j].w - poly[i].w;
            float len = length(e);
            if (len <= 1.0e-9f) continue;
            Vec2 nrm = rightPerp(e) * (1.0f / len);
            float d = dot(nrm, poly[i].w);
            if (bestEdge < 0 || d < bestDistance) {
                bestEdge = i;
                bestDistance = d;
                bestNormal = nrm;
            }
        }
        if (bestEdge < 0) break;
        if (iterations >= kMaxEpaIterations || n >= kMaxPolytope) break;

        EpaVertex v = ctx.supportM(bestNormal);
        ++iterations;
        float ext = dot(bestNormal, v.w);
        if (ext - bestDistance <= tolerance(ext > 0.0f ? ext : -ext)) break;
        bool dup = false;
        for (int i = 0; i < n; ++i) {
            if (poly[i].indexA == v.indexA && poly[i].indexB == v.indexB) dup = true;
        }
        if (dup) break;
        for (int k = n; k > bestEdge + 1; --k) poly[k] = poly[k - 1];
        int at = bestEdge + 1;
        poly[at] = v;
        ++n;
        // The new point may also see the neighbouring edges (the 2D
        // "horizon"): drop neighbours that are no longer strict left turns,
        // so the polytope stays convex and edge distances stay meaningful.
        auto reflex = [&](int i) {
            int prev = i == 0 ? n - 1 : i - 1;
            int next = i + 1 == n ? 0 : i + 1;
            return cross(poly[i].w - poly[prev].w, poly[next].w - poly[i].w) <= 0.0f;
        };
        auto erase = [&](int i) {
            for (int k = i; k + 1 < n; ++k) poly[k] = poly[k + 1];
            --n;
        };
        while (n > 3) {
            int next = at + 1 == n ? 0 : at + 1;
            if (!reflex(next)) break;
            erase(next);
            if (next < at) --at;
        }
        while (n > 3) {
            int prev = at == 0 ? n - 1 : at - 1;
            if (!reflex(prev)) break;
            erase(prev);
            if (prev < at) --at;
        }
    }

    EpaOutput out;
    if (bestEdge < 0) {
        out.pointA = poly[0].wA;
        out.pointB = poly[0].wB;
    } else {
        int j = bestEdge + 1 == n ? 0 : bestEdge + 1;
        out = answerFromEdge(poly[bestEdge], poly[j], bestNormal, bestDistance);
    }
    out.iterations = iterations;
    return out;
}

}  // namespace carom::detail
