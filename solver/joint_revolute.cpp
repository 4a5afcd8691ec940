// Revolute joint: B turns about a pin shared with A.
//
// Rows, solved in this order each pass (Box2D v3 revolute_joint.c):
//   spring  C = angleB - angleA - reference,  Cdot = wB - wA,  K = iA + iB
//           soft with the user's hertz / damping; a physical spring, so it
//           acts in the relax pass too. hertz = 0 means no spring (not a
//           rigid lock, which is what makeSoft(0) would give).
//   motor   Cdot = wB - wA - speed, impulse clamped to ±h·maxMotorTorque
//   limits  lower: C = angle - lower >= 0; upper: C = upper - angle >= 0
//           (speculative one-sided rows, see solveLimitSide)
//   point   C = pB - pA (2 rows),  Cdot = vB + wB×rB - vA - wA×rA
//           J = [-I, -rA_skew, I, rB_skew],  K = 2x2 (pointK)
//           soft with the world joint softness in the solve pass, rigid
//           (no bias) in the relax pass.
// The point rows come last so the pin, the most visible error, is the one
// satisfied best at the end of a Gauss-Seidel pass. In a joint tree
// (WorldDef::enableJointDirectSolve) the direct solve takes the point rows
// of a revolute with a spring, motor or limit (JointSimData::directPoint)
// and the passes call warmStartAngular / solveAngular for the rest. Separate
// functions, dispatched in joint_solver.cpp, not a test inside solve(): that
// test cost joint_grid's plain pins 8 % of its step.
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

void prepare(const RevoluteJointDef& d, JointSimData& s, const JointBodyPose& a, const JointBodyPose& b, const StepContext& ctx) {
    // The joint angle is read only by the spring and the limits; a plain pin
    // (joint_grid's 19 800 joints) skips the atan2 (3.7 % of that step's samples).
    const bool spring = d.enableSpring && d.hertz > 0.0f;
    s.deltaAngle = spring || d.enableLimit ? unwindAngle(relativeAngle(a.q, b.q) - d.referenceAngle) : 0.0f;
    s.axialMass = invOrZero(s.invIA + s.invIB);
    s.springSoftness = makeSoft(d.hertz, d.dampingRatio, ctx.h);

    // Impulses of a feature that was switched off must not be warm started,
    // and a motor impulse must respect a max torque lowered since last step.
    if (!spring) s.springImpulse = 0.0f;
    if (!d.enableLimit) s.lowerImpulse = s.upperImpulse = 0.0f;
    const float maxMotor = d.enableMotor ? ctx.h * d.maxMotorTorque : 0.0f;
    s.motorImpulse = std::clamp(s.motorImpulse, -maxMotor, maxMotor);
}

namespace {

// The spring, motor and limit rows, in that order, on the loaded velocities.
[[gnu::always_inline]] inline void angularRows(const RevoluteParams& d, JointSimData& s, StepContext& ctx,
                                               bool useBias, const BodyState& a, const BodyState& b, Velocities& v) {
    // With no rotational freedom on either side the angular rows are void.
    const bool fixedRotation = s.invIA + s.invIB == 0.0f;

    if (d.enableSpring && d.hertz > 0.0f && !fixedRotation) {
        const float C = jointAngle(s, a, b);
        v.applyAngular(s, solveSoft(C, v.wB - v.wA, s.axialMass, s.springImpulse, s.springSoftness));
    }

    if (d.enableMotor && !fixedRotation) {
        const float Cdot = v.wB - v.wA - d.motorSpeed;
        v.applyAngular(s, solveMotor(Cdot, s.axialMass, s.motorImpulse, ctx.h * d.maxMotorTorque));
    }

    if (d.enableLimit && !fixedRotation) {
        const float angle = unwindAngle(jointAngle(s, a, b));
        // Lower side: pushes B counter-clockwise relative to A.
        float impulse = solveLimitSide(angle - d.lowerAngle, v.wB - v.wA, s.axialMass, s.lowerImpulse,
                                       ctx.jointSoftness, ctx.inv_h, useBias);
        v.applyAngular(s, impulse);
        // Upper side: signs flipped so that C and the impulse stay positive.
        impulse = solveLimitSide(d.upperAngle - angle, v.wA - v.wB, s.axialMass, s.upperImpulse, ctx.jointSoftness,
                                 ctx.inv_h, useBias);
        v.applyAngular(s, -impulse);
    }
}

// Both forms of each pass: PointRows false when the direct solve has the
// point rows. One body each, instantiated twice: with PointRows the code is
// what the revolute was before the direct solve took any of its rows.
template <bool PointRows>
[[gnu::always_inline]] inline void warmStartRows(JointSimData& s, StepContext& ctx) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    const float axial = s.springImpulse + s.motorImpulse + s.lowerImpulse - s.upperImpulse;

    Velocities v = load(a, b);
    if constexpr (PointRows) v.applyPoint(s, s.linearImpulse, rotate(a.dq, s.frameA), rotate(b.dq, s.frameB));
    v.applyAngular(s, axial);
    store(s, v, a, b);
}

template <bool PointRows>
[[gnu::always_inline]] inline void solveRows(const RevoluteParams& d, JointSimData& s, StepContext& ctx,
                                             bool useBias) {
    BodyState& a = ctx.state(s.indexA);
    BodyState& b = ctx.state(s.indexB);
    Velocities v = load(a, b);
    angularRows(d, s, ctx, useBias, a, b, v);

    // Point-to-point rows as one 2x2 block.
    if constexpr (PointRows) {
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
    }

    store(s, v, a, b);
}

}  // namespace

void warmStart(const RevoluteParams&, JointSimData& s, StepContext& ctx) { warmStartRows<true>(s, ctx); }

void solve(const RevoluteParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    solveRows<true>(d, s, ctx, useBias);
}

void warmStartAngular(const RevoluteParams&, JointSimData& s, StepContext& ctx) { warmStartRows<false>(s, ctx); }

void solveAngular(const RevoluteParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    solveRows<false>(d, s, ctx, useBias);
}

// Force on B at the pin; torque on B from the spring, motor and limits.
void reaction(const RevoluteParams&, const JointSimData& s, float inv_h, Vec2& force, float& torque) {
    force = inv_h * s.linearImpulse;
    torque = inv_h * (s.springImpulse + s.motorImpulse + s.lowerImpulse - s.upperImpulse);
}

}  // namespace carom::detail::joints
