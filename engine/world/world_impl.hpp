// The world's internal state, shared by the engine's modules.
//
// Storage essay. Every object kind lives in a std::vector of slots indexed by
// the id's index; a slot keeps a generation counter that is bumped when its
// object dies, and freed slots are reused through a free list. Ids therefore
// stay small ints (cheap to store, cheap to look up, no pointers to dangle)
// and a stale id is detected by comparing generations. Slots are never
// shrunk, so indices stay valid while objects come and go.
//
// Polygons of up to kInlinePolygonVertices (8) vertices, boxes among them,
// live in the shape itself (an InlinePolygon, 144 bytes, as Box2D v3's
// b2Polygon): the narrowphase reads them without a pool access. Larger hulls
// (up to kMaxPolygonVertices, a 1 KB Polygon) live in their own pool.
//
// What the solver iterates every substep is not stored here but gathered
// into dense arrays once per step (see solver_step.cpp), so the slot layout can
// favour simple bookkeeping.
#pragma once

#include "engine/core/platform.hpp"
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <carom/world.hpp>

#include "broadphase/broadphase.hpp"
#include "narrowphase/narrowphase.hpp"
#include "engine/core/small_list.hpp"
#include "engine/world/contact.hpp"
#include "engine/world/island.hpp"
#include "solver/joint_solver.hpp"
#include "engine/world/pair_map.hpp"
#include "solver/parallel.hpp"
#include "solver/solver_types.hpp"
#include "engine/world/world_solver.hpp"
#include "engine/world/seams.hpp"

namespace carom::detail {

struct Body {
    uint32_t generation = 1;
    bool alive = false;
    uint64_t creationSeq = 0;  ///< order of creation (bodies() and the hash use it)

    BodyType type = BodyType::Static;
    Transform xf{};                ///< body origin frame
    Vec2 center{0.0f, 0.0f};       ///< world centre of mass
    Vec2 localCenter{0.0f, 0.0f};  ///< centre of mass in the body frame
    Vec2 center0{0.0f, 0.0f};      ///< centre of mass at the start of the step (sweeps)
    Rot q0{};                      ///< rotation at the start of the step
    Vec2 v{0.0f, 0.0f};            ///< linear velocity of the centre of mass
    float w = 0.0f;                ///< angular velocity
    Vec2 force{0.0f, 0.0f};        ///< accumulated for the next step
    float torque = 0.0f;

    float mass = 0.0f, invMass = 0.0f;
    float inertia = 0.0f, invInertia = 0.0f;  ///< about the centre of mass
    bool massOverridden = false;

    float linearDamping = 0.0f, angularDamping = 0.0f;
    float gravityScale = 1.0f;
    float sleepThreshold = 0.05f;
    float sleepTime = 0.0f;
    bool fixedRotation = false;  ///< MotionLocks::angularZ
    bool lockLinearX = false;    ///< MotionLocks::linearX
    bool lockLinearY = false;    ///< MotionLocks::linearY
    bool enabled = true;         ///< false: out of the simulation (World::disableBody)
    bool isBullet = false;
    bool awake = true;
    bool enableSleep = true;
    bool isFast = false;  ///< used continuous collision in the last step
    /// Position in the dense arrays of the last step the body was awake in,
    /// and of its move event (gatherBodies). Never reset: read only for a
    /// body of the current step (updateSleep's fell-asleep mark). Whether a
    /// body is in the step is awakeIndex >= 0, which equals stepIndex from
    /// gatherBodies to the sleep stage. Here, in the padding before
    /// userData, on a line the step's body passes touch anyway.
    int stepIndex = -1;
    void* userData = nullptr;

    SmallIntList shapes;      ///< shape slots attached (inline up to 4: engine/core/small_list.hpp)
    std::vector<int> joints;  ///< joint slots attached
    std::vector<int> chains;  ///< chain slots attached
    std::vector<int> contacts;  ///< contact slots, in creation order

    int islandId = -1;    ///< solver: island slot, -1 when static or unlinked
    int awakeIndex = -1;  ///< index in WorldImpl::awakeBodies, -1 when static/asleep
    bool extentsDirty =
        false;  ///< minExtent/maxExtent wait for refreshExtents (after a shape change)
    // Sums over the shapes with density, in list order, as updateBodyMass
    // accumulates them: a shape appended to the list adds its share in O(1)
    // with the same float operations a full recomputation would do.
    bool massSumsValid = false;
    /// BodyDef::enableContactReuse (in the padding before sumMass).
    bool enableContactReuse = true;
    float sumMass = 0.0f;
    Vec2 sumMoment{0.0f, 0.0f};
    float sumInertiaAtOrigin = 0.0f;
    float minExtent = 0.0f;   ///< smallest shape half-thickness (continuous threshold)
    float maxExtent = 0.0f;   ///< largest distance of a shape point from the centre of mass
    Vec2 ccdEnd{0.0f, 0.0f};  ///< centre the solver reached before a time of impact (drawing)
};

struct Shape {
    uint32_t generation = 1;
    bool alive = false;
    int body = -1;
    ShapeType type = ShapeType::Circle;
    union Geometry {
        Circle circle;
        Capsule capsule;
        Segment segment;
        ChainSegment chainSegment;
        InlinePolygon polygon;  ///< type == Polygon with no pool slot
        Geometry() : circle{} {}
    } geom;
    int bodySlot = -1;  ///< index in its body's shapes list (O(1) removal by swap with the last)
    int polygon =
        -1;  ///< slot in WorldImpl::polygons for a Polygon of more than kInlinePolygonVertices
    int chain = -1;  ///< chain slot when type == ChainSegment

    float density = 1.0f;
    float friction = 0.6f;
    float restitution = 0.0f;
    float rollingResistance = 0.0f;
    bool isSensor = false;
    bool enableContactEvents = true;
    bool enableSensorEvents = true;
    bool enableHitEvents = false;
    bool enablePreSolveEvents = false;
    float tangentSpeed = 0.0f;
    uint64_t userMaterialId = 0;
    Filter filter{};
    void* userData = nullptr;

    AABB aabb{};           ///< tight box at the current transform
    int proxy = -1;        ///< broadphase proxy
    int sensorIndex = -1;  ///< slot in WorldImpl::sensors when isSensor

    // Tile seams (engine/world/seams.cpp, WorldDef::joinTileSeams). End k is
    // point1 (k = 0) or point2 (k = 1) of a segment or of an open chain end.
    int seamShape[2] = {-1, -1};  ///< the shape whose end meets end k, -1 when none
    Vec2 seamGhost[2]{};          ///< that shape's far point, in this body's frame
    Vec2 seamPoint[2]{};          ///< end k as indexed (world frame when static, else body frame)
    int seamGroup = -1;           ///< -1: static (world frame); else the body index
    uint8_t seamEnds = 0;         ///< bit k: end k is in WorldImpl::seams
    /// A polygon tile: its slot in SeamIndex::tiles (-1: not a tile), and
    /// whether it collides through its exposed edges (it has an internal edge
    /// or a neighbour continues one of its exposed edges).
    bool seamTileLinked = false;
    int seamTile = -1;
};

/// True when either end of the shape is linked to a neighbour (tile seams).
inline bool seamLinked(const Shape& s) {
    return s.seamShape[0] >= 0 || s.seamShape[1] >= 0 || s.seamTileLinked;
}

/// A sensor shape and the shapes overlapping it after the last step,
/// sorted by shape index (so begin/end events come out in a fixed order).
struct Sensor {
    int shape = -1;
    std::vector<ShapeId> overlaps;
    std::vector<ShapeId> previous;
};

struct Chain {
    uint32_t generation = 1;
    bool alive = false;
    int body = -1;
    ChainDef def;
    std::vector<int> shapes;
};

struct Joint {
    uint32_t generation = 1;
    bool alive = false;
    uint64_t creationSeq = 0;
    JointType type = JointType::Revolute;
    int bodyA = -1, bodyB = -1;
    JointDefVariant def;  ///< creation def, kept current by the setters
    // What the step's store writes, together after the def (the store stage
    // touches these 48 bytes and the def's thresholds): the solver results
    // of the last step and what is carried to the next.
    Vec2 reactionForce{0.0f, 0.0f};
    float reactionTorque = 0.0f;
    /// The impulses and the gear slot (loadCarried), copied into the step's
    /// JointSim before prepareJoint and back after the solve (solver_step.cpp).
    JointCarried carried{};
    bool islandLinked = false;  ///< counted as a link of its bodies' island
};

/// Slot bookkeeping shared by all object kinds.
template <class T>
int allocateSlot(std::vector<T>& slots, std::vector<int>& freeList) {
    if (!freeList.empty()) {
        int index = freeList.back();
        freeList.pop_back();
        return index;
    }
    slots.emplace_back();
    return int(slots.size()) - 1;
}

/// Releases a slot: bumps its generation so old ids go stale.
template <class T>
void releaseSlot(std::vector<T>& slots, std::vector<int>& freeList, int index) {
    uint32_t gen = slots[size_t(index)].generation + 1;
    slots[size_t(index)] = T{};
    slots[size_t(index)].generation = gen == 0 ? 1 : gen;
    freeList.push_back(index);
}

/// Milliseconds since t0, for the step profile.
inline float msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The world is split in two. WorldState is everything the next step reads
// (and everything the API reports about the world): object tables with
// their generations and free lists, the broadphase with its proxies, trees
// and sweep lists, contacts with manifolds, warm-start impulses and feature
// caches, the pair map, islands with sleep timers and removed-link counts,
// sensors, the events of the last step and those waiting for the next one,
// the counters. World::snapshot copies it whole and World::restore assigns it
// whole (engine/world/snapshot.cpp), so a field added here is carried by
// snapshots without further edits; the byte form (Snapshot::bytes) lists
// fields and fails to compile when a struct it writes changes size.
// WorldImpl adds the runtime machinery that belongs to the world object and
// not to the simulation: profile, lock, the game's callbacks, the step's
// scratch buffers and the worker pool. A snapshot never holds those.
/// What the step's walks from the bodies read of a contact (which bodies it
/// joins, whether it touches), kept per contact slot in a dense array beside
/// the records: the owner walks of updateContacts and gatherConstraints read
/// 12 bytes per contact instead of a line of a 256-byte record (they missed
/// the cache on every contact). Copies of Contact::bodyA / bodyB and of
/// manifold.pointCount > 0, written wherever those are
/// (createContact, updateContacts, the warm state); derived state, so the
/// snapshot's bytes do not carry it: rebuildContactEnds after reading.
struct ContactEnds {
    int bodyA = -1, bodyB = -1;
    int touching = 0;
};

struct WorldState {
    explicit WorldState(const WorldDef& d);

    WorldDef def;
    std::vector<Body> bodies;
    std::vector<int> freeBodies;
    /// Body names by slot (BodyDef::name): cold data, kept out of Body so
    /// the step's walks over bodies do not carry it. Empty: no name.
    std::vector<std::string> bodyNames;
    std::vector<Shape> shapes;
    std::vector<int> freeShapes;
    std::vector<Polygon> polygons;
    std::vector<int> freePolygons;
    std::vector<Chain> chains;
    std::vector<int> freeChains;
    std::vector<Joint> joints;
    std::vector<int> freeJoints;
    std::vector<GearSolverData> gears;  ///< per gear joint (JointCarried::gearSlot)
    std::vector<int> freeGears;
    uint64_t nextCreationSeq = 0;
    int bodyCount = 0, shapeCount = 0, jointCount = 0;
    int boundedBodies =
        0;  ///< bodies stopped at the world bounds in the last step (enforceBodyBounds)
    /// Bodies whose extents wait for refreshExtents (each listed once while dirty).
    std::vector<int> dirtyExtents;
    /// Shapes walked by whole-body recomputations (extents, mass): the
    /// scaling tests check it grows linearly with the shapes created.
    uint64_t shapeVisits = 0;

    std::vector<BodyMoveEvent> moveEvents;

    // ---- collision and solver state (see solver/) -----------------------
    BroadPhase broadphase;
    std::vector<Contact> contacts;
    std::vector<ContactEnds> contactEnds;  ///< per contact slot (ContactEnds)
    std::vector<int> freeContacts;
    int contactCount = 0;
    int64_t contactsCreated = 0, contactsDestroyed = 0;  ///< since creation, for Counters
    int64_t pairsOverBudget = 0;         ///< last step: new pairs left out (WorldDef::maxContacts)
    bool contactBudgetExceeded = false;  ///< some step left pairs out
    int sensorsOverBudget =
        0;  ///< last step: sensors cut or left out (WorldDef::maxSensorOverlaps)
    bool sensorBudgetExceeded = false;  ///< some step cut or left out a sensor's overlaps
    PairMap pairMap;                    ///< shape pair → contact slot; looked up, never iterated
    std::vector<Island> islands;
    std::vector<int> freeIslands;
    std::vector<int> awakeBodies;  ///< non-static awake bodies, deterministic order
    /// Per body slot, its Body::awakeIndex in a dense array: the owner walks
    /// (updateContacts, gatherConstraints, gatherJoints) ask it of the other
    /// body of every contact and joint, and a 296-byte record per ask missed
    /// the cache. Written with awakeIndex (island.cpp, body creation, the
    /// warm state); derived, so not in the snapshot's bytes
    /// (rebuildAwakeSlots after reading).
    std::vector<int> awakeSlot;
    std::vector<Sensor> sensors;
    std::vector<int> freeSensors;
    /// Sleep stage passes so far; Island::sleepPass compares with it.
    unsigned sleepPass = 0;
    SeamIndex seams;  ///< open segment and chain ends, for tile seams (engine/world/seams.hpp)

    // Events of the last step. End events caused between steps (destroying a
    // shape) wait in the pending arrays and join the next step's events.
    std::vector<ContactBeginEvent> contactBeginEvents;
    std::vector<ContactEndEvent> contactEndEvents;
    std::vector<ContactEndEvent> pendingContactEndEvents;
    std::vector<ContactHitEvent> contactHitEvents;
    std::vector<SensorBeginEvent> sensorBeginEvents;
    std::vector<SensorEndEvent> sensorEndEvents;
    std::vector<SensorEndEvent> pendingSensorEndEvents;
    std::vector<JointEvent> jointEvents;  ///< breakable joints over their threshold
};

struct WorldImpl : WorldState {
    Profile profile{};
    int reusedManifolds = 0;  ///< manifolds the last step kept (Counters::reusedManifolds)
    /// Inside step(): end events caused now join this step's arrays, not
    /// the pending ones (contact.cpp, body_sync.cpp).
    bool stepping = false;
    /// The first exception a game's callback threw inside the step
    /// (callGame); step() rethrows it once the step is done. Mutable: the
    /// material mixing that calls callbacks reads the world const.
    mutable std::exception_ptr callbackError;
    /// How many scopes that run the game's code are open (CallbackLock):
    /// while it is above 0 every changing call is refused (checkUnlocked).
    /// Atomic because const queries, which take the lock, may run on several
    /// threads at once.
    mutable std::atomic<int> lockDepth{0};
    /// Counters::nonFiniteBodies: the world object's own tally (a restore
    /// does not take back a fault that happened).
    int64_t nonFiniteBodies = 0;
    PreSolveFn preSolve;
    CustomFilterFn customFilter;
    FrictionMixFn frictionMix;        ///< replaces def.frictionMixing when set
    RestitutionMixFn restitutionMix;  ///< replaces def.restitutionMixing when set
    StepScratch scratch;
    WorkerPool workers;
    /// World::restore copies a snapshot into this, then swaps it with the
    /// live state (engine/world/snapshot.cpp); null until the first restore.
    std::unique_ptr<WorldState> restoreSpare;

    explicit WorldImpl(const WorldDef& d);

    // ---- id checks (throw StaleId naming `field`, the id's argument) ----
    Body& body(BodyId id, const char* field = "id");
    const Body& body(BodyId id, const char* field = "id") const;
    Shape& shape(ShapeId id, const char* field = "id");
    const Shape& shape(ShapeId id, const char* field = "id") const;
    Joint& joint(JointId id, const char* field = "id");
    const Joint& joint(JointId id, const char* field = "id") const;
    Chain& chain(ChainId id, const char* field = "id");
    const Chain& chain(ChainId id, const char* field = "id") const;
    BodyId bodyId(int index) const { return {index, bodies[size_t(index)].generation}; }
    ShapeId shapeId(int index) const { return {index, shapes[size_t(index)].generation}; }
    JointId jointId(int index) const { return {index, joints[size_t(index)].generation}; }
    ChainId chainId(int index) const { return {index, chains[size_t(index)].generation}; }
    /// Throws ErrorCode::Locked inside a CallbackLock: the first thing every
    /// changing call does, before it looks at its arguments.
    void checkUnlocked() const;

    // ---- geometry access ------------------------------------------------
    /// Reference to the concrete geometry, for the narrowphase.
    ShapeRef shapeRef(const Shape& s) const;
    ShapeGeometry geometry(const Shape& s) const;
    AABB computeShapeAABB(const Shape& s, const Transform& xf) const;

    // ---- lifecycle hooks ---------------------------------------------------
    /// Recomputes mass, centre and inertia from the body's shapes.
    void updateBodyMass(int bodyIndex);
    /// The body's mass after shapeIndex was appended to its list: O(1) when
    /// the sums are current, else a full updateBodyMass. Bit-identical to it.
    void addShapeMass(int bodyIndex, int shapeIndex);
    /// Mass, centre and inertia from the body's current sums.
    void applyMassSums(int bodyIndex);
    /// Extents are recomputed lazily, once, before the next step needs them.
    void markExtentsDirty(int bodyIndex);
    void refreshExtents();
    /// Wakes the body (and, once islands exist, its island).
    void wakeBody(int bodyIndex);
    /// Called after a body was teleported or its shapes changed.
    void syncBodyShapes(int bodyIndex);
    int addShape(int bodyIndex, const ShapeDef& def, const ShapeGeometry& g, int chainIndex);
    void removeShape(int shapeIndex, bool updateMass);
    void removeJoint(int jointIndex);
    /// Zeroes the velocity components the body's motion locks hold.
    void applyMotionLocks(Body& b) const;

    // ---- step ----------------------------------------------------------------
    void step(float timeStep, int substeps);
    void stepPart(float timeStep, int substeps);
    void keepLastMoveEvents();
    void finalizeStep();
};

/// Held wherever the world hands control to the game's code while it walks
/// its own structures: the whole of step() (pre-solve, custom filter,
/// friction and restitution callbacks, the task hooks), each query and
/// mover call with a callback, a setter's re-mixing through the friction
/// and restitution callbacks, the setWarmState contacts, draw(). A change
/// made from such a callback (destroying the shape a tree walk stands on)
/// is refused with Locked instead of freeing memory under the walk. Scopes
/// nest (a query from a pre-solve callback); a callback that throws
/// releases the lock on the way out.
class CallbackLock {
   public:
    explicit CallbackLock(const WorldImpl& w) : depth_(w.lockDepth) {
        depth_.fetch_add(1, std::memory_order_relaxed);
    }
    ~CallbackLock() { depth_.fetch_sub(1, std::memory_order_relaxed); }
    CallbackLock(const CallbackLock&) = delete;
    CallbackLock& operator=(const CallbackLock&) = delete;

   private:
    std::atomic<int>& depth_;
};

/// Calls a game's callback. Inside the step, a callback that throws must not
/// leave the stage it interrupts half done (contacts touching without their
/// flags, links or events): the first exception is kept, the callbacks the
/// step would make after it are not made and `fallback` answers for them
/// (what the step does without that callback), and step() rethrows the
/// exception once the world is whole again. Outside the step (a setter's
/// re-mixing, which restores its input on a throw) the call is direct.
template <class R, class Call>
R callGame(const WorldImpl& w, R fallback, Call&& call) {
    if (!w.stepping) return call();
    if (w.callbackError) return fallback;
    try {
        return call();
    } catch (...) {
        w.callbackError = std::current_exception();
        return fallback;
    }
}

/// awakeSlot from the body records (after a snapshot is read).
inline void rebuildAwakeSlots(WorldState& s) {
    s.awakeSlot.resize(s.bodies.size());
    for (size_t i = 0; i < s.bodies.size(); ++i) s.awakeSlot[i] = s.bodies[i].awakeIndex;
}

/// ContactEnds from the contact records (after a snapshot is read).
inline void rebuildContactEnds(WorldState& s) {
    s.contactEnds.resize(s.contacts.size());
    for (size_t i = 0; i < s.contacts.size(); ++i) {
        const Contact& c = s.contacts[i];
        s.contactEnds[i] = {c.bodyA, c.bodyB, int(c.alive && c.manifold.pointCount > 0)};
    }
}
/// Keeps a body's velocities within kMaxLinearSpeed / kMaxAngularSpeed (after an impulse).
void clampSpeeds(Body& b);
/// An impulse at a world point on an awake dynamic body, the one rule of
/// applyLinearImpulse and explode: the impulse kept within ±kMaxForce per
/// component, the velocities changed, the motion locks applied and the
/// speeds kept within their bounds (clampSpeeds).
void applyImpulse(const WorldImpl& w, Body& b, Vec2 impulse, Vec2 point);
/// The step's net for a body flung past the world bound or left not finite (world.cpp): true when
/// it was stopped.
bool enforceBodyBounds(Body& b);
/// A body's step-start pose as prepareJoint reads it.
/// During a step a body's awake index is its solver index (gatherBodies).
inline JointBodyPose jointBodyPose(const Body& b) {
    return {b.xf.q, b.center, b.localCenter, b.awakeIndex};
}
/// Sets a new gear's coordinates and constant from the current poses
/// (World::createJoint; the geared joints must be live). engine/world/joint.cpp.
void initGearJoint(WorldImpl& w, Joint& gear);
/// Measures a gear's two geared joints at the step-start poses into its
/// GearSolverData sides and counts whole turns, before prepareJoint builds
/// its row (the gear's own data only: run once per gear per step).
void measureGear(const WorldImpl& w, const Joint& gear, GearSolverData& g);
/// A force or torque kept within ±kMaxForce (accumulated between steps).
float clampForce(float x);
Vec2 clampForce(Vec2 v);

/// Where the world's parallel work goes (WorldDef::enqueueTask or the pool).
inline TaskDispatch taskDispatch(WorldImpl& w) {
    return {w.def.enqueueTask, w.def.finishTask, w.def.userTaskContext, &w.workers,
            w.def.workerCount};
}

/// Runs fn(begin, end) over [0, count) on the world's workers (see
/// solver/parallel.hpp); small loops stay on the calling thread.
template <class Fn>
void parallelFor(WorldImpl& w, int count, Fn&& fn) {
    parallelFor(taskDispatch(w), count, fn);
}

/// Walks from the awake bodies (updateContacts, gatherConstraints,
/// gatherJoints): the awake array cut into kOwnerChunks ranges, walk(chunk)
/// called once per range, on the workers when there are many bodies (a task
/// costs a few microseconds). Each range writes its own list; the lists
/// joined in range order give the order of one serial walk, whatever the
/// number of workers.
inline constexpr int kOwnerChunks = 64;
inline constexpr int kOwnerParallelBodies = 1024;
inline int ownerChunkBegin(int64_t bodies, int chunk) {
    return int(bodies * chunk / kOwnerChunks);
}

/// For the owner walks' loop over awake bodies at position i of `bodies`
/// (ending at end), three stages ahead, each bringing in what the next one
/// reads: the body record 12 places on, the heap block of contact indices of
/// the body 8 places on, and the contacts' ContactEnds of the body 4 places
/// on. Without it the walks miss on every body, list and contact, and those
/// loads dominate gatherConstraints. Always inlined: GCC drops calls to a
/// function that only prefetches (it counts as pure).
CAROM_FORCE_INLINE void prefetchOwnerWalk(const WorldImpl& w, const std::vector<int>& bodies, int i,
                                          int end) {
    if (i + 12 < end) {
        const char* b = reinterpret_cast<const char*>(&w.bodies[size_t(bodies[size_t(i + 12)])]);
        prefetchRead(b + offsetof(Body, contacts));
        prefetchRead(b + offsetof(Body, awakeIndex));
    }
    if (i + 8 < end) prefetchRead(w.bodies[size_t(bodies[size_t(i + 8)])].contacts.data());
    if (i + 4 < end) {
        for (int ci : w.bodies[size_t(bodies[size_t(i + 4)])].contacts)
            prefetchRead(&w.contactEnds[size_t(ci)]);
    }
}

template <class Walk>
void forOwnerChunks(WorldImpl& w, int64_t bodies, Walk&& walk) {
    if (bodies < kOwnerParallelBodies) {
        for (int c = 0; c < kOwnerChunks; ++c) walk(c);
    } else {
        parallelFor(w, kOwnerChunks, [&](int b, int e) {
            for (int c = b; c < e; ++c) walk(c);
        });
    }
}

}  // namespace carom::detail
