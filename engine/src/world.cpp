// World lifecycle, the step, and world-wide settings.
#include <algorithm>
#include <cstring>
#include <string>

#include "engine/src/world_impl.hpp"

namespace carom {
namespace detail {

namespace {
[[noreturn]] void invalid(const std::string& what) { throw Error(ErrorCode::InvalidArgument, what); }

void validateWorldDef(const WorldDef& d) {
    if (!isFinite(d.gravity)) invalid("world gravity must be finite");
    if (d.substeps < 1) invalid("world substeps must be >= 1");
    if (d.workerCount < 1) invalid("world worker count must be >= 1");
    const float nonNegative[] = {d.contactHertz,      d.contactDampingRatio, d.jointHertz,
                                 d.jointDampingRatio, d.contactPushMaxSpeed, d.restitutionThreshold,
                                 d.hitEventThreshold};
    for (float x : nonNegative)
        if (!isFinite(x) || x < 0.0f) invalid("world solver settings must be finite and >= 0");
    if (!isFinite(d.maxLinearSpeed) || !(d.maxLinearSpeed > 0.0f))
        invalid("world max linear speed must be finite and > 0");
    if (d.maxContacts < 0) invalid("world max contacts must be >= 0");
}
}  // namespace

WorldImpl::WorldImpl(const WorldDef& d) : def(d), broadphase((validateWorldDef(d), d.broadphase)) {}

void WorldImpl::checkUnlocked() const {
    if (locked) throw Error(ErrorCode::Locked, "the world cannot be changed during step()");
}

// The step, stage by stage. Each stage is timed into the profile; the stage
// functions live in solver/ (see solver/world_solver.hpp).
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
void WorldImpl::step(float timeStep, int substeps) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    profile = Profile{};
    locked = true;
    // A user callback that throws leaves the step early; the world must not
    // stay locked for ever after.
    struct Unlock {
        bool& flag;
        ~Unlock() { flag = false; }
    } unlock{locked};
    moveEvents.clear();
    contactBeginEvents.clear();
    contactEndEvents.swap(pendingContactEndEvents);
    pendingContactEndEvents.clear();
    contactHitEvents.clear();
    sensorBeginEvents.clear();
    sensorEndEvents.swap(pendingSensorEndEvents);
    pendingSensorEndEvents.clear();

    auto t = clock::now();
    updatePairs(*this);
    profile.pairs = msSince(t);

    t = clock::now();
    updateContacts(*this);
    profile.collide = msSince(t);

    if (timeStep > 0.0f) {
        t = clock::now();
        solveStep(*this, timeStep, substeps);
        profile.solve = msSince(t);

        t = clock::now();
        solveContinuous(*this, timeStep);
        profile.continuous = msSince(t);

        t = clock::now();
        finalizeStep();
        profile.finalize = msSince(t);
    }
    profile.step = msSince(t0);
}

// After the solver: boxes and proxies of everything that moved, sensors, hit
// events, sleep, then one move event per body that took part in the step.
void WorldImpl::finalizeStep() {
    updateProxies(*this);
    updateSensors(*this);
    emitHitEvents(*this);
    updateSleep(*this);
    for (int bi : scratch.stepBodies) {
        Body& b = bodies[size_t(bi)];
        b.solverIndex = -1;
        moveEvents.push_back({bodyId(bi), b.xf, b.userData, !b.awake});
    }
}

}  // namespace detail

// ---- World -------------------------------------------------------------------

World::World(const WorldDef& def) : impl_(std::make_unique<detail::WorldImpl>(def)) {}
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

void World::step(float timeStep) { step(timeStep, impl_->def.substeps); }

void World::step(float timeStep, int substeps) {
    impl_->checkUnlocked();
    if (!isFinite(timeStep) || timeStep < 0.0f)
        throw Error(ErrorCode::InvalidArgument, "time step must be finite and >= 0");
    if (substeps < 1) throw Error(ErrorCode::InvalidArgument, "substeps must be >= 1");
    impl_->step(timeStep, substeps);
}

Vec2 World::gravity() const { return impl_->def.gravity; }
void World::setGravity(Vec2 g) {
    impl_->checkUnlocked();
    if (!isFinite(g)) throw Error(ErrorCode::InvalidArgument, "gravity must be finite");
    impl_->def.gravity = g;
}
const WorldDef& World::def() const { return impl_->def; }
BroadphaseType World::broadphaseType() const { return impl_->def.broadphase; }
void World::enableSleep(bool flag) {
    impl_->checkUnlocked();
    impl_->def.enableSleep = flag;
    if (!flag)
        for (size_t i = 0; i < impl_->bodies.size(); ++i)
            if (impl_->bodies[i].alive) impl_->wakeBody(int(i));
}
void World::enableContinuous(bool flag) {
    impl_->checkUnlocked();
    impl_->def.enableContinuous = flag;
}
void World::setWorkerCount(int count) {
    impl_->checkUnlocked();
    if (count < 1) throw Error(ErrorCode::InvalidArgument, "worker count must be >= 1");
    impl_->def.workerCount = count;
}
const Profile& World::profile() const { return impl_->profile; }
bool World::contactBudgetExceeded() const { return impl_->contactBudgetExceeded; }

Counters World::counters() const {
    Counters c;
    c.bodies = impl_->bodyCount;
    c.shapes = impl_->shapeCount;
    c.joints = impl_->jointCount;
    c.awakeBodies = int(impl_->awakeBodies.size());
    c.contacts = impl_->contactCount;
    for (const auto& ct : impl_->contacts)
        if (ct.alive && ct.manifold.pointCount > 0) ++c.touchingContacts;
    c.islands = detail::islandCount(*impl_);
    c.awakeIslands = detail::awakeIslandCount(*impl_);
    c.broadphaseHeight = impl_->broadphase.height();
    c.contactsCreated = impl_->contactsCreated;
    c.contactsDestroyed = impl_->contactsDestroyed;
    c.pairsOverBudget = impl_->pairsOverBudget;
    return c;
}

std::vector<ContactData> World::contacts() const {
    std::vector<ContactData> out;
    for (const auto& c : impl_->contacts)
        if (c.alive && c.manifold.pointCount > 0) out.push_back(detail::makeContactData(*impl_, c));
    return out;
}

std::vector<ContactData> World::contacts(BodyId id) const {
    std::vector<ContactData> out;
    for (int ci : impl_->body(id).contacts) {
        const auto& c = impl_->contacts[size_t(ci)];
        if (c.manifold.pointCount > 0) out.push_back(detail::makeContactData(*impl_, c));
    }
    return out;
}

ContactEvents World::contactEvents() const {
    return {impl_->contactBeginEvents, impl_->contactEndEvents, impl_->contactHitEvents};
}

SensorEvents World::sensorEvents() const { return {impl_->sensorBeginEvents, impl_->sensorEndEvents}; }

std::span<const BodyMoveEvent> World::bodyMoveEvents() const { return impl_->moveEvents; }
void World::setPreSolveCallback(PreSolveFn fn) { impl_->preSolve = std::move(fn); }
void World::setCustomFilterCallback(CustomFilterFn fn) { impl_->customFilter = std::move(fn); }

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
        const auto& b = impl_->bodies[size_t(id.index)];
        mix(b.xf.p.x), mix(b.xf.p.y), mix(b.xf.q.c), mix(b.xf.q.s);
        mix(b.v.x), mix(b.v.y), mix(b.w);
    }
    return h;
}

}  // namespace carom
