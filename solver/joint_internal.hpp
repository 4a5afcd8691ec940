// Shared pieces of the joint solvers (solver/joint_*.cpp), private to them.
//
// Every joint type provides four overloads:
//   prepare(def, data, poseA, poseB, ctx)   once per step, after the common part
//   warmStart(params, data, ctx)            apply the carried impulses
//   solve(params, data, ctx, useBias)       one Gauss-Seidel pass over its rows
//   reaction(params, data, inv_h, force, torque)
// prepare is selected by the def's type, the other three by the type's
// JointParams (the def fields they read, copied at prepare: same names).
// joint_solver.cpp does the common preparation (solver indices, masses,
// anchors, centre delta, which sides may be written), copies the params, and
// dispatches on JointSim::type. warmStart and solve write a body's state only
// through store() (or after checking writeA / writeB): see store.
//
// Notation used in the comments of every joint file (Catto, "Modeling and
// Solving Constraints", GDC 2009; Box2D v3 joint sources):
//   rA, rB   anchors relative to the centres of mass, current orientation
//   d        pB - pA, the anchor separation
//   C        position error, Cdot = J v its time derivative
//   K        J M^-1 J^T, the effective inverse mass; "mass" = 1 / K
//   soft     Softness{biasRate, massScale, impulseScale} from makeSoft
// A soft row solves  impulse = -massScale * mass * (Cdot + biasRate * C)
//                              - impulseScale * accumulated
// which is the implicit-Euler spring-damper of the requested stiffness; a
// rigid row is the same with biasRate = 0, massScale = 1, impulseScale = 0.
#pragma once

#include "engine/core/platform.hpp"
#include <algorithm>

#include <carom/joint.hpp>
#include <carom/math.hpp>

#include "solver/joint_solver.hpp"
#include "solver/solver_types.hpp"

namespace carom::detail::joints {

/// Solves the symmetric 2x2 system [k11 k12; k12 k22] x = b by Cramer's
/// rule; a singular matrix (both bodies without mass) gives x = 0.
inline Vec2 solve22(float k11, float k12, float k22, Vec2 b) {
    float det = k11 * k22 - k12 * k12;
    if (det != 0.0f) det = 1.0f / det;
    return {det * (k22 * b.x - k12 * b.y), det * (k11 * b.y - k12 * b.x)};
}

/// K of a point-to-point constraint between anchors rA and rB:
///   K = (mA + mB) I + iA [rA.y^2, -rA.x rA.y; .., rA.x^2] + (same for B)
struct PointK {
    float k11, k12, k22;
};
inline PointK pointK(const JointSimData& s, Vec2 rA, Vec2 rB) {
    // Per axis for motion locks; mx == my without them.
    const float mx = s.invMassA + s.invMassB;
    const float my = s.invMassAy + s.invMassBy;
    return {mx + s.invIA * rA.y * rA.y + s.invIB * rB.y * rB.y,
            -s.invIA * rA.x * rA.y - s.invIB * rB.x * rB.y,
            my + s.invIA * rA.x * rA.x + s.invIB * rB.x * rB.x};
}

/// The linear part of K for a row along the unit direction d:
/// mA + mB, or dᵀ diag(mx, my) d per body under a motion lock.
inline float linearK(const JointSimData& s, Vec2 d) {
    return linearInvMass(s.invMassA, s.invMassAy, d) + linearInvMass(s.invMassB, s.invMassBy, d);
}

/// A linear impulse P as a velocity change of A (mass per axis).
inline Vec2 deltaA(const JointSimData& s, Vec2 P) {
    return {s.invMassA * P.x, s.invMassAy * P.y};
}
inline Vec2 deltaB(const JointSimData& s, Vec2 P) {
    return {s.invMassB * P.x, s.invMassBy * P.y};
}

/// Velocity of anchor B minus velocity of anchor A.
inline Vec2 relativeVelocity(Vec2 vA, float wA, Vec2 rA, Vec2 vB, float wB, Vec2 rB) {
    return (vB + crossSV(wB, rB)) - (vA + crossSV(wA, rA));
}

/// The four velocities a joint row reads and writes, copied out of the body
/// states so that a static body's dummy state is never read after a write.
struct Velocities {
    Vec2 vA{0.0f, 0.0f};
    float wA = 0.0f;
    Vec2 vB{0.0f, 0.0f};
    float wB = 0.0f;

    /// Applies the point impulse P at rA / rB (minus on A, plus on B).
    void applyPoint(const JointSimData& s, Vec2 P, Vec2 rA, Vec2 rB) {
        vA -= deltaA(s, P);
        wA -= s.invIA * cross(rA, P);
        vB += deltaB(s, P);
        wB += s.invIB * cross(rB, P);
    }
    /// Applies a linear impulse P with explicit angular parts LA, LB
    /// (rows whose lever arms are not simply rA, rB, e.g. point-to-line).
    void apply(const JointSimData& s, Vec2 P, float LA, float LB) {
        vA -= deltaA(s, P);
        wA -= s.invIA * LA;
        vB += deltaB(s, P);
        wB += s.invIB * LB;
    }
    /// Applies a pure angular impulse (minus on A, plus on B).
    void applyAngular(const JointSimData& s, float impulse) {
        wA -= s.invIA * impulse;
        wB += s.invIB * impulse;
    }
};

inline Velocities load(const BodyState& a, const BodyState& b) {
    return {a.v, a.w, b.v, b.w};
}
/// Writes back the sides that can move: a kinematic side, unchanged by the
/// rows (zero inverse mass), is read by other constraints of the same graph
/// colour at the same time and must not be written.
inline void store(const JointSimData& s, const Velocities& v, BodyState& a, BodyState& b) {
    if (s.writeA) a.v = v.vA, a.w = v.wA;
    if (s.writeB) b.v = v.vB, b.w = v.wB;
}

/// Current anchor separation d = pB - pA from the step-start delta and the
/// substep displacements.
inline Vec2 separation(const JointSimData& s, const BodyState& a, const BodyState& b, Vec2 rA,
                       Vec2 rB) {
    return s.deltaCenter + (b.dp - a.dp) + (rB - rA);
}

/// Geometry of a joint along A's axis (prismatic, wheel) at the current
/// substep pose: anchors, separation, axis, translation along it, and the
/// angular terms a1 = (d + rA) × axis, a2 = rB × axis of the axial row, and
/// the normal row's perp = leftPerp(axis), s1 = (d + rA) × perp, s2 = rB × perp.
struct AxisFrame {
    Vec2 rA, rB, d, axis, perp;
    float translation, a1, a2, s1, s2;
};
inline AxisFrame axisFrame(const JointSimData& s, const BodyState& a, const BodyState& b) {
    AxisFrame f;
    f.rA = rotate(a.dq, s.frameA);
    f.rB = rotate(b.dq, s.frameB);
    f.d = separation(s, a, b, f.rA, f.rB);
    f.axis = rotate(a.dq, s.axisA);
    f.translation = dot(f.axis, f.d);
    f.a1 = cross(f.d + f.rA, f.axis);
    f.a2 = cross(f.rB, f.axis);
    f.perp = leftPerp(f.axis);
    f.s1 = cross(f.d + f.rA, f.perp);
    f.s2 = cross(f.rB, f.perp);
    return f;
}

/// Current relative angle angleB - angleA - reference.
inline float jointAngle(const JointSimData& s, const BodyState& a, const BodyState& b) {
    return relativeAngle(a.dq, b.dq) + s.deltaAngle;
}

/// One side of a limit, as a one-sided row with C >= 0 allowed and an
/// accumulated impulse >= 0 (Box2D v3 speculative limits). Cdot must already
/// carry the side's sign.
///   C > 0  (inside the limit): rigid row with bias C / h, so the joint may
///          close the remaining gap in this substep but not overshoot it; the
///          row is inactive (clamped to 0) while it is not approaching.
///   C <= 0 (past the limit): soft push-out with the joint softness in the
///          solve pass; the relax pass only stops the approach (no bias).
/// Returns the impulse increment to apply.
inline float solveLimitSide(float C, float Cdot, float mass, float& accumulated,
                            const Softness& soft, float inv_h, bool useBias) {
    float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
    if (C > 0.0f) {
        bias = C * inv_h;
    } else if (useBias) {
        bias = soft.biasRate * C;
        massScale = soft.massScale;
        impulseScale = soft.impulseScale;
    }
    const float impulse = -massScale * mass * (Cdot + bias) - impulseScale * accumulated;
    const float newImpulse = std::max(accumulated + impulse, 0.0f);
    const float delta = newImpulse - accumulated;
    accumulated = newImpulse;
    return delta;
}

/// A velocity motor row: drives Cdot to zero (the caller subtracts the target
/// speed) with the accumulated impulse clamped to [-maxImpulse, maxImpulse].
inline float solveMotor(float Cdot, float mass, float& accumulated, float maxImpulse) {
    const float impulse = -mass * Cdot;
    const float old = accumulated;
    accumulated = std::clamp(old + impulse, -maxImpulse, maxImpulse);
    return accumulated - old;
}

/// A soft row (spring or softened rigid row) without clamping.
inline float solveSoft(float C, float Cdot, float mass, float& accumulated, const Softness& soft) {
    const float impulse =
        -soft.massScale * mass * (Cdot + soft.biasRate * C) - soft.impulseScale * accumulated;
    accumulated += impulse;
    return impulse;
}

inline float invOrZero(float k) {
    return k > 0.0f ? 1.0f / k : 0.0f;
}

/// A revolute's spring, motor and limit rows, in that order (Box2D v3
/// revolute_joint.c), on the joint's relative turn. wRel is wB - wA when
/// they start, mass the turn's effective mass, angle the joint angle
/// (jointAngle; read by the spring and the limits only). turn(impulse)
/// applies an impulse to the turn (+ on B, - on A) and returns the new
/// wB - wA: the iterative path turns the two bodies alone
/// (joint_revolute.cpp), the direct solve the whole tree with its pins held
/// (joint_direct.cpp).
///   spring  C = angle - targetAngle, Cdot = wB - wA, soft with the user's
///           hertz / damping (a target of 0 leaves C the angle's exact bits);
///           a physical spring, so it acts in the relax pass too. hertz = 0
///           means no spring (not a rigid lock, which makeSoft(0) would give).
///   motor   Cdot = wB - wA - speed, impulse clamped to ±h·maxMotorTorque
///   limits  lower: C = angle - lower >= 0; upper: C = upper - angle >= 0
///           (speculative one-sided rows, solveLimitSide)
template <class Turn>
CAROM_FORCE_INLINE void revoluteAngularRows(const RevoluteParams& d, JointSimData& s,
                                            const StepContext& ctx, bool useBias, float angle,
                                            float mass, float wRel, Turn&& turn) {
    if (d.enableSpring && d.hertz > 0.0f)
        wRel =
            turn(solveSoft(angle - d.targetAngle, wRel, mass, s.springImpulse, s.springSoftness));
    if (d.enableMotor)
        wRel =
            turn(solveMotor(wRel - d.motorSpeed, mass, s.motorImpulse, ctx.h * d.maxMotorTorque));
    if (d.enableLimit) {
        const float unwound = unwindAngle(angle);
        // Lower side: pushes B counter-clockwise relative to A.
        wRel = turn(solveLimitSide(unwound - d.lowerAngle, wRel, mass, s.lowerImpulse,
                                   ctx.jointSoftness, ctx.inv_h, useBias));
        // Upper side: signs flipped so that C and the impulse stay positive.
        turn(-solveLimitSide(d.upperAngle - unwound, -wRel, mass, s.upperImpulse, ctx.jointSoftness,
                             ctx.inv_h, useBias));
    }
}

/// Whether the revolute's angular rows read the joint angle (an atan2).
inline bool revoluteReadsAngle(const RevoluteParams& d) {
    return (d.enableSpring && d.hertz > 0.0f) || d.enableLimit;
}
/// Whether the revolute has angular rows at all.
inline bool revoluteHasAngularRows(const RevoluteParams& d) {
    return (d.enableSpring && d.hertz > 0.0f) || d.enableMotor || d.enableLimit;
}

// ---- per-type entry points (one file each) ----------------------------------

void prepare(const RevoluteJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx);
void warmStart(const RevoluteParams& d, JointSimData& s, StepContext& ctx);
void solve(const RevoluteParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const RevoluteParams& d, const JointSimData& s, float inv_h, Vec2& force,
              float& torque);

void prepare(const PrismaticJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx);
void warmStart(const PrismaticParams& d, JointSimData& s, StepContext& ctx);
void solve(const PrismaticParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const PrismaticParams& d, const JointSimData& s, float inv_h, Vec2& force,
              float& torque);

void prepare(const DistanceJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx);
void warmStart(const DistanceParams& d, JointSimData& s, StepContext& ctx);
void solve(const DistanceParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const DistanceParams& d, const JointSimData& s, float inv_h, Vec2& force,
              float& torque);

void prepare(const WeldJointDef& d, JointSimData& s, const JointBodyPose& a, const JointBodyPose& b,
             const StepContext& ctx);
void warmStart(const WeldParams& d, JointSimData& s, StepContext& ctx);
void solve(const WeldParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const WeldParams& d, const JointSimData& s, float inv_h, Vec2& force, float& torque);

void prepare(const WheelJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx);
void warmStart(const WheelParams& d, JointSimData& s, StepContext& ctx);
void solve(const WheelParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const WheelParams& d, const JointSimData& s, float inv_h, Vec2& force, float& torque);

void prepare(const MotorJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx);
void warmStart(const MotorParams& d, JointSimData& s, StepContext& ctx);
void solve(const MotorParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const MotorParams& d, const JointSimData& s, float inv_h, Vec2& force, float& torque);

void prepare(const MouseJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx);
void warmStart(const MouseParams& d, JointSimData& s, StepContext& ctx);
void solve(const MouseParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const MouseParams& d, const JointSimData& s, float inv_h, Vec2& force, float& torque);

void prepare(const GearJointDef& d, JointSimData& s, const JointBodyPose& a, const JointBodyPose& b,
             const StepContext& ctx);
void warmStart(const GearParams& d, JointSimData& s, StepContext& ctx);
void solve(const GearParams& d, JointSimData& s, StepContext& ctx, bool useBias);
/// The gear's reaction reads its GearSolverData (StepContext::gears), so it takes the context.
void reaction(const GearParams& d, const JointSimData& s, const StepContext& ctx, Vec2& force,
              float& torque);

void prepare(const PulleyJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx);
void warmStart(const PulleyParams& d, JointSimData& s, StepContext& ctx);
void solve(const PulleyParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const PulleyParams& d, const JointSimData& s, float inv_h, Vec2& force,
              float& torque);

void prepare(const RopeJointDef& d, JointSimData& s, const JointBodyPose& a, const JointBodyPose& b,
             const StepContext& ctx);
void warmStart(const RopeParams& d, JointSimData& s, StepContext& ctx);
void solve(const RopeParams& d, JointSimData& s, StepContext& ctx, bool useBias);
void reaction(const RopeParams& d, const JointSimData& s, float inv_h, Vec2& force, float& torque);

}  // namespace carom::detail::joints
