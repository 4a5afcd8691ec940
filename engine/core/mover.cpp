// The plane solver of <carom/mover.hpp>: pure functions, no world.
#include <algorithm>
#include <cmath>

#include <carom/constants.hpp>
#include <carom/mover.hpp>

namespace carom {

// Projected Gauss-Seidel on the pushes: each plane in turn adds the push that
// brings the translation to kLinearSlop outside it, the accumulated push
// clamped to [0, pushLimit] so a plane only ever pushes out and a soft plane
// gives way. Two planes meeting at a corner converge in a few sweeps; the
// slop keeps the mover from ending exactly on a surface and jittering.
PlaneSolverResult solvePlanes(Vec2 targetDelta, std::span<CollisionPlane> planes) {
    for (CollisionPlane& p : planes) p.push = 0.0f;
    Vec2 delta = targetDelta;
    constexpr int kMaxIterations = 20;
    int iteration = 0;
    for (; iteration < kMaxIterations; ++iteration) {
        float totalPush = 0.0f;
        for (CollisionPlane& p : planes) {
            const float separation = planeSeparation(p.plane, delta) - kLinearSlop;
            const float accumulated = p.push;
            p.push = std::clamp(accumulated - separation, 0.0f, p.pushLimit);
            const float push = p.push - accumulated;
            delta = delta + push * p.plane.normal;
            totalPush += std::fabs(push);
        }
        if (totalPush < kLinearSlop) break;
    }
    return {delta, iteration};
}

Vec2 clipVector(Vec2 vector, std::span<const CollisionPlane> planes) {
    Vec2 v = vector;
    for (const CollisionPlane& p : planes) {
        if (p.push == 0.0f || !p.clipVelocity) continue;
        v = v - std::min(0.0f, dot(v, p.plane.normal)) * p.plane.normal;
    }
    return v;
}

}  // namespace carom
