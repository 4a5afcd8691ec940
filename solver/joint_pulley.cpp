// Pulley joint: a rope from A over groundAnchorA and groundAnchorB to B,
// with a block and tackle of the given ratio on B's side (Box2D v2.4
// b2PulleyJoint, made one-sided: a rope pulls, it never pushes).
//
// With uA = pA - groundA, lengthA = |uA|, uA normalised (likewise B):
//   C = constant - lengthA - ratio·lengthB >= 0,  constant = def lengthA + ratio·lengthB
//   Cdot = -uA·(vA + wA×rA) - ratio·uB·(vB + wB×rB)
//   J = [-uA, -rA×uA, -ratio·uB, -ratio·rB×uB]
//   K = mA + iA (rA×uA)² + ratio² (mB + iB (rB×uB)²)
// The tension impulse λ >= 0 pulls A towards groundA (-λ uA) and B towards
// groundB (-ratio λ uB). The row is a one-sided speculative limit (see
// solveLimitSide): while the rope is slack it may close the gap in one
// substep but not overshoot; once taut it holds with the world joint softness.
// The centres are stored relative to the ground anchors at step start, so a
// far-from-origin pulley keeps its precision.
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

namespace {

struct PulleyFrame {
    Vec2 rA, rB, uA, uB;
    float lengthA, lengthB;
};

PulleyFrame pulleyFrame(const JointSimData& s, const BodyState& a, const BodyState& b) {
    PulleyFrame f;
    f.rA = rotate(a.dq, s.frameA);
    f.rB = rotate(b.dq, s.frameB);
    f.uA = s.deltaCenter + a.dp + f.rA;  // pA - groundA
    f.uB = s.axisA + b.dp + f.rB;        // pB - groundB
    f.lengthA = normalizeReturnLength(f.uA);
    f.lengthB = normalizeReturnLength(f.uB);
    // A body on its pulley has no rope direction: the side carries no force.
    if (f.lengthA == 0.0f) f.uA = {0.0f, 0.0f};
    if (f.lengthB == 0.0f) f.uB = {0.0f, 0.0f};
    return f;
}

void applyTension(const JointSimData& s, const PulleyFrame& f, float ratio, float lambda,
                  Velocities& v) {
    const Vec2 PA = -lambda * f.uA;
    const Vec2 PB = -(ratio * lambda) * f.uB;
    v.vA += s.invMassA * PA;
    v.wA += s.invIA * cross(f.rA, PA);
    v.vB += s.invMassB * PB;
    v.wB += s.invIB * cross(f.rB, PB);
}

}  // namespace

void prepare(const PulleyJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext&) {
    s.deltaCenter = a.center - d.groundAnchorA;
    s.axisA = b.center - d.groundAnchorB;
    const Vec2 uA = normalizeOrZero(s.deltaCenter + s.frameA);
    const Vec2 uB = normalizeOrZero(s.axisA + s.frameB);
    const float ruA = cross(s.frameA, uA);
    const float ruB = cross(s.frameB, uB);
    const float kA = s.invMassA + s.invIA * ruA * ruA;
    const float kB = s.invMassB + s.invIB * ruB * ruB;
    s.axialMass = invOrZero(kA + d.ratio * d.ratio * kB);
    s.linearImpulse = {0.0f, 0.0f};
    s.angularImpulse = s.perpImpulse = s.springImpulse = s.motorImpulse = s.lowerImpulse = 0.0f;
}

void warmStart(const PulleyParams& d, JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const PulleyFrame f = pulleyFrame(s, a, b);
    Velocities v = load(a, b);
    applyTension(s, f, d.ratio, s.upperImpulse, v);
    store(s, v, a, b);
}

void solve(const PulleyParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const PulleyFrame f = pulleyFrame(s, a, b);
    Velocities v = load(a, b);
    const float C = (d.lengthA + d.ratio * d.lengthB) - (f.lengthA + d.ratio * f.lengthB);
    const float Cdot =
        -dot(f.uA, v.vA + crossSV(v.wA, f.rA)) - d.ratio * dot(f.uB, v.vB + crossSV(v.wB, f.rB));
    const float lambda =
        solveLimitSide(C, Cdot, s.axialMass, s.upperImpulse, ctx.jointSoftness, ctx.inv_h, useBias);
    applyTension(s, f, d.ratio, lambda, v);
    store(s, v, a, b);
}

// Force on B: the rope's pull, ratio × tension towards groundB (step-start direction).
void reaction(const PulleyParams& d, const JointSimData& s, float inv_h, Vec2& force,
              float& torque) {
    const Vec2 uB = normalizeOrZero(s.axisA + s.frameB);
    force = -(inv_h * d.ratio * s.upperImpulse) * uB;
    torque = 0.0f;
}

}  // namespace carom::detail::joints
