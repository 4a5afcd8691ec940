// Distance joint: keeps the anchors at a length, rigidly, as a spring, or
// within [minLength, maxLength].
//
// With d = pB - pA, L = |d| and u = d / L (Box2D v3 distance_joint.c):
//   C = L - length,  Cdot = u·(vB + wB×rB - vA - wA×rA)
//   J = [-u, -rA×u, u, rB×u],  K = mA + mB + iA (rA×u)² + iB (rB×u)²
// Modes:
//   rigid   (!enableSpring, or enableLimit with minLength == maxLength)
//           one two-sided row at the rest length (clamped into the limits
//           when they are enabled), softened by the world joint softness in
//           the solve pass, rigid in relax.
//   spring  (otherwise) a soft row with the user's hertz / damping, acting in
//           relax too because it is a physical spring; hertz = 0 is a slack
//           rope with no spring force, held only by the limits.
//   limits  (enableLimit, spring mode) one-sided speculative rows
//           lower: C = L - minLength >= 0, upper: C = maxLength - L >= 0.
//   motor   (enableMotor, either mode) Cdot = u·(...) - motorSpeed, impulse
//           clamped to ±h·maxMotorForce; after the spring, before the limits
//           and the rigid row, so that those hold against it (the revolute's
//           order).
// The spring impulse is stored in springImpulse in both modes.
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

namespace {
// D: the def (prepare) or DistanceParams (the substeps), same field names.
template <class D>
bool isRigid(const D& d) {
    return !d.enableSpring || (d.enableLimit && d.minLength == d.maxLength);
}
template <class D>
float rigidLength(const D& d) {
    return d.enableLimit ? std::clamp(d.length, d.minLength, d.maxLength) : d.length;
}
// The impulse along the axis: the motor's is added only when it is on, so a
// joint without a motor sums exactly what it summed before motors existed
// (x + 0 turns a -0 into +0).
float axialImpulse(const DistanceParams& d, const JointSimData& s) {
    float axial = s.springImpulse + s.lowerImpulse - s.upperImpulse;
    if (d.enableMotor) axial += s.motorImpulse;
    return axial;
}
}  // namespace

void prepare(const DistanceJointDef& d, JointSimData& s, const JointBodyPose&, const JointBodyPose&,
             const StepContext& ctx) {
    const Vec2 axis = normalizeOrZero(s.deltaCenter + (s.frameB - s.frameA));
    const float crA = cross(s.frameA, axis);
    const float crB = cross(s.frameB, axis);
    s.axialMass = invOrZero(linearK(s, axis) + s.invIA * crA * crA + s.invIB * crB * crB);
    s.springSoftness = makeSoft(d.hertz, d.dampingRatio, ctx.h);

    if (!isRigid(d) && d.hertz == 0.0f) s.springImpulse = 0.0f;
    if (!d.enableLimit || isRigid(d)) s.lowerImpulse = s.upperImpulse = 0.0f;
    // A motor impulse must respect a max force lowered since the last step.
    const float maxMotor = d.enableMotor ? ctx.h * d.maxMotorForce : 0.0f;
    s.motorImpulse = std::clamp(s.motorImpulse, -maxMotor, maxMotor);
}

void warmStart(const DistanceParams& d, JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const Vec2 rA = rotate(a.dq, s.frameA);
    const Vec2 rB = rotate(b.dq, s.frameB);
    const Vec2 axis = normalizeOrZero(separation(s, a, b, rA, rB));
    const float axial = axialImpulse(d, s);

    Velocities v = load(a, b);
    v.applyPoint(s, axial * axis, rA, rB);
    store(s, v, a, b);
}

void solve(const DistanceParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const Vec2 rA = rotate(a.dq, s.frameA);
    const Vec2 rB = rotate(b.dq, s.frameB);
    Vec2 axis = separation(s, a, b, rA, rB);
    const float length = normalizeReturnLength(axis);
    if (length == 0.0f) axis = {0.0f, 0.0f};  // coincident anchors: no direction to push along
    Velocities v = load(a, b);

    auto Cdot = [&] { return dot(axis, relativeVelocity(v.vA, v.wA, rA, v.vB, v.wB, rB)); };

    const bool rigid = isRigid(d);
    if (!rigid && d.hertz > 0.0f) {
        const float impulse =
            solveSoft(length - d.length, Cdot(), s.axialMass, s.springImpulse, s.springSoftness);
        v.applyPoint(s, impulse * axis, rA, rB);
    }
    if (d.enableMotor) {
        const float impulse =
            solveMotor(Cdot() - d.motorSpeed, s.axialMass, s.motorImpulse, ctx.h * d.maxMotorForce);
        v.applyPoint(s, impulse * axis, rA, rB);
    }
    if (rigid) {
        const Softness soft = useBias ? ctx.jointSoftness : Softness{};
        const float impulse =
            solveSoft(length - rigidLength(d), Cdot(), s.axialMass, s.springImpulse, soft);
        v.applyPoint(s, impulse * axis, rA, rB);
    } else {
        if (d.enableLimit) {
            float impulse = solveLimitSide(length - d.minLength, Cdot(), s.axialMass,
                                           s.lowerImpulse, ctx.jointSoftness, ctx.inv_h, useBias);
            v.applyPoint(s, impulse * axis, rA, rB);
            impulse = solveLimitSide(d.maxLength - length, -Cdot(), s.axialMass, s.upperImpulse,
                                     ctx.jointSoftness, ctx.inv_h, useBias);
            v.applyPoint(s, -impulse * axis, rA, rB);
        }
    }

    store(s, v, a, b);
}

// Force on B along the step-start axis (the joint's direction within one step).
void reaction(const DistanceParams& d, const JointSimData& s, float inv_h, Vec2& force,
              float& torque) {
    const Vec2 axis = normalizeOrZero(s.deltaCenter + (s.frameB - s.frameA));
    force = inv_h * axialImpulse(d, s) * axis;
    torque = 0.0f;
}

}  // namespace carom::detail::joints
