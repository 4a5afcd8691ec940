// Joint constraints for the soft-step solver (see solver_types.hpp).
//
// The solver never sees the world: the world layer (engine/world/
// solver_step.cpp) gathers each awake joint into a JointSim, the joint's
// compact solver record, and hands prepareJoint the
// joint's def and the two bodies' step-start poses (JointBodyPose). Then, for
// every JointSim:
//   prepareJoint    once per step: anchors, effective masses, softness, and
//                   the def's solve-time parameters copied into JointParams
//   warmStartJoints each substep, before solving: apply last impulses
//   solveJoints     each substep, with useBias = true (soft, position-correcting)
//                   and again in the relax pass with useBias = false
//   finishJoint     after the substeps: reaction force / torque for the API
// warmStartJoints and solveJoints walk a run of JointSims (in graph-colour
// order) with a switch on the type: they touch the sims and the body states,
// nothing else (a gear also its GearSolverData, StepContext::gears).
//
// Pose convention. prepareJoint reads each body's pose at the start of the
// step (JointBodyPose: rotation, centre, local centre). During the substeps a
// body's pose is that pose moved by its BodyState: centre + dp, rotation dq * q.
// Anchors are therefore stored once per step as vectors from the centre of
// mass in world orientation (frameA, frameB) and rotated by dq in each
// substep; the separation of the anchors is deltaCenter + (dpB - dpA) +
// (rB - rA). This is Box2D v3's "relative position" trick: no transform is
// rebuilt per substep and far-from-origin worlds keep their precision.
//
// Impulse convention. Every accumulated impulse is the impulse of ONE
// substep (warm starting re-applies it at the start of each substep), so the
// constraint force is impulse / h, not impulse / dt: finishJoint uses inv_h.
// The impulses live across steps in the world's joint record (a
// JointCarried): the world copies them (loadCarried) into the JointSim
// before prepareJoint and back after finishJoint.
//
// A joint whose bodies both have solver index -1 (two static bodies, or a
// static and a sleeping one) is marked inactive by prepareJoint; the other
// calls then do nothing and the reaction is zero.
//
// Threads. prepareJoint and finishJoint write only their JointSim (and a
// gear's own GearSolverData); warmStartJoints and solveJoints write the
// states of each joint's movable sides (writeA, writeB) and nothing else, a
// gear those of up to four bodies. The step runs them in parallel over
// joints of one graph colour (solver_step.cpp), gears in the overflow.
#pragma once

#include <variant>

#include <carom/joint.hpp>
#include <carom/math.hpp>

#include "solver/solver_types.hpp"

namespace carom::detail {

/// A joint's creation def (kept current by the World setters): the source
/// of its parameters. The alternative's index is the JointType.
using JointDefVariant = std::variant<RevoluteJointDef, PrismaticJointDef, DistanceJointDef,
                                     WeldJointDef, WheelJointDef, MotorJointDef, MouseJointDef,
                                     GearJointDef, PulleyJointDef, RopeJointDef, FilterJointDef>;

/// What prepareJoint reads about one body, gathered by the world layer.
struct JointBodyPose {
    Rot q{};                       ///< rotation at step start
    Vec2 center{0.0f, 0.0f};       ///< centre of mass at step start, world
    Vec2 localCenter{0.0f, 0.0f};  ///< centre of mass in the body frame
    int solverIndex = -1;          ///< -1: static or asleep
};

/// One geared joint as a gear sees it (solver/joint_gear.cpp). "Moving" is
/// the geared joint's bodyB (the gear's own body), "base" its bodyA. The
/// world layer measures it at each step start (engine/world/joint.cpp,
/// measureGear); the solver builds the gear's row from it.
struct GearSide {
    int indexMoving = -1, indexBase = -1;  ///< solver indices (-1: static or asleep)
    bool prismatic = false;
    Vec2 frameMoving{
        0.0f,
        0.0f};  ///< prismatic: anchor on moving from its centre, world orientation at step start
    Vec2 frameBase{0.0f, 0.0f};    ///< prismatic: anchor on base from its centre, likewise
    Vec2 deltaCenter{0.0f, 0.0f};  ///< prismatic: centreMoving - centreBase at step start
    Vec2 axis{0.0f, 0.0f};         ///< prismatic: the axis in world orientation at step start
    // Kept across steps: the coordinate counted over whole turns.
    float coordinate = 0.0f;  ///< angle (rad) or translation (m) at step start
    float wrapped = 0.0f;     ///< revolute: the angle in (-π, π] last seen, to unwind the next
};

/// One body's part of the gear row J = [linear, angular]; rows of the same
/// body (a base shared by both joints, or one joint's base being the other's
/// moving body) are merged into one, so K and the impulses stay exact.
struct GearRow {
    int index = -1;
    float invMass = 0.0f, invI = 0.0f;
    Vec2 linear{0.0f, 0.0f};
    float angular = 0.0f;
};

struct GearSolverData {
    GearSide sides[2];
    GearRow rows[4];  ///< rows[0] is the gear's bodyA (its reaction)
    int rowCount = 0;
    float constant = 0.0f;  ///< coordinateA + ratio·coordinateB at creation
};

/// What a joint carries from one step to the next, as the world's joint
/// record keeps it (Joint::carried, written as bytes by snapshots): the
/// accumulated impulses (warm starting) and the gear slot. The rest of a
/// JointSimData is derived anew by prepareJoint each step. 36 bytes, where
/// the whole JointSimData once sat in every record (156: the step's write
/// of the impulses back touched five cache lines of a 320-byte record).
struct JointCarried {
    Vec2 linearImpulse{0.0f, 0.0f};  ///< revolute, weld, motor, mouse: point impulse on B
    float angularImpulse = 0.0f;     ///< prismatic, weld, motor, mouse
    float perpImpulse = 0.0f;        ///< prismatic, wheel
    float springImpulse = 0.0f;      ///< spring, distance rigid or spring row, gear ratio row
    float motorImpulse = 0.0f;
    float lowerImpulse = 0.0f;
    float upperImpulse = 0.0f;
    /// gear only: its GearSolverData in WorldState::gears (kept out of
    /// every joint's record: 240 bytes that the other types would carry)
    int gearSlot = -1;
};

/// Per-joint solver state for one step, prepared once per step (the
/// impulses carried in from the joint's record). One struct serves every
/// joint type; the comments say which types use a field (the rest stay zero).
/// Hot fields first: what a pin joint's warm start and solve read (indices,
/// flags, masses, anchors, the point and axial impulses, axialMass) fits in
/// the first two cache lines of its 64-byte aligned JointSim, the rest in the
/// third. The world's rigid-joint softness is StepContext::jointSoftness.
struct JointSimData {
    int indexA = -1, indexB = -1;  ///< solver indices of the bodies (-1: static or asleep)
    bool active = false;           ///< false: both bodies static/asleep, the joint is skipped
    /// The side can move (awake, some inverse mass or inertia): only such a
    /// side's state is written. A kinematic side is only read, so joints and
    /// contacts of one graph colour may share it (graph_color.hpp).
    bool writeA = false, writeB = false;
    float invMassA = 0.0f, invMassB = 0.0f;  ///< inverse masses along world x
    float invMassAy = 0.0f,
          invMassBy = 0.0f;  ///< along world y (differ from x only under a motion lock)
    float invIA = 0.0f, invIB = 0.0f;
    Vec2 frameA{0.0f, 0.0f};       ///< anchor A relative to A's centre of mass, world orientation
    Vec2 frameB{0.0f, 0.0f};       ///< anchor B relative to B's centre of mass, world orientation
    Vec2 deltaCenter{0.0f, 0.0f};  ///< centreB - centreA at the start of the step (mouse: centreB -
                                   ///< target; pulley: centreA - groundAnchorA)
    // Accumulated impulses (warm starting), joint-type specific use.
    Vec2 linearImpulse{0.0f, 0.0f};  ///< revolute, weld, motor, mouse: point impulse on B
    float springImpulse = 0.0f;      ///< spring along the axis / angle (distance: rigid or spring
                                     ///< impulse; gear: the ratio row)
    float motorImpulse = 0.0f;
    float lowerImpulse = 0.0f;  ///< limits: >= 0, pushes away from the lower bound
    float upperImpulse =
        0.0f;  ///< limits: >= 0, pushes away from the upper bound (pulley, rope: tension)
    float axialMass = 0.0f;   ///< along the axis, or rotational for revolute/weld/motor
    float deltaAngle = 0.0f;  ///< angleB - angleA - reference at step start (unwound)
    // Colder: other types' rows.
    float angularImpulse = 0.0f;  ///< prismatic, weld, motor, mouse: angular impulse on B
    float perpImpulse = 0.0f;     ///< prismatic, wheel: impulse along the axis normal
    Vec2 axisA{0.0f, 0.0f};  ///< prismatic, wheel: joint axis in world orientation at step start
                             ///< (pulley: centreB - groundAnchorB)
    // Effective masses (inverse of J M^-1 J^T for one row).
    float perpMass = 0.0f;       ///< wheel: normal to the axis
    float motorMass = 0.0f;      ///< wheel: rotational 1 / (iA + iB)
    Softness springSoftness{};   ///< user spring (weld: linear part; mouse: the target spring)
    Softness angularSoftness{};  ///< weld angular part; mouse rotational damping
    /// gear only: its GearSolverData in StepContext::gears (kept out of
    /// every joint's record: 240 bytes that the other types would carry)
    int gearSlot = -1;
};

// The def parameters the substeps read, per type: copied by prepareJoint so
// that warm start and solve never touch the def (the names are the def's).
struct RevoluteParams {
    bool enableSpring, enableMotor, enableLimit;
    float hertz, motorSpeed, maxMotorTorque, lowerAngle, upperAngle, targetAngle;
};
struct PrismaticParams {
    bool enableSpring, enableMotor, enableLimit;
    float hertz, motorSpeed, maxMotorForce, lowerTranslation, upperTranslation, targetTranslation;
};
struct DistanceParams {
    bool enableSpring, enableLimit, enableMotor;
    float length, hertz, minLength, maxLength, motorSpeed, maxMotorForce;
};
struct WeldParams {
    float linearHertz, angularHertz;
};
struct WheelParams {
    bool enableSpring, enableMotor, enableLimit;
    float hertz, motorSpeed, maxMotorTorque, lowerTranslation, upperTranslation;
};
struct MotorParams {
    float maxForce, maxTorque, correctionFactor;
};
struct MouseParams {
    float hertz, maxForce;
};
struct GearParams {
    float ratio;
};
struct PulleyParams {
    float lengthA, lengthB, ratio;
};
struct RopeParams {
    float maxLength;
};
union JointParams {
    RevoluteParams revolute;
    PrismaticParams prismatic;
    DistanceParams distance;
    WeldParams weld;
    WheelParams wheel;
    MotorParams motor;
    MouseParams mouse;
    GearParams gear;
    PulleyParams pulley;
    RopeParams rope;
};

/// A joint as the substeps see it: its type, its per-step solver data and
/// its parameters, in one contiguous record (the step keeps them in colour
/// order). Box2D v3's b2JointSim plays the same part.
struct alignas(64) JointSim {
    JointType type = JointType::Revolute;
    JointParams params{};
    JointSimData s{};
};

/// Only the carried fields (JointCarried) are copied between the world's
/// record and the step's JointSim (a third of the sim: the copies are a
/// write and a read of fresh memory per joint and step).
template <class To, class From>
inline void copyCarried(To& to, const From& from) {
    to.linearImpulse = from.linearImpulse;
    to.angularImpulse = from.angularImpulse;
    to.perpImpulse = from.perpImpulse;
    to.springImpulse = from.springImpulse;
    to.motorImpulse = from.motorImpulse;
    to.lowerImpulse = from.lowerImpulse;
    to.upperImpulse = from.upperImpulse;
    to.gearSlot = from.gearSlot;
}
inline void loadCarried(JointSimData& to, const JointCarried& from) {
    copyCarried(to, from);
}
inline void storeCarried(JointCarried& to, const JointSimData& from) {
    copyCarried(to, from);
}

/// Prepares sim (whose JointSimData holds the joint's carried impulses
/// and gear slot, loadCarried, and defaults otherwise) for this step from
/// its def and its bodies' poses. A gear's
/// GearSolverData sides must already be measured for the step.
void prepareJoint(JointSim& sim, const JointDefVariant& def, const JointBodyPose& a,
                  const JointBodyPose& b, const StepContext& ctx);
/// Over *sims[begin], ..., *sims[end - 1]: a run of one colour, in order.
void warmStartJoints(JointSim* const* sims, int begin, int end, StepContext& ctx);
void solveJoints(JointSim* const* sims, int begin, int end, StepContext& ctx, bool useBias);
/// The reaction force and torque on body B over the step.
void finishJoint(const JointSim& sim, const StepContext& ctx, Vec2& force, float& torque);

}  // namespace carom::detail
