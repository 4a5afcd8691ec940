// Prismatic joint: B slides along an axis fixed in A, without relative rotation.
//
// With the axis u (turning with A), its normal n = leftPerp(u) and the
// anchor separation d = pB - pA:
//   translation  t = u·d
//   axial rows (spring, motor, limits):
//       Cdot = u·(vB - vA) + a2 wB - a1 wA,  a1 = (d + rA)×u,  a2 = rB×u
//       J = [-u, -a1, u, a2],  K = mA + mB + iA a1² + iB a2²
//     (d + rA = pB - cA: A's lever arm is to B's anchor, because the axis
//      rotates with A; Catto's derivation in Box2D's prismatic_joint.c)
//   block (point-to-line and angle, 2 rows solved together):
//       C = [n·d, angleB - angleA - reference]
//       J = [-n, -s1, n, s2; 0, -1, 0, 1],  s1 = (d + rA)×n,  s2 = rB×n
//       K = [mA + mB + iA s1² + iB s2², iA s1 + iB s2; .., iA + iB]
//     soft with the world joint softness in the solve pass, rigid in relax.
// The spring pulls towards t = targetTranslation and, being physical, acts in relax too;
// hertz = 0 means no spring.
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

void prepare(const PrismaticJointDef& d, JointSimData& s, const JointBodyPose& a,
             const JointBodyPose& b, const StepContext& ctx) {
    s.axisA = rotate(a.q, d.localAxisA);
    s.deltaAngle = unwindAngle(relativeAngle(a.q, b.q) - d.referenceAngle);

    const Vec2 dd = s.deltaCenter + (s.frameB - s.frameA);
    const float a1 = cross(dd + s.frameA, s.axisA);
    const float a2 = cross(s.frameB, s.axisA);
    s.axialMass = invOrZero(linearK(s, s.axisA) + s.invIA * a1 * a1 + s.invIB * a2 * a2);
    s.springSoftness = makeSoft(d.hertz, d.dampingRatio, ctx.h);

    if (!(d.enableSpring && d.hertz > 0.0f)) s.springImpulse = 0.0f;
    if (!d.enableLimit) s.lowerImpulse = s.upperImpulse = 0.0f;
    const float maxMotor = d.enableMotor ? ctx.h * d.maxMotorForce : 0.0f;
    s.motorImpulse = std::clamp(s.motorImpulse, -maxMotor, maxMotor);
}

void warmStart(const PrismaticParams&, JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const AxisFrame f = axisFrame(s, a, b);
    const Vec2 perp = f.perp;
    const float s1 = f.s1, s2 = f.s2;
    const float axial = s.springImpulse + s.motorImpulse + s.lowerImpulse - s.upperImpulse;

    const Vec2 P = axial * f.axis + s.perpImpulse * perp;
    const float LA = axial * f.a1 + s.perpImpulse * s1 + s.angularImpulse;
    const float LB = axial * f.a2 + s.perpImpulse * s2 + s.angularImpulse;
    Velocities v = load(a, b);
    v.apply(s, P, LA, LB);
    store(s, v, a, b);
}

void solve(const PrismaticParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const AxisFrame f = axisFrame(s, a, b);
    Velocities v = load(a, b);

    auto axialCdot = [&] { return dot(f.axis, v.vB - v.vA) + f.a2 * v.wB - f.a1 * v.wA; };
    auto applyAxial = [&](float impulse) {
        v.apply(s, impulse * f.axis, impulse * f.a1, impulse * f.a2);
    };

    if (d.enableSpring && d.hertz > 0.0f)
        applyAxial(solveSoft(f.translation - d.targetTranslation, axialCdot(), s.axialMass,
                             s.springImpulse, s.springSoftness));

    if (d.enableMotor)
        applyAxial(solveMotor(axialCdot() - d.motorSpeed, s.axialMass, s.motorImpulse,
                              ctx.h * d.maxMotorForce));

    if (d.enableLimit) {
        applyAxial(solveLimitSide(f.translation - d.lowerTranslation, axialCdot(), s.axialMass,
                                  s.lowerImpulse, ctx.jointSoftness, ctx.inv_h, useBias));
        // Upper side: C and Cdot sign-flipped, impulse applied negated.
        applyAxial(-solveLimitSide(d.upperTranslation - f.translation, -axialCdot(), s.axialMass,
                                   s.upperImpulse, ctx.jointSoftness, ctx.inv_h, useBias));
    }

    // Point-to-line and angle as one 2x2 block.
    {
        const Vec2 perp = f.perp;
        const float s1 = f.s1, s2 = f.s2;
        const Vec2 Cdot{dot(perp, v.vB - v.vA) + s2 * v.wB - s1 * v.wA, v.wB - v.wA};

        Vec2 bias{0.0f, 0.0f};
        float massScale = 1.0f, impulseScale = 0.0f;
        if (useBias) {
            const Vec2 C{dot(perp, f.d), jointAngle(s, a, b)};
            bias = ctx.jointSoftness.biasRate * C;
            massScale = ctx.jointSoftness.massScale;
            impulseScale = ctx.jointSoftness.impulseScale;
        }

        const float k11 = linearK(s, perp) + s.invIA * s1 * s1 + s.invIB * s2 * s2;
        const float k12 = s.invIA * s1 + s.invIB * s2;
        float k22 = s.invIA + s.invIB;
        if (k22 == 0.0f)
            k22 = 1.0f;  // both fixed rotation: the angle row is void, keep K invertible
        const Vec2 x = solve22(k11, k12, k22, Cdot + bias);
        const Vec2 old{s.perpImpulse, s.angularImpulse};
        const Vec2 impulse = -massScale * x - impulseScale * old;
        s.perpImpulse += impulse.x;
        s.angularImpulse += impulse.y;

        v.apply(s, impulse.x * perp, impulse.x * s1 + impulse.y, impulse.x * s2 + impulse.y);
    }

    store(s, v, a, b);
}

// Force on B: normal part plus axial part (spring, motor, limits); torque from the angle row.
void reaction(const PrismaticParams&, const JointSimData& s, float inv_h, Vec2& force,
              float& torque) {
    // The axis at the end of the step is not stored; the step-start axis is
    // within one step's rotation of it, which is the accuracy of a reaction.
    const Vec2 perp = leftPerp(s.axisA);
    const float axial = s.springImpulse + s.motorImpulse + s.lowerImpulse - s.upperImpulse;
    force = inv_h * (s.perpImpulse * perp + axial * s.axisA);
    torque = inv_h * s.angularImpulse;
}

}  // namespace carom::detail::joints
