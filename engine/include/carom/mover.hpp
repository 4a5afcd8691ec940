// Character movers: a kinematic capsule that the game moves itself, not by
// forces. The world answers two questions about the capsule —
//   World::collideMover   which surfaces touch it now, as planes
//   World::castMover      how far it can go along a translation
// — and two pure functions turn those answers into motion:
//   solvePlanes           the translation closest to the wanted one that
//                         keeps the capsule out of every plane
//   clipVector            the velocity with the parts into the planes removed
//
// A typical update (see docs/mover.md for stepping up ledges and slopes):
//
//     for (int i = 0; i < 5; ++i) {
//         planes.clear();
//         world.collideMover(capsuleAt(pos), filter, [&](ShapeId, const PlaneResult& r) {
//             planes.push_back({r.plane}); return true; });
//         Vec2 delta = solvePlanes(target - pos, planes).delta;
//         float f = world.castMover(capsuleAt(pos), delta, filter);
//         pos += f * delta;
//         if (lengthSquared(target - pos) < kLinearSlop * kLinearSlop) break;
//     }
//     velocity = clipVector(velocity, planes);
#pragma once

#include <cfloat>
#include <span>

#include <carom/math.hpp>

namespace carom {

/// A plane in world space: the points x with dot(normal, x) = offset. For a
/// mover, a translation delta is allowed by the plane when
/// planeSeparation(plane, delta) = dot(normal, delta) - offset >= 0.
struct Plane {
    Vec2 normal{0.0f, 1.0f};  ///< unit, pointing out of the surface towards the mover
    float offset = 0.0f;      ///< minus the mover's current separation from the surface
};

inline float planeSeparation(const Plane& p, Vec2 delta) {
    return dot(p.normal, delta) - p.offset;
}

/// A surface the mover touches, from World::collideMover.
struct PlaneResult {
    Plane plane{};
    Vec2 point{0.0f, 0.0f};  ///< closest point on the surface, world
};

/// One plane for solvePlanes, with how hard it may push.
struct CollisionPlane {
    Plane plane{};
    /// Largest push the plane may give, metres: FLT_MAX is rigid; smaller
    /// values make a soft surface (e.g. another character).
    float pushLimit = FLT_MAX;
    /// Out: the push solvePlanes gave along plane.normal, metres.
    float push = 0.0f;
    /// Whether clipVector removes the velocity into this plane.
    bool clipVelocity = true;
};

struct PlaneSolverResult {
    Vec2 delta{0.0f, 0.0f};  ///< the translation to make
    int iterationCount = 0;  ///< for diagnostics
};

/// The translation closest to targetDelta that every plane allows (within
/// kLinearSlop), by projected Gauss-Seidel on accumulated pushes clamped to
/// [0, pushLimit]; sets each plane's push. Converges in a few iterations for
/// the planes around one capsule; stops after 20.
[[nodiscard]] PlaneSolverResult solvePlanes(Vec2 targetDelta, std::span<CollisionPlane> planes);

/// The vector with the component into each plane that pushed (push > 0 and
/// clipVelocity) removed: the velocity a mover keeps after sliding.
[[nodiscard]] Vec2 clipVector(Vec2 vector, std::span<const CollisionPlane> planes);

}  // namespace carom
