// Revolute joint: B turns about a pin shared with A.
//
// Rows, solved in this order each pass (Box2D v3 revolute_joint.c):
//   spring, motor, limits   on the relative turn (revoluteAngularRows,
//           joint_internal.hpp), with K = iA + iB here
//   point   C = pB - pA (2 rows),  Cdot = vB + wB×rB - vA - wA×rA
//           J = [-I, -rA_skew, I, rB_skew],  K = 2x2 (pointK)
//           soft with the world joint softness in the solve pass, rigid
//           (no bias) in the relax pass.
// The point rows come last so the pin, the most visible error, is the one
// satisfied best at the end of a Gauss-Seidel pass. In a joint tree
// (WorldDef::tuning.enableJointDirectSolve) the direct solve takes the whole joint:
// its pin exactly, its spring, motor and limit rows with the same
// revoluteAngularRows but the turn's mass and response in the tree
// (joint_direct.cpp); these functions then never see it.
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

void prepare(const RevoluteJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx) {
    // The joint angle is read only by the spring and the limits; a plain pin
    // skips the atan2, which is a noticeable share of a pin's prepare.
    const bool spring = d.enableSpring && d.hertz > 0.0f;
    s.deltaAngle =
        spring || d.enableLimit ? unwindAngle(relativeAngle(a.q, b.q) - d.referenceAngle) : 0.0f;
    s.axialMass = invOrZero(s.invIA + s.invIB);
    s.springSoftness = makeSoft(d.hertz, d.dampingRatio, ctx.h);

    // Impulses of a feature that was switched off must not be warm started,
    // and a motor impulse must respect a max torque lowered since last step.
    if (!spring) s.springImpulse = 0.0f;
    if (!d.enableLimit) s.lowerImpulse = s.upperImpulse = 0.0f;
    const float maxMotor = d.enableMotor ? ctx.h * d.maxMotorTorque : 0.0f;
    s.motorImpulse = std::clamp(s.motorImpulse, -maxMotor, maxMotor);
}

// Carried impulses: the pin's and the turn's (spring + motor + limits).
void warmStart(const RevoluteParams&, JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const float axial = s.springImpulse + s.motorImpulse + s.lowerImpulse - s.upperImpulse;

    Velocities v = load(a, b);
    v.applyPoint(s, s.linearImpulse, rotate(a.dq, s.frameA), rotate(b.dq, s.frameB));
    v.applyAngular(s, axial);
    store(s, v, a, b);
}

void solve(const RevoluteParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    Velocities v = load(a, b);

    // With no rotational freedom on either side the angular rows are void.
    // The joint angle (an atan2) only where a spring or limit reads it: a
    // plain pin skips it.
    if (revoluteHasAngularRows(d) && s.invIA + s.invIB != 0.0f) {
        revoluteAngularRows(d, s, ctx, useBias, revoluteReadsAngle(d) ? jointAngle(s, a, b) : 0.0f,
                            s.axialMass, v.wB - v.wA, [&](float impulse) {
                                v.applyAngular(s, impulse);
                                return v.wB - v.wA;
                            });
    }

    // Point-to-point rows as one 2x2 block.
    const Vec2 rA = rotate(a.dq, s.frameA);
    const Vec2 rB = rotate(b.dq, s.frameB);
    const Vec2 Cdot = relativeVelocity(v.vA, v.wA, rA, v.vB, v.wB, rB);

    Vec2 bias{0.0f, 0.0f};
    float massScale = 1.0f, impulseScale = 0.0f;
    if (useBias) {
        bias = ctx.jointSoftness.biasRate * separation(s, a, b, rA, rB);
        massScale = ctx.jointSoftness.massScale;
        impulseScale = ctx.jointSoftness.impulseScale;
    }
    const PointK K = pointK(s, rA, rB);
    const Vec2 x = solve22(K.k11, K.k12, K.k22, Cdot + bias);
    const Vec2 impulse = -massScale * x - impulseScale * s.linearImpulse;
    s.linearImpulse += impulse;
    v.applyPoint(s, impulse, rA, rB);

    store(s, v, a, b);
}

// Force on B at the pin; torque on B from the spring, motor and limits.
void reaction(const RevoluteParams&, const JointSimData& s, float inv_h, Vec2& force,
              float& torque) {
    force = inv_h * s.linearImpulse;
    torque = inv_h * (s.springImpulse + s.motorImpulse + s.lowerImpulse - s.upperImpulse);
}

}  // namespace carom::detail::joints
