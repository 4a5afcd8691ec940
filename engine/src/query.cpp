// World queries: boxes, points, rays and shape sweeps over every shape.
#include <limits>

#include "engine/src/world_impl.hpp"

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
    const auto& w = *impl_;
    for (size_t i = 0; i < w.shapes.size(); ++i) {
        const auto& s = w.shapes[i];
        if (!s.alive || !passes(s, filter) || !aabbOverlaps(s.aabb, box)) continue;
        if (!fn(w.shapeId(int(i)))) return;
    }
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

void World::castRay(Vec2 origin, Vec2 translation, const QueryFilter& filter,
                    const std::function<float(ShapeId, Vec2, Vec2, float)>& fn) const {
    requireRay(origin, translation);
    const auto& w = *impl_;
    float maxFraction = 1.0f;
    for (size_t i = 0; i < w.shapes.size() && maxFraction > 0.0f; ++i) {
        const auto& s = w.shapes[i];
        if (!s.alive || !passes(s, filter)) continue;
        RayCastInput in{origin, translation, maxFraction};
        CastOutput out = carom::rayCast(in, w.geometry(s), w.bodies[size_t(s.body)].xf);
        if (!out.hit) continue;
        float f = fn(w.shapeId(int(i)), out.point, out.normal, out.fraction);
        if (f >= 0.0f && f < maxFraction) maxFraction = f;
    }
}

RayResult World::castRayClosest(Vec2 origin, Vec2 translation, const QueryFilter& filter) const {
    RayResult best;
    castRay(origin, translation, filter, [&](ShapeId id, Vec2 p, Vec2 n, float f) {
        best = {id, p, n, f, true};
        return f;
    });
    return best;
}

}  // namespace carom
