// The solve stage of the step: the soft-step substep loop.
//
//   gather    awake bodies → dense states (v, w, dp = 0, dq = 1), params,
//             accelerations; touching contacts and joints visited from
//             their owner body → constraint lists
//   raise     light supports under heavy loads: their solver mass
//             (raiseLightSupports)
//   prepare   joints (into JointSims, as they are gathered)
//   colour    joints, then contacts, into runs sharing no movable body
//             (graph_color.hpp)
//   prepare   contacts (anchors, masses, softness) — once per step
//   for each of the n substeps (h = dt / n):
//       integrate velocities   v += h (g + F/m), damping, speed clamps
//       (restart lanes         a light support in an impact: its contacts'
//                              impulses back to what they were prepared with)
//       warm start             apply the impulses carried over
//       solve                  soft constraints with position bias
//       integrate positions    dp += h v, dq = rot(h w) dq
//       relax                  constraints again without bias
//   restitution               bounce what approached fast enough
//   store                     impulses back to manifolds and joints
//   finalize bodies           write poses, sleep timers, flag fast bodies
//
// Body arrays are in awake-body order, joints and contacts in colour order.
// Everything from the first substep to the store is one list of stages run
// by all workers together (solver/parallel.hpp: StagePlan): each colour of
// each pass is one stage of joint blocks and contact blocks, the overflow
// colour one block, per-body loops split into blocks where each index
// writes only its own item. The result is a pure function of the world
// state, whatever the number of workers.
#include "engine/core/platform.hpp"
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <variant>

#include "engine/core/assert.hpp"
#include "engine/world/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"
#include "solver/graph_color.hpp"
#include "solver/wide_contact.hpp"

namespace carom::detail {

namespace {

// Largest rotation per substep (Box2D v3: b2_maxRotation), keeps the
// small-angle rotation update accurate.
constexpr float kMaxRotation = 0.25f * kPi;

}  // namespace

// |v|² overflows to inf once |v| passes ~1.8e19 m/s (a kMaxForce push on a
// kMinMass body reaches 1e35 in one substep), and maxSpeed / sqrt(inf) is 0:
// the fastest bodies would stop dead. Below the overflow the arithmetic is
// the one the solver always used (bit-identical results); above it the
// vector is first scaled by its largest component, which makes its length
// between 1 and √2, then brought to maxSpeed. An infinite component keeps
// its sign and the direction of the largest axis.
Vec2 clampLinearSpeed(Vec2 v, float maxSpeed) {
    const float v2 = lengthSquared(v);
    if (!(v2 > maxSpeed * maxSpeed)) return v;
    if (std::isfinite(v2)) return (maxSpeed / std::sqrt(v2)) * v;
    const float ax = std::fabs(v.x), ay = std::fabs(v.y);
    if (std::isinf(ax) || std::isinf(ay)) {
        v = {std::isinf(ax) ? std::copysign(1.0f, v.x) : 0.0f,
             std::isinf(ay) ? std::copysign(1.0f, v.y) : 0.0f};
    } else {
        const float m = std::max(ax, ay);
        v = {v.x / m, v.y / m};
    }
    return (maxSpeed / length(v)) * v;
}

namespace {

// Non-negative floats (inverse masses) order as their bit patterns: the
// largest or smallest of what the workers found, whatever the order they
// report in.
void foldMax(std::atomic<uint32_t>& bits, float x) {
    const uint32_t mine = detail::bitCast<uint32_t>(x);
    uint32_t seen = bits.load(std::memory_order_relaxed);
    while (mine > seen && !bits.compare_exchange_weak(seen, mine, std::memory_order_relaxed)) {
    }
}
void foldMin(std::atomic<uint32_t>& bits, float x) {
    const uint32_t mine = detail::bitCast<uint32_t>(x);
    uint32_t seen = bits.load(std::memory_order_relaxed);
    while (mine < seen && !bits.compare_exchange_weak(seen, mine, std::memory_order_relaxed)) {
    }
}

void gatherBodies(WorldImpl& w, StepContext& ctx) {
    StepScratch& S = w.scratch;
    S.stepBodies.assign(w.awakeBodies.begin(), w.awakeBodies.end());
    const size_t n = S.stepBodies.size();
    S.states.resize(n);
    S.params.resize(n);
    S.motion.resize(n);
    S.prepBodies.resize(n);
    const Vec2 g = w.def.gravity;
    // The lightest and heaviest dynamic body, as inverse masses
    // (raiseLightSupports), found on the way.
    constexpr float kInf = std::numeric_limits<float>::infinity();
    std::atomic<uint32_t> lightestBits{0u}, heaviestBits{detail::bitCast<uint32_t>(kInf)};
    // Each body writes only its own record and slot: split among the workers.
    parallelFor(w, int(n), [&](int begin, int end) {
        float lightest = 0.0f, heaviest = kInf;
        for (int k = begin; k < end; ++k) {
            const size_t i = size_t(k);
            Body& b = w.bodies[size_t(S.stepBodies[i])];
            CAROM_ASSERT(b.awakeIndex == int(i));
            b.stepIndex = int(i);
            b.center0 = b.center;
            b.q0 = b.xf.q;
            b.isFast = false;
            // Motion locks: a locked velocity component starts at zero, gets no
            // acceleration, and the constraints see an infinite mass on its axis
            // (invMassX/Y = 0), so nothing in the substeps moves it.
            const Vec2 v{b.lockLinearX ? 0.0f : b.v.x, b.lockLinearY ? 0.0f : b.v.y};
            S.states[i] = BodyState{v, b.w, 0u, {0.0f, 0.0f}, Rot{}};
            S.params[i] = BodyParams{b.invMass, b.invInertia, b.lockLinearX ? 0.0f : b.invMass,
                                     b.lockLinearY ? 0.0f : b.invMass};
            S.prepBodies[i] = PrepBody{b.xf.p - b.center, b.v, b.w, int(i), S.params[i]};
            BodyMotion m;
            if (b.type == BodyType::Dynamic) {
                m.dynamic = true;
                m.linearAccel = b.gravityScale * g + b.invMass * b.force;
                if (b.lockLinearX) m.linearAccel.x = 0.0f;
                if (b.lockLinearY) m.linearAccel.y = 0.0f;
                m.angularAccel = b.invInertia * b.torque;
                m.linearDamping = b.linearDamping;
                m.angularDamping = b.angularDamping;
                lightest = std::max(lightest, b.invMass);
                heaviest = std::min(heaviest, b.invMass);
            }
            S.motion[i] = m;
        }
        foldMax(lightestBits, lightest);
        foldMin(heaviestBits, heaviest);
    });
    S.lightestInvMass = detail::bitCast<float>(lightestBits.load());
    S.heaviestInvMass = detail::bitCast<float>(heaviestBits.load());
    ctx.states = S.states;
    ctx.params = S.params;
}

// The step's touching contacts in owner-walk order, and for each the
// PrepBody of its two sides: awake bodies are at their solver index, a
// static or sleeping body gets one entry the first time a contact of the
// step meets it.
//
// The collide stage already walked the owners (updateContacts: every awake
// body's contact list, in awake order): its active list, kept to the
// touching contacts, is this walk for the bodies that were awake then, which
// keep their awake indices (the collide stage only wakes more, appended).
// A second walk over the body records and their lists would miss the cache
// on every body of a large pile; this reads only dense arrays (ContactEnds,
// awakeSlot). It keeps the active list's order, which differs from a second
// walk's where the collide stage destroyed a contact (removing an edge
// swaps the body's list). The bodies the collide stage woke are walked
// after. Each contact's ContactBodies slot is written by the
// range of the active list that holds it, with a side that is not awake
// marked -2 - body; the entries of those sides are then given out in the
// joined order, as one serial walk would.
void gatherConstraints(WorldImpl& w) {
    StepScratch& S = w.scratch;
    S.contactBodies.resize(w.contacts.size());
    if (S.prepSlot.size() < w.bodies.size()) S.prepSlot.resize(w.bodies.size(), -1);
    S.contactChunks.resize(size_t(kOwnerChunks));
    auto slotOf = [&w](int body) {
        const int awake = w.awakeSlot[size_t(body)];
        CAROM_ASSERT(awake == w.bodies[size_t(body)].awakeIndex);
        return awake >= 0 ? awake
                          : -2 - body;  // = its solver index (stepBodies is the awake array)
    };
    const std::vector<int>& active = S.activeContacts;
    const int64_t n = int64_t(active.size());
    forOwnerChunks(w, n, [&](int chunk) {
        std::vector<int>& list = S.contactChunks[size_t(chunk)];
        list.clear();
        const int end = ownerChunkBegin(n, chunk + 1);
        for (int i = ownerChunkBegin(n, chunk); i < end; ++i) {
            const int ci = active[size_t(i)];
            const ContactEnds& c = w.contactEnds[size_t(ci)];
            // A contact the collide stage destroyed was not touching.
            CAROM_ASSERT(c.touching == int(w.contacts[size_t(ci)].manifold.pointCount > 0));
            if (!c.touching) continue;
            CAROM_ASSERT(c.bodyA == w.contacts[size_t(ci)].bodyA &&
                         c.bodyB == w.contacts[size_t(ci)].bodyB);
            list.push_back(ci);
            S.contactBodies[size_t(ci)] = ContactBodies{slotOf(c.bodyA), slotOf(c.bodyB)};
        }
    });
    // The bodies woken after the collide stage's walk own the contacts no
    // body of that walk did (with another woken body, or with a static or
    // sleeping one): the owner rule, on the records (few bodies). They go
    // after the last range's contacts, so the joined lists below end with them.
    std::vector<int>& woken = S.contactChunks.back();
    CAROM_ASSERT(S.collideBodies <= S.stepBodies.size());
    for (size_t i = S.collideBodies; i < S.stepBodies.size(); ++i) {
        const int bi = S.stepBodies[i];
        for (int ci : w.bodies[size_t(bi)].contacts) {
            const ContactEnds& c = w.contactEnds[size_t(ci)];
            if (!c.touching) continue;
            const int other = c.bodyA == bi ? c.bodyB : c.bodyA;
            const int otherAwake = w.awakeSlot[size_t(other)];
            if (otherAwake >= 0 && otherAwake < int(i)) continue;  // the other body owns it
            woken.push_back(ci);
            S.contactBodies[size_t(ci)] = ContactBodies{slotOf(c.bodyA), slotOf(c.bodyB)};
        }
    }
    S.constraints.clear();
    S.prepExtras.clear();
    auto extraSlot = [&](int& slot) {
        if (slot >= -1) return;
        const int other = -2 - slot;
        slot = S.prepSlot[size_t(other)];
        if (slot >= 0) return;
        slot = int(S.prepBodies.size());
        S.prepSlot[size_t(other)] = slot;
        S.prepExtras.push_back(other);
        // Not in the step's arrays: the solver sees it with infinite mass
        // (StepContext::paramsOf(-1)).
        const Body& o = w.bodies[size_t(other)];
        S.prepBodies.push_back(PrepBody{o.xf.p - o.center, o.v, o.w, -1, BodyParams{}});
    };
    for (const std::vector<int>& list : S.contactChunks) {
        S.constraints.insert(S.constraints.end(), list.begin(), list.end());
        for (int ci : list) {
            ContactBodies& cb = S.contactBodies[size_t(ci)];
            extraSlot(cb.a);
            extraSlot(cb.b);
        }
    }
    for (int bi : S.prepExtras) S.prepSlot[size_t(bi)] = -1;
}

// Light supports under heavy loads (docs/solver.md). A body under a
// stacking contact (stackingLowerSide) with one more than kLightSupportRatio
// times heavier, and resting on something itself, passes the heavy body's
// load to what holds it up through its own rows: each Gauss-Seidel pass
// changes the heavy body's velocity by the light one's share of it (the
// row's mass is about the light body's), so the soft step, a few passes a
// substep, never carries the load through in time: a 400 kg box dropped
// onto two 1 kg boxes goes on through them for a few steps, then their
// impulses, by then far above its weight, throw it back up, and it tips
// them over. Such a body is solved this step as one of
// 1 / kLightSupportRatio of the heaviest body it holds (mass and rotational
// inertia raised by the same factor, in its contacts and joints alike), with
// its gravity and applied forces scaled down by that factor, so that its
// weight, and what it presses on its supports with, stay what they are.
// "Resting" is a stacking contact below it that carried a load last step:
// a light body in free fall under a heavy one keeps its own mass (raising it
// there would slow the fall). Where nothing is raised (a pyramid of equal
// boxes) the step is the one it would be without it, bit for bit. The
// ratio: at 4 the parts of ragdolls are raised too and their pile's joints
// err several times as much; at 16 the 1:1000 column drifts further
// (docs/stability.md).
constexpr float kLightSupportRatio = 8.0f;

// Whether the body rests on something: a touching stacking contact with the
// body above, which carried a load in the last step (the manifold's
// impulses are that step's).
bool restsOnSomething(const WorldImpl& w, int bodyIndex, Vec2 up) {
    for (int ci : w.bodies[size_t(bodyIndex)].contacts) {
        const Contact& c = w.contacts[size_t(ci)];
        const Manifold& m = c.manifold;
        if (m.pointCount == 0) continue;
        const int lower = stackingLowerSide(m.normal.x, m.normal.y, up);
        const bool above =
            (lower > 0 && c.bodyB == bodyIndex) || (lower < 0 && c.bodyA == bodyIndex);
        if (!above) continue;
        float load = 0.0f;
        for (int i = 0; i < m.pointCount; ++i) load += m.points[i].normalImpulse;
        if (load > 0.0f) return true;
    }
    return false;
}

// Whether a point of one of the body's touching contacts approaches faster
// than threshold (the step's contacts are all gathered: their PrepBodies
// give the velocities prepare will see).
bool inAnImpact(const WorldImpl& w, int bodyIndex, float threshold) {
    const StepScratch& S = w.scratch;
    for (int ci : w.bodies[size_t(bodyIndex)].contacts) {
        const Contact& c = w.contacts[size_t(ci)];
        const Manifold& m = c.manifold;
        if (m.pointCount == 0) continue;
        const ContactBodies& cb = S.contactBodies[size_t(ci)];
        const PrepBody& a = S.prepBodies[size_t(cb.a)];
        const PrepBody& b = S.prepBodies[size_t(cb.b)];
        for (int i = 0; i < m.pointCount; ++i) {
            const ManifoldPoint& mp = m.points[i];
            const float vn = pointNormalVelocity(m.normal, a.v, a.w, mp.anchorA + a.offset, b.v,
                                                 b.w, mp.anchorB + b.offset);
            if (vn < -threshold) return true;
        }
    }
    return false;
}

// Raises the light supports of the step (above): their params (which the
// contacts' PrepBody and the joints read) and accelerations, and notes the
// raised ones in an impact (collectLightSupportRestarts). Serial, and only
// when two bodies of the step are more than the ratio apart in mass
// (gatherBodies found the extremes): it then walks the contacts of the
// bodies heavy enough to be held by a lighter one, then those of the light
// bodies they press on.
void raiseLightSupports(WorldImpl& w, const StepContext& ctx) {
    StepScratch& S = w.scratch;
    S.raisedBodies.clear();
    S.impactedBodies.clear();
    if (ctx.up.x == 0.0f && ctx.up.y == 0.0f) return;  // no gravity: nothing rests on anything
    if (!(S.lightestInvMass > kLightSupportRatio * S.heaviestInvMass)) return;
    const size_t n = S.states.size();
    S.supportInvMass.resize(n);
    for (size_t i = 0; i < n; ++i) S.supportInvMass[i] = S.params[i].invMass;
    S.supportCandidates.clear();
    // A body that can hold down one more than the ratio lighter: heavier
    // than the ratio times the lightest.
    const float heavyEnough = S.lightestInvMass / kLightSupportRatio;
    for (size_t i = 0; i < n; ++i) {
        const float heavy = S.params[i].invMass;
        if (!(heavy > 0.0f && heavy < heavyEnough)) continue;  // kinematic, or not heavy enough
        const int bi = S.stepBodies[i];
        for (int ci : w.bodies[size_t(bi)].contacts) {
            const Contact& c = w.contacts[size_t(ci)];
            if (c.manifold.pointCount == 0) continue;
            const int other = c.bodyA == bi ? c.bodyB : c.bodyA;
            const int light = w.awakeSlot[size_t(other)];
            if (light < 0 || !(S.params[size_t(light)].invMass > kLightSupportRatio * heavy))
                continue;
            // The light body must be the lower one.
            const int lowerSide = c.bodyA == other ? 1 : -1;
            if (stackingLowerSide(c.manifold.normal.x, c.manifold.normal.y, ctx.up) != lowerSide)
                continue;
            float& raised = S.supportInvMass[size_t(light)];
            if (raised == S.params[size_t(light)].invMass) S.supportCandidates.push_back(light);
            raised = std::min(raised, kLightSupportRatio * heavy);
        }
    }
    // In index order, whatever order the heavy bodies found them in.
    std::sort(S.supportCandidates.begin(), S.supportCandidates.end());
    for (int i : S.supportCandidates) {
        BodyParams& p = S.params[size_t(i)];
        const int bi = S.stepBodies[size_t(i)];
        if (!restsOnSomething(w, bi, ctx.up)) continue;
        const float scale = S.supportInvMass[size_t(i)] / p.invMass;
        p.invMass *= scale;
        p.invMassX *= scale;
        p.invMassY *= scale;
        p.invInertia *= scale;
        S.prepBodies[size_t(i)].params = p;
        BodyMotion& m = S.motion[size_t(i)];
        m.linearAccel = scale * m.linearAccel;
        m.angularAccel *= scale;
        S.raisedBodies.push_back(i);
        if (inAnImpact(w, bi, ctx.restitutionThreshold)) S.impactedBodies.push_back(i);
    }
}

// A raised light support in an impact (one of its contacts approached
// faster than restitutionThreshold at the step's start): every substep's
// warm start of its contacts restarts from the impulses they came into the
// step with. A substep's impulses there are mostly what stopped the impact,
// and the next substep's warm start would push them into the heavy body
// again, a bounce the rows through the light body (even raised) take many
// passes to take back. With it the 400 kg box above lands within a step and
// rests (a restart without the raise does not help: the light body's rows
// cannot stop the impact at all). After prepare: the lanes of those bodies'
// touching contacts, in block order, with their prepared impulses.
void collectLightSupportRestarts(WorldImpl& w) {
    StepScratch& S = w.scratch;
    S.laneRestarts.clear();
    if (S.impactedBodies.empty()) return;
    // Per contact slot, kept all zero between steps.
    if (S.contactRestart.size() < w.contacts.size()) S.contactRestart.resize(w.contacts.size(), 0);
    auto mark = [&](uint8_t value) {
        for (int i : S.impactedBodies)
            for (int ci : w.bodies[size_t(S.stepBodies[size_t(i)])].contacts)
                if (w.contacts[size_t(ci)].manifold.pointCount > 0)
                    S.contactRestart[size_t(ci)] = value;
    };
    mark(1);
    collectLaneRestarts(S.blocks.span(), S.colorStarts, S.blockStarts, S.constraints,
                        S.contactRestart, S.laneRestarts);
    mark(0);
}

// WorldDef::tuning.enableJointDirectSolve: the gathered joints offered to the
// direct solve (joint_direct.hpp), which keeps the trees. The rest stay
// iterative: their gather positions go to iterativePositions and their
// bodies, compacted, stay in colorBodies (colorConstraints colours only
// them). With no tree found (one component full of loops, as in a jointed
// grid) every joint stays as with the switch off. Returns the number of trees.
int takeJointTrees(StepScratch& S) {
    JointDirect& direct = S.direct;
    direct.begin(int(S.states.size()));
    // The offers were found by the gather, each while its sim was in cache;
    // their gather positions are kept so that what the build decides is
    // applied without reading the sims again (with many thousand joints,
    // each pass over the sims is a cache miss per joint).
    S.directOffered.clear();
    int base = 0;
    for (const JointChunk& list : S.jointChunks) {
        for (const DirectOffer& o : list.offers) {
            const int i = base + o.position;
            direct.add(*S.gatheredSims[size_t(i)], o);
            S.directOffered.push_back(i);
        }
        base += int(list.joints.size());
    }
    direct.build();
    if (direct.treeCount() == 0) return 0;
    S.directTaken.assign(S.gatheredSims.size(), 0);
    for (size_t k = 0; k < S.directOffered.size(); ++k)
        if (direct.isDirect(int(k))) S.directTaken[size_t(S.directOffered[k])] = 1;
    size_t kept = 0;
    for (size_t i = 0; i < S.gatheredSims.size(); ++i) {
        if (S.directTaken[i]) continue;
        S.iterativePositions.push_back(int(i));
        S.colorBodies[kept++] = S.colorBodies[i];
    }
    S.colorBodies.resize(kept);
    return direct.treeCount();
}

// The step's joints: each visited from its awake bodies and owned by the
// one with the lower awake index, then prepared at once into a JointSim,
// while its record and its bodies' are in cache (the visit costs a cache miss
// per joint and body, and a prepare after the colouring, in colour order,
// would miss on them all again: in joint-heavy scenes these misses are a
// large share of the step). The awake bodies are cut into kOwnerChunks ranges (forOwnerChunks),
// gathered in parallel each into its own lists (a joint's preparation writes only its own JointSim
// and, for a gear, its own GearSolverData); the lists joined in range order give the order of one
// serial walk, whatever the number of workers. With the joints come the colouring's input: the
// sides each joint writes (a gear: the overflow).

// The joint walk's loads, asked for ahead (as prefetchOwnerWalk does for the
// contacts): the body record 12 places on, its joint list 9 on, the joints'
// records 6 on (every line: the def and the carried impulses are read) and
// the other bodies' records 3 on. Always inlined: GCC drops calls to a
// function that only prefetches.
CAROM_FORCE_INLINE void prefetchJointWalk(const WorldImpl& w, const std::vector<int>& bodies, int i,
                                          int end) {
    auto body = [&](int k) -> const Body& { return w.bodies[size_t(bodies[size_t(k)])]; };
    if (i + 12 < end) {
        const char* b = reinterpret_cast<const char*>(&body(i + 12));
        prefetchRead(b + offsetof(Body, xf));
        prefetchRead(b + offsetof(Body, enabled));
        prefetchRead(b + offsetof(Body, joints));
        prefetchRead(b + offsetof(Body, awakeIndex));
    }
    if (i + 9 < end) prefetchRead(body(i + 9).joints.data());
    if (i + 6 < end)
        for (int ji : body(i + 6).joints) {
            const char* j = reinterpret_cast<const char*>(&w.joints[size_t(ji)]);
            for (size_t line = 0; line < sizeof(Joint); line += 64) prefetchRead(j + line);
        }
    if (i + 3 < end) {
        const int bi = bodies[size_t(i + 3)];
        for (int ji : body(i + 3).joints) {
            const Joint& j = w.joints[size_t(ji)];
            const char* o =
                reinterpret_cast<const char*>(&w.bodies[size_t(j.bodyA == bi ? j.bodyB : j.bodyA)]);
            prefetchRead(o + offsetof(Body, xf));
            prefetchRead(o + offsetof(Body, enabled));
            prefetchRead(o + offsetof(Body, awakeIndex));
        }
    }
}

void gatherJoints(WorldImpl& w, const StepContext& ctx) {
    StepScratch& S = w.scratch;
    // A world without joints has no lists to walk (each is a line of a body
    // record, a cache miss per body in a large pile).
    const int64_t n = w.joints.size() > w.freeJoints.size() ? int64_t(S.stepBodies.size()) : 0;
    S.jointChunks.resize(size_t(kOwnerChunks));
    const bool direct = w.def.tuning.enableJointDirectSolve;
    auto gather = [&](int chunk) {
        JointChunk& list = S.jointChunks[size_t(chunk)];
        list.joints.clear();
        list.sims.clear();
        list.offers.clear();
        const int end = ownerChunkBegin(n, chunk + 1);
        for (int i = ownerChunkBegin(n, chunk); i < end; ++i) {
            prefetchJointWalk(w, S.stepBodies, i, end);
            const int bi = S.stepBodies[size_t(i)];
            const Body& b = w.bodies[size_t(bi)];
            for (int ji : b.joints) {
                const Joint& j = w.joints[size_t(ji)];
                const int other = j.bodyA == bi ? j.bodyB : j.bodyA;
                // A joint to a disabled body does not act (World::disableBody).
                const Body& o = w.bodies[size_t(other)];
                if (!o.enabled) continue;
                if (o.awakeIndex >= 0 && o.awakeIndex < b.awakeIndex)
                    continue;  // the other body owns it
                // The carried impulses (and gear slot) in, the rest prepared.
                // A copy of a blank record, not a default construction: GCC
                // zero-fills a default-constructed 192-byte JointSim with
                // `rep stos`, whose start-up costs more than the rest of a
                // joint's visit; the copy is a few vector moves.
                static const JointSim kBlank{};
                JointSim& sim = list.sims.emplace_back(kBlank);
                loadCarried(sim.s, j.carried);
                if (j.type == JointType::Gear)
                    measureGear(w, j, w.gears[size_t(j.carried.gearSlot)]);
                const bool bIsA = j.bodyA == bi;
                prepareJoint(sim, j.def, jointBodyPose(bIsA ? b : o), jointBodyPose(bIsA ? o : b),
                             ctx);
                const JointSimData& d = sim.s;
                DirectOffer offer;
                if (direct && JointDirect::offer(sim, ctx, offer)) {
                    offer.position = int(list.joints.size());
                    list.offers.push_back(offer);
                }
                list.joints.push_back({ji,
                                       {d.writeA ? d.indexA : -1, d.writeB ? d.indexB : -1,
                                        j.type == JointType::Gear}});
            }
        }
    };
    forOwnerChunks(w, n, gather);
    // The sims stay in their chunk's list (no copy of 184-byte records): the
    // step reaches them through pointers, in gather order here and in colour
    // order after colorConstraints.
    S.solverJoints.clear();
    S.colorBodies.clear();
    S.gatheredSims.clear();
    for (JointChunk& list : S.jointChunks)
        for (size_t k = 0; k < list.joints.size(); ++k) {
            S.solverJoints.push_back(list.joints[k].joint);
            S.colorBodies.push_back(list.joints[k].bodies);
            S.gatheredSims.push_back(&list.sims[k]);
        }
    S.iterativePositions.clear();
    S.jointTrees = 0;
    if (w.def.tuning.enableJointDirectSolve) [[unlikely]]
        S.jointTrees = takeJointTrees(S);
}

// A contact's side that can move: awake, with finite mass or inertia (its
// solver index, else -1). Read from the side's PrepBody (gatherConstraints:
// solver index -1 for a static or sleeping side), a dense array, rather than
// from the contact's and the body's records, which the colouring, serial,
// would miss in the cache one after the other.
int movableIndex(const PrepBody& p) {
    return p.solverIndex >= 0 && (p.params.invMass > 0.0f || p.params.invInertia > 0.0f)
               ? p.solverIndex
               : -1;
}

// Colours the prepared joints, then the touching contacts around them
// (graph_color.hpp): coloredSims and constraints come out in colour
// order, with their runs in jointColorStarts and colorStarts. A joint
// colours the sides it writes (JointSimData::writeA/B, put in
// colorBodies by gatherJoints); a gear writes up to four bodies and goes to
// the overflow.
void colorConstraints(WorldImpl& w) {
    StepScratch& S = w.scratch;
    S.bodyColors.assign(S.states.size(), 0u);

    // The joints' bodies came with them (gatherJoints). Their gather
    // positions are sorted by colour, and the sims follow.
    // With joint trees solved directly, only the joints they left.
    const size_t joints = S.colorBodies.size();
    S.constraintColors.resize(joints);
    assignColors(S.colorBodies, S.bodyColors, S.constraintColors);
    S.jointPositions.resize(joints);
    for (size_t i = 0; i < joints; ++i)
        S.jointPositions[i] = S.jointTrees > 0 ? S.iterativePositions[i] : int(i);
    S.coloredPositions.resize(joints);
    S.jointColorStarts.resize(size_t(kColorStartCount));
    sortByColor(S.constraintColors, S.jointPositions, S.coloredPositions, S.jointColorStarts);
    // The sims are copied into colour order by the plan's first stage
    // (copySimsInColorOrder); colorPositionOf maps back.
    S.colorOrderSims.resize(joints);
    S.coloredSims.resize(joints);
    S.colorPositionOf.assign(S.gatheredSims.size(), -1);
    for (size_t i = 0; i < joints; ++i) {
        S.coloredSims[i] = &S.colorOrderSims[i];
        S.colorPositionOf[size_t(S.coloredPositions[i])] = int(i);
    }

    std::vector<int>& contacts = S.constraints;
    const size_t n = contacts.size();
    S.colorBodies.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const ContactBodies& cb = S.contactBodies[size_t(contacts[i])];
        S.colorBodies[i] = {movableIndex(S.prepBodies[size_t(cb.a)]),
                            movableIndex(S.prepBodies[size_t(cb.b)]), false};
    }
    S.constraintColors.resize(n);
    assignColors(S.colorBodies, S.bodyColors, S.constraintColors);
    S.coloredContacts.resize(n);
    S.colorStarts.resize(size_t(kColorStartCount));
    sortByColor(S.constraintColors, contacts, S.coloredContacts, S.colorStarts);
    contacts.swap(S.coloredContacts);
}

// The coloured joints' sims copied into one array in colour order
// (colorOrderSims), gather positions [begin, end): the twelve passes of four
// substeps then stream it. Reached in colour order through pointers into the
// gather lists, they missed the cache on most joints of every pass (tens of
// thousands of sims take megabytes, beyond the cache). Read in gather order
// (the gather lists, one after another) and written to their colour
// positions: stores to scattered places do not stall as loads from them do
// (a copy in colour order, reading scattered sims, would). The gather
// positions then point at the copies (the store stage
// reads them in gather order). Each position writes only its own copy and
// slot: a stage of its own, in parallel.
void copySimsInColorOrder(StepScratch& S, int begin, int end) {
    for (int g = begin; g < end; ++g) {
        const int i = S.colorPositionOf[size_t(g)];
        if (i < 0) continue;  // a joint tree's (the direct solve's)
        JointSim*& gathered = S.gatheredSims[size_t(g)];
        JointSim& copy = S.colorOrderSims[size_t(i)];
        copy = *gathered;
        gathered = &copy;
    }
}

void integrateVelocities(StepScratch& S, const StepContext& ctx, int begin, int end) {
    const float h = ctx.h;
    const float maxSpeed = ctx.maxLinearSpeed;
    const float maxW = kMaxRotation * ctx.inv_h;
    for (int i = begin; i < end; ++i) {
        const BodyMotion& m = S.motion[size_t(i)];
        if (!m.dynamic) continue;
        BodyState& s = S.states[size_t(i)];
        // Damping as 1/(1 + h c): exact to first order, never flips the sign.
        const float linDamp = 1.0f / (1.0f + h * m.linearDamping);
        const float angDamp = 1.0f / (1.0f + h * m.angularDamping);
        Vec2 v = h * m.linearAccel + linDamp * s.v;
        float av = h * m.angularAccel + angDamp * s.w;
        // The common case is one compare (clampLinearSpeed is out of line:
        // a call per body and substep would cost a large pile for nothing).
        if (!(lengthSquared(v) <= maxSpeed * maxSpeed)) [[unlikely]]
            v = clampLinearSpeed(v, maxSpeed);
        // Compared as |av|, not av²: av² overflows above ~1.8e19 rad/s.
        if (std::fabs(av) > maxW) av = av > 0.0f ? maxW : -maxW;
        s.v = v;
        s.w = av;
    }
}

// The joints and contacts of the solve pass act after integrateVelocities'
// clamps and may ask for any speed (a rigid pin 50 m from a light body's
// centre, a 1e6 mass ratio across a joint): a dynamic body moves by at most
// maxLinearSpeed and kMaxRotation per substep all the same (in joint
// piles, without it Gauss-Seidel between such rows fed itself until bodies
// left the world). Below the bounds nothing changes, bit for bit.
void integratePositions(StepScratch& S, const StepContext& ctx, int begin, int end) {
    const float h = ctx.h;
    const float maxSpeed = ctx.maxLinearSpeed;
    const float maxW = kMaxRotation * ctx.inv_h;
    for (int i = begin; i < end; ++i) {
        BodyState& s = S.states[size_t(i)];
        // The common case is one compare; NaN and inf take the slow path
        // (clampLinearSpeed handles them, finalizeBodies stops a NaN body).
        if (!(lengthSquared(s.v) <= maxSpeed * maxSpeed && std::fabs(s.w) <= maxW) &&
            S.motion[size_t(i)].dynamic) [[unlikely]] {
            s.v = clampLinearSpeed(s.v, maxSpeed);
            if (std::fabs(s.w) > maxW) s.w = s.w > 0.0f ? maxW : -maxW;
        }
        s.dq = integrateRot(s.dq, h * s.w);
        s.dp = s.dp + h * s.v;
    }
}

// The substep loop as a list of stages (solver/parallel.hpp: StagePlan), run
// by every worker at once; a stage starts when the previous one is done.
enum StageKind : int {
    kStageIntegrateVelocities,  // bodies
    kStageIntegratePositions,   // bodies
    kStageColor,  // one graph colour: its joint units, then its contact units; arg = Pass | colour
                  // << 8
    kStageOverflow,     // the overflow colour, one block: its joints, then its contacts; arg = Pass
    kStageRestitution,  // one colour's 8-lane blocks; arg = 1 for the overflow colour
    kStageStoreContacts,  // blocks: impulses back into the manifolds
    kStageStoreJoints,    // blocks of joints: reactions
    kStageDirect,         // joint trees of the direct solve (joint_direct.hpp); arg = Pass
    kStageCopySims,       // gathered joints: their sims into colour order (copySimsInColorOrder)
    kStageRestartLanes,   // one block: the lanes of light supports in an impact
                          // (collectLightSupportRestarts)
};
enum Pass : int {
    kWarmStart,
    kSolve,
    kRelax,
    kRelaxContacts
};  // kRelaxContacts: an extra relax pass, contacts only
constexpr int kColorShift = 8;

// How one colour's work is cut into the units of its stage: units
// [0, jointUnits) are runs of jointBlock joints of coloredSims [jointBegin,
// jointEnd); the next contactUnits are runs of contactBlock 8-lane blocks of
// [blockBegin, blockEnd). The two kinds share no movable body, so the units
// may run in any order and on any worker.
struct ColorWork {
    int jointBegin = 0, jointEnd = 0, jointBlock = 1, jointUnits = 0;
    int blockBegin = 0, blockEnd = 0, contactBlock = 1, contactUnits = 0;
};

struct SolveRun {
    WorldImpl* w;
    StepContext* ctx;  // the joint functions take it mutable
    const ContactKernels* wide;
    const WideArgs* args;
    const WideArgs* extraRelaxArgs;  // the extra contact relax passes: true masses
                                     // (WorldDef::tuning.relaxShockScale)
    std::span<const int> order;      // contact indices in colour order (the blocks' lanes)
    std::array<ColorWork, kGraphColors + 1> colors{};  // the last one: the overflow colour
};

void jointPass(const SolveRun& run, int pass, int begin, int end) {
    JointSim* const* sims = run.w->scratch.coloredSims.data();
    if (pass == kWarmStart)
        warmStartJoints(sims, begin, end, *run.ctx);
    else
        solveJoints(sims, begin, end, *run.ctx, pass == kSolve);
}

void contactPass(const SolveRun& run, const ContactKernels& K, int pass, int begin, int end) {
    const BlockSpan blocks = run.w->scratch.blocks.span();
    switch (pass) {
        case kWarmStart:
            K.warmStart(blocks, begin, end, *run.args);
            break;
        case kSolve:
            K.solve(blocks, begin, end, *run.args, true);
            break;
        case kRelaxContacts:
            K.solve(blocks, begin, end, *run.extraRelaxArgs, false);
            break;
        default:
            K.solve(blocks, begin, end, *run.args, false);
            break;
    }
}

// A joint's reaction is its impulse divided by the substep: a finite impulse
// near the float range (a motor with an "unlimited" torque at full speed)
// can overflow in that division. It is reported saturated at the float
// range rather than as inf (NaN as 0). Then whether it is over the joint's
// force (length) or torque (magnitude) threshold; FLT_MAX never fires, even
// for a saturated reaction whose length overflows.
uint8_t storeReaction(Joint& j) {
    static constexpr float kFloatMax = std::numeric_limits<float>::max();
    auto saturate = [](float x) {
        return std::isnan(x) ? 0.0f : std::clamp(x, -kFloatMax, kFloatMax);
    };
    j.reactionForce = {saturate(j.reactionForce.x), saturate(j.reactionForce.y)};
    j.reactionTorque = saturate(j.reactionTorque);
    const JointBase& base = std::visit([](const auto& d) -> const JointBase& { return d; }, j.def);
    const bool force =
        base.forceThreshold < kFloatMax && length(j.reactionForce) > base.forceThreshold;
    const bool torque =
        base.torqueThreshold < kFloatMax && std::fabs(j.reactionTorque) > base.torqueThreshold;
    return uint8_t(force || torque);
}

void executeStage(void* runPtr, const Stage& stage, int begin, int end) {
    const SolveRun& run = *static_cast<const SolveRun*>(runPtr);
    WorldImpl& w = *run.w;
    StepContext& ctx = *run.ctx;
    StepScratch& S = w.scratch;
    switch (stage.kind) {
        case kStageIntegrateVelocities:
            integrateVelocities(S, ctx, begin, end);
            break;
        case kStageIntegratePositions:
            integratePositions(S, ctx, begin, end);
            break;
        case kStageColor: {
            const ColorWork& c = run.colors[size_t(stage.arg >> kColorShift)];
            const int pass = stage.arg & ((1 << kColorShift) - 1);
            if (pass == kRelaxContacts) {
                // Its stage has the contact units only (buildSolvePlan);
                // contactPass runs it as a relax pass.
                begin += c.jointUnits;
                end += c.jointUnits;
            }
            // Consecutive units of one kind go as one range (one worker alone
            // gets the whole stage in one call).
            const int jointLo = std::min(begin, c.jointUnits),
                      jointHi = std::min(end, c.jointUnits);
            if (jointLo < jointHi)
                jointPass(run, pass, c.jointBegin + jointLo * c.jointBlock,
                          std::min(c.jointBegin + jointHi * c.jointBlock, c.jointEnd));
            const int contactLo = std::max(begin - c.jointUnits, 0), contactHi = end - c.jointUnits;
            if (contactLo < contactHi)
                contactPass(run, *run.wide, pass, c.blockBegin + contactLo * c.contactBlock,
                            std::min(c.blockBegin + contactHi * c.contactBlock, c.blockEnd));
            break;
        }
        case kStageOverflow: {
            // Constraints that may share bodies: one after another, the
            // contacts through the scalar kernels lane after lane.
            const ColorWork& c = run.colors[size_t(kOverflowColor)];
            if (stage.arg == kRelaxContacts) {
                contactPass(run, kScalarKernels, kRelaxContacts, c.blockBegin, c.blockEnd);
                break;
            }
            jointPass(run, stage.arg, c.jointBegin, c.jointEnd);
            contactPass(run, kScalarKernels, stage.arg, c.blockBegin, c.blockEnd);
            break;
        }
        case kStageRestitution: {
            const ContactKernels& K = stage.arg != 0 ? kScalarKernels : *run.wide;
            K.restitution(S.blocks.span(), begin, end, *run.args);
            break;
        }
        case kStageStoreContacts:
            storeContactBlocks(w.contacts, run.order, S.blocks.span(), begin, end,
                               w.def.hitEventThreshold, S.hitPoints);
            break;
        case kStageStoreJoints:
            // Reactions, and the impulses carried to the next step, back
            // into each joint's record, in gather order (the records' order),
            // and whether the reaction breaks the joint (emitJointEvents).
            for (int i = begin; i < end; ++i) {
                // The records are in gather order, scattered: asked for
                // four joints ahead (the stage's stall was the first load of
                // each record).
                if (i + 4 < end) {
                    const char* next = reinterpret_cast<const char*>(
                        &w.joints[size_t(S.solverJoints[size_t(i + 4)])]);
                    for (size_t line = 0; line < sizeof(Joint); line += 64)
                        prefetchWrite(next + line);
                }
                Joint& j = w.joints[size_t(S.solverJoints[size_t(i)])];
                const JointSim& sim = *S.gatheredSims[size_t(i)];
                finishJoint(sim, ctx, j.reactionForce, j.reactionTorque);
                storeCarried(j.carried, sim.s);
                S.jointOverThreshold[size_t(i)] = storeReaction(j);
            }
            break;
        case kStageCopySims:
            copySimsInColorOrder(S, begin, end);
            break;
        case kStageRestartLanes:
            restartLanes(S.blocks.span(), S.laneRestarts);
            break;
        case kStageDirect:
            for (int t = begin; t < end; ++t) {
                if (stage.arg == kWarmStart)
                    S.direct.warmStart(t, ctx);
                else
                    S.direct.solve(t, ctx, stage.arg == kSolve);
            }
            break;
        default:
            break;
    }
}

// Smallest blocks worth an atomic claim: a body update is a few
// nanoseconds, an 8-lane contact block a few tens, a revolute joint's solve
// a couple of hundred instructions. Box2D v3 claims 4 joints at a time; 8
// keeps a claim under a tenth of its block. A big colour is cut into at most
// 4 blocks per worker anyway (hundreds of joints each in a jointed grid).
constexpr int kBodyBlock = 128;
constexpr int kContactBlock = 2;
constexpr int kJointBlock = 8;

void buildSolvePlan(WorldImpl& w, SolveRun& run, int substeps) {
    StepScratch& S = w.scratch;
    StagePlan& plan = S.solvePlan;
    plan.clear();
    const int maxBlocks = 4 * std::max(w.def.workerCount, 1);
    const int bodies = int(S.states.size());
    const std::vector<int>& starts = S.blockStarts;
    const std::vector<int>& jointStarts = S.jointColorStarts;

    // count items in at most maxBlocks runs of at least minBlock items.
    auto cut = [&](int count, int minBlock, int& size, int& units) {
        if (count <= 0) {
            size = 1, units = 0;
            return;
        }
        const int blocks = std::clamp(count / minBlock, 1, maxBlocks);
        size = (count + blocks - 1) / blocks;
        units = (count + size - 1) / size;
    };
    for (int k = 0; k <= kGraphColors; ++k) {
        ColorWork& c = run.colors[size_t(k)];
        c.jointBegin = jointStarts[size_t(k)];
        c.jointEnd = jointStarts[size_t(k) + 1];
        c.blockBegin = starts[size_t(k)];
        c.blockEnd = starts[size_t(k) + 1];
        cut(c.jointEnd - c.jointBegin, kJointBlock, c.jointBlock, c.jointUnits);
        cut(c.blockEnd - c.blockBegin, kContactBlock, c.contactBlock, c.contactUnits);
    }
    const int trees = S.jointTrees;
    const ColorWork& overflow = run.colors[size_t(kOverflowColor)];
    const bool hasOverflow = overflow.jointUnits + overflow.contactUnits > 0;

    // One pass: colour after colour, each colour's units independent; then
    // the overflow colour in one block.
    auto pass = [&](int p) {
        for (int k = 0; k < kGraphColors; ++k) {
            const ColorWork& c = run.colors[size_t(k)];
            const int units = (p == kRelaxContacts ? 0 : c.jointUnits) + c.contactUnits;
            plan.add(kStageColor, p | k << kColorShift, 0, units, 1, units);
        }
        if (p == kRelaxContacts ? overflow.contactUnits > 0 : hasOverflow)
            plan.add(kStageOverflow, p, 0, 1, 1, 1);
        // The joint trees last, so their rows hold exactly at the end of
        // each pass (each tree writes only its own bodies); joints keep one
        // relax pass.
        if (trees > 0 && p != kRelaxContacts) plan.add(kStageDirect, p, 0, trees, 1, maxBlocks);
    };
    if (!S.coloredSims.empty())
        plan.add(kStageCopySims, 0, 0, int(S.gatheredSims.size()), kJointBlock, maxBlocks);
    for (int sub = 0; sub < substeps; ++sub) {
        plan.add(kStageIntegrateVelocities, 0, 0, bodies, kBodyBlock, maxBlocks);
        // The first substep starts from the prepared impulses anyway.
        if (sub > 0 && !S.laneRestarts.empty()) plan.add(kStageRestartLanes, 0, 0, 1, 1, 1);
        pass(kWarmStart);
        pass(kSolve);
        plan.add(kStageIntegratePositions, 0, 0, bodies, kBodyBlock, maxBlocks);
        pass(kRelax);
        // WorldDef::tuning.contactRelaxPasses: more relax passes over the
        // contacts alone (joints keep one); each starts from the last one's
        // impulses.
        for (int r = 1; r < w.def.tuning.contactRelaxPasses; ++r) pass(kRelaxContacts);
    }
    for (int k = 0; k <= kGraphColors; ++k) {
        const int begin = starts[size_t(k)], count = starts[size_t(k) + 1] - begin;
        if (k == kGraphColors)
            plan.add(kStageRestitution, 1, begin, count, count, 1);
        else
            plan.add(kStageRestitution, 0, begin, count, kContactBlock, maxBlocks);
    }
    plan.add(kStageStoreContacts, 0, 0, int(S.blocks.size()), kContactBlock, maxBlocks);
    // Every gathered joint, the direct solve's too (its impulses are in
    // their JointSims).
    plan.add(kStageStoreJoints, 0, 0, int(S.gatheredSims.size()), kJointBlock, maxBlocks);
}

// The end of a body's step outside the solver: the world's bounds
// (enforceBodyBounds), then each shape's tight box, and the new fat box of
// each proxy it left (BroadPhase::refitFat: the proxy's own record, so
// workers refit bodies in parallel; the tree takes the boxes later, in
// order, updateProxies). Returns kBoxesEscaped when a proxy was refitted
// (its index in `escaped`, or -1 when several were), plus kBoundsStopped
// when the body was stopped at the bounds. Done where the body record is
// already in cache: at the write-back for a body continuous collision will
// not move, else after continuous collision (updateProxies): a pass of its
// own over the body records would miss the cache on every body.
uint8_t finishBodyBoxes(WorldImpl& w, Body& b, int& escaped) {
    uint8_t out = enforceBodyBounds(b) ? kBoundsStopped : 0;
    for (int si : b.shapes) {
        Shape& s = w.shapes[size_t(si)];
        const AABB box = w.computeShapeAABB(s, b.xf);
        if (!carom::isValid(box)) continue;
        s.aabb = box;
        if (s.proxy < 0 || !w.broadphase.refitFat(s.proxy, box)) continue;
        escaped = out & kBoxesEscaped ? -1 : s.proxy;
        out |= kBoxesEscaped;
    }
    return out;
}

// Writes the solver's result back to the bodies and decides who needs
// continuous collision.
//   sleep velocity = max(|v| + |w| r, ½ |Δp| / dt)  — Box2D v3 also watches
//   the position change, since soft contacts may push a body with little
//   velocity left at the end of the step.
//   fast = moved more than half its thinnest extent: |v| dt + |w| dt r ≥ ½ minExtent
void finalizeBodies(WorldImpl& w, const StepContext& ctx) {
    StepScratch& S = w.scratch;
    const float dt = ctx.dt;
    const bool worldSleep = w.def.enableSleep;
    const bool continuous = w.def.enableContinuous;
    // Each body writes only its own record and its own flag, so the bodies
    // are split among the workers; the fast and bullet lists are collected
    // afterwards in solver order, the same whatever the worker count.
    // A body continuous collision will not move also gets its bounds and
    // boxes here (finishBodyBoxes), while its record is in cache.
    S.bodyFlags.assign(S.states.size(), 0);
    S.escapedProxy.resize(S.states.size());
    // One move event per body of the step, in solver order, written here
    // with the record in cache (a pass of its own over the records would
    // miss the cache on every body). Continuous collision moves
    // the fast bodies afterwards (updateProxies patches their transforms)
    // and the sleep stage marks the bodies that fell asleep (updateSleep).
    S.moveEventBase = w.moveEvents.size();
    w.moveEvents.resize(S.moveEventBase + S.stepBodies.size());
    BodyMoveEvent* const events = w.moveEvents.data() + S.moveEventBase;
    parallelFor(w, int(S.states.size()), [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            const int bi = S.stepBodies[size_t(i)];
            Body& b = w.bodies[size_t(bi)];
            const BodyState& s = S.states[size_t(i)];
            if (!isFinite(s.v) || !std::isfinite(s.w) || !isFinite(s.dp) || !isFinite(s.dq))
                [[unlikely]] {
                // Never let a NaN escape into the world: stop the body where
                // it was, and count it (Counters::nonFiniteBodies: a solver
                // fault, which this keeps finite but must not hide).
                b.v = {0.0f, 0.0f};
                b.w = 0.0f;
                b.force = {0.0f, 0.0f};
                b.torque = 0.0f;
                // Its sleep timer as it was (the sleep stage reads the flag).
                S.bodyFlags[size_t(i)] =
                    uint8_t(finishBodyBoxes(w, b, S.escapedProxy[size_t(i)]) | kBodyNotFinite |
                            (b.sleepTime >= kTimeToSleep ? kBodySleepy : 0));
                events[i] = {w.bodyId(bi), b.xf, b.userData, false};
                continue;
            }
            // The relax and restitution passes run after the last velocity
            // clamp; the step hands back no speed above maxLinearSpeed (the
            // joint-pile test checks it every step). A body this fast was
            // already being clamped, so nothing sane changes. A kinematic body's
            // speed is the user's, as in integrateVelocities.
            b.v = s.v;
            if (!(lengthSquared(s.v) <= ctx.maxLinearSpeed * ctx.maxLinearSpeed) &&
                b.type == BodyType::Dynamic) [[unlikely]]
                b.v = clampLinearSpeed(s.v, ctx.maxLinearSpeed);
            b.w = s.w;
            b.center = b.center0 + s.dp;
            b.xf.q = normalizeRot(mulRot(s.dq, b.q0));
            b.xf.p = b.center - rotate(b.xf.q, b.localCenter);
            b.force = {0.0f, 0.0f};
            b.torque = 0.0f;

            const float maxVelocity = length(s.v) + std::fabs(s.w) * b.maxExtent;
            const float maxDelta = length(s.dp) + std::fabs(s.dq.s) * b.maxExtent;
            const float sleepVelocity = std::max(maxVelocity, 0.5f * ctx.inv_dt * maxDelta);
            // A kinematic body that moves at all is scripted motion: it never
            // sleeps (nor do the islands it touches or holds, see island.cpp).
            const bool scripted =
                b.type == BodyType::Kinematic && (lengthSquared(s.v) > 0.0f || s.w != 0.0f);
            if (!worldSleep || !b.enableSleep || scripted || sleepVelocity > b.sleepThreshold)
                b.sleepTime = 0.0f;
            else
                b.sleepTime += dt;
            // Only a body slow for long enough can take its island to sleep:
            // the sleep stage looks at no other (updateSleep).
            const uint8_t sleepy = b.sleepTime >= kTimeToSleep ? kBodySleepy : 0;

            if (continuous && b.type == BodyType::Dynamic && !b.shapes.empty()) {
                const float motion = maxVelocity * dt;
                if (motion >= 0.5f * b.minExtent) {
                    b.isFast = true;
                    b.ccdEnd = b.center;
                    S.bodyFlags[size_t(i)] =
                        uint8_t((b.isBullet ? kBodyBullet : kBodyFast) | sleepy);
                    events[i] = {w.bodyId(bi), b.xf, b.userData, false};
                    continue;
                }
            }
            S.bodyFlags[size_t(i)] =
                uint8_t(finishBodyBoxes(w, b, S.escapedProxy[size_t(i)]) | sleepy);
            events[i] = {w.bodyId(bi), b.xf, b.userData, false};
        }
    });
    S.fastBodies.clear();
    S.bulletBodies.clear();
    for (size_t i = 0; i < S.bodyFlags.size(); ++i) {
        if (S.bodyFlags[i] & kBodyFast)
            S.fastBodies.push_back(S.stepBodies[i]);
        else if (S.bodyFlags[i] & kBodyBullet)
            S.bulletBodies.push_back(S.stepBodies[i]);
    }
}

}  // namespace

void solveStep(WorldImpl& w, float dt, int substeps) {
    StepContext ctx;
    ctx.dt = dt;
    ctx.inv_dt = 1.0f / dt;
    ctx.substeps = substeps;
    ctx.h = dt / float(substeps);
    ctx.inv_h = float(substeps) / dt;
    // Stiffness is capped at a quarter of the substep rate: stiffer springs
    // cannot be resolved by the substeps and only add energy.
    const float contactHertz = std::min(w.def.contactHertz, 0.25f * ctx.inv_h);
    const float jointHertz = std::min(w.def.jointHertz, 0.25f * ctx.inv_h);
    ctx.contactSoftness = makeSoft(contactHertz, w.def.contactDampingRatio, ctx.h);
    // Contacts against static bodies are twice as stiff, but not above the
    // quarter-rate cap: at 60 Hz and a 1/60 s step, 120 Hz static contacts
    // (half the substep rate) jitter light boxes under a heavy one sideways
    // (Stacking.HeavyBoxOnLightBoxes) and shift the 20-row pyramid's top.
    // The cap never goes below kStaticHertzFloor, the static stiffness the
    // engine always had at 30 Hz: at long steps (split into 1/30 s, cap
    // 30 Hz) softer static contacts let a landing bar sink through a segment
    // ground (LargeSteps.NoBodyEndsBelowOrInsideTheGround). Below 30 Hz
    // contact hertz the result is the plain 2x.
    constexpr float kStaticHertzFloor = 60.0f;
    const float staticHertz =
        std::min(2.0f * contactHertz, std::max(0.25f * ctx.inv_h, kStaticHertzFloor));
    ctx.staticSoftness = makeSoft(staticHertz, w.def.contactDampingRatio, ctx.h);
    // WorldDef::tuning.contactLeakScale: the soft rows keep more of their
    // warm-start impulse, so a resting contact holds its load with less
    // sink (docs/stability.md). x * 1 is x: at 1 the arithmetic is Box2D
    // v3's soft step bit for bit.
    ctx.contactSoftness.impulseScale *= w.def.tuning.contactLeakScale;
    ctx.staticSoftness.impulseScale *= w.def.tuning.contactLeakScale;
    ctx.jointSoftness = makeSoft(jointHertz, w.def.jointDampingRatio, ctx.h);
    ctx.restitutionThreshold = w.def.restitutionThreshold;
    ctx.maxLinearSpeed = w.def.maxLinearSpeed;
    // The push-out bound is a speed at a 1/60 s step; a longer step (a
    // split long step runs at 1/30 s) lands with a proportionally deeper
    // overlap and gets a proportionally faster push, the same distance per
    // step, so it comes back out in as many steps
    // (LargeSteps.NoBodyEndsBelowOrInsideTheGround: 1 m/s unscaled leaves
    // the bar 8.8 cm deep at dt 0.1 s).
    ctx.contactPushMaxSpeed = w.def.contactPushMaxSpeed * std::max(1.0f, 60.0f * dt);
    ctx.enableWarmStarting = w.def.enableWarmStarting;
    ctx.relaxShockScale = w.def.tuning.relaxShockScale;
    ctx.up = -normalizeOrZero(w.def.gravity);
    ctx.gears = w.gears;

    gatherBodies(w, ctx);
    gatherConstraints(w);
    raiseLightSupports(w, ctx);  // before the joints, which read the raised params
    gatherJoints(w, ctx);
    auto& constraints = w.scratch.constraints;
    colorConstraints(w);

    // The wide solver's blocks: each colour's contacts prepared 8 lanes to a
    // block (wide_contact.hpp), in parallel since blocks are disjoint.
    // WorldDef::tuning.relaxShockScale: the shock-scaled relax pass's scales
    // and masses, derived at prepare, in a side array that the other passes
    // never touch.
    const bool relaxShock = w.def.tuning.relaxShockScale < 1.0f;
    layoutContactBlocks(w.scratch.colorStarts, w.scratch.blockStarts, w.scratch.blocks, relaxShock);
    const BlockSpan blocks = w.scratch.blocks.span();
    const std::span<const int> contactList(constraints);
    const ContactPrepInput prepInput{w.contacts, contactList, w.scratch.contactBodies,
                                     w.scratch.prepBodies};
    parallelFor(w, int(w.scratch.blocks.size()), [&](int b, int e) {
        prepareContactBlocks(prepInput, blocks, b, e, ctx, contactKernels(w.def.simdWidth));
    });
    collectLightSupportRestarts(w);

    WideArgs args;
    args.states = reinterpret_cast<float*>(w.scratch.states.data());
    args.inv_h = ctx.inv_h;
    args.contactPushMaxSpeed = ctx.contactPushMaxSpeed;
    args.restitutionThreshold = ctx.restitutionThreshold;
    args.relaxShock = relaxShock;
    // WorldDef::tuning.relaxShockScale acts in the first relax pass only; the
    // extra contact relax passes solve with the true masses (scaling them
    // all let the card house collapse, docs/stability.md).
    WideArgs extraRelaxArgs = args;
    extraRelaxArgs.relaxShock = false;

    w.scratch.hitPoints.resize(constraints.size());  // written by the store stage
    w.scratch.jointOverThreshold.resize(w.scratch.gatheredSims.size());  // and this
    SolveRun run{&w, &ctx, &contactKernels(w.def.simdWidth), &args, &extraRelaxArgs, contactList};
    buildSolvePlan(w, run, substeps);
    // The broadphase's deferred tree flush (updatePairs) runs beside the
    // stages, which never touch the broadphase: on two workers one solves
    // while the other rebuilds (the flush is serial but for the build of the
    // subtrees, and weighs on scenes with many moving proxies).
    if (w.broadphase.flushDeferred())
        w.scratch.solvePlan.setSideJob(
            [](void* bp) { static_cast<BroadPhase*>(bp)->finishDeferredFlush(); }, &w.broadphase);
    w.scratch.solvePlan.run(taskDispatch(w), &executeStage, &run);
    finalizeBodies(w, ctx);
}

// After the solver and continuous collision: the fast bodies' bounds and
// boxes (finishBodyBoxes; the others had theirs at the write-back), then each
// broadphase proxy that left its fat box is re-inserted.
// The boxes are computed in parallel (each shape belongs to one body and
// writes only itself; the fat boxes are only read); the tree is then
// changed on the calling thread, in solver order, for the few bodies with a
// shape that left its fat box, so the tree is the same for any worker count.
void updateProxies(WorldImpl& w) {
    StepScratch& S = w.scratch;
    // The write-back (finalizeBodies) did the bodies continuous collision
    // could not move; the fast ones and bullets are done now.
    parallelFor(w, int(S.stepBodies.size()), [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            uint8_t& flags = S.bodyFlags[size_t(i)];
            if (!(flags & (kBodyFast | kBodyBullet))) continue;
            Body& b = w.bodies[size_t(S.stepBodies[size_t(i)])];
            flags |= finishBodyBoxes(w, b, S.escapedProxy[size_t(i)]);
            // Where continuous collision and the bounds left it (finalizeBodies wrote the event).
            w.moveEvents[S.moveEventBase + size_t(i)].transform = b.xf;
        }
    });
    // The tree's half of each re-fit, in solver order (the proxies' new fat
    // boxes are set): from the dense flags and proxy indices, without the
    // body and shape records but where a body refitted several proxies.
    int bounded = 0;
    for (size_t i = 0; i < S.stepBodies.size(); ++i) {
        if (S.bodyFlags[i] & kBoundsStopped) ++bounded;
        if (S.bodyFlags[i] & kBodyNotFinite) [[unlikely]]
            ++w.nonFiniteBodies;
        if (!(S.bodyFlags[i] & kBoxesEscaped)) continue;
        if (const int proxy = S.escapedProxy[i]; proxy >= 0) {
            w.broadphase.commitRefit(proxy);
            continue;
        }
        for (int si : w.bodies[size_t(S.stepBodies[i])].shapes) {
            const int proxy = w.shapes[size_t(si)].proxy;
            if (proxy >= 0 && w.broadphase.refitPending(proxy)) w.broadphase.commitRefit(proxy);
        }
    }
    w.boundedBodies = bounded;
}

// Hit events: per contact with hit events, the point that approached
// fastest, if it approached faster than the threshold and pushed.
void emitHitEvents(WorldImpl& w) {
    // The store stage noted each contact's fastest approaching point with a
    // normal impulse (hitPoints, from the block values it wrote into the
    // manifold: the same floats); a second parallel pass over the contact
    // records would miss the cache on every contact, for nothing in a scene
    // without hits. The events are made in constraint
    // order from the few contacts with a point, which also must still be
    // alive and want hit events (the flags are in the record's cold part).
    const auto& constraints = w.scratch.constraints;
    const auto& best = w.scratch.hitPoints;
    for (size_t k = 0; k < constraints.size(); ++k) {
        if (best[k] < 0) continue;
        const int ci = constraints[k];
        const Contact& c = w.contacts[size_t(ci)];
        if (!(c.alive && (c.flags & kContactEnableHits))) continue;
        const ManifoldPoint& mp = c.manifold.points[best[k]];
        w.contactHitEvents.push_back({w.shapeId(c.shapeA), w.shapeId(c.shapeB), mp.point,
                                      c.manifold.normal, -mp.normalVelocity, contactId(w, ci)});
    }
}

}  // namespace carom::detail
