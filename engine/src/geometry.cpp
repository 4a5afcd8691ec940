// Single-shape geometry: boxes, validation, mass properties, bounds, point
// tests and ray casts. Everything here is closed-form.
#include <algorithm>
#include <cmath>
#include <string>

#include <carom/error.hpp>
#include <carom/geometry.hpp>

#include "engine/src/rules.hpp"

namespace carom {
namespace {

// A box half width: > 0 and, with its centre, within the coordinate bound.
void requireHalfWidth(float h, const char* field) {
    if (!(h > 0.0f)) detail::refuse(field, "> 0", detail::formatFloat(h));
    detail::requireRange(h, 0.0f, kMaxCoordinate, field, " m");
}

}  // namespace

// ---- construction ------------------------------------------------------------

Polygon makeBox(float hx, float hy) { return makeOffsetBox(hx, hy, Vec2{0.0f, 0.0f}, 0.0f, 0.0f); }
Polygon makeSquare(float h) { return makeBox(h, h); }
Polygon makeRoundedBox(float hx, float hy, float radius) {
    return makeOffsetBox(hx, hy, Vec2{0.0f, 0.0f}, 0.0f, radius);
}

Polygon makeOffsetBox(float hx, float hy, Vec2 center, float angle, float radius) {
    requireHalfWidth(hx, "hx");
    requireHalfWidth(hy, "hy");
    detail::requireCoordinate(center, "center");
    detail::requireFinite(angle, "angle");
    detail::requireRange(radius, 0.0f, kMaxShapeRadius, "radius", " m");
    // Built directly (not through the hull) so a box keeps its exact corners
    // and a fixed vertex order: vertex 0 is the lower-left corner.
    Transform xf{center, makeRot(angle)};
    Polygon p;
    p.count = 4;
    p.radius = radius;
    const Vec2 local[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
    const Vec2 normals[4] = {{0.0f, -1.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}};
    for (int i = 0; i < 4; ++i) {
        p.vertices[size_t(i)] = transformPoint(xf, local[i]);
        p.normals[size_t(i)] = rotate(xf.q, normals[i]);
    }
    p.centroid = center;
    return p;
}

// Validation (validate(const Circle&) ...) lives in validate.cpp with every other rule.

// ---- mass ----------------------------------------------------------------------

MassData computeMass(const Circle& g, float density) {
    float rr = g.radius * g.radius;
    MassData m;
    m.mass = density * kPi * rr;
    m.center = g.center;
    m.rotationalInertia = m.mass * 0.5f * rr;
    return m;
}

// A capsule is a rectangle (length L, width 2r) plus two half discs.
MassData computeMass(const Capsule& g, float density) {
    float r = g.radius;
    float rr = r * r;
    Vec2 p1 = g.center1, p2 = g.center2;
    float L = distance(p1, p2);
    float ll = L * L;
    float boxMass = density * (2.0f * r * L);
    float circleMass = density * (kPi * rr);  // both halves together
    MassData m;
    m.mass = boxMass + circleMass;
    m.center = 0.5f * (p1 + p2);
    // Half disc: inertia about its flat edge's centre is (1/2)(m/2)r²; its
    // centroid sits 4r/(3π) from that edge. Shift to the centroid, then out
    // to the capsule centre at distance L/2 + 4r/(3π) (parallel axis).
    float lc = 4.0f * r / (3.0f * kPi);
    float h = 0.5f * L;
    float circleInertia = circleMass * (0.5f * rr + h * h + 2.0f * h * lc);
    float boxInertia = boxMass * (4.0f * rr + ll) / 12.0f;
    m.rotationalInertia = circleInertia + boxInertia;
    return m;
}

// The core polygon by a triangle fan; a rounding radius adds, exactly, a
// rectangle of width r along each edge and a circular sector at each vertex
// (the sectors' angles add up to 2π).
MassData computeMass(const Polygon& g, float density) {
    const Vec2 origin = g.vertices[0];
    float area = 0.0f;
    Vec2 firstMoment{0.0f, 0.0f};  // ∫ (p - origin) dA
    float polar = 0.0f;            // ∫ |p - origin|² dA
    const float third = 1.0f / 3.0f;
    for (int i = 1; i + 1 < g.count; ++i) {
        Vec2 e1 = g.vertices[size_t(i)] - origin;
        Vec2 e2 = g.vertices[size_t(i + 1)] - origin;
        float D = cross(e1, e2);
        float a = 0.5f * D;
        area += a;
        firstMoment += a * third * (e1 + e2);
        float intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x;
        float inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y;
        polar += (0.25f * third * D) * (intx2 + inty2);
    }
    const float r = g.radius;
    if (r > 0.0f) {
        for (int i = 0; i < g.count; ++i) {
            Vec2 v1 = g.vertices[size_t(i)] - origin;
            Vec2 v2 = g.vertices[size_t((i + 1) % g.count)] - origin;
            Vec2 n = g.normals[size_t(i)];
            // Edge rectangle.
            float L = distance(v1, v2);
            float ra = L * r;
            Vec2 rc = 0.5f * (v1 + v2) + 0.5f * r * n;
            area += ra;
            firstMoment += ra * rc;
            polar += ra * ((L * L + r * r) / 12.0f + lengthSquared(rc));
            // Sector at v2 between this edge's normal and the next one's.
            Vec2 n2 = g.normals[size_t((i + 1) % g.count)];
            float theta = std::atan2(cross(n, n2), dot(n, n2));
            if (theta <= 0.0f) continue;
            float sa = 0.5f * theta * r * r;
            Vec2 bis = normalizeOrZero(n + n2);
            float dc = 4.0f * r * std::sin(0.5f * theta) / (3.0f * theta);
            Vec2 sc = v2 + dc * bis;
            // Polar moment about the apex is sa·r²/2; move it to the centroid, then to origin.
            float apexPolar = sa * 0.5f * r * r;
            float centroidPolar = apexPolar - sa * dc * dc;
            area += sa;
            firstMoment += sa * sc;
            polar += centroidPolar + sa * lengthSquared(sc);
        }
    }
    MassData m;
    m.mass = density * area;
    Vec2 c = area > 0.0f ? firstMoment * (1.0f / area) : Vec2{0.0f, 0.0f};
    m.center = origin + c;
    // Polar moment about the centroid: shift from origin by the parallel-axis theorem.
    m.rotationalInertia = density * (polar - area * lengthSquared(c));
    return m;
}

MassData computeMass(const ShapeGeometry& g, float density) {
    switch (typeOf(g)) {
        case ShapeType::Circle: return computeMass(std::get<Circle>(g), density);
        case ShapeType::Capsule: return computeMass(std::get<Capsule>(g), density);
        case ShapeType::Polygon: return computeMass(std::get<Polygon>(g), density);
        default: return MassData{};
    }
}

// ---- bounds --------------------------------------------------------------------

AABB computeAABB(const Circle& g, const Transform& xf) {
    Vec2 p = transformPoint(xf, g.center);
    Vec2 r{g.radius, g.radius};
    return {p - r, p + r};
}

AABB computeAABB(const Capsule& g, const Transform& xf) {
    Vec2 a = transformPoint(xf, g.center1), b = transformPoint(xf, g.center2);
    Vec2 r{g.radius, g.radius};
    return {minVec(a, b) - r, maxVec(a, b) + r};
}

AABB computeAABB(const Segment& g, const Transform& xf) {
    Vec2 a = transformPoint(xf, g.point1), b = transformPoint(xf, g.point2);
    return {minVec(a, b), maxVec(a, b)};
}

AABB computeAABB(const Polygon& g, const Transform& xf) {
    Vec2 lo = transformPoint(xf, g.vertices[0]);
    Vec2 hi = lo;
    for (int i = 1; i < g.count; ++i) {
        Vec2 v = transformPoint(xf, g.vertices[size_t(i)]);
        lo = minVec(lo, v);
        hi = maxVec(hi, v);
    }
    Vec2 r{g.radius, g.radius};
    return {lo - r, hi + r};
}

AABB computeAABB(const ChainSegment& g, const Transform& xf) { return computeAABB(g.segment, xf); }

AABB computeAABB(const ShapeGeometry& g, const Transform& xf) {
    return std::visit([&](const auto& s) { return computeAABB(s, xf); }, g);
}

// ---- point tests ----------------------------------------------------------------

bool containsPoint(const Circle& g, Vec2 p) { return distanceSquared(p, g.center) <= g.radius * g.radius; }

bool containsPoint(const Capsule& g, Vec2 p) {
    Vec2 d = g.center2 - g.center1;
    float t = std::clamp(dot(p - g.center1, d) / lengthSquared(d), 0.0f, 1.0f);
    Vec2 q = g.center1 + t * d;
    return distanceSquared(p, q) <= g.radius * g.radius;
}

bool containsPoint(const Polygon& g, Vec2 p) {
    // Inside the core, or within radius of it: find the largest separation
    // from the edge planes; inside when <= 0, else measure to the closest
    // feature for rounded polygons.
    float maxSep = -1e30f;
    int best = 0;
    for (int i = 0; i < g.count; ++i) {
        float s = dot(g.normals[size_t(i)], p - g.vertices[size_t(i)]);
        if (s > maxSep) {
            maxSep = s;
            best = i;
        }
    }
    if (maxSep <= 0.0f) return true;
    if (g.radius <= 0.0f) return false;
    // Distance to the core polygon: check the edges around the best plane.
    float bestSq = 1e30f;
    for (int i = 0; i < g.count; ++i) {
        Vec2 a = g.vertices[size_t(i)], b = g.vertices[size_t((i + 1) % g.count)];
        Vec2 d = b - a;
        float t = std::clamp(dot(p - a, d) / lengthSquared(d), 0.0f, 1.0f);
        bestSq = std::min(bestSq, distanceSquared(p, a + t * d));
    }
    (void)best;
    return bestSq <= g.radius * g.radius;
}

bool containsPoint(const ShapeGeometry& g, Vec2 p) {
    switch (typeOf(g)) {
        case ShapeType::Circle: return containsPoint(std::get<Circle>(g), p);
        case ShapeType::Capsule: return containsPoint(std::get<Capsule>(g), p);
        case ShapeType::Polygon: return containsPoint(std::get<Polygon>(g), p);
        default: return false;
    }
}

// ---- ray casts ------------------------------------------------------------------
//
// All ray casts solve for the first fraction t in [0, maxFraction] at which
// origin + t·translation enters the shape. A ray starting inside a solid
// shape reports no hit (as the spec of `carom query` says).

namespace {

// Ray against a disc; used for circles and for rounded corners.
CastOutput rayDisc(const RayCastInput& in, Vec2 center, float radius) {
    CastOutput out;
    Vec2 s = in.origin - center;
    float len2 = lengthSquared(in.translation);
    if (len2 == 0.0f) return out;
    // |s + t d|² = r²  →  t² d·d + 2 t s·d + s·s - r² = 0
    float b = dot(s, in.translation);
    float c = dot(s, s) - radius * radius;
    if (c <= 0.0f) return out;  // starts inside
    float disc = b * b - len2 * c;
    if (disc < 0.0f || b >= 0.0f) return out;
    float t = (-b - std::sqrt(disc)) / len2;
    if (t < 0.0f || t > in.maxFraction) return out;
    out.fraction = t;
    out.point = in.origin + t * in.translation;
    out.normal = normalizeOrZero(out.point - center);
    out.hit = true;
    return out;
}

// Ray against a one- or two-sided segment (a, b). One-sided: hit only from
// the right of a → b (the solid side of chains).
CastOutput raySegment(const RayCastInput& in, Vec2 a, Vec2 b, bool oneSided) {
    CastOutput out;
    Vec2 e = b - a;
    Vec2 n = normalizeOrZero(rightPerp(e));
    float denom = dot(n, in.translation);
    if (denom == 0.0f) return out;  // parallel
    float numer = dot(n, a - in.origin);
    float t = numer / denom;
    if (t < 0.0f || t > in.maxFraction) return out;
    if (oneSided && denom > 0.0f) return out;  // coming from the left (inside)
    Vec2 p = in.origin + t * in.translation;
    float s = dot(p - a, e);
    if (s < 0.0f || s > lengthSquared(e)) return out;
    out.fraction = t;
    out.point = p;
    out.normal = denom > 0.0f ? -n : n;
    out.hit = true;
    return out;
}

CastOutput closer(const CastOutput& a, const CastOutput& b) {
    if (!a.hit) return b;
    if (!b.hit) return a;
    return b.fraction < a.fraction ? b : a;
}

// Polygon with radius 0: clip the ray against each edge's half plane
// (Cyrus–Beck).
CastOutput rayCorePolygon(const RayCastInput& in, const Polygon& g) {
    CastOutput out;
    float lower = 0.0f, upper = in.maxFraction;
    int index = -1;
    for (int i = 0; i < g.count; ++i) {
        Vec2 n = g.normals[size_t(i)];
        float numer = dot(n, g.vertices[size_t(i)] - in.origin);
        float denom = dot(n, in.translation);
        if (denom == 0.0f) {
            if (numer < 0.0f) return out;  // parallel and outside
        } else if (denom < 0.0f && numer < lower * denom) {
            lower = numer / denom;  // entering
            index = i;
        } else if (denom > 0.0f && numer < upper * denom) {
            upper = numer / denom;  // leaving
        }
        if (upper < lower) return out;
    }
    if (index < 0) return out;  // starts inside
    out.fraction = lower;
    out.point = in.origin + lower * in.translation;
    out.normal = g.normals[size_t(index)];
    out.hit = true;
    return out;
}

}  // namespace

CastOutput rayCast(const RayCastInput& in, const Circle& g) { return rayDisc(in, g.center, g.radius); }

CastOutput rayCast(const RayCastInput& in, const Capsule& g) {
    if (containsPoint(g, in.origin)) return {};
    // The capsule is the union of the two end discs and the rectangle
    // between them: take the closest hit on its boundary pieces.
    Vec2 n = normalizeOrZero(leftPerp(g.center2 - g.center1));
    CastOutput best = rayDisc(in, g.center1, g.radius);
    best = closer(best, rayDisc(in, g.center2, g.radius));
    best = closer(best, raySegment(in, g.center1 + g.radius * n, g.center2 + g.radius * n, false));
    best = closer(best, raySegment(in, g.center1 - g.radius * n, g.center2 - g.radius * n, false));
    return best;
}

CastOutput rayCast(const RayCastInput& in, const Segment& g) {
    return raySegment(in, g.point1, g.point2, false);
}

CastOutput rayCast(const RayCastInput& in, const ChainSegment& g) {
    return raySegment(in, g.segment.point1, g.segment.point2, true);
}

CastOutput rayCast(const RayCastInput& in, const Polygon& g) {
    if (g.radius <= 0.0f) return rayCorePolygon(in, g);
    if (containsPoint(g, in.origin)) return {};
    // A rounded polygon is the union of its edges pushed out by the radius
    // and a disc at every vertex: the first hit on those is exact.
    CastOutput best;
    for (int i = 0; i < g.count; ++i) {
        Vec2 a = g.vertices[size_t(i)], b = g.vertices[size_t((i + 1) % g.count)];
        Vec2 off = g.radius * g.normals[size_t(i)];
        CastOutput e = raySegment(in, a + off, b + off, true);
        best = closer(best, e);
        best = closer(best, rayDisc(in, a, g.radius));
    }
    return best;
}

CastOutput rayCast(const RayCastInput& in, const ShapeGeometry& g) {
    return std::visit([&](const auto& s) { return rayCast(in, s); }, g);
}

CastOutput rayCast(const RayCastInput& worldRay, const ShapeGeometry& g, const Transform& xf) {
    RayCastInput local{invTransformPoint(xf, worldRay.origin), invRotate(xf.q, worldRay.translation),
                       worldRay.maxFraction};
    CastOutput out = rayCast(local, g);
    if (out.hit) {
        out.point = transformPoint(xf, out.point);
        out.normal = rotate(xf.q, out.normal);
    }
    return out;
}

}  // namespace carom
