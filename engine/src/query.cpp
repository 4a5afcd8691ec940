// World queries: boxes, points, rays and shape sweeps, through the
// broadphase. The broadphase culls by fat box and by the query's mask against
// each proxy's category; the rest of the filter (the shape's mask against the
// query's category) and the exact geometry test happen here.
#include <limits>

#include "engine/src/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom {
namespace {

bool passes(const detail::Shape& s, const QueryFilter& f) {
    return (s.filter.categoryBits & f.maskBits) != 0 && (s.filter.maskBits & f.categoryBits) != 0;
}

void requireRay(Vec2 origin, Vec2 translation) {
    if (!isFinite(origin) || !isFinite(translation))
        throw Error(ErrorCode::InvalidArgument, "ray origin and translation must be finite");
}

}  // namespace

void World::queryAABB(const AABB& box, const QueryFilter& filter,
                      const std::function<bool(ShapeId)>& fn) const {
    if (!carom::isValid(box)) throw Error(ErrorCode::InvalidArgument, "query box must be finite and ordered");
    const auto& w = live();
    w.broadphase.query(box, filter.maskBits, [&](int shape) {
        const auto& s = w.shapes[size_t(shape)];
        if (!passes(s, filter)) return true;
        return fn(w.shapeId(shape));
    });
}

std::vector<ShapeId> World::queryPoint(Vec2 p, const QueryFilter& filter) const {
    if (!isFinite(p)) throw Error(ErrorCode::InvalidArgument, "query point must be finite");
    std::vector<ShapeId> out;
    queryAABB(AABB{p, p}, filter, [&](ShapeId id) {
        if (containsPoint(id, p)) out.push_back(id);
        return true;
    });
    return out;
}

// The user's callback returns the new max fraction: 0 stops, the hit's
// fraction clips (closest hit), 1 or more goes on (all hits). The broadphase
// callback has the same meaning, so the value passes straight through; a
// proxy whose shape the ray misses answers "go on" with the current fraction.
void World::castRay(Vec2 origin, Vec2 translation, const QueryFilter& filter,
                    const std::function<float(ShapeId, Vec2, Vec2, float)>& fn) const {
    requireRay(origin, translation);
    const auto& w = live();
    const RayCastInput input{origin, translation, 1.0f};
    w.broadphase.rayCast(input, filter.maskBits, [&](const RayCastInput& clipped, int shape) {
        const auto& s = w.shapes[size_t(shape)];
        if (!passes(s, filter)) return clipped.maxFraction;
        const CastOutput out = carom::rayCast(clipped, w.geometry(s), w.bodies[size_t(s.body)].xf);
        if (!out.hit) return clipped.maxFraction;
        return fn(w.shapeId(shape), out.point, out.normal, out.fraction);
    });
}

RayResult World::castRayClosest(Vec2 origin, Vec2 translation, const QueryFilter& filter) const {
    RayResult best;
    castRay(origin, translation, filter, [&](ShapeId id, Vec2 p, Vec2 n, float f) {
        // Equal fractions from different structures: keep the lower id so
        // the answer does not depend on the broadphase's visiting order.
        if (!best.hit || f < best.fraction || (f == best.fraction && id < best.shape))
            best = {id, p, n, f, true};
        return f;
    });
    return best;
}

void World::castShape(const ShapeGeometry& geometry, const Transform& xf, Vec2 translation,
                      const QueryFilter& filter,
                      const std::function<float(ShapeId, Vec2 point, Vec2 normal, float fraction)>& fn) const {
    validate(geometry);
    if (!isFinite(xf.p) || !isFinite(xf.q) || !isFinite(translation))
        throw Error(ErrorCode::InvalidArgument, "shape cast transform and translation must be finite");
    const auto& w = live();
    const detail::ShapeRef mover = detail::makeRef(geometry);
    const AABB box = computeAABB(geometry, xf);
    w.broadphase.shapeCast(box, translation, filter.maskBits, [&](const RayCastInput& in, int shape) {
        const auto& s = w.shapes[size_t(shape)];
        if (!passes(s, filter)) return in.maxFraction;
        const detail::ShapeRef target{s.type, w.geometryPtr(s)};
        const CastOutput out =
            detail::shapeCast(target, w.bodies[size_t(s.body)].xf, mover, xf, translation, in.maxFraction);
        if (!out.hit) return in.maxFraction;
        return fn(w.shapeId(shape), out.point, out.normal, out.fraction);
    });
}

}  // namespace carom
