// Definition structs: every object Carom creates is described by a def with
// a default for each field. Fill in what differs from the defaults and pass
// the def (and, for shapes, the geometry) to the World.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <carom/math.hpp>

namespace carom {

enum class BodyType : uint8_t {
    Static,     ///< never moves; infinite mass
    Kinematic,  ///< moved by its velocity only; infinite mass
    Dynamic,    ///< moved by forces, contacts and joints
};

enum class BroadphaseType : uint8_t {
    Tree,          ///< dynamic AABB tree (default): best for mixed sizes and sparse worlds
    SortAndSweep,  ///< sort-and-sweep along one axis: best for dense, uniform, coherent scenes
};

/// How two shapes' friction coefficients combine.
enum class FrictionMixing : uint8_t { GeometricMean, Min, Max, Average };
/// How two shapes' restitution coefficients combine.
enum class RestitutionMixing : uint8_t { Max, Min, GeometricMean, Average };

/// Lanes of the contact solver (docs/solver.md). The results are
/// bit-identical whatever the width; only the speed differs.
enum class SimdWidth : uint8_t {
    Auto,  ///< the environment variable CAROM_SIMD (scalar, sse2, avx2, neon, simd128) if set, else
           ///< the widest the CPU has
    Scalar,  ///< one lane
    SSE2,  ///< four lanes: SSE2 on x86-64, NEON on ARM64, SIMD128 on WebAssembly (scalar where none
           ///< is built)
    AVX2,  ///< eight lanes on an x86-64 CPU with AVX2; the four-lane kernel elsewhere
};
/// A piece of Carom's parallel work, handed to a game's task system: run it
/// over items [begin, end) of the itemCount given to EnqueueTaskFn (begin <
/// end; ranges may come in any order, on any threads, but each item exactly
/// once). workerIndex names the thread running it; Carom keeps no per-worker
/// state, so any value is accepted.
using TaskFn = void(int begin, int end, int workerIndex, void* taskContext);
/// Starts task over itemCount items, in ranges of at least minRange items (a
/// hint), and returns a handle for FinishTaskFn; nullptr means the work was
/// done before returning (serially, inside the callback) and FinishTaskFn is
/// not called. The same contract as Box2D v3.0's b2EnqueueTaskCallback.
using EnqueueTaskFn = void*(TaskFn* task, int itemCount, int minRange, void* taskContext,
                            void* userContext);
/// Returns once every item of the task behind userTask has run.
using FinishTaskFn = void(void* userTask, void* userContext);

/// Advanced: the solver's tuning (docs/solver.md, docs/stability.md say how
/// each default was chosen). The defaults suit almost every game; change them
/// to compare or to buy stiffness with time. Each value is validated with the
/// WorldDef (its field named "tuning.X") and, like substeps, must agree
/// between a snapshot and the world that restores it.
struct SolverTuning {
    /// Joint trees solved exactly, default true: the revolute joints' point
    /// rows and the rigid welds that form a tree among an island's dynamic
    /// bodies are solved by a sparse direct factorisation each substep, so a
    /// light chain holds a load a million times heavier; joints in loops and
    /// all other joints stay iterative. false: every joint iterative (no
    /// union-find over the step's joints; a heavy load stretches a chain).
    bool enableJointDirectSolve = true;
    /// Relax passes over the contacts per substep, within [1,
    /// kMaxContactRelaxPasses], default 1: each extra pass stiffens stacks
    /// for one more contact pass per substep (joints are relaxed once).
    int contactRelaxPasses = 1;
    /// Shock propagation in the first relax pass, within (0, 1], default
    /// 0.25; 1 turns it off: a contact between two movable bodies whose
    /// normal is within 45 degrees of up moves its lower body by this
    /// fraction of what its mass gives (its derived masses scaled to match),
    /// so a body yields less to the one it carries. No effect without gravity.
    float relaxShockScale = 0.25f;
    /// The soft contact rows' leak, within (0, 1], default 0.65; 1 is Box2D
    /// v3's soft step: a resting contact sinks by this fraction of its
    /// spring's share, but the rest of its last impulse is kept, which takes
    /// damping from a structure's slow modes (too low, an arch rocks itself
    /// apart).
    float contactLeakScale = 0.65f;
};

/// Settings of a world.
struct WorldDef {
    Vec2 gravity{0.0f, -10.0f};  ///< m/s², default (0, -10)
    int substeps = 4;            ///< solver substeps per step, >= 1, default 4
    BroadphaseType broadphase = BroadphaseType::Tree;  ///< default Tree
    bool enableSleep = true;       ///< islands at rest fall asleep, default true
    bool enableContinuous = true;  ///< time of impact for fast bodies, default true
    int workerCount = 1;           ///< threads used by step(), >= 1; results never depend on it
    /// Contact stiffness, Hz, default 58; capped at a quarter of the substep
    /// rate (60 Hz at 4 substeps of a 1/60 s step). A contact carrying n
    /// bodies sinks about n·g/ω², so tall stacks that must not sink need
    /// more substeps *and* a higher hertz: 8 substeps at 116 Hz sink a
    /// quarter as much, for about 1.5 times the step (docs/stability.md,
    /// "Stiffness bought with substeps").
    float contactHertz = 58.0f;
    float contactDampingRatio = 10.0f;  ///< contact damping ratio, default 10
    float jointHertz = 60.0f;           ///< joint softness, Hz, default 60
    float jointDampingRatio = 2.0f;     ///< joint damping ratio, default 2
    float contactPushMaxSpeed =
        1.0f;  ///< the largest speed at which overlapping shapes are pushed apart at a 1/60 s step,
               ///< m/s, default 1 (scaled by 60·dt for longer steps)
    float restitutionThreshold = 1.0f;  ///< contacts slower than this do not bounce, m/s, default 1
    float hitEventThreshold = 1.0f;     ///< least approach speed for a hit event, m/s, default 1
    float maxLinearSpeed = 400.0f;      ///< speed clamp, m/s, default 400
    /// Contacts and joints start each step from the impulses of the last
    /// one, default true. Off, stacks need many more substeps to settle;
    /// for tests and comparisons.
    bool enableWarmStarting = true;
    FrictionMixing frictionMixing = FrictionMixing::GeometricMean;  ///< default √(μa·μb)
    RestitutionMixing restitutionMixing = RestitutionMixing::Max;   ///< default max(ea, eb)
    SimdWidth simdWidth = SimdWidth::Auto;  ///< contact solver lanes, default Auto
    /// Contact budget, >= 0, default 1 000 000 (a world at it: about 650 MB).
    /// A step never creates contacts beyond it: new pairs over the budget are
    /// left out (those with the lowest shape indices are kept, so the result
    /// stays deterministic), Counters::pairsOverBudget says how many, and
    /// World::contactBudgetExceeded() turns true. Bounds the memory and time
    /// of degenerate scenes (thousands of bodies at one point).
    int maxContacts = 1000000;
    /// Budget on the shapes the sensors' overlap lists hold in all, >= 0,
    /// default 1000000 (at the budget the lists and the step's sensor events
    /// take at most 48 bytes an overlap). Sensors are updated in a fixed order; the one that would
    /// pass the budget keeps its lowest shape ids, and the sensors after it are not queried that
    /// step: their lists are empty (end events for what they held). Counters::sensorsOverBudget
    /// counts them and World::sensorBudgetExceeded() turns true (docs/robustness.md, "Budgets").
    int maxSensorOverlaps = 1000000;
    /// Seamless tiled terrain, default true: separate segments and open chain
    /// ends that meet end to end (ends within kLinearSlop, on static bodies or
    /// on one body; two chain ends only when their normals agree) collide
    /// as one smooth surface. Each end takes the neighbour's far point as its
    /// ghost vertex, so a seam is an inner chain vertex: no bump or snag.
    /// Three or more ends at one point are not joined. Static polygon tiles
    /// (radius 0) are joined too: where edges of other tiles cover an edge
    /// (collinear, facing the other way) it never collides, and the exposed
    /// rest collides as chain segments continuing into the neighbouring
    /// tiles, segments and chain ends. false: every tile keeps its own
    /// corners. See docs/narrowphase.md.
    bool joinTileSeams = true;
    /// Manifold reuse (Box2D v3's contact recycling), metres within
    /// [0, kMaxContactReuseDistance], default 0.05 (Box2D v3's value; 0 =
    /// off). Above 0, a contact
    /// whose two bodies moved less than this relative to each other since
    /// its manifold was computed (and less than kSpeculativeDistance when it
    /// had no points; neither body fast or a bullet; each turned less than
    /// 11.5°) keeps that manifold, its points moved with the bodies, instead
    /// of running the narrowphase again. Box2D v3 uses 0.05 m (10 linear
    /// slops). Faster collide stage for piles at rest, at the price of points
    /// up to this distance out of date: see docs/solver.md, "Manifold reuse"
    /// (why it is on by default).
    float contactReuseDistance = 0.05f;
    /// Advanced: how the solver trades accuracy against speed (SolverTuning).
    SolverTuning tuning{};
    void* userData = nullptr;
    /// The game's own task system for step()'s parallel work when workerCount
    /// > 1; give both or neither. Default (nullptr): Carom's own pool of
    /// workerCount - 1 threads. Carom calls them from the thread running
    /// step() and runs part of the work on that thread too. The solver's task
    /// has workers that wait for each other between stages, so items should
    /// run on distinct threads at the same time for speed; any schedule
    /// (even one item after another) still completes with the same result.
    EnqueueTaskFn* enqueueTask = nullptr;
    FinishTaskFn* finishTask = nullptr;
    void* userTaskContext = nullptr;  ///< passed to enqueueTask and finishTask
};

/// Velocity components a body keeps at zero. A locked axis acts as if the
/// body had infinite mass along it (infinite inertia for angularZ): gravity,
/// forces, impulses, contacts and joints never move the body along it, and
/// what pushes against it meets an immovable body on that axis.
struct MotionLocks {
    bool linearX = false;   ///< no motion along world x
    bool linearY = false;   ///< no motion along world y
    bool angularZ = false;  ///< no rotation (BodyDef::fixedRotation is the same lock)
};

/// A body: a rigid frame that shapes attach to.
struct BodyDef {
    BodyType type = BodyType::Static;  ///< default Static
    Vec2 position{0.0f, 0.0f};         ///< world position of the body origin, metres
    float angle = 0.0f;                ///< radians, counter-clockwise
    Vec2 linearVelocity{0.0f, 0.0f};   ///< of the centre of mass, m/s
    float angularVelocity = 0.0f;      ///< rad/s
    float linearDamping = 0.0f;        ///< 1/s, >= 0
    float angularDamping = 0.0f;       ///< 1/s, >= 0
    float gravityScale = 1.0f;         ///< multiplies the world gravity
    float sleepThreshold = 0.05f;      ///< speed below which the body may sleep, m/s, >= 0
    bool fixedRotation = false;        ///< no rotation (infinite inertia): motionLocks.angularZ
    MotionLocks motionLocks{};  ///< axes held still; angularZ or fixedRotation locks rotation
    bool isBullet = false;      ///< continuous collision against dynamic bodies too
    /// The body's contacts may keep their manifolds while the pair hardly
    /// moves (WorldDef::contactReuseDistance), default true; false: every
    /// contact of this body runs the narrowphase each step (Box2D v3.2's
    /// per-body switch for contact recycling), for a body whose exact points
    /// matter more than the collide stage's time.
    bool enableContactReuse = true;
    bool isAwake = true;      ///< starts awake
    bool enableSleep = true;  ///< may fall asleep
    /// Takes part in the simulation; a disabled body keeps its pose and
    /// velocity but has no contacts, no acting joints and is invisible to
    /// queries until World::enableBody (default true).
    bool isEnabled = true;
    /// The body's name (World::name, World::findBody); empty: none. The world
    /// copies it into its own cold per-body storage, so the def stays a cheap
    /// value and the text need only live until createBody returns. At most
    /// kMaxBodyNameLength bytes, no NUL byte; any other bytes are kept as
    /// given (UTF-8 is expected, not checked). Names need not be unique.
    std::string_view name{};
    void* userData = nullptr;
};

/// Collision filtering. Two shapes collide when
/// (a.category & b.mask) != 0 and (b.category & a.mask) != 0, unless they
/// share a non-zero group: then a positive group always collides and a
/// negative group never does.
struct Filter {
    uint64_t categoryBits = 1;  ///< what this shape is
    uint64_t maskBits = ~0ull;  ///< what it collides with
    int32_t groupIndex = 0;     ///< override, see above
};

/// Material and flags of a shape; the geometry is passed separately.
struct ShapeDef {
    float density = 1.0f;            ///< kg/m², >= 0, default 1
    float friction = 0.6f;           ///< Coulomb coefficient, >= 0, default 0.6
    float restitution = 0.0f;        ///< bounciness, >= 0, default 0
    float rollingResistance = 0.0f;  ///< >= 0, default 0
    bool isSensor = false;           ///< reports overlaps, no collision response
    Filter filter{};
    bool enableContactEvents = true;    ///< contact begin/end events
    bool enableSensorEvents = true;     ///< may be seen by sensors
    bool enableHitEvents = false;       ///< hit events above the world threshold
    bool enablePreSolveEvents = false;  ///< calls the world's pre-solve callback
    /// Conveyor belt: the surface moves along itself at this speed, m/s,
    /// within ±kMaxLinearSpeed, default 0. Positive runs clockwise around the
    /// shape: what rests on top of it is carried towards +x (Box2D v3's
    /// tangentSpeed). Friction drives the relative sliding speed to it.
    float tangentSpeed = 0.0f;
    /// The game's material id, handed to the friction and restitution
    /// callbacks (World::setFrictionCallback), default 0.
    uint64_t userMaterialId = 0;
    bool updateBodyMass = true;  ///< recompute the body's mass now
    void* userData = nullptr;
};

/// A chain: a polyline (or loop) of one-sided segments. Each collides from
/// the side its normal points to, the right of the point order: ground listed
/// from right to left has its normal up, a counter-clockwise loop collides
/// from outside. Bodies, rays and movers (World::castMover, collideMover) on
/// the other side pass through it.
struct ChainDef {
    std::vector<Vec2> points;  ///< at least 2 (at least 3 for a loop)
    bool isLoop = false;
    float friction = 0.6f;
    float restitution = 0.0f;
    float rollingResistance = 0.0f;
    Filter filter{};
    bool enableSensorEvents = false;
    void* userData = nullptr;
};

/// Air (or water) moving past a shape (World::applyWind), Box2D's
/// b2Shape_ApplyWind with the medium's density as a member. Each face of the
/// shape that meets the flow (taken in quarters, at the medium's velocity
/// relative to each quarter's midpoint) gets the dynamic pressure ½·density·speed² times the face's
/// width across the flow, as drag (along the relative flow) and lift (across it, towards the side
/// the face turns the flow away from: largest at 45°, none when the face is square to the flow or
/// along it). A rounded shape's radius adds 2r of width that gets drag only. The relative velocity
/// includes the body's own motion, so still air (velocity 0) is pure drag: a falling body reaches
/// its terminal speed, and a spinning box slows down.
struct Wind {
    Vec2 velocity{0.0f, 0.0f};  ///< the medium's, world m/s; speed at most kMaxLinearSpeed
    float drag = 1.0f;          ///< drag coefficient, in [0, kMaxMaterialCoefficient]
    float lift = 0.0f;          ///< lift coefficient, within ±kMaxMaterialCoefficient
    /// kg/m² (per metre of depth, as shape densities): air at sea level by
    /// default; water is 1000. 0 or within [kMinDensity, kMaxDensity].
    float density = 1.225f;
    /// The step the force will act over, s, within [0, kMaxTimeStep]. The
    /// force is computed from the velocities before the step, so on a shape
    /// light for its size it could overshoot: within this time it is scaled
    /// down so that it changes the shape's velocity relative to the medium by
    /// at most that relative velocity, and turns the body by at most its
    /// angular velocity when it slows it. 0: no limit.
    float timeStep = 1.0f / 60.0f;
};

}  // namespace carom
