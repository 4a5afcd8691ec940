// The runner's game objects (project keys `character` and `path`,
// scene-format.md "Additions"): the glue between scene keys and
// carom::Character (<carom/character.hpp>, docs/manual/characters.md), and
// the path platforms.
//
// A step of the runner, around World::step:
//   drivePlatforms  each path platform gets, by setTargetTransform, the
//                   velocities that bring it to its next path point (or
//                   towards it at the engine's top speed, when farther)
//   probeGround     Character::beginStep for each character
//   World::step     platforms and boxes move
//   moveCharacters  Character::update for each character, with the
//                   runner's input
// Everything runs in creation order, within the character budget
// (kMaxCharacterWork), so a run is as deterministic as the World.
#include <algorithm>
#include <cmath>

#include <carom/limits.hpp>
#include <carom/scene.hpp>

#include "runner_impl.hpp"

namespace carom::scene {

namespace {

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

CharacterDef characterDefOf(const CharacterDesc& c, BodyId body) {
    CharacterDef d;
    d.body = body;
    d.radius = c.radius;
    d.height = c.height;
    d.runSpeed = c.runSpeed;
    d.jumpSpeed = c.jumpSpeed;
    d.gravity = c.gravity;
    d.maxSlope = c.maxSlope;
    d.stepHeight = c.stepHeight;
    d.pushForce = c.pushForce;
    d.velocity = c.velocity;
    return d;
}

}  // namespace

// ---- creation and bookkeeping --------------------------------------------------

void SceneRunner::Impl::addGameplay(const BodyDesc& b, BodyId id) {
    if (b.character) {
        characters.push_back(
            Hero{carom::Character(*world, characterDefOf(*b.character, id)), *b.character});
        characters.back().character.setOneWayShapes(oneWay);
    }
    if (b.path) {
        Platform p;
        p.body = id;
        p.path = *b.path;
        platforms.push_back(p);
    }
}

void SceneRunner::Impl::shareOneWay() {
    for (Hero& h : characters) h.character.setOneWayShapes(oneWay);
}

void SceneRunner::Impl::forgetGameplay(BodyId id) {
    characters.erase(std::remove_if(characters.begin(), characters.end(),
                                    [&](const Hero& h) { return h.character.body() == id; }),
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
    moverWork = 0;
    for (Hero& h : characters) {
        if (moverWork >= kMaxCharacterWork) break;
        h.character.beginStep();
        moverWork += h.character.work();
    }
}

void SceneRunner::Impl::moveCharacters() {
    charactersOverBudget = 0;
    CharacterInput in = input;
    in.move = std::isnan(in.move) ? 0.0f : std::clamp(in.move, -1.0f, 1.0f);
    for (Hero& h : characters) {
        if (moverWork >= kMaxCharacterWork) {
            ++charactersOverBudget;
            continue;
        }
        h.character.update(in, dt);
        moverWork += h.character.work();
        h.desc.velocity = h.character.velocity();
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
    for (const Impl::Hero& h : impl_->characters) {
        CharacterState s;
        s.body = h.character.body();
        s.velocity = h.character.velocity();
        s.grounded = h.character.grounded();
        s.ground = h.character.ground();
        out.push_back(s);
    }
    return out;
}

const CharacterDesc* SceneRunner::characterOf(BodyId id) const {
    for (const Impl::Hero& h : impl_->characters)
        if (h.character.body() == id) return &h.desc;
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
