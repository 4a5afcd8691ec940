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
}
}  // namespace

WorldImpl::WorldImpl(const WorldDef& d) : def(d) { validateWorldDef(d); }

void WorldImpl::checkUnlocked() const {
    if (locked) throw Error(ErrorCode::Locked, "the world cannot be changed during step()");
}

// The step, stage by stage. Each stage is timed into the profile.
//
//   pairs       broadphase: move proxies of moved shapes, create contacts for new pairs
//   collide     narrowphase: update every contact's manifold, begin/end touching
//   solve       solver: islands, constraints, substeps (integrate, warm start,
//               solve, relax, restitution), store impulses
//   continuous  time of impact for fast bodies, move them back
//   finalize    shape boxes, sleep, body events
void WorldImpl::step(float timeStep, int substeps) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    profile = Profile{};
    moveEvents.clear();
    locked = true;

    if (timeStep > 0.0f) {
        auto t = clock::now();
        integrate(timeStep, substeps);
        profile.solve = msSince(t);

        t = clock::now();
        finalizeBodies();
        profile.finalize = msSince(t);
    }

    locked = false;
    profile.step = msSince(t0);
}

// Semi-implicit (symplectic) Euler per substep: velocities first from gravity,
// forces and damping, then positions from the new velocities.
void WorldImpl::integrate(float timeStep, int substeps) {
    const float h = timeStep / float(substeps);
    for (Body& b : bodies) {
        if (!b.alive || !b.awake || b.type == BodyType::Static) continue;
        b.center0 = b.center;
        b.q0 = b.xf.q;
        if (b.type == BodyType::Dynamic) {
            // Damping as an exact-to-first-order factor that can never flip sign.
            const float linDamp = 1.0f / (1.0f + h * b.linearDamping);
            const float angDamp = 1.0f / (1.0f + h * b.angularDamping);
            const Vec2 accel = b.invMass * b.force + (b.mass > 0.0f ? b.gravityScale : 0.0f) * def.gravity;
            const float alpha = b.invInertia * b.torque;
            for (int i = 0; i < substeps; ++i) {
                b.v = linDamp * (b.v + h * accel);
                b.w = angDamp * (b.w + h * alpha);
                b.center += h * b.v;
                b.xf.q = integrateRot(b.xf.q, h * b.w);
            }
        } else {
            for (int i = 0; i < substeps; ++i) {
                b.center += h * b.v;
                b.xf.q = integrateRot(b.xf.q, h * b.w);
            }
        }
        b.xf.p = b.center - rotate(b.xf.q, b.localCenter);
    }
}

void WorldImpl::finalizeBodies() {
    for (size_t i = 0; i < bodies.size(); ++i) {
        Body& b = bodies[i];
        if (!b.alive) continue;
        b.force = {0.0f, 0.0f};
        b.torque = 0.0f;
        if (!b.awake || b.type == BodyType::Static) continue;
        for (int s : b.shapes) shapes[size_t(s)].aabb = computeShapeAABB(shapes[size_t(s)], b.xf);
        moveEvents.push_back({bodyId(int(i)), b.xf, b.userData, false});
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
void World::enableContinuous(bool flag) { impl_->def.enableContinuous = flag; }
void World::setWorkerCount(int count) {
    impl_->checkUnlocked();
    if (count < 1) throw Error(ErrorCode::InvalidArgument, "worker count must be >= 1");
    impl_->def.workerCount = count;
}
const Profile& World::profile() const { return impl_->profile; }

Counters World::counters() const {
    Counters c;
    c.bodies = impl_->bodyCount;
    c.shapes = impl_->shapeCount;
    c.joints = impl_->jointCount;
    for (const auto& b : impl_->bodies)
        if (b.alive && b.awake && b.type != BodyType::Static) ++c.awakeBodies;
    return c;
}

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
