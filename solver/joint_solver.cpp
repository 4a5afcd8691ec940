// Joint solver: the preparation every joint type shares, and the substep
// loops over compact JointSims.
//
// The live def (Joint::def in the world, kept current by the World setters)
// is the single source of the joint's parameters; prepareJoint copies into
// the JointSim what the substeps read of it (JointParams, per type) and what
// is derived per step (anchors, masses, softness), next to what survives
// between steps (accumulated impulses, in the JointSimData the world
// copies in and out). The substep loops (warmStartJoints, solveJoints) walk
// a run of JointSims in colour order and switch on the type: no def, no
// world record, no std::visit in the twelve passes a step (reading the
// 320-byte Joint record and its def through an index per call would miss
// the cache on every joint).
#include "engine/core/platform.hpp"
#include <type_traits>
#include <variant>

#include "solver/joint_internal.hpp"

namespace carom::detail {

namespace {

// The def fields the substeps read, per type (names as in the def), set
// field by field in the sim: a JointParams built aside and copied whole made
// the compiler assemble it on the stack with narrow stores and reload it wide,
// two store-forwarding stalls a joint, which show in joint-heavy scenes.
// Each assignment names the union member, which makes it the active one.
void setParams(JointParams& out, const RevoluteJointDef& d) {
    out.revolute.enableSpring = d.enableSpring;
    out.revolute.enableMotor = d.enableMotor;
    out.revolute.enableLimit = d.enableLimit;
    out.revolute.hertz = d.hertz;
    out.revolute.motorSpeed = d.motorSpeed;
    out.revolute.maxMotorTorque = d.maxMotorTorque;
    out.revolute.lowerAngle = d.lowerAngle;
    out.revolute.upperAngle = d.upperAngle;
    out.revolute.targetAngle = d.targetAngle;
}
void setParams(JointParams& out, const PrismaticJointDef& d) {
    out.prismatic.enableSpring = d.enableSpring;
    out.prismatic.enableMotor = d.enableMotor;
    out.prismatic.enableLimit = d.enableLimit;
    out.prismatic.hertz = d.hertz;
    out.prismatic.motorSpeed = d.motorSpeed;
    out.prismatic.maxMotorForce = d.maxMotorForce;
    out.prismatic.lowerTranslation = d.lowerTranslation;
    out.prismatic.upperTranslation = d.upperTranslation;
    out.prismatic.targetTranslation = d.targetTranslation;
}
void setParams(JointParams& out, const DistanceJointDef& d) {
    out.distance.enableSpring = d.enableSpring;
    out.distance.enableLimit = d.enableLimit;
    out.distance.length = d.length;
    out.distance.hertz = d.hertz;
    out.distance.minLength = d.minLength;
    out.distance.maxLength = d.maxLength;
    out.distance.enableMotor = d.enableMotor;
    out.distance.motorSpeed = d.motorSpeed;
    out.distance.maxMotorForce = d.maxMotorForce;
}
void setParams(JointParams& out, const WeldJointDef& d) {
    out.weld.linearHertz = d.linearHertz;
    out.weld.angularHertz = d.angularHertz;
}
void setParams(JointParams& out, const WheelJointDef& d) {
    out.wheel.enableSpring = d.enableSpring;
    out.wheel.enableMotor = d.enableMotor;
    out.wheel.enableLimit = d.enableLimit;
    out.wheel.hertz = d.hertz;
    out.wheel.motorSpeed = d.motorSpeed;
    out.wheel.maxMotorTorque = d.maxMotorTorque;
    out.wheel.lowerTranslation = d.lowerTranslation;
    out.wheel.upperTranslation = d.upperTranslation;
}
void setParams(JointParams& out, const MotorJointDef& d) {
    out.motor.maxForce = d.maxForce;
    out.motor.maxTorque = d.maxTorque;
    out.motor.correctionFactor = d.correctionFactor;
}
void setParams(JointParams& out, const MouseJointDef& d) {
    out.mouse.hertz = d.hertz;
    out.mouse.maxForce = d.maxForce;
}
void setParams(JointParams& out, const GearJointDef& d) {
    out.gear.ratio = d.ratio;
}
void setParams(JointParams& out, const PulleyJointDef& d) {
    out.pulley.lengthA = d.lengthA;
    out.pulley.lengthB = d.lengthB;
    out.pulley.ratio = d.ratio;
}
void setParams(JointParams& out, const RopeJointDef& d) {
    out.rope.maxLength = d.maxLength;
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
// warm-start bookkeeping) and the params.
void prepareJoint(JointSim& sim, const JointDefVariant& def, const JointBodyPose& a,
                  const JointBodyPose& b, const StepContext& ctx) {
    JointSimData& s = sim.s;
    sim.type = JointType(def.index());
    s.indexA = a.solverIndex;
    s.indexB = b.solverIndex;
    s.active = s.indexA >= 0 || s.indexB >= 0;
    // Two static (or static and sleeping) bodies: nothing can move.
    if (!s.active) return;

    const BodyParams pA = ctx.paramsOf(s.indexA);
    const BodyParams pB = ctx.paramsOf(s.indexB);
    // Per axis: a motion lock is an infinite mass along its axis.
    s.invMassA = pA.invMassX;
    s.invMassAy = pA.invMassY;
    s.invIA = pA.invInertia;
    s.invMassB = pB.invMassX;
    s.invMassBy = pB.invMassY;
    s.invIB = pB.invInertia;

    std::visit(
        [&](const auto& d) {
            // A filter joint only keeps its bodies from colliding: no rows.
            if constexpr (std::is_same_v<std::decay_t<decltype(d)>, FilterJointDef>) {
                s.active = false;
            } else {
                s.frameA = rotate(a.q, d.localAnchorA - a.localCenter);
                s.frameB = rotate(b.q, d.localAnchorB - b.localCenter);
                s.deltaCenter = b.center - a.center;
                joints::prepare(d, s, a, b, ctx);
                setParams(sim.params, d);
            }
        },
        def);
    if (!s.active) return;  // a filter joint
    // After the type's part: a mouse joint drops its side A.
    s.writeA = s.indexA >= 0 && (s.invMassA > 0.0f || s.invMassAy > 0.0f || s.invIA > 0.0f);
    s.writeB = s.indexB >= 0 && (s.invMassB > 0.0f || s.invMassBy > 0.0f || s.invIB > 0.0f);

    if (!ctx.enableWarmStarting) {
        s.linearImpulse = {0.0f, 0.0f};
        s.angularImpulse = s.perpImpulse = s.springImpulse = 0.0f;
        s.motorImpulse = s.lowerImpulse = s.upperImpulse = 0.0f;
    }
}

// The passes walk the sims in colour order through pointers: the records
// (gather order) and their bodies' states are scattered. Asked for ahead:
// the sim kSimAhead places on (every line), then the states of the one
// kStateAhead on, whose indices are in cache by then. Always inlined: GCC
// drops calls to a function that only prefetches.
CAROM_FORCE_INLINE void prefetchJointPass(JointSim* const* sims, int i, int end,
                                          const StepContext& ctx) {
    constexpr int kSimAhead = 8, kStateAhead = 4;
    if (i + kSimAhead < end) {
        const char* p = reinterpret_cast<const char*>(sims[i + kSimAhead]);
        for (size_t line = 0; line < sizeof(JointSim); line += 64) prefetchRead(p + line);
    }
    if (i + kStateAhead < end) {
        const JointSimData& n = sims[i + kStateAhead]->s;
        if (n.indexA >= 0) prefetchWrite(&ctx.states[size_t(n.indexA)]);
        if (n.indexB >= 0) prefetchWrite(&ctx.states[size_t(n.indexB)]);
    }
}

// One switch per joint and pass (a jump table); each case is a direct call
// of the type's function with its own params.
void warmStartJoints(JointSim* const* sims, int begin, int end, StepContext& ctx) {
    for (int i = begin; i < end; ++i) {
        prefetchJointPass(sims, i, end, ctx);
        JointSim& j = *sims[i];
        if (!j.s.active) continue;
        switch (j.type) {
            case JointType::Revolute:
                joints::warmStart(j.params.revolute, j.s, ctx);
                break;
            case JointType::Prismatic:
                joints::warmStart(j.params.prismatic, j.s, ctx);
                break;
            case JointType::Distance:
                joints::warmStart(j.params.distance, j.s, ctx);
                break;
            case JointType::Weld:
                joints::warmStart(j.params.weld, j.s, ctx);
                break;
            case JointType::Wheel:
                joints::warmStart(j.params.wheel, j.s, ctx);
                break;
            case JointType::Motor:
                joints::warmStart(j.params.motor, j.s, ctx);
                break;
            case JointType::Mouse:
                joints::warmStart(j.params.mouse, j.s, ctx);
                break;
            case JointType::Gear:
                joints::warmStart(j.params.gear, j.s, ctx);
                break;
            case JointType::Pulley:
                joints::warmStart(j.params.pulley, j.s, ctx);
                break;
            case JointType::Rope:
                joints::warmStart(j.params.rope, j.s, ctx);
                break;
            case JointType::Filter:  // never active (prepareJoint)
                break;
        }
    }
}

void solveJoints(JointSim* const* sims, int begin, int end, StepContext& ctx, bool useBias) {
    for (int i = begin; i < end; ++i) {
        prefetchJointPass(sims, i, end, ctx);
        JointSim& j = *sims[i];
        if (!j.s.active) continue;
        switch (j.type) {
            case JointType::Revolute:
                joints::solve(j.params.revolute, j.s, ctx, useBias);
                break;
            case JointType::Prismatic:
                joints::solve(j.params.prismatic, j.s, ctx, useBias);
                break;
            case JointType::Distance:
                joints::solve(j.params.distance, j.s, ctx, useBias);
                break;
            case JointType::Weld:
                joints::solve(j.params.weld, j.s, ctx, useBias);
                break;
            case JointType::Wheel:
                joints::solve(j.params.wheel, j.s, ctx, useBias);
                break;
            case JointType::Motor:
                joints::solve(j.params.motor, j.s, ctx, useBias);
                break;
            case JointType::Mouse:
                joints::solve(j.params.mouse, j.s, ctx, useBias);
                break;
            case JointType::Gear:
                joints::solve(j.params.gear, j.s, ctx, useBias);
                break;
            case JointType::Pulley:
                joints::solve(j.params.pulley, j.s, ctx, useBias);
                break;
            case JointType::Rope:
                joints::solve(j.params.rope, j.s, ctx, useBias);
                break;
            case JointType::Filter:
                break;
        }
    }
}

void finishJoint(const JointSim& j, const StepContext& ctx, Vec2& force, float& torque) {
    force = {0.0f, 0.0f};
    torque = 0.0f;
    if (!j.s.active) return;
    const float inv_h = ctx.inv_h;
    switch (j.type) {
        case JointType::Revolute:
            joints::reaction(j.params.revolute, j.s, inv_h, force, torque);
            break;
        case JointType::Prismatic:
            joints::reaction(j.params.prismatic, j.s, inv_h, force, torque);
            break;
        case JointType::Distance:
            joints::reaction(j.params.distance, j.s, inv_h, force, torque);
            break;
        case JointType::Weld:
            joints::reaction(j.params.weld, j.s, inv_h, force, torque);
            break;
        case JointType::Wheel:
            joints::reaction(j.params.wheel, j.s, inv_h, force, torque);
            break;
        case JointType::Motor:
            joints::reaction(j.params.motor, j.s, inv_h, force, torque);
            break;
        case JointType::Mouse:
            joints::reaction(j.params.mouse, j.s, inv_h, force, torque);
            break;
        case JointType::Gear:
            joints::reaction(j.params.gear, j.s, ctx, force, torque);
            break;
        case JointType::Pulley:
            joints::reaction(j.params.pulley, j.s, inv_h, force, torque);
            break;
        case JointType::Rope:
            joints::reaction(j.params.rope, j.s, inv_h, force, torque);
            break;
        case JointType::Filter:
            break;
    }
}

}  // namespace carom::detail
