// The category / pair-mask filter applied inside the pair search, and the
// tree rebuild split among threads.
//
// Random moving boxes with random category bits and pair masks: a pair whose
// bits exclude each other must never reach skip() or accept() (it is dropped
// inside the search, before any key is stored), and the pairs accumulated the
// way the world accumulates contacts must equal the brute-force set of
// overlapping fat boxes whose masks meet, for both structures. A third
// broadphase, searched with its flush and pair search split over two threads,
// must build the very same tree as the serial one.
#include <atomic>
#include <string>
#include <thread>
#include <tuple>

#include <gtest/gtest.h>

#include "bp_test_util.hpp"
#include "tests/support/threads.hpp"

namespace carom::bptest {
namespace {

struct FilteredShape {
    bool alive = false;
    AABB tight{};
    ProxyType type = ProxyType::Dynamic;
    uint64_t category = 1;
    uint64_t mask = ~0ull;
    int proxy = -1;
};

bool masksMeet(const FilteredShape& a, const FilteredShape& b) {
    return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

using Nodes = std::vector<std::tuple<float, float, float, float, int, bool>>;

Nodes treeNodes(const BroadPhase& bp) {
    Nodes nodes;
    bp.forEachNode([&](const AABB& b, int depth, bool leaf) {
        nodes.emplace_back(b.lower.x, b.lower.y, b.upper.x, b.upper.y, depth, leaf);
    });
    return nodes;
}

/// The world's side for one broadphase, with filters: skip() is asked only
/// for pairs whose masks meet (checked), answers "already have it".
struct FilteredTracker {
    explicit FilteredTracker(BroadphaseType type) : bp(type) {}
    BroadPhase bp;
    PairSet pairs;
    std::vector<BroadphasePair> out;
    std::vector<BroadphasePair> acceptCalls;
    int skipCalls = 0;

    template <class Run>
    void update(const std::vector<FilteredShape>& shapes, Run&& run) {
        for (auto it = pairs.begin(); it != pairs.end();) {
            const FilteredShape& a = shapes[size_t(it->first)];
            const FilteredShape& b = shapes[size_t(it->second)];
            const bool keep = a.alive && b.alive && !bothStatic(a.type, b.type) &&
                              masksMeet(a, b) &&
                              aabbOverlaps(bp.fatAABB(a.proxy), bp.fatAABB(b.proxy));
            it = keep ? std::next(it) : pairs.erase(it);
        }
        out.clear();
        acceptCalls.clear();
        std::atomic<int> excluded{0}, calls{0};
        bp.updatePairsParallel(
            run,
            [&](int a, int b) {
                calls.fetch_add(1);
                if (!masksMeet(shapes[size_t(a)], shapes[size_t(b)])) excluded.fetch_add(1);
                return pairs.count({a, b}) != 0;
            },
            [&](int a, int b) {
                acceptCalls.push_back({a, b});
                return true;
            },
            out);
        skipCalls = calls.load();
        EXPECT_EQ(excluded.load(), 0) << "pairs excluded by their masks reached skip()";
        for (const BroadphasePair& p : out) {
            EXPECT_TRUE(masksMeet(shapes[size_t(p.shapeA)], shapes[size_t(p.shapeB)]));
            pairs.insert({p.shapeA, p.shapeB});
        }
    }
};

PairSet bruteForce(const BroadPhase& bp, const std::vector<FilteredShape>& shapes) {
    PairSet result;
    for (size_t i = 0; i < shapes.size(); ++i) {
        const FilteredShape& a = shapes[i];
        if (!a.alive) continue;
        for (size_t j = i + 1; j < shapes.size(); ++j) {
            const FilteredShape& b = shapes[j];
            if (!b.alive || bothStatic(a.type, b.type) || !masksMeet(a, b)) continue;
            if (aabbOverlaps(bp.fatAABB(a.proxy), bp.fatAABB(b.proxy)))
                result.insert({int(i), int(j)});
        }
    }
    return result;
}

TEST(BroadphaseFilters, MaskedPairsNeverReachTheWorldAndTheRestMatchBruteForce) {
    auto serial = [](int count, auto&& fn) { fn(0, count); };
    auto twoThreads = [](int count, auto&& fn) {
        test::MaybeThread other([&] { fn(count / 2, count); });
        fn(0, count / 2);
        other.join();
    };
    for (uint32_t seed : {1u, 2u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        Rng rng(seed);
        FilteredTracker tree(BroadphaseType::Tree), sap(BroadphaseType::SortAndSweep),
            threaded(BroadphaseType::Tree);
        std::vector<FilteredShape> shapes(1200);
        auto randomCategory = [&] { return 1ull << rng.below(4); };
        // A quarter take every category (a positive group), a few none (a
        // sensor), the rest a random subset of the four categories.
        auto randomMask = [&]() -> uint64_t {
            const float k = rng.uniform(0.0f, 1.0f);
            if (k < 0.25f) return ~0ull;
            if (k < 0.3f) return 0;
            return uint64_t(rng.below(16));
        };
        for (size_t i = 0; i < shapes.size(); ++i) {
            FilteredShape& s = shapes[i];
            s.alive = true;
            s.tight = makeBox({rng.uniform(0, 60), rng.uniform(0, 60)},
                              {rng.uniform(0.1f, 1.2f), rng.uniform(0.1f, 1.2f)});
            const float t = rng.uniform(0.0f, 1.0f);
            s.type = t < 0.2f   ? ProxyType::Static
                     : t < 0.3f ? ProxyType::Kinematic
                                : ProxyType::Dynamic;
            s.category = randomCategory();
            s.mask = randomMask();
            for (FilteredTracker* f : {&tree, &sap, &threaded})
                s.proxy = f->bp.createProxy(s.tight, s.type, int(i), s.category, s.mask);
        }
        int excludedOverlaps = 0;
        for (int step = 0; step < 24; ++step) {
            SCOPED_TRACE("step " + std::to_string(step));
            // Alternate many movers (tree partial rebuild, full sweep) and
            // few (re-insertion, sort-and-sweep queries).
            const float moveChance = step % 3 == 2 ? 0.04f : 0.6f;
            for (size_t i = 0; i < shapes.size(); ++i) {
                FilteredShape& s = shapes[i];
                if (s.type == ProxyType::Static) continue;
                if (rng.chance(moveChance)) {
                    const Vec2 d{rng.uniform(-0.4f, 0.4f), rng.uniform(-0.4f, 0.4f)};
                    s.tight = {s.tight.lower + d, s.tight.upper + d};
                    for (FilteredTracker* f : {&tree, &sap, &threaded})
                        f->bp.moveProxy(s.proxy, s.tight, d);
                }
                if (rng.chance(0.01f)) {
                    // A filter change, as World::setFilter makes it.
                    s.category = randomCategory();
                    s.mask = randomMask();
                    for (FilteredTracker* f : {&tree, &sap, &threaded}) {
                        f->bp.setCategoryBits(s.proxy, s.category);
                        f->bp.setPairMask(s.proxy, s.mask);
                        f->bp.touchProxy(s.proxy);
                    }
                }
            }
            tree.update(shapes, serial);
            sap.update(shapes, serial);
            threaded.update(shapes, twoThreads);
            if (HasFailure()) return;
            ASSERT_NO_THROW(tree.bp.validate());
            ASSERT_NO_THROW(sap.bp.validate());
            ASSERT_NO_THROW(threaded.bp.validate());
            const PairSet truth = bruteForce(tree.bp, shapes);
            ASSERT_EQ(tree.pairs, truth);
            ASSERT_EQ(sap.pairs, truth);
            ASSERT_EQ(threaded.pairs, truth);
            ASSERT_EQ(tree.acceptCalls, sap.acceptCalls);
            ASSERT_EQ(tree.acceptCalls, threaded.acceptCalls);
            // The rebuild split among threads builds the serial tree.
            ASSERT_EQ(treeNodes(tree.bp), treeNodes(threaded.bp));
            // The test has teeth: many overlapping pairs are excluded by the masks.
            if (step == 0) {
                for (size_t i = 0; i < shapes.size(); ++i)
                    for (size_t j = i + 1; j < shapes.size(); ++j)
                        if (!bothStatic(shapes[i].type, shapes[j].type) &&
                            !masksMeet(shapes[i], shapes[j]) &&
                            aabbOverlaps(tree.bp.fatAABB(shapes[i].proxy),
                                         tree.bp.fatAABB(shapes[j].proxy)))
                            ++excludedOverlaps;
            }
        }
        EXPECT_GT(excludedOverlaps, 100);
        EXPECT_GT(tree.pairs.size(), 100u);
    }
}

// Every category excluded (category 2, mask ~2, as in bench/scenes/joint_grid.json): the
// search must not ask skip() at all, whichever structure.
TEST(BroadphaseFilters, SelfExcludingCategoryAsksNothing) {
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        BroadPhase bp(type);
        for (int i = 0; i < 400; ++i) {
            const AABB box = makeBox({float(i % 20), float(i / 20)}, {0.8f, 0.8f});
            bp.createProxy(box, i % 10 == 0 ? ProxyType::Static : ProxyType::Dynamic, i, 2, ~2ull);
        }
        int asked = 0;
        std::vector<BroadphasePair> out;
        bp.updatePairs([&](int, int) { return ++asked, false; }, [](int, int) { return true; },
                       out);
        EXPECT_EQ(asked, 0);
        EXPECT_TRUE(out.empty());
        // The same boxes with a mask that admits category 2 do pair.
        for (int i = 0; i < 400; ++i) {
            bp.setPairMask(i, ~0ull);
            bp.touchProxy(i);
        }
        bp.updatePairs([&](int, int) { return ++asked, false; }, [](int, int) { return true; },
                       out);
        EXPECT_GT(asked, 400);
        EXPECT_EQ(int(out.size()), asked);
    }
}

}  // namespace
}  // namespace carom::bptest
