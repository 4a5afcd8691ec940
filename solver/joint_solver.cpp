// Joint solver dispatch and the preparation every joint type shares.
//
// The live def (Joint::def, kept current by the World setters) is the single
// source of the joint's parameters; the solver copies into JointSolverData
// only what is derived per step (anchors, masses, softness) and what must
// survive between steps (accumulated impulses for warm starting). Dispatch is
// a std::visit on the def: each type's four functions are overloads in
// joint_<type>.cpp (see joint_internal.hpp). In warm start and solve, run
// twelve times a step per joint, GCC compiles the visit to the jump table a
// switch on the index gives, less the switch's bounds check (joint_grid,
// callgrind: solveJoint is 13 instructions a call, 15 with a switch).
#include <type_traits>
#include <variant>

#include "solver/joint_internal.hpp"

namespace carom::detail {

namespace {
// The anchors are common to all defs (JointBase).
Vec2 localAnchorA(const JointDefVariant& v) {
    return std::visit([](const auto& d) { return d.localAnchorA; }, v);
}
Vec2 localAnchorB(const JointDefVariant& v) {
    return std::visit([](const auto& d) { return d.localAnchorB; }, v);
}
}  // namespace

// Common preparation:
//   indices    solver indices; a body with index -1 (static or asleep) is
//              treated as immovable: zero inverse mass, zero state.
//   frames     rA = qA (localAnchorA - localCenterA), likewise rB: anchors
//              from the centres of mass in world orientation at step start.
//   delta      centreB - centreA, so that the current separation is
//              delta + (dpB - dpA) + (rB - rA) with no large coordinates.
// Then the type-specific part (axes, angles, effective masses, softness,
// warm-start bookkeeping).
void prepareJoint(WorldImpl& world, Joint& joint, StepContext& ctx) {
    JointSolverData& s = joint.solver;
    const Body& a = world.bodies[size_t(joint.bodyA)];
    const Body& b = world.bodies[size_t(joint.bodyB)];

    s.indexA = a.solverIndex;
    s.indexB = b.solverIndex;
    s.active = s.indexA >= 0 || s.indexB >= 0;
    if (!s.active) {
        // Two static (or static and sleeping) bodies: nothing can move.
        joint.reactionForce = {0.0f, 0.0f};
        joint.reactionTorque = 0.0f;
        return;
    }

    const BodyParams pA = ctx.paramsOf(s.indexA);
    const BodyParams pB = ctx.paramsOf(s.indexB);
    // Per axis: a motion lock is an infinite mass along its axis.
    s.invMassA = pA.invMassX;
    s.invMassAy = pA.invMassY;
    s.invIA = pA.invInertia;
    s.invMassB = pB.invMassX;
    s.invMassBy = pB.invMassY;
    s.invIB = pB.invInertia;

    s.frameA = rotate(a.xf.q, localAnchorA(joint.def) - a.localCenter);
    s.frameB = rotate(b.xf.q, localAnchorB(joint.def) - b.localCenter);
    s.deltaCenter = b.center - a.center;
    s.jointSoftness = ctx.jointSoftness;

    std::visit([&](const auto& d) { joints::prepare(d, s, a, b, ctx); }, joint.def);
    // After the type's part: a mouse joint drops its side A.
    s.writeA = s.indexA >= 0 && (s.invMassA > 0.0f || s.invMassAy > 0.0f || s.invIA > 0.0f);
    s.writeB = s.indexB >= 0 && (s.invMassB > 0.0f || s.invMassBy > 0.0f || s.invIB > 0.0f);

    if (!ctx.enableWarmStarting) {
        s.linearImpulse = {0.0f, 0.0f};
        s.angularImpulse = s.perpImpulse = s.springImpulse = 0.0f;
        s.motorImpulse = s.lowerImpulse = s.upperImpulse = 0.0f;
    }
}

void warmStartJoint(Joint& joint, StepContext& ctx) {
    if (!joint.solver.active) return;
    std::visit([&](const auto& d) { joints::warmStart(d, joint.solver, ctx); }, joint.def);
}

void solveJoint(Joint& joint, StepContext& ctx, bool useBias) {
    if (!joint.solver.active) return;
    std::visit([&](const auto& d) { joints::solve(d, joint.solver, ctx, useBias); }, joint.def);
}

void finishJoint(Joint& joint, const StepContext& ctx) {
    Vec2 force{0.0f, 0.0f};
    float torque = 0.0f;
    if (joint.solver.active)
        std::visit(
            [&](const auto& d) {
                if constexpr (std::is_same_v<std::decay_t<decltype(d)>, GearJointDef>)
                    joints::reaction(d, joint.solver, ctx, force, torque);
                else
                    joints::reaction(d, joint.solver, ctx.inv_h, force, torque);
            },
            joint.def);
    joint.reactionForce = force;
    joint.reactionTorque = torque;
}

}  // namespace carom::detail
