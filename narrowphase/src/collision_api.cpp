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

void checkSweep(const Sweep& s, const char* what) {
    if (!isFinite(s.localCenter) || !isFinite(s.c1) || !isFinite(s.c2)) {
        refuse(std::string(what) + ": sweep centres must be finite");
    }
    checkRot(s.q1, what);
    checkRot(s.q2, what);
}

}  // namespace

DistanceResult shapeDistance(const ShapeGeometry& a, const Transform& xfA,
                             const ShapeGeometry& b, const Transform& xfB,
                             SimplexCache* cache) {
    validate(a);
    validate(b);
    checkTransform(xfA, "shapeDistance");
    checkTransform(xfB, "shapeDistance");
    return detail::shapeDistance(detail::makeRef(a), xfA, detail::makeRef(b), xfB, cache);
}

Manifold collide(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                 const Transform& xfB, SimplexCache* cache) {
    validate(a);
    validate(b);
    checkTransform(xfA, "collide");
    checkTransform(xfB, "collide");
    return detail::collideShapes(detail::makeRef(a), xfA, detail::makeRef(b), xfB, cache);
}

ToiResult timeOfImpact(const ShapeGeometry& a, const Sweep& sweepA, const ShapeGeometry& b,
                       const Sweep& sweepB, float tMax, float target) {
    validate(a);
    validate(b);
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
    validate(a);
    validate(b);
    checkTransform(xfA, "shapeCast");
    checkTransform(xfB, "shapeCast");
    if (!isFinite(translationB)) refuse("shapeCast: translation must be finite");
    if (!(maxFraction >= 0.0f) || !isFinite(maxFraction)) {
        refuse("shapeCast: maxFraction must be finite and >= 0");
    }
    return detail::shapeCast(detail::makeRef(a), xfA, detail::makeRef(b), xfB, translationB,
                             maxFraction);
}

}  // namespace carom
