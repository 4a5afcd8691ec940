// Rope joint: the anchors' distance never exceeds maxLength; the rope pulls
// and never pushes (Box2D v2.2 b2RopeJoint, Chipmunk's slide joint without a
// minimum; the one-sided case of the distance joint's max-length limit).
//
// With d = pB - pA, L = |d|, u = d / L:
//   C = maxLength - L >= 0,  Cdot = -u·(vB + wB×rB - vA - wA×rA)
//   K = mA + mB + iA (rA×u)² + iB (rB×u)²
// The tension impulse λ >= 0 pulls B towards A (-λ u on B, +λ u on A), as a
// one-sided speculative row (solveLimitSide): a slack rope may close the gap
// in one substep but not overshoot, a taut one holds with the world joint
// softness in the solve pass and rigidly in the relax pass.
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

void prepare(const RopeJointDef&, JointSimData& s, const JointBodyPose&, const JointBodyPose&,
             const StepContext&) {
    const Vec2 axis = normalizeOrZero(s.deltaCenter + (s.frameB - s.frameA));
    const float crA = cross(s.frameA, axis);
    const float crB = cross(s.frameB, axis);
    s.axialMass = invOrZero(s.invMassA + s.invMassB + s.invIA * crA * crA + s.invIB * crB * crB);
    s.linearImpulse = {0.0f, 0.0f};
    s.angularImpulse = s.perpImpulse = s.springImpulse = s.motorImpulse = s.lowerImpulse = 0.0f;
}

void warmStart(const RopeParams&, JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const Vec2 rA = rotate(a.dq, s.frameA);
    const Vec2 rB = rotate(b.dq, s.frameB);
    const Vec2 axis = normalizeOrZero(separation(s, a, b, rA, rB));
    Velocities v = load(a, b);
    v.applyPoint(s, -s.upperImpulse * axis, rA, rB);
    store(s, v, a, b);
}

void solve(const RopeParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const Vec2 rA = rotate(a.dq, s.frameA);
    const Vec2 rB = rotate(b.dq, s.frameB);
    Vec2 axis = separation(s, a, b, rA, rB);
    const float length = normalizeReturnLength(axis);
    if (length == 0.0f) axis = {0.0f, 0.0f};  // coincident anchors: a slack rope
    Velocities v = load(a, b);
    const float Cdot = -dot(axis, relativeVelocity(v.vA, v.wA, rA, v.vB, v.wB, rB));
    const float lambda = solveLimitSide(d.maxLength - length, Cdot, s.axialMass, s.upperImpulse,
                                        ctx.jointSoftness, ctx.inv_h, useBias);
    v.applyPoint(s, -lambda * axis, rA, rB);
    store(s, v, a, b);
}

// Force on B: the rope's pull towards A along the step-start direction.
void reaction(const RopeParams&, const JointSimData& s, float inv_h, Vec2& force, float& torque) {
    const Vec2 axis = normalizeOrZero(s.deltaCenter + (s.frameB - s.frameA));
    force = -(inv_h * s.upperImpulse) * axis;
    torque = 0.0f;
}

}  // namespace carom::detail::joints
