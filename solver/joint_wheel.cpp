// Wheel joint: B rides on a line of A (the suspension axis) on a spring and
// spins freely, optionally driven by a motor (Box2D v3 wheel_joint.c).
//
// With the axis u (turning with A), n = leftPerp(u), d = pB - pA:
//   motor         Cdot = wB - wA - speed,  K = iA + iB, clamped to ±h·maxMotorTorque
//   spring        C = u·d (towards translation 0), soft with the user's
//                 hertz / damping, also in relax (a physical spring);
//                 hertz = 0 means no spring
//   limits        lower: C = u·d - lower >= 0, upper: C = upper - u·d >= 0
//   point-to-line C = n·d, soft with the joint softness in the solve pass
// Axial rows:  J = [-u, -a1, u, a2], a1 = (d + rA)×u, a2 = rB×u
// Normal row:  J = [-n, -s1, n, s2], s1 = (d + rA)×n, s2 = rB×n
// (the lever arm on A reaches to B's anchor because the line turns with A).
//
// Equilibrium of the spring: the soft row's fixed point under a steady axial
// load F is C = -F / (axialMass ω²), ω = 2π·hertz; for a wheel on a static
// chassis with the anchor at its centre axialMass = m, so the deflection is
// m g / k with k = m ω² (the tests check this).
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

void prepare(const WheelJointDef& d, JointSimData& s, const JointBodyPose& a, const JointBodyPose&,
             const StepContext& ctx) {
    s.axisA = rotate(a.q, d.localAxisA);
    const Vec2 dd = s.deltaCenter + (s.frameB - s.frameA);
    const Vec2 perp = leftPerp(s.axisA);

    const float s1 = cross(dd + s.frameA, perp);
    const float s2 = cross(s.frameB, perp);
    s.perpMass = invOrZero(linearK(s, perp) + s.invIA * s1 * s1 + s.invIB * s2 * s2);

    const float a1 = cross(dd + s.frameA, s.axisA);
    const float a2 = cross(s.frameB, s.axisA);
    s.axialMass = invOrZero(linearK(s, s.axisA) + s.invIA * a1 * a1 + s.invIB * a2 * a2);
    s.motorMass = invOrZero(s.invIA + s.invIB);
    s.springSoftness = makeSoft(d.hertz, d.dampingRatio, ctx.h);

    if (!(d.enableSpring && d.hertz > 0.0f)) s.springImpulse = 0.0f;
    if (!d.enableLimit) s.lowerImpulse = s.upperImpulse = 0.0f;
    const float maxMotor = d.enableMotor ? ctx.h * d.maxMotorTorque : 0.0f;
    s.motorImpulse = std::clamp(s.motorImpulse, -maxMotor, maxMotor);
}

void warmStart(const WheelParams&, JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const AxisFrame f = axisFrame(s, a, b);
    const Vec2 perp = f.perp;
    const float s1 = f.s1, s2 = f.s2;
    const float axial = s.springImpulse + s.lowerImpulse - s.upperImpulse;

    const Vec2 P = axial * f.axis + s.perpImpulse * perp;
    const float LA = axial * f.a1 + s.perpImpulse * s1 + s.motorImpulse;
    const float LB = axial * f.a2 + s.perpImpulse * s2 + s.motorImpulse;
    Velocities v = load(a, b);
    v.apply(s, P, LA, LB);
    store(s, v, a, b);
}

void solve(const WheelParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const AxisFrame f = axisFrame(s, a, b);
    Velocities v = load(a, b);

    auto axialCdot = [&] { return dot(f.axis, v.vB - v.vA) + f.a2 * v.wB - f.a1 * v.wA; };
    auto applyAxial = [&](float impulse) {
        v.apply(s, impulse * f.axis, impulse * f.a1, impulse * f.a2);
    };

    if (d.enableMotor && s.invIA + s.invIB > 0.0f)
        v.applyAngular(s, solveMotor(v.wB - v.wA - d.motorSpeed, s.motorMass, s.motorImpulse,
                                     ctx.h * d.maxMotorTorque));

    if (d.enableSpring && d.hertz > 0.0f)
        applyAxial(
            solveSoft(f.translation, axialCdot(), s.axialMass, s.springImpulse, s.springSoftness));

    if (d.enableLimit) {
        applyAxial(solveLimitSide(f.translation - d.lowerTranslation, axialCdot(), s.axialMass,
                                  s.lowerImpulse, ctx.jointSoftness, ctx.inv_h, useBias));
        applyAxial(-solveLimitSide(d.upperTranslation - f.translation, -axialCdot(), s.axialMass,
                                   s.upperImpulse, ctx.jointSoftness, ctx.inv_h, useBias));
    }

    // Point-to-line.
    {
        const Vec2 perp = f.perp;
        const float s1 = f.s1, s2 = f.s2;
        const float Cdot = dot(perp, v.vB - v.vA) + s2 * v.wB - s1 * v.wA;
        const Softness soft = useBias ? ctx.jointSoftness : Softness{};
        const float impulse = solveSoft(dot(perp, f.d), Cdot, s.perpMass, s.perpImpulse, soft);
        v.apply(s, impulse * perp, impulse * s1, impulse * s2);
    }

    store(s, v, a, b);
}

void reaction(const WheelParams&, const JointSimData& s, float inv_h, Vec2& force, float& torque) {
    const Vec2 perp = leftPerp(s.axisA);
    const float axial = s.springImpulse + s.lowerImpulse - s.upperImpulse;
    force = inv_h * (s.perpImpulse * perp + axial * s.axisA);
    torque = inv_h * s.motorImpulse;
}

}  // namespace carom::detail::joints
