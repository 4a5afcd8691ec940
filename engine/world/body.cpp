// Bodies: creation, destruction, state, forces and mass.
#include <algorithm>
#include <cmath>
#include <string>

#include <carom/validate.hpp>

#include "engine/core/assert.hpp"
#include "engine/core/rules.hpp"
#include "engine/world/listing.hpp"
#include "engine/world/world_impl.hpp"

namespace carom {
namespace detail {

Body& WorldImpl::body(BodyId id, const char* field) {
    return const_cast<Body&>(static_cast<const WorldImpl*>(this)->body(id, field));
}
const Body& WorldImpl::body(BodyId id, const char* field) const {
    if (id.index < 0 || size_t(id.index) >= bodies.size() || !bodies[size_t(id.index)].alive ||
        bodies[size_t(id.index)].generation != id.generation)
        refuseStale(field, "body");
    return bodies[size_t(id.index)];
}

// An impulse changes a velocity at most up to the speed bounds: the result
// of a huge impulse on a light body is the largest speed in its direction,
// not an overflow (the arithmetic in double, where no accepted value overflows).
void clampSpeeds(Body& b) {
    const double speed = lengthInDouble(b.v);
    if (!(speed <= double(kMaxLinearSpeed))) {
        const double k = double(kMaxLinearSpeed) / speed;
        b.v = {float(double(b.v.x) * k), float(double(b.v.y) * k)};
        if (!isFinite(b.v)) b.v = {0.0f, 0.0f};
    }
    if (!isFinite(b.w)) b.w = b.w > 0.0f ? kMaxAngularSpeed : -kMaxAngularSpeed;
    b.w = std::clamp(b.w, -kMaxAngularSpeed, kMaxAngularSpeed);
}

void applyImpulse(const WorldImpl& w, Body& b, Vec2 impulse, Vec2 point) {
    impulse = clampForce(impulse);
    b.v += b.invMass * impulse;
    b.w += b.invInertia * cross(point - b.center, impulse);
    w.applyMotionLocks(b);
    clampSpeeds(b);
}

float clampForce(float x) {
    return std::clamp(x, -kMaxForce, kMaxForce);
}
Vec2 clampForce(Vec2 v) {
    return {clampForce(v.x), clampForce(v.y)};
}

void WorldImpl::wakeBody(int bodyIndex) {
    wakeIslandOf(*this, bodyIndex);
}

void WorldImpl::applyMotionLocks(Body& b) const {
    if (b.lockLinearX) b.v.x = 0.0f;
    if (b.lockLinearY) b.v.y = 0.0f;
    if (b.fixedRotation) b.w = 0.0f;
}

void WorldImpl::markExtentsDirty(int bodyIndex) {
    Body& b = bodies[size_t(bodyIndex)];
    if (b.extentsDirty) return;
    b.extentsDirty = true;
    dirtyExtents.push_back(bodyIndex);
}

void WorldImpl::refreshExtents() {
    for (int bi : dirtyExtents) {
        Body& b = bodies[size_t(bi)];
        // A slot destroyed (and perhaps reused) since it was listed: a reused
        // slot is listed again if it needs it.
        if (!b.alive || !b.extentsDirty) continue;
        b.extentsDirty = false;
        shapeVisits += b.shapes.size();
        updateBodyExtents(*this, bi);
    }
    dirtyExtents.clear();
}

void WorldImpl::updateBodyMass(int bodyIndex) {
    Body& b = bodies[size_t(bodyIndex)];
    b.massSumsValid = false;
    if (b.type == BodyType::Dynamic) {
        // Sum the shapes' masses and first moments, and their inertias about
        // the body origin (moved to the combined centre in applyMassSums).
        float mass = 0.0f;
        Vec2 moment{0.0f, 0.0f};
        float inertiaAtOrigin = 0.0f;
        shapeVisits += b.shapes.size();
        for (int s : b.shapes) {
            const Shape& sh = shapes[size_t(s)];
            if (sh.density == 0.0f) continue;
            MassData md = computeMass(geometry(sh), sh.density);
            mass += md.mass;
            moment += md.mass * md.center;
            inertiaAtOrigin += md.rotationalInertia + md.mass * lengthSquared(md.center);
        }
        b.sumMass = mass;
        b.sumMoment = moment;
        b.sumInertiaAtOrigin = inertiaAtOrigin;
        b.massSumsValid = true;
    }
    applyMassSums(bodyIndex);
}

void WorldImpl::addShapeMass(int bodyIndex, int shapeIndex) {
    Body& b = bodies[size_t(bodyIndex)];
    if (b.type != BodyType::Dynamic || !b.massSumsValid) {
        updateBodyMass(bodyIndex);
        return;
    }
    const Shape& sh = shapes[size_t(shapeIndex)];
    if (sh.density != 0.0f) {
        MassData md = computeMass(geometry(sh), sh.density);
        b.sumMass += md.mass;
        b.sumMoment += md.mass * md.center;
        b.sumInertiaAtOrigin += md.rotationalInertia + md.mass * lengthSquared(md.center);
    }
    applyMassSums(bodyIndex);
}

void WorldImpl::applyMassSums(int bodyIndex) {
    Body& b = bodies[size_t(bodyIndex)];
    b.mass = b.invMass = b.inertia = b.invInertia = 0.0f;
    b.massOverridden = false;
    const Vec2 oldCenter = b.center;
    b.localCenter = {0.0f, 0.0f};
    markExtentsDirty(bodyIndex);
    if (b.type != BodyType::Dynamic) {
        b.center = transformPoint(b.xf, b.localCenter);
        return;
    }
    const float mass = b.sumMass;
    // validate() bounds density and size so the sums stay finite and a
    // positive mass is at least kMinMass-ish (limits.hpp).
    CAROM_ASSERT(isFinite(mass) && isFinite(b.sumMoment) && isFinite(b.sumInertiaAtOrigin));
    if (mass > 0.0f) {
        b.mass = mass;
        b.invMass = 1.0f / mass;
        b.localCenter = b.sumMoment * b.invMass;
        float inertia = b.sumInertiaAtOrigin - mass * lengthSquared(b.localCenter);
        // The subtraction cancels for shapes far from the body origin: an
        // inertia left below the smallest accepted one is rounding noise, and
        // inverting it would blow up; the body then does not rotate.
        if (inertia >= kMinRotationalInertia && !b.fixedRotation) {
            b.inertia = inertia;
            b.invInertia = 1.0f / inertia;
        }
    } else {
        // A dynamic body without mass still moves under gravity like a 1 kg point.
        b.mass = 1.0f;
        b.invMass = 1.0f;
    }
    // Keep the velocity of the body's material points: moving the centre of
    // mass changes the velocity measured at it.
    b.center = transformPoint(b.xf, b.localCenter);
    b.v += crossSV(b.w, b.center - oldCenter);
}

void WorldImpl::syncBodyShapes(int bodyIndex) {
    resyncBodyProxies(*this, bodyIndex);
}

}  // namespace detail

using detail::Body;

BodyId World::createBody(const BodyDef& d) {
    auto& w = live();
    w.checkUnlocked();
    validate(d);

    int index = detail::allocateSlot(w.bodies, w.freeBodies);
    if (w.awakeSlot.size() < w.bodies.size()) w.awakeSlot.resize(w.bodies.size(), -1);
    w.awakeSlot[size_t(index)] = -1;
    Body& b = w.bodies[size_t(index)];
    b.alive = true;
    b.creationSeq = w.nextCreationSeq++;
    b.type = d.type;
    b.xf = makeTransform(d.position, d.angle);
    b.center = d.position;
    b.center0 = b.center;
    b.q0 = b.xf.q;
    if (d.type != BodyType::Static) {
        b.v = d.linearVelocity;
        b.w = d.angularVelocity;
    }
    b.linearDamping = d.linearDamping;
    b.angularDamping = d.angularDamping;
    b.gravityScale = d.gravityScale;
    b.sleepThreshold = d.sleepThreshold;
    b.fixedRotation = d.fixedRotation || d.motionLocks.angularZ;
    b.lockLinearX = d.motionLocks.linearX;
    b.lockLinearY = d.motionLocks.linearY;
    w.applyMotionLocks(b);
    b.isBullet = d.isBullet;
    b.enableContactReuse = d.enableContactReuse;
    b.enableSleep = d.enableSleep;
    b.enabled = d.isEnabled;
    b.awake = d.isEnabled && d.type != BodyType::Static && (d.isAwake || !d.enableSleep);
    b.userData = d.userData;
    if (w.bodyNames.size() < w.bodies.size()) w.bodyNames.resize(w.bodies.size());
    w.bodyNames[size_t(index)].assign(d.name);
    w.updateBodyMass(index);
    // A disabled body gets its island and awake slot from enableBody.
    if (b.enabled && b.type == BodyType::Dynamic) detail::createIslandForBody(w, index);
    if (b.awake) detail::addAwakeBody(w, index);
    ++w.bodyCount;
    return w.bodyId(index);
}

void World::destroyBody(BodyId id) {
    auto& w = live();
    w.checkUnlocked();
    Body& b = w.body(id);
    // Joints first (they wake the other body), then chains and shapes.
    std::vector<int> joints = b.joints;
    for (int j : joints) w.removeJoint(j);
    std::vector<int> chainList = w.bodies[size_t(id.index)].chains;
    for (int c : chainList) destroyChain(w.chainId(c));
    const auto& bodyShapes = w.bodies[size_t(id.index)].shapes;
    std::vector<int> shapeList(bodyShapes.begin(), bodyShapes.end());
    for (int s : shapeList) w.removeShape(s, false);
    detail::removeBodyFromIsland(w, id.index);
    detail::removeAwakeBody(w, id.index);
    detail::releaseSlot(w.bodies, w.freeBodies, id.index);
    std::string().swap(w.bodyNames[size_t(id.index)]);
    --w.bodyCount;
}

bool World::isValid(BodyId id) const {
    return id.index >= 0 && size_t(id.index) < live().bodies.size() &&
           live().bodies[size_t(id.index)].alive &&
           live().bodies[size_t(id.index)].generation == id.generation;
}

std::vector<BodyId> World::bodies() const {
    const auto& w = live();
    return detail::liveInCreationOrder<BodyId>(w.bodies, [&](int i) { return w.bodyId(i); });
}
int World::bodies(std::span<BodyId> out) const {
    const auto& w = live();
    return detail::liveInCreationOrder<BodyId>(
        w.bodies, [&](int i) { return w.bodyId(i); }, out);
}

std::string_view World::name(BodyId id) const {
    live().body(id);
    return live().bodyNames[size_t(id.index)];
}

void World::setName(BodyId id, std::string_view name) {
    auto& w = live();
    w.checkUnlocked();
    w.body(id);
    detail::requireBodyName(name, "name");
    w.bodyNames[size_t(id.index)].assign(name);
}

BodyId World::findBody(std::string_view name) const {
    const auto& w = live();
    if (name.empty()) return {};
    int best = -1;
    for (size_t i = 0; i < w.bodies.size(); ++i) {
        if (!w.bodies[i].alive || w.bodyNames[i] != name) continue;
        if (best < 0 || w.bodies[i].creationSeq < w.bodies[size_t(best)].creationSeq) best = int(i);
    }
    return best < 0 ? BodyId{} : w.bodyId(best);
}

BodyType World::bodyType(BodyId id) const {
    return live().body(id).type;
}

// A type change rebuilds everything the type decides: contacts (a pair of
// non-dynamic bodies has none), island membership (only dynamic bodies have
// islands), joint links, the awake array and the proxies' structure.
void World::setBodyType(BodyId id, BodyType type) {
    auto& w = live();
    w.checkUnlocked();
    Body& b = w.body(id);
    if (type != BodyType::Static && type != BodyType::Kinematic && type != BodyType::Dynamic)
        detail::refuse("type", "Static, Kinematic or Dynamic", std::to_string(int(type)));
    if (b.type == type) return;
    const int bi = id.index;
    if (!b.enabled) {
        // Out of the simulation: no contacts, proxies, island or awake slot
        // to rebuild; enableBody builds them for the new type.
        b.type = type;
        if (type == BodyType::Static) {
            b.v = {0.0f, 0.0f};
            b.w = 0.0f;
        }
        w.updateBodyMass(bi);
        return;
    }
    detail::seamRemoveBody(w, bi);  // the type decides the frame its ends are indexed in
    for (int s : std::vector<int>(b.shapes.begin(), b.shapes.end()))
        detail::destroyShapeContacts(w, s, true);
    for (int j : w.bodies[size_t(bi)].joints) {
        auto& jt = w.joints[size_t(j)];
        if (jt.islandLinked) {
            detail::unlinkBodies(w, jt.bodyA, jt.bodyB);
            jt.islandLinked = false;
        }
        w.wakeBody(jt.bodyA == bi ? jt.bodyB : jt.bodyA);
    }
    detail::removeBodyFromIsland(w, bi);
    detail::removeAwakeBody(w, bi);
    Body& body = w.bodies[size_t(bi)];
    body.type = type;
    body.awake = false;
    if (type == BodyType::Static) {
        body.v = {0.0f, 0.0f};
        body.w = 0.0f;
    }
    w.updateBodyMass(bi);
    for (int s : body.shapes) {
        const auto& sh = w.shapes[size_t(s)];
        if (sh.proxy >= 0)
            w.broadphase.setProxyType(sh.proxy, type == BodyType::Static ? detail::ProxyType::Static
                                                : type == BodyType::Kinematic
                                                    ? detail::ProxyType::Kinematic
                                                    : detail::ProxyType::Dynamic);
    }
    if (type != BodyType::Static) {
        body.awake = true;
        body.sleepTime = 0.0f;
        detail::addAwakeBody(w, bi);
    }
    if (type == BodyType::Dynamic) {
        detail::createIslandForBody(w, bi);
        for (int j : w.bodies[size_t(bi)].joints) {
            auto& jt = w.joints[size_t(j)];
            const int other = jt.bodyA == bi ? jt.bodyB : jt.bodyA;
            if (w.bodies[size_t(other)].type != BodyType::Dynamic ||
                !w.bodies[size_t(other)].enabled)
                continue;
            detail::linkBodies(w, jt.bodyA, jt.bodyB);
            jt.islandLinked = true;
        }
    }
    detail::seamAddBody(w, bi);
}

Transform World::transform(BodyId id) const {
    return live().body(id).xf;
}
Vec2 World::position(BodyId id) const {
    return live().body(id).xf.p;
}
Rot World::rotation(BodyId id) const {
    return live().body(id).xf.q;
}
float World::angle(BodyId id) const {
    return angleOf(live().body(id).xf.q);
}

void World::setTransform(BodyId id, Vec2 position, float angle) {
    auto& w = live();
    w.checkUnlocked();
    Body& b = w.body(id);
    detail::requireCoordinate(position, "position");
    detail::requireFinite(angle, "angle");
    b.xf = makeTransform(position, angle);
    b.center = transformPoint(b.xf, b.localCenter);
    b.center0 = b.center;
    b.q0 = b.xf.q;
    w.syncBodyShapes(id.index);
    if (b.type == BodyType::Static) {  // its ends are indexed in the world frame
        detail::seamRemoveBody(w, id.index);
        detail::seamAddBody(w, id.index);
    }
    w.wakeBody(id.index);
}

void World::setTransform(BodyId id, const Transform& transform) {
    auto& w = live();
    w.checkUnlocked();
    Body& b = w.body(id);
    detail::requirePose(transform, "transform");
    b.xf = transform;
    b.center = transformPoint(b.xf, b.localCenter);
    b.center0 = b.center;
    b.q0 = b.xf.q;
    w.syncBodyShapes(id.index);
    if (b.type == BodyType::Static) {  // its ends are indexed in the world frame
        detail::seamRemoveBody(w, id.index);
        detail::seamAddBody(w, id.index);
    }
    w.wakeBody(id.index);
}

Vec2 World::linearVelocity(BodyId id) const {
    return live().body(id).v;
}
float World::angularVelocity(BodyId id) const {
    return live().body(id).w;
}

void World::setLinearVelocity(BodyId id, Vec2 v) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireLinearVelocity(v, "v");
    if (b.type == BodyType::Static) return;
    if (lengthSquared(v) > 0.0f) live().wakeBody(id.index);
    b.v = v;
    live().applyMotionLocks(b);
}

void World::setAngularVelocity(BodyId id, float w) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireAngularVelocity(w, "w");
    if (b.type == BodyType::Static || b.fixedRotation) return;
    if (w != 0.0f) live().wakeBody(id.index);
    b.w = w;
}

Vec2 World::pointVelocity(BodyId id, Vec2 worldPoint) const {
    const Body& b = live().body(id);
    if (!isFinite(worldPoint))
        detail::refuse("worldPoint", "finite", detail::formatVec(worldPoint));
    return b.v + crossSV(b.w, worldPoint - b.center);
}

// The point of a force or impulse may be any point a body's shapes reach: a
// body origin at the bound plus a shape's extent (worldCenterOfMass of a body
// stopped at the bound lies a little beyond it). kMaxJointLength bounds that,
// and keeps the torque r × F finite.
void World::applyForce(BodyId id, Vec2 force, Vec2 point, bool wake) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireForce(force, "force");
    detail::requireBox(point, kMaxJointLength, "worldPoint");
    if (b.type != BodyType::Dynamic) return;
    if (wake) live().wakeBody(id.index);
    if (!b.awake) return;
    b.force = detail::clampForce(b.force + force);
    b.torque = detail::clampForce(b.torque + cross(point - b.center, force));
}

void World::applyForceToCenter(BodyId id, Vec2 force, bool wake) {
    applyForce(id, force, worldCenterOfMass(id), wake);
}

void World::applyTorque(BodyId id, float torque, bool wake) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireForce(torque, "torque");
    if (b.type != BodyType::Dynamic) return;
    if (wake) live().wakeBody(id.index);
    if (b.awake) b.torque = detail::clampForce(b.torque + torque);
}

void World::clearForces(BodyId id) {
    live().checkUnlocked();
    Body& b = live().body(id);
    b.force = {0.0f, 0.0f};
    b.torque = 0.0f;
}

void World::applyLinearImpulse(BodyId id, Vec2 impulse, Vec2 point, bool wake) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireForce(impulse, "impulse");
    detail::requireBox(point, kMaxJointLength, "worldPoint");
    if (b.type != BodyType::Dynamic) return;
    if (wake) live().wakeBody(id.index);
    if (b.awake) detail::applyImpulse(live(), b, impulse, point);
}

void World::applyLinearImpulseToCenter(BodyId id, Vec2 impulse, bool wake) {
    applyLinearImpulse(id, impulse, worldCenterOfMass(id), wake);
}

void World::applyAngularImpulse(BodyId id, float impulse, bool wake) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireForce(impulse, "impulse");
    if (b.type != BodyType::Dynamic) return;
    if (wake) live().wakeBody(id.index);
    if (b.awake) {
        b.w += b.invInertia * impulse;
        detail::clampSpeeds(b);
    }
}

float World::mass(BodyId id) const {
    return live().body(id).mass;
}
float World::rotationalInertia(BodyId id) const {
    return live().body(id).inertia;
}
MassData World::massData(BodyId id) const {
    const Body& b = live().body(id);
    return {b.mass, b.localCenter, b.inertia};
}

void World::setMassData(BodyId id, const MassData& m) {
    live().checkUnlocked();
    Body& b = live().body(id);
    validate(m);
    if (b.type != BodyType::Dynamic) return;
    const Vec2 oldCenter = b.center;
    b.mass = m.mass;
    b.invMass = 1.0f / m.mass;
    b.inertia = b.fixedRotation ? 0.0f : m.rotationalInertia;
    b.invInertia = b.inertia > 0.0f ? 1.0f / b.inertia : 0.0f;
    b.localCenter = m.center;
    b.center = transformPoint(b.xf, b.localCenter);
    b.v += crossSV(b.w, b.center - oldCenter);
    live().applyMotionLocks(b);
    b.massOverridden = true;
    live().markExtentsDirty(id.index);
}

void World::applyMassFromShapes(BodyId id) {
    auto& w = live();
    w.checkUnlocked();
    w.body(id);
    // updateBodyMass sums the shapes, clears the override and moves the
    // centre keeping the material points' velocities; the locks then hold
    // the locked components at zero as after any mass change.
    w.updateBodyMass(id.index);
    w.applyMotionLocks(w.bodies[size_t(id.index)]);
}

bool World::isMassOverridden(BodyId id) const {
    return live().body(id).massOverridden;
}

Vec2 World::localCenterOfMass(BodyId id) const {
    return live().body(id).localCenter;
}
Vec2 World::worldCenterOfMass(BodyId id) const {
    return live().body(id).center;
}
Vec2 World::worldPoint(BodyId id, Vec2 p) const {
    return transformPoint(live().body(id).xf, p);
}
Vec2 World::localPoint(BodyId id, Vec2 p) const {
    return invTransformPoint(live().body(id).xf, p);
}
Vec2 World::worldVector(BodyId id, Vec2 v) const {
    return rotate(live().body(id).xf.q, v);
}
Vec2 World::localVector(BodyId id, Vec2 v) const {
    return invRotate(live().body(id).xf.q, v);
}

bool World::isAwake(BodyId id) const {
    return live().body(id).awake;
}
void World::setAwake(BodyId id, bool awake) {
    live().checkUnlocked();
    Body& b = live().body(id);
    if (awake) {
        live().wakeBody(id.index);
    } else if (b.type != BodyType::Static) {
        detail::sleepIslandOf(live(), id.index, false);
    }
}
void World::wakeTouching(BodyId id) {
    auto& w = live();
    w.checkUnlocked();
    const Body& b = w.body(id);
    // Waking adds bodies to the awake array and never changes a contact
    // list, so the body's list can be walked while its neighbours wake.
    for (int ci : b.contacts) {
        const detail::Contact& c = w.contacts[size_t(ci)];
        if (c.manifold.pointCount == 0) continue;
        w.wakeBody(c.bodyA == id.index ? c.bodyB : c.bodyA);
    }
}
bool World::isSleepEnabled(BodyId id) const {
    return live().body(id).enableSleep;
}
void World::enableSleep(BodyId id, bool flag) {
    live().checkUnlocked();
    Body& b = live().body(id);
    b.enableSleep = flag;
    if (!flag) live().wakeBody(id.index);
}
bool World::isContactReuseEnabled(BodyId id) const {
    return live().body(id).enableContactReuse;
}
void World::enableContactReuse(BodyId id, bool flag) {
    live().checkUnlocked();
    live().body(id).enableContactReuse = flag;
}
bool World::isBullet(BodyId id) const {
    return live().body(id).isBullet;
}
void World::setBullet(BodyId id, bool flag) {
    live().checkUnlocked();
    live().body(id).isBullet = flag;
}
bool World::isFixedRotation(BodyId id) const {
    return live().body(id).fixedRotation;
}
void World::setFixedRotation(BodyId id, bool flag) {
    live().checkUnlocked();
    Body& b = live().body(id);
    if (b.fixedRotation == flag) return;
    b.fixedRotation = flag;
    b.w = 0.0f;
    live().updateBodyMass(id.index);
    live().applyMotionLocks(live().bodies[size_t(id.index)]);
    live().wakeBody(id.index);
}

float World::sleepThreshold(BodyId id) const {
    return live().body(id).sleepThreshold;
}
void World::setSleepThreshold(BodyId id, float threshold) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireSpeedThreshold(threshold, "threshold");
    b.sleepThreshold = threshold;
}

MotionLocks World::motionLocks(BodyId id) const {
    const Body& b = live().body(id);
    return {b.lockLinearX, b.lockLinearY, b.fixedRotation};
}

void World::setMotionLocks(BodyId id, const MotionLocks& locks) {
    auto& w = live();
    w.checkUnlocked();
    Body& b = w.body(id);
    const bool rotationChanged = b.fixedRotation != locks.angularZ;
    b.lockLinearX = locks.linearX;
    b.lockLinearY = locks.linearY;
    b.fixedRotation = locks.angularZ;
    // The rotational inertia follows the rotation lock (as setFixedRotation).
    if (rotationChanged) w.updateBodyMass(id.index);
    Body& body = w.bodies[size_t(id.index)];
    w.applyMotionLocks(body);
    w.wakeBody(id.index);
}

bool World::isEnabled(BodyId id) const {
    return live().body(id).enabled;
}

// Out of the simulation: contacts (end events), proxies (sensors it was in
// report it gone; a sensor shape of its own reports its visitors gone),
// island links and the island, the awake slot. Pose and velocity stay.
void World::disableBody(BodyId id) {
    auto& w = live();
    w.checkUnlocked();
    Body& b = w.body(id);
    if (!b.enabled) return;
    const int bi = id.index;
    detail::seamRemoveBody(w, bi);  // its tile ends leave; neighbours relink without them
    for (int s : std::vector<int>(b.shapes.begin(), b.shapes.end())) {
        detail::destroyShapeContacts(w, s, true);
        detail::destroyShapeProxy(w, s);
    }
    for (int j : w.bodies[size_t(bi)].joints) {
        auto& jt = w.joints[size_t(j)];
        if (jt.islandLinked) {
            detail::unlinkBodies(w, jt.bodyA, jt.bodyB);
            jt.islandLinked = false;
        }
        jt.reactionForce = {0.0f, 0.0f};
        jt.reactionTorque = 0.0f;
        w.wakeBody(jt.bodyA == bi ? jt.bodyB : jt.bodyA);
    }
    detail::removeBodyFromIsland(w, bi);
    detail::removeAwakeBody(w, bi);
    Body& body = w.bodies[size_t(bi)];
    body.awake = false;
    body.isFast = false;
    body.sleepTime = 0.0f;
    body.enabled = false;
}

void World::enableBody(BodyId id) {
    auto& w = live();
    w.checkUnlocked();
    Body& b = w.body(id);
    if (b.enabled) return;
    const int bi = id.index;
    b.enabled = true;
    for (int s : b.shapes) detail::createShapeProxy(w, s);
    detail::seamAddBody(w, bi);
    Body& body = w.bodies[size_t(bi)];
    if (body.type != BodyType::Static) {
        body.awake = true;
        body.sleepTime = 0.0f;
        detail::addAwakeBody(w, bi);
    }
    if (body.type == BodyType::Dynamic) {
        detail::createIslandForBody(w, bi);
        // Its joints join it to their other bodies' islands again (waking them).
        for (int j : body.joints) {
            auto& jt = w.joints[size_t(j)];
            const Body& other = w.bodies[size_t(jt.bodyA == bi ? jt.bodyB : jt.bodyA)];
            if (other.type != BodyType::Dynamic || !other.enabled) continue;
            detail::linkBodies(w, jt.bodyA, jt.bodyB);
            jt.islandLinked = true;
        }
    }
    for (int j : w.bodies[size_t(bi)].joints) {
        const auto& jt = w.joints[size_t(j)];
        w.wakeBody(jt.bodyA == bi ? jt.bodyB : jt.bodyA);
    }
}
float World::gravityScale(BodyId id) const {
    return live().body(id).gravityScale;
}
void World::setGravityScale(BodyId id, float s) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireGravityScale(s, "scale");
    b.gravityScale = s;
    live().wakeBody(id.index);
}
float World::linearDamping(BodyId id) const {
    return live().body(id).linearDamping;
}
void World::setLinearDamping(BodyId id, float d) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireDamping(d, "damping");
    b.linearDamping = d;
}
float World::angularDamping(BodyId id) const {
    return live().body(id).angularDamping;
}
void World::setAngularDamping(BodyId id, float d) {
    live().checkUnlocked();
    Body& b = live().body(id);
    detail::requireDamping(d, "damping");
    b.angularDamping = d;
}
void* World::userData(BodyId id) const {
    return live().body(id).userData;
}
void World::setUserData(BodyId id, void* data) {
    live().body(id).userData = data;
}

namespace {
// A body's shapes, joints and chains, each through sink(id).
auto bodyShapes(const detail::WorldImpl& w, BodyId id) {
    return [&w, &body = w.body(id)](auto& sink) {
        for (int s : body.shapes) sink(w.shapeId(s));
    };
}
auto bodyJoints(const detail::WorldImpl& w, BodyId id) {
    return [&w, &body = w.body(id)](auto& sink) {
        for (int j : body.joints) sink(w.jointId(j));
    };
}
auto bodyChains(const detail::WorldImpl& w, BodyId id) {
    return [&w, &body = w.body(id)](auto& sink) {
        for (int c : body.chains) sink(w.chainId(c));
    };
}
}  // namespace

std::vector<ShapeId> World::shapes(BodyId id) const {
    return detail::listAll<ShapeId>(bodyShapes(live(), id));
}
int World::shapes(BodyId id, std::span<ShapeId> out) const {
    return detail::listInto(out, bodyShapes(live(), id));
}
std::vector<JointId> World::joints(BodyId id) const {
    return detail::listAll<JointId>(bodyJoints(live(), id));
}
int World::joints(BodyId id, std::span<JointId> out) const {
    return detail::listInto(out, bodyJoints(live(), id));
}
std::vector<ChainId> World::chains(BodyId id) const {
    return detail::listAll<ChainId>(bodyChains(live(), id));
}
int World::chains(BodyId id, std::span<ChainId> out) const {
    return detail::listInto(out, bodyChains(live(), id));
}

}  // namespace carom
