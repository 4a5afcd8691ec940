// The solve stage of the step: the soft-step substep loop.
//
//   gather    awake bodies → dense states (v, w, dp = 0, dq = 1), params,
//             accelerations; touching contacts and joints visited from
//             their owner body → constraint lists
//   prepare   joints, contacts (anchors, masses, softness) — once per step
//   colour    contacts into runs sharing no movable body (graph_color.hpp)
//   for each of the n substeps (h = dt / n):
//       integrate velocities   v += h (g + F/m), damping, speed clamps
//       warm start             apply the impulses carried over
//       solve                  soft constraints with position bias
//       integrate positions    dp += h v, dq = rot(h w) dq
//       relax                  constraints again without bias
//   restitution               bounce what approached fast enough
//   store                     impulses back to manifolds and joints
//   finalize bodies           write poses, sleep timers, flag fast bodies
//
// Body arrays are in awake-body order, contacts in colour order. Everything
// from the first substep to the store is one list of stages run by all
// workers together (solver/parallel.hpp: StagePlan): joints in one block,
// contact colours and per-body loops split into blocks where each index
// writes only its own item. The result is a pure function of the world
// state, whatever the number of workers.
#include <algorithm>
#include <cmath>

#include "engine/src/world_impl.hpp"
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
// the fastest bodies used to stop dead. Below the overflow the arithmetic is
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
        v = {std::isinf(ax) ? std::copysign(1.0f, v.x) : 0.0f, std::isinf(ay) ? std::copysign(1.0f, v.y) : 0.0f};
    } else {
        const float m = std::max(ax, ay);
        v = {v.x / m, v.y / m};
    }
    return (maxSpeed / length(v)) * v;
}

namespace {

void gatherBodies(WorldImpl& w, StepContext& ctx) {
    StepScratch& S = w.scratch;
    S.stepBodies.assign(w.awakeBodies.begin(), w.awakeBodies.end());
    const size_t n = S.stepBodies.size();
    S.states.resize(n);
    S.params.resize(n);
    S.motion.resize(n);
    const Vec2 g = w.def.gravity;
    for (size_t i = 0; i < n; ++i) {
        Body& b = w.bodies[size_t(S.stepBodies[i])];
        b.solverIndex = int(i);
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
        BodyMotion m;
        if (b.type == BodyType::Dynamic) {
            m.dynamic = true;
            m.linearAccel = b.gravityScale * g + b.invMass * b.force;
            if (b.lockLinearX) m.linearAccel.x = 0.0f;
            if (b.lockLinearY) m.linearAccel.y = 0.0f;
            m.angularAccel = b.invInertia * b.torque;
            m.linearDamping = b.linearDamping;
            m.angularDamping = b.angularDamping;
        }
        S.motion[i] = m;
    }
    ctx.states = S.states;
    ctx.params = S.params;
}

void gatherConstraints(WorldImpl& w) {
    StepScratch& S = w.scratch;
    S.constraints.clear();
    S.solverJoints.clear();
    for (int bi : S.stepBodies) {
        const Body& b = w.bodies[size_t(bi)];
        for (int ci : b.contacts) {
            const Contact& c = w.contacts[size_t(ci)];
            if (c.manifold.pointCount == 0 || !isContactOwner(w, bi, c)) continue;
            S.constraints.push_back(ci);
        }
        for (int ji : b.joints) {
            const Joint& j = w.joints[size_t(ji)];
            const int other = j.bodyA == bi ? j.bodyB : j.bodyA;
            // A joint to a disabled body does not act (World::disableBody).
            if (!w.bodies[size_t(other)].enabled) continue;
            const int otherAwake = w.bodies[size_t(other)].awakeIndex;
            if (otherAwake >= 0 && otherAwake < b.awakeIndex) continue;  // the other body owns it
            S.solverJoints.push_back(ji);
        }
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
// maxLinearSpeed and kMaxRotation per substep all the same (issue 11, joint
// piles: without it Gauss-Seidel between such rows fed itself until bodies
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
    kStageJoints,               // all joints, one block; arg = JointPass
    kStageContacts,             // one colour's 8-lane blocks; arg = ContactPass (| kOverflow)
    kStageStoreContacts,        // blocks: impulses back into the manifolds
    kStageStoreJoints,          // all joints, one block
};
enum JointPass : int { kJointWarmStart, kJointSolve, kJointRelax };
enum ContactPass : int { kContactWarmStart, kContactSolve, kContactRelax, kContactRestitution };
// The overflow colour's constraints may share bodies: its blocks go through
// the scalar kernels lane after lane, in one block of the plan.
constexpr int kOverflow = 8;

struct SolveRun {
    WorldImpl* w;
    StepContext* ctx;  // the joint functions take it mutable
    const ContactKernels* wide;
    const WideArgs* args;
    std::span<const int> contacts;  // contact indices in colour order (the blocks' lanes)
};

void executeStage(void* runPtr, const Stage& stage, int begin, int end) {
    const SolveRun& run = *static_cast<const SolveRun*>(runPtr);
    WorldImpl& w = *run.w;
    StepContext& ctx = *run.ctx;
    StepScratch& S = w.scratch;
    switch (stage.kind) {
        case kStageIntegrateVelocities: integrateVelocities(S, ctx, begin, end); break;
        case kStageIntegratePositions: integratePositions(S, ctx, begin, end); break;
        case kStageJoints:
            for (int j : S.solverJoints) {
                Joint& joint = w.joints[size_t(j)];
                if (stage.arg == kJointWarmStart) warmStartJoint(joint, ctx);
                else solveJoint(joint, ctx, stage.arg == kJointSolve);
            }
            break;
        case kStageContacts: {
            const ContactKernels& K = (stage.arg & kOverflow) != 0 ? kScalarKernels : *run.wide;
            ContactBlock* blocks = S.blocks.data();
            switch (stage.arg & ~kOverflow) {
                case kContactWarmStart: K.warmStart(blocks, begin, end, *run.args); break;
                case kContactSolve: K.solve(blocks, begin, end, *run.args, true); break;
                case kContactRelax: K.solve(blocks, begin, end, *run.args, false); break;
                default: K.restitution(blocks, begin, end, *run.args); break;
            }
            break;
        }
        case kStageStoreContacts: storeContactBlocks(w, run.contacts, S.blocks.data(), begin, end); break;
        case kStageStoreJoints:
            for (int j : S.solverJoints) finishJoint(w.joints[size_t(j)], ctx);
            break;
        default: break;
    }
}

// Smallest blocks worth an atomic claim: a body update is a few
// nanoseconds, an 8-lane contact block a few tens.
constexpr int kBodyBlock = 128;
constexpr int kContactBlock = 2;

void buildSolvePlan(WorldImpl& w, int substeps) {
    StepScratch& S = w.scratch;
    StagePlan& plan = S.solvePlan;
    plan.clear();
    const int maxBlocks = 4 * std::max(w.def.workerCount, 1);
    const int bodies = int(S.states.size());
    const int joints = int(S.solverJoints.size());
    const std::vector<int>& starts = S.blockStarts;
    // One contact pass: colour after colour, each colour's blocks
    // independent; the overflow colour in one block.
    auto contacts = [&](int pass) {
        for (int k = 0; k <= kGraphColors; ++k) {
            const int begin = starts[size_t(k)], count = starts[size_t(k) + 1] - begin;
            if (k == kGraphColors) plan.add(kStageContacts, pass | kOverflow, begin, count, count, 1);
            else plan.add(kStageContacts, pass, begin, count, kContactBlock, maxBlocks);
        }
    };
    for (int sub = 0; sub < substeps; ++sub) {
        plan.add(kStageIntegrateVelocities, 0, 0, bodies, kBodyBlock, maxBlocks);
        plan.add(kStageJoints, kJointWarmStart, 0, joints, joints, 1);
        contacts(kContactWarmStart);
        plan.add(kStageJoints, kJointSolve, 0, joints, joints, 1);
        contacts(kContactSolve);
        plan.add(kStageIntegratePositions, 0, 0, bodies, kBodyBlock, maxBlocks);
        plan.add(kStageJoints, kJointRelax, 0, joints, joints, 1);
        contacts(kContactRelax);
    }
    contacts(kContactRestitution);
    plan.add(kStageStoreContacts, 0, 0, int(S.blocks.size()), kContactBlock, maxBlocks);
    plan.add(kStageStoreJoints, 0, 0, joints, joints, 1);
}

// Writes the solver's result back to the bodies and decides who needs
// continuous collision.
//   sleep velocity = max(|v| + |w| r, ½ |Δp| / dt)  — Box2D v3 also watches
//   the position change, since soft contacts may push a body with little
//   velocity left at the end of the step.
//   fast = moved more than half its thinnest extent: |v| dt + |w| dt r ≥ ½ minExtent
void finalizeBodies(WorldImpl& w, const StepContext& ctx) {
    StepScratch& S = w.scratch;
    S.fastBodies.clear();
    S.bulletBodies.clear();
    const float dt = ctx.dt;
    const bool worldSleep = w.def.enableSleep;
    const bool continuous = w.def.enableContinuous;
    for (size_t i = 0; i < S.states.size(); ++i) {
        const int bi = S.stepBodies[i];
        Body& b = w.bodies[size_t(bi)];
        const BodyState& s = S.states[i];
        if (!isFinite(s.v) || !std::isfinite(s.w) || !isFinite(s.dp) || !isFinite(s.dq)) {
            // Never let a NaN escape into the world: stop the body where it was.
            b.v = {0.0f, 0.0f};
            b.w = 0.0f;
            b.force = {0.0f, 0.0f};
            b.torque = 0.0f;
            continue;
        }
        // The relax and restitution passes run after the last velocity
        // clamp; the step hands back no speed above maxLinearSpeed (issue 11:
        // the joint-pile test checks it every step). A body this fast was
        // already being clamped, so nothing sane changes. A kinematic body's
        // speed is the user's, as in integrateVelocities.
        b.v = s.v;
        if (!(lengthSquared(s.v) <= ctx.maxLinearSpeed * ctx.maxLinearSpeed) && b.type == BodyType::Dynamic)
            [[unlikely]] b.v = clampLinearSpeed(s.v, ctx.maxLinearSpeed);
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
        const bool scripted = b.type == BodyType::Kinematic && (lengthSquared(s.v) > 0.0f || s.w != 0.0f);
        if (!worldSleep || !b.enableSleep || scripted || sleepVelocity > b.sleepThreshold) b.sleepTime = 0.0f;
        else b.sleepTime += dt;

        if (continuous && b.type == BodyType::Dynamic && !b.shapes.empty()) {
            const float motion = maxVelocity * dt;
            if (motion >= 0.5f * b.minExtent) {
                b.isFast = true;
                b.ccdEnd = b.center;
                (b.isBullet ? S.bulletBodies : S.fastBodies).push_back(bi);
            }
        }
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
    ctx.staticSoftness = makeSoft(2.0f * contactHertz, w.def.contactDampingRatio, ctx.h);
    ctx.jointSoftness = makeSoft(jointHertz, w.def.jointDampingRatio, ctx.h);
    ctx.restitutionThreshold = w.def.restitutionThreshold;
    ctx.maxLinearSpeed = w.def.maxLinearSpeed;
    ctx.contactPushMaxSpeed = w.def.contactPushMaxSpeed;
    ctx.enableWarmStarting = w.def.enableWarmStarting;
    ctx.world = &w;

    gatherBodies(w, ctx);
    gatherConstraints(w);
    auto& constraints = w.scratch.constraints;
    auto& joints = w.scratch.solverJoints;

    for (int j : joints) prepareJoint(w, w.joints[size_t(j)], ctx);
    colorContacts(w, constraints, w.scratch.colorStarts);

    // The wide solver's blocks: each colour's contacts prepared 8 lanes to a
    // block (wide_contact.hpp), in parallel since blocks are disjoint.
    std::vector<ContactBlock>& blocks = w.scratch.blocks;
    layoutContactBlocks(w.scratch.colorStarts, w.scratch.blockStarts, blocks);
    const std::span<const int> contactList(constraints);
    parallelFor(w, int(blocks.size()),
                [&](int b, int e) { prepareContactBlocks(w, contactList, blocks.data(), b, e, ctx); });

    WideArgs args;
    args.states = reinterpret_cast<float*>(w.scratch.states.data());
    args.inv_h = ctx.inv_h;
    args.contactPushMaxSpeed = ctx.contactPushMaxSpeed;
    args.restitutionThreshold = ctx.restitutionThreshold;

    buildSolvePlan(w, substeps);
    SolveRun run{&w, &ctx, &contactKernels(w.def.simdWidth), &args, contactList};
    w.scratch.solvePlan.run(taskDispatch(w), &executeStage, &run);
    finalizeBodies(w, ctx);
}

// After the solver and continuous collision: each moved shape's tight box,
// and its broadphase proxy (re-inserted only when it left its fat box).
void updateProxies(WorldImpl& w) {
    for (int bi : w.scratch.stepBodies) {
        Body& b = w.bodies[size_t(bi)];
        const Vec2 displacement = b.center - b.center0;
        for (int si : b.shapes) {
            Shape& s = w.shapes[size_t(si)];
            const AABB box = w.computeShapeAABB(s, b.xf);
            if (!carom::isValid(box)) continue;
            s.aabb = box;
            if (s.proxy >= 0) w.broadphase.moveProxy(s.proxy, box, displacement);
        }
    }
}

// Hit events: per contact with hit events, the point that approached
// fastest, if it approached faster than the threshold and pushed.
void emitHitEvents(WorldImpl& w) {
    const float threshold = w.def.hitEventThreshold;
    // The solver stored each point's approach speed at prepare
    // (normalVelocity) and the impulse it applied over the step.
    for (int ci : w.scratch.constraints) {
        const Contact& c = w.contacts[size_t(ci)];
        if (!c.alive || !(c.flags & kContactEnableHits)) continue;
        float best = threshold;
        int bestPoint = -1;
        for (int i = 0; i < c.manifold.pointCount; ++i) {
            const ManifoldPoint& mp = c.manifold.points[i];
            const float approach = -mp.normalVelocity;
            if (approach > best && mp.totalNormalImpulse > 0.0f) {
                best = approach;
                bestPoint = i;
            }
        }
        if (bestPoint < 0) continue;
        w.contactHitEvents.push_back({w.shapeId(c.shapeA), w.shapeId(c.shapeB),
                                      c.manifold.points[bestPoint].point, c.manifold.normal, best,
                                      contactId(w, ci)});
    }
}

}  // namespace carom::detail
