// Single-shape geometry: boxes, validation, mass properties, bounds, point
// tests and ray casts. Everything here is closed-form.
#include <algorithm>
#include <cmath>
#include <string>

#include <carom/error.hpp>
#include <carom/geometry.hpp>

#include "engine/core/rules.hpp"

namespace carom {
namespace {

// A box half width: > 0 and, with its centre, within the coordinate bound.
void requireHalfWidth(float h, const char* field) {
    if (!(h > 0.0f)) detail::refuse(field, "> 0", detail::formatFloat(h));
    detail::requireRange(h, 0.0f, kMaxCoordinate, field, " m");
}

}  // namespace

// ---- construction ------------------------------------------------------------

Polygon makeBox(float hx, float hy) {
    return makeOffsetBox(hx, hy, Vec2{0.0f, 0.0f}, 0.0f, 0.0f);
}
Polygon makeSquare(float h) {
    return makeBox(h, h);
}
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
            float theta = computeAtan2(cross(n, n2), dot(n, n2));
            if (theta <= 0.0f) continue;
            float sa = 0.5f * theta * r * r;
            Vec2 bis = normalizeOrZero(n + n2);
            float dc = 4.0f * r * computeCosSin(0.5f * theta).s / (3.0f * theta);
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
        case ShapeType::Circle:
            return computeMass(std::get<Circle>(g), density);
        case ShapeType::Capsule:
            return computeMass(std::get<Capsule>(g), density);
        case ShapeType::Polygon:
            return computeMass(std::get<Polygon>(g), density);
        default:
            return MassData{};
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

AABB computeAABB(const ChainSegment& g, const Transform& xf) {
    return computeAABB(g.segment, xf);
}

AABB computeAABB(const ShapeGeometry& g, const Transform& xf) {
    return std::visit([&](const auto& s) { return computeAABB(s, xf); }, g);
}

// ---- point tests ----------------------------------------------------------------

bool containsPoint(const Circle& g, Vec2 p) {
    return distanceSquared(p, g.center) <= g.radius * g.radius;
}

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
        case ShapeType::Circle:
            return containsPoint(std::get<Circle>(g), p);
        case ShapeType::Capsule:
            return containsPoint(std::get<Capsule>(g), p);
        case ShapeType::Polygon:
            return containsPoint(std::get<Polygon>(g), p);
        default:
            return false;
    }
}

// ---- ray casts ------------------------------------------------------------------
//
// All ray casts find the first fraction t in [0, maxFraction] at which
// origin + t·translation enters the shape. A ray starting inside a solid
// shape reports no hit (as the spec of `carom query` says).
//
// Precision. The caller's origin may be far from the shape (1e6 m is inside
// the engine's range) and the translation as long as a float allows. Solving
// |o + t·d - c|² = r² as written cancels catastrophically there: at 1e4 m
// the terms are ~1e16 and the answer ~1. So every routine here
//   * works with a unit direction u and distances τ along it (the fraction
//     τ / |d| is formed once, at the end, by a division that neither
//     overflows for |d| up to FLT_MAX nor loses a normal-range fraction);
//   * measures everything from the shape's own features: a circle from its
//     centre (the perpendicular offset of the ray is a cross product, the
//     entry distance the stable root form), a capsule in its own frame, an
//     edge from its first vertex, so the hit point lies on the surface to a
//     few ulps of the shape's size whatever the ray's distance;
//   * never returns a non-finite value: a result that would not be finite is
//     a miss.
// The remaining error is that of the inputs themselves: the origin as a float
// is only known to ~6e-8 of its distance, and so is the ray's lateral offset.

namespace {

// The ray in unit-direction form. translation = scale·v with v = d / max|d_i|
// (so |v| is in [1, √2] and nothing overflows), u = v / |v|.
struct UnitRay {
    Vec2 origin{0.0f, 0.0f};
    Vec2 u{0.0f, 0.0f};
    float scale = 0.0f;  // max(|d.x|, |d.y|)
    float vlen = 0.0f;   // |d| / scale
    bool valid = false;
};

UnitRay makeUnitRay(const RayCastInput& in) {
    UnitRay r;
    if (!isFinite(in.origin) || !isFinite(in.translation) || !(in.maxFraction >= 0.0f)) return r;
    float m = std::max(std::fabs(in.translation.x), std::fabs(in.translation.y));
    if (!(m > 0.0f)) return r;
    Vec2 v = (1.0f / m) * in.translation;
    // 1/m may round so that v's larger component is a hair off 1; |v| is
    // still in [1 - ulp, √2 + ulp] and u below is unit to float precision.
    if (!isFinite(v)) {  // m subnormal: 1/m overflows
        v = {in.translation.x / m, in.translation.y / m};
    }
    r.origin = in.origin;
    r.vlen = length(v);
    r.u = (1.0f / r.vlen) * v;
    r.scale = m;
    r.valid = true;
    return r;
}

// A hit in distance units along the unit ray.
struct RayHit {
    float distance = 0.0f;
    Vec2 point{0.0f, 0.0f};
    Vec2 normal{0.0f, 0.0f};
    bool hit = false;
};

RayHit closer(const RayHit& a, const RayHit& b) {
    if (!a.hit) return b;
    if (!b.hit) return a;
    return b.distance < a.distance ? b : a;
}

// |v| without overflow or underflow for any finite v.
float safeLength(Vec2 v) {
    float m = std::max(std::fabs(v.x), std::fabs(v.y));
    if (!(m > 0.0f) || !std::isfinite(m)) return m;
    if (m > 1.0e18f || m < 1.0e-18f) {
        Vec2 w{v.x / m, v.y / m};
        return m * length(w);
    }
    return length(v);
}

// The one ray/disc routine: circles, capsule end caps and rounded-polygon
// corners all come here.
//
// With s = o - c, the ray's closest approach to c is at τc = -s·u, where the
// ray passes c at the signed offset h = cross(u, s) (a cross product, not
// √(s·s - τc²), so no cancellation). The chord half-length is
// w = √((r - |h|)(r + |h|)), and the entry distance τc - w is formed in the
// stable root form τ = (|s| - r)(|s| + r) / (τc + w): no difference of
// nearly equal numbers even for a grazing ray, whose w is uncertain.
// The hit point, c + h·perp(u) - w·u, is built from the centre, so it is
// on the circle to a few ulps of r however far the origin is.
RayHit rayDisc(const UnitRay& ray, Vec2 center, float radius) {
    RayHit out;
    Vec2 s = ray.origin - center;
    float sLen = safeLength(s);
    if (!(sLen > radius)) return out;  // starts inside (or on) the disc
    float tc = -dot(s, ray.u);
    if (!(tc > 0.0f)) return out;  // the centre is behind the origin
    float h = cross(ray.u, s);
    float ah = std::fabs(h);
    if (ah > radius) return out;  // passes beside
    float w = std::sqrt((radius - ah) * (radius + ah));
    // (sLen - r) * ((sLen + r) / (tc + w)): the ratio is ~1..2, so no
    // overflow for origins up to FLT_MAX away.
    float tau = (sLen - radius) * ((sLen + radius) / (tc + w));
    Vec2 rel = h * leftPerp(ray.u) - w * ray.u;  // hit point - centre, length r
    out.distance = tau;
    out.point = center + rel;
    // rel has length r: scaled to ~1 first so a tiny radius keeps its normal.
    out.normal = radius >= 1.0e-30f ? normalizeOrZero((1.0f / radius) * rel) : -ray.u;
    out.hit = true;
    return out;
}

// A rounded corner: the disc at a core vertex, whose arc belongs to the
// surface only between the normals nStart and nEnd (counter-clockwise, at
// most π apart). Far away, the ray's lateral position is only known to
// ~6e-8 of the distance; a ray that rounding sends just past a neighbouring
// flat side may meet the disc beyond its arc. The hit then moves to the end
// of the arc (the tangent point, with that side's normal), so the point stays
// on the surface and the normal supports the shape.
RayHit rayCorner(const UnitRay& ray, Vec2 vertex, float radius, Vec2 nStart, Vec2 nEnd) {
    RayHit out = rayDisc(ray, vertex, radius);
    if (!out.hit) return out;
    const Vec2 n = out.normal;
    if (cross(nStart, n) >= 0.0f && cross(n, nEnd) >= 0.0f) return out;
    out.normal = dot(n, nStart) >= dot(n, nEnd) ? nStart : nEnd;
    out.point = vertex + radius * out.normal;
    return out;
}

// Ray against the segment (a, b) seen from one side: it is hit only when the
// ray crosses its line against `normal` (the unit outward normal of the
// piece), from outside the line. `offset` pushes the line out along the
// normal (rounded-polygon edges). The point is built on the segment from a,
// so it lies on the line exactly up to rounding of the segment's own size.
RayHit rayFace(const UnitRay& ray, Vec2 a, Vec2 b, Vec2 normal, float offset) {
    RayHit out;
    float denom = dot(normal, ray.u);
    if (!(denom < 0.0f)) return out;  // parallel or leaving
    Vec2 fromA = ray.origin - a;
    float height = dot(normal, fromA) - offset;  // distance of the origin outside the line
    if (height < 0.0f) return out;               // behind the line
    float tau = height / -denom;
    Vec2 e = b - a;
    float len = length(e);
    if (!(len > 0.0f)) return out;
    Vec2 tangent = (1.0f / len) * e;
    float along = dot(fromA, tangent) + tau * dot(ray.u, tangent);
    if (!(along >= 0.0f && along <= len)) return out;
    out.distance = tau;
    out.point = a + offset * normal + along * tangent;
    out.normal = normal;
    out.hit = true;
    return out;
}

// Polygon with radius 0: clip the ray against each edge's half plane
// (Cyrus–Beck), in distances along the unit ray.
RayHit rayCorePolygon(const UnitRay& ray, const Polygon& g) {
    RayHit out;
    float lower = 0.0f, upper = INFINITY;
    int index = -1;
    for (int i = 0; i < g.count; ++i) {
        Vec2 n = g.normals[size_t(i)];
        float numer = dot(n, g.vertices[size_t(i)] - ray.origin);
        float denom = dot(n, ray.u);
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
    // The point on the entered edge, from its first vertex (origin + τ·u
    // would carry the rounding of a far origin off the surface).
    Vec2 a = g.vertices[size_t(index)];
    Vec2 e = g.vertices[size_t((index + 1) % g.count)] - a;
    float len = length(e);
    Vec2 tangent = len > 0.0f ? (1.0f / len) * e : Vec2{0.0f, 0.0f};
    float along = std::clamp(dot(ray.origin - a, tangent) + lower * dot(ray.u, tangent), 0.0f, len);
    out.distance = lower;
    out.point = a + along * tangent;
    out.normal = g.normals[size_t(index)];
    out.hit = true;
    return out;
}

RayHit rayCapsule(const UnitRay& ray, const Capsule& g) {
    // In the capsule's frame: x along the axis from the midpoint, y across.
    // The sides are then y = ±r for |x| <= half length, and the caps two
    // discs on the x axis, all measured from the capsule itself.
    Vec2 mid = 0.5f * (g.center1 + g.center2);
    Vec2 axis = g.center2 - g.center1;
    float halfLength = 0.5f * length(axis);
    axis = normalizeOrZero(axis);
    if (halfLength == 0.0f || (axis.x == 0.0f && axis.y == 0.0f))
        return rayDisc(ray, mid, g.radius);
    const Rot frame{axis.x, axis.y};
    UnitRay local = ray;
    local.origin = invRotate(frame, ray.origin - mid);
    local.u = invRotate(frame, ray.u);
    const Vec2 o = local.origin;
    const float r = g.radius;
    // Inside: within r of the core segment.
    float qx = std::clamp(o.x, -halfLength, halfLength);
    if (lengthSquared(Vec2{o.x - qx, o.y}) <= r * r) return {};
    RayHit best;
    if (o.y >= r) {
        best = rayFace(local, {halfLength, 0.0f}, {-halfLength, 0.0f}, {0.0f, 1.0f}, r);
    } else if (o.y <= -r) {
        best = rayFace(local, {-halfLength, 0.0f}, {halfLength, 0.0f}, {0.0f, -1.0f}, r);
    }
    // Entering through a side is the first entry (the origin is outside that
    // side's line, hence outside the capsule); otherwise it is a cap.
    if (!best.hit) {
        best = closer(rayCorner(local, {-halfLength, 0.0f}, r, {0.0f, 1.0f}, {0.0f, -1.0f}),
                      rayCorner(local, {halfLength, 0.0f}, r, {0.0f, -1.0f}, {0.0f, 1.0f}));
    }
    if (best.hit) {
        best.point = mid + rotate(frame, best.point);
        best.normal = rotate(frame, best.normal);
    }
    return best;
}

// Ray against a one- or two-sided segment. One-sided: hit only from the
// right of point1 → point2 (the solid side of chains).
RayHit raySegment(const UnitRay& ray, Vec2 a, Vec2 b, bool oneSided) {
    Vec2 n = normalizeOrZero(rightPerp(b - a));
    RayHit out = rayFace(ray, a, b, n, 0.0f);
    if (out.hit || oneSided) return out;
    return rayFace(ray, a, b, -n, 0.0f);
}

// A rounded polygon is its core grown by the radius: flat sides (the edges
// pushed out along their normals) joined by arcs of the discs at the
// vertices. It fits in the polygon Q bounded by the pushed-out edge lines
// (sharp corners), and differs from Q only in a wedge at each corner. So:
// clip the ray against Q's half planes (Cyrus–Beck); entering on the flat
// part of a side is the hit; entering in a corner's wedge (or starting in
// one), the ray meets that corner's arc or leaves Q without a hit. One
// clipping decides which piece is hit, where testing every side and disc
// independently could, for a far ray, accept a disc behind a side that
// rounding had just missed.
RayHit rayRoundedPolygon(const UnitRay& ray, const Polygon& g) {
    RayHit out;
    const float r = g.radius;
    const int n = g.count;
    auto vertex = [&](int i) { return g.vertices[size_t((i + n) % n)]; };
    auto normal = [&](int i) { return g.normals[size_t((i + n) % n)]; };
    float lower = 0.0f, upper = INFINITY;
    int index = -1;
    for (int i = 0; i < n; ++i) {
        Vec2 nrm = g.normals[size_t(i)];
        float numer = dot(nrm, g.vertices[size_t(i)] - ray.origin) + r;
        float denom = dot(nrm, ray.u);
        if (denom == 0.0f) {
            if (numer < 0.0f) return out;  // parallel and outside
        } else if (denom < 0.0f && numer < lower * denom) {
            lower = numer / denom;
            index = i;
        } else if (denom > 0.0f && numer < upper * denom) {
            upper = numer / denom;
        }
        if (upper < lower) return out;
    }
    int corner = -1;
    if (index < 0) {
        // Starts inside Q but outside the shape: in the wedge of the
        // nearest core vertex.
        float best = INFINITY;
        for (int i = 0; i < n; ++i) {
            float d2 = distanceSquared(ray.origin, g.vertices[size_t(i)]);
            if (d2 < best) {
                best = d2;
                corner = i;
            }
        }
    } else {
        Vec2 a = vertex(index);
        Vec2 e = vertex(index + 1) - a;
        float len = length(e);
        Vec2 tangent = (1.0f / len) * e;
        float along = dot(ray.origin - a, tangent) + lower * dot(ray.u, tangent);
        if (along >= 0.0f && along <= len) {
            out.distance = lower;
            out.point = a + r * normal(index) + along * tangent;
            out.normal = normal(index);
            out.hit = true;
            return out;
        }
        corner = along < 0.0f ? index : (index + 1) % n;
    }
    return rayCorner(ray, vertex(corner), r, normal(corner - 1), normal(corner));
}

// The fraction of the caller's translation for a distance along the unit
// ray: one division by |d| when |d| is finite, else (τ / |v|) / scale. The
// quotient is correctly rounded (up to the rounding of |d|), so a fraction in
// float's normal range is never lost to underflow as τ·τ / d·d would be.
CastOutput toOutput(const RayHit& h, const UnitRay& ray, float maxFraction) {
    CastOutput out;
    if (!h.hit || !(h.distance >= 0.0f)) return out;
    float len = ray.scale * ray.vlen;
    float fraction = std::isfinite(len) ? h.distance / len : (h.distance / ray.vlen) / ray.scale;
    if (!(fraction <= maxFraction)) return out;
    if (!isFinite(h.point) || !isFinite(h.normal)) return out;
    out.fraction = fraction;
    out.point = h.point;
    out.normal = h.normal;
    out.hit = true;
    return out;
}

}  // namespace

namespace {

RayHit rayHit(const UnitRay& ray, const Circle& g) {
    return rayDisc(ray, g.center, g.radius);
}
RayHit rayHit(const UnitRay& ray, const Capsule& g) {
    return rayCapsule(ray, g);
}
RayHit rayHit(const UnitRay& ray, const Segment& g) {
    return raySegment(ray, g.point1, g.point2, false);
}
RayHit rayHit(const UnitRay& ray, const ChainSegment& g) {
    return raySegment(ray, g.segment.point1, g.segment.point2, true);
}
RayHit rayHit(const UnitRay& ray, const Polygon& g) {
    if (g.radius <= 0.0f) return rayCorePolygon(ray, g);
    if (containsPoint(g, ray.origin)) return {};
    return rayRoundedPolygon(ray, g);
}

template <class G>
CastOutput castLocal(const RayCastInput& in, const G& g) {
    UnitRay ray = makeUnitRay(in);
    if (!ray.valid) return {};
    return toOutput(rayHit(ray, g), ray, in.maxFraction);
}

}  // namespace

CastOutput rayCast(const RayCastInput& in, const Circle& g) {
    return castLocal(in, g);
}
CastOutput rayCast(const RayCastInput& in, const Capsule& g) {
    return castLocal(in, g);
}
CastOutput rayCast(const RayCastInput& in, const Segment& g) {
    return castLocal(in, g);
}
CastOutput rayCast(const RayCastInput& in, const ChainSegment& g) {
    return castLocal(in, g);
}
CastOutput rayCast(const RayCastInput& in, const Polygon& g) {
    return castLocal(in, g);
}

CastOutput rayCast(const RayCastInput& in, const ShapeGeometry& g) {
    return std::visit([&](const auto& s) { return castLocal(in, s); }, g);
}

// The direction is made unit in the world frame and then rotated (rotating a
// translation near FLT_MAX could overflow); the origin moves into the shape's
// frame with one subtraction and one rotation, the only rounding the world
// frame adds.
CastOutput rayCast(const RayCastInput& worldRay, const ShapeGeometry& g, const Transform& xf) {
    UnitRay ray = makeUnitRay(worldRay);
    if (!ray.valid) return {};
    ray.origin = invTransformPoint(xf, worldRay.origin);
    ray.u = invRotate(xf.q, ray.u);
    if (!isFinite(ray.origin) || !isFinite(ray.u)) return {};
    RayHit h = std::visit([&](const auto& s) { return rayHit(ray, s); }, g);
    CastOutput out = toOutput(h, ray, worldRay.maxFraction);
    if (out.hit) {
        out.point = transformPoint(xf, out.point);
        out.normal = rotate(xf.q, out.normal);
        if (!isFinite(out.point)) return {};
    }
    return out;
}

}  // namespace carom
