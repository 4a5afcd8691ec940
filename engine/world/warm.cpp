// World::warmState / World::setWarmState: the solver state a step reads
// besides poses and velocities (<carom/warm_state.hpp>).
//
// What a step reads, and so what a rebuilt world must get back to step to
// the same bits as the original:
//   - contact impulses: updateManifold carries a point's impulses to the new
//     manifold when its feature id survives (warm starting); the rolling
//     impulse likewise; the GJK cache seeds chain-polygon manifolds;
//   - which pairs have a contact, and each body's contact list order: the
//     step visits contacts from the awake bodies' lists, so that order is
//     the solver's constraint order (and the graph colouring's input);
//   - the awake-body array: the order of the solver's bodies and of the
//     contact walk;
//   - islands (bodies in link order, removed-link counts, slot numbers and
//     the free-slot list): they decide when bodies fall asleep and in which
//     order they wake, and merges break ties by slot;
//   - sleep timers, and forces accumulated between steps;
//   - each body's centre of mass as the solver moves it (the origin is
//     derived from it, and the centre rebuilt from a saved origin may differ
//     in its last bit) and whether its last step was fast (manifold reuse
//     leaves a fast body's contacts out);
//   - each contact's begin-event mark (an end event is owed) and each
//     sensor's overlaps (the next step reports begins and ends against
//     them): events, not motion, but part of what a step gives;
//   - gears' coordinates counted over whole turns, the angle each last saw,
//     and their constants (none can be measured again from the poses);
//   - each contact's manifold reuse record (engine/world/manifold_reuse.hpp):
//     it decides whether the next steps run the narrowphase for the pair;
//   - joints' accumulated impulses;
//   - the broadphase's fat boxes and margins: a contact lives while the fat
//     boxes overlap, so they decide when contacts appear and disappear.
// Contact manifolds are kept whole: the next step recomputes those it visits
// first, but a sleeping pile woken by a new touch in that step is solved
// with the manifolds it fell asleep with.
#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/rules.hpp"
#include "engine/world/world_impl.hpp"

namespace carom {

using detail::Body;
using detail::Contact;
using detail::WorldImpl;

namespace {

[[noreturn]] void refuseState(const std::string& field, const std::string& message) {
    detail::refuseWhy(field, "setWarmState: " + field + ": " + message);
}

bool finite(float x) {
    return std::isfinite(x);
}
bool finite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

std::string at(const char* list, size_t k) {
    return std::string(list) + "[" + std::to_string(k) + "]";
}

bool within(Vec2 v, float bound) {
    return finite(v) && std::fabs(v.x) <= bound && std::fabs(v.y) <= bound;
}
bool within(float x, float bound) {
    return finite(x) && std::fabs(x) <= bound;
}

// A gear's coordinates, last-seen angles and constant. A revolute side's
// coordinate grows by at most pi a step and stops growing, its increments
// lost to rounding, below 2^26; a prismatic side's is a translation within
// the coordinate bound; the constant adds ratio (<= 1000) times the second.
// 1e12 holds all of these, and keeps the gear's error finite.
constexpr float kMaxGearCoordinate = 1.0e12f;

// A body's centre of mass against its origin plus its rotated local centre:
// equal up to the rounding of that sum (the solver derives the origin from
// the centre after each step).
bool centreMatches(const Body& b, Vec2 center) {
    if (!finite(center)) return false;
    const Vec2 derived = b.xf.p + rotate(b.xf.q, b.localCenter);
    const float scale = 1.0f + std::max({std::fabs(b.xf.p.x), std::fabs(b.xf.p.y),
                                         std::fabs(b.localCenter.x), std::fabs(b.localCenter.y)});
    return std::fabs(center.x - derived.x) <= 1.0e-6f * scale &&
           std::fabs(center.y - derived.y) <= 1.0e-6f * scale;
}

// A manifold reuse record (WarmContact::reuse, valid): the rotations are
// compared with the bodies' by a dot product against cos 11.5 degrees and
// the normal rotated into the world, so they must be unit (within the
// tolerance of a touching contact's normal); points, anchors and
// separations have the bounds of the contact points'.
void checkReuse(const WarmContactReuse& r, const std::string& path) {
    if (r.pointCount < 0 || r.pointCount > 2)
        refuseState(path + ".pointCount", "must be within [0, 2]");
    if (!detail::isUnitRotation(r.rotationA))
        refuseState(path + ".rotationA", "must be a unit rotation (c, s)");
    if (!detail::isUnitRotation(r.rotationB))
        refuseState(path + ".rotationB", "must be a unit rotation (c, s)");
    if (!detail::isUnitRotation(r.relativeRotation))
        refuseState(path + ".relativeRotation", "must be a unit rotation (c, s)");
    if (!within(r.relativeCenter, 2.0f * kMaxCoordinate))
        refuseState(path + ".relativeCenter",
                    "must be finite and within twice the coordinate limit");
    const bool normalOk = r.pointCount > 0 ? detail::isUnitVector(r.localNormal)
                                           : within(r.localNormal, 1.0f) &&
                                                 r.localNormal.x * r.localNormal.x +
                                                         r.localNormal.y * r.localNormal.y <=
                                                     1.0f + 2.0e-4f;
    if (!normalOk)
        refuseState(path + ".localNormal",
                    "must be a unit vector (or at most unit without points)");
    for (int p = 0; p < r.pointCount; ++p) {
        if (!within(r.localPointA[p], kMaxJointLength))
            refuseState(path + ".localPointA[" + std::to_string(p) + "]",
                        "must be finite and in range");
        if (!within(r.localPointB[p], kMaxJointLength))
            refuseState(path + ".localPointB[" + std::to_string(p) + "]",
                        "must be finite and in range");
        if (!(finite(r.baseSeparation[p]) && std::fabs(r.baseSeparation[p]) <= kMaxJointLength))
            refuseState(path + ".baseSeparation[" + std::to_string(p) + "]",
                        "must be finite and in range");
    }
}

}  // namespace

WarmState World::warmState() const {
    const WorldImpl& w = live();
    WarmState s;
    s.awakeBodies.reserve(w.awakeBodies.size());
    for (int bi : w.awakeBodies) s.awakeBodies.push_back(w.bodyId(bi));
    for (BodyId id : bodies()) {
        const Body& b = w.bodies[size_t(id.index)];
        if (b.type == BodyType::Static) continue;
        s.bodies.push_back({id, b.sleepTime, b.force, b.torque, b.center, b.isFast});
        for (int si : b.shapes) {
            const auto& sh = w.shapes[size_t(si)];
            if (sh.proxy < 0) continue;
            s.shapes.push_back(
                {w.shapeId(si), w.broadphase.fatAABB(sh.proxy), w.broadphase.margin(sh.proxy)});
        }
    }
    for (size_t ci = 0; ci < w.contacts.size(); ++ci) {
        const Contact& c = w.contacts[ci];
        if (!c.alive) continue;
        WarmContact wc;
        wc.shapeA = w.shapeId(c.shapeA);
        wc.shapeB = w.shapeId(c.shapeB);
        wc.touching = (c.flags & detail::kContactTouching) != 0;
        wc.pointCount = wc.touching ? c.manifold.pointCount : 0;
        for (int k = 0; k < wc.pointCount; ++k) {
            const ManifoldPoint& mp = c.manifold.points[k];
            wc.points[k] = {mp.id,
                            mp.normalImpulse,
                            mp.tangentImpulse,
                            mp.point,
                            mp.anchorA,
                            mp.anchorB,
                            mp.separation,
                            mp.totalNormalImpulse,
                            mp.normalVelocity,
                            mp.persisted};
        }
        wc.normal = c.manifold.normal;
        wc.rollingImpulse = c.manifold.rollingImpulse;
        wc.cacheCount = c.cache.count;
        for (int k = 0; k < 3; ++k) {
            wc.cacheIndexA[k] = c.cache.indexA[k];
            wc.cacheIndexB[k] = c.cache.indexB[k];
        }
        wc.orderA = c.edgeA;
        wc.orderB = c.edgeB;
        wc.beginEventSent = wc.touching && (c.flags & detail::kContactBeginSent) != 0;
        // Only a valid record says anything; an invalid one exports as the
        // default so that stale bytes never reach a file.
        if (const detail::ManifoldReuseCache& r = c.reuse; r.valid != 0) {
            WarmContactReuse& wr = wc.reuse;
            wr.valid = true;
            wr.referenceIsB = r.referenceIsB != 0;
            wr.pointCount = int(r.pointCount);
            wr.rotationA = r.qA;
            wr.rotationB = r.qB;
            wr.relativeCenter = r.relativeCenter;
            wr.relativeRotation = r.relativeRotation;
            wr.localNormal = r.localNormal;
            for (int k = 0; k < wr.pointCount; ++k) {
                wr.localPointA[k] = r.localPointA[k];
                wr.localPointB[k] = r.localPointB[k];
                wr.baseSeparation[k] = r.baseSeparation[k];
            }
        }
        s.contacts.push_back(wc);
    }
    for (JointId jid : joints()) {
        const detail::JointCarried& d = w.joints[size_t(jid.index)].carried;
        WarmJoint wj{jid,
                     d.linearImpulse,
                     d.angularImpulse,
                     d.perpImpulse,
                     d.springImpulse,
                     d.motorImpulse,
                     d.lowerImpulse,
                     d.upperImpulse};
        if (w.joints[size_t(jid.index)].type == JointType::Gear) {
            const detail::GearSolverData& g = w.gears[size_t(d.gearSlot)];
            wj.gear = true;
            for (int k = 0; k < 2; ++k) {
                wj.gearCoordinate[k] = g.sides[k].coordinate;
                wj.gearWrapped[k] = g.sides[k].wrapped;
            }
            wj.gearConstant = g.constant;
        }
        s.joints.push_back(wj);
    }
    for (const detail::Sensor& sn : w.sensors) {
        if (sn.shape < 0) continue;
        WarmSensor ws{w.shapeId(sn.shape), {}};
        // Live shapes only, as World::sensorOverlaps gives them.
        for (ShapeId v : sn.overlaps)
            if (w.shapes[size_t(v.index)].alive &&
                w.shapes[size_t(v.index)].generation == v.generation)
                ws.overlaps.push_back(v);
        if (!ws.overlaps.empty()) s.sensors.push_back(std::move(ws));
    }
    s.islandSlots = int(w.islands.size());
    for (size_t k = 0; k < w.islands.size(); ++k) {
        const detail::Island& isl = w.islands[k];
        if (!isl.alive) continue;
        WarmIsland wi;
        wi.slot = int(k);
        wi.awake = isl.awake;
        wi.constraintRemoveCount = isl.constraintRemoveCount;
        for (int bi : isl.bodies) wi.bodies.push_back(w.bodyId(bi));
        s.islands.push_back(std::move(wi));
    }
    s.freeIslandSlots = w.freeIslands;
    return s;
}

void World::setWarmState(const WarmState& s) {
    WorldImpl& w = live();
    w.checkUnlocked();
    if (w.contactCount != 0)
        refuseState("contacts",
                    "the world already has contacts; import a warm state before the first step");

    // ---- check everything first: a refusal leaves the world as it was ----
    std::vector<char> seen(w.bodies.size(), 0);
    for (size_t k = 0; k < s.awakeBodies.size(); ++k) {
        const Body& b = w.body(s.awakeBodies[k], at("awakeBodies", k).c_str());
        const int bi = s.awakeBodies[k].index;
        if (!b.awake || b.type == BodyType::Static || seen[size_t(bi)])
            refuseState(at("awakeBodies", k), "not an awake non-static body, or listed twice");
        seen[size_t(bi)] = 1;
    }
    if (s.awakeBodies.size() != w.awakeBodies.size())
        refuseState("awakeBodies", "must list every awake body of this world (" +
                                       std::to_string(w.awakeBodies.size()) + "), got " +
                                       std::to_string(s.awakeBodies.size()));
    for (size_t k = 0; k < s.bodies.size(); ++k) {
        const WarmBody& wb = s.bodies[k];
        w.body(wb.body, (at("bodies", k) + ".body").c_str());
        if (!(finite(wb.sleepTime) && wb.sleepTime >= 0.0f))
            refuseState(at("bodies", k) + ".sleepTime", "must be finite and >= 0");
        detail::requireForce(wb.force, "force");
        detail::requireForce(wb.torque, "torque");
        const Body& b = w.bodies[size_t(wb.body.index)];
        if (b.type == BodyType::Static)
            refuseState(at("bodies", k), "a static body has no warm state");
        if (!centreMatches(b, wb.center))
            refuseState(
                at("bodies", k) + ".center",
                "must be the body's origin plus its rotated local centre of mass, up to rounding");
    }
    for (size_t k = 0; k < s.shapes.size(); ++k) {
        const auto& sh = w.shape(s.shapes[k].shape, (at("shapes", k) + ".shape").c_str());
        const AABB& f = s.shapes[k].fatAABB;
        const AABB& t = sh.aabb;
        if (sh.proxy < 0 || !finite(f.lower) || !finite(f.upper) || !(f.lower.x <= t.lower.x) ||
            !(f.lower.y <= t.lower.y) || !(f.upper.x >= t.upper.x) || !(f.upper.y >= t.upper.y) ||
            std::fabs(f.lower.x) > 2.0f * kMaxCoordinate ||
            std::fabs(f.lower.y) > 2.0f * kMaxCoordinate ||
            std::fabs(f.upper.x) > 2.0f * kMaxCoordinate ||
            std::fabs(f.upper.y) > 2.0f * kMaxCoordinate)
            refuseState(at("shapes", k) + ".fatAABB", "must be finite and contain the shape's box");
        const float m = s.shapes[k].margin;
        if (!(finite(m) && m >= 0.0f && m <= kMaxCoordinate))
            refuseState(at("shapes", k) + ".margin", "must be finite and >= 0");
    }
    std::vector<std::pair<int, int>> pairs;
    for (size_t k = 0; k < s.contacts.size(); ++k) {
        const WarmContact& c = s.contacts[k];
        w.shape(c.shapeA, (at("contacts", k) + ".shapeA").c_str());
        w.shape(c.shapeB, (at("contacts", k) + ".shapeB").c_str());
        int ia = c.shapeA.index, ib = c.shapeB.index;
        if (ia > ib) std::swap(ia, ib);
        if (ia == ib || !detail::shouldCollide(w, ia, ib))
            refuseState(at("contacts", k), "these two shapes cannot have a contact");
        pairs.emplace_back(ia, ib);
        if (c.pointCount < 0 || c.pointCount > 2 || (!c.touching && c.pointCount != 0) ||
            (c.touching && c.pointCount == 0))
            refuseState(at("contacts", k) + ".pointCount", "must be 1 or 2 when touching, else 0");
        if (c.touching && !detail::isUnitVector(c.normal))
            refuseState(at("contacts", k) + ".normal",
                        "must be a unit vector for a touching contact");
        for (int p = 0; p < c.pointCount; ++p) {
            const WarmContactPoint& cp = c.points[p];
            if (!finite(cp.point) || !finite(cp.anchorA) || !finite(cp.anchorB) ||
                !finite(cp.separation) || !finite(cp.totalNormalImpulse) ||
                !finite(cp.normalVelocity) || std::fabs(cp.point.x) > 2.0f * kMaxCoordinate ||
                std::fabs(cp.point.y) > 2.0f * kMaxCoordinate ||
                std::fabs(cp.anchorA.x) > kMaxJointLength ||
                std::fabs(cp.anchorA.y) > kMaxJointLength ||
                std::fabs(cp.anchorB.x) > kMaxJointLength ||
                std::fabs(cp.anchorB.y) > kMaxJointLength ||
                std::fabs(cp.separation) > kMaxJointLength ||
                std::fabs(cp.totalNormalImpulse) > kMaxForce ||
                std::fabs(cp.normalVelocity) > 2.0f * kMaxLinearSpeed)
                refuseState(at("contacts", k) + ".points",
                            "points, anchors and velocities must be finite and in range");
            if (c.points[p].id > 0xFFFFu)
                refuseState(at("contacts", k) + ".points.id", "must fit 16 bits");
            if (!(finite(c.points[p].normalImpulse) && c.points[p].normalImpulse >= 0.0f &&
                  c.points[p].normalImpulse <= kMaxForce && finite(c.points[p].tangentImpulse) &&
                  std::fabs(c.points[p].tangentImpulse) <= kMaxForce))
                refuseState(at("contacts", k) + ".points",
                            "impulses must be finite, within 1e25, normal >= 0");
        }
        if (!finite(c.rollingImpulse) || std::fabs(c.rollingImpulse) > kMaxForce)
            refuseState(at("contacts", k) + ".rollingImpulse", "must be finite and within 1e25");
        if (c.cacheCount < 0 || c.cacheCount > 3)
            refuseState(at("contacts", k) + ".cacheCount", "must be within [0, 3]");
        if (c.reuse.valid) checkReuse(c.reuse, at("contacts", k) + ".reuse");
        if (c.beginEventSent && !c.touching)
            refuseState(at("contacts", k) + ".beginEventSent",
                        "only a touching contact has sent a begin event");
    }
    {
        std::vector<std::pair<int, int>> sorted = pairs;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
            refuseState("contacts", "a pair of shapes is listed twice");
    }
    for (size_t k = 0; k < s.joints.size(); ++k) {
        const WarmJoint& j = s.joints[k];
        w.joint(j.joint, (at("joints", k) + ".joint").c_str());
        for (float x : {j.linearImpulse.x, j.linearImpulse.y, j.angularImpulse, j.perpImpulse,
                        j.springImpulse, j.motorImpulse, j.lowerImpulse, j.upperImpulse})
            if (!finite(x) || std::fabs(x) > kMaxForce)
                refuseState(at("joints", k), "impulses must be finite and within 1e25");
        if (j.gear) {
            if (w.joints[size_t(j.joint.index)].type != JointType::Gear)
                refuseState(at("joints", k) + ".gear", "only a gear joint has a gear state");
            for (float x : {j.gearCoordinate[0], j.gearCoordinate[1], j.gearWrapped[0],
                            j.gearWrapped[1], j.gearConstant})
                if (!within(x, kMaxGearCoordinate))
                    refuseState(at("joints", k) + ".gear",
                                "coordinates, angles and constant must be finite and "
                                "within 1e12");
        }
    }
    std::vector<char> sensorSeen(w.sensors.size(), 0);
    for (size_t k = 0; k < s.sensors.size(); ++k) {
        const WarmSensor& ws = s.sensors[k];
        const detail::Shape& ss = w.shape(ws.sensor, (at("sensors", k) + ".sensor").c_str());
        if (ss.sensorIndex < 0 || sensorSeen[size_t(ss.sensorIndex)])
            refuseState(at("sensors", k) + ".sensor",
                        "not a sensor shape of an enabled body, or listed twice");
        sensorSeen[size_t(ss.sensorIndex)] = 1;
        for (size_t v = 0; v < ws.overlaps.size(); ++v) {
            const detail::Shape& os =
                w.shape(ws.overlaps[v], (at("sensors", k) + ".overlaps").c_str());
            if (os.isSensor || os.body == ss.body ||
                (v > 0 && !(ws.overlaps[v - 1] < ws.overlaps[v])))
                refuseState(at("sensors", k) + ".overlaps",
                            "shapes of other bodies that are not sensors, sorted by id, each once");
        }
    }
    // Islands: every dynamic body in exactly one, slots distinct and with the
    // free list covering the rest, each island awake exactly when its bodies are.
    if (s.islandSlots < 0 || size_t(s.islandSlots) > 2 * w.bodies.size() + 1)
        refuseState("islandSlots", "must be within [0, 2 x body slots + 1]");
    std::vector<char> slotUsed(size_t(s.islandSlots), 0);
    std::fill(seen.begin(), seen.end(), 0);
    for (size_t k = 0; k < s.islands.size(); ++k) {
        const WarmIsland& isl = s.islands[k];
        if (isl.slot < 0 || isl.slot >= s.islandSlots || slotUsed[size_t(isl.slot)] ||
            isl.bodies.empty())
            refuseState(at("islands", k), "slot out of range, used twice, or no bodies");
        if (isl.constraintRemoveCount < 0)
            refuseState(at("islands", k) + ".constraintRemoveCount", "must be >= 0");
        slotUsed[size_t(isl.slot)] = 1;
        for (BodyId id : isl.bodies) {
            const Body& b = w.body(id, (at("islands", k) + ".bodies").c_str());
            if (b.type != BodyType::Dynamic || seen[size_t(id.index)] || b.awake != isl.awake)
                refuseState(at("islands", k),
                            "a body that is not dynamic, is listed twice, or whose awake "
                            "state differs from the island's");
            seen[size_t(id.index)] = 1;
        }
    }
    for (int f : s.freeIslandSlots) {
        if (f < 0 || f >= s.islandSlots || slotUsed[size_t(f)])
            refuseState("freeIslandSlots", "a slot out of range or in use");
        slotUsed[size_t(f)] = 1;
    }
    if (std::count(slotUsed.begin(), slotUsed.end(), 1) != s.islandSlots)
        refuseState("freeIslandSlots", "every slot must be either used or free");
    for (size_t i = 0; i < w.bodies.size(); ++i)
        if (w.bodies[i].alive && w.bodies[i].type == BodyType::Dynamic && !seen[i])
            refuseState("islands", "every dynamic body must be in an island");

    // ---- apply ----
    // New contacts are mixed through the game's friction and restitution callbacks.
    const detail::CallbackLock lock(w);
    for (const WarmShape& ws : s.shapes)
        w.broadphase.setFatAABB(w.shapes[size_t(ws.shape.index)].proxy, ws.fatAABB, ws.margin);

    std::vector<int> warmOf;  // contact slot -> index in s.contacts
    for (size_t k = 0; k < s.contacts.size(); ++k) {
        const WarmContact& wc = s.contacts[k];
        const int ia = std::min(wc.shapeA.index, wc.shapeB.index);
        const int ib = std::max(wc.shapeA.index, wc.shapeB.index);
        detail::createContact(w, ia, ib, false);
        const int slot = detail::findContact(w, ia, ib);
        if (warmOf.size() <= size_t(slot)) warmOf.resize(size_t(slot) + 1, -1);
        warmOf[size_t(slot)] = int(k);
        Contact& c = w.contacts[size_t(slot)];
        c.manifold.pointCount = wc.pointCount;
        w.contactEnds[size_t(slot)].touching = int(wc.pointCount > 0);
        c.manifold.normal = wc.normal;
        for (int k = 0; k < wc.pointCount; ++k) {
            const WarmContactPoint& p = wc.points[k];
            ManifoldPoint& mp = c.manifold.points[k];
            mp.id = uint16_t(p.id);
            mp.normalImpulse = p.normalImpulse;
            mp.tangentImpulse = p.tangentImpulse;
            mp.point = p.point;
            mp.anchorA = p.anchorA;
            mp.anchorB = p.anchorB;
            mp.separation = p.separation;
            mp.totalNormalImpulse = p.totalNormalImpulse;
            mp.normalVelocity = p.normalVelocity;
            mp.persisted = p.persisted;
        }
        c.manifold.rollingImpulse = wc.rollingImpulse;
        c.reuse = {};
        if (const WarmContactReuse& wr = wc.reuse; wr.valid) {
            detail::ManifoldReuseCache& r = c.reuse;
            r.qA = wr.rotationA;
            r.qB = wr.rotationB;
            r.relativeCenter = wr.relativeCenter;
            r.relativeRotation = wr.relativeRotation;
            r.localNormal = wr.localNormal;
            for (int p = 0; p < wr.pointCount; ++p) {
                r.localPointA[p] = wr.localPointA[p];
                r.localPointB[p] = wr.localPointB[p];
                r.baseSeparation[p] = wr.baseSeparation[p];
            }
            r.valid = 1;
            r.referenceIsB = wr.referenceIsB ? 1 : 0;
            r.pointCount = uint8_t(wr.pointCount);
        }
        c.cache.count = uint16_t(wc.cacheCount);
        for (int k = 0; k < 3; ++k) {
            c.cache.indexA[k] = wc.cacheIndexA[k];
            c.cache.indexB[k] = wc.cacheIndexB[k];
        }
        if (wc.touching) {
            c.flags |= detail::kContactTouching;
            if (wc.beginEventSent) c.flags |= detail::kContactBeginSent;
            // Linked as the solver links it; the islands are replaced below.
            if (w.bodies[size_t(c.bodyA)].type == BodyType::Dynamic &&
                w.bodies[size_t(c.bodyB)].type == BodyType::Dynamic)
                c.flags |= detail::kContactLinked;
        }
    }
    // Each body's contact list in the saved order, where the saved positions
    // of its contacts are a permutation of its list (otherwise creation order).
    {
        std::vector<int> placed;
        for (size_t bi = 0; bi < w.bodies.size(); ++bi) {
            Body& b = w.bodies[bi];
            if (!b.alive || b.contacts.empty()) continue;
            const size_t n = b.contacts.size();
            placed.assign(n, -1);
            bool ok = true;
            for (int ci : b.contacts) {
                const Contact& c = w.contacts[size_t(ci)];
                const WarmContact& wc = s.contacts[size_t(warmOf[size_t(ci)])];
                // The saved orders follow the saved shape order; the contact
                // keeps shapeA < shapeB by index.
                const bool sameOrder = wc.shapeA.index == c.shapeA;
                const int order = c.bodyA == int(bi) ? (sameOrder ? wc.orderA : wc.orderB)
                                                     : (sameOrder ? wc.orderB : wc.orderA);
                if (order < 0 || size_t(order) >= n || placed[size_t(order)] >= 0) {
                    ok = false;
                    break;
                }
                placed[size_t(order)] = ci;
            }
            if (!ok) continue;
            b.contacts = placed;
            for (size_t e = 0; e < n; ++e) {
                Contact& c = w.contacts[size_t(placed[e])];
                if (c.bodyA == int(bi))
                    c.edgeA = int(e);
                else
                    c.edgeB = int(e);
            }
        }
    }

    for (detail::Island& isl : w.islands) {
        isl.alive = false;
        isl.bodies.clear();
    }
    w.islands.resize(size_t(s.islandSlots));
    for (detail::Island& isl : w.islands) {
        isl.alive = false;
        isl.awake = true;
        isl.bodies.clear();
        isl.constraintRemoveCount = 0;
        isl.sleepPass = 0;
    }
    for (const WarmIsland& wi : s.islands) {
        detail::Island& isl = w.islands[size_t(wi.slot)];
        isl.alive = true;
        isl.awake = wi.awake;
        isl.constraintRemoveCount = wi.constraintRemoveCount;
        for (BodyId id : wi.bodies) {
            isl.bodies.push_back(id.index);
            w.bodies[size_t(id.index)].islandId = wi.slot;
        }
    }
    w.freeIslands = s.freeIslandSlots;

    for (int bi : w.awakeBodies) w.bodies[size_t(bi)].awakeIndex = w.awakeSlot[size_t(bi)] = -1;
    w.awakeBodies.clear();
    for (BodyId id : s.awakeBodies) {
        w.bodies[size_t(id.index)].awakeIndex = w.awakeSlot[size_t(id.index)] =
            int(w.awakeBodies.size());
        w.awakeBodies.push_back(id.index);
    }
    for (const WarmBody& wb : s.bodies) {
        Body& b = w.bodies[size_t(wb.body.index)];
        b.sleepTime = wb.sleepTime;
        b.force = wb.force;
        b.torque = wb.torque;
        b.center = wb.center;
        b.isFast = wb.fast;
        // The start of the step and the point continuous collision reached
        // are the step's own (and drawing's, for a fast body): a dot here.
        b.center0 = b.ccdEnd = b.center;
        b.q0 = b.xf.q;
    }
    for (const WarmSensor& ws : s.sensors)
        w.sensors[size_t(w.shapes[size_t(ws.sensor.index)].sensorIndex)].overlaps = ws.overlaps;
    for (const WarmJoint& wj : s.joints) {
        detail::JointCarried& d = w.joints[size_t(wj.joint.index)].carried;
        d.linearImpulse = wj.linearImpulse;
        d.angularImpulse = wj.angularImpulse;
        d.perpImpulse = wj.perpImpulse;
        d.springImpulse = wj.springImpulse;
        d.motorImpulse = wj.motorImpulse;
        d.lowerImpulse = wj.lowerImpulse;
        d.upperImpulse = wj.upperImpulse;
        if (wj.gear) {
            detail::GearSolverData& g = w.gears[size_t(d.gearSlot)];
            for (int k = 0; k < 2; ++k) {
                g.sides[k].coordinate = wj.gearCoordinate[k];
                g.sides[k].wrapped = wj.gearWrapped[k];
            }
            g.constant = wj.gearConstant;
        }
    }
}

}  // namespace carom
