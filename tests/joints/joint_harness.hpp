// Test support for the joint solver: a world stepper and scene helpers.
//
// stepWorld runs Catto's soft step for bodies and joints only (no contacts),
// exactly as the engine's step drives the joint interface:
//   gather awake non-static bodies into dense BodyState / BodyParams arrays
//   prepareJoint for every joint
//   per substep: integrate velocities (gravity, forces, damping)
//                warmStartJoint, solveJoint(useBias = true)
//                integrate positions (dp += h v, dq advanced by h w)
//                solveJoint(useBias = false)   (relax)
//   finishJoint, write poses and velocities back
// It lets the joint tests run before, and independently of, the full
// pipeline in World::step (which adds broadphase, contacts and islands).
#pragma once

#include <vector>

#include <carom/world.hpp>

#include "engine/src/world_impl.hpp"
#include "solver/joint_solver.hpp"
#include "solver/solver_types.hpp"

namespace carom::test {

class JointStepper {
public:
    void step(World& world, float dt, int substeps = 4) {
        detail::WorldImpl& w = world.impl();
        const float h = dt / float(substeps);

        states_.clear();
        params_.clear();
        for (detail::Body& b : w.bodies) {
            b.solverIndex = -1;
            if (!b.alive || !b.awake || b.type == BodyType::Static) continue;
            b.solverIndex = int(states_.size());
            detail::BodyState s;
            s.v = b.v;
            s.w = b.w;
            states_.push_back(s);
            params_.push_back({b.invMass, b.invInertia});
        }

        detail::StepContext ctx;
        ctx.dt = dt;
        ctx.inv_dt = 1.0f / dt;
        ctx.h = h;
        ctx.inv_h = 1.0f / h;
        ctx.substeps = substeps;
        ctx.jointSoftness = detail::makeSoft(w.def.jointHertz, w.def.jointDampingRatio, h);
        ctx.states = states_;
        ctx.params = params_;
        ctx.world = &w;

        for (detail::Joint& j : w.joints)
            if (j.alive) detail::prepareJoint(w, j, ctx);

        for (int i = 0; i < substeps; ++i) {
            for (const detail::Body& b : w.bodies) {
                if (b.solverIndex < 0 || b.type != BodyType::Dynamic) continue;
                detail::BodyState& s = states_[size_t(b.solverIndex)];
                const Vec2 accel = b.gravityScale * w.def.gravity + b.invMass * b.force;
                s.v = (1.0f / (1.0f + h * b.linearDamping)) * (s.v + h * accel);
                s.w = (1.0f / (1.0f + h * b.angularDamping)) * (s.w + h * b.invInertia * b.torque);
            }
            for (detail::Joint& j : w.joints)
                if (j.alive) detail::warmStartJoint(j, ctx);
            for (detail::Joint& j : w.joints)
                if (j.alive) detail::solveJoint(j, ctx, true);
            for (detail::BodyState& s : states_) {
                s.dp += h * s.v;
                s.dq = integrateRot(s.dq, h * s.w);
            }
            for (detail::Joint& j : w.joints)
                if (j.alive) detail::solveJoint(j, ctx, false);
        }

        for (detail::Joint& j : w.joints)
            if (j.alive) detail::finishJoint(j, ctx);

        for (detail::Body& b : w.bodies) {
            if (b.solverIndex < 0) continue;
            const detail::BodyState& s = states_[size_t(b.solverIndex)];
            b.center += s.dp;
            b.xf.q = normalizeRot(mulRot(s.dq, b.xf.q));
            b.xf.p = b.center - rotate(b.xf.q, b.localCenter);
            b.v = s.v;
            b.w = s.w;
            b.solverIndex = -1;
        }
    }

private:
    std::vector<detail::BodyState> states_;
    std::vector<detail::BodyParams> params_;
};

/// Steps the world through the joint harness.
inline void stepWorld(World& world, JointStepper& stepper, float dt = 1.0f / 60.0f, int substeps = 4) {
    stepper.step(world, dt, substeps);
}

inline BodyId addStatic(World& world, Vec2 p = {0.0f, 0.0f}) {
    BodyDef d;
    d.type = BodyType::Static;
    d.position = p;
    return world.createBody(d);
}

/// A dynamic box of half extents (hx, hy) and density 1 kg/m².
inline BodyId addBox(World& world, Vec2 p, float hx, float hy, float angle = 0.0f) {
    BodyDef d;
    d.type = BodyType::Dynamic;
    d.position = p;
    d.angle = angle;
    BodyId id = world.createBody(d);
    world.createShape(id, ShapeDef{}, makeBox(hx, hy));
    return id;
}

/// A dynamic disc of the given radius and density 1 kg/m².
inline BodyId addDisc(World& world, Vec2 p, float radius) {
    BodyDef d;
    d.type = BodyType::Dynamic;
    d.position = p;
    BodyId id = world.createBody(d);
    world.createShape(id, ShapeDef{}, Circle{{0.0f, 0.0f}, radius});
    return id;
}

/// World position of a joint's anchor on A and on B.
inline Vec2 anchorA(const World& world, JointId j) {
    return world.worldPoint(world.jointBodyA(j), world.jointLocalAnchorA(j));
}
inline Vec2 anchorB(const World& world, JointId j) {
    return world.worldPoint(world.jointBodyB(j), world.jointLocalAnchorB(j));
}

}  // namespace carom::test
