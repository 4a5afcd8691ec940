// Joint constraints for the soft-step solver (see solver_types.hpp).
//
// Each joint keeps its solver data here; the step calls, for every joint
// whose bodies are awake (joints between two static bodies are ignored):
//   prepareJoint    once per step: anchors, effective masses, softness
//   warmStartJoint  each substep, before solving: apply last impulses
//   solveJoint      each substep, with useBias = true (soft, position-correcting)
//                   and again in the relax pass with useBias = false
//   finishJoint     after the substeps: reaction force / torque for the API
#pragma once

#include <carom/math.hpp>

#include "solver/solver_types.hpp"

namespace carom::detail {

struct Joint;

/// Per-joint solver state, prepared once per step and carried across steps
/// for warm starting.
struct JointSolverData {
    int indexA = -1, indexB = -1;        ///< solver indices of the bodies (-1: static or asleep)
    Vec2 frameA{0.0f, 0.0f};             ///< anchor A relative to A's centre of mass, world orientation
    Vec2 frameB{0.0f, 0.0f};             ///< anchor B relative to B's centre of mass, world orientation
    Vec2 deltaCenter{0.0f, 0.0f};        ///< centreB - centreA at the start of the step
    float invMassA = 0.0f, invMassB = 0.0f;
    float invIA = 0.0f, invIB = 0.0f;
    // Accumulated impulses (warm starting), joint-type specific use.
    Vec2 linearImpulse{0.0f, 0.0f};
    float angularImpulse = 0.0f;
    float springImpulse = 0.0f;
    float motorImpulse = 0.0f;
    float lowerImpulse = 0.0f;
    float upperImpulse = 0.0f;
    float axialMass = 0.0f;
    Softness springSoftness{};
    Softness jointSoftness{};
};

void prepareJoint(WorldImpl& world, Joint& joint, StepContext& ctx);
void warmStartJoint(Joint& joint, StepContext& ctx);
void solveJoint(Joint& joint, StepContext& ctx, bool useBias);
void finishJoint(Joint& joint, const StepContext& ctx);

}  // namespace carom::detail
