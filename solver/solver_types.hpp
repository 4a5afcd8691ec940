// Types shared by the contact solver, the joint solver and the step.
//
// The solver follows Erin Catto's "soft step" (Solver2D, 2024; Box2D v3):
// each step is split into substeps; in each substep velocities are
// integrated, constraints are solved with a soft (spring-damper) bias, positions
// are integrated, then constraints are relaxed without bias; a restitution
// pass follows the substeps. Constraints see body poses as the pose at the
// start of the step plus a delta (dp, dq) accumulated over the substeps, so
// anchors can be prepared once per step and updated cheaply.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>

#include <carom/math.hpp>

namespace carom::detail {

struct GearSolverData;  // solver/joint_solver.hpp

/// Soft constraint coefficients for one substep of length h (see Catto,
/// "Soft Constraints", GDC 2011, and Box2D v3 solver.h):
///   omega = 2π·hertz, a1 = 2ζ + hω, a2 = hω·a1, a3 = 1/(1 + a2)
///   biasRate = ω/a1, massScale = a2·a3, impulseScale = a3
/// hertz = 0 means rigid: no bias, full mass, no impulse scaling.
struct Softness {
    float biasRate = 0.0f;
    float massScale = 1.0f;
    float impulseScale = 0.0f;
};

inline Softness makeSoft(float hertz, float zeta, float h) {
    if (hertz == 0.0f) return {0.0f, 1.0f, 0.0f};
    const float omega = 2.0f * kPi * hertz;
    const float a1 = 2.0f * zeta + h * omega;
    const float a2 = h * omega * a1;
    const float a3 = 1.0f / (1.0f + a2);
    return {omega / a1, a2 * a3, a3};
}

/// What the substep loop reads and writes for each awake non-static body:
/// 32 bytes, kept in one dense array (the world's awake set). Static and
/// sleeping bodies map to a shared zero state (index -1 → StepContext::dummy).
struct BodyState {
    Vec2 v{0.0f, 0.0f};  ///< linear velocity of the centre of mass
    float w = 0.0f;      ///< angular velocity
    uint32_t flags = 0;
    Vec2 dp{0.0f, 0.0f};  ///< centre displacement since the start of the step
    Rot dq{};             ///< rotation since the start of the step
};

/// Read-only per-step data the constraints need about a body (parallel to the state array).
struct BodyParams {
    float invMass = 0.0f;     ///< inverse mass (along an axis that is not locked)
    float invInertia = 0.0f;  ///< 0 when rotation is locked
    /// Inverse mass along world x and y: invMass, or 0 on an axis a motion
    /// lock holds (infinite mass there). Equal unless a linear lock is set.
    float invMassX = 0.0f, invMassY = 0.0f;
};

/// Whether a contact side is written back by the kernels: in the step's
/// arrays (solver index >= 0) with some inverse mass or inertia. A kinematic
/// side is only read, so constraints of one colour may share it.
inline bool writesSide(int solverIndex, float invMassX, float invMassY, float invInertia) {
    return solverIndex >= 0 && (invMassX > 0.0f || invMassY > 0.0f || invInertia > 0.0f);
}

/// Inverse mass along the unit direction d: dᵀ diag(mx, my) d. When the
/// two are equal (no linear lock) it is exactly mx, so bodies without locks
/// keep the arithmetic of a scalar mass bit for bit.
inline float linearInvMass(float mx, float my, Vec2 d) {
    return mx == my ? mx : mx * d.x * d.x + my * d.y * d.y;
}

/// Everything a constraint needs during one step.
struct StepContext {
    float dt = 0.0f, inv_dt = 0.0f;  ///< full step
    float h = 0.0f, inv_h = 0.0f;    ///< substep
    int substeps = 1;
    Softness jointSoftness{};    ///< WorldDef joint hertz/damping at h
    Softness contactSoftness{};  ///< WorldDef contact hertz/damping at h
    Softness staticSoftness{};   ///< contacts against static bodies: 2× contact hertz
    float restitutionThreshold = 1.0f;
    float maxLinearSpeed = 400.0f;
    float contactPushMaxSpeed = 3.0f;
    bool enableWarmStarting = true;      ///< WorldDef::enableWarmStarting
    float relaxShockScale = 1.0f;        ///< WorldDef::tuning.relaxShockScale (1: off)
    Vec2 up{0.0f, 0.0f};                 ///< against gravity, unit (zero without gravity)
    std::span<BodyState> states;         ///< dense awake-body states
    std::span<const BodyParams> params;  ///< parallel to states
    std::span<GearSolverData> gears;     ///< the gear joints' data (JointSimData::gearSlot)

    /// State of a body by its solver index; -1 (static or asleep) gives a zero state
    /// whose writes are discarded.
    BodyState& state(int solverIndex) const {
        return solverIndex >= 0 ? states[size_t(solverIndex)] : dummy();
    }
    BodyParams paramsOf(int solverIndex) const {
        return solverIndex >= 0 ? params[size_t(solverIndex)] : BodyParams{};
    }
    static BodyState& dummy() {
        static thread_local BodyState d;
        d = BodyState{};
        return d;
    }
};

}  // namespace carom::detail
