// What games build on the engine and would otherwise write by hand against
// the public API: explosions and kinematic targets.
#include <algorithm>
#include <cmath>

#include "engine/src/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom {

void World::explode(const ExplosionDef& def) {
    impl_->checkUnlocked();
    if (!isFinite(def.position)) throw Error(ErrorCode::InvalidArgument, "explosion position must be finite");
    if (!isFinite(def.radius) || def.radius < 0.0f)
        throw Error(ErrorCode::InvalidArgument, "explosion radius must be finite and >= 0");
    if (!isFinite(def.falloff) || def.falloff < 0.0f)
        throw Error(ErrorCode::InvalidArgument, "explosion falloff must be finite and >= 0");
    if (!isFinite(def.impulsePerLength))
        throw Error(ErrorCode::InvalidArgument, "explosion impulsePerLength must be finite");
    const float reach = def.radius + def.falloff;
    if (!isFinite(reach)) throw Error(ErrorCode::InvalidArgument, "explosion radius + falloff must be finite");

    detail::WorldImpl& w = *impl_;
    // Gather first, then push in shape order: the result must not depend on
    // the broadphase's visiting order (tree and sort-and-sweep differ).
    std::vector<int> hits;
    const Vec2 r{reach, reach};
    w.broadphase.query(AABB{def.position - r, def.position + r}, def.maskBits, [&](int shape) {
        const detail::Shape& s = w.shapes[size_t(shape)];
        if (!s.isSensor && (s.filter.categoryBits & def.maskBits) != 0 &&
            w.bodies[size_t(s.body)].type == BodyType::Dynamic)
            hits.push_back(shape);
        return true;
    });
    std::sort(hits.begin(), hits.end());

    const Circle point{def.position, 0.0f};
    const detail::ShapeRef blast = detail::makeRef(point);
    for (int shape : hits) {
        const detail::Shape& s = w.shapes[size_t(shape)];
        detail::Body& b = w.bodies[size_t(s.body)];
        const detail::ShapeRef target{s.type, w.geometryPtr(s)};
        const DistanceResult d = detail::shapeDistance(blast, Transform{}, target, b.xf, nullptr);
        if (d.distance > reach) continue;
        // Direction from the blast to the shape: along the closest points, or,
        // when the blast is inside the shape, from the blast to its centre of mass.
        Vec2 dir = d.pointB - def.position;
        float len = length(dir);
        if (d.overlap || len < kLinearSlop) {
            dir = b.center - def.position;
            len = length(dir);
            if (len < kLinearSlop) continue;  // blast at the centre: no direction to push
        }
        dir = (1.0f / len) * dir;
        const float scale = d.distance <= def.radius || def.falloff == 0.0f
                                ? 1.0f
                                : std::clamp(1.0f - (d.distance - def.radius) / def.falloff, 0.0f, 1.0f);
        const float magnitude = def.impulsePerLength * detail::shapeWidthAcross(target, b.xf, dir) * scale;
        if (magnitude == 0.0f) continue;
        const Vec2 impulse = magnitude * dir;
        const Vec2 at = d.overlap ? b.center : d.pointB;
        w.wakeBody(s.body);
        b.v += b.invMass * impulse;
        b.w += b.invInertia * cross(at - b.center, impulse);
    }
}

void World::setTargetTransform(BodyId id, const Transform& target, float timeStep) {
    impl_->checkUnlocked();
    detail::Body& b = impl_->body(id);
    if (!isFinite(target.p) || !isFinite(target.q.c) || !isFinite(target.q.s))
        throw Error(ErrorCode::InvalidArgument, "target transform must be finite");
    const float len = std::sqrt(target.q.c * target.q.c + target.q.s * target.q.s);
    if (!(std::fabs(len - 1.0f) <= 1.0e-4f))
        throw Error(ErrorCode::InvalidArgument, "target rotation is not a unit (cos, sin) pair");
    if (!isFinite(timeStep) || !(timeStep > 0.0f))
        throw Error(ErrorCode::InvalidArgument, "target time step must be finite and > 0");
    if (b.type == BodyType::Static) return;
    // The centre of mass moves in a straight line to where it sits at the target.
    const Vec2 targetCenter = transformPoint(target, b.localCenter);
    const float invDt = 1.0f / timeStep;
    const Vec2 v = invDt * (targetCenter - b.center);
    // Shortest rotation from q to target.q: angle of target.q · conj(q).
    const Rot q = b.xf.q;
    const float c = target.q.c * q.c + target.q.s * q.s;
    const float s = target.q.s * q.c - target.q.c * q.s;
    const float w = b.fixedRotation ? 0.0f : invDt * std::atan2(s, c);
    if (!isFinite(v) || !isFinite(w))
        throw Error(ErrorCode::InvalidArgument, "target transform is too far to reach in timeStep");
    if (lengthSquared(v) > 0.0f || w != 0.0f) impl_->wakeBody(id.index);
    b.v = v;
    b.w = w;
}

}  // namespace carom
