// Carom scene files (docs/scene-format.md): load, validate, run and save.
//
// A scene file is parsed into a SceneDesc: a plain, fully validated
// description (generators expanded in place, materials resolved into each
// shape's ShapeDef, events sorted into the order they are applied). Loading
// either succeeds completely or throws SceneError; nothing half-loaded is
// ever returned. A SceneRunner then builds a World from a SceneDesc and
// steps it, applying the timed events before the steps they are due.
//
//     carom::scene::SceneDesc desc = carom::scene::loadFile("pyramid.json");
//     carom::scene::SceneRunner runner(desc);
//     while (runner.time() < desc.duration) runner.step();
//     std::cout << carom::scene::stateJson(runner);
//
// The library depends on nlohmann-json privately; this header does not.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <carom/character.hpp>
#include <carom/world.hpp>

namespace carom::scene {

// ---- limits (documented in docs/scene-format.md, "Decisions") ---------------

/// The only format version this library reads.
inline constexpr int kFormatVersion = 1;
/// Largest scene or query file accepted, bytes.
inline constexpr std::uint64_t kMaxFileBytes = 64ull << 20;
/// Deepest nesting of arrays and objects accepted.
inline constexpr int kMaxNestingDepth = 64;
/// Most bodies one scene may create in all (file bodies, generator copies and
/// spawned bodies together). Checked before anything is allocated.
inline constexpr std::int64_t kMaxBodies = 200000;
/// Most points in one chain.
inline constexpr std::int64_t kMaxChainPoints = 100000;
/// Most shapes on one body.
inline constexpr std::int64_t kMaxShapesPerBody = 4096;
/// Most steps one run may take: the scene's `duration` (in steps of its
/// `timestep`) and `carom run --steps/--seconds` are refused beyond it, so
/// that every run that starts can finish (46 hours of simulated time at 1/60 s).
inline constexpr std::int64_t kMaxSteps = 10000000;
/// Largest `substeps` and `threads`.
inline constexpr int kMaxSubsteps = 256;
inline constexpr int kMaxThreads = 256;
/// Most errors of one file listed (SceneError::errors); the rest are counted.
inline constexpr int kMaxReportedErrors = 20;

// ---- errors -----------------------------------------------------------------

/// Where a value sits in the source file: 1-based line and column (columns
/// count characters, not bytes) and its JSON path, e.g. `bodies[2].shapes[0].radius`.
struct SourceLoc {
    int line = 0;
    int column = 0;
    std::string path;
};

/// A refused scene (or query) file. what() is exactly
/// "FILE:LINE:COL: error: PATH: message" for a file that breaks the format,
/// "FILE: error: message" when the file cannot be read at all (kind Io), and
/// "FILE: error: cannot save: message" when a world cannot be written as a
/// file that would load again (kind Unsavable; FILE is the scene's file).
///
/// loadFile and loadString check every element of a file that can be wrong
/// on its own (each section, body, shape, joint and event) and throw the
/// first error in file order, with all of them in `errors`.
class SceneError : public std::runtime_error {
   public:
    enum class Kind { Invalid, Io, Unsavable };
    SceneError(std::string file, int line, int column, std::string path, std::string message);
    /// An I/O failure (missing or unreadable file).
    static SceneError io(std::string file, std::string message);
    /// A world that no scene file can hold (saveScene, sceneJson).
    static SceneError unsavable(std::string file, std::string message);

    /// Every error line: what() of each of `errors` (of this error alone when
    /// it has none), one per line, then "FILE: error: and N more errors" when
    /// some were not listed.
    std::string report() const;

    Kind kind = Kind::Invalid;
    std::string file;
    int line = 0;
    int column = 0;
    std::string path;
    std::string message;
    /// Set by loadFile and loadString: every error of the file, in file
    /// order (this one first), at most kMaxReportedErrors.
    std::vector<SceneError> errors;
    /// Errors of the file found beyond those in `errors`.
    std::int64_t moreErrors = 0;

   private:
    SceneError(Kind kind, std::string file, int line, int column, std::string path,
               std::string message, std::string what);
};

// ---- the parsed scene ---------------------------------------------------------

/// Sandbox camera: the world point at the centre and the metres visible vertically.
struct View {
    Vec2 center{0.0f, 0.0f};
    float height = 20.0f;
};

/// `world` settings.
struct WorldSettings {
    Vec2 gravity{0.0f, -10.0f};
    double timestep = 1.0 / 60.0;  ///< as written; the World steps by float(timestep)
    int substeps = 4;
    BroadphaseType broadphase = BroadphaseType::Tree;
    bool sleep = true;
    bool continuous = true;
    int threads = 1;
    bool tileSeams = true;  ///< `tile_seams`: WorldDef::joinTileSeams
    // Solver tuning and thresholds (scene-format.md "Additions"), WorldDef's defaults.
    float contactHertz = 58.0f;
    float contactDampingRatio = 10.0f;
    float contactPushMaxSpeed = 1.0f;
    float jointHertz = 60.0f;
    float jointDampingRatio = 2.0f;
    float restitutionThreshold = 1.0f;
    float hitEventThreshold = 1.0f;
    float maxLinearSpeed = 400.0f;
    bool warmStarting = true;
    FrictionMixing frictionMixing = FrictionMixing::GeometricMean;
    RestitutionMixing restitutionMixing = RestitutionMixing::Max;
    int maxContacts = 1000000;
    float contactReuseDistance =
        0.05f;  ///< `contact_reuse_distance`: WorldDef::contactReuseDistance (m, 0 = off)
    /// WorldDef::tuning: `joint_direct_solve`, `contact_relax_passes`,
    /// `relax_shock_scale`, `contact_leak_scale`.
    SolverTuning tuning{};

    /// The WorldDef these settings describe (the loader validates it, the runner creates it).
    WorldDef worldDef() const;
};

/// One entry of `materials`.
struct Material {
    float density = 1.0f;
    float friction = 0.6f;
    float restitution = 0.0f;
    float rollingResistance = 0.0f;
};

enum class ShapeKind : uint8_t { Circle, Capsule, Box, Polygon, Segment, Chain };

/// A `box` shape as written (makeOffsetBox's arguments), so that save writes
/// it back as a box: its corners as a polygon may be too close to load again.
struct BoxParams {
    Vec2 halfExtents{0.0f, 0.0f};
    Vec2 center{0.0f, 0.0f};
    float angle = 0.0f;
    float radius = 0.0f;
};

/// One shape of a body. For every kind but Chain, `geometry` is ready for
/// World::createShape (a box is a Polygon). A chain keeps its points.
struct ShapeDesc {
    ShapeKind kind = ShapeKind::Circle;
    ShapeGeometry geometry = Circle{};
    BoxParams box{};                      ///< Box only: the keys as written
    std::vector<Vec2> chainPoints;        ///< Chain only
    bool chainLoop = false;               ///< Chain only
    ShapeDef def{};                       ///< material resolved, sensor, filter
    std::optional<std::string> material;  ///< the material name, if any
    bool oneWay = false;  ///< project key `one_way`: solid only from the body's +y side
    /// Project key `wind`: the runner applies it (World::applyWind) before every step.
    std::optional<Wind> wind;
    SourceLoc loc;
};

/// The ChainDef a Chain shape makes: its points and loop flag with the
/// shape's material and filter (what the loader validates and the runner creates).
ChainDef chainDefOf(const ShapeDesc& shape);

/// Project key `character` of a kinematic body: a platformer character, an
/// upright capsule the runner moves each step with carom::Character
/// (<carom/character.hpp>) from the runner's CharacterInput. The defaults
/// are CharacterDef's.
struct CharacterDesc {
    float radius = CharacterDef{}.radius;          ///< capsule radius, m
    float height = CharacterDef{}.height;          ///< capsule height from bottom to top, m
    float runSpeed = CharacterDef{}.runSpeed;      ///< `run_speed`, m/s
    float jumpSpeed = CharacterDef{}.jumpSpeed;    ///< `jump_speed`, m/s upwards
    float gravity = CharacterDef{}.gravity;        ///< downward acceleration, m/s²
    float maxSlope = CharacterDef{}.maxSlope;      ///< `max_slope`: steepest walkable ground, rad
    float stepHeight = CharacterDef{}.stepHeight;  ///< `step_height`: tallest ledge stepped up, m
    float pushForce = CharacterDef{}.pushForce;    ///< `push_force`: most force it pushes with, N
    Vec2 velocity{0.0f, 0.0f};  ///< `velocity`: the mover's velocity (written by save)
    SourceLoc loc;
};

/// Project key `path` of a kinematic body: a moving platform that goes along
/// the waypoints at `speed`, there and back (or round, with `loop`), driven
/// each step by World::setTargetTransform.
struct PathDesc {
    std::vector<Vec2> points;  ///< world waypoints
    float speed = 1.0f;        ///< m/s along the path
    bool loop = false;  ///< from the last point back to the first, instead of back along the path
    float at = 0.0f;    ///< distance travelled along the cycle (written by save)
    SourceLoc loc;
};

/// The length of one cycle of a path: its length there and back, or round.
float pathCycle(const PathDesc& path);
/// The point a platform at distance s along the cycle is at.
Vec2 pathPoint(const PathDesc& path, float s);

/// One body (a generator copy is a BodyDesc too).
struct BodyDesc {
    std::optional<std::string> name;
    BodyDef def{};  ///< type, position, angle, velocities, flags
    std::optional<Rot>
        rotation;  ///< project key `rotation` [c, s]: exact rotation, overrides `angle`
    std::optional<MassData> mass;  ///< project key `mass`: World::setMassData after the shapes
    std::vector<ShapeDesc> shapes;
    std::optional<CharacterDesc> character;  ///< project key `character`
    std::optional<PathDesc> path;            ///< project key `path`
    SourceLoc loc;
};

/// The capsule, in the body's frame, of a character.
Capsule characterCapsule(const CharacterDesc& c);

struct JointLimit {
    float lower = 0.0f;
    float upper = 0.0f;
};
struct JointMotor {
    float speed = 0.0f;
    float maxForce = 0.0f;
};  ///< max_torque or max_force
struct JointSpring {
    float hertz = 0.0f;
    float dampingRatio = 0.0f;
    /// revolute (radians) and prismatic (metres): where the spring drives to,
    /// RevoluteJointDef::targetAngle, PrismaticJointDef::targetTranslation
    float target = 0.0f;
};

/// One joint; which fields matter depends on `type` (see scene-format.md).
/// Anchors and axes are in world coordinates at creation time.
struct JointDesc {
    JointType type = JointType::Revolute;
    std::string a;
    std::string b;
    bool collideConnected = false;
    Vec2 anchor{0.0f, 0.0f};   ///< revolute, prismatic, weld, wheel
    Vec2 axis{1.0f, 0.0f};     ///< prismatic, wheel (normalised)
    Vec2 anchorA{0.0f, 0.0f};  ///< distance
    Vec2 anchorB{0.0f, 0.0f};  ///< distance
    std::optional<JointLimit> limit;
    std::optional<JointMotor> motor;
    std::optional<JointSpring> spring;
    std::optional<float> length;  ///< distance; default: the current distance
    std::optional<float> minLength;
    std::optional<float> maxLength;
    float linearHertz = 0.0f;  ///< weld
    float angularHertz = 0.0f;
    float linearDampingRatio = 0.0f;
    float angularDampingRatio = 0.0f;
    std::optional<Vec2> linearOffset;    ///< motor; default: B's current position in A's frame
    std::optional<float> angularOffset;  ///< motor; default: the current angleB - angleA
    float maxForce = 1.0f;               ///< motor joint
    float maxTorque = 1.0f;              ///< motor joint
    float correctionFactor = 0.3f;       ///< motor joint
    float forceThreshold = FLT_MAX;  ///< every type: JointBase::forceThreshold ("force_threshold")
    float torqueThreshold =
        FLT_MAX;                ///< every type: JointBase::torqueThreshold ("torque_threshold")
    Vec2 target{0.0f, 0.0f};    ///< mouse joint (project addition): world target
    float hertz = 4.0f;         ///< mouse joint
    float dampingRatio = 1.0f;  ///< mouse joint
    // Project keys written by save for an exact round trip (override the world anchors).
    std::optional<Vec2> localAnchorA;
    std::optional<Vec2> localAnchorB;
    std::optional<Vec2> localAxisA;
    std::optional<float> referenceAngle;
    // Gear, pulley and rope joints (docs/scene-format.md, "Gear, pulley and rope joints").
    std::optional<std::string> name;  ///< any joint: the name a gear's joint_a / joint_b use
    std::string jointA;               ///< gear: a revolute or prismatic joint listed before it
    std::string jointB;
    float ratio = 1.0f;              ///< gear, pulley
    Vec2 groundAnchorA{0.0f, 0.0f};  ///< pulley
    Vec2 groundAnchorB{0.0f, 0.0f};
    std::optional<float> lengthA;  ///< pulley; default: the current rope lengths
    std::optional<float> lengthB;
    SourceLoc loc;
};

enum class EventAction : uint8_t { Impulse, SetVelocity, Spawn, Destroy, Gravity, Explode };

/// One timed event.
struct EventDesc {
    double time = 0.0;
    EventAction action = EventAction::Impulse;
    std::string body;                      ///< impulse, set_velocity, destroy
    Vec2 impulse{0.0f, 0.0f};              ///< impulse
    std::optional<Vec2> point;             ///< impulse; default: the centre of mass
    std::optional<Vec2> linearVelocity;    ///< set_velocity (absent: unchanged)
    std::optional<float> angularVelocity;  ///< set_velocity (absent: unchanged)
    std::vector<BodyDesc> bodies;          ///< spawn
    std::vector<JointDesc> joints;         ///< spawn
    Vec2 gravity{0.0f, 0.0f};              ///< gravity
    ExplosionDef explosion{};              ///< explode (project action)
    SourceLoc loc;
};

/// The figure a stability scene is judged by (project key `stability`,
/// docs/stability.md): what `carom stability` measures over the window.
enum class StabilityFigure : uint8_t {
    Drift,  ///< largest displacement of a selected body from its pose at the window start
    Sag,    ///< largest depth of a selected body below `level` (default: its height at the window
            ///< start)
    Rise,   ///< largest height of a selected body above `level`
    PeakSpeed,   ///< largest linear speed of a selected body
    JointError,  ///< largest error of a joint of the file (anchor separation, length error)
    Stretch,     ///< largest change of the distance between two body points
};

/// A point fixed in a body, for the Stretch figure.
struct BodyPoint {
    std::string body;
    Vec2 local{0.0f, 0.0f};
};

/// Project key `stability`: how a stability scene is measured.
struct StabilitySpec {
    StabilityFigure figure = StabilityFigure::Drift;
    /// Body names, or name prefixes ending in `*`; empty: every dynamic body.
    std::vector<std::string> bodies;
    double settle = 0.0;     ///< seconds: the window runs from here to `duration`
    std::int64_t every = 1;  ///< steps between samples
    std::optional<float>
        collapse;               ///< metres a selected body may end from its start and still "stand"
    std::optional<float> goal;  ///< the figure the solver work aims at (reported, not enforced)
    std::optional<float> level;     ///< Rise, Sag: the height measured from (default: each body's
                                    ///< height at the window start)
    std::optional<BodyPoint> from;  ///< Stretch: the two points
    std::optional<BodyPoint> to;
    SourceLoc loc;
};

/// Project key `warm` (docs/scene-format.md, "Saving"): World::setWarmState's
/// input with positions in the file in place of ids. A BodyId's index is the
/// body's position in `bodies` (generation 0), a JointId's the joint's in
/// `joints`; a ShapeId's generation is its body's position and its index the
/// shape's position among the body's engine shapes (the file's shapes in
/// order, a chain counting as its segments). The runner translates it.
struct WarmSection {
    WarmState state;
    /// Per entry of state.bodies: whether the file gave its `center`; the
    /// runner takes one it did not give from the body as built.
    std::vector<bool> centerGiven;
    SourceLoc loc;
};

/// A whole validated scene.
struct SceneDesc {
    std::string file;  ///< the file name given to the loader
    std::string name;  ///< `name`, or the file name without folder and extension
    std::string description;
    double duration = 10.0;
    WorldSettings world;
    std::map<std::string, Material, std::less<>> materials;
    std::vector<BodyDesc> bodies;  ///< generators expanded in place
    std::vector<JointDesc> joints;
    std::vector<EventDesc> events;  ///< in the order they are applied (stable by time)
    std::optional<View> view;
    std::optional<StabilitySpec> stability;  ///< project key `stability`
    std::optional<WarmSection> warm;         ///< project key `warm`
    std::int64_t totalBodies = 0;            ///< bodies in the file plus all spawned by events
};

/// Reads and validates a scene file. Throws SceneError.
SceneDesc loadFile(const std::string& path);
/// Validates scene text; fileName is used in messages and for the default name.
SceneDesc loadString(std::string_view json, const std::string& fileName);

// ---- running ------------------------------------------------------------------

/// Overrides of the file's world settings (the command-line flags).
struct RunOptions {
    std::optional<BroadphaseType> broadphase;
    std::optional<int> threads;
    std::optional<SimdWidth> simd{};  ///< WorldDef::simdWidth (the file has no key for it)
};

/// The character budget: shapes the runner's movers may examine in one step
/// (planes collideMover reports and candidates castMover asks about, for all
/// characters together; a character in an open level examines a few per
/// query). Characters move in creation order; once the budget is spent the
/// rest stay where they are for that step (SceneRunner::charactersOverBudget),
/// so thousands of characters piled at one point cost a bounded step.
inline constexpr std::int64_t kMaxCharacterWork = 200000;

/// What the player asks of the scene's characters for the next steps (the
/// sandbox's keys, a test's script). Every character gets the same input;
/// the runner clamps `move` to [-1, 1] (a NaN counts as 0).
using CharacterInput = carom::CharacterInput;

/// A character's state after the last step.
struct CharacterState {
    BodyId body{};
    Vec2 velocity{0.0f, 0.0f};  ///< the mover's own velocity (not the ground's)
    bool grounded = false;      ///< standing on walkable ground
    BodyId ground{};            ///< the body it stands on
};

/// A World built from a scene, plus its event script. Owns the World.
class SceneRunner {
   public:
    /// Builds the world. Throws SceneError (at the offending entry) when the
    /// engine refuses something the format allows.
    explicit SceneRunner(const SceneDesc& desc, const RunOptions& options = {});
    ~SceneRunner();
    SceneRunner(SceneRunner&&) noexcept;
    SceneRunner& operator=(SceneRunner&&) noexcept;
    SceneRunner(const SceneRunner&) = delete;
    SceneRunner& operator=(const SceneRunner&) = delete;

    World& world();
    const World& world() const;

    /// Applies the events due (those whose time is at or before the start of
    /// this step), then advances the world by one timestep. Throws SceneError
    /// at the event if the engine refuses it (only possible when the world
    /// was changed behind the runner's back, e.g. a named body destroyed).
    void step();
    /// Steps the world n times.
    void run(std::int64_t steps);

    std::int64_t steps() const;
    /// Simulated time: steps() * timestep, in double.
    double time() const;
    /// The World's step length, float(desc().world.timestep).
    float timestep() const;
    int substeps() const;
    /// Steps a run of `seconds` takes: round(seconds / timestep).
    std::int64_t stepsFor(double seconds) const;
    const SceneDesc& desc() const;

    struct BodyRecord {
        BodyId id;
        std::optional<std::string> name;
    };
    /// Bodies the scene created (file bodies, then spawned ones) in creation
    /// order; bodies destroyed by events are removed.
    const std::vector<BodyRecord>& bodies() const;
    /// The body with this name, or a null id.
    BodyId findBody(std::string_view name) const;
    /// The scene name of a body, if it has one.
    std::optional<std::string> nameOf(BodyId id) const;
    /// The scene name of a joint (key `name`), if it has one.
    std::optional<std::string> jointName(JointId id) const;
    /// True when the shape has the project key `one_way`.
    bool isOneWay(ShapeId id) const;
    /// The project key `wind` of a shape this runner created, if it has one.
    std::optional<Wind> windOf(ShapeId id) const;
    /// The `box` keys a shape was created from by this runner, or null (a
    /// shape added through the World, or not a box).
    const BoxParams* boxOf(ShapeId id) const;
    /// Events not applied yet.
    std::size_t pendingEvents() const;

    /// The input the characters follow from the next step on.
    void setInput(const CharacterInput& input);
    const CharacterInput& input() const;
    /// The scene's characters (project key `character`), in creation order.
    std::vector<CharacterState> characters() const;
    /// The `character` of a body as it is now (velocity current), or null.
    const CharacterDesc* characterOf(BodyId id) const;
    /// The `path` of a body as it is now (`at` current), or null.
    const PathDesc* pathOf(BodyId id) const;
    /// Characters the last step left where they were because the movers
    /// had examined kMaxCharacterWork shapes (0 normally), and whether any
    /// step did (docs/robustness.md, "Budgets").
    int charactersOverBudget() const;
    bool characterBudgetExceeded() const;

    /// The file's view, or one fitted to the bodies as created.
    View view() const;
    /// A view fitted to the current bodies (for an aspect ratio of 16:9).
    View fitView() const;

   private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// ---- output -----------------------------------------------------------------------

/// The state object of docs/cli.md, on one line: scene, steps, time, hash and
/// every live body in creation order.
std::string stateJson(const SceneRunner& runner);
/// The state hash as 16 lowercase hex digits (World::stateHash).
std::string hashHex(std::uint64_t hash);
/// A body's angle in (-pi, pi].
float bodyAngle(const World& world, BodyId id);

/// What saveWorld and saveScene write beyond the World (docs/scene-format.md,
/// "Saving"). Each unset header field comes from the runner's scene for
/// saveScene, and from the defaults for saveWorld: name "world", no
/// description, duration 10 s, timestep 1/60 s (a World does not know the
/// step its game uses); substeps and threads from the World's def.
struct SaveOptions {
    /// Also write the `warm` section (World::warmState): contact and joint
    /// impulses, sleep timers, islands, solver order and fat boxes, so that
    /// the reloaded world steps to the same bits as this one. Without it the
    /// reload starts cold: the same state hash at once, but the steps after
    /// may differ in their last bits while bodies touch.
    bool warm = false;
    /// false: leave mouse joints out (a drag that the caller's own tools
    /// hold, as the sandbox's when it rebuilds its world with new settings).
    bool mouseJoints = true;
    std::optional<std::string> name;
    std::optional<std::string> description;
    std::optional<double> duration;
    std::optional<double> timestep;
};

/// Any World as a scene file, from what the World can tell: settings, bodies
/// (names, poses, velocities, flags, sleep thresholds, mass overrides),
/// shapes and chains (materials, filters, event switches), joints of every
/// type, mouse joints included. Loading it gives the same state hash.
/// Throws SceneError (Unsavable) for a world no file can hold.
std::string worldJson(const World& world, const SaveOptions& options = {});
/// Writes worldJson(world, options) to path. Throws SceneError::io on failure.
void saveWorld(const World& world, const std::string& path, const SaveOptions& options = {});

/// The runner's world as a scene file: worldJson with the scene's name,
/// clock and view, its one-way platforms and box keys, and the events not
/// applied yet, their times made relative to now.
std::string sceneJson(const SceneRunner& runner, const SaveOptions& options = {});
/// Writes sceneJson(runner, options) to path. Throws SceneError::io on failure.
void saveScene(const SceneRunner& runner, const std::string& path, const SaveOptions& options = {});

}  // namespace carom::scene
