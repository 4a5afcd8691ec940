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

namespace {

constexpr int kWindFaceParts = 4;

// The medium's velocity relative to a point of the body: its speed and
// direction (zero when still), and the dynamic pressure ½·density·speed².
struct Flow {
    Vec2 dir{0.0f, 0.0f};
    float speed = 0.0f;
    float pressure = 0.0f;
};
Flow flowAt(Vec2 point, const WindBody& body, const Wind& wind) {
    const Vec2 r = point - body.center;
    const Vec2 rel = wind.velocity - (body.v + Vec2{-body.w * r.y, body.w * r.x});
    const float speed = length(rel);
    if (!(speed > 0.0f)) return {};
    return {(1.0f / speed) * rel, speed, 0.5f * wind.density * speed * speed};
}

// Calls fn(point, flow, force) for each part of the shape the medium pushes.
// The core's faces: a polygon's edges counter-clockwise (outward normal on
// the right), and for a two-point core both directions, so both sides of a
// segment or capsule; a one-point core has no face. The flow differs along
// a turning face (a box spinning in still air meets it only off its faces'
// midpoints), so each face is taken in kWindFaceParts equal parts, each at
// its own midpoint. The rounded part is one more, at the core's centre.
template <class Fn>
void forEachWindPart(ShapeRef s, const WindBody& body, const Wind& wind, Fn&& fn) {
    const Proxy p = makeProxy(s);
    if (p.count >= 2) {
        for (int i = 0; i < p.count; ++i) {
            const Vec2 a = transformPoint(body.xf, p.vertex(i));
            const Vec2 b = transformPoint(body.xf, p.vertex(i + 1 < p.count ? i + 1 : 0));
            const Vec2 d = b - a;
            const float len = length(d);
            if (!(len > 0.0f)) continue;
            const Vec2 n = (1.0f / len) * Vec2{d.y, -d.x};
            const float partLen = len / float(kWindFaceParts);
            for (int k = 0; k < kWindFaceParts; ++k) {
                const Vec2 mid = lerp(a, b, (float(k) + 0.5f) / float(kWindFaceParts));
                const Flow f = flowAt(mid, body, wind);
                const float facing = -dot(n, f.dir);  // cosine of the angle of attack
                if (!(facing > 0.0f)) continue;       // this part looks away from the flow
                // Lift: the part of the face's push (-n) across the flow; its
                // size is the sine of the angle of attack, so it vanishes when
                // the face is square to the flow or along it.
                const Vec2 across = -1.0f * (n + facing * f.dir);
                fn(mid, f,
                   (f.pressure * partLen * facing) * (wind.drag * f.dir + wind.lift * across));
            }
        }
    }
    if (p.radius > 0.0f && p.count > 0) {
        Vec2 sum{0.0f, 0.0f};
        for (int i = 0; i < p.count; ++i) sum = sum + p.vertex(i);
        const Vec2 c = transformPoint(body.xf, (1.0f / float(p.count)) * sum);
        const Flow f = flowAt(c, body, wind);
        if (f.speed > 0.0f) fn(c, f, (f.pressure * 2.0f * p.radius * wind.drag) * f.dir);
    }
}

}  // namespace

WindLoad windLoad(ShapeRef s, const WindBody& body, const Wind& wind) {
    WindLoad load;
    forEachWindPart(s, body, wind, [&](Vec2 point, const Flow&, Vec2 force) {
        load.force = load.force + force;
        load.torque += cross(point - body.center, force);
    });
    if (!(wind.timeStep > 0.0f)) return load;
    // Wind::timeStep's limit: what the load alone would do over the step, at
    // each point it pushes, against the flow there; and against the spin.
    const Vec2 dv = (wind.timeStep * body.invMass) * load.force;
    const float dw = wind.timeStep * body.invInertia * load.torque;
    float scale = 1.0f;
    forEachWindPart(s, body, wind, [&](Vec2 point, const Flow& f, Vec2) {
        const Vec2 r = point - body.center;
        const float change = length(dv + Vec2{-dw * r.y, dw * r.x});
        if (change * scale > f.speed) scale = f.speed / change;
    });
    if (dw * body.w < 0.0f && std::fabs(dw) * scale > std::fabs(body.w))
        scale = std::fabs(body.w) / std::fabs(dw);
    load.force = scale * load.force;
    load.torque = scale * load.torque;
    return load;
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
