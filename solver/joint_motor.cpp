// Motor joint: drives B towards an offset pose relative to A with bounded
// force and torque (Box2D's motor joint, v2.4 / v3.0 form).
//
// Target: B's anchor at A's frame point localAnchorA + linearOffset, and
// angleB - angleA = angularOffset (with the default zero anchors: B's origin
// at linearOffset in A's frame).
//   angular  C = angleB - angleA - angularOffset,  Cdot = wB - wA,  K = iA + iB
//   linear   C = pB - pTarget (2 rows),  K = pointK
// Each is a velocity row with a proportional position bias,
//   Cdot + (correctionFactor / h) C = 0,
// so correctionFactor is the fraction of the error removed per substep;
// the accumulated impulse is clamped to h·maxTorque (angular) and to a
// disc of radius h·maxForce (linear), which makes the joint a force-limited
// servo. The bias is applied in the relax pass too (as Box2D v3.0 does): the
// servo's target velocity is part of the drive, not a position fix-up. Were
// the relax pass to drive Cdot to zero, a saturated servo would brake away
// in relax what it gave in solve and creep at ~F h / m instead of
// accelerating at F / m. Within the limits each substep leaves B moving to
// remove the fraction correctionFactor of the error, so it converges
// geometrically without overshoot.
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

void prepare(const MotorJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext&) {
    // The target point replaces anchor A.
    s.frameA = rotate(a.q, d.localAnchorA + d.linearOffset - a.localCenter);
    s.deltaAngle = unwindAngle(relativeAngle(a.q, b.q) - d.angularOffset);
    s.axialMass = invOrZero(s.invIA + s.invIB);
}

void warmStart(const MotorParams&, JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const Vec2 rA = rotate(a.dq, s.frameA);
    const Vec2 rB = rotate(b.dq, s.frameB);
    Velocities v = load(a, b);
    v.applyPoint(s, s.linearImpulse, rA, rB);
    v.applyAngular(s, s.angularImpulse);
    store(s, v, a, b);
}

void solve(const MotorParams& d, JointSimData& s, StepContext& ctx, bool) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    Velocities v = load(a, b);
    const float biasRate = d.correctionFactor * ctx.inv_h;

    // Angular servo.
    {
        const float C = unwindAngle(jointAngle(s, a, b));
        const float Cdot = v.wB - v.wA + biasRate * C;
        v.applyAngular(s, solveMotor(Cdot, s.axialMass, s.angularImpulse, ctx.h * d.maxTorque));
    }

    // Linear servo, clamped to a disc so the force limit is isotropic.
    {
        const Vec2 rA = rotate(a.dq, s.frameA);
        const Vec2 rB = rotate(b.dq, s.frameB);
        const Vec2 C = separation(s, a, b, rA, rB);
        const Vec2 Cdot = relativeVelocity(v.vA, v.wA, rA, v.vB, v.wB, rB) + biasRate * C;
        const PointK K = pointK(s, rA, rB);
        const Vec2 impulse = -solve22(K.k11, K.k12, K.k22, Cdot);

        const Vec2 old = s.linearImpulse;
        const float maxImpulse = ctx.h * d.maxForce;
        s.linearImpulse += impulse;
        if (lengthSquared(s.linearImpulse) > maxImpulse * maxImpulse)
            s.linearImpulse = maxImpulse * normalizeOrZero(s.linearImpulse);
        v.applyPoint(s, s.linearImpulse - old, rA, rB);
    }

    store(s, v, a, b);
}

void reaction(const MotorParams&, const JointSimData& s, float inv_h, Vec2& force, float& torque) {
    force = inv_h * s.linearImpulse;
    torque = inv_h * s.angularImpulse;
}

}  // namespace carom::detail::joints
