// Contacts: creation from broadphase pairs, filtering, the collide stage and
// destruction. See contact.hpp for the life of a contact.
#include "engine/core/platform.hpp"
#include "engine/world/contact.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include <carom/limits.hpp>

#include "engine/core/assert.hpp"
#include "engine/world/manifold_reuse.hpp"
#include "engine/world/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"
#include "solver/parallel.hpp"

namespace carom::detail {

namespace {

ShapeRef refOf(const WorldImpl& w, const Shape& s) {
    return w.shapeRef(s);
}

// Swap-removes entry `edge` of body `bodyIndex`'s contact list and fixes the
// stored position of the contact that moved into it.
void removeEdge(WorldImpl& w, int bodyIndex, int edge) {
    auto& list = w.bodies[size_t(bodyIndex)].contacts;
    const int moved = list.back();
    list[size_t(edge)] = moved;
    list.pop_back();
    if (size_t(edge) == list.size()) return;
    Contact& m = w.contacts[size_t(moved)];
    if (m.bodyA == bodyIndex)
        m.edgeA = edge;
    else
        m.edgeB = edge;
}

// A joint with collideConnected == false between the two bodies vetoes their
// contacts. Scan the shorter joint list.
bool jointPreventsCollision(const WorldImpl& w, int bodyA, int bodyB) {
    const Body& a = w.bodies[size_t(bodyA)];
    const Body& b = w.bodies[size_t(bodyB)];
    const Body& scan = a.joints.size() <= b.joints.size() ? a : b;
    const int other = a.joints.size() <= b.joints.size() ? bodyB : bodyA;
    for (int j : scan.joints) {
        const Joint& jt = w.joints[size_t(j)];
        if (jt.bodyA != other && jt.bodyB != other) continue;
        const bool cc = std::visit([](const auto& d) { return d.collideConnected; }, jt.def);
        if (!cc) return true;
    }
    return false;
}

// A contact id names one touching episode: the generation moves on when
// the contact stops touching or dies, so the id of the begin event goes
// stale exactly when its end event is made. 0 is skipped (null ids).
void bumpGeneration(Contact& c) {
    c.generation = c.generation + 1 == 0 ? 1 : c.generation + 1;
}

// The end event carries the id of the episode that ends: call before bumping.
void pushEndEvent(WorldImpl& w, int index) {
    const Contact& c = w.contacts[size_t(index)];
    ContactEndEvent e{w.shapeId(c.shapeA), w.shapeId(c.shapeB), contactId(w, index)};
    // Outside step() the event waits for the next step's arrays.
    if (w.stepping)
        w.contactEndEvents.push_back(e);
    else
        w.pendingContactEndEvents.push_back(e);
}

// Recomputes one contact's manifold and carries the impulses of points whose
// feature id survived (warm starting). Touches only this contact: contacts
// are independent here, which is what lets workers split the list.
void updateManifold(WorldImpl& w, Contact& c) {
    const Shape& sa = w.shapes[size_t(c.shapeA)];
    const Shape& sb = w.shapes[size_t(c.shapeB)];
    c.flags &= ~(kContactDisjoint | kContactStarted | kContactStopped | kContactReused);
    if (!aabbOverlaps(w.broadphase.fatAABB(sa.proxy), w.broadphase.fatAABB(sb.proxy))) {
        c.flags |= kContactDisjoint;
        return;
    }
    // Tight boxes further apart than the speculative distance (with a factor
    // 2 of safety) cannot give manifold points: most contacts of a busy pile
    // are only fat-box neighbours, and this skips their narrowphase.
    const AABB& ta = sa.aabb;
    const AABB& tb = sb.aabb;
    constexpr float kGap = 2.0f * kSpeculativeDistance;
    if (tb.lower.x - ta.upper.x > kGap || ta.lower.x - tb.upper.x > kGap ||
        tb.lower.y - ta.upper.y > kGap || ta.lower.y - tb.upper.y > kGap) {
        c.manifold.pointCount = 0;
        c.manifold.rollingImpulse = 0.0f;
        return;
    }
    if (tryReuseManifold(w, c)) {
        c.flags |= kContactReused;
        return;
    }
    const Transform& xfA = w.bodies[size_t(c.bodyA)].xf;
    const Transform& xfB = w.bodies[size_t(c.bodyB)].xf;
    const Manifold old = c.manifold;
    ShapeRef refA = refOf(w, sa), refB = refOf(w, sb);
    // Tile seams (engine/world/seams.hpp): a segment or chain end linked to a
    // neighbour collides as an inner chain segment. One side at most, and a
    // Segment not against a chain segment: two chain segments never collide.
    ChainSegment seam;
    // A polygon tile with neighbours collides through its exposed edges.
    if (sa.seamTileLinked || sb.seamTileLinked) {
        c.manifold = sa.seamTileLinked
                         ? collideTile(w, sa, refA, xfA, refB, xfB, sb.aabb, true, &c.cache)
                         : collideTile(w, sb, refB, xfB, refA, xfA, sa.aabb, false, &c.cache);
    } else {
        if (seamLinked(sa) &&
            !(sa.type == ShapeType::Segment && sb.type == ShapeType::ChainSegment))
            refA = seamShapeRef(sa, invTransformPoint(xfA, transformPoint(xfB, refCentroid(refB))),
                                refB.type, seam);
        else if (seamLinked(sb) &&
                 !(sb.type == ShapeType::Segment && sa.type == ShapeType::ChainSegment))
            refB = seamShapeRef(sb, invTransformPoint(xfB, transformPoint(xfA, refCentroid(refA))),
                                refA.type, seam);
        c.manifold = collideShapes(refA, xfA, refB, xfB, &c.cache);
    }
    c.manifold.rollingImpulse = old.rollingImpulse;
    for (int i = 0; i < c.manifold.pointCount; ++i) {
        ManifoldPoint& mp = c.manifold.points[i];
        mp.normalImpulse = 0.0f;
        mp.tangentImpulse = 0.0f;
        mp.persisted = false;
        for (int k = 0; k < old.pointCount; ++k) {
            if (old.points[k].id == mp.id) {
                mp.normalImpulse = old.points[k].normalImpulse;
                mp.tangentImpulse = old.points[k].tangentImpulse;
                mp.persisted = true;
                break;
            }
        }
    }
    if (c.manifold.pointCount == 0) c.manifold.rollingImpulse = 0.0f;
    recordManifoldForReuse(w, c);
}

}  // namespace

namespace {

float mixFriction(FrictionMixing m, float a, float b) {
    switch (m) {
        case FrictionMixing::Min:
            return std::min(a, b);
        case FrictionMixing::Max:
            return std::max(a, b);
        case FrictionMixing::Average:
            return 0.5f * (a + b);
        case FrictionMixing::GeometricMean:
        default:
            return std::sqrt(a * b);
    }
}

float mixRestitution(RestitutionMixing m, float a, float b) {
    switch (m) {
        case RestitutionMixing::Min:
            return std::min(a, b);
        case RestitutionMixing::GeometricMean:
            return std::sqrt(a * b);
        case RestitutionMixing::Average:
            return 0.5f * (a + b);
        case RestitutionMixing::Max:
        default:
            return std::max(a, b);
    }
}

// A user rule's result, kept within what a shape may have (the solver's
// arithmetic is bounded for those values only); NaN means no friction.
float clampCoefficient(float x) {
    if (!(x >= 0.0f)) return 0.0f;
    return std::min(x, kMaxMaterialCoefficient);
}

}  // namespace

namespace {

float shapeRadius(const WorldImpl& w, const Shape& s) {
    switch (s.type) {
        case ShapeType::Circle:
            return s.geom.circle.radius;
        case ShapeType::Capsule:
            return s.geom.capsule.radius;
        case ShapeType::Polygon:
            return polygonParts(w.shapeRef(s)).radius;
        default:
            return 0.0f;
    }
}

}  // namespace

// The solver's prepare reads these from the contact, not from the two shape
// records (and for a polygon its geometry) of every contact every step. A
// shape's radius changes only with its geometry, which destroys its contacts.
void updateContactSurface(WorldImpl& w, Contact& c) {
    const Shape& sa = w.shapes[size_t(c.shapeA)];
    const Shape& sb = w.shapes[size_t(c.shapeB)];
    // Conveyors: see contact_solver.cpp for the sign.
    c.tangentSpeed = sa.tangentSpeed + sb.tangentSpeed;
    c.rollingResistance = std::max(sa.rollingResistance, sb.rollingResistance) *
                          std::max(shapeRadius(w, sa), shapeRadius(w, sb));
}

void refreshShapeContactSurfaces(WorldImpl& w, int shapeIndex) {
    for (int ci : w.bodies[size_t(w.shapes[size_t(shapeIndex)].body)].contacts) {
        Contact& c = w.contacts[size_t(ci)];
        if (c.shapeA == shapeIndex || c.shapeB == shapeIndex) updateContactSurface(w, c);
    }
}

// Mixed once, when the contact is made (and when a setter changes the
// inputs), not every step: a user callback then runs on the stepping
// thread, in contact creation order, never on a worker.
namespace {
struct Mixed {
    float friction, restitution;
};
Mixed mixMaterial(const WorldImpl& w, const Contact& c) {
    const Shape& sa = w.shapes[size_t(c.shapeA)];
    const Shape& sb = w.shapes[size_t(c.shapeB)];
    float friction = mixFriction(w.def.frictionMixing, sa.friction, sb.friction);
    if (w.frictionMix)
        friction = clampCoefficient(callGame(w, friction, [&] {
            return w.frictionMix(sa.friction, sa.userMaterialId, sb.friction, sb.userMaterialId);
        }));
    float restitution = mixRestitution(w.def.restitutionMixing, sa.restitution, sb.restitution);
    if (w.restitutionMix)
        restitution = clampCoefficient(callGame(w, restitution, [&] {
            return w.restitutionMix(sa.restitution, sa.userMaterialId, sb.restitution,
                                    sb.userMaterialId);
        }));
    return {friction, restitution};
}
void applyMaterial(WorldImpl& w, Contact& c, Mixed m) {
    c.friction = m.friction;
    c.restitution = m.restitution;
    updateContactSurface(w, c);
}
}  // namespace

void updateContactMaterial(WorldImpl& w, Contact& c) {
    applyMaterial(w, c, mixMaterial(w, c));
}

void remixContacts(WorldImpl& w, int shapeIndex) {
    std::vector<std::pair<int, Mixed>> mixed;
    {
        const CallbackLock lock(w);  // the callbacks must not change the world
        auto mix = [&](int ci) { mixed.push_back({ci, mixMaterial(w, w.contacts[size_t(ci)])}); };
        if (shapeIndex < 0) {
            for (size_t ci = 0; ci < w.contacts.size(); ++ci)
                if (w.contacts[ci].alive) mix(int(ci));
        } else {
            for (int ci : w.bodies[size_t(w.shapes[size_t(shapeIndex)].body)].contacts) {
                const Contact& c = w.contacts[size_t(ci)];
                if (c.shapeA == shapeIndex || c.shapeB == shapeIndex) mix(ci);
            }
        }
    }
    for (const auto& [ci, m] : mixed) applyMaterial(w, w.contacts[size_t(ci)], m);
}

void updateContactFlags(WorldImpl& w, Contact& c) {
    const Shape& sa = w.shapes[size_t(c.shapeA)];
    const Shape& sb = w.shapes[size_t(c.shapeB)];
    c.flags &= ~(kContactEnableEvents | kContactEnableHits | kContactEnablePreSolve);
    if (sa.enableContactEvents || sb.enableContactEvents) c.flags |= kContactEnableEvents;
    if (sa.enableHitEvents || sb.enableHitEvents) c.flags |= kContactEnableHits;
    if (sa.enablePreSolveEvents || sb.enablePreSolveEvents) c.flags |= kContactEnablePreSolve;
}

void refreshShapeContactFlags(WorldImpl& w, int shapeIndex) {
    for (int ci : w.bodies[size_t(w.shapes[size_t(shapeIndex)].body)].contacts) {
        Contact& c = w.contacts[size_t(ci)];
        if (c.shapeA == shapeIndex || c.shapeB == shapeIndex) updateContactFlags(w, c);
    }
}

bool filtersCollide(const Filter& a, const Filter& b) {
    if (a.groupIndex == b.groupIndex && a.groupIndex != 0) return a.groupIndex > 0;
    return (a.categoryBits & b.maskBits) != 0 && (b.categoryBits & a.maskBits) != 0;
}

uint64_t pairMaskOf(const Shape& s) {
    if (s.isSensor) return 0;
    return s.filter.groupIndex > 0 ? ~0ull : s.filter.maskBits;
}

bool shouldCollide(const WorldImpl& w, int shapeA, int shapeB) {
    const Shape& a = w.shapes[size_t(shapeA)];
    const Shape& b = w.shapes[size_t(shapeB)];
    if (a.body == b.body || a.isSensor || b.isSensor) return false;
    const Body& ba = w.bodies[size_t(a.body)];
    const Body& bb = w.bodies[size_t(b.body)];
    if (ba.type != BodyType::Dynamic && bb.type != BodyType::Dynamic) return false;
    if (!filtersCollide(a.filter, b.filter)) return false;
    if (jointPreventsCollision(w, a.body, b.body)) return false;
    return true;
}

int findContact(const WorldImpl& w, int shapeA, int shapeB) {
    return w.pairMap.find(shapeA, shapeB);
}

void createContact(WorldImpl& w, int shapeA, int shapeB, bool wakeSleeping) {
    if (shapeB < shapeA) std::swap(shapeA, shapeB);
    int index = -1;
    if (!w.freeContacts.empty()) {
        index = w.freeContacts.back();
        w.freeContacts.pop_back();
    } else {
        w.contacts.emplace_back();
        index = int(w.contacts.size()) - 1;
    }
    Contact& c = w.contacts[size_t(index)];
    const uint32_t generation = c.generation;
    c = Contact{};
    c.generation = generation;
    c.alive = true;
    c.shapeA = shapeA;
    c.shapeB = shapeB;
    c.bodyA = w.shapes[size_t(shapeA)].body;
    c.bodyB = w.shapes[size_t(shapeB)].body;
    if (w.contactEnds.size() < w.contacts.size()) w.contactEnds.resize(w.contacts.size());
    w.contactEnds[size_t(index)] = {c.bodyA, c.bodyB, 0};
    updateContactFlags(w, c);
    updateContactMaterial(w, c);
    c.edgeA = int(w.bodies[size_t(c.bodyA)].contacts.size());
    w.bodies[size_t(c.bodyA)].contacts.push_back(index);
    c.edgeB = int(w.bodies[size_t(c.bodyB)].contacts.size());
    w.bodies[size_t(c.bodyB)].contacts.push_back(index);
    w.pairMap.insert(shapeA, shapeB, index);
    ++w.contactCount;
    ++w.contactsCreated;
    // A contact is updated only from an awake body. Between two sleeping
    // bodies (a pile created asleep) it can wait: it is updated, and links
    // the islands, as soon as either side wakes. But a static shape created
    // over a sleeping body would never be seen: wake the sleeping side then.
    const Body& ownerA = w.bodies[size_t(c.bodyA)];
    const Body& ownerB = w.bodies[size_t(c.bodyB)];
    if (wakeSleeping && ownerA.awakeIndex < 0 && ownerB.awakeIndex < 0 &&
        (ownerA.type == BodyType::Static || ownerB.type == BodyType::Static)) {
        const int bodyA = c.bodyA, bodyB = c.bodyB;
        w.wakeBody(bodyA);
        w.wakeBody(bodyB);
    }
}

void destroyContact(WorldImpl& w, int index, bool wakeBodies) {
    Contact& c = w.contacts[size_t(index)];
    if (c.flags & kContactBeginSent) pushEndEvent(w, index);
    if (c.flags & kContactLinked) unlinkBodies(w, c.bodyA, c.bodyB);
    removeEdge(w, c.bodyA, c.edgeA);
    removeEdge(w, c.bodyB, c.edgeB);
    w.pairMap.erase(c.shapeA, c.shapeB);
    // A dead contact touches nothing (rebuildContactEnds' rule): the
    // collide stage destroys disjoint contacts after noting their old
    // manifold's touching, and gatherConstraints reads it from its list.
    w.contactEnds[size_t(index)].touching = 0;
    const int bodyA = c.bodyA, bodyB = c.bodyB;
    const uint32_t generation = c.generation;
    c = Contact{};
    c.generation = generation;
    bumpGeneration(c);
    w.freeContacts.push_back(index);
    --w.contactCount;
    ++w.contactsDestroyed;
    if (wakeBodies) {
        w.wakeBody(bodyA);
        w.wakeBody(bodyB);
    }
}

void destroyShapeContacts(WorldImpl& w, int shapeIndex, bool wakeBodies) {
    const int bodyIndex = w.shapes[size_t(shapeIndex)].body;
    // Walk backwards: destroying swap-removes the current entry of this very
    // list, moving an already visited entry into its place.
    for (int i = int(w.bodies[size_t(bodyIndex)].contacts.size()) - 1; i >= 0; --i) {
        const auto& list = w.bodies[size_t(bodyIndex)].contacts;
        if (i >= int(list.size())) continue;
        const int ci = list[size_t(i)];
        const Contact& c = w.contacts[size_t(ci)];
        if (c.shapeA == shapeIndex || c.shapeB == shapeIndex) destroyContact(w, ci, wakeBodies);
    }
}

bool isContactOwner(const WorldImpl& w, int bodyIndex, const Contact& c) {
    const int other = c.bodyA == bodyIndex ? c.bodyB : c.bodyA;
    const int otherAwake = w.bodies[size_t(other)].awakeIndex;
    return otherAwake < 0 || w.bodies[size_t(bodyIndex)].awakeIndex < otherAwake;
}

// New pairs from the broadphase. Pairs that already have a contact, or can
// never collide (same body, sensors, filters, joints), are skipped inside the
// broadphase search: only new pairs are kept and sorted (in a busy scene
// the candidates outnumber the new pairs many times). The custom filter, a user callback, runs
// after the sort, so it is called in the same order for both structures.
// The contact budget (WorldDef::maxContacts) bounds what may be created:
// beyond it the pairs with the lowest keys are kept and the rest reported.
void updatePairs(WorldImpl& w) {
    auto& pairs = w.scratch.pairs;
    pairs.clear();
    const int64_t room = int64_t(w.def.maxContacts) - int64_t(w.contactCount);
    // The search around the moved proxies is split among the workers (the
    // skip test only reads the pair map and the shapes); its result does not
    // depend on the split (broadphase.hpp, updatePairsParallel).
    const TaskDispatch dispatch = taskDispatch(w);
    auto run = [&dispatch](int count, auto&& fn) { runParts(dispatch, count, fn); };
    // The tree flush waits for the solve, which runs it beside its stages
    // (solveStep); the search runs on the trees as the last step's moves
    // left them: the same pairs, and the same trees after the flush.
    w.broadphase.deferFlush();
    // The skip test: a pair that already has a contact, or that the filters
    // exclude. It can prefetch its pair-map slot, so the search hands it the
    // candidates in batches (BroadPhase::SkipBatch).
    struct Skip {
        const WorldImpl& w;
        bool operator()(int a, int b) const {
            return w.pairMap.find(a, b) >= 0 || !shouldCollide(w, a, b);
        }
        void prefetch(int a, int b) const { w.pairMap.prefetch(a, b); }
    } skip{w};
    const PairSearchResult r = w.broadphase.updatePairsParallel(
        run, skip,
        [&w](int a, int b) {
            return !w.customFilter ||
                   callGame(w, true, [&] { return w.customFilter(w.shapeId(a), w.shapeId(b)); });
        },
        pairs, room > 0 ? room : 0);
    w.pairsOverBudget = r.dropped;
    if (r.dropped > 0) w.contactBudgetExceeded = true;
    for (const BroadphasePair& p : pairs) createContact(w, p.shapeA, p.shapeB);
}

// The collide stage.
//
//   active = contacts visited from their owners (awake bodies, awake order)
//   for each active contact (independent, parallel):  updateManifold
//   for each active contact (in order, sequential):
//       disjoint fat boxes  → destroy (end event if it was touching)
//       pre-solve callback  → may empty the manifold for this step
//       started touching    → begin event, wake both sides, link islands
//       stopped touching    → end event, unlink
namespace {

// The active list is in owner-walk order, so its contact records (256 bytes
// each), their shapes and their bodies are scattered: updateManifold's first
// load of each missed the cache (in a tumbling pile, loading the record's
// shape indices dominated it). Two stages ahead of the loop: the record of
// the contact kFar places on, then, once that record is in cache, the shapes'
// and bodies' lines of the contact kNear places on. Only loads move earlier;
// nothing computed changes. Always inlined: as a function of its own GCC
// found it free of side effects (pure-const) and dropped the calls.
CAROM_FORCE_INLINE void prefetchAhead(const WorldImpl& w, const std::vector<int>& active, int i,
                                      int end) {
    constexpr int kNear = 4, kFar = 10;
    if (i + kFar < end) {
        const char* rec =
            reinterpret_cast<const char*>(&w.contacts[size_t(active[size_t(i + kFar)])]);
        for (int line = 0; line < int(sizeof(Contact)); line += 64) prefetchWrite(rec + line);
    }
    if (i + kNear < end) {
        const Contact& n = w.contacts[size_t(active[size_t(i + kNear)])];
        for (int si : {n.shapeA, n.shapeB}) {
            const char* s = reinterpret_cast<const char*>(&w.shapes[size_t(si)]);
            prefetchRead(s);
            prefetchRead(s + 64);
            prefetchRead(s + offsetof(Shape, aabb));
            prefetchRead(s + offsetof(Shape, proxy));
        }
        prefetchRead(&w.bodies[size_t(n.bodyA)].xf);
        prefetchRead(&w.bodies[size_t(n.bodyB)].xf);
    }
}

}  // namespace

void updateContacts(WorldImpl& w) {
    auto& active = w.scratch.activeContacts;
    // isContactOwner written out: the walk has this body's awake index at
    // hand (its position in the array), and the call per contact showed in
    // profiles of big piles. The walk misses the cache on every body and
    // contact: it runs in ranges of awake bodies on the workers, joined in
    // order (forOwnerChunks).
    auto& chunks = w.scratch.contactChunks;
    chunks.resize(size_t(kOwnerChunks));
    // A world without contacts has no lists to walk.
    const int64_t bodies = w.contactCount > 0 ? int64_t(w.awakeBodies.size()) : 0;
    // Every awake body's contacts are in the walk (with no contacts there
    // are none to own): gatherConstraints walks only bodies woken after it.
    w.scratch.collideBodies = w.awakeBodies.size();
    forOwnerChunks(w, bodies, [&](int chunk) {
        std::vector<int>& list = chunks[size_t(chunk)];
        list.clear();
        const int end = ownerChunkBegin(bodies, chunk + 1);
        for (int i = ownerChunkBegin(bodies, chunk); i < end; ++i) {
            prefetchOwnerWalk(w, w.awakeBodies, i, end);
            const int bi = w.awakeBodies[size_t(i)];
            for (int ci : w.bodies[size_t(bi)].contacts) {
                const ContactEnds& e = w.contactEnds[size_t(ci)];
                CAROM_ASSERT(e.bodyA == w.contacts[size_t(ci)].bodyA &&
                             e.bodyB == w.contacts[size_t(ci)].bodyB);
                const int other = e.bodyA == bi ? e.bodyB : e.bodyA;
                const int otherAwake = w.awakeSlot[size_t(other)];
                CAROM_ASSERT(otherAwake == w.bodies[size_t(other)].awakeIndex);
                if (otherAwake < 0 || i < otherAwake) list.push_back(ci);
            }
        }
    });
    active.clear();
    for (const std::vector<int>& list : chunks)
        active.insert(active.end(), list.begin(), list.end());

    // The parallel pass also notes, in a dense byte array, which contacts
    // need the sequential pass (disjoint, pre-solve, touching changed), so
    // that pass does not touch the many contacts with nothing to report.
    auto& needs = w.scratch.activeFlags;
    needs.resize(active.size());
    const bool preSolve = static_cast<bool>(w.preSolve);
    // Reused manifolds (Counters::reusedManifolds): a sum of per-range
    // counts, the same whatever the split.
    std::atomic<int> reused{0};
    parallelFor(
        w, int(active.size()), [&w, &active, &needs, &reused, preSolve](int begin, int end) {
            int kept = 0;
            for (int i = begin; i < end; ++i) {
                prefetchAhead(w, active, i, end);
                const int ci = active[size_t(i)];
                Contact& c = w.contacts[size_t(ci)];
                updateManifold(w, c);
                if (c.flags & kContactReused) ++kept;
                const bool now = c.manifold.pointCount > 0;
                w.contactEnds[size_t(ci)].touching = int(now);
                const bool was = (c.flags & kContactTouching) != 0;
                needs[size_t(i)] = uint8_t((c.flags & kContactDisjoint) || now != was ||
                                           (now && preSolve && (c.flags & kContactEnablePreSolve)));
            }
            reused.fetch_add(kept, std::memory_order_relaxed);
        });
    w.reusedManifolds += reused.load(std::memory_order_relaxed);

    for (size_t i = 0; i < active.size(); ++i) {
        if (!needs[i]) continue;
        const int ci = active[i];
        Contact& c = w.contacts[size_t(ci)];
        if (c.flags & kContactDisjoint) {
            destroyContact(w, ci, false);
            continue;
        }
        if (c.manifold.pointCount > 0 && (c.flags & kContactEnablePreSolve) && w.preSolve) {
            if (!callGame(w, true, [&] {
                    return w.preSolve(w.shapeId(c.shapeA), w.shapeId(c.shapeB),
                                      makeContactData(w, c));
                })) {
                c.manifold.pointCount = 0;
                w.contactEnds[size_t(ci)].touching = 0;
            }
        }
        const bool was = (c.flags & kContactTouching) != 0;
        const bool now = c.manifold.pointCount > 0;
        if (now && !was) {
            c.flags |= kContactTouching | kContactStarted;
            if (c.flags & kContactEnableEvents) {
                // The manifold as the solver will see it (after pre-solve):
                // equal to what contactData gives after this step.
                ContactBeginEvent e{w.shapeId(c.shapeA), w.shapeId(c.shapeB), contactId(w, ci), {}};
                e.manifold.normal = c.manifold.normal;
                e.manifold.pointCount = c.manifold.pointCount;
                for (int k = 0; k < c.manifold.pointCount; ++k) {
                    const ManifoldPoint& mp = c.manifold.points[k];
                    e.manifold.points[k] = {mp.point, mp.separation, mp.id};
                }
                w.contactBeginEvents.push_back(e);
                c.flags |= kContactBeginSent;
            }
            wakeIslandOf(w, c.bodyA, false);
            wakeIslandOf(w, c.bodyB, false);
            if (w.bodies[size_t(c.bodyA)].type == BodyType::Dynamic &&
                w.bodies[size_t(c.bodyB)].type == BodyType::Dynamic) {
                linkBodies(w, c.bodyA, c.bodyB);
                c.flags |= kContactLinked;
            }
        } else if (!now && was) {
            c.flags &= ~kContactTouching;
            c.flags |= kContactStopped;
            // Begin and end pair up whatever the flag did in between.
            if (c.flags & kContactBeginSent) pushEndEvent(w, ci);
            c.flags &= ~kContactBeginSent;
            bumpGeneration(c);
            if (c.flags & kContactLinked) {
                unlinkBodies(w, c.bodyA, c.bodyB);
                c.flags &= ~kContactLinked;
            }
        }
    }
}

ContactData makeContactData(const WorldImpl& w, const Contact& c) {
    ContactData d;
    d.shapeA = w.shapeId(c.shapeA);
    d.shapeB = w.shapeId(c.shapeB);
    d.normal = c.manifold.normal;
    d.pointCount = c.manifold.pointCount;
    for (int i = 0; i < c.manifold.pointCount; ++i) {
        const ManifoldPoint& mp = c.manifold.points[i];
        d.points[i].point = mp.point;
        d.points[i].separation = mp.separation;
        d.points[i].normalImpulse = mp.normalImpulse;
        d.points[i].tangentImpulse = mp.tangentImpulse;
        d.points[i].id = mp.id;
    }
    d.contact = {int(&c - w.contacts.data()), c.generation};
    return d;
}

ContactId contactId(const WorldImpl& w, int index) {
    return {index, w.contacts[size_t(index)].generation};
}

const Contact* findTouchingContact(const WorldImpl& w, ContactId id) {
    if (id.index < 0 || size_t(id.index) >= w.contacts.size()) return nullptr;
    const Contact& c = w.contacts[size_t(id.index)];
    if (!c.alive || !(c.flags & kContactTouching) || c.generation != id.generation) return nullptr;
    return &c;
}

}  // namespace carom::detail
