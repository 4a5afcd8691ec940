// The public narrowphase API (<carom/collision.hpp>) and the internal entry
// points that are not algorithms of their own (references, distance in world
// frame, shape extents).
//
// Public functions validate everything they are given and throw carom::Error
// on bad input; the detail:: functions assume valid input and never throw.
#include <algorithm>
#include <cmath>
#include <string>

#include <carom/error.hpp>

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

[[noreturn]] void refuse(const std::string& what) {
    throw Error(ErrorCode::InvalidArgument, what);
}

void checkRot(Rot q, const char* what) {
    if (!isFinite(q) || std::fabs(q.c * q.c + q.s * q.s - 1.0f) > 1.0e-3f) {
        refuse(std::string(what) + ": rotation must be finite and of unit length");
    }
}

void checkTransform(const Transform& xf, const char* what) {
    if (!isFinite(xf.p) || std::fabs(xf.p.x) > kHuge || std::fabs(xf.p.y) > kHuge) {
        refuse(std::string(what) + ": position must be finite and within kHuge");
    }
    checkRot(xf.q, what);
}

// Geometry within kHuge: validate() accepts any finite size, but sums of
// radii near FLT_MAX would overflow to infinity.
void checkRange(const ShapeGeometry& g, const char* what) {
    detail::Proxy p = detail::makeProxy(detail::makeRef(g));
    bool ok = p.radius <= kHuge;
    for (int i = 0; i < p.count; ++i) {
        Vec2 v = p.vertex(i);
        ok = ok && std::fabs(v.x) <= kHuge && std::fabs(v.y) <= kHuge;
    }
    if (const auto* c = std::get_if<ChainSegment>(&g)) {
        ok = ok && std::fabs(c->ghost1.x) <= kHuge && std::fabs(c->ghost1.y) <= kHuge &&
             std::fabs(c->ghost2.x) <= kHuge && std::fabs(c->ghost2.y) <= kHuge;
    }
    if (!ok) refuse(std::string(what) + ": shape coordinates and radius must be within kHuge");
}

void checkShapes(const ShapeGeometry& a, const ShapeGeometry& b, const char* what) {
    validate(a);
    validate(b);
    checkRange(a, what);
    checkRange(b, what);
}

void checkSweep(const Sweep& s, const char* what) {
    auto inRange = [](Vec2 v) {
        return isFinite(v) && std::fabs(v.x) <= kHuge && std::fabs(v.y) <= kHuge;
    };
    if (!inRange(s.localCenter) || !inRange(s.c1) || !inRange(s.c2)) {
        refuse(std::string(what) + ": sweep centres must be finite and within kHuge");
    }
    checkRot(s.q1, what);
    checkRot(s.q2, what);
}

}  // namespace

DistanceResult shapeDistance(const ShapeGeometry& a, const Transform& xfA,
                             const ShapeGeometry& b, const Transform& xfB,
                             SimplexCache* cache) {
    checkShapes(a, b, "shapeDistance");
    checkTransform(xfA, "shapeDistance");
    checkTransform(xfB, "shapeDistance");
    return detail::shapeDistance(detail::makeRef(a), xfA, detail::makeRef(b), xfB, cache);
}

Manifold collide(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                 const Transform& xfB, SimplexCache* cache) {
    checkShapes(a, b, "collide");
    checkTransform(xfA, "collide");
    checkTransform(xfB, "collide");
    return detail::collideShapes(detail::makeRef(a), xfA, detail::makeRef(b), xfB, cache);
}

ToiResult timeOfImpact(const ShapeGeometry& a, const Sweep& sweepA, const ShapeGeometry& b,
                       const Sweep& sweepB, float tMax, float target) {
    checkShapes(a, b, "timeOfImpact");
    checkSweep(sweepA, "timeOfImpact");
    checkSweep(sweepB, "timeOfImpact");
    if (!(tMax >= 0.0f && tMax <= 1.0f)) refuse("timeOfImpact: tMax must be in [0, 1]");
    if (!(target >= 0.0f) || !isFinite(target)) {
        refuse("timeOfImpact: target must be finite and >= 0");
    }
    return detail::timeOfImpact(detail::makeRef(a), sweepA, detail::makeRef(b), sweepB, tMax,
                                target);
}

CastOutput shapeCast(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                     const Transform& xfB, Vec2 translationB, float maxFraction) {
    checkShapes(a, b, "shapeCast");
    checkTransform(xfA, "shapeCast");
    checkTransform(xfB, "shapeCast");
    if (!isFinite(translationB) || std::fabs(translationB.x) > 2.0f * kHuge ||
        std::fabs(translationB.y) > 2.0f * kHuge) {
        refuse("shapeCast: translation must be finite and within 2 kHuge");
    }
    if (!(maxFraction >= 0.0f) || !isFinite(maxFraction)) {
        refuse("shapeCast: maxFraction must be finite and >= 0");
    }
    return detail::shapeCast(detail::makeRef(a), xfA, detail::makeRef(b), xfB, translationB,
                             maxFraction);
}

}  // namespace carom
