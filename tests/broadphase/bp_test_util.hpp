// Shared helpers for the broadphase tests: a seeded random scene that mirrors
// what the World does with a BroadPhase, and brute-force reference answers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "broadphase/broadphase.hpp"
#include "tests/support/rng.hpp"

namespace carom::bptest {

using detail::BroadPhase;
using detail::BroadphasePair;
using detail::ProxyType;

using PairSet = std::set<std::pair<int, int>>;

using test::Rng;

inline AABB makeBox(Vec2 center, Vec2 half) {
    return {center - half, center + half};
}

inline bool bothStatic(ProxyType a, ProxyType b) {
    return a == ProxyType::Static && b == ProxyType::Static;
}

/// One shape of the mirrored scene.
struct Shape {
    bool alive = false;
    AABB tight{};
    ProxyType type = ProxyType::Dynamic;
    uint64_t bits = 1;
    int proxy = -1;
};

/// The world's side of the contract, for one broadphase: keeps the set of
/// pairs reported so far (the world's contacts), drops a pair when its fat
/// boxes stop overlapping, a shape dies or both become static, and accepts
/// only pairs it does not have yet.
struct PairTracker {
    explicit PairTracker(BroadphaseType type) : bp(type) {}

    BroadPhase bp;
    PairSet pairs;
    std::vector<BroadphasePair> out;
    std::vector<BroadphasePair> acceptCalls;

    /// Drops stale pairs, runs updatePairs and records what happened.
    void update(const std::vector<Shape>& shapes) {
        for (auto it = pairs.begin(); it != pairs.end();) {
            const Shape& a = shapes[it->first];
            const Shape& b = shapes[it->second];
            bool keep = a.alive && b.alive && !bothStatic(a.type, b.type) &&
                        aabbOverlaps(bp.fatAABB(a.proxy), bp.fatAABB(b.proxy));
            it = keep ? std::next(it) : pairs.erase(it);
        }
        out.clear();
        acceptCalls.clear();
        bp.updatePairs(
            [&](int a, int b) {
                acceptCalls.push_back({a, b});
                return pairs.count({a, b}) == 0;
            },
            out);
        for (const BroadphasePair& p : out) pairs.insert({p.shapeA, p.shapeB});
    }
};

/// Every pair of live shapes whose fat boxes (taken from bp) overlap and that
/// are not both static: the O(n²) reference.
inline PairSet bruteForcePairs(const BroadPhase& bp, const std::vector<Shape>& shapes) {
    std::vector<int> live;
    for (int i = 0; i < static_cast<int>(shapes.size()); ++i) {
        if (shapes[i].alive) live.push_back(i);
    }
    PairSet result;
    for (size_t i = 0; i < live.size(); ++i) {
        const Shape& a = shapes[live[i]];
        const AABB& fa = bp.fatAABB(a.proxy);
        for (size_t j = i + 1; j < live.size(); ++j) {
            const Shape& b = shapes[live[j]];
            if (bothStatic(a.type, b.type)) continue;
            if (aabbOverlaps(fa, bp.fatAABB(b.proxy))) result.insert({live[i], live[j]});
        }
    }
    return result;
}

/// Checks the shape of one updatePairs call: accept saw strictly increasing
/// (shapeA, shapeB) pairs with shapeA < shapeB (so no duplicates), and `out`
/// is the accepted subsequence.
inline void expectWellFormed(const PairTracker& t) {
    for (size_t i = 0; i < t.acceptCalls.size(); ++i) {
        const BroadphasePair& p = t.acceptCalls[i];
        ASSERT_LT(p.shapeA, p.shapeB);
        if (i > 0) {
            const BroadphasePair& q = t.acceptCalls[i - 1];
            ASSERT_TRUE(q.shapeA < p.shapeA || (q.shapeA == p.shapeA && q.shapeB < p.shapeB))
                << "accept calls not strictly sorted at " << i;
        }
    }
    ASSERT_LE(t.out.size(), t.acceptCalls.size());
}

}  // namespace carom::bptest
