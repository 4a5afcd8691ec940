// The stages of World::step and the scratch memory they reuse.
//
// WorldImpl::step (engine/world/world.cpp) calls, in order:
//   updatePairs        broadphase: new overlapping pairs → contacts
//   updateContacts     narrowphase: manifolds, begin/end, islands (contact.cpp)
//   solveStep          solver: awake arrays, constraints, substeps (solver_step.cpp)
//   solveContinuous    time of impact for fast bodies (continuous.cpp)
//   finalizeStep       proxies, sensors, hit events, sleep, move events
// Every vector below is cleared, never shrunk, so a warmed-up step allocates
// nothing.
#pragma once

#include <utility>
#include <vector>

#include <carom/events.hpp>

#include "broadphase/broadphase.hpp"
#include "solver/contact_solver.hpp"
#include "solver/graph_color.hpp"
#include "solver/joint_direct.hpp"
#include "solver/joint_solver.hpp"
#include "solver/parallel.hpp"
#include "solver/solver_types.hpp"
#include "solver/wide_contact.hpp"

namespace carom::detail {

/// Two bullets meeting at fraction t of the step (continuous.cpp).
struct BulletMeeting {
    float t = 1.0f;
    int bodyA = -1, bodyB = -1;  ///< body indices, bodyA < bodyB
    int stopOnly = -1;           ///< a meeting with a stopped bullet: the body that stops, else -1
};

struct WorldImpl;

/// A joint the step solves, with the bodies it writes (the colouring's input).
struct GatheredJoint {
    int joint = -1;
    ColorBodies bodies;
};

/// gatherJoints' output for one range of awake bodies: the joints and,
/// parallel, their prepared JointSims (which stay here for the whole step).
struct JointChunk {
    std::vector<GatheredJoint> joints;
    std::vector<JointSim> sims;
    /// WorldDef::tuning.enableJointDirectSolve: the joints of this chunk that the
    /// direct solve may take (JointDirect::offer), found while each sim is in
    /// cache; position is the index in joints/sims.
    std::vector<DirectOffer> offers;
};

/// What the velocity integration needs per awake body, parallel to the states.
struct BodyMotion {
    Vec2 linearAccel{0.0f, 0.0f};  ///< gravity·scale + force/m
    float angularAccel = 0.0f;     ///< torque/I
    float linearDamping = 0.0f;
    float angularDamping = 0.0f;
    bool dynamic = false;
};

/// StepScratch::bodyFlags bits: continuous collision's fast and bullet
/// bodies (finalizeBodies), a proxy refitted and the body stopped at the
/// bounds (finishBodyBoxes), slow long enough to sleep, and stopped because
/// the solver left its state not finite (finalizeBodies).
constexpr uint8_t kBodyFast = 1, kBodyBullet = 2, kBoxesEscaped = 4, kBoundsStopped = 8,
                  kBodySleepy = 16, kBodyNotFinite = 32;

struct StepScratch {
    std::vector<ShapeId>
        sensorOverlaps;           ///< one sensor's overlaps before the budget cut (sensor.cpp)
    std::vector<int> stepBodies;  ///< solver index → body index (awake at solve)
    std::vector<BodyState> states;
    std::vector<BodyParams> params;
    std::vector<BodyMotion> motion;
    std::vector<int>
        activeContacts;  ///< contacts updated by the collide stage, in owner-walk order
    /// The awake bodies the collide stage walked (updateContacts): the
    /// first collideBodies of the step's bodies (gatherConstraints).
    size_t collideBodies = 0;
    std::vector<std::vector<int>>
        contactChunks;  ///< owner walks: one list per range of awake bodies (solver_step.cpp)
    std::vector<uint8_t> activeFlags;  ///< per active contact: needs the sequential pass
    std::vector<int>
        constraints;  ///< the step's touching contacts, in colour order after colouring
    std::vector<PrepBody>
        prepBodies;  ///< per solver index, then the step's static/sleeping contact bodies
    std::vector<ContactBodies>
        contactBodies;            ///< per contact slot: its bodies in prepBodies (touching ones)
    std::vector<int> prepSlot;    ///< per body slot: its prepBodies index when not awake, else -1
    std::vector<int> prepExtras;  ///< the body slots of prepBodies past the awake ones
    std::vector<int> coloredContacts;  ///< colouring scratch (swapped with constraints)
    std::vector<int> colorStarts;      ///< constraint runs per graph colour
    std::vector<int> blockStarts;      ///< block runs per graph colour (wide solver)
    ContactBlockSet
        blocks;  ///< the constraints packed 8 lanes to a block, split by the passes that read them
    std::vector<uint8_t> constraintColors;
    std::vector<uint32_t> bodyColors;      ///< per solver index: colours used
    std::vector<ColorBodies> colorBodies;  ///< colouring input: the bodies each constraint writes
    std::vector<int> solverJoints;         ///< the step's joints, in gather order (joint events)
    std::vector<JointSim*>
        gatheredSims;  ///< parallel to solverJoints: each joint's JointSim (in jointChunks)
    std::vector<int> jointPositions;     ///< colouring scratch: 0 .. joints - 1
    std::vector<int> coloredPositions;   ///< the gather positions in colour order
    std::vector<JointSim*> coloredSims;  ///< the JointSims in colour order (the substeps)
    std::vector<JointSim>
        colorOrderSims;  ///< the coloured joints' JointSims, copied in colour order
    std::vector<int>
        colorPositionOf;  ///< per gather position, its colour position (-1: a joint tree's)
    std::vector<int> jointColorStarts;    ///< joint runs per graph colour in coloredSims
    std::vector<JointChunk> jointChunks;  ///< gatherJoints: one list per range of awake bodies
    JointDirect direct;  ///< WorldDef::tuning.enableJointDirectSolve: the step's joint trees
    std::vector<int>
        iterativePositions;  ///< with trees found: the gather positions the direct solve left
    std::vector<int> directOffered;  ///< per joint offered to the direct solve: its gather position
    std::vector<uint8_t>
        directTaken;     ///< per gather position: 1 when the direct solve took the joint
    int jointTrees = 0;  ///< the step's joint trees solved directly (0: switch off or none)
    /// Light supports under heavy loads (raiseLightSupports, solver_step.cpp):
    /// the largest and smallest inverse mass of the step's dynamic bodies
    /// (gatherBodies; 0 and infinity when there is none), per solver index
    /// the inverse mass the body is solved with (its own unless raised), the
    /// bodies that may be raised, those raised and those of them in an
    /// impact (solver indices), per contact slot 1 while its lane is looked
    /// for (all zero between steps), and the lanes that restart their warm
    /// start in every substep.
    float lightestInvMass = 0.0f, heaviestInvMass = 0.0f;
    std::vector<float> supportInvMass;
    std::vector<int> supportCandidates;
    std::vector<int> raisedBodies;
    std::vector<int> impactedBodies;
    std::vector<uint8_t> contactRestart;
    std::vector<LaneRestart> laneRestarts;
    StagePlan solvePlan;          ///< the substep loop's stages (solver_step.cpp)
    std::vector<int> fastBodies;  ///< non-bullets needing time of impact
    std::vector<int> bulletBodies;
    /// Per solver index, written by the parallel passes after the solve and
    /// read back in index order (so the lists they feed do not depend on
    /// which worker finished first): finalizeBodies' fast/bullet and
    /// sleepy marks, finishBodyBoxes' "a shape left its fat box" and
    /// "stopped at the bounds" (the kBody* bits below).
    std::vector<uint8_t> bodyFlags;
    /// Where this step part's move events start in WorldImpl::moveEvents
    /// (finalizeBodies; event i is solver index i).
    size_t moveEventBase = 0;
    /// Per gathered joint (solverJoints' order): 1 when its reaction is over
    /// its force or torque threshold (the store stage; emitJointEvents).
    std::vector<uint8_t> jointOverThreshold;
    /// Per step body with kBoxesEscaped: the proxy refitted (finishBodyBoxes),
    /// or -1 when several were (updateProxies walks the body's shapes then).
    std::vector<int> escapedProxy;
    std::vector<int8_t> hitPoints;  ///< per constraint, its fastest approaching point or -1 (the
                                    ///< store stage; emitHitEvents)
    std::vector<BroadphasePair> pairs;
    std::vector<int> islandStack;  ///< island split walk
    std::vector<int> islandScratch;
    std::vector<int> candidates;                   ///< continuous collision: shapes near a sweep
    std::vector<std::vector<int>> candidateParts;  ///< the same, per part of the parallel pass
    std::vector<float>
        fastFractions;        ///< continuous: each fast body's fraction, parallel to fastBodies
    std::vector<int> movers;  ///< continuous: bullets, then fast bodies (bullet meetings)
    std::vector<float> moverFractions;  ///< each mover's fraction of its sweep, parallel to movers
    std::vector<std::pair<int, int>> bulletSlots;  ///< (body index, slot in movers), sorted
    std::vector<BulletMeeting> bulletMeetings;     ///< pending meetings (a heap)
    std::vector<AABB> bulletBoxes;  ///< continuous: box each mover swept, parallel to movers
    std::vector<int> wokenScratch;
    uint32_t visitStamp = 0;
    std::vector<uint32_t> bodyStamp;  ///< per body slot: last visit
    std::vector<int> invariantMarks;  ///< the validation build's scratch (invariants.hpp)
};

/// v brought down to length maxSpeed when longer, without overflowing for
/// any float v (solver_step.cpp); NaN passes through unchanged.
Vec2 clampLinearSpeed(Vec2 v, float maxSpeed);

void updatePairs(WorldImpl& w);
void solveStep(WorldImpl& w, float dt, int substeps);
void solveContinuous(WorldImpl& w, float dt);
void updateProxies(WorldImpl& w);
void updateSensors(WorldImpl& w);
void emitHitEvents(WorldImpl& w);

/// Recomputes a body's extents (continuous collision, sleep) from its shapes.
void updateBodyExtents(WorldImpl& w, int bodyIndex);

/// The broadphase proxy type of a body type's shapes.
ProxyType proxyTypeOf(BodyType t);
/// Broadphase proxy bookkeeping used by the object lifecycle (shape.cpp, body.cpp).
void createShapeProxy(WorldImpl& w, int shapeIndex);
void destroyShapeProxy(WorldImpl& w, int shapeIndex);
/// Teleport or geometry change: new boxes, proxies moved and re-searched.
void resyncBodyProxies(WorldImpl& w, int bodyIndex);

}  // namespace carom::detail
