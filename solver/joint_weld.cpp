// Weld joint: glues B to A, rigidly or as a spring (Box2D v3 weld_joint.c).
//
//   angular  C = angleB - angleA - reference,  Cdot = wB - wA,  K = iA + iB
//   linear   C = pB - pA (2 rows),  J = [-I, -rA_skew, I, rB_skew],  K = pointK
// Each part is soft with its own hertz / damping when hertz > 0 (a physical
// spring: it acts in the relax pass too), and otherwise rigid with the world
// joint softness in the solve pass and no bias in relax. The angular row is
// solved first so the linear rows, whose error is the visible one, end each
// pass satisfied.
//
// Note on a soft weld: in equilibrium under a steady torque T carried by the
// angular row, the row's fixed point gives C = -T / (K^-1 ω²) with ω = 2π·hertz,
// i.e. an angular stiffness of (iA + iB)^-1 ω² (the tests use this).
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

void prepare(const WeldJointDef& d, JointSimData& s, const JointBodyPose& a, const JointBodyPose& b,
             const StepContext& ctx) {
    s.deltaAngle = unwindAngle(relativeAngle(a.q, b.q) - d.referenceAngle);
    s.axialMass = invOrZero(s.invIA + s.invIB);
    s.springSoftness = d.linearHertz == 0.0f ? ctx.jointSoftness
                                             : makeSoft(d.linearHertz, d.linearDampingRatio, ctx.h);
    s.angularSoftness = d.angularHertz == 0.0f
                            ? ctx.jointSoftness
                            : makeSoft(d.angularHertz, d.angularDampingRatio, ctx.h);
}

void warmStart(const WeldParams&, JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const Vec2 rA = rotate(a.dq, s.frameA);
    const Vec2 rB = rotate(b.dq, s.frameB);
    Velocities v = load(a, b);
    v.applyPoint(s, s.linearImpulse, rA, rB);
    v.applyAngular(s, s.angularImpulse);
    store(s, v, a, b);
}

void solve(const WeldParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    Velocities v = load(a, b);

    // Angular part.
    {
        const Softness soft = (useBias || d.angularHertz > 0.0f) ? s.angularSoftness : Softness{};
        const float C = jointAngle(s, a, b);
        v.applyAngular(s, solveSoft(C, v.wB - v.wA, s.axialMass, s.angularImpulse, soft));
    }

    // Linear part as one 2x2 block.
    {
        const Vec2 rA = rotate(a.dq, s.frameA);
        const Vec2 rB = rotate(b.dq, s.frameB);
        const Softness soft = (useBias || d.linearHertz > 0.0f) ? s.springSoftness : Softness{};
        const Vec2 C = separation(s, a, b, rA, rB);
        const Vec2 Cdot = relativeVelocity(v.vA, v.wA, rA, v.vB, v.wB, rB);
        const PointK K = pointK(s, rA, rB);
        const Vec2 x = solve22(K.k11, K.k12, K.k22, Cdot + soft.biasRate * C);
        const Vec2 impulse = -soft.massScale * x - soft.impulseScale * s.linearImpulse;
        s.linearImpulse += impulse;
        v.applyPoint(s, impulse, rA, rB);
    }

    store(s, v, a, b);
}

void reaction(const WeldParams&, const JointSimData& s, float inv_h, Vec2& force, float& torque) {
    force = inv_h * s.linearImpulse;
    torque = inv_h * s.angularImpulse;
}

}  // namespace carom::detail::joints
