// AABB queries, ray casts and shape casts against brute force over the fat
// boxes, for both structures, in flushed and unflushed states (pending
// creations, moves since the last pair update).
#include <limits>
#include <memory>

#include <gtest/gtest.h>

#include "bp_test_util.hpp"

namespace carom::bptest {
namespace {

using detail::sweptBoxHits;

/// The entry fraction of `mover` swept along d into `target`: the lowest s
/// in [0, maxFraction] at which they overlap (the same slab arithmetic as
/// sweptBoxHits), or +inf when they never do. The tests' stand-in for a
/// narrowphase hit.
float entryFraction(const AABB& target, const AABB& mover, Vec2 d, float maxFraction) {
    if (!sweptBoxHits(target, mover, d, maxFraction)) return std::numeric_limits<float>::infinity();
    float sMin = 0.0f;
    for (int axis = 0; axis < 2; ++axis) {
        if (d[axis] == 0.0f) continue;
        float t1 = (target.lower[axis] - mover.upper[axis]) / d[axis];
        float t2 = (target.upper[axis] - mover.lower[axis]) / d[axis];
        float tNear = t1 < t2 ? t1 : t2;
        sMin = tNear > sMin ? tNear : sMin;
    }
    return sMin;
}

class QueryFixture : public ::testing::TestWithParam<BroadphaseType> {
   protected:
    void populate(uint32_t seed, int count, float size) {
        Rng rng(seed);
        rng_ = std::make_unique<Rng>(seed + 1000);
        world_ = size;
        bp_ = std::make_unique<BroadPhase>(GetParam());
        auto add = [&]() {
            Shape s;
            s.alive = true;
            Vec2 c{rng.uniform(0.0f, size), rng.uniform(0.0f, size)};
            Vec2 h = rng.chance(0.9f) ? Vec2{rng.uniform(0.0f, 1.5f), rng.uniform(0.0f, 1.5f)}
                                      : Vec2{rng.uniform(2.0f, 10.0f), rng.uniform(0.0f, 3.0f)};
            s.tight = makeBox(c, h);
            float t = rng.uniform(0.0f, 1.0f);
            s.type = t < 0.3f ? ProxyType::Static
                              : (t < 0.4f ? ProxyType::Kinematic : ProxyType::Dynamic);
            s.bits = 1ull << rng.below(3);
            s.proxy = bp_->createProxy(s.tight, s.type, static_cast<int>(shapes_.size()), s.bits);
            shapes_.push_back(s);
        };
        for (int i = 0; i < count; ++i) add();
        std::vector<BroadphasePair> out;
        bp_->updatePairs([](int, int) { return true; }, out);
        // Leave the broadphase unflushed: moves since the update and a batch of
        // pending creations must be visible to queries all the same.
        for (Shape& s : shapes_) {
            if (s.type == ProxyType::Static || !rng.chance(0.3f)) continue;
            Vec2 d{rng.uniform(-2.0f, 2.0f), rng.uniform(-2.0f, 2.0f)};
            s.tight.lower += d;
            s.tight.upper += d;
            bp_->moveProxy(s.proxy, s.tight, d);
        }
        for (int i = 0; i < count / 5; ++i) add();
    }

    AABB randomQueryBox() {
        Vec2 c{rng_->uniform(-5.0f, world_ + 5.0f), rng_->uniform(-5.0f, world_ + 5.0f)};
        Vec2 h{rng_->uniform(0.0f, 8.0f), rng_->uniform(0.0f, 8.0f)};
        return makeBox(c, h);
    }

    Vec2 randomTranslation() {
        if (rng_->chance(0.1f)) return {rng_->uniform(-50.0f, 50.0f), 0.0f};  // axis-aligned
        if (rng_->chance(0.1f)) return {0.0f, rng_->uniform(-50.0f, 50.0f)};
        return {rng_->uniform(-60.0f, 60.0f), rng_->uniform(-60.0f, 60.0f)};
    }

    void checkQueries(int count) {
        for (int q = 0; q < count; ++q) {
            AABB box = randomQueryBox();
            uint64_t mask = rng_->chance(0.5f) ? ~0ull : (1ull << rng_->below(3));
            std::vector<int> got;
            bp_->query(box, mask, [&](int shape) {
                got.push_back(shape);
                return true;
            });
            std::vector<int> truth;
            for (int i = 0; i < static_cast<int>(shapes_.size()); ++i) {
                const Shape& s = shapes_[i];
                if ((s.bits & mask) != 0 && aabbOverlaps(bp_->fatAABB(s.proxy), box)) {
                    truth.push_back(i);
                }
            }
            std::sort(got.begin(), got.end());
            ASSERT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end()) << "duplicate";
            ASSERT_EQ(got, truth) << "query " << q;
            // Returning false stops the query at once.
            int calls = 0;
            bp_->query(box, mask, [&](int) {
                ++calls;
                return false;
            });
            ASSERT_EQ(calls, truth.empty() ? 0 : 1);
        }
    }

    /// Casts `mover` (a point for ray casts) and checks all-hits and
    /// closest-hit results against brute force.
    void checkCast(const AABB& mover, Vec2 d, float maxFraction, bool isRay, uint64_t mask) {
        auto cast = [&](auto&& fn) {
            if (isRay) {
                RayCastInput in{mover.lower, d, maxFraction};
                bp_->rayCast(in, mask, fn);
            } else {
                bp_->shapeCast(mover, d, mask, fn);
            }
        };
        const float startFraction = isRay ? maxFraction : 1.0f;
        const Vec2 expectOrigin = isRay ? mover.lower : aabbCenter(mover);

        // All hits: never clip.
        std::vector<int> got;
        cast([&](const RayCastInput& in, int shape) {
            EXPECT_EQ(in.maxFraction, startFraction);
            EXPECT_EQ(in.origin, expectOrigin);
            EXPECT_EQ(in.translation, d);
            got.push_back(shape);
            return in.maxFraction;
        });
        std::vector<int> truth;
        float closest = std::numeric_limits<float>::infinity();
        for (int i = 0; i < static_cast<int>(shapes_.size()); ++i) {
            const Shape& s = shapes_[i];
            if ((s.bits & mask) == 0) continue;
            const AABB& fat = bp_->fatAABB(s.proxy);
            if (sweptBoxHits(fat, mover, d, startFraction)) {
                truth.push_back(i);
                closest = std::min(closest, entryFraction(fat, mover, d, startFraction));
            }
        }
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got, truth);

        // Closest hit: clip to each entry fraction; the final answer must be
        // the brute-force minimum and every callback must see the current clip.
        float best = startFraction;
        bool found = false;
        cast([&](const RayCastInput& in, int shape) {
            EXPECT_EQ(in.maxFraction, best);
            float f = entryFraction(bp_->fatAABB(shapes_[shape].proxy), mover, d, in.maxFraction);
            if (f < in.maxFraction || (!found && f <= in.maxFraction)) {
                best = f;
                found = true;
                return f;  // 0 stops: nothing can be closer
            }
            return -1.0f;
        });
        if (truth.empty()) {
            ASSERT_FALSE(found);
        } else {
            ASSERT_TRUE(found);
            ASSERT_EQ(best, closest);
        }
    }

    void checkCasts(int count) {
        for (int q = 0; q < count; ++q) {
            SCOPED_TRACE("cast " + std::to_string(q));
            uint64_t mask = rng_->chance(0.5f) ? ~0ull : (1ull << rng_->below(3));
            Vec2 origin{rng_->uniform(-10.0f, world_ + 10.0f),
                        rng_->uniform(-10.0f, world_ + 10.0f)};
            Vec2 d = randomTranslation();
            float maxFraction = rng_->uniform(0.2f, 1.0f);
            checkCast(AABB{origin, origin}, d, maxFraction, true, mask);
            if (HasFatalFailure()) return;
            AABB mover = makeBox(origin, {rng_->uniform(0.0f, 2.0f), rng_->uniform(0.0f, 2.0f)});
            checkCast(mover, d, 1.0f, false, mask);
            if (HasFatalFailure()) return;
        }
    }

    std::unique_ptr<BroadPhase> bp_;
    std::unique_ptr<Rng> rng_;
    std::vector<Shape> shapes_;
    float world_ = 0.0f;
};

TEST_P(QueryFixture, AabbQueryMatchesBruteForceUnflushed) {
    populate(31, 1500, 100.0f);
    checkQueries(300);
}

TEST_P(QueryFixture, AabbQueryMatchesBruteForceFlushed) {
    populate(32, 1500, 100.0f);
    bp_->flush();
    checkQueries(300);
}

TEST_P(QueryFixture, CastsMatchBruteForceUnflushed) {
    populate(33, 1500, 100.0f);
    checkCasts(200);
}

TEST_P(QueryFixture, CastsMatchBruteForceFlushed) {
    populate(34, 1500, 100.0f);
    bp_->flush();
    checkCasts(200);
}

TEST_P(QueryFixture, CastsInADensePile) {
    populate(35, 1500, 25.0f);
    bp_->flush();
    checkCasts(100);
}

TEST_P(QueryFixture, CastStopsWhenCallbackReturnsZero) {
    populate(36, 500, 30.0f);
    bp_->flush();
    int calls = 0;
    RayCastInput in{{-5.0f, 15.0f}, {40.0f, 0.0f}, 1.0f};
    bp_->rayCast(in, ~0ull, [&](const RayCastInput&, int) {
        ++calls;
        return 0.0f;
    });
    EXPECT_EQ(calls, 1);
}

INSTANTIATE_TEST_SUITE_P(BothStructures, QueryFixture,
                         ::testing::Values(BroadphaseType::Tree, BroadphaseType::SortAndSweep),
                         [](const ::testing::TestParamInfo<BroadphaseType>& info) {
                             return info.param == BroadphaseType::Tree ? "Tree" : "SortAndSweep";
                         });

}  // namespace
}  // namespace carom::bptest
