// Gear joint: couples two revolute or prismatic joints so that
//   C = coordinateA + ratio·coordinateB - constant = 0
// (Box2D v2.4 b2GearJoint's constraint, written for the soft step).
//
// Each geared joint has a base body (its bodyA) and a moving body (its
// bodyB, which is the gear's own bodyA or bodyB). With scale 1 for jointA and
// ratio for jointB, a side contributes to the one row J:
//   revolute   coordinate = angleMoving - angleBase - reference
//              moving: [0, +scale]                    base: [0, -scale]
//   prismatic  coordinate = u·d,  d = pMoving - pBase, u turning with base
//              moving: [scale·u, scale·(rM×u)]        base: [-scale·u, -scale·((d + rBase)×u)]
//              (the base's lever arm reaches the moving anchor because the
//              axis turns with the base; same derivation as the prismatic joint)
// Up to four bodies take part, and they may coincide (two joints on one
// chassis, or jointB's base being jointA's moving body): rows of one body are
// merged, so K = Σ invMass |Jv|² + invI Jw² is that of the true Jacobian.
// The row is soft with the world joint softness in the solve pass and rigid in
// the relax pass, like every rigid joint row; the Jacobian is taken once per
// step (it is exact for revolute sides and turns with the base for prismatic
// ones), the position error C every substep.
//
// Whole turns. Bodies store a rotation, not an angle, so a revolute side's
// coordinate is counted by the world layer (engine/world/joint.cpp,
// measureGear, which reads the geared joints and their bodies): every step
// adds the change of the joint angle since the last step, unwound into
// (-π, π]. A body turns by less than π per step (kMaxRotation), so no turn is
// lost; a teleport of more than half a turn between steps is taken the short
// way round. This file only reads the measured GearSides.
#include "solver/joint_internal.hpp"

namespace carom::detail::joints {

namespace {

// The side's coordinate at the current substep pose.
float currentCoordinate(const GearSide& side, const StepContext& ctx) {
    const BodyState& base = ctx.state(side.indexBase);
    const Rot dqBase = base.dq;
    const Vec2 dpBase = base.dp;
    const BodyState& moving = ctx.state(side.indexMoving);
    if (!side.prismatic) return side.coordinate + relativeAngle(dqBase, moving.dq);
    const Vec2 rBase = rotate(dqBase, side.frameBase);
    const Vec2 rMoving = rotate(moving.dq, side.frameMoving);
    const Vec2 d = side.deltaCenter + (moving.dp - dpBase) + (rMoving - rBase);
    return dot(rotate(dqBase, side.axis), d);
}

void addRow(GearSolverData& g, const StepContext& ctx, int index, Vec2 linear, float angular) {
    if (index < 0) return;  // static or asleep: immovable, no part in K
    for (int k = 0; k < g.rowCount; ++k) {
        if (g.rows[k].index == index) {
            g.rows[k].linear += linear;
            g.rows[k].angular += angular;
            return;
        }
    }
    const BodyParams p = ctx.paramsOf(index);
    g.rows[g.rowCount++] = GearRow{index, p.invMass, p.invInertia, linear, angular};
}

void addSide(GearSolverData& g, const StepContext& ctx, const GearSide& side, float scale) {
    if (!side.prismatic) {
        addRow(g, ctx, side.indexMoving, {0.0f, 0.0f}, scale);
        addRow(g, ctx, side.indexBase, {0.0f, 0.0f}, -scale);
        return;
    }
    const Vec2 u = side.axis;
    addRow(g, ctx, side.indexMoving, scale * u, scale * cross(side.frameMoving, u));
    addRow(g, ctx, side.indexBase, -scale * u,
           -scale * cross(side.deltaCenter + side.frameMoving, u));
}

void applyImpulse(const GearSolverData& g, StepContext& ctx, float impulse) {
    for (int k = 0; k < g.rowCount; ++k) {
        const GearRow& r = g.rows[k];
        BodyState& st = ctx.state(r.index);
        st.v += (r.invMass * impulse) * r.linear;
        st.w += r.invI * impulse * r.angular;
    }
}

}  // namespace

void prepare(const GearJointDef& d, JointSimData& s, const JointBodyPose&, const JointBodyPose&,
             const StepContext& ctx) {
    // The sides were measured by the world layer (measureGear).
    GearSolverData& g = ctx.gears[size_t(s.gearSlot)];
    g.rowCount = 0;
    addSide(g, ctx, g.sides[0], 1.0f);
    addSide(g, ctx, g.sides[1], d.ratio);
    float k = 0.0f;
    for (int r = 0; r < g.rowCount; ++r)
        k += g.rows[r].invMass * lengthSquared(g.rows[r].linear) +
             g.rows[r].invI * g.rows[r].angular * g.rows[r].angular;
    s.axialMass = invOrZero(k);
    // Only the ratio row: nothing else is warm started.
    s.linearImpulse = {0.0f, 0.0f};
    s.angularImpulse = s.perpImpulse = s.motorImpulse = s.lowerImpulse = s.upperImpulse = 0.0f;
    if (g.rowCount == 0) s.springImpulse = 0.0f;
}

void warmStart(const GearParams&, JointSimData& s, StepContext& ctx) {
    applyImpulse(ctx.gears[size_t(s.gearSlot)], ctx, s.springImpulse);
}

void solve(const GearParams& d, JointSimData& s, StepContext& ctx, bool useBias) {
    const GearSolverData& g = ctx.gears[size_t(s.gearSlot)];
    if (g.rowCount == 0) return;
    float Cdot = 0.0f;
    for (int k = 0; k < g.rowCount; ++k) {
        const BodyState& st = ctx.state(g.rows[k].index);
        Cdot += dot(g.rows[k].linear, st.v) + g.rows[k].angular * st.w;
    }
    float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
    if (useBias) {
        const float C = currentCoordinate(g.sides[0], ctx) +
                        d.ratio * currentCoordinate(g.sides[1], ctx) - g.constant;
        bias = ctx.jointSoftness.biasRate * C;
        massScale = ctx.jointSoftness.massScale;
        impulseScale = ctx.jointSoftness.impulseScale;
    }
    const float impulse = -massScale * s.axialMass * (Cdot + bias) - impulseScale * s.springImpulse;
    s.springImpulse += impulse;
    applyImpulse(g, ctx, impulse);
}

// Force and torque on the gear's bodyB (jointB's moving body) from the ratio
// row: J's part for that body (ratio times its side's) times the impulse.
void reaction(const GearParams& d, const JointSimData& s, const StepContext& ctx, Vec2& force,
              float& torque) {
    const GearSide& side = ctx.gears[size_t(s.gearSlot)].sides[1];
    const float lambda = ctx.inv_h * s.springImpulse * d.ratio;
    if (side.prismatic) {
        force = lambda * side.axis;
        torque = lambda * cross(side.frameMoving, side.axis);
    } else {
        force = {0.0f, 0.0f};
        torque = lambda;
    }
}

}  // namespace carom::detail::joints
