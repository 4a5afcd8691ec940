// Joints: validation, creation, destruction, and the def-level API. The
// constraint math lives in solver/.
#include <algorithm>
#include <string>

#include <carom/validate.hpp>

#include "engine/core/rules.hpp"
#include "engine/world/listing.hpp"
#include "engine/world/world_impl.hpp"

namespace carom {
namespace detail {

namespace {

// After validate() accepted a def: the axis is stored unit length, and a max
// force or torque above kMaxForce (3.4e38 is how files say "unlimited") is
// stored as kMaxForce, which no impulse reaches, so that the solver's
// h * max / h round trip and the reaction it reports stay finite.
template <class Def>
void normalise(Def& d) {
    if constexpr (requires { d.localAxisA; }) d.localAxisA = normalizeOrZero(d.localAxisA);
    if constexpr (requires { d.maxMotorTorque; })
        d.maxMotorTorque = std::min(d.maxMotorTorque, kMaxForce);
    if constexpr (requires { d.maxMotorForce; })
        d.maxMotorForce = std::min(d.maxMotorForce, kMaxForce);
    if constexpr (requires { d.maxForce; }) d.maxForce = std::min(d.maxForce, kMaxForce);
    if constexpr (requires { d.maxTorque; }) d.maxTorque = std::min(d.maxTorque, kMaxForce);
}

template <class Def>
JointType typeFor() {
    return static_cast<JointType>(JointDefVariant(Def{}).index());
}

}  // namespace

// ---- gears: the world's part ---------------------------------------------------
// A gear couples two other joints: what it needs of them (their type, anchors,
// axis, reference angle, and their bodies' poses) is read here, in the world
// layer, into the gear's GearSolverData sides; solver/joint_gear.cpp builds
// and solves the row from those alone.

namespace {

const Joint& gearedJoint(const WorldImpl& w, JointId id) {
    return w.joints[size_t(id.index)];
}

// The geared joint's coordinate at the bodies' step-start poses, and for a
// prismatic joint the frames the substeps move. Revolute coordinates come out
// wrapped; the caller counts the turns.
void measureSide(const WorldImpl& w, const Joint& g, GearSide& side, float& value) {
    const Body& base = w.bodies[size_t(g.bodyA)];
    const Body& moving = w.bodies[size_t(g.bodyB)];
    side.indexBase = base.awakeIndex;  // the solver index, during a step
    side.indexMoving = moving.awakeIndex;
    if (const auto* r = std::get_if<RevoluteJointDef>(&g.def)) {
        side.prismatic = false;
        value = unwindAngle(relativeAngle(base.xf.q, moving.xf.q) - r->referenceAngle);
        return;
    }
    // createJoint admitted only revolute and prismatic joints, and a joint's
    // type never changes: this is the prismatic one (get_if: step never throws).
    const auto& p = *std::get_if<PrismaticJointDef>(&g.def);
    side.prismatic = true;
    side.frameBase = rotate(base.xf.q, p.localAnchorA - base.localCenter);
    side.frameMoving = rotate(moving.xf.q, p.localAnchorB - moving.localCenter);
    side.deltaCenter = moving.center - base.center;
    side.axis = rotate(base.xf.q, p.localAxisA);
    value = dot(side.axis, side.deltaCenter + (side.frameMoving - side.frameBase));
}

}  // namespace

void initGearJoint(WorldImpl& w, Joint& gear) {
    const auto& d = std::get<GearJointDef>(gear.def);
    if (gear.carried.gearSlot < 0) gear.carried.gearSlot = allocateSlot(w.gears, w.freeGears);
    GearSolverData& g = w.gears[size_t(gear.carried.gearSlot)];
    g = GearSolverData{};
    const JointId ids[2] = {d.jointA, d.jointB};
    for (int k = 0; k < 2; ++k) {
        float value = 0.0f;
        measureSide(w, gearedJoint(w, ids[k]), g.sides[k], value);
        g.sides[k].coordinate = value;
        g.sides[k].wrapped = value;
    }
    g.constant = g.sides[0].coordinate + d.ratio * g.sides[1].coordinate;
}

void measureGear(const WorldImpl& w, const Joint& gear, GearSolverData& g) {
    const auto& d = *std::get_if<GearJointDef>(&gear.def);
    const JointId ids[2] = {d.jointA, d.jointB};
    for (int k = 0; k < 2; ++k) {
        GearSide& side = g.sides[k];
        float value = 0.0f;
        measureSide(w, gearedJoint(w, ids[k]), side, value);
        if (side.prismatic) {
            side.coordinate = value;
        } else {
            side.coordinate += unwindAngle(value - side.wrapped);
            side.wrapped = value;
        }
    }
}

// The contacts between two bodies, destroyed (with end events for those
// touching) when a joint between them comes to forbid their collision.
static void destroyContactsBetween(WorldImpl& w, int bodyA, int bodyB) {
    auto& list = w.bodies[size_t(bodyA)].contacts;
    for (int i = int(list.size()) - 1; i >= 0; --i) {
        if (i >= int(list.size())) continue;
        const Contact& c = w.contacts[size_t(list[size_t(i)])];
        if (c.bodyA == bodyB || c.bodyB == bodyB) destroyContact(w, list[size_t(i)], false);
    }
}

// Asks the broadphase to report the pairs of the body with fewer shapes
// again at the next step, so that contacts a joint no longer forbids are
// made then; the pairs come sorted by shape index, as any new pair does.
static void searchPairsBetween(WorldImpl& w, int bodyA, int bodyB) {
    const Body& a = w.bodies[size_t(bodyA)];
    const Body& b = w.bodies[size_t(bodyB)];
    for (int s : (a.shapes.size() <= b.shapes.size() ? a.shapes : b.shapes))
        if (w.shapes[size_t(s)].proxy >= 0) w.broadphase.touchProxy(w.shapes[size_t(s)].proxy);
}

Joint& WorldImpl::joint(JointId id, const char* field) {
    return const_cast<Joint&>(static_cast<const WorldImpl*>(this)->joint(id, field));
}
const Joint& WorldImpl::joint(JointId id, const char* field) const {
    if (id.index < 0 || size_t(id.index) >= joints.size() || !joints[size_t(id.index)].alive ||
        joints[size_t(id.index)].generation != id.generation)
        refuseStale(field, "joint");
    return joints[size_t(id.index)];
}

void WorldImpl::removeJoint(int jointIndex) {
    // Already gone: a gear removed with the joint it gears, listed again by
    // World::destroyBody's copy of the body's joints.
    if (!joints[size_t(jointIndex)].alive) return;
    // A gear cannot outlive a joint it gears: it would read a dead slot. Gears
    // sit in the lists of their geared joints' moving bodies (bodyB), so
    // looking at this joint's two bodies finds every gear that names it.
    if (!std::holds_alternative<GearJointDef>(joints[size_t(jointIndex)].def)) {
        const JointId self = jointId(jointIndex);
        for (int b : {joints[size_t(jointIndex)].bodyA, joints[size_t(jointIndex)].bodyB}) {
            const std::vector<int> list = bodies[size_t(b)].joints;
            for (int g : list) {
                const auto* gear = std::get_if<GearJointDef>(&joints[size_t(g)].def);
                if (joints[size_t(g)].alive && gear &&
                    (gear->jointA == self || gear->jointB == self))
                    removeJoint(g);
            }
        }
    }
    Joint& j = joints[size_t(jointIndex)];
    if (j.islandLinked) unlinkBodies(*this, j.bodyA, j.bodyB);
    // Shapes the joint kept apart may collide again: search their pairs anew.
    if (!std::visit([](const auto& d) { return d.collideConnected; }, j.def))
        searchPairsBetween(*this, j.bodyA, j.bodyB);
    for (int b : {j.bodyA, j.bodyB}) {
        auto& list = bodies[size_t(b)].joints;
        auto it = std::find(list.begin(), list.end(), jointIndex);
        if (it != list.end()) list.erase(it);
        wakeBody(b);
    }
    if (j.carried.gearSlot >= 0) freeGears.push_back(j.carried.gearSlot);
    releaseSlot(joints, freeJoints, jointIndex);
    --jointCount;
}

template <class Def>
static JointId createJointImpl(WorldImpl& w, Def d) {
    w.checkUnlocked();
    w.body(d.bodyA, "bodyA");
    w.body(d.bodyB, "bodyB");
    validate(d);
    normalise(d);
    int index = allocateSlot(w.joints, w.freeJoints);
    Joint& j = w.joints[size_t(index)];
    j.alive = true;
    j.creationSeq = w.nextCreationSeq++;
    j.type = typeFor<Def>();
    j.bodyA = d.bodyA.index;
    j.bodyB = d.bodyB.index;
    j.def = d;
    w.bodies[size_t(j.bodyA)].joints.push_back(index);
    w.bodies[size_t(j.bodyB)].joints.push_back(index);
    ++w.jointCount;
    const int bodyA = j.bodyA, bodyB = j.bodyB;
    // A joint that forbids collision removes the contacts it now forbids.
    if (!d.collideConnected) destroyContactsBetween(w, bodyA, bodyB);
    w.wakeBody(bodyA);
    w.wakeBody(bodyB);
    // Joints of a disabled body are linked when it is enabled again.
    if (w.bodies[size_t(bodyA)].type == BodyType::Dynamic &&
        w.bodies[size_t(bodyB)].type == BodyType::Dynamic && w.bodies[size_t(bodyA)].enabled &&
        w.bodies[size_t(bodyB)].enabled) {
        linkBodies(w, bodyA, bodyB);
        w.joints[size_t(index)].islandLinked = true;
    }
    return w.jointId(index);
}

template <class Def>
static Def& defAs(WorldImpl& w, JointId id) {
    Joint& j = w.joint(id);
    if (auto* d = std::get_if<Def>(&j.def)) return *d;
    refuseWhy("id", "id is not a joint of the requested type");
}

}  // namespace detail

using detail::Joint;

JointId World::createJoint(const RevoluteJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const PrismaticJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const DistanceJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const WeldJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const WheelJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const MotorJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const MouseJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const PulleyJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const RopeJointDef& d) {
    return detail::createJointImpl(live(), d);
}
JointId World::createJoint(const FilterJointDef& d) {
    return detail::createJointImpl(live(), d);
}

// A gear's bodies are its joints' moving bodies; everything is checked before
// anything changes, then the constant is taken from the current poses.
JointId World::createJoint(const GearJointDef& def) {
    auto& w = live();
    w.checkUnlocked();
    validate(def);
    GearJointDef d = def;
    const JointId ids[2] = {d.jointA, d.jointB};
    const char* fields[2] = {"jointA", "jointB"};
    BodyId moving[2];
    for (int k = 0; k < 2; ++k) {
        w.joint(ids[k], fields[k]);
        const JointType t = jointType(ids[k]);
        if (t != JointType::Revolute && t != JointType::Prismatic)
            detail::refuseWhy(fields[k],
                              std::string(fields[k]) + " must be a revolute or prismatic joint");
        moving[k] = jointBodyB(ids[k]);
    }
    if (!d.bodyA.isNull() && d.bodyA != moving[0])
        detail::refuseWhy("bodyA", "bodyA must be null or jointA's bodyB");
    if (!d.bodyB.isNull() && d.bodyB != moving[1])
        detail::refuseWhy("bodyB", "bodyB must be null or jointB's bodyB");
    d.bodyA = moving[0];
    d.bodyB = moving[1];
    const JointId id = detail::createJointImpl(w, d);
    detail::initGearJoint(w, w.joints[size_t(id.index)]);
    return id;
}

void World::destroyJoint(JointId id) {
    live().checkUnlocked();
    live().joint(id);
    live().removeJoint(id.index);
}

bool World::isValid(JointId id) const {
    return id.index >= 0 && size_t(id.index) < live().joints.size() &&
           live().joints[size_t(id.index)].alive &&
           live().joints[size_t(id.index)].generation == id.generation;
}

std::vector<JointId> World::joints() const {
    const auto& w = live();
    return detail::liveInCreationOrder<JointId>(w.joints, [&](int i) { return w.jointId(i); });
}
int World::joints(std::span<JointId> out) const {
    const auto& w = live();
    return detail::liveInCreationOrder<JointId>(
        w.joints, [&](int i) { return w.jointId(i); }, out);
}

JointType World::jointType(JointId id) const {
    return live().joint(id).type;
}
BodyId World::jointBodyA(JointId id) const {
    return live().bodyId(live().joint(id).bodyA);
}
BodyId World::jointBodyB(JointId id) const {
    return live().bodyId(live().joint(id).bodyB);
}
Vec2 World::jointLocalAnchorA(JointId id) const {
    return std::visit([](const auto& d) { return d.localAnchorA; }, live().joint(id).def);
}
Vec2 World::jointLocalAnchorB(JointId id) const {
    return std::visit([](const auto& d) { return d.localAnchorB; }, live().joint(id).def);
}
bool World::jointCollideConnected(JointId id) const {
    return std::visit([](const auto& d) { return d.collideConnected; }, live().joint(id).def);
}
void World::setJointCollideConnected(JointId id, bool flag) {
    auto& w = live();
    w.checkUnlocked();
    Joint& j = w.joint(id);
    const bool was = std::visit([](const auto& d) { return d.collideConnected; }, j.def);
    if (was == flag) return;
    std::visit([flag](auto& d) { d.collideConnected = flag; }, j.def);
    // Turned on, another joint between the same bodies may still forbid the
    // pair: shouldCollide asks all of them when the pairs come back.
    if (flag)
        detail::searchPairsBetween(w, j.bodyA, j.bodyB);
    else
        detail::destroyContactsBetween(w, j.bodyA, j.bodyB);
    w.wakeBody(j.bodyA);
    w.wakeBody(j.bodyB);
}
void* World::userData(JointId id) const {
    return std::visit([](const auto& d) { return d.userData; }, live().joint(id).def);
}
void World::setUserData(JointId id, void* data) {
    std::visit([data](auto& d) { d.userData = data; }, live().joint(id).def);
}
Vec2 World::jointConstraintForce(JointId id) const {
    return live().joint(id).reactionForce;
}
float World::jointConstraintTorque(JointId id) const {
    return live().joint(id).reactionTorque;
}
Vec2 World::jointReactionForce(JointId id) const {
    return jointConstraintForce(id);
}
float World::jointReactionTorque(JointId id) const {
    return jointConstraintTorque(id);
}

float World::jointForceThreshold(JointId id) const {
    return std::visit([](const auto& d) { return d.forceThreshold; }, live().joint(id).def);
}
float World::jointTorqueThreshold(JointId id) const {
    return std::visit([](const auto& d) { return d.torqueThreshold; }, live().joint(id).def);
}

float World::revoluteAngle(JointId id) const {
    const Joint& j = live().joint(id);
    const auto* d = std::get_if<RevoluteJointDef>(&j.def);
    if (!d) detail::refuseWhy("id", "id is not a revolute joint");
    const auto& a = live().bodies[size_t(j.bodyA)];
    const auto& b = live().bodies[size_t(j.bodyB)];
    return unwindAngle(relativeAngle(a.xf.q, b.xf.q) - d->referenceAngle);
}

float World::jointTranslation(JointId id) const {
    const Joint& j = live().joint(id);
    Vec2 localAxis{0.0f, 0.0f};
    if (const auto* p = std::get_if<PrismaticJointDef>(&j.def))
        localAxis = p->localAxisA;
    else if (const auto* w = std::get_if<WheelJointDef>(&j.def))
        localAxis = w->localAxisA;
    else
        detail::refuseWhy("id", "id is not a prismatic or wheel joint");
    const auto& a = live().bodies[size_t(j.bodyA)];
    const auto& b = live().bodies[size_t(j.bodyB)];
    Vec2 pA = transformPoint(a.xf, jointLocalAnchorA(id));
    Vec2 pB = transformPoint(b.xf, jointLocalAnchorB(id));
    return dot(pB - pA, rotate(a.xf.q, localAxis));
}

float World::distanceJointLength(JointId id) const {
    const Joint& j = live().joint(id);
    if (!std::holds_alternative<DistanceJointDef>(j.def) &&
        !std::holds_alternative<RopeJointDef>(j.def))
        detail::refuseWhy("id", "id is not a distance or rope joint");
    Vec2 pA = transformPoint(live().bodies[size_t(j.bodyA)].xf, jointLocalAnchorA(id));
    Vec2 pB = transformPoint(live().bodies[size_t(j.bodyB)].xf, jointLocalAnchorB(id));
    return distance(pA, pB);
}

static float pulleyLength(const detail::WorldImpl& w, JointId id, bool sideA) {
    const Joint& j = w.joint(id);
    const auto* d = std::get_if<PulleyJointDef>(&j.def);
    if (!d) detail::refuseWhy("id", "id is not a pulley joint");
    if (sideA)
        return distance(transformPoint(w.bodies[size_t(j.bodyA)].xf, d->localAnchorA),
                        d->groundAnchorA);
    return distance(transformPoint(w.bodies[size_t(j.bodyB)].xf, d->localAnchorB),
                    d->groundAnchorB);
}
float World::pulleyLengthA(JointId id) const {
    return pulleyLength(live(), id, true);
}
float World::pulleyLengthB(JointId id) const {
    return pulleyLength(live(), id, false);
}

// ---- setters: validate, update the stored def, wake both bodies ------------

namespace {
template <class Fn>
void changeJoint(detail::WorldImpl& w, JointId id, Fn&& fn, bool wake = true) {
    w.checkUnlocked();
    Joint& j = w.joint(id);
    detail::JointDefVariant copy = j.def;
    // Either may throw: the stored def is untouched then. The changed def
    // passes the same validate() as a def given to createJoint.
    std::visit(fn, copy);
    std::visit(
        [](auto& d) {
            validate(d);
            detail::normalise(d);
        },
        copy);
    j.def = copy;
    if (!wake) return;
    w.wakeBody(j.bodyA);
    w.wakeBody(j.bodyB);
}
[[noreturn]] void wrongType(const char* what) {
    detail::refuseWhy("id", std::string("joint has no ") + what);
}
}  // namespace

void World::enableJointLimit(JointId id, bool flag) {
    changeJoint(live(), id, [&](auto& d) {
        if constexpr (requires { d.enableLimit; })
            d.enableLimit = flag;
        else
            wrongType("limit");
    });
}

void World::setJointLimits(JointId id, float lower, float upper) {
    changeJoint(live(), id, [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, RevoluteJointDef>) {
            d.lowerAngle = lower, d.upperAngle = upper;
        } else if constexpr (std::is_same_v<D, PrismaticJointDef> ||
                             std::is_same_v<D, WheelJointDef>) {
            d.lowerTranslation = lower, d.upperTranslation = upper;
        } else if constexpr (std::is_same_v<D, DistanceJointDef>) {
            d.minLength = lower, d.maxLength = upper;
        } else {
            wrongType("limits");
        }
    });
}

void World::enableJointMotor(JointId id, bool flag) {
    changeJoint(live(), id, [&](auto& d) {
        if constexpr (requires { d.enableMotor; })
            d.enableMotor = flag;
        else
            wrongType("motor");
    });
}

void World::setJointMotorSpeed(JointId id, float speed) {
    changeJoint(live(), id, [&](auto& d) {
        if constexpr (requires { d.motorSpeed; })
            d.motorSpeed = speed;
        else
            wrongType("motor");
    });
}

void World::setJointMaxMotorForce(JointId id, float value) {
    changeJoint(live(), id, [&](auto& d) {
        if constexpr (requires { d.maxMotorTorque; })
            d.maxMotorTorque = value;
        else if constexpr (requires { d.maxMotorForce; })
            d.maxMotorForce = value;
        else
            wrongType("motor");
    });
}

void World::enableJointSpring(JointId id, bool flag) {
    changeJoint(live(), id, [&](auto& d) {
        if constexpr (requires { d.enableSpring; })
            d.enableSpring = flag;
        else
            wrongType("spring");
    });
}

void World::setJointSpring(JointId id, float hertz, float dampingRatio) {
    changeJoint(live(), id, [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, WeldJointDef>) {
            d.linearHertz = d.angularHertz = hertz;
            d.linearDampingRatio = d.angularDampingRatio = dampingRatio;
        } else if constexpr (requires {
                                 d.hertz;
                                 d.dampingRatio;
                             }) {
            d.hertz = hertz, d.dampingRatio = dampingRatio;
        } else {
            wrongType("spring");
        }
    });
}

void World::setJointSpringTarget(JointId id, float target) {
    changeJoint(live(), id, [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, RevoluteJointDef>)
            d.targetAngle = target;
        else if constexpr (std::is_same_v<D, PrismaticJointDef>)
            d.targetTranslation = target;
        else
            wrongType("spring target");
    });
}

void World::setDistanceJointLength(JointId id, float length) {
    changeJoint(live(), id, [&](auto& d) {
        if constexpr (std::is_same_v<std::decay_t<decltype(d)>, DistanceJointDef>)
            d.length = length;
        else
            wrongType("length");
    });
}

void World::setMouseTarget(JointId id, Vec2 target) {
    changeJoint(live(), id, [&](auto& d) {
        if constexpr (std::is_same_v<std::decay_t<decltype(d)>, MouseJointDef>)
            d.target = target;
        else
            wrongType("target");
    });
}

void World::setMotorJointOffsets(JointId id, Vec2 linearOffset, float angularOffset) {
    changeJoint(live(), id, [&](auto& d) {
        if constexpr (std::is_same_v<std::decay_t<decltype(d)>, MotorJointDef>) {
            d.linearOffset = linearOffset, d.angularOffset = angularOffset;
        } else {
            wrongType("offsets");
        }
    });
}

// Thresholds only decide which events a step reports: no body is woken.
void World::setJointForceThreshold(JointId id, float threshold) {
    changeJoint(
        live(), id, [threshold](auto& d) { d.forceThreshold = threshold; }, false);
}
void World::setJointTorqueThreshold(JointId id, float threshold) {
    changeJoint(
        live(), id, [threshold](auto& d) { d.torqueThreshold = threshold; }, false);
}

RevoluteJointDef World::revoluteJointDef(JointId id) const {
    return detail::defAs<RevoluteJointDef>(live(), id);
}
PrismaticJointDef World::prismaticJointDef(JointId id) const {
    return detail::defAs<PrismaticJointDef>(live(), id);
}
DistanceJointDef World::distanceJointDef(JointId id) const {
    return detail::defAs<DistanceJointDef>(live(), id);
}
WeldJointDef World::weldJointDef(JointId id) const {
    return detail::defAs<WeldJointDef>(live(), id);
}
WheelJointDef World::wheelJointDef(JointId id) const {
    return detail::defAs<WheelJointDef>(live(), id);
}
MotorJointDef World::motorJointDef(JointId id) const {
    return detail::defAs<MotorJointDef>(live(), id);
}
MouseJointDef World::mouseJointDef(JointId id) const {
    return detail::defAs<MouseJointDef>(live(), id);
}
GearJointDef World::gearJointDef(JointId id) const {
    return detail::defAs<GearJointDef>(live(), id);
}
PulleyJointDef World::pulleyJointDef(JointId id) const {
    return detail::defAs<PulleyJointDef>(live(), id);
}
RopeJointDef World::ropeJointDef(JointId id) const {
    return detail::defAs<RopeJointDef>(live(), id);
}
FilterJointDef World::filterJointDef(JointId id) const {
    return detail::defAs<FilterJointDef>(live(), id);
}

}  // namespace carom
