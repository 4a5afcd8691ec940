// Soft contact constraints (Catto, Solver2D 2024 / Box2D v3 contact_solver.c).
//
// Each touching, enabled contact of the step is prepared once per step into
// one lane of a block of its graph colour (wide_contact.hpp; the fields of
// ContactConstraint, which the kernel tests pack with packLane):
//
//   rA, rB        contact point relative to each centre of mass at the step
//                 start (world orientation), fixed for the whole step
//   baseSeparation = separation - dot(rB - rA, n), so that during substeps
//                 s = dot(dpB - dpA + dqB·rB - dqA·rA, n) + baseSeparation
//                 is the current separation without re-running collision
//   normalMass    1 / (mA + mB + iA (rA×n)² + iB (rB×n)²), same for tangent;
//                 under a motion lock mA is nᵀ diag(mAx, mAy) n (infinite
//                 mass on the locked axis), and impulses move vx by mAx·Px,
//                 vy by mAy·Py
//   softness      contact hertz / damping; staticSoftness (twice as stiff)
//                 when one body has infinite mass
//
// Normal row per substep (accumulated impulse λ ≥ 0):
//   s > 0   speculative: bias = s / h, rigid (the gap may close, no more)
//   s ≤ 0   useBias: bias = max(biasRate·s, -contactPushMaxSpeed), soft mass
//           relax:   bias = 0, rigid (removes the push-out velocity)
//   Δλ = -normalMass·massScale·(vn + bias) - impulseScale·λ
// The two normal rows of a two-point manifold are solved together (the 2×2
// LCP by enumeration of its four cases, Box2D v2.4's block solver, and its
// soft analogue): one Gauss-Seidel sweep over two corners of a box that
// lands fast leaves it rocking and bouncing.
// Friction: Coulomb box |λt| ≤ μ λn with the current λn, on the sliding
// speed vt - tangentSpeed (conveyors, see contact_solver.cpp). Rolling resistance:
// an angular row clamped to rollingResistance·Σλn. Restitution after the
// substeps: points that approached faster than the threshold and pushed get
// vn → -e·vn0.
#pragma once

#include <span>
#include <vector>

#include <carom/math.hpp>

#include "solver/solver_types.hpp"

namespace carom::detail {

struct Contact;

/// A stacking contact: its normal (A to B) within 45 degrees of up, against
/// gravity (up is zero without gravity: no contact stacks). Returns +1 when
/// A is the lower body (the normal points up), -1 when B is, 0 otherwise.
/// The shock-scaled relax pass (WorldDef::tuning.relaxShockScale) scales the
/// lower body; the light supports (engine/world/solver_step.cpp) raise it. The
/// threshold is not sensitive: cosines of 0.5 and 0.9 give about the same
/// stacks (docs/stability.md).
inline int stackingLowerSide(float nx, float ny, Vec2 up) {
    constexpr float kStackingCos = 0.70710678f;
    const float along = nx * up.x + ny * up.y;
    return along > kStackingCos ? 1 : along < -kStackingCos ? -1 : 0;
}

/// The normal velocity of B relative to A at a point with arms rA, rB
/// (negative: approaching): prepare's ContactConstraintPoint::relativeVelocity.
inline float pointNormalVelocity(Vec2 n, Vec2 vA, float wA, Vec2 rA, Vec2 vB, float wB, Vec2 rB) {
    const Vec2 a = vA + crossSV(wA, rA);
    const Vec2 b = vB + crossSV(wB, rB);
    return dot(n, b - a);
}

/// What prepare needs of one body, gathered once per body per step
/// (solver_step.cpp): the awake bodies first, in solver order, then the
/// static or sleeping bodies the step's contacts touch. Prepare then reads
/// neither the 296-byte Body records nor the Shape records.
struct PrepBody {
    Vec2 offset{0.0f, 0.0f};  ///< body origin minus centre of mass (xf.p - center)
    Vec2 v{0.0f, 0.0f};       ///< the Body's velocity (not the motion-locked state)
    float w = 0.0f;
    int solverIndex = -1;  ///< index in the step's states, -1: static or asleep
    BodyParams params{};   ///< the step's params (zero, infinite mass, when solverIndex is -1)
};

/// Per contact slot: the PrepBody of body A and of body B (written by the
/// step's gather for its touching contacts only).
struct ContactBodies {
    int a = -1, b = -1;
};

struct ContactConstraintPoint {
    Vec2 rA{0.0f, 0.0f};
    Vec2 rB{0.0f, 0.0f};
    float baseSeparation = 0.0f;
    float relativeVelocity = 0.0f;  ///< normal velocity at prepare (restitution, hit events)
    float normalImpulse = 0.0f;
    float tangentImpulse = 0.0f;
    float totalNormalImpulse = 0.0f;  ///< sum over the step (did it push?)
    float normalMass = 0.0f;
    float tangentMass = 0.0f;
};

struct ContactConstraint {
    int contact = -1;
    int indexA = -1, indexB = -1;  ///< solver indices (-1: static or asleep)
    Vec2 normal{0.0f, 0.0f};
    // Inverse masses along world x (invMassA, invMassB) and y (invMassAy,
    // invMassBy): equal unless a motion lock holds an axis (BodyParams).
    float invMassA = 0.0f, invIA = 0.0f;
    float invMassB = 0.0f, invIB = 0.0f;
    float invMassAy = 0.0f, invMassBy = 0.0f;
    float friction = 0.0f;
    float tangentSpeed = 0.0f;  ///< conveyor: friction drives vt to it (contact_solver.cpp)
    float restitution = 0.0f;
    float rollingResistance = 0.0f;
    float rollingMass = 0.0f;
    float rollingImpulse = 0.0f;
    Softness softness{};
    int pointCount = 0;
    ContactConstraintPoint points[2];
    // Two-point normal block (relax pass): K = [k11 k12; k12 k22] and its inverse.
    bool blockSolve = false;
    float k11 = 0.0f, k12 = 0.0f, k22 = 0.0f;
    float m11 = 0.0f, m12 = 0.0f, m22 = 0.0f;
};

// The passes (warm start, solve, relax, restitution) run on the constraints
// packed into blocks of lanes: wide_contact.hpp, which also prepares the
// blocks from the contacts and stores their impulses back.

}  // namespace carom::detail
