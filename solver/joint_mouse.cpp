// Mouse (target) joint: pulls a point of B towards a world target with a
// soft spring of bounded force, for dragging bodies (Box2D v3 mouse_joint.c).
//
// Body A is only a reference (usually the ground) and is never moved.
//   linear   C = pB - target (2 rows),  Cdot = vB + wB×rB,
//            K = mB I + iB [rB.y², -rB.x rB.y; .., rB.x²]
//            soft with the joint's own hertz / damping in both passes (it is
//            a physical spring), accumulated impulse clamped to a disc of
//            radius h·maxForce. hertz = 0 means no pull at all.
//   angular  a light rotational damper on B (0.5 Hz, damping ratio 0.1, no
//            bias): grabbing a body off its centre would otherwise let it spin
//            up around the grab point; the damper bleeds that spin off over a
//            second or so without fighting the drag.
// Equilibrium with the grab point at the centre of mass under a steady force
// F (e.g. gravity): C = -F / (m ω²), ω = 2π·hertz (the tests check this).
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

namespace {
constexpr float kSpinDampingHertz = 0.5f;
constexpr float kSpinDampingRatio = 0.1f;
}  // namespace

void prepare(const MouseJointDef& d, JointSimData& s, const JointBodyPose&, const JointBodyPose& b,
             const StepContext& ctx) {
    // The target is a fixed world point: measure B's centre from it.
    s.deltaCenter = b.center - d.target;
    s.invMassA = s.invMassAy = s.invIA = 0.0f;
    s.indexA = -1;
    s.active = s.indexB >= 0;
    s.springSoftness = makeSoft(d.hertz, d.dampingRatio, ctx.h);
    if (d.hertz == 0.0f) s.linearImpulse = {0.0f, 0.0f};
    s.angularSoftness = makeSoft(kSpinDampingHertz, kSpinDampingRatio, ctx.h);
}

void warmStart(const MouseParams&, JointSimData& s, StepContext& ctx) {
    BodyState& b = ctx.state(s.indexB);
    if (!s.writeB) return;  // a kinematic B: nothing to move, and only read (see store)
    const Vec2 rB = rotate(b.dq, s.frameB);
    b.v += deltaB(s, s.linearImpulse);
    b.w += s.invIB * (cross(rB, s.linearImpulse) + s.angularImpulse);
}

void solve(const MouseParams& d, JointSimData& s, StepContext& ctx, bool) {
    BodyState& b = ctx.state(s.indexB);
    Vec2 vB = b.v;
    float wB = b.w;

    // Rotational damper: a soft row driving wB to zero with no position term.
    if (s.invIB > 0.0f) {
        const float impulse = s.angularSoftness.massScale * (-wB / s.invIB) -
                              s.angularSoftness.impulseScale * s.angularImpulse;
        s.angularImpulse += impulse;
        wB += s.invIB * impulse;
    }

    // Target spring.
    if (d.hertz > 0.0f) {
        const Vec2 rB = rotate(b.dq, s.frameB);
        const Vec2 C = s.deltaCenter + b.dp + rB;
        const Vec2 Cdot = vB + crossSV(wB, rB);
        const float k11 = s.invMassB + s.invIB * rB.y * rB.y;
        const float k12 = -s.invIB * rB.x * rB.y;
        const float k22 = s.invMassBy + s.invIB * rB.x * rB.x;
        const Vec2 x = solve22(k11, k12, k22, Cdot + s.springSoftness.biasRate * C);
        const Vec2 impulse =
            -s.springSoftness.massScale * x - s.springSoftness.impulseScale * s.linearImpulse;

        const Vec2 old = s.linearImpulse;
        const float maxImpulse = ctx.h * d.maxForce;
        s.linearImpulse += impulse;
        if (lengthSquared(s.linearImpulse) > maxImpulse * maxImpulse)
            s.linearImpulse = maxImpulse * normalizeOrZero(s.linearImpulse);
        const Vec2 applied = s.linearImpulse - old;
        vB += deltaB(s, applied);
        wB += s.invIB * cross(rB, applied);
    }

    if (s.writeB) {
        b.v = vB;
        b.w = wB;
    }
}

void reaction(const MouseParams&, const JointSimData& s, float inv_h, Vec2& force, float& torque) {
    force = inv_h * s.linearImpulse;
    torque = inv_h * s.angularImpulse;
}

}  // namespace carom::detail::joints
