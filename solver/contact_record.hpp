// The contact record: stored by the world (engine/world/contact.hpp: its
// lifetime, events, islands) and read and written by the solver's prepare
// and store (contact_solver.cpp), which is why the type lives in the solver
// layer: the world includes it, the solver never includes the world.
#pragma once

#include <cstddef>
#include <cstdint>

#include <carom/collision.hpp>
#include <carom/math.hpp>

namespace carom::detail {

/// What the last narrowphase run of a contact saw (the cold end of Contact;
/// engine/world/manifold_reuse.hpp).
struct ManifoldReuseCache {
    Rot qA{}, qB{};                   ///< each body's rotation
    Vec2 relativeCenter{0.0f, 0.0f};  ///< the other body's origin in the reference body's frame
    Rot relativeRotation{};           ///< the other body's rotation relative to the reference body
    Vec2 localPointA[2]{};            ///< manifold points in A's body frame
    Vec2 localPointB[2]{};            ///< manifold points in B's body frame
    Vec2 localNormal{0.0f, 0.0f};     ///< normal in the reference body's frame
    float baseSeparation[2]{};        ///< separations as computed
    uint8_t valid = 0;                ///< 1 once written (0: never, or not reusable)
    uint8_t referenceIsB = 0;         ///< reference body: 0 = A, 1 = B
    uint8_t pointCount = 0;           ///< manifold point count as computed
};

enum ContactFlags : uint32_t {
    kContactTouching = 1u << 0,        ///< manifold has points
    kContactLinked = 1u << 1,          ///< counted as an island link
    kContactEnableEvents = 1u << 2,    ///< begin events (either shape enables them)
    kContactEnableHits = 1u << 3,      ///< hit events (either shape enables them)
    kContactEnablePreSolve = 1u << 4,  ///< pre-solve callback (either shape enables it)
    kContactDisjoint = 1u << 5,        ///< scratch: fat boxes stopped overlapping
    kContactStarted = 1u << 6,         ///< scratch: began touching this step
    kContactStopped = 1u << 7,         ///< scratch: stopped touching this step
    kContactBeginSent = 1u << 8,       ///< a begin event was sent: its end event is owed
    kContactReused =
        1u << 9,  ///< scratch: manifold reused this step (engine/world/manifold_reuse.hpp)
};

// Hot part first: what the solver's prepare and store touch (material,
// surface, manifold) is exactly the first 128 bytes, and the record is
// aligned to 64, so a contact costs prepare two cache lines, not the three
// a 172-byte stride mostly straddles. The ids, links and the simplex cache
// (collide stage, events) follow.
struct alignas(64) Contact {
    float friction = 0.0f;
    float restitution = 0.0f;
    float rollingResistance = 0.0f;  ///< the larger coefficient × the larger shape radius, metres
    float tangentSpeed =
        0.0f;  ///< sum of the shapes' surface speeds (conveyors, contact_solver.cpp)
    Manifold manifold{};
    /// Slot generation behind ContactId: bumped when the contact stops
    /// touching and when it is destroyed, so an id names one touching
    /// episode (begin event to end event). Kept across slot reuse.
    uint32_t generation = 1;
    bool alive = false;
    int shapeA = -1, shapeB = -1;  ///< shapeA < shapeB
    int bodyA = -1, bodyB = -1;
    int edgeA = -1, edgeB = -1;  ///< position in bodyA's / bodyB's contact list
    uint32_t flags = 0;
    SimplexCache cache{};
    /// Pose and points of the last narrowphase run (engine/world/manifold_reuse.hpp).
    ManifoldReuseCache reuse{};
};
static_assert(offsetof(Contact, generation) == 128,
              "the solver's part of a contact fills two cache lines");

}  // namespace carom::detail
