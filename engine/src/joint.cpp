// Joints: validation, creation, destruction, and the def-level API. The
// constraint math lives in solver/.
#include <algorithm>
#include <string>

#include "engine/src/world_impl.hpp"

namespace carom {
namespace detail {

namespace {
[[noreturn]] void invalid(const std::string& what) { throw Error(ErrorCode::InvalidArgument, what); }
void finite(float x, const char* what) {
    if (!isFinite(x)) invalid(std::string("joint ") + what + " must be finite");
}
void finite(Vec2 v, const char* what) {
    if (!isFinite(v)) invalid(std::string("joint ") + what + " must be finite");
}
void nonNegative(float x, const char* what) {
    if (!isFinite(x) || x < 0.0f) invalid(std::string("joint ") + what + " must be finite and >= 0");
}
void ordered(float lo, float hi, const char* what) {
    finite(lo, what);
    finite(hi, what);
    if (lo > hi) invalid(std::string("joint ") + what + ": lower must be <= upper");
}
Vec2 unitAxis(Vec2 axis) {
    finite(axis, "axis");
    Vec2 n = normalizeOrZero(axis);
    if (lengthSquared(n) == 0.0f) invalid("joint axis must not be zero");
    return n;
}

void validateBase(const WorldImpl& w, const JointBase& d, bool sameBodyAllowed) {
    w.body(d.bodyA);
    w.body(d.bodyB);
    if (!sameBodyAllowed && d.bodyA == d.bodyB) invalid("a joint needs two different bodies");
    finite(d.localAnchorA, "anchor A");
    finite(d.localAnchorB, "anchor B");
}

// Per-type checks; each may normalise the def (axes to unit length).
// The joint angle is measured in (-π, π], so a limit outside it could never
// be reached (or would be crossed by wrapping): refuse it.
void angleLimits(float lower, float upper) {
    ordered(lower, upper, "angle limits");
    if (lower < -kPi || upper > kPi) invalid("joint angle limits must lie within [-π, π]");
}

void check(RevoluteJointDef& d) {
    finite(d.referenceAngle, "reference angle");
    angleLimits(d.lowerAngle, d.upperAngle);
    finite(d.motorSpeed, "motor speed");
    nonNegative(d.maxMotorTorque, "max motor torque");
    nonNegative(d.hertz, "spring hertz");
    nonNegative(d.dampingRatio, "damping ratio");
}
void check(PrismaticJointDef& d) {
    d.localAxisA = unitAxis(d.localAxisA);
    finite(d.referenceAngle, "reference angle");
    ordered(d.lowerTranslation, d.upperTranslation, "translation limits");
    finite(d.motorSpeed, "motor speed");
    nonNegative(d.maxMotorForce, "max motor force");
    nonNegative(d.hertz, "spring hertz");
    nonNegative(d.dampingRatio, "damping ratio");
}
void check(DistanceJointDef& d) {
    if (!isFinite(d.length) || !(d.length > 0.0f)) invalid("joint length must be finite and > 0");
    nonNegative(d.minLength, "min length");
    nonNegative(d.maxLength, "max length");
    if (d.minLength > d.maxLength) invalid("joint min length must be <= max length");
    nonNegative(d.hertz, "spring hertz");
    nonNegative(d.dampingRatio, "damping ratio");
}
void check(WeldJointDef& d) {
    finite(d.referenceAngle, "reference angle");
    nonNegative(d.linearHertz, "linear hertz");
    nonNegative(d.angularHertz, "angular hertz");
    nonNegative(d.linearDampingRatio, "linear damping ratio");
    nonNegative(d.angularDampingRatio, "angular damping ratio");
}
void check(WheelJointDef& d) {
    d.localAxisA = unitAxis(d.localAxisA);
    ordered(d.lowerTranslation, d.upperTranslation, "translation limits");
    finite(d.motorSpeed, "motor speed");
    nonNegative(d.maxMotorTorque, "max motor torque");
    nonNegative(d.hertz, "spring hertz");
    nonNegative(d.dampingRatio, "damping ratio");
}
void check(MotorJointDef& d) {
    finite(d.linearOffset, "linear offset");
    finite(d.angularOffset, "angular offset");
    nonNegative(d.maxForce, "max force");
    nonNegative(d.maxTorque, "max torque");
    if (!isFinite(d.correctionFactor) || d.correctionFactor < 0.0f || d.correctionFactor > 1.0f)
        invalid("joint correction factor must be in [0, 1]");
}
void check(MouseJointDef& d) {
    finite(d.target, "target");
    nonNegative(d.hertz, "hertz");
    nonNegative(d.dampingRatio, "damping ratio");
    nonNegative(d.maxForce, "max force");
}

template <class Def>
JointType typeFor() {
    return static_cast<JointType>(JointDefVariant(Def{}).index());
}

}  // namespace

Joint& WorldImpl::joint(JointId id) {
    return const_cast<Joint&>(static_cast<const WorldImpl*>(this)->joint(id));
}
const Joint& WorldImpl::joint(JointId id) const {
    if (id.index < 0 || size_t(id.index) >= joints.size() || !joints[size_t(id.index)].alive ||
        joints[size_t(id.index)].generation != id.generation)
        throw Error(ErrorCode::StaleId, "stale or null joint id");
    return joints[size_t(id.index)];
}

void WorldImpl::removeJoint(int jointIndex) {
    Joint& j = joints[size_t(jointIndex)];
    if (j.islandLinked) unlinkBodies(*this, j.bodyA, j.bodyB);
    // Shapes the joint kept apart may collide again: search their pairs anew.
    if (!std::visit([](const auto& d) { return d.collideConnected; }, j.def)) {
        const Body& a = bodies[size_t(j.bodyA)];
        const Body& b = bodies[size_t(j.bodyB)];
        for (int s : (a.shapes.size() <= b.shapes.size() ? a.shapes : b.shapes))
            if (shapes[size_t(s)].proxy >= 0) broadphase.touchProxy(shapes[size_t(s)].proxy);
    }
    for (int b : {j.bodyA, j.bodyB}) {
        auto& list = bodies[size_t(b)].joints;
        auto it = std::find(list.begin(), list.end(), jointIndex);
        if (it != list.end()) list.erase(it);
        wakeBody(b);
    }
    releaseSlot(joints, freeJoints, jointIndex);
    --jointCount;
}

template <class Def>
static JointId createJointImpl(WorldImpl& w, Def d) {
    w.checkUnlocked();
    validateBase(w, d, false);
    check(d);
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
    if (!d.collideConnected) {
        auto& list = w.bodies[size_t(bodyA)].contacts;
        for (int i = int(list.size()) - 1; i >= 0; --i) {
            if (i >= int(list.size())) continue;
            const Contact& c = w.contacts[size_t(list[size_t(i)])];
            if (c.bodyA == bodyB || c.bodyB == bodyB) destroyContact(w, list[size_t(i)], false);
        }
    }
    w.wakeBody(bodyA);
    w.wakeBody(bodyB);
    if (w.bodies[size_t(bodyA)].type == BodyType::Dynamic && w.bodies[size_t(bodyB)].type == BodyType::Dynamic) {
        linkBodies(w, bodyA, bodyB);
        w.joints[size_t(index)].islandLinked = true;
    }
    return w.jointId(index);
}

template <class Def>
static Def& defAs(WorldImpl& w, JointId id) {
    Joint& j = w.joint(id);
    if (auto* d = std::get_if<Def>(&j.def)) return *d;
    throw Error(ErrorCode::InvalidArgument, "joint is not of the requested type");
}

}  // namespace detail

using detail::Joint;

JointId World::createJoint(const RevoluteJointDef& d) { return detail::createJointImpl(*impl_, d); }
JointId World::createJoint(const PrismaticJointDef& d) { return detail::createJointImpl(*impl_, d); }
JointId World::createJoint(const DistanceJointDef& d) { return detail::createJointImpl(*impl_, d); }
JointId World::createJoint(const WeldJointDef& d) { return detail::createJointImpl(*impl_, d); }
JointId World::createJoint(const WheelJointDef& d) { return detail::createJointImpl(*impl_, d); }
JointId World::createJoint(const MotorJointDef& d) { return detail::createJointImpl(*impl_, d); }
JointId World::createJoint(const MouseJointDef& d) { return detail::createJointImpl(*impl_, d); }

void World::destroyJoint(JointId id) {
    impl_->checkUnlocked();
    impl_->joint(id);
    impl_->removeJoint(id.index);
}

bool World::isValid(JointId id) const {
    return id.index >= 0 && size_t(id.index) < impl_->joints.size() &&
           impl_->joints[size_t(id.index)].alive &&
           impl_->joints[size_t(id.index)].generation == id.generation;
}

std::vector<JointId> World::joints() const {
    std::vector<int> live;
    for (size_t i = 0; i < impl_->joints.size(); ++i)
        if (impl_->joints[i].alive) live.push_back(int(i));
    std::sort(live.begin(), live.end(), [&](int a, int b) {
        return impl_->joints[size_t(a)].creationSeq < impl_->joints[size_t(b)].creationSeq;
    });
    std::vector<JointId> out;
    for (int i : live) out.push_back(impl_->jointId(i));
    return out;
}

JointType World::jointType(JointId id) const { return impl_->joint(id).type; }
BodyId World::jointBodyA(JointId id) const { return impl_->bodyId(impl_->joint(id).bodyA); }
BodyId World::jointBodyB(JointId id) const { return impl_->bodyId(impl_->joint(id).bodyB); }
Vec2 World::jointLocalAnchorA(JointId id) const {
    return std::visit([](const auto& d) { return d.localAnchorA; }, impl_->joint(id).def);
}
Vec2 World::jointLocalAnchorB(JointId id) const {
    return std::visit([](const auto& d) { return d.localAnchorB; }, impl_->joint(id).def);
}
bool World::jointCollideConnected(JointId id) const {
    return std::visit([](const auto& d) { return d.collideConnected; }, impl_->joint(id).def);
}
void* World::userData(JointId id) const {
    return std::visit([](const auto& d) { return d.userData; }, impl_->joint(id).def);
}
void World::setUserData(JointId id, void* data) {
    std::visit([data](auto& d) { d.userData = data; }, impl_->joint(id).def);
}
Vec2 World::jointReactionForce(JointId id) const { return impl_->joint(id).reactionForce; }
float World::jointReactionTorque(JointId id) const { return impl_->joint(id).reactionTorque; }

float World::revoluteAngle(JointId id) const {
    const Joint& j = impl_->joint(id);
    const auto* d = std::get_if<RevoluteJointDef>(&j.def);
    if (!d) throw Error(ErrorCode::InvalidArgument, "joint is not a revolute joint");
    const auto& a = impl_->bodies[size_t(j.bodyA)];
    const auto& b = impl_->bodies[size_t(j.bodyB)];
    return unwindAngle(relativeAngle(a.xf.q, b.xf.q) - d->referenceAngle);
}

float World::jointTranslation(JointId id) const {
    const Joint& j = impl_->joint(id);
    Vec2 localAxis{0.0f, 0.0f};
    if (const auto* p = std::get_if<PrismaticJointDef>(&j.def)) localAxis = p->localAxisA;
    else if (const auto* w = std::get_if<WheelJointDef>(&j.def)) localAxis = w->localAxisA;
    else throw Error(ErrorCode::InvalidArgument, "joint is not a prismatic or wheel joint");
    const auto& a = impl_->bodies[size_t(j.bodyA)];
    const auto& b = impl_->bodies[size_t(j.bodyB)];
    Vec2 pA = transformPoint(a.xf, jointLocalAnchorA(id));
    Vec2 pB = transformPoint(b.xf, jointLocalAnchorB(id));
    return dot(pB - pA, rotate(a.xf.q, localAxis));
}

float World::distanceJointLength(JointId id) const {
    const Joint& j = impl_->joint(id);
    if (!std::holds_alternative<DistanceJointDef>(j.def))
        throw Error(ErrorCode::InvalidArgument, "joint is not a distance joint");
    Vec2 pA = transformPoint(impl_->bodies[size_t(j.bodyA)].xf, jointLocalAnchorA(id));
    Vec2 pB = transformPoint(impl_->bodies[size_t(j.bodyB)].xf, jointLocalAnchorB(id));
    return distance(pA, pB);
}

// ---- setters: validate, update the stored def, wake both bodies ------------

namespace {
template <class Fn>
void changeJoint(detail::WorldImpl& w, JointId id, Fn&& fn) {
    w.checkUnlocked();
    Joint& j = w.joint(id);
    detail::JointDefVariant copy = j.def;
    std::visit(fn, copy);  // may throw: the stored def is untouched then
    j.def = copy;
    w.wakeBody(j.bodyA);
    w.wakeBody(j.bodyB);
}
[[noreturn]] void wrongType(const char* what) {
    throw Error(ErrorCode::InvalidArgument, std::string("joint has no ") + what);
}
}  // namespace

void World::enableJointLimit(JointId id, bool flag) {
    changeJoint(*impl_, id, [&](auto& d) {
        if constexpr (requires { d.enableLimit; }) d.enableLimit = flag;
        else wrongType("limit");
    });
}

void World::setJointLimits(JointId id, float lower, float upper) {
    detail::ordered(lower, upper, "limits");
    changeJoint(*impl_, id, [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, RevoluteJointDef>) {
            detail::angleLimits(lower, upper);
            d.lowerAngle = lower, d.upperAngle = upper;
        } else if constexpr (std::is_same_v<D, PrismaticJointDef> || std::is_same_v<D, WheelJointDef>) {
            d.lowerTranslation = lower, d.upperTranslation = upper;
        } else if constexpr (std::is_same_v<D, DistanceJointDef>) {
            if (lower < 0.0f) wrongType("negative length limit");
            d.minLength = lower, d.maxLength = upper;
        } else {
            wrongType("limits");
        }
    });
}

void World::enableJointMotor(JointId id, bool flag) {
    changeJoint(*impl_, id, [&](auto& d) {
        if constexpr (requires { d.enableMotor; }) d.enableMotor = flag;
        else wrongType("motor");
    });
}

void World::setJointMotorSpeed(JointId id, float speed) {
    detail::finite(speed, "motor speed");
    changeJoint(*impl_, id, [&](auto& d) {
        if constexpr (requires { d.motorSpeed; }) d.motorSpeed = speed;
        else wrongType("motor");
    });
}

void World::setJointMaxMotorForce(JointId id, float value) {
    detail::nonNegative(value, "max motor force");
    changeJoint(*impl_, id, [&](auto& d) {
        if constexpr (requires { d.maxMotorTorque; }) d.maxMotorTorque = value;
        else if constexpr (requires { d.maxMotorForce; }) d.maxMotorForce = value;
        else wrongType("motor");
    });
}

void World::enableJointSpring(JointId id, bool flag) {
    changeJoint(*impl_, id, [&](auto& d) {
        if constexpr (requires { d.enableSpring; }) d.enableSpring = flag;
        else wrongType("spring");
    });
}

void World::setJointSpring(JointId id, float hertz, float dampingRatio) {
    detail::nonNegative(hertz, "spring hertz");
    detail::nonNegative(dampingRatio, "damping ratio");
    changeJoint(*impl_, id, [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, WeldJointDef>) {
            d.linearHertz = d.angularHertz = hertz;
            d.linearDampingRatio = d.angularDampingRatio = dampingRatio;
        } else if constexpr (requires { d.hertz; d.dampingRatio; }) {
            d.hertz = hertz, d.dampingRatio = dampingRatio;
        } else {
            wrongType("spring");
        }
    });
}

void World::setDistanceJointLength(JointId id, float length) {
    if (!isFinite(length) || !(length > 0.0f)) detail::invalid("joint length must be finite and > 0");
    changeJoint(*impl_, id, [&](auto& d) {
        if constexpr (std::is_same_v<std::decay_t<decltype(d)>, DistanceJointDef>) d.length = length;
        else wrongType("length");
    });
}

void World::setMouseTarget(JointId id, Vec2 target) {
    detail::finite(target, "target");
    changeJoint(*impl_, id, [&](auto& d) {
        if constexpr (std::is_same_v<std::decay_t<decltype(d)>, MouseJointDef>) d.target = target;
        else wrongType("target");
    });
}

void World::setMotorJointOffsets(JointId id, Vec2 linearOffset, float angularOffset) {
    detail::finite(linearOffset, "linear offset");
    detail::finite(angularOffset, "angular offset");
    changeJoint(*impl_, id, [&](auto& d) {
        if constexpr (std::is_same_v<std::decay_t<decltype(d)>, MotorJointDef>) {
            d.linearOffset = linearOffset, d.angularOffset = angularOffset;
        } else {
            wrongType("offsets");
        }
    });
}

RevoluteJointDef World::revoluteJointDef(JointId id) const { return detail::defAs<RevoluteJointDef>(*impl_, id); }
PrismaticJointDef World::prismaticJointDef(JointId id) const { return detail::defAs<PrismaticJointDef>(*impl_, id); }
DistanceJointDef World::distanceJointDef(JointId id) const { return detail::defAs<DistanceJointDef>(*impl_, id); }
WeldJointDef World::weldJointDef(JointId id) const { return detail::defAs<WeldJointDef>(*impl_, id); }
WheelJointDef World::wheelJointDef(JointId id) const { return detail::defAs<WheelJointDef>(*impl_, id); }
MotorJointDef World::motorJointDef(JointId id) const { return detail::defAs<MotorJointDef>(*impl_, id); }
MouseJointDef World::mouseJointDef(JointId id) const { return detail::defAs<MouseJointDef>(*impl_, id); }

}  // namespace carom
