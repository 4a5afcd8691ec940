// Box predicates shared by the dynamic tree, sort-and-sweep and their tests.
//
// Both broadphase structures must report exactly the same proxies, so every
// "does this box qualify" decision goes through the functions in this file.
// They use comparisons, subtractions and divisions only; each of these is
// monotone in IEEE arithmetic, so a box that contains another box passes every
// test the inner box passes. That is what lets a tree node's box (the exact
// union of its children) prune a subtree without ever losing a leaf that the
// brute-force loop in the tests would find.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include <carom/error.hpp>
#include <carom/math.hpp>

#include "engine/core/rules.hpp"

namespace carom::detail {

/// Largest coordinate a broadphase box may have. Far beyond kHuge (the API's
/// limit); it only keeps sums of perimeters in the tree's cost function finite.
inline constexpr float kBroadphaseMaxCoordinate = 1.0e15f;

/// True when the box is finite, ordered (lower <= upper) and within range.
inline bool isUsableBox(const AABB& b) {
    return isValid(b) && std::fabs(b.lower.x) <= kBroadphaseMaxCoordinate &&
           std::fabs(b.lower.y) <= kBroadphaseMaxCoordinate &&
           std::fabs(b.upper.x) <= kBroadphaseMaxCoordinate &&
           std::fabs(b.upper.y) <= kBroadphaseMaxCoordinate;
}

/// aabbOverlaps for the tree's inner loop: the four comparisons combined
/// with `&`, not `||`, so the compiler makes one branch of them instead of
/// up to four (whether a node's box meets the query box is close to a coin
/// toss, and each mispredicted branch costs more than the comparisons). The
/// same answer as aabbOverlaps for every pair of valid boxes.
inline bool boxesMeet(const AABB& a, const AABB& b) {
    return static_cast<bool>(int(b.lower.x <= a.upper.x) & int(b.lower.y <= a.upper.y) &
                             int(a.lower.x <= b.upper.x) & int(a.lower.y <= b.upper.y));
}

/// Throws carom::Error(InvalidArgument) naming `field` unless isUsableBox(b).
inline void requireUsableBox(const AABB& b, const char* what, const char* field) {
    if (!isUsableBox(b)) {
        detail::refuseWhy(field, std::string(what) + ": " + field +
                                     " must be finite, ordered (lower <= upper) and within 1e15");
    }
}

/// Does `mover`, translated by s * translation for some s in [0, maxFraction],
/// overlap `target` (closed boxes)? A ray is a mover of zero size.
///
/// Per axis the mover overlaps the target while
///     target.lower - mover.upper <= s * d <= target.upper - mover.lower,
/// a slab in s. The answer is whether the slabs of both axes and [0, maxFraction]
/// intersect. An axis with d == 0 is a fixed yes/no test.
inline bool sweptBoxHits(const AABB& target, const AABB& mover, Vec2 translation,
                         float maxFraction) {
    float sMin = 0.0f;
    float sMax = maxFraction;
    for (int axis = 0; axis < 2; ++axis) {
        float lo = target.lower[axis] - mover.upper[axis];
        float hi = target.upper[axis] - mover.lower[axis];
        float d = translation[axis];
        if (d == 0.0f) {
            if (lo > 0.0f || hi < 0.0f) return false;
            continue;
        }
        float t1 = lo / d;
        float t2 = hi / d;
        float tNear = t1 < t2 ? t1 : t2;
        float tFar = t1 < t2 ? t2 : t1;
        sMin = tNear > sMin ? tNear : sMin;
        sMax = tFar < sMax ? tFar : sMax;
        if (sMin > sMax) return false;
    }
    return true;
}

/// A box that contains every target sweptBoxHits can accept: the box swept by
/// `mover` over [0, maxFraction], widened by a relative 1e-5 (about 80 float
/// ulps) so that rounding in the slab divisions can never put an accepted
/// target outside it. Sort-and-sweep uses it to pick its candidate range.
inline AABB sweptBounds(const AABB& mover, Vec2 translation, float maxFraction) {
    Vec2 end = maxFraction * translation;
    AABB b{minVec(mover.lower, mover.lower + end), maxVec(mover.upper, mover.upper + end)};
    for (int axis = 0; axis < 2; ++axis) {
        float scale =
            std::fabs(b.lower[axis]) + std::fabs(b.upper[axis]) + std::fabs(translation[axis]);
        float slack = 1.0e-5f * scale + 1.0e-30f;
        b.lower[axis] -= slack;
        b.upper[axis] += slack;
    }
    return b;
}

}  // namespace carom::detail
