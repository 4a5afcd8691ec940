// The public narrowphase API (<carom/collision.hpp>) and the internal entry
// points that are not algorithms of their own (references, distance in world
// frame, shape extents).
//
// Public functions validate everything they are given with the API's rules
// (engine/core/rules.hpp) and throw carom::Error naming the argument on bad
// input; the detail:: functions assume valid input and never throw.
#include <algorithm>
#include <cmath>
#include <string>

#include <carom/error.hpp>

#include "engine/core/rules.hpp"
#include "narrowphase/narrowphase.hpp"
#include "narrowphase/src/gjk.hpp"
#include "narrowphase/src/proxy.hpp"

namespace carom {
namespace detail {

ShapeRef makeRef(const ShapeGeometry& g) {
    return std::visit([](const auto& shape) { return makeRef(shape); }, g);
}

InlinePolygon makeInlinePolygon(const Polygon& p) {
    InlinePolygon q{};
    q.count = std::min(p.count, kInlinePolygonVertices);
    for (int i = 0; i < q.count; ++i) {
        q.vertices[i] = p.vertices[size_t(i)];
        q.normals[i] = p.normals[size_t(i)];
    }
    q.centroid = p.centroid;
    q.radius = p.radius;
    return q;
}

Polygon toPolygon(const InlinePolygon& p) {
    Polygon q;
    q.count = p.count;
    q.radius = p.radius;
    q.centroid = p.centroid;
    for (int i = 0; i < p.count; ++i) {
        q.vertices[size_t(i)] = p.vertices[i];
        q.normals[size_t(i)] = p.normals[i];
    }
    return q;
}

DistanceResult shapeDistance(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                             SimplexCache* cache) {
    Proxy pa = makeProxy(a);
    Proxy pb = makeProxy(b);
    Transform xf = invMulTransforms(xfA, xfB);
    DistanceResult r = distanceLocal(pa, pb, xf, cache);
    r.normal = rotate(xfA.q, r.normal);
    r.pointA = transformPoint(xfA, r.pointA);
    r.pointB = transformPoint(xfA, r.pointB);
    return r;
}

float shapeExtent(ShapeRef s, Vec2 localCenter) {
    Proxy p = makeProxy(s);
    float maxSq = 0.0f;
    const Vec2* v = p.data();
    for (int i = 0; i < p.count; ++i) maxSq = std::max(maxSq, distanceSquared(v[i], localCenter));
    return std::sqrt(maxSq) + p.radius;
}

float shapeWidthAcross(ShapeRef s, const Transform& xf, Vec2 dir) {
    const Proxy p = makeProxy(s);
    const Vec2 perp = invRotate(xf.q, Vec2{-dir.y, dir.x});  // into the shape's frame
    float lo = dot(p.vertex(0), perp), hi = lo;
    for (int i = 1; i < p.count; ++i) {
        const float d = dot(p.vertex(i), perp);
        lo = std::min(lo, d);
        hi = std::max(hi, d);
    }
    return hi - lo + 2.0f * p.radius;
}

}  // namespace detail

namespace {

// The pair's geometry by validate(): points within ±kMaxCoordinate and radii
// within kMaxShapeRadius, so that sums of extents stay far from overflow.
void checkShapes(const ShapeGeometry& a, const ShapeGeometry& b) {
    validate(a);
    validate(b);
}

void checkSweep(const Sweep& s, const std::string& field) {
    detail::requireCoordinate(s.localCenter, (field + ".localCenter").c_str());
    detail::requireCoordinate(s.c1, (field + ".c1").c_str());
    detail::requireCoordinate(s.c2, (field + ".c2").c_str());
    detail::requireRotation(s.q1, (field + ".q1").c_str());
    detail::requireRotation(s.q2, (field + ".q2").c_str());
}

}  // namespace

DistanceResult shapeDistance(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                             const Transform& xfB, SimplexCache* cache) {
    checkShapes(a, b);
    detail::requirePose(xfA, "xfA");
    detail::requirePose(xfB, "xfB");
    return detail::shapeDistance(detail::makeRef(a), xfA, detail::makeRef(b), xfB, cache);
}

Manifold collide(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                 const Transform& xfB, SimplexCache* cache) {
    checkShapes(a, b);
    detail::requirePose(xfA, "xfA");
    detail::requirePose(xfB, "xfB");
    return detail::collideShapes(detail::makeRef(a), xfA, detail::makeRef(b), xfB, cache);
}

ToiResult timeOfImpact(const ShapeGeometry& a, const Sweep& sweepA, const ShapeGeometry& b,
                       const Sweep& sweepB, float tMax, float target) {
    checkShapes(a, b);
    checkSweep(sweepA, "sweepA");
    checkSweep(sweepB, "sweepB");
    detail::requireRange(tMax, 0.0f, 1.0f, "tMax");
    detail::requireNonNegative(target, "target");
    return detail::timeOfImpact(detail::makeRef(a), sweepA, detail::makeRef(b), sweepB, tMax,
                                target);
}

CastOutput shapeCast(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                     const Transform& xfB, Vec2 translationB, float maxFraction) {
    checkShapes(a, b);
    detail::requirePose(xfA, "xfA");
    detail::requirePose(xfB, "xfB");
    detail::requireCastTranslation(translationB, "translationB");
    detail::requireNonNegative(maxFraction, "maxFraction");
    return detail::shapeCast(detail::makeRef(a), xfA, detail::makeRef(b), xfB, translationB,
                             maxFraction);
}

}  // namespace carom
