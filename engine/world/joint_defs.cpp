// Joint defs from world coordinates: the helpers that let a game say
// "pin these two bodies here" without converting anchors by hand.
#include <string>

#include "engine/core/rules.hpp"
#include "engine/world/world_impl.hpp"

namespace carom {
namespace {

Vec2 unitAxis(Vec2 v) {
    detail::requireAxis(v, "worldAxis");
    return normalizeOrZero(v);
}

template <class Def>
Def base(const World& w, BodyId a, BodyId b, Vec2 anchorA, Vec2 anchorB, const char* fieldA,
         const char* fieldB) {
    // Any point a body's shapes reach (see World::applyForce).
    detail::requireBox(anchorA, kMaxJointLength, fieldA);
    detail::requireBox(anchorB, kMaxJointLength, fieldB);
    if (!w.isValid(a)) detail::refuseStale("a", "body");
    if (!w.isValid(b)) detail::refuseStale("b", "body");
    Def d;
    d.bodyA = a;
    d.bodyB = b;
    d.localAnchorA = w.localPoint(a, anchorA);
    d.localAnchorB = w.localPoint(b, anchorB);
    return d;
}

}  // namespace

RevoluteJointDef World::makeRevoluteJointDef(BodyId a, BodyId b, Vec2 anchor) const {
    auto d = base<RevoluteJointDef>(*this, a, b, anchor, anchor, "worldAnchor", "worldAnchor");
    d.referenceAngle = relativeAngle(rotation(a), rotation(b));
    return d;
}

PrismaticJointDef World::makePrismaticJointDef(BodyId a, BodyId b, Vec2 anchor, Vec2 axis) const {
    auto d = base<PrismaticJointDef>(*this, a, b, anchor, anchor, "worldAnchor", "worldAnchor");
    d.localAxisA = localVector(a, unitAxis(axis));
    d.referenceAngle = relativeAngle(rotation(a), rotation(b));
    return d;
}

DistanceJointDef World::makeDistanceJointDef(BodyId a, BodyId b, Vec2 anchorA, Vec2 anchorB) const {
    auto d = base<DistanceJointDef>(*this, a, b, anchorA, anchorB, "worldAnchorA", "worldAnchorB");
    float len = distance(anchorA, anchorB);
    d.length = len > kLinearSlop ? len : kLinearSlop;
    return d;
}

WeldJointDef World::makeWeldJointDef(BodyId a, BodyId b, Vec2 anchor) const {
    auto d = base<WeldJointDef>(*this, a, b, anchor, anchor, "worldAnchor", "worldAnchor");
    d.referenceAngle = relativeAngle(rotation(a), rotation(b));
    return d;
}

WheelJointDef World::makeWheelJointDef(BodyId a, BodyId b, Vec2 anchor, Vec2 axis) const {
    auto d = base<WheelJointDef>(*this, a, b, anchor, anchor, "worldAnchor", "worldAnchor");
    d.localAxisA = localVector(a, unitAxis(axis));
    return d;
}

MotorJointDef World::makeMotorJointDef(BodyId a, BodyId b) const {
    MotorJointDef d;
    d.bodyA = a;
    d.bodyB = b;
    d.linearOffset = localPoint(a, position(b));
    d.angularOffset = relativeAngle(rotation(a), rotation(b));
    return d;
}

MouseJointDef World::makeMouseJointDef(BodyId a, BodyId b, Vec2 target) const {
    auto d = base<MouseJointDef>(*this, a, b, target, target, "worldTarget", "worldTarget");
    d.target = target;
    return d;
}

GearJointDef World::makeGearJointDef(JointId jointA, JointId jointB, float ratio) const {
    if (!isValid(jointA)) detail::refuseStale("jointA", "joint");
    if (!isValid(jointB)) detail::refuseStale("jointB", "joint");
    GearJointDef d;
    d.jointA = jointA;
    d.jointB = jointB;
    d.bodyA = jointBodyB(jointA);
    d.bodyB = jointBodyB(jointB);
    d.ratio = ratio;
    return d;
}

PulleyJointDef World::makePulleyJointDef(BodyId a, BodyId b, Vec2 groundA, Vec2 groundB,
                                         Vec2 anchorA, Vec2 anchorB, float ratio) const {
    auto d = base<PulleyJointDef>(*this, a, b, anchorA, anchorB, "worldAnchorA", "worldAnchorB");
    detail::requireCoordinate(groundA, "worldGroundA");
    detail::requireCoordinate(groundB, "worldGroundB");
    d.groundAnchorA = groundA;
    d.groundAnchorB = groundB;
    d.lengthA = distance(anchorA, groundA);
    d.lengthB = distance(anchorB, groundB);
    d.ratio = ratio;
    return d;
}

RopeJointDef World::makeRopeJointDef(BodyId a, BodyId b, Vec2 anchorA, Vec2 anchorB) const {
    auto d = base<RopeJointDef>(*this, a, b, anchorA, anchorB, "worldAnchorA", "worldAnchorB");
    const float len = distance(anchorA, anchorB);
    d.maxLength = len > kLinearSlop ? len : kLinearSlop;
    return d;
}

}  // namespace carom
