// carom::Character (<carom/character.hpp>): a platformer character built on
// the World's public mover calls only (collideMover → solvePlanes →
// castMover, clipVector), docs/mover.md's update loop with stepping up
// ledges, snapping down slopes, one-way surfaces, riding platforms and
// pushing dynamic bodies.
//
// The mover's callbacks capture one pointer each, so the std::function the
// World takes holds them without allocating; the contact lists are members
// reused from update to update, so a warmed-up update allocates nothing.
#include <carom/character.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <carom/limits.hpp>
#include <carom/world.hpp>

#include "engine/core/rules.hpp"
#include "engine/world/snapshot_bytes.hpp"

namespace carom {

namespace {

constexpr int kMoverIterations = 5;
// A one-way surface holds a character only while the surface normal is
// within about 18 degrees of the surface body's +y.
constexpr float kOneWayCos = 0.95f;

Vec2 bodyUp(const World& w, BodyId b) {
    const Rot q = w.rotation(b);
    return {-q.s, q.c};
}

bool isDynamic(const World& w, ShapeId s) {
    return w.bodyType(w.shapeBody(s)) == BodyType::Dynamic;
}

QueryFilter filterOf(const World& w, ShapeId s) {
    const Filter f = w.shapeDef(s).filter;
    return QueryFilter{f.categoryBits, f.maskBits};
}

void requireDef(const CharacterDef& d) {
    using namespace detail;
    requireCoordinate(d.position, "position");
    requireRange(d.radius, kCharacterMinRadius, kCharacterMaxRadius, "radius", " m");
    requireRange(d.height, 0.0f, kCharacterMaxHeight, "height", " m");
    if (!(d.height > 2.0f * d.radius + kLinearSlop))
        refuseWhy("height", "must be more than twice the radius plus kLinearSlop, got height " +
                                formatFloat(d.height) + " and radius " + formatFloat(d.radius));
    requireRange(d.runSpeed, 0.0f, kCharacterMaxSpeed, "runSpeed", " m/s");
    requireRange(d.jumpSpeed, 0.0f, kCharacterMaxSpeed, "jumpSpeed", " m/s");
    requireRange(d.gravity, 0.0f, kCharacterMaxGravity, "gravity", " m/s^2");
    requireRange(d.maxSlope, 0.0f, kCharacterMaxSlope, "maxSlope", " rad");
    requireRange(d.stepHeight, 0.0f, d.height, "stepHeight", " m");
    requireRange(d.pushForce, 0.0f, kMaxForce, "pushForce", " N");
    requireBox(d.velocity, kMaxLinearSpeed, "velocity", " m/s");
}

}  // namespace

Capsule characterCapsule(float radius, float height) {
    const float half = 0.5f * height - radius;
    return Capsule{{0.0f, -half}, {0.0f, half}, radius};
}

// ---- creation ---------------------------------------------------------------

Character::Character(World& world, const CharacterDef& def) : world_(&world), def_(def) {
    requireDef(def);
    if (!def.body.isNull()) {
        if (!world.isValid(def.body)) detail::refuseStale("body", "body");
        if (world.bodyType(def.body) != BodyType::Kinematic)
            detail::refuseWhy("body", "must be a kinematic body");
    }
    // Everything is checked: from here on nothing is refused.
    BodyId id = def.body;
    if (id.isNull()) {
        BodyDef bd;
        bd.type = BodyType::Kinematic;
        bd.position = def.position;
        id = world.createBody(bd);
    }
    body_ = id;
    shape_ = world.createShape(id, ShapeDef{}, characterCapsule(def.radius, def.height));
    state_.velocity = def.velocity;
    cosSlope_ = computeCosSin(def.maxSlope).c;
    // Room for the surfaces around a character in a busy level, so the
    // first updates do not grow the lists either (more grow them once).
    constexpr std::size_t kRoom = 32;
    for (std::vector<Contact>* v : {&touched_, &pushed_, &probe_, &down_}) v->reserve(kRoom);
    pass_.reserve(kRoom);
    downPass_.reserve(kRoom);
    planes_.reserve(kRoom);
}

void Character::setOneWayShapes(std::span<const ShapeId> shapes) {
    oneWay_.assign(shapes.begin(), shapes.end());
    std::sort(oneWay_.begin(), oneWay_.end());
}

bool Character::isOneWay(ShapeId s) const {
    return std::binary_search(oneWay_.begin(), oneWay_.end(), s);
}

Capsule Character::capsuleAt(Vec2 p) const {
    const Capsule local = characterCapsule(def_.radius, def_.height);
    return Capsule{local.center1 + p, local.center2 + p, local.radius};
}

bool Character::live() const {
    return world_->isValid(body_) && world_->isValid(shape_);
}

// ---- the mover ----------------------------------------------------------------

// The planes around the capsule at pos. A one-way surface counts only when
// the character is on its top side and not sunk into it (rising through it,
// it is not there); such surfaces are listed in passThrough for the cast.
void Character::collect(Vec2 pos, std::vector<Contact>& out, std::vector<ShapeId>& passThrough) {
    out.clear();
    passThrough.clear();
    struct Ctx {
        Character* self;
        std::vector<Contact>* out;
        std::vector<ShapeId>* pass;
    } ctx{this, &out, &passThrough};
    world_->collideMover(
        capsuleAt(pos), filterOf(*world_, shape_), [c = &ctx](ShapeId s, const PlaneResult& r) {
            Character& me = *c->self;
            const World& w = *me.world_;
            ++me.work_;
            if (s == me.shape_) return true;
            if (!me.ignore_.isNull() && w.shapeBody(s) == me.ignore_) return true;
            if (me.isOneWay(s) && (dot(r.plane.normal, bodyUp(w, w.shapeBody(s))) < kOneWayCos ||
                                   r.plane.offset > kLinearSlop)) {
                c->pass->push_back(s);
                return true;
            }
            Contact t{CollisionPlane{r.plane}, s, r.point};
            // A dynamic body gives way beyond one step's run (it is
            // pushed by impulse): static and kinematic surfaces always
            // win, so a box squeezed against the character can never
            // press it into the floor.
            if (isDynamic(w, s))
                t.plane.pushLimit =
                    me.def_.runSpeed * me.dt_ + kSpeculativeDistance - r.plane.offset;
            c->out->push_back(t);
            return true;
        });
}

// castMover from pos along step, through the character's own capsule, the
// ground it is carried by, and one-way surfaces it rises through or is in.
float Character::castFraction(Vec2 pos, Vec2 step, const std::vector<ShapeId>& passThrough) {
    struct Ctx {
        Character* self;
        const std::vector<ShapeId>* pass;
        Vec2 step;
    } ctx{this, &passThrough, step};
    return world_->castMover(
        capsuleAt(pos), step, filterOf(*world_, shape_), [c = &ctx](ShapeId s) {
            Character& me = *c->self;
            const World& w = *me.world_;
            ++me.work_;
            if (s == me.shape_) return false;
            if (!me.ignore_.isNull() && w.shapeBody(s) == me.ignore_) return false;
            if (me.isOneWay(s)) {
                // Rising (relative to the surface's up) or already inside: passes.
                if (dot(c->step, bodyUp(w, w.shapeBody(s))) > 0.0f) return false;
                if (std::find(c->pass->begin(), c->pass->end(), s) != c->pass->end()) return false;
            }
            return true;
        });
}

// Straight down by at most `drop` (no sliding): for stepping down onto a
// ledge or staying on a slope, where sliding along a corner would lose ground.
Vec2 Character::castDown(Vec2 pos, float drop) {
    collect(pos, down_, downPass_);
    const Vec2 step{0.0f, -drop};
    return pos + castFraction(pos, step, downPass_) * step;
}

// The update loop of docs/mover.md: collide, solve, cast, advance, at most
// five times. Returns where the mover ends; `touched` gets the contacts of
// the last iteration with their pushes, and `pushed` every contact that
// pushed in any iteration (what the mover ran into).
Vec2 Character::moveBy(Vec2 pos, Vec2 delta, std::vector<Contact>& touched,
                       std::vector<Contact>* pushed) {
    const Vec2 target = pos + delta;
    for (int i = 0; i < kMoverIterations; ++i) {
        collect(pos, touched, pass_);
        planes_.clear();
        for (const Contact& t : touched) planes_.push_back(t.plane);
        const Vec2 step = solvePlanes(target - pos, planes_).delta;
        for (std::size_t k = 0; k < planes_.size(); ++k) {
            touched[k].plane.push = planes_[k].push;
            if (pushed && planes_[k].push > 0.0f) pushed->push_back(touched[k]);
        }
        pos = pos + castFraction(pos, step, pass_) * step;
        if (lengthSquared(target - pos) < kLinearSlop * kLinearSlop) break;
    }
    return pos;
}

bool Character::walkable(const Contact& t) const {
    return t.plane.plane.normal.y >= cosSlope_ && -t.plane.plane.offset <= kSpeculativeDistance;
}

// The walkable contact the character stands on at pos (the closest), if any.
const Character::Contact* Character::groundAt(Vec2 pos, std::vector<Contact>& contacts) {
    collect(pos, contacts, pass_);
    const Contact* best = nullptr;
    for (const Contact& t : contacts) {
        if (walkable(t) && (best == nullptr || t.plane.plane.offset > best->plane.plane.offset))
            best = &t;
    }
    return best;
}

// ---- the step -------------------------------------------------------------------

void Character::beginStep() {
    work_ = 0;
    if (!live()) return;
    dt_ = 0.0f;
    const Vec2 pos = world_->position(body_);
    const Contact* g = state_.velocity.y > 0.0f ? nullptr : groundAt(pos, probe_);
    state_.ground = g ? world_->shapeBody(g->shape) : BodyId{};
    state_.groundPoint = g ? g->point : Vec2{0.0f, 0.0f};
    state_.groundLocal = g ? world_->localPoint(state_.ground, g->point) : Vec2{0.0f, 0.0f};
    state_.groundNormal = g ? g->plane.plane.normal : Vec2{0.0f, 1.0f};
}

void Character::update(const CharacterInput& input, float dt) {
    detail::requireRange(input.move, -1.0f, 1.0f, "input.move");
    detail::requireRange(dt, 0.0f, kMaxTimeStep, "dt", " s");
    work_ = 0;
    if (!live()) return;
    World& w = *world_;
    dt_ = dt;
    ignore_ = BodyId{};
    const Vec2 start = w.position(body_);
    Vec2 pos = start;
    const bool wasStanding = state_.grounded;
    const bool wasGrounded = !state_.ground.isNull() && w.isValid(state_.ground);
    CharacterEvents events;

    // Carried by what it stood on: the displacement of the very point it
    // touched, so a turning platform carries it too. The ground itself is
    // left out of this move (it moved along).
    if (wasGrounded) {
        const Vec2 carry = w.worldPoint(state_.ground, state_.groundLocal) - state_.groundPoint;
        if (lengthSquared(carry) > 0.0f) {
            ignore_ = state_.ground;
            pos = moveBy(pos, carry, touched_, nullptr);
            ignore_ = BodyId{};
        }
    }

    // The wanted velocity: run from the input, jump from the ground, fall.
    Vec2 v = state_.velocity;
    v.x = input.move * def_.runSpeed;
    const bool jumped = wasGrounded && input.jump && def_.jumpSpeed > 0.0f;
    if (jumped)
        v.y = def_.jumpSpeed;
    else if (wasGrounded)
        v.y = std::max(v.y, 0.0f);
    else
        v.y -= def_.gravity * dt;

    // Ground too steep to walk (a static or kinematic face that leans back,
    // steeper than maxSlope) stops the run into it: the character slides
    // down it under gravity instead of climbing it. A ledge no taller than
    // stepHeight is stepped up instead, when that ends on walkable ground.
    collect(pos, touched_, pass_);
    bool steepAhead = false;
    for (const Contact& t : touched_) {
        const Vec2 n = t.plane.plane.normal;
        if (!isDynamic(w, t.shape) && n.y > -0.01f && n.y < cosSlope_ && n.x * v.x < 0.0f &&
            -t.plane.plane.offset <= kSpeculativeDistance)
            steepAhead = true;
    }
    bool stepped = false;
    if (steepAhead && wasGrounded && !jumped && def_.stepHeight > 0.0f) {
        const Vec2 run{v.x * dt, 0.0f};
        const Vec2 up = moveBy(pos, {0.0f, def_.stepHeight}, touched_, nullptr);
        const Vec2 across = moveBy(up, run, touched_, nullptr);
        const Vec2 down = castDown(across, up.y - pos.y + kLinearSlop);
        // Kept when it got on (at least half the run) and stands on walkable
        // ground no more than stepHeight above its foot (the rounded foot
        // slides up over a corner a little above the lift, and would rest on
        // a taller ledge's edge).
        const Contact* top =
            std::fabs(down.x - pos.x) > 0.5f * std::fabs(run.x) ? groundAt(down, probe_) : nullptr;
        const float foot = pos.y - 0.5f * def_.height;
        if (top != nullptr && top->point.y - foot <= def_.stepHeight + kLinearSlop) {
            pos = down;
            stepped = true;
        }
    }
    if (steepAhead && !stepped) v.x = 0.0f;

    const Vec2 wanted = v;
    pushed_.clear();
    // Standing, it also presses into its ground by the speculative distance,
    // so it settles at one linear slop over the ground instead of hovering.
    // It presses along the ground's normal: pressed straight down, the plane
    // solver would slide it down a slope by that distance's share along it
    // every step, and a character standing still on a slope would creep.
    const Vec2 stick =
        wasGrounded && !jumped ? -kSpeculativeDistance * state_.groundNormal : Vec2{0.0f, 0.0f};
    if (!stepped) pos = moveBy(pos, dt * v + stick, touched_, &pushed_);
    planes_.clear();
    for (const Contact& t : touched_) planes_.push_back(t.plane);
    v = clipVector(v, planes_);

    // Rising into a surface that faces down: the ceiling.
    if (wanted.y > 0.0f) {
        for (const Contact& t : pushed_) {
            if (t.plane.plane.normal.y < 0.0f) {
                events.hitCeiling = true;
                events.ceiling = w.shapeBody(t.shape);
                break;
            }
        }
    }

    // Down a slope or a ledge no taller than stepHeight, a running character
    // stays on the ground rather than hopping off it.
    const Contact* g = groundAt(pos, probe_);
    if (g == nullptr && wasGrounded && !jumped && def_.stepHeight > 0.0f) {
        const Vec2 down = castDown(pos, def_.stepHeight);
        g = groundAt(down, probe_);
        if (g != nullptr) pos = down;
    }
    state_.grounded = g != nullptr;
    state_.ground = g ? w.shapeBody(g->shape) : BodyId{};  // reported; beginStep sets it again
    if (state_.grounded && !jumped) v.y = 0.0f;  // no bounce, no creep from clipping on slopes
    // Within the engine's bounds, as World::step keeps bodies: a character
    // falling out of a level forever stops at the world's edge.
    v.y = std::max(v.y, -kMaxLinearSpeed);
    if (std::fabs(pos.x) > kMaxCoordinate || std::fabs(pos.y) > kMaxCoordinate) {
        pos = {std::clamp(pos.x, -kMaxCoordinate, kMaxCoordinate),
               std::clamp(pos.y, -kMaxCoordinate, kMaxCoordinate)};
        v = {0.0f, 0.0f};
    }
    state_.velocity = v;

    push(wanted, dt);

    if (pos != start) w.setTransform(body_, Transform{pos, Rot{1.0f, 0.0f}});

    events.jumped = jumped;
    events.landed = state_.grounded && !wasStanding;
    events.leftGround = !state_.grounded && wasStanding;
    state_.events = events;
}

// Dynamic bodies it ran into are pushed (an impulse at the touching point,
// at most pushForce × dt per step and body) towards the speed the character
// wanted, so a box moves off at a walk and the character follows it; the
// mover itself never goes into them.
void Character::push(Vec2 wanted, float dt) {
    World& w = *world_;
    const float maxImpulse = def_.pushForce * dt;
    for (std::size_t k = 0; k < pushed_.size() && maxImpulse > 0.0f; ++k) {
        const Contact& t = pushed_[k];
        const BodyId b = w.shapeBody(t.shape);
        if (!isDynamic(w, t.shape) || std::fabs(t.plane.plane.normal.y) >= cosSlope_) continue;
        bool seen = false;
        for (std::size_t j = 0; j < k; ++j) seen = seen || w.shapeBody(pushed_[j].shape) == b;
        if (seen) continue;
        const Vec2 dir = -1.0f * t.plane.plane.normal;
        const float want = dot(wanted, dir) - dot(w.pointVelocity(b, t.point), dir);
        if (!(want > 0.0f)) continue;
        w.applyLinearImpulse(b, std::min(maxImpulse, w.mass(b) * want) * dir, t.point, true);
    }
}

// ---- state ------------------------------------------------------------------------

void Character::restore(const CharacterState& s) {
    detail::requireBox(s.velocity, kMaxLinearSpeed, "velocity", " m/s");
    detail::requireCoordinate(s.groundPoint, "groundPoint");
    detail::requireCoordinate(s.groundLocal, "groundLocal");
    if (!detail::isUnitVector(s.groundNormal))
        detail::refuse("groundNormal", "a unit vector", detail::formatVec(s.groundNormal));
    if (!s.ground.isNull() && !world_->isValid(s.ground)) detail::refuseStale("ground", "body");
    if (!s.events.ceiling.isNull() && !world_->isValid(s.events.ceiling))
        detail::refuseStale("events.ceiling", "body");
    state_ = s;
}

namespace {

constexpr char kTag[8] = {'C', 'A', 'R', 'O', 'M', 'C', 'H', 'R'};
constexpr std::uint32_t kVersion = 1;

struct ByteWriter {
    CharacterStateBytes& out;
    std::size_t at = 0;
    void raw(const void* p, std::size_t n) {
        // Little-endian hosts only (the World's snapshot makes the same
        // assumption): the bytes are the values' own.
        std::memcpy(out.data() + at, p, n);
        at += n;
    }
    void u32(std::uint32_t x) { raw(&x, 4); }
    void f32(float x) { raw(&x, 4); }
    void vec(Vec2 v) {
        f32(v.x);
        f32(v.y);
    }
    void id(BodyId b) {
        raw(&b.index, 4);
        raw(&b.generation, 4);
    }
};

struct ByteReader {
    std::span<const std::uint8_t> in;
    std::size_t at = 0;
    void raw(void* p, std::size_t n) {
        std::memcpy(p, in.data() + at, n);
        at += n;
    }
    std::uint32_t u32() {
        std::uint32_t x;
        raw(&x, 4);
        return x;
    }
    float f32() {
        float x;
        raw(&x, 4);
        return x;
    }
    Vec2 vec() {
        const float x = f32();
        return {x, f32()};
    }
    BodyId id() {
        BodyId b;
        raw(&b.index, 4);
        raw(&b.generation, 4);
        return b;
    }
};

}  // namespace

CharacterStateBytes characterStateToBytes(const CharacterState& s) {
    CharacterStateBytes out{};
    ByteWriter wr{out};
    wr.raw(kTag, 8);
    wr.u32(kVersion);
    const std::uint32_t flags = (s.grounded ? 1u : 0u) | (s.events.landed ? 2u : 0u) |
                                (s.events.leftGround ? 4u : 0u) | (s.events.jumped ? 8u : 0u) |
                                (s.events.hitCeiling ? 16u : 0u);
    wr.u32(flags);
    wr.vec(s.velocity);
    wr.id(s.ground);
    wr.vec(s.groundPoint);
    wr.vec(s.groundLocal);
    wr.vec(s.groundNormal);
    wr.id(s.events.ceiling);
    const std::uint64_t sum = detail::snapshotChecksum(out.data(), wr.at);
    wr.raw(&sum, 8);
    return out;
}

CharacterState characterStateFromBytes(std::span<const std::uint8_t> bytes) {
    if (bytes.size() != kCharacterStateBytes)
        detail::refuse("bytes", "of size " + std::to_string(kCharacterStateBytes),
                       std::to_string(bytes.size()) + " bytes");
    if (std::memcmp(bytes.data(), kTag, 8) != 0)
        detail::refuseWhy("bytes", "not a character state (the tag is not CAROMCHR)");
    ByteReader rd{bytes, 8};
    const std::uint32_t version = rd.u32();
    if (version != kVersion)
        detail::refuse("bytes", "of version " + std::to_string(kVersion),
                       "version " + std::to_string(version));
    std::uint64_t sum;
    std::memcpy(&sum, bytes.data() + kCharacterStateBytes - 8, 8);
    if (sum != detail::snapshotChecksum(bytes.data(), kCharacterStateBytes - 8))
        detail::refuseWhy("bytes", "damaged: the checksum does not match");
    const std::uint32_t flags = rd.u32();
    if (flags > 31u) detail::refuseWhy("bytes", "damaged: unknown flags");
    CharacterState s;
    s.grounded = (flags & 1u) != 0;
    s.events.landed = (flags & 2u) != 0;
    s.events.leftGround = (flags & 4u) != 0;
    s.events.jumped = (flags & 8u) != 0;
    s.events.hitCeiling = (flags & 16u) != 0;
    s.velocity = rd.vec();
    s.ground = rd.id();
    s.groundPoint = rd.vec();
    s.groundLocal = rd.vec();
    s.groundNormal = rd.vec();
    s.events.ceiling = rd.id();
    return s;
}

}  // namespace carom
