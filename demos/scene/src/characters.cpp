// The runner's game objects (project keys `character` and `path`,
// scene-format.md "Additions"; the mover itself is docs/mover.md).
//
// A step of the runner, around World::step:
//   drivePlatforms  each path platform gets, by setTargetTransform, the
//                   velocities that bring it to its next path point (or
//                   towards it at the engine's top speed, when farther)
//   probeGround     each character notes the walkable surface it stands on
//                   (collideMover), and where, in that body's frame
//   World::step     platforms and boxes move
//   moveCharacters  each character is carried by its ground's motion, then
//                   runs / jumps / falls with the mover (collideMover →
//                   solvePlanes → castMover), steps up ledges, snaps down
//                   slopes, pushes dynamic bodies, and its kinematic body
//                   is put where the mover ended (setTransform)
// Moving the characters after the step, against the world as it now is,
// means a platform that moved down or up under a character is met where it
// is, not where it was. Everything runs in creation and shape order, so a
// run is as deterministic as the World.
#include <algorithm>
#include <cmath>

#include <carom/limits.hpp>
#include <carom/scene.hpp>

#include "runner_impl.hpp"

namespace carom::scene {

namespace {

constexpr int kMoverIterations = 5;
// A one-way platform holds a character only while the surface normal is
// within about 18 degrees of the platform's +y, as for bodies (runner.cpp).
constexpr float kOneWayCos = 0.95f;

// What the mover sees of the world around one character for one move.
struct MoverWorld {
    World& w;
    const std::vector<ShapeId>& oneWays;  // sorted
    ShapeId self;                         // the character's capsule
    const CharacterDesc& desc;
    BodyId ignore{};  // the carrying ground during the carry move (it moves along)
    float cosSlope = 0.0f;
    float dt = 0.0f;
    std::int64_t* work = nullptr;  // shapes examined this step (the character budget)

    Capsule capsuleAt(Vec2 p) const {
        const Capsule local = characterCapsule(desc);
        return Capsule{local.center1 + p, local.center2 + p, local.radius};
    }
    QueryFilter filter() const {
        const Filter f = w.shapeDef(self).filter;
        return QueryFilter{f.categoryBits, f.maskBits};
    }
    bool oneWay(ShapeId s) const { return std::binary_search(oneWays.begin(), oneWays.end(), s); }
    Vec2 platformUp(ShapeId s) const {
        const Rot q = w.rotation(w.shapeBody(s));
        return {-q.s, q.c};
    }
};

struct Contact {
    CollisionPlane plane;
    ShapeId shape;
    Vec2 point{0.0f, 0.0f};
};

// The planes around the capsule at pos. A one-way platform counts only when
// the character is on its top side and not sunk into it (rising through it,
// it is not there); such platforms are listed in passThrough for the cast.
void collect(const MoverWorld& mw, Vec2 pos, std::vector<Contact>& out,
             std::vector<ShapeId>& passThrough) {
    out.clear();
    passThrough.clear();
    mw.w.collideMover(mw.capsuleAt(pos), mw.filter(), [&](ShapeId s, const PlaneResult& r) {
        ++*mw.work;
        if (s == mw.self) return true;
        if (!mw.ignore.isNull() && mw.w.shapeBody(s) == mw.ignore) return true;
        if (mw.oneWay(s) &&
            (dot(r.plane.normal, mw.platformUp(s)) < kOneWayCos || r.plane.offset > kLinearSlop)) {
            passThrough.push_back(s);
            return true;
        }
        Contact t{CollisionPlane{r.plane}, s, r.point};
        // A dynamic body gives way beyond one step's run (it is pushed by
        // impulse, below): static and kinematic surfaces always win, so a box
        // squeezed against the character can never press it into the floor.
        if (mw.w.bodyType(mw.w.shapeBody(s)) == BodyType::Dynamic)
            t.plane.pushLimit = mw.desc.runSpeed * mw.dt + kSpeculativeDistance - r.plane.offset;
        out.push_back(t);
        return true;
    });
}

// castMover from pos along step, through the mover's own capsule, the
// ground it is carried by, and one-way platforms it rises through or is in.
float castFraction(const MoverWorld& mw, Vec2 pos, Vec2 step,
                   const std::vector<ShapeId>& passThrough) {
    return mw.w.castMover(mw.capsuleAt(pos), step, mw.filter(), [&](ShapeId s) {
        ++*mw.work;
        if (s == mw.self) return false;
        if (!mw.ignore.isNull() && mw.w.shapeBody(s) == mw.ignore) return false;
        if (mw.oneWay(s)) {
            // Rising (relative to the platform's up) or already inside: passes.
            if (dot(step, mw.platformUp(s)) > 0.0f) return false;
            if (std::find(passThrough.begin(), passThrough.end(), s) != passThrough.end())
                return false;
        }
        return true;
    });
}

// Straight down by at most `drop` (no sliding): for stepping down onto a
// ledge or staying on a slope, where sliding along a corner would lose ground.
Vec2 castDown(const MoverWorld& mw, Vec2 pos, float drop) {
    std::vector<Contact> contacts;
    std::vector<ShapeId> passThrough;
    collect(mw, pos, contacts, passThrough);
    const Vec2 step{0.0f, -drop};
    return pos + castFraction(mw, pos, step, passThrough) * step;
}

// The update loop of docs/mover.md: collide, solve, cast, advance, at most
// five times. Returns where the mover ends; `touched` gets the contacts of
// the last iteration with their pushes, and `pushed` every contact that
// pushed in any iteration (what the mover ran into).
Vec2 moveBy(const MoverWorld& mw, Vec2 pos, Vec2 delta, std::vector<Contact>& touched,
            std::vector<Contact>* pushed) {
    const Vec2 target = pos + delta;
    std::vector<CollisionPlane> planes;
    std::vector<ShapeId> passThrough;
    for (int i = 0; i < kMoverIterations; ++i) {
        collect(mw, pos, touched, passThrough);
        planes.clear();
        for (const Contact& t : touched) planes.push_back(t.plane);
        const Vec2 step = solvePlanes(target - pos, planes).delta;
        for (std::size_t k = 0; k < planes.size(); ++k) {
            touched[k].plane.push = planes[k].push;
            if (pushed && planes[k].push > 0.0f) pushed->push_back(touched[k]);
        }
        pos = pos + castFraction(mw, pos, step, passThrough) * step;
        if (lengthSquared(target - pos) < kLinearSlop * kLinearSlop) break;
    }
    return pos;
}

bool walkable(const MoverWorld& mw, const Contact& t) {
    return t.plane.plane.normal.y >= mw.cosSlope && -t.plane.plane.offset <= kSpeculativeDistance;
}

// The walkable contact the character stands on at pos (the closest), if any.
const Contact* groundAt(const MoverWorld& mw, Vec2 pos, std::vector<Contact>& contacts) {
    std::vector<ShapeId> passThrough;
    collect(mw, pos, contacts, passThrough);
    const Contact* best = nullptr;
    for (const Contact& t : contacts) {
        if (walkable(mw, t) && (best == nullptr || t.plane.plane.offset > best->plane.plane.offset))
            best = &t;
    }
    return best;
}

bool isDynamic(const World& w, ShapeId s) {
    return w.bodyType(w.shapeBody(s)) == BodyType::Dynamic;
}

// The velocity World::setTargetTransform derives for a target with the
// body's own rotation: the move of its centre of mass over the step, as the
// engine computes it.
Vec2 targetVelocity(const World& w, BodyId id, const Transform& target, float dt) {
    const float invDt = 1.0f / dt;
    return invDt * (transformPoint(target, w.localCenterOfMass(id)) - w.worldCenterOfMass(id));
}

// The engine's rule for a velocity it is given (requireLinearVelocity).
bool withinTopSpeed(Vec2 v) {
    return lengthInDouble(v) <= double(kMaxLinearSpeed);
}

}  // namespace

// ---- creation and bookkeeping --------------------------------------------------

void SceneRunner::Impl::addGameplay(const BodyDesc& b, BodyId id) {
    if (b.character) {
        ShapeId shape = world->createShape(id, ShapeDef{}, characterCapsule(*b.character));
        Character c;
        c.body = id;
        c.shape = shape;
        c.desc = *b.character;
        characters.push_back(c);
    }
    if (b.path) {
        Platform p;
        p.body = id;
        p.path = *b.path;
        platforms.push_back(p);
    }
}

void SceneRunner::Impl::forgetGameplay(BodyId id) {
    characters.erase(std::remove_if(characters.begin(), characters.end(),
                                    [&](const Character& c) { return c.body == id; }),
                     characters.end());
    platforms.erase(std::remove_if(platforms.begin(), platforms.end(),
                                   [&](const Platform& p) { return p.body == id; }),
                    platforms.end());
}

void SceneRunner::Impl::drivePlatforms() {
    for (Platform& p : platforms) {
        const float cycle = pathCycle(p.path);
        p.path.at = std::fmod(p.path.at + p.path.speed * dt, cycle);
        if (!(p.path.at >= 0.0f) || !(p.path.at < cycle)) p.path.at = 0.0f;
        // The platform goes to its path point, at most at the engine's top
        // speed (setTargetTransform refuses a faster move): one placed far
        // from its path (`position`) goes to it at that speed, and a path
        // run at the top speed is not taken over it by the rounding of the
        // positions. The step is shortened until the velocity the engine
        // derives is within the bound, by a margin that grows each try.
        const Vec2 from = world->position(p.body);
        Transform target{pathPoint(p.path, p.path.at), world->rotation(p.body)};
        Vec2 v = targetVelocity(*world, p.body, target, dt);
        for (int k = 0; k < 24 && !withinTopSpeed(v); ++k) {
            const double scale =
                double(kMaxLinearSpeed) / lengthInDouble(v) * (1.0 - std::ldexp(1.0, k - 24));
            target.p = from + static_cast<float>(scale) * (target.p - from);
            v = targetVelocity(*world, p.body, target, dt);
        }
        try {
            if (withinTopSpeed(v)) {
                world->setTargetTransform(p.body, target, dt);
            } else {
                // Nothing within the bound (a step too short for the
                // rounding of coordinates near the world's edge): it holds.
                world->setLinearVelocity(p.body, {0.0f, 0.0f});
                world->setAngularVelocity(p.body, 0.0f);
            }
        } catch (const carom::Error& e) {
            throw SceneError(desc.file, p.path.loc.line, p.path.loc.column, p.path.loc.path,
                             std::string("refused by the engine: ") + e.what());
        }
    }
}

// The character budget (kMaxCharacterWork) is shared by the probes and the
// moves of one step, in creation order: once it is spent, the characters
// left are neither probed nor moved (counted in moveCharacters).
void SceneRunner::Impl::probeGround() {
    std::vector<Contact> contacts;
    moverWork = 0;
    for (Character& c : characters) {
        if (moverWork >= kMaxCharacterWork) break;
        MoverWorld mw{*world, oneWay,    c.shape, c.desc, {}, computeCosSin(c.desc.maxSlope).c,
                      dt,     &moverWork};
        const Vec2 pos = world->position(c.body);
        const Contact* g = c.desc.velocity.y > 0.0f ? nullptr : groundAt(mw, pos, contacts);
        c.ground = g ? world->shapeBody(g->shape) : BodyId{};
        c.groundPoint = g ? g->point : Vec2{0.0f, 0.0f};
        c.groundLocal = g ? world->localPoint(c.ground, g->point) : Vec2{0.0f, 0.0f};
    }
}

void SceneRunner::Impl::moveCharacters() {
    World& w = *world;
    std::vector<Contact> touched, pushed, probe;
    charactersOverBudget = 0;
    for (Character& c : characters) {
        if (moverWork >= kMaxCharacterWork) {
            ++charactersOverBudget;
            continue;
        }
        MoverWorld mw{w,  oneWay,    c.shape, c.desc, {}, computeCosSin(c.desc.maxSlope).c,
                      dt, &moverWork};
        const Vec2 start = w.position(c.body);
        Vec2 pos = start;
        const bool wasGrounded = !c.ground.isNull() && w.isValid(c.ground);

        // Carried by what it stood on: the displacement of the very point it
        // touched, so a turning platform carries it too. The ground itself is
        // left out of this move (it moved along).
        if (wasGrounded) {
            const Vec2 carry = w.worldPoint(c.ground, c.groundLocal) - c.groundPoint;
            if (lengthSquared(carry) > 0.0f) {
                mw.ignore = c.ground;
                pos = moveBy(mw, pos, carry, touched, nullptr);
                mw.ignore = BodyId{};
            }
        }

        // The wanted velocity: run from the input, jump from the ground, fall.
        Vec2 v = c.desc.velocity;
        v.x = std::clamp(input.move, -1.0f, 1.0f) * c.desc.runSpeed;
        const bool jumped = wasGrounded && input.jump && c.desc.jumpSpeed > 0.0f;
        if (jumped)
            v.y = c.desc.jumpSpeed;
        else if (wasGrounded)
            v.y = std::max(v.y, 0.0f);
        else
            v.y -= c.desc.gravity * dt;

        // Ground too steep to walk (a static or kinematic face that leans
        // back, steeper than max_slope) stops the run into it: the character
        // slides down it under gravity instead of climbing it. A ledge no
        // taller than step_height is stepped up instead, when that ends on
        // walkable ground.
        std::vector<ShapeId> passThrough;
        collect(mw, pos, touched, passThrough);
        bool steepAhead = false;
        for (const Contact& t : touched) {
            const Vec2 n = t.plane.plane.normal;
            if (!isDynamic(w, t.shape) && n.y > -0.01f && n.y < mw.cosSlope && n.x * v.x < 0.0f &&
                -t.plane.plane.offset <= kSpeculativeDistance)
                steepAhead = true;
        }
        bool stepped = false;
        if (steepAhead && wasGrounded && !jumped && c.desc.stepHeight > 0.0f) {
            const Vec2 run{v.x * dt, 0.0f};
            Vec2 up = moveBy(mw, pos, {0.0f, c.desc.stepHeight}, touched, nullptr);
            Vec2 across = moveBy(mw, up, run, touched, nullptr);
            Vec2 down = castDown(mw, across, up.y - pos.y + kLinearSlop);
            // Kept when it got on (at least half the run) and stands on walkable ground.
            if (std::fabs(down.x - pos.x) > 0.5f * std::fabs(run.x) &&
                groundAt(mw, down, probe) != nullptr) {
                pos = down;
                stepped = true;
            }
        }
        if (steepAhead && !stepped) v.x = 0.0f;

        const Vec2 wanted = v;
        pushed.clear();
        // Standing, it also presses down by the speculative distance, so it
        // settles at one linear slop over the ground instead of hovering.
        const Vec2 stick{0.0f, wasGrounded && !jumped ? -kSpeculativeDistance : 0.0f};
        if (!stepped) pos = moveBy(mw, pos, dt * v + stick, touched, &pushed);
        std::vector<CollisionPlane> planes;
        for (const Contact& t : touched) planes.push_back(t.plane);
        v = clipVector(v, planes);

        // Down a slope or a ledge no taller than step_height, a running
        // character stays on the ground rather than hopping off it.
        const Contact* g = groundAt(mw, pos, probe);
        if (g == nullptr && wasGrounded && !jumped && c.desc.stepHeight > 0.0f) {
            const Vec2 down = castDown(mw, pos, c.desc.stepHeight);
            g = groundAt(mw, down, probe);
            if (g != nullptr) pos = down;
        }
        c.grounded = g != nullptr;
        c.ground = g ? w.shapeBody(g->shape) : BodyId{};  // reported; the next probe sets it again
        if (c.grounded && !jumped) v.y = 0.0f;  // no bounce, no creep from clipping against slopes
        // Within the engine's bounds, as World::step keeps bodies: a character
        // falling out of a level forever stops at the world's edge (and its
        // velocity stays one a scene file can hold).
        v.y = std::max(v.y, -kMaxLinearSpeed);
        if (std::fabs(pos.x) > kMaxCoordinate || std::fabs(pos.y) > kMaxCoordinate) {
            pos = {std::clamp(pos.x, -kMaxCoordinate, kMaxCoordinate),
                   std::clamp(pos.y, -kMaxCoordinate, kMaxCoordinate)};
            v = {0.0f, 0.0f};
        }
        c.desc.velocity = v;

        // Dynamic bodies it ran into are pushed (an impulse at the touching
        // point, at most push_force × dt per step) towards the speed the
        // character wanted, so a box moves off at a walk and the character
        // follows it; the mover itself never goes into them.
        const float maxImpulse = c.desc.pushForce * dt;
        for (std::size_t k = 0; k < pushed.size() && maxImpulse > 0.0f; ++k) {
            const Contact& t = pushed[k];
            const BodyId b = w.shapeBody(t.shape);
            if (!isDynamic(w, t.shape) || std::fabs(t.plane.plane.normal.y) >= mw.cosSlope)
                continue;
            bool seen = false;
            for (std::size_t j = 0; j < k; ++j) seen = seen || w.shapeBody(pushed[j].shape) == b;
            if (seen) continue;
            const Vec2 dir = -1.0f * t.plane.plane.normal;
            const float want = dot(wanted, dir) - dot(w.pointVelocity(b, t.point), dir);
            if (!(want > 0.0f)) continue;
            w.applyLinearImpulse(b, std::min(maxImpulse, w.mass(b) * want) * dir, t.point, true);
        }

        if (pos != start) w.setTransform(c.body, Transform{pos, Rot{1.0f, 0.0f}});
    }
    if (charactersOverBudget > 0) characterBudgetExceeded = true;
}

// ---- public ------------------------------------------------------------------------

void SceneRunner::setInput(const CharacterInput& input) {
    impl_->input = input;
}
const CharacterInput& SceneRunner::input() const {
    return impl_->input;
}

std::vector<CharacterState> SceneRunner::characters() const {
    std::vector<CharacterState> out;
    for (const Impl::Character& c : impl_->characters) {
        CharacterState s;
        s.body = c.body;
        s.velocity = c.desc.velocity;
        s.grounded = c.grounded;
        s.ground = c.ground;
        out.push_back(s);
    }
    return out;
}

const CharacterDesc* SceneRunner::characterOf(BodyId id) const {
    for (const Impl::Character& c : impl_->characters)
        if (c.body == id) return &c.desc;
    return nullptr;
}

int SceneRunner::charactersOverBudget() const {
    return impl_->charactersOverBudget;
}
bool SceneRunner::characterBudgetExceeded() const {
    return impl_->characterBudgetExceeded;
}

const PathDesc* SceneRunner::pathOf(BodyId id) const {
    for (const Impl::Platform& p : impl_->platforms)
        if (p.body == id) return &p.path;
    return nullptr;
}

}  // namespace carom::scene
