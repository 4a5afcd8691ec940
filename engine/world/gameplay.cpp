// What games build on the engine and would otherwise write by hand against
// the public API: explosions, wind and kinematic targets.
#include <algorithm>
#include <cmath>

#include <carom/validate.hpp>

#include "engine/core/rules.hpp"
#include "engine/world/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom {

void World::explode(const ExplosionDef& def) {
    detail::WorldImpl& w = live();
    w.checkUnlocked();
    // The rules of <carom/validate.hpp>'s primitives: a point in the world,
    // distances of at most a world's width, an impulse within the force bound.
    detail::requireCoordinate(def.position, "position");
    detail::requireRange(def.radius, 0.0f, kMaxDistance, "radius", " m");
    detail::requireRange(def.falloff, 0.0f, kMaxDistance, "falloff", " m");
    detail::requireForce(def.impulsePerLength, "impulsePerLength");
    const float reach = def.radius + def.falloff;
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
        const detail::ShapeRef target = w.shapeRef(s);
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
        const float scale =
            d.distance <= def.radius || def.falloff == 0.0f
                ? 1.0f
                : std::clamp(1.0f - (d.distance - def.radius) / def.falloff, 0.0f, 1.0f);
        const float magnitude =
            def.impulsePerLength * detail::shapeWidthAcross(target, b.xf, dir) * scale;
        if (magnitude == 0.0f) continue;
        w.wakeBody(s.body);
        // As applyLinearImpulse: within the impulse and speed bounds, after
        // each shape (a body with several shapes gets several pushes).
        detail::applyImpulse(w, b, magnitude * dir, d.overlap ? b.center : d.pointB);
    }
}

void World::applyWind(ShapeId id, const Wind& wind, bool wake) {
    detail::WorldImpl& w = live();
    w.checkUnlocked();
    const detail::Shape& s = w.shape(id, "shape");
    validate(wind);
    detail::Body& b = w.bodies[size_t(s.body)];
    if (b.type != BodyType::Dynamic || s.isSensor) return;
    if (wake) w.wakeBody(s.body);
    if (!b.awake) return;
    const detail::WindLoad load = detail::windLoad(
        w.shapeRef(s), detail::WindBody{b.xf, b.center, b.v, b.w, b.invMass, b.invInertia}, wind);
    b.force = detail::clampForce(b.force + load.force);
    b.torque = detail::clampForce(b.torque + load.torque);
}

void World::setTargetTransform(BodyId id, const Transform& target, float timeStep) {
    detail::WorldImpl& wi = live();
    wi.checkUnlocked();
    detail::Body& b = wi.body(id);
    detail::requirePose(target, "target");
    detail::requireRange(timeStep, 0.0f, kMaxTimeStep, "timeStep", " s");
    if (!(timeStep > 0.0f)) detail::refuse("timeStep", "> 0", detail::formatFloat(timeStep));
    if (b.type == BodyType::Static) return;
    // The centre of mass moves in a straight line to where it sits at the target.
    const Vec2 targetCenter = transformPoint(target, b.localCenter);
    const float invDt = 1.0f / timeStep;
    const Vec2 v = invDt * (targetCenter - b.center);
    // Shortest rotation from q to target.q: angle of target.q · conj(q).
    const Rot q = b.xf.q;
    const float c = target.q.c * q.c + target.q.s * q.s;
    const float s = target.q.s * q.c - target.q.c * q.s;
    const float w = b.fixedRotation ? 0.0f : invDt * computeAtan2(s, c);
    // The velocities must be ones the body could be given directly.
    detail::requireLinearVelocity(v, "target.p");
    detail::requireAngularVelocity(w, "target.q");
    if (lengthSquared(v) > 0.0f || w != 0.0f) wi.wakeBody(id.index);
    b.v = v;
    b.w = w;
    wi.applyMotionLocks(b);
}

}  // namespace carom
