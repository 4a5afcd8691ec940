// A platformer character: an upright kinematic capsule moved by the
// character mover (<carom/mover.hpp>, docs/mover.md) and driven by the game's
// input. It walks and jumps, climbs slopes up to a maximum, steps up ledges
// up to a set height, passes up through one-way surfaces and stands on them,
// rides moving and turning platforms, and pushes dynamic bodies with a
// bounded force. See docs/manual/characters.md.
//
// One step of a game with characters:
//
//     for (Character& c : characters) c.beginStep();   // notes what each stands on
//     world.step(dt);                                   // platforms and bodies move
//     for (Character& c : characters) c.update(input, dt);
//
// update moves the character against the world as it is after the step, so
// a platform that moved under the character is met where it is now. Each
// call works in a fixed order (the World's shape order, the characters in the
// order the game calls them), so a run is as deterministic as the World.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <carom/geometry.hpp>
#include <carom/id.hpp>
#include <carom/math.hpp>
#include <carom/mover.hpp>

namespace carom {

class World;

/// The ranges CharacterDef's members are checked against (the scene
/// format's `character` keys are held to the same).
inline constexpr float kCharacterMinRadius = 0.0101f;   ///< more than 2 kLinearSlop (castMover)
inline constexpr float kCharacterMaxRadius = 100.0f;    ///< m
inline constexpr float kCharacterMaxHeight = 1000.0f;   ///< m
inline constexpr float kCharacterMaxSpeed = 1000.0f;    ///< runSpeed and jumpSpeed, m/s
inline constexpr float kCharacterMaxGravity = 1000.0f;  ///< m/s²
inline constexpr float kCharacterMaxSlope = 1.5f;       ///< radians

/// What a Character is made with. The defaults are those of the scene
/// format's `character` keys (docs/scene-format.md).
struct CharacterDef {
    /// Where the capsule's centre starts (ignored with `body`).
    Vec2 position{0.0f, 0.0f};
    /// An existing kinematic body to move instead of creating one (its own
    /// shapes stay on it and move along); null: the Character creates a
    /// kinematic body at `position`.
    BodyId body{};
    /// Capsule radius, m, in [kCharacterMinRadius, kCharacterMaxRadius].
    float radius = 0.3f;
    /// Bottom to top, m: more than 2 radius + kLinearSlop, at most kCharacterMaxHeight.
    float height = 1.4f;
    /// Speed at full input, m/s, in [0, kCharacterMaxSpeed].
    float runSpeed = 6.0f;
    /// Upward speed of a jump, m/s, in [0, kCharacterMaxSpeed].
    float jumpSpeed = 10.0f;
    /// Downward acceleration while airborne, m/s², in [0, kCharacterMaxGravity].
    float gravity = 25.0f;
    /// Steepest walkable ground, radians (50°), in [0, kCharacterMaxSlope].
    float maxSlope = 0.872664626f;
    /// Tallest ledge walked up without a jump, m, in [0, height].
    float stepHeight = 0.3f;
    /// Most force it pushes one dynamic body with, N, in [0, kMaxForce].
    float pushForce = 400.0f;
    /// Initial velocity, each component within ±kMaxLinearSpeed.
    Vec2 velocity{0.0f, 0.0f};
};

/// What the player asks of a character for one update.
struct CharacterInput {
    float move = 0.0f;  ///< run direction and amount, -1 (left) to 1 (right)
    bool jump = false;  ///< jump when standing (held: jumps again on landing)
};

/// What happened in the last update (all false before the first).
struct CharacterEvents {
    bool landed = false;      ///< grounded now, not before this update
    bool leftGround = false;  ///< grounded before this update, not now (a jump or a fall)
    bool jumped = false;      ///< the update started a jump
    bool hitCeiling = false;  ///< rising, it ran into a surface facing down
    BodyId ceiling{};         ///< the body it hit with hitCeiling
};

/// A character's state between updates: everything the next update reads
/// besides the World. A plain value; with the World's snapshot, restoring it
/// gives the same bits on the following steps.
struct CharacterState {
    Vec2 velocity{0.0f, 0.0f};      ///< the mover's own velocity (not the ground's)
    bool grounded = false;          ///< standing on walkable ground after the last update
    BodyId ground{};                ///< the body it stands on (beginStep sets it again)
    Vec2 groundPoint{0.0f, 0.0f};   ///< the touching point at beginStep, world
    Vec2 groundLocal{0.0f, 0.0f};   ///< the same point in the ground body's frame
    Vec2 groundNormal{0.0f, 1.0f};  ///< the ground's normal there (unit), what it presses along
    CharacterEvents events{};       ///< of the last update
};

/// The byte form of a CharacterState (docs/manual/characters.md): "CAROMCHR",
/// u32 version, u32 flags, then velocity, ground id, groundPoint,
/// groundLocal, groundNormal, ceiling id (floats as their bits, ids as index and
/// generation, all little-endian) and a u64 checksum of the bytes before it.
inline constexpr std::size_t kCharacterStateBytes = 8 + 4 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 8;
using CharacterStateBytes = std::array<std::uint8_t, kCharacterStateBytes>;
[[nodiscard]] CharacterStateBytes characterStateToBytes(const CharacterState& state);
/// Refused (carom::Error naming "bytes"): a wrong tag, version or checksum.
[[nodiscard]] CharacterState characterStateFromBytes(std::span<const std::uint8_t> bytes);

/// The capsule of a def in its body's frame: upright, centred on the origin.
[[nodiscard]] Capsule characterCapsule(float radius, float height);

/// A platformer character in a World. The Character keeps a reference to
/// the World (which must outlive it) and moves the kinematic body it created
/// (or was given) with World::setTransform. Destroying the body makes the
/// Character inert: beginStep and update then do nothing.
class Character {
   public:
    /// Checks def (carom::Error naming the field; the world is untouched on
    /// refusal), then creates the body (unless def.body) and the capsule.
    Character(World& world, const CharacterDef& def);
    // One controller per body: a copy would move the same body twice.
    Character(const Character&) = delete;
    Character& operator=(const Character&) = delete;
    Character(Character&&) noexcept = default;
    Character& operator=(Character&&) noexcept = default;

    [[nodiscard]] BodyId body() const { return body_; }
    [[nodiscard]] ShapeId shape() const { return shape_; }
    [[nodiscard]] const CharacterDef& def() const { return def_; }

    /// The shapes that are solid only from their body's +y side (within
    /// about 18° of it): the character rises through them and stands on
    /// them. Copied and kept sorted; set before the updates that need them.
    void setOneWayShapes(std::span<const ShapeId> shapes);
    [[nodiscard]] bool isOneWay(ShapeId shape) const;

    /// Before World::step: notes the walkable surface the character stands
    /// on, and where, in that body's frame (update carries it by that
    /// point's motion).
    void beginStep();
    /// After World::step: carried by its ground, then runs, jumps or falls
    /// for dt seconds with the input, steps up ledges, stays on slopes going
    /// down, and pushes the dynamic bodies it runs into. Refused (carom::Error
    /// naming "input.move" or "dt", nothing changed): move outside [-1, 1],
    /// dt outside [0, kMaxTimeStep].
    void update(const CharacterInput& input, float dt);

    [[nodiscard]] Vec2 velocity() const { return state_.velocity; }
    [[nodiscard]] bool grounded() const { return state_.grounded; }
    [[nodiscard]] BodyId ground() const { return state_.ground; }
    [[nodiscard]] const CharacterEvents& events() const { return state_.events; }
    /// Shapes examined by the last beginStep or update (planes collideMover
    /// reported and candidates castMover asked about): for a game that
    /// budgets many characters per step.
    [[nodiscard]] std::int64_t work() const { return work_; }

    [[nodiscard]] const CharacterState& state() const { return state_; }
    /// Puts a saved state back (with the World restored from the snapshot
    /// taken with it). Refused (carom::Error naming the field, nothing
    /// changed): a velocity component beyond ±kMaxLinearSpeed, a point beyond
    /// kMaxCoordinate, a groundNormal not of unit length, a ground or
    /// ceiling body that is not valid in the World.
    void restore(const CharacterState& state);

   private:
    struct Contact {
        CollisionPlane plane;
        ShapeId shape;
        Vec2 point{0.0f, 0.0f};
    };
    Capsule capsuleAt(Vec2 p) const;
    bool live() const;
    void collect(Vec2 pos, std::vector<Contact>& out, std::vector<ShapeId>& passThrough);
    float castFraction(Vec2 pos, Vec2 step, const std::vector<ShapeId>& passThrough);
    Vec2 castDown(Vec2 pos, float drop);
    Vec2 moveBy(Vec2 pos, Vec2 delta, std::vector<Contact>& touched, std::vector<Contact>* pushed);
    bool walkable(const Contact& t) const;
    const Contact* groundAt(Vec2 pos, std::vector<Contact>& contacts);
    void push(Vec2 wanted, float dt);

    World* world_;
    CharacterDef def_;
    BodyId body_{};
    ShapeId shape_{};
    CharacterState state_{};
    std::vector<ShapeId> oneWay_;  // sorted
    float cosSlope_ = 0.0f;
    std::int64_t work_ = 0;
    // Per-update context and buffers, kept so a warmed-up update allocates nothing.
    BodyId ignore_{};  // the carrying ground during the carry move (it moves along)
    float dt_ = 0.0f;
    std::vector<Contact> touched_, pushed_, probe_, down_;
    std::vector<ShapeId> pass_, downPass_;
    std::vector<CollisionPlane> planes_;
};

}  // namespace carom
