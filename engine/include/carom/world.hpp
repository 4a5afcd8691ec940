// The World: owns bodies, shapes, joints and contacts, and steps them.
//
// Every creating or changing call validates its arguments and throws
// carom::Error (see error.hpp) without touching the world when they are bad.
// Calls on a stale id throw ErrorCode::StaleId; World::isValid tells without
// throwing. Inside every callback the World runs (pre-solve, custom filter,
// friction and restitution mixing, the task hooks, a query's, cast's or
// mover's fn or accept, a DebugDraw's methods) the world is locked: every
// creating, destroying or changing call, and snapshot(), throws
// ErrorCode::Locked and changes nothing; reads are allowed, and so is
// setUserData (the game's own pointer). A moved-from World has no
// state: every call on it but destruction and assignment throws
// ErrorCode::StaleId.
//
// Events (contactEvents, sensorEvents, bodyMoveEvents, jointEvents) are spans
// into the world's arrays: valid, and unchanged, until the next step() or
// until the World is destroyed or assigned to; any other call, destroying the
// objects they name included, may be made while reading them (events.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <carom/debug_draw.hpp>
#include <carom/error.hpp>
#include <carom/events.hpp>
#include <carom/geometry.hpp>
#include <carom/id.hpp>
#include <carom/joint.hpp>
#include <carom/math.hpp>
#include <carom/mover.hpp>
#include <carom/snapshot.hpp>
#include <carom/types.hpp>
#include <carom/warm_state.hpp>

namespace carom {

namespace detail {
struct WorldImpl;
struct WorldAccess;
}  // namespace detail

/// Milliseconds spent in each stage of the last step.
struct Profile {
    float step = 0.0f;        ///< the whole step
    float pairs = 0.0f;       ///< broadphase: move proxies, find new pairs
    float collide = 0.0f;     ///< narrowphase: update contact manifolds
    float solve = 0.0f;       ///< solver: constraints, substeps, integration
    float continuous = 0.0f;  ///< time of impact for fast bodies
    float finalize = 0.0f;    ///< bounding boxes, sleep, events
    /// Contact manifolds the step kept instead of recomputing
    /// (WorldDef::contactReuseDistance); also in Counters, which costs a walk
    /// over every contact and so is no place to read it once a step.
    int reusedManifolds = 0;
};

/// Object counts, for profilers and tests.
struct Counters {
    int bodies = 0;
    int awakeBodies = 0;
    int shapes = 0;
    int contacts = 0;          ///< contacts whose fat boxes overlap
    int touchingContacts = 0;  ///< contacts with manifold points
    int joints = 0;
    int islands = 0;
    int awakeIslands = 0;
    int broadphaseHeight = 0;  ///< dynamic tree height (0 for sort-and-sweep)
    /// Bodies the last step stopped at the world bound (origin clamped to
    /// ±kMaxCoordinate, velocity zeroed); see docs/robustness.md.
    int boundedBodies = 0;
    int64_t contactsCreated = 0;    ///< contacts created since the world was made
    int64_t contactsDestroyed = 0;  ///< contacts destroyed since the world was made
    /// New pairs the last step found but did not make contacts of because
    /// WorldDef::maxContacts was reached (0 normally).
    int64_t pairsOverBudget = 0;
    /// Sensors whose overlaps the last step cut short or did not look for
    /// because WorldDef::maxSensorOverlaps was reached (0 normally).
    int sensorsOverBudget = 0;
    /// Contacts whose manifold the last step kept instead of recomputing it
    /// (WorldDef::contactReuseDistance; 0 when reuse is off).
    int reusedManifolds = 0;
    /// Bodies whose state the solver left not finite (NaN or inf), counted
    /// once per step each, since the world was made: the step stopped each
    /// where it was. A solver fault, which no accepted input should cause;
    /// `carom run` warns when it is not 0 (docs/robustness.md).
    int64_t nonFiniteBodies = 0;
};

/// Which shapes a world query sees: those whose category matches maskBits
/// and whose mask includes categoryBits.
struct QueryFilter {
    uint64_t categoryBits = 1;
    uint64_t maskBits = ~0ull;
};

/// The closest hit of a world ray or shape cast (castRayClosest,
/// castShapeClosest); hit false when nothing was hit.
struct RayResult {
    ShapeId shape{};
    Vec2 point{0.0f, 0.0f};
    Vec2 normal{0.0f, 0.0f};
    float fraction = 0.0f;
    bool hit = false;
};

/// An explosion (World::explode): an impulse pushing shapes away from a point.
/// Each dynamic shape whose surface lies within radius + falloff of position
/// gets the impulse  impulsePerLength · (its width seen from the position) ·
/// scale, directed from the position to the shape's closest point and applied
/// there, where scale is 1 within radius and falls linearly to 0 at
/// radius + falloff. "Width seen from the position" is the shape's extent
/// across the direction to it (2r for a circle), so a wide wall facing the
/// blast is pushed harder than a thin rod pointing at it.
struct ExplosionDef {
    Vec2 position{0.0f, 0.0f};      ///< centre, world metres
    float radius = 1.0f;            ///< full strength within this distance, m, >= 0
    float falloff = 0.0f;           ///< linear fall to zero over this further distance, m, >= 0
    float impulsePerLength = 1.0f;  ///< N·s per metre of exposed width, finite
    uint64_t maskBits = ~0ull;      ///< shapes whose category matches are pushed
};

/// A contact between two shapes as seen after a step.
struct ContactData {
    ShapeId shapeA{};
    ShapeId shapeB{};
    Vec2 normal{0.0f, 0.0f};  ///< from A to B
    int pointCount = 0;
    struct Point {
        Vec2 point{0.0f, 0.0f};   ///< world point, midway between the surfaces
        float separation = 0.0f;  ///< negative when overlapping, metres
        float normalImpulse = 0.0f;
        float tangentImpulse = 0.0f;
        uint32_t id = 0;  ///< feature id, stable while the same features touch
    } points[2];
    /// The contact's id (World::contactData); in the pre-solve callback of a
    /// contact that has not begun touching yet, the id it will have if it does.
    ContactId contact{};
};

/// Called once per step for each touching contact of a shape with
/// enablePreSolveEvents; return false to disable the contact for this step
/// (one-way platforms). The world is locked while it runs (see the top).
using PreSolveFn = std::function<bool(ShapeId a, ShapeId b, const ContactData& contact)>;
/// Combines the friction coefficients of a contact's two shapes (with their
/// ShapeDef::userMaterialId), replacing WorldDef::frictionMixing. Called on
/// the thread that calls step() or the setter, never from workers and never
/// concurrently: when a contact is created (in step(), shapes in index
/// order), and for the existing contacts when the callback is set or a
/// shape's friction changes. Must be deterministic; the world is locked
/// while it runs. A result that is NaN or outside [0, kMaxMaterialCoefficient]
/// is clamped into it (NaN gives 0). A setter during which the callback
/// throws (setFrictionCallback itself, setFriction, setFrictionMixing, ...)
/// passes the exception on and leaves the world as it was: the callback or
/// value it was setting is not kept, and no contact is re-mixed.
using FrictionMixFn =
    std::function<float(float frictionA, uint64_t materialA, float frictionB, uint64_t materialB)>;
/// As FrictionMixFn, for the restitution coefficients.
using RestitutionMixFn = std::function<float(float restitutionA, uint64_t materialA,
                                             float restitutionB, uint64_t materialB)>;
/// Called when two shapes' boxes begin to overlap and the filter allows them;
/// return false to never create the contact. The world is locked while it runs.
using CustomFilterFn = std::function<bool(ShapeId a, ShapeId b)>;

class World {
   public:
    explicit World(const WorldDef& def = {});
    ~World();
    World(World&&) noexcept;
    World& operator=(World&&) noexcept;
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // ---- simulation ----------------------------------------------------------

    /// Advances the world by timeStep seconds (> 0 and finite, or 0 to only
    /// update contacts), split into WorldDef::substeps solver substeps.
    /// A step longer than kMaxStepPart (1/30 s, limits.hpp) runs as
    /// ceil(timeStep / kMaxStepPart) equal full steps, so that a game that
    /// hitches and calls step(0.5) or step(1.0) loses no body through its
    /// ground; the events of all of them are reported together (one move
    /// event per body, its last), and the profile adds their times up.
    /// An exception thrown by one of the game's callbacks (pre-solve, custom
    /// filter, friction or restitution mixing) passes out of step() once the
    /// step is done: from the throw on, the step makes no more callbacks and
    /// does what it does without them (contacts kept, pairs accepted, the
    /// WorldDef mixing rule), so the world is left whole and can be stepped.
    void step(float timeStep);
    /// As step(timeStep) with an explicit substep count (>= 1).
    void step(float timeStep, int substeps);

    Vec2 gravity() const;
    void setGravity(Vec2 gravity);
    const WorldDef& def() const;
    BroadphaseType broadphaseType() const;
    void enableSleep(bool flag);
    void enableContinuous(bool flag);
    /// Worker threads for step() (>= 1). Results are bit-identical for any count.
    void setWorkerCount(int count);

    // Live settings: each takes the WorldDef member's rule (Error::field()
    // names the argument), is refused with Locked inside step(), and acts
    // from the next step on; def() shows the current values.
    float hitEventThreshold() const;
    void setHitEventThreshold(float threshold);  ///< m/s, within [0, kMaxLinearSpeed]
    float contactHertz() const;
    float contactDampingRatio() const;
    float contactPushMaxSpeed() const;
    /// Contact softness: hertz within [0, kMaxHertz], dampingRatio within
    /// [0, kMaxDampingRatio], pushMaxSpeed (m/s) within [0, kMaxLinearSpeed].
    void setContactTuning(float hertz, float dampingRatio, float pushMaxSpeed);
    float jointHertz() const;
    float jointDampingRatio() const;
    void setJointTuning(float hertz, float dampingRatio);
    float restitutionThreshold() const;
    void setRestitutionThreshold(float threshold);  ///< m/s, within [0, kMaxLinearSpeed]
    float maxLinearSpeed() const;
    void setMaxLinearSpeed(float speed);  ///< m/s, > 0 and at most kMaxLinearSpeed
    bool isWarmStartingEnabled() const;
    void enableWarmStarting(bool flag);
    /// WorldDef::contactReuseDistance: metres within [0, kMaxContactReuseDistance], 0 = off.
    float contactReuseDistance() const;
    void setContactReuseDistance(float distance);
    /// The built-in rules; they apply to existing contacts too (re-mixed now).
    FrictionMixing frictionMixing() const;
    void setFrictionMixing(FrictionMixing rule);
    RestitutionMixing restitutionMixing() const;
    void setRestitutionMixing(RestitutionMixing rule);
    /// A user rule in place of the built-in one (see FrictionMixFn); an
    /// empty function goes back to the built-in rule. Existing contacts are
    /// re-mixed now.
    void setFrictionCallback(FrictionMixFn fn);
    void setRestitutionCallback(RestitutionMixFn fn);
    bool hasFrictionCallback() const;
    bool hasRestitutionCallback() const;

    const Profile& profile() const;
    Counters counters() const;
    /// True once any step has left pairs out because WorldDef::maxContacts
    /// was reached (see Counters::pairsOverBudget). Cheap: call it every step.
    bool contactBudgetExceeded() const;
    /// True once any step has cut short or skipped a sensor's overlaps
    /// because WorldDef::maxSensorOverlaps was reached (see
    /// Counters::sensorsOverBudget). Cheap: call it every step.
    bool sensorBudgetExceeded() const;

    // ---- bodies --------------------------------------------------------------

    BodyId createBody(const BodyDef& def);
    /// Destroys the body with its shapes and joints.
    void destroyBody(BodyId id);
    bool isValid(BodyId id) const;
    /// Every live body, in creation order.
    std::vector<BodyId> bodies() const;
    /// The same into a caller's buffer, without allocating: writes the first
    /// out.size() and returns how many there are (as every buffer form below).
    [[nodiscard]] int bodies(std::span<BodyId> out) const;

    /// The body's name (BodyDef::name), empty when it has none. The view is
    /// valid until the next call that creates, renames or destroys a body.
    std::string_view name(BodyId id) const;
    /// Renames the body (BodyDef::name's rules); empty: no name.
    void setName(BodyId id, std::string_view name);
    /// The first live body, in creation order, named `name`, or a null id
    /// (also for an empty name). Names need not be unique: with duplicates,
    /// the earliest created wins. Linear in the number of body slots.
    BodyId findBody(std::string_view name) const;

    BodyType bodyType(BodyId id) const;
    void setBodyType(BodyId id, BodyType type);
    Transform transform(BodyId id) const;
    Vec2 position(BodyId id) const;
    Rot rotation(BodyId id) const;
    float angle(BodyId id) const;
    /// Teleports the body (and wakes it).
    void setTransform(BodyId id, Vec2 position, float angle);
    /// Teleports the body to an exact transform: the rotation is taken as
    /// given (unit cos/sin), so a saved state can be restored bit for bit.
    void setTransform(BodyId id, const Transform& transform);
    Vec2 linearVelocity(BodyId id) const;
    float angularVelocity(BodyId id) const;
    void setLinearVelocity(BodyId id, Vec2 v);
    void setAngularVelocity(BodyId id, float w);
    /// Velocity of a world point attached to the body.
    Vec2 pointVelocity(BodyId id, Vec2 worldPoint) const;
    /// Sets the velocities that carry the body from its pose to `target` in
    /// one step of timeStep seconds (> 0): the centre of mass moves in a
    /// straight line, the rotation by the shortest angle. For kinematic
    /// platforms and doors that the game moves along a path: unlike a
    /// teleport, what stands on them is carried along by friction and
    /// contacts. The rotation lands within the step's small-angle rotation
    /// error (about θ³/(3n²) for a turn θ over n substeps; 5e-4 rad for 0.28
    /// rad in one 4-substep step). Wakes the body when it has to move;
    /// ignored for static bodies.
    void setTargetTransform(BodyId id, const Transform& target, float timeStep);

    void applyForce(BodyId id, Vec2 force, Vec2 worldPoint, bool wake = true);
    void applyForceToCenter(BodyId id, Vec2 force, bool wake = true);
    void applyTorque(BodyId id, float torque, bool wake = true);
    /// Zeroes the force and torque that applyForce, applyForceToCenter and
    /// applyTorque have gathered since the last step (the step uses them and
    /// zeroes them itself): a game that changed its mind before stepping.
    /// Changes nothing else and does not wake the body (Box2D's
    /// b2Body_ClearForces).
    void clearForces(BodyId id);
    void applyLinearImpulse(BodyId id, Vec2 impulse, Vec2 worldPoint, bool wake = true);
    void applyLinearImpulseToCenter(BodyId id, Vec2 impulse, bool wake = true);
    void applyAngularImpulse(BodyId id, float impulse, bool wake = true);

    float mass(BodyId id) const;
    /// Rotational inertia about the centre of mass, kg·m².
    float rotationalInertia(BodyId id) const;
    MassData massData(BodyId id) const;
    /// Overrides the mass computed from shapes (until the next shape change).
    void setMassData(BodyId id, const MassData& data);
    /// Recomputes the mass, centre of mass and inertia from the body's
    /// shapes now, as a shape change does: ends a setMassData override, and
    /// takes in shapes created, destroyed or re-densitied with
    /// updateBodyMass = false (Box2D's b2Body_ApplyMassFromShapes). The
    /// velocities of the body's material points are kept (the centre's
    /// velocity follows the moved centre). Static and kinematic bodies keep
    /// no mass. Does not wake the body.
    void applyMassFromShapes(BodyId id);
    /// True while the mass comes from setMassData rather than the shapes
    /// (a shape change, density change or type change clears it).
    bool isMassOverridden(BodyId id) const;
    Vec2 localCenterOfMass(BodyId id) const;
    Vec2 worldCenterOfMass(BodyId id) const;
    Vec2 worldPoint(BodyId id, Vec2 localPoint) const;
    Vec2 localPoint(BodyId id, Vec2 worldPoint) const;
    Vec2 worldVector(BodyId id, Vec2 localVector) const;
    Vec2 localVector(BodyId id, Vec2 worldVector) const;

    bool isAwake(BodyId id) const;
    void setAwake(BodyId id, bool awake);
    /// Wakes every body touching this one: those it has a contact with
    /// manifold points with (the contacts World::contacts(id) lists), each
    /// with its island. This body itself wakes only with an island it shares
    /// with them. For a change that does not wake what it affects, such as
    /// the ground's friction lowered under a sleeping pile (Box2D's
    /// b2Body_WakeTouching).
    void wakeTouching(BodyId id);
    bool isSleepEnabled(BodyId id) const;
    void enableSleep(BodyId id, bool flag);
    /// BodyDef::enableContactReuse: false, the body's contacts run the
    /// narrowphase every step; acts from the next step.
    bool isContactReuseEnabled(BodyId id) const;
    void enableContactReuse(BodyId id, bool flag);
    bool isBullet(BodyId id) const;
    void setBullet(BodyId id, bool flag);
    bool isFixedRotation(BodyId id) const;
    void setFixedRotation(BodyId id, bool flag);
    float gravityScale(BodyId id) const;
    void setGravityScale(BodyId id, float scale);
    float linearDamping(BodyId id) const;
    void setLinearDamping(BodyId id, float damping);
    float angularDamping(BodyId id) const;
    void setAngularDamping(BodyId id, float damping);
    /// Speed below which the body may sleep, m/s, within [0, kMaxLinearSpeed].
    float sleepThreshold(BodyId id) const;
    void setSleepThreshold(BodyId id, float threshold);
    /// Locked velocity components stay zero (see MotionLocks); locking an
    /// axis zeroes that component now and wakes the body. angularZ is the
    /// same lock as setFixedRotation.
    MotionLocks motionLocks(BodyId id) const;
    void setMotionLocks(BodyId id, const MotionLocks& locks);
    /// Takes the body out of the simulation without destroying it: its
    /// contacts are destroyed (with end events, next step), its shapes leave
    /// the broadphase (queries, sensors and other shapes no longer see them),
    /// its joints and the joints to it stop acting; its pose, velocity, mass,
    /// shapes and joints are kept and its ids stay valid. Setters still
    /// work on it (a teleport moves it, forces are ignored as for a sleeping
    /// body). No effect on a disabled body.
    void disableBody(BodyId id);
    /// Puts a disabled body back, awake, with the pose and velocity it had;
    /// its contacts are found again by the next step. No effect on an enabled body.
    void enableBody(BodyId id);
    bool isEnabled(BodyId id) const;
    void* userData(BodyId id) const;
    void setUserData(BodyId id, void* data);
    std::vector<ShapeId> shapes(BodyId id) const;
    [[nodiscard]] int shapes(BodyId id, std::span<ShapeId> out) const;
    std::vector<JointId> joints(BodyId id) const;
    [[nodiscard]] int joints(BodyId id, std::span<JointId> out) const;

    // ---- shapes --------------------------------------------------------------

    ShapeId createShape(BodyId body, const ShapeDef& def, const Circle& geometry);
    ShapeId createShape(BodyId body, const ShapeDef& def, const Capsule& geometry);
    ShapeId createShape(BodyId body, const ShapeDef& def, const Segment& geometry);
    ShapeId createShape(BodyId body, const ShapeDef& def, const Polygon& geometry);
    ShapeId createShape(BodyId body, const ShapeDef& def, const ShapeGeometry& geometry);
    void destroyShape(ShapeId id, bool updateBodyMass = true);
    bool isValid(ShapeId id) const;

    /// A chain of one-sided segments on a body (usually static).
    ChainId createChain(BodyId body, const ChainDef& def);
    void destroyChain(ChainId id);
    bool isValid(ChainId id) const;
    /// The chain's definition as created (points, loop flag, material).
    const ChainDef& chainDef(ChainId id) const;
    std::vector<ShapeId> chainSegments(ChainId id) const;
    [[nodiscard]] int chainSegments(ChainId id, std::span<ShapeId> out) const;
    std::vector<ChainId> chains(BodyId id) const;
    [[nodiscard]] int chains(BodyId id, std::span<ChainId> out) const;

    ShapeType shapeType(ShapeId id) const;
    BodyId shapeBody(ShapeId id) const;
    /// The geometry in the body frame.
    ShapeGeometry geometry(ShapeId id) const;
    /// Replaces the geometry (same rules as creation; the body mass is updated).
    void setGeometry(ShapeId id, const ShapeGeometry& geometry);
    /// The shape's material, flags and filter as a def.
    ShapeDef shapeDef(ShapeId id) const;
    bool isSensor(ShapeId id) const;
    void setDensity(ShapeId id, float density, bool updateBodyMass = true);
    void setFriction(ShapeId id, float friction);
    void setRestitution(ShapeId id, float restitution);
    void setRollingResistance(ShapeId id, float resistance);
    void setFilter(ShapeId id, const Filter& filter);
    /// Event flags (ShapeDef), acting from the next step on existing contacts
    /// too; a contact reports contact and hit events, and calls pre-solve,
    /// when either of its shapes asks. Contact begin/end events pair up: an end event comes for
    /// every begin event sent, even if the flag was turned off in between, and never for a contact
    /// whose begin was not sent (turned on while touching: the events start with its next touch).
    /// Sensor events follow the overlap set of each step: a shape whose sensor events are turned
    /// off leaves the sensors it is in (end events next step), and turned on enters them.
    bool areContactEventsEnabled(ShapeId id) const;
    void enableContactEvents(ShapeId id, bool flag);
    bool areSensorEventsEnabled(ShapeId id) const;
    void enableSensorEvents(ShapeId id, bool flag);
    bool areHitEventsEnabled(ShapeId id) const;
    void enableHitEvents(ShapeId id, bool flag);
    bool arePreSolveEventsEnabled(ShapeId id) const;
    void enablePreSolveEvents(ShapeId id, bool flag);
    /// Conveyor speed (ShapeDef::tangentSpeed), m/s, within ±kMaxLinearSpeed;
    /// acts on existing contacts from the next step.
    float tangentSpeed(ShapeId id) const;
    void setTangentSpeed(ShapeId id, float speed);
    uint64_t userMaterialId(ShapeId id) const;
    void* userData(ShapeId id) const;
    void setUserData(ShapeId id, void* data);
    /// The shape's current bounding box (world frame).
    AABB shapeAABB(ShapeId id) const;
    bool containsPoint(ShapeId id, Vec2 worldPoint) const;
    CastOutput rayCast(ShapeId id, Vec2 origin, Vec2 translation) const;

    // ---- joints --------------------------------------------------------------

    // Defs filled from world coordinates at the bodies' current poses: local
    // anchors and axes, and reference angles / lengths / offsets set so the
    // joint starts at rest. Adjust limits, motors and springs, then createJoint.
    [[nodiscard]] RevoluteJointDef makeRevoluteJointDef(BodyId a, BodyId b, Vec2 worldAnchor) const;
    [[nodiscard]] PrismaticJointDef makePrismaticJointDef(BodyId a, BodyId b, Vec2 worldAnchor,
                                                          Vec2 worldAxis) const;
    [[nodiscard]] DistanceJointDef makeDistanceJointDef(BodyId a, BodyId b, Vec2 worldAnchorA,
                                                        Vec2 worldAnchorB) const;
    [[nodiscard]] WeldJointDef makeWeldJointDef(BodyId a, BodyId b, Vec2 worldAnchor) const;
    [[nodiscard]] WheelJointDef makeWheelJointDef(BodyId a, BodyId b, Vec2 worldAnchor,
                                                  Vec2 worldAxis) const;
    [[nodiscard]] MotorJointDef makeMotorJointDef(BodyId a, BodyId b) const;
    [[nodiscard]] MouseJointDef makeMouseJointDef(BodyId a, BodyId b, Vec2 worldTarget) const;
    /// A gear between two live revolute or prismatic joints (bodies filled in from them).
    [[nodiscard]] GearJointDef makeGearJointDef(JointId jointA, JointId jointB, float ratio) const;
    /// A pulley: A hangs from groundA, B from groundB; lengths measured from the anchors.
    [[nodiscard]] PulleyJointDef makePulleyJointDef(BodyId a, BodyId b, Vec2 worldGroundA,
                                                    Vec2 worldGroundB, Vec2 worldAnchorA,
                                                    Vec2 worldAnchorB, float ratio) const;
    /// A rope whose max length is the anchors' current distance.
    [[nodiscard]] RopeJointDef makeRopeJointDef(BodyId a, BodyId b, Vec2 worldAnchorA,
                                                Vec2 worldAnchorB) const;

    JointId createJoint(const RevoluteJointDef& def);
    JointId createJoint(const PrismaticJointDef& def);
    JointId createJoint(const DistanceJointDef& def);
    JointId createJoint(const WeldJointDef& def);
    JointId createJoint(const WheelJointDef& def);
    JointId createJoint(const MotorJointDef& def);
    JointId createJoint(const MouseJointDef& def);
    /// Refused unless jointA and jointB are live revolute or prismatic joints.
    /// Destroying either of them (or a body one holds) destroys the gear too.
    JointId createJoint(const GearJointDef& def);
    JointId createJoint(const PulleyJointDef& def);
    JointId createJoint(const RopeJointDef& def);
    /// A filter joint (FilterJointDef): bodyA and bodyB never collide.
    JointId createJoint(const FilterJointDef& def);
    void destroyJoint(JointId id);
    bool isValid(JointId id) const;
    /// Every live joint, in creation order.
    std::vector<JointId> joints() const;
    [[nodiscard]] int joints(std::span<JointId> out) const;

    JointType jointType(JointId id) const;
    BodyId jointBodyA(JointId id) const;
    BodyId jointBodyB(JointId id) const;
    Vec2 jointLocalAnchorA(JointId id) const;
    Vec2 jointLocalAnchorB(JointId id) const;
    bool jointCollideConnected(JointId id) const;
    /// Lets the joint's bodies collide (true) or not (false) from the next
    /// step on (Box2D's b2Joint_SetCollideConnected). Turned off, their
    /// contacts are destroyed now (end events in the next step for those
    /// touching), as createJoint does. Turned on, the next step
    /// looks for their pairs again and makes the contacts that other joints
    /// between the same bodies do not forbid, in the order every new contact
    /// is made, so the result is deterministic. Wakes both bodies; no
    /// effect when the flag is already so.
    void setJointCollideConnected(JointId id, bool flag);
    void* userData(JointId id) const;
    void setUserData(JointId id, void* data);
    /// Constraint force on B at the anchor over the last step, N: the last
    /// substep's impulse divided by the substep's duration; its length is
    /// what forceThreshold is compared with (pulley and rope: the rope's pull on
    /// B; gear: the gear's force on its bodyB). Zero for a joint between static
    /// bodies; the last awake value while its bodies sleep.
    Vec2 jointConstraintForce(JointId id) const;
    /// Constraint torque on B over the last step, N·m (torqueThreshold: its
    /// magnitude; gear: on its bodyB).
    float jointConstraintTorque(JointId id) const;
    /// The same as jointConstraintForce (the older name).
    Vec2 jointReactionForce(JointId id) const;
    /// The same as jointConstraintTorque (the older name).
    float jointReactionTorque(JointId id) const;
    /// Breakable joints (JointBase::forceThreshold, torqueThreshold): set the
    /// threshold above which a step reports a JointEvent; >= 0, FLT_MAX =
    /// never. Unlike the setters below they do not wake the bodies.
    void setJointForceThreshold(JointId id, float threshold);
    void setJointTorqueThreshold(JointId id, float threshold);
    float jointForceThreshold(JointId id) const;
    float jointTorqueThreshold(JointId id) const;
    /// Revolute angle (angleB - angleA - reference), radians.
    float revoluteAngle(JointId id) const;
    /// Prismatic or wheel translation along the axis, metres.
    float jointTranslation(JointId id) const;
    /// Distance or rope joint current length, metres.
    float distanceJointLength(JointId id) const;
    /// Pulley rope lengths now: A's anchor to groundAnchorA, B's to groundAnchorB, metres.
    float pulleyLengthA(JointId id) const;
    float pulleyLengthB(JointId id) const;

    // Changes to joints wake both bodies.
    void enableJointLimit(JointId id, bool flag);
    void setJointLimits(JointId id, float lower, float upper);
    void enableJointMotor(JointId id, bool flag);
    void setJointMotorSpeed(JointId id, float speed);
    /// Max torque (revolute, wheel) or max force (prismatic, distance).
    void setJointMaxMotorForce(JointId id, float value);
    void enableJointSpring(JointId id, bool flag);
    void setJointSpring(JointId id, float hertz, float dampingRatio);
    /// Where the spring drives to: the revolute's targetAngle (radians
    /// within [-π, π]) or the prismatic's targetTranslation (metres within
    /// ±kMaxJointLength); other joints refuse it (Box2D v3.2's
    /// b2RevoluteJoint_SetTargetAngle, b2PrismaticJoint_SetTargetTranslation).
    void setJointSpringTarget(JointId id, float target);
    void setDistanceJointLength(JointId id, float length);
    void setMouseTarget(JointId id, Vec2 target);
    void setMotorJointOffsets(JointId id, Vec2 linearOffset, float angularOffset);

    /// The def the joint was created with, updated by the setters above.
    RevoluteJointDef revoluteJointDef(JointId id) const;
    PrismaticJointDef prismaticJointDef(JointId id) const;
    DistanceJointDef distanceJointDef(JointId id) const;
    WeldJointDef weldJointDef(JointId id) const;
    WheelJointDef wheelJointDef(JointId id) const;
    MotorJointDef motorJointDef(JointId id) const;
    MouseJointDef mouseJointDef(JointId id) const;
    GearJointDef gearJointDef(JointId id) const;
    PulleyJointDef pulleyJointDef(JointId id) const;
    RopeJointDef ropeJointDef(JointId id) const;
    FilterJointDef filterJointDef(JointId id) const;

    // ---- contacts, events, callbacks ----------------------------------------

    /// The touching contacts after the last step.
    std::vector<ContactData> contacts() const;
    [[nodiscard]] int contacts(std::span<ContactData> out) const;
    /// Touching contacts of one body.
    std::vector<ContactData> contacts(BodyId id) const;
    [[nodiscard]] int contacts(BodyId id, std::span<ContactData> out) const;
    ContactEvents contactEvents() const;
    SensorEvents sensorEvents() const;
    std::span<const BodyMoveEvent> bodyMoveEvents() const;
    /// Joints whose constraint force or torque exceeded their threshold in
    /// the last step, in the step's joint order (deterministic). The engine
    /// destroys nothing: destroyJoint(e.jointId) while reading breaks it.
    std::span<const JointEvent> jointEvents() const;
    /// True while the contact an id names is touching (from its begin event
    /// to its end event, while both shapes live).
    bool isValid(ContactId id) const;
    /// The touching contact an id names, as after the last step; throws
    /// ErrorCode::StaleId once the shapes stopped touching.
    ContactData contactData(ContactId id) const;
    /// The shapes overlapping a sensor shape after the last step, sorted by
    /// id, without those destroyed since (an empty list until the sensor's
    /// first step). Throws ErrorCode::InvalidArgument (field "sensor") when
    /// the shape is not a sensor.
    std::vector<ShapeId> sensorOverlaps(ShapeId sensor) const;
    [[nodiscard]] int sensorOverlaps(ShapeId sensor, std::span<ShapeId> out) const;
    void setPreSolveCallback(PreSolveFn fn);
    void setCustomFilterCallback(CustomFilterFn fn);

    // ---- queries -------------------------------------------------------------

    /// Calls fn for each shape whose fat box overlaps box; fn returns false to stop.
    void queryAABB(const AABB& box, const QueryFilter& filter,
                   const std::function<bool(ShapeId)>& fn) const;
    /// Shapes that contain the world point.
    [[nodiscard]] std::vector<ShapeId> queryPoint(Vec2 point, const QueryFilter& filter = {}) const;
    [[nodiscard]] int queryPoint(Vec2 point, const QueryFilter& filter,
                                 std::span<ShapeId> out) const;
    /// Casts a ray; fn gets each hit and returns the new max fraction:
    /// 0 stops, the hit's fraction clips, 1 (or any larger value) goes on.
    void castRay(
        Vec2 origin, Vec2 translation, const QueryFilter& filter,
        const std::function<float(ShapeId, Vec2 point, Vec2 normal, float fraction)>& fn) const;
    [[nodiscard]] RayResult castRayClosest(Vec2 origin, Vec2 translation,
                                           const QueryFilter& filter = {}) const;
    /// Sweeps a shape (at xf) along translation; fn as for castRay.
    void castShape(
        const ShapeGeometry& geometry, const Transform& xf, Vec2 translation,
        const QueryFilter& filter,
        const std::function<float(ShapeId, Vec2 point, Vec2 normal, float fraction)>& fn) const;
    /// The first shape the sweep hits (Box2D's closest-hit cast): the hit
    /// with the least fraction, on equal fractions the lower shape id,
    /// whatever the broadphase. The same arguments and refusals as castShape.
    [[nodiscard]] RayResult castShapeClosest(const ShapeGeometry& geometry, const Transform& xf,
                                             Vec2 translation,
                                             const QueryFilter& filter = {}) const;
    /// Calls fn for each shape whose true geometry overlaps or touches
    /// `geometry` placed at xf (GJK through the narrowphase, not boxes); fn
    /// returns false to stop. xf: finite, unit rotation, position within
    /// ±kHuge. The order of the calls depends on the broadphase.
    void overlapShape(const ShapeGeometry& geometry, const Transform& xf, const QueryFilter& filter,
                      const std::function<bool(ShapeId)>& fn) const;
    /// Calls fn for each shape whose tight box (shapeAABB, not the
    /// broadphase's fat box as queryAABB) overlaps box; fn returns false to stop.
    void overlapAABB(const AABB& box, const QueryFilter& filter,
                     const std::function<bool(ShapeId)>& fn) const;

    // Character movers (see <carom/mover.hpp>). The capsule is in world
    // coordinates; its radius must be more than 2·kLinearSlop.

    /// The fraction of translation the capsule can travel before it touches
    /// a shape, ignoring shapes it already touches or overlaps (those are the
    /// planes' business): 1 when nothing is in the way.
    [[nodiscard]] float castMover(const Capsule& mover, Vec2 translation,
                                  const QueryFilter& filter = {}) const;
    /// As castMover, skipping every shape for which accept returns false: the
    /// mover's own shape, or a one-way platform it is rising through (what a
    /// filter's bits cannot say). accept is called in the broadphase's order
    /// and runs with the world locked.
    [[nodiscard]] float castMover(const Capsule& mover, Vec2 translation, const QueryFilter& filter,
                                  const std::function<bool(ShapeId)>& accept) const;
    /// Calls fn with a plane for each non-sensor shape within
    /// kSpeculativeDistance of the capsule (or overlapping it), in shape
    /// order; fn returns false to stop.
    void collideMover(const Capsule& mover, const QueryFilter& filter,
                      const std::function<bool(ShapeId, const PlaneResult&)>& fn) const;

    /// Pushes the dynamic shapes around def.position away from it (see
    /// ExplosionDef); wakes the bodies it pushes.
    void explode(const ExplosionDef& def);
    /// Adds the force and torque of the wind on the shape (see Wind) to its
    /// body's accumulated force, as applyForce does: for the next step only,
    /// so a steady wind is applied before every step. Only dynamic bodies
    /// feel it, and sensors catch none. wake false leaves a sleeping body
    /// asleep and untouched. Refused by validate(const Wind&) (carom::Error
    /// naming "velocity", "drag", "lift" or "density") outside its ranges.
    void applyWind(ShapeId shape, const Wind& wind, bool wake = true);

    // ---- drawing and state ---------------------------------------------------

    /// The solver state carried from step to step (<carom/warm_state.hpp>):
    /// contact and joint impulses, gears' turn counts, exact centres of
    /// mass, sleep timers, islands, solver order, fat boxes, and what the
    /// next step's events are reported against. Ids are this world's.
    [[nodiscard]] WarmState warmState() const;
    /// Puts an exported WarmState into a world rebuilt with the same bodies,
    /// shapes and joints (ids translated by the caller), before its first
    /// step: the world has no contacts yet (InvalidArgument otherwise).
    /// Contacts are made at once with their impulses, the islands, orders,
    /// timers and fat boxes replaced. Everything is checked first (ids,
    /// finite numbers, each contact's pair collides, each dynamic body in one
    /// island, the awake set unchanged, centres within rounding of the
    /// bodies', gear states on gears only, overlaps on sensors only); a
    /// refusal leaves the world as it was.
    void setWarmState(const WarmState& state);

    void draw(DebugDraw& drawer, const DebugDrawFlags& flags = {}) const;
    /// A 64-bit hash (FNV-1a) of the exact bits of every live body's position,
    /// rotation and velocities, in creation order.
    [[nodiscard]] uint64_t stateHash() const;

    // ---- snapshots (see <carom/snapshot.hpp>, docs/snapshot.md) ----------------

    /// The world's whole simulation state: bodies, shapes, chains, joints
    /// with their ids and generations, contacts with impulses and caches,
    /// islands and sleep timers, the broadphase, events, counters. Allocates;
    /// the world is unchanged. The last step's events are not in it (they are
    /// no state; restore leaves the world's own). Throws Locked inside
    /// callbacks.
    [[nodiscard]] Snapshot snapshot() const;
    /// Puts the world back in the snapshot's state: the following steps give
    /// the same bits as they did after the snapshot was taken. Ids live at
    /// the snapshot are valid again, ids made after it are stale. Kept from
    /// this world (the game's side): callbacks, workerCount, simdWidth, the
    /// task hooks and WorldDef::userData; everything else, user data of
    /// bodies, shapes, chains and joints included, comes from the snapshot.
    /// Refused (carom::Error, world unchanged): an empty snapshot
    /// (InvalidArgument), one taken from a world whose fixed WorldDef fields
    /// (broadphase, substeps, softness, thresholds, mixing, maxContacts)
    /// differ from this world's (InvalidArgument, field() names it), inside
    /// callbacks (Locked). The events of the world's last step are left as
    /// they were (the spans read before stay valid and unchanged until the
    /// next step()). The next step may allocate once (warm-up).
    void restore(const Snapshot& snapshot);

   private:
    friend struct detail::WorldAccess;  // tests' view of the internal state

    /// The state; throws carom::Error (StaleId) on a moved-from World.
    detail::WorldImpl& live() const;
    std::unique_ptr<detail::WorldImpl> impl_;
};

}  // namespace carom
