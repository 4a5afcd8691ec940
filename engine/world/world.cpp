// World lifecycle, the step, and world-wide settings.
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <string>
#include <utility>

#include <carom/validate.hpp>

#include "engine/core/assert.hpp"
#include "engine/core/rules.hpp"
#include "engine/world/invariants.hpp"
#include "engine/world/listing.hpp"
#include "engine/world/world_impl.hpp"

namespace carom {
namespace detail {

WorldState::WorldState(const WorldDef& d) : def(d), broadphase(d.broadphase) {}

WorldImpl::WorldImpl(const WorldDef& d) : WorldState((validate(d), d)) {}

void WorldImpl::checkUnlocked() const {
    if (lockDepth.load(std::memory_order_relaxed) > 0)
        throw Error(ErrorCode::Locked,
                    "the world is locked while it runs a callback of the game's (inside step(), a "
                    "query, a mover "
                    "call, a friction or restitution callback, draw()): it cannot be changed or "
                    "snapshotted there");
}

// The step, stage by stage. Each stage is timed into the profile; the stage
// functions live beside it in engine/world/ (see world_solver.hpp); the
// kernels they run are the solver layer's (solver/, docs/architecture.md).
//
//   pairs       broadphase: new overlapping pairs of moved proxies → contacts
//   collide     narrowphase: every awake contact's manifold; begin/end
//               touching, pre-solve, island links
//   solve       awake bodies and touching contacts into dense arrays; the
//               substep loop (integrate, warm start, solve, integrate
//               positions, relax); restitution; impulses stored
//   continuous  time of impact for fast bodies, moved back to it
//   finalize    proxies moved, sensor overlaps, hit events, sleep, body events
//
// A time step of 0 runs pairs and collide only (contacts refreshed, nothing moves).
//
// A step longer than kMaxStepPart is split into equal full steps (each with
// its own collide, solve and continuous stages): one long step sees contacts
// only at its start, and its continuous stage stops a body at its first
// touch only for the next step to rotate it, flat, through the ground in one
// go (a 2 m bar tilted 0.2 rad landing at 100 m/s sank 243 m in 3 s of
// 0.1 s steps, 217 m in 0.25 s steps; none at 1/30 s). The parts' events are
// reported together, as one step's; a body's move event is its last one.
void WorldImpl::step(float timeStep, int substeps) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    profile = Profile{};
    reusedManifolds = 0;
    // The game's callbacks run inside the step: no change until it is done.
    // A callback that throws leaves the step early; neither the lock nor the
    // stepping flag may outlive it.
    const CallbackLock lock(*this);
    stepping = true;
    struct EndStepping {
        bool& flag;
        ~EndStepping() { flag = false; }
    } endStepping{stepping};
    moveEvents.clear();
    contactBeginEvents.clear();
    contactEndEvents.swap(pendingContactEndEvents);
    pendingContactEndEvents.clear();
    contactHitEvents.clear();
    sensorBeginEvents.clear();
    sensorEndEvents.swap(pendingSensorEndEvents);
    pendingSensorEndEvents.clear();
    jointEvents.clear();
    CAROM_VALIDATE_STAGE(*this, "the calls before the step", true);

    // The part count rounds down a hair so that a step that is a multiple of
    // kMaxStepPart up to float rounding gets no extra part; 1/30 s and
    // anything shorter stay one part, bit for bit the step they always were.
    const int parts = std::max(1, int(std::ceil(timeStep / kMaxStepPart - 1.0e-4f)));
    const float partStep = parts > 1 ? timeStep / float(parts) : timeStep;
    int bounded = 0;
    for (int k = 0; k < parts; ++k) {
        stepPart(partStep, substeps);
        bounded += boundedBodies;
    }
    boundedBodies = bounded;
    if (parts > 1) keepLastMoveEvents();
    profile.reusedManifolds = reusedManifolds;
    profile.step = msSince(t0);
    // A callback threw: the step is done and the world whole (callGame);
    // now the exception goes on to the game.
    if (callbackError) std::rethrow_exception(std::exchange(callbackError, nullptr));
}

// One full step of timeStep seconds; the profile's stages add up over parts.
void WorldImpl::stepPart(float timeStep, int substeps) {
    using clock = std::chrono::steady_clock;
    // Body extents changed by shape edits since the last step, once per body.
    refreshExtents();

    auto t = clock::now();
    updatePairs(*this);
    profile.pairs += msSince(t);
    CAROM_VALIDATE_STAGE(*this, "pairs", false);

    t = clock::now();
    updateContacts(*this);
    profile.collide += msSince(t);
    CAROM_VALIDATE_STAGE(*this, "collide", false);

    // The tree flush updatePairs deferred runs beside the solver's stages
    // (solveStep); without a solve, here. Done either way before anything
    // else reads or changes the trees.
    if (timeStep <= 0.0f) broadphase.finishDeferredFlush();
    if (timeStep > 0.0f) {
        t = clock::now();
        solveStep(*this, timeStep, substeps);
        profile.solve += msSince(t);
        broadphase.finishDeferredFlush();  // done beside the stages already: a no-op
        CAROM_VALIDATE_STAGE(*this, "solve", false);

        t = clock::now();
        solveContinuous(*this, timeStep);
        profile.continuous += msSince(t);
        CAROM_VALIDATE_STAGE(*this, "continuous", false);

        t = clock::now();
        finalizeStep();
        profile.finalize += msSince(t);
        CAROM_VALIDATE_STAGE(*this, "finalize", true);
    }
}

// After a split step: one move event per body, its last (the pose and sleep
// state the whole step ended with), in the order of those last events.
// In place, from the back, so no allocation.
void WorldImpl::keepLastMoveEvents() {
    auto& stamp = scratch.bodyStamp;
    if (stamp.size() < bodies.size()) stamp.resize(bodies.size(), 0u);
    if (++scratch.visitStamp == 0) {  // wrapped: clear all marks
        std::fill(stamp.begin(), stamp.end(), 0u);
        scratch.visitStamp = 1;
    }
    const uint32_t mark = scratch.visitStamp;
    size_t write = moveEvents.size();
    for (size_t read = moveEvents.size(); read-- > 0;) {
        const size_t bi = size_t(moveEvents[read].body.index);
        if (stamp[bi] == mark) continue;
        stamp[bi] = mark;
        moveEvents[--write] = moveEvents[read];
    }
    moveEvents.erase(moveEvents.begin(), moveEvents.begin() + std::ptrdiff_t(write));
}

// The net under the step's no-throw, all-finite guarantee. validate() keeps
// every accepted input far from float overflow (limits.hpp), so what is left
// is what simulation alone can reach: a body flung or driven past the world
// bound. Such a body is stopped at the bound (its origin clamped to
// ±kMaxCoordinate, its velocity and accumulated force zeroed) and counted in
// Counters::boundedBodies; a body whose state is not finite (which accepted
// input should never produce) goes back to its pose at the start of the step
// and is stopped and counted the same way. Either way the broadphase is never
// handed a box it refuses and the saved state stays within the bounds the
// API accepts. Called per body, on the workers, just before the body's boxes
// are computed (finishBodyBoxes, solver_step.cpp): at the write-back for a
// body continuous collision will not move, after it for the others: a pass
// of its own over the body records would miss the cache on every body.
// Returns whether the body was stopped.
bool enforceBodyBounds(Body& b) {
    // Speeds end the step within what the API accepts, so that any state the
    // step leaves can be given back (a saved scene loads again). The solver
    // clamps a dynamic body's speed before its constraints act; a constraint
    // gone unstable can still leave it far above.
    const bool finite = isFinite(b.xf.p) && isFinite(b.xf.q) && isFinite(b.center) &&
                        isFinite(b.v) && isFinite(b.w);
    if (finite && (lengthSquared(b.v) > kMaxLinearSpeed * kMaxLinearSpeed ||
                   std::fabs(b.w) > kMaxAngularSpeed))
        clampSpeeds(b);
    if (finite && std::fabs(b.xf.p.x) <= kMaxCoordinate && std::fabs(b.xf.p.y) <= kMaxCoordinate)
        return false;
    if (!finite) {
        b.xf.q = b.q0;
        b.xf.p = b.center0 - rotate(b.q0, b.localCenter);
    }
    b.xf.p.x = std::clamp(b.xf.p.x, -kMaxCoordinate, kMaxCoordinate);
    b.xf.p.y = std::clamp(b.xf.p.y, -kMaxCoordinate, kMaxCoordinate);
    b.center = transformPoint(b.xf, b.localCenter);
    b.v = {0.0f, 0.0f};
    b.w = 0.0f;
    b.force = {0.0f, 0.0f};
    b.torque = 0.0f;
    CAROM_ASSERT(isFinite(b.xf.p) && isFinite(b.xf.q) && isFinite(b.center));
    return true;
}

// Breakable joints: each joint the step solved whose constraint force
// (length) or torque (magnitude) is above its threshold, in solver order.
// The store stage saturated the reactions and marked those joints
// (scratch.jointOverThreshold, solver_step.cpp), where the records were in
// cache: a serial pass here over every solved joint's record would miss the
// cache on each, a cost that shows in joint-heavy scenes.
static void emitJointEvents(WorldImpl& w) {
    const auto& over = w.scratch.jointOverThreshold;
    for (size_t i = 0; i < over.size(); ++i) {
        if (!over[i]) continue;
        const int ji = w.scratch.solverJoints[i];
        const Joint& j = w.joints[size_t(ji)];
        const JointBase& base =
            std::visit([](const auto& d) -> const JointBase& { return d; }, j.def);
        w.jointEvents.push_back({w.jointId(ji), base.userData});
    }
}

// After the solver: boxes and proxies of everything that moved, sensors, hit
// events, sleep, then one move event per body that took part in the step.
void WorldImpl::finalizeStep() {
    updateProxies(*this);
    updateSensors(*this);
    emitHitEvents(*this);
    emitJointEvents(*this);
    updateSleep(*this);  // the move events came with the write-back (finalizeBodies)
}

}  // namespace detail

// ---- World -------------------------------------------------------------------

World::World(const WorldDef& def) : impl_(std::make_unique<detail::WorldImpl>(def)) {}
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

detail::WorldImpl& World::live() const {
    // A moved-from World has given its state away; using it is a bug in the
    // caller, reported as such rather than dereferenced.
    if (!impl_)
        throw Error(
            ErrorCode::StaleId,
            "this World was moved from and has no state; assign a World to it before using it");
    return *impl_;
}

void World::step(float timeStep) {
    step(timeStep, live().def.substeps);
}

void World::step(float timeStep, int substeps) {
    live().checkUnlocked();
    validateStep(timeStep, substeps);
    live().step(timeStep, substeps);
}

Vec2 World::gravity() const {
    return live().def.gravity;
}
void World::setGravity(Vec2 g) {
    live().checkUnlocked();
    detail::requireGravity(g, "gravity");
    live().def.gravity = g;
}
const WorldDef& World::def() const {
    return live().def;
}
BroadphaseType World::broadphaseType() const {
    return live().def.broadphase;
}
void World::enableSleep(bool flag) {
    live().checkUnlocked();
    live().def.enableSleep = flag;
    if (!flag)
        for (size_t i = 0; i < live().bodies.size(); ++i)
            if (live().bodies[i].alive) live().wakeBody(int(i));
}
void World::enableContinuous(bool flag) {
    live().checkUnlocked();
    live().def.enableContinuous = flag;
}
void World::setWorkerCount(int count) {
    live().checkUnlocked();
    detail::requireWorkerCount(count, "count");
    live().def.workerCount = count;
}
// ---- live settings ---------------------------------------------------------
// Each runs the rule of its WorldDef member (rules.hpp) before it writes.

float World::contactReuseDistance() const {
    return live().def.contactReuseDistance;
}
void World::setContactReuseDistance(float distance) {
    live().checkUnlocked();
    detail::requireContactReuseDistance(distance, "distance");
    live().def.contactReuseDistance = distance;
}
float World::hitEventThreshold() const {
    return live().def.hitEventThreshold;
}
void World::setHitEventThreshold(float threshold) {
    live().checkUnlocked();
    detail::requireSpeedThreshold(threshold, "threshold");
    live().def.hitEventThreshold = threshold;
}
float World::contactHertz() const {
    return live().def.contactHertz;
}
float World::contactDampingRatio() const {
    return live().def.contactDampingRatio;
}
float World::contactPushMaxSpeed() const {
    return live().def.contactPushMaxSpeed;
}
void World::setContactTuning(float hertz, float dampingRatio, float pushMaxSpeed) {
    live().checkUnlocked();
    detail::requireSpring(hertz, dampingRatio, "hertz", "dampingRatio");
    detail::requireSpeedThreshold(pushMaxSpeed, "pushMaxSpeed");
    live().def.contactHertz = hertz;
    live().def.contactDampingRatio = dampingRatio;
    live().def.contactPushMaxSpeed = pushMaxSpeed;
}
float World::jointHertz() const {
    return live().def.jointHertz;
}
float World::jointDampingRatio() const {
    return live().def.jointDampingRatio;
}
void World::setJointTuning(float hertz, float dampingRatio) {
    live().checkUnlocked();
    detail::requireSpring(hertz, dampingRatio, "hertz", "dampingRatio");
    live().def.jointHertz = hertz;
    live().def.jointDampingRatio = dampingRatio;
}
float World::restitutionThreshold() const {
    return live().def.restitutionThreshold;
}
void World::setRestitutionThreshold(float threshold) {
    live().checkUnlocked();
    detail::requireSpeedThreshold(threshold, "threshold");
    live().def.restitutionThreshold = threshold;
}
float World::maxLinearSpeed() const {
    return live().def.maxLinearSpeed;
}
void World::setMaxLinearSpeed(float speed) {
    live().checkUnlocked();
    detail::requireMaxLinearSpeed(speed, "speed");
    live().def.maxLinearSpeed = speed;
}
bool World::isWarmStartingEnabled() const {
    return live().def.enableWarmStarting;
}
void World::enableWarmStarting(bool flag) {
    live().checkUnlocked();
    live().def.enableWarmStarting = flag;
}
FrictionMixing World::frictionMixing() const {
    return live().def.frictionMixing;
}
void World::setFrictionMixing(FrictionMixing rule) {
    live().checkUnlocked();
    detail::requireFrictionMixing(rule, "rule");
    detail::setMixInput(live(), live().def.frictionMixing, rule, -1);  // contacts keep a mixed copy
}
RestitutionMixing World::restitutionMixing() const {
    return live().def.restitutionMixing;
}
void World::setRestitutionMixing(RestitutionMixing rule) {
    live().checkUnlocked();
    detail::requireRestitutionMixing(rule, "rule");
    detail::setMixInput(live(), live().def.restitutionMixing, rule, -1);
}
void World::setFrictionCallback(FrictionMixFn fn) {
    live().checkUnlocked();
    detail::setMixInput(live(), live().frictionMix, std::move(fn), -1);
}
void World::setRestitutionCallback(RestitutionMixFn fn) {
    live().checkUnlocked();
    detail::setMixInput(live(), live().restitutionMix, std::move(fn), -1);
}
bool World::hasFrictionCallback() const {
    return static_cast<bool>(live().frictionMix);
}
bool World::hasRestitutionCallback() const {
    return static_cast<bool>(live().restitutionMix);
}

const Profile& World::profile() const {
    return live().profile;
}
bool World::contactBudgetExceeded() const {
    return live().contactBudgetExceeded;
}
bool World::sensorBudgetExceeded() const {
    return live().sensorBudgetExceeded;
}

Counters World::counters() const {
    Counters c;
    c.bodies = live().bodyCount;
    c.shapes = live().shapeCount;
    c.joints = live().jointCount;
    c.awakeBodies = int(live().awakeBodies.size());
    c.contacts = live().contactCount;
    for (const auto& ct : live().contacts)
        if (ct.alive && ct.manifold.pointCount > 0) ++c.touchingContacts;
    c.islands = detail::islandCount(live());
    c.awakeIslands = detail::awakeIslandCount(live());
    c.broadphaseHeight = live().broadphase.height();
    c.boundedBodies = live().boundedBodies;
    c.contactsCreated = live().contactsCreated;
    c.contactsDestroyed = live().contactsDestroyed;
    c.pairsOverBudget = live().pairsOverBudget;
    c.sensorsOverBudget = live().sensorsOverBudget;
    c.reusedManifolds = live().reusedManifolds;
    c.nonFiniteBodies = live().nonFiniteBodies;
    return c;
}

namespace {
// The touching contacts, of the world or of one body, through sink(data).
auto touching(const detail::WorldImpl& w) {
    return [&w](auto& sink) {
        for (const auto& c : w.contacts)
            if (c.alive && c.manifold.pointCount > 0) sink(detail::makeContactData(w, c));
    };
}
auto touching(const detail::WorldImpl& w, BodyId id) {
    return [&w, &body = w.body(id)](auto& sink) {
        for (int ci : body.contacts) {
            const auto& c = w.contacts[size_t(ci)];
            if (c.manifold.pointCount > 0) sink(detail::makeContactData(w, c));
        }
    };
}
}  // namespace

std::vector<ContactData> World::contacts() const {
    return detail::listAll<ContactData>(touching(live()));
}
int World::contacts(std::span<ContactData> out) const {
    return detail::listInto(out, touching(live()));
}
std::vector<ContactData> World::contacts(BodyId id) const {
    return detail::listAll<ContactData>(touching(live(), id));
}
int World::contacts(BodyId id, std::span<ContactData> out) const {
    return detail::listInto(out, touching(live(), id));
}

ContactEvents World::contactEvents() const {
    return {live().contactBeginEvents, live().contactEndEvents, live().contactHitEvents};
}

SensorEvents World::sensorEvents() const {
    return {live().sensorBeginEvents, live().sensorEndEvents};
}

std::span<const BodyMoveEvent> World::bodyMoveEvents() const {
    return live().moveEvents;
}
std::span<const JointEvent> World::jointEvents() const {
    return live().jointEvents;
}

bool World::isValid(ContactId id) const {
    return detail::findTouchingContact(live(), id) != nullptr;
}

ContactData World::contactData(ContactId id) const {
    const detail::Contact* c = detail::findTouchingContact(live(), id);
    if (!c)
        detail::refuseWhy("id", "id is a stale or null contact id (the shapes stopped touching)",
                          ErrorCode::StaleId);
    return detail::makeContactData(live(), *c);
}

namespace {
// The list the last step's sensor pass kept, sorted by id, through sink(id);
// shapes the game destroyed since are left out so that every id is live.
auto overlapsOf(const detail::WorldImpl& w, ShapeId sensor) {
    const detail::Shape& s = w.shape(sensor, "sensor");
    if (!s.isSensor)
        detail::refuseWhy("sensor", "sensorOverlaps needs a sensor shape (ShapeDef::isSensor)");
    return [&w, &s](auto& sink) {
        if (s.sensorIndex < 0) return;
        for (ShapeId v : w.sensors[size_t(s.sensorIndex)].overlaps)
            if (w.shapes[size_t(v.index)].alive &&
                w.shapes[size_t(v.index)].generation == v.generation)
                sink(v);
    };
}
}  // namespace

std::vector<ShapeId> World::sensorOverlaps(ShapeId sensor) const {
    return detail::listAll<ShapeId>(overlapsOf(live(), sensor));
}
int World::sensorOverlaps(ShapeId sensor, std::span<ShapeId> out) const {
    return detail::listInto(out, overlapsOf(live(), sensor));
}
// Replacing a callback from inside it would destroy the function running.
void World::setPreSolveCallback(PreSolveFn fn) {
    live().checkUnlocked();
    live().preSolve = std::move(fn);
}
void World::setCustomFilterCallback(CustomFilterFn fn) {
    live().checkUnlocked();
    live().customFilter = std::move(fn);
}

uint64_t World::stateHash() const {
    // FNV-1a over the exact bits, bodies in creation order.
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](float f) {
        uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        for (int i = 0; i < 4; ++i) {
            h ^= (bits >> (8 * i)) & 0xffu;
            h *= 1099511628211ull;
        }
    };
    for (BodyId id : bodies()) {
        const auto& b = live().bodies[size_t(id.index)];
        mix(b.xf.p.x), mix(b.xf.p.y), mix(b.xf.q.c), mix(b.xf.q.s);
        mix(b.v.x), mix(b.v.y), mix(b.w);
    }
    return h;
}

}  // namespace carom
