// Tree invariants and height bounds, degenerate input, refused input and the
// no-allocation guarantee of a warmed-up step.
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bp_test_util.hpp"

#include "tests/support/alloc_counter.hpp"
#include "tests/support/threads.hpp"

namespace carom::bptest {
namespace {

int heightBound(int n) {
    return static_cast<int>(std::floor(2.0 * std::log2(n)));
}

/// Creates the boxes one at a time, linking each at once (incremental SAH
/// insertion), validating after every insertion.
void insertIncrementally(BroadPhase& bp, const std::vector<AABB>& boxes,
                         std::vector<int>& proxies) {
    for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
        proxies.push_back(bp.createProxy(boxes[i], ProxyType::Dynamic, i, 1));
        bp.flush();
        ASSERT_NO_THROW(bp.validate()) << "after insertion " << i;
        ASSERT_LE(bp.height(), heightBound(i + 1) > 0 ? heightBound(i + 1) : 1) << "after " << i;
    }
}

/// Moves every proxy (far enough to leave its fat box), validating and
/// checking the height bound after each move.
void moveAll(BroadPhase& bp, const std::vector<AABB>& boxes, const std::vector<int>& proxies,
             Vec2 shift) {
    const int bound = heightBound(static_cast<int>(boxes.size()));
    for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
        AABB b{boxes[i].lower + shift, boxes[i].upper + shift};
        ASSERT_TRUE(bp.moveProxy(proxies[i], b, shift));
        ASSERT_NO_THROW(bp.validate()) << "after move " << i;
        ASSERT_LE(bp.height(), bound) << "after move " << i;
    }
    // The moves enlarged the tree in place; the flush repairs it (here every
    // leaf moved: the partial rebuild).
    bp.flush();
    ASSERT_NO_THROW(bp.validate()) << "after the flush";
    ASSERT_LE(bp.height(), bound) << "after the flush";
}

/// Moves every k-th proxy, then flushes (few movers: re-insertion).
void moveSome(BroadPhase& bp, const std::vector<AABB>& boxes, const std::vector<int>& proxies,
              Vec2 shift, int k) {
    const int bound = heightBound(static_cast<int>(boxes.size()));
    for (int i = 0; i < static_cast<int>(boxes.size()); i += k) {
        AABB b{boxes[i].lower + shift, boxes[i].upper + shift};
        ASSERT_TRUE(bp.moveProxy(proxies[i], b, shift));
    }
    ASSERT_NO_THROW(bp.validate());
    bp.flush();
    ASSERT_NO_THROW(bp.validate()) << "after the flush";
    ASSERT_LE(bp.height(), bound) << "after the flush";
}

TEST(BroadphaseTree, RowOf200StaysBalanced) {
    std::vector<AABB> boxes;
    for (int i = 0; i < 200; ++i) {
        boxes.push_back({{static_cast<float>(i), 0.0f}, {static_cast<float>(i) + 1.0f, 1.0f}});
    }
    BroadPhase bp(BroadphaseType::Tree);
    std::vector<int> proxies;
    insertIncrementally(bp, boxes, proxies);
    EXPECT_LE(bp.height(), heightBound(200));
    moveAll(bp, boxes, proxies, {0.5f, 0.25f});
    // Moving back the other way, in reverse order.
    std::vector<AABB> rev(boxes.rbegin(), boxes.rend());
    std::vector<int> revProxies(proxies.rbegin(), proxies.rend());
    moveAll(bp, rev, revProxies, {-0.5f, -0.25f});
}

TEST(BroadphaseTree, Grid20x20StaysBalanced) {
    std::vector<AABB> boxes;
    for (int i = 0; i < 20; ++i) {
        for (int j = 0; j < 20; ++j) {
            Vec2 lo{static_cast<float>(i), static_cast<float>(j)};
            boxes.push_back({lo, lo + Vec2{1.0f, 1.0f}});
        }
    }
    BroadPhase bp(BroadphaseType::Tree);
    std::vector<int> proxies;
    insertIncrementally(bp, boxes, proxies);
    EXPECT_LE(bp.height(), heightBound(400));
    moveAll(bp, boxes, proxies, {0.3f, 0.7f});
    for (int round = 0; round < 20; ++round) {
        moveSome(bp, boxes, proxies, {0.3f * float(round + 1), 0.0f}, 41);
        if (HasFatalFailure()) return;
    }
}

TEST(BroadphaseTree, IdenticalBoxesStayBalanced) {
    // All costs tie: pure SAH would build a list; the balance step prevents it.
    std::vector<AABB> boxes(500, AABB{{3.0f, 4.0f}, {3.0f, 4.0f}});
    BroadPhase bp(BroadphaseType::Tree);
    std::vector<int> proxies;
    insertIncrementally(bp, boxes, proxies);
    EXPECT_LE(bp.height(), heightBound(500));
}

TEST(BroadphaseTree, BatchCreationRebuildsToMinimalHeight) {
    BroadPhase bp(BroadphaseType::Tree);
    Rng rng(5);
    for (int i = 0; i < 1000; ++i) {
        Vec2 c{rng.uniform(0.0f, 100.0f), rng.uniform(0.0f, 100.0f)};
        bp.createProxy(makeBox(c, {0.5f, 0.5f}), ProxyType::Dynamic, i, 1);
    }
    bp.flush();
    ASSERT_NO_THROW(bp.validate());
    EXPECT_EQ(bp.height(), 10);  // ceil(log2 1000): one median-split rebuild
    // Explicit rebuild after incremental damage gives the same bound.
    for (int i = 0; i < 1000; i += 3) {
        Vec2 c{rng.uniform(0.0f, 100.0f), rng.uniform(0.0f, 100.0f)};
        bp.moveProxy(i, makeBox(c, {0.5f, 0.5f}), {0.0f, 0.0f});
    }
    bp.rebuild();
    ASSERT_NO_THROW(bp.validate());
    EXPECT_EQ(bp.height(), 10);
}

TEST(BroadphaseTree, ForEachNodeVisitsTheWholeTree) {
    BroadPhase bp(BroadphaseType::Tree);
    Rng rng(6);
    for (int i = 0; i < 300; ++i) {
        Vec2 c{rng.uniform(0.0f, 50.0f), rng.uniform(0.0f, 50.0f)};
        bp.createProxy(makeBox(c, {0.5f, 0.5f}),
                       i % 3 == 0 ? ProxyType::Static : ProxyType::Dynamic, i, 1);
    }
    bp.flush();
    int leaves = 0;
    int nodes = 0;
    int maxDepth = 0;
    bp.forEachNode([&](const AABB& b, int depth, bool leaf) {
        EXPECT_TRUE(isValid(b));
        ++nodes;
        leaves += leaf ? 1 : 0;
        maxDepth = std::max(maxDepth, depth);
    });
    EXPECT_EQ(leaves, 300);
    EXPECT_EQ(nodes, 2 * 300 - 2);  // two trees, each with leaves - 1 internal nodes
    EXPECT_LE(maxDepth, bp.height());

    BroadPhase sap(BroadphaseType::SortAndSweep);
    sap.createProxy(makeBox({1.0f, 1.0f}, {0.5f, 0.5f}), ProxyType::Dynamic, 0, 1);
    int count = 0;
    sap.forEachNode([&](const AABB&, int depth, bool leaf) {
        EXPECT_EQ(depth, 0);
        EXPECT_TRUE(leaf);
        ++count;
    });
    EXPECT_EQ(count, 1);
    EXPECT_EQ(sap.height(), 0);
}

// ---- degenerate input ----------------------------------------------------------

/// Runs a few steps of moves on the given boxes in both structures and
/// compares with brute force after each.
void checkDegenerate(const std::vector<AABB>& boxes, const std::vector<ProxyType>& types, Vec2 step,
                     int steps) {
    PairTracker tree(BroadphaseType::Tree);
    PairTracker sap(BroadphaseType::SortAndSweep);
    std::vector<Shape> shapes(boxes.size());
    for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
        Shape& s = shapes[i];
        s.alive = true;
        s.tight = boxes[i];
        s.type = types[i % types.size()];
        s.proxy = tree.bp.createProxy(s.tight, s.type, i, 1);
        ASSERT_EQ(sap.bp.createProxy(s.tight, s.type, i, 1), s.proxy);
    }
    for (int k = 0; k <= steps; ++k) {
        tree.update(shapes);
        sap.update(shapes);
        ASSERT_NO_THROW(tree.bp.validate());
        ASSERT_NO_THROW(sap.bp.validate());
        ASSERT_EQ(tree.acceptCalls, sap.acceptCalls);
        PairSet truth = bruteForcePairs(tree.bp, shapes);
        ASSERT_EQ(tree.pairs, truth) << "step " << k;
        ASSERT_EQ(sap.pairs, truth) << "step " << k;
        for (int i = 0; i < static_cast<int>(shapes.size()); i += 2) {
            Shape& s = shapes[i];
            if (s.type == ProxyType::Static) continue;
            s.tight.lower += step;
            s.tight.upper += step;
            tree.bp.moveProxy(s.proxy, s.tight, step);
            sap.bp.moveProxy(s.proxy, s.tight, step);
        }
    }
}

TEST(BroadphaseDegenerate, AllBoxesAtOnePoint) {
    std::vector<AABB> boxes(300, AABB{{1.0f, 1.0f}, {1.0f, 1.0f}});
    checkDegenerate(boxes, {ProxyType::Dynamic, ProxyType::Static, ProxyType::Kinematic},
                    {0.3f, 0.0f}, 4);
}

TEST(BroadphaseDegenerate, ZeroSizeBoxesOnALattice) {
    std::vector<AABB> boxes;
    for (int i = 0; i < 30; ++i) {
        for (int j = 0; j < 30; ++j) {
            Vec2 p{0.1f * static_cast<float>(i), 0.1f * static_cast<float>(j)};
            boxes.push_back({p, p});
        }
    }
    checkDegenerate(boxes, {ProxyType::Static, ProxyType::Dynamic}, {0.2f, 0.2f}, 5);
}

TEST(BroadphaseDegenerate, BoxesAtPlusMinusOneMillion) {
    std::vector<AABB> boxes;
    Rng rng(7);
    const float corners[4][2] = {{1e6f, 1e6f}, {-1e6f, 1e6f}, {1e6f, -1e6f}, {-1e6f, -1e6f}};
    for (int i = 0; i < 800; ++i) {
        const float* c = corners[i % 4];
        Vec2 center{c[0] + rng.uniform(-20.0f, 20.0f), c[1] + rng.uniform(-20.0f, 20.0f)};
        boxes.push_back(makeBox(center, {rng.uniform(0.0f, 1.0f), rng.uniform(0.0f, 1.0f)}));
    }
    // Boxes spanning the whole range, too.
    boxes.push_back({{-1e6f, -1.0f}, {1e6f, 1.0f}});
    boxes.push_back({{-1.0f, -1e6f}, {1.0f, 1e6f}});
    checkDegenerate(boxes, {ProxyType::Dynamic, ProxyType::Static, ProxyType::Dynamic},
                    {0.5f, -0.25f}, 5);
}

// ---- refused input -------------------------------------------------------------

void expectError(ErrorCode code, const std::function<void()>& f) {
    try {
        f();
        ADD_FAILURE() << "no carom::Error thrown";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), code) << e.what();
    }
}

class StructureFixture : public ::testing::TestWithParam<BroadphaseType> {};

TEST_P(StructureFixture, BadBoxesAreRefusedAndChangeNothing) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    BroadPhase bp(GetParam());
    int p = bp.createProxy(makeBox({0.0f, 0.0f}, {1.0f, 1.0f}), ProxyType::Dynamic, 0, 1);
    const AABB fat = bp.fatAABB(p);
    const AABB bad[] = {
        {{nan, 0.0f}, {1.0f, 1.0f}},   {{0.0f, 0.0f}, {1.0f, nan}},  {{-inf, 0.0f}, {1.0f, 1.0f}},
        {{0.0f, 0.0f}, {inf, 1.0f}},   {{2.0f, 0.0f}, {1.0f, 1.0f}},  // inverted
        {{0.0f, 0.0f}, {1e16f, 1.0f}},                                // beyond the coordinate limit
    };
    for (const AABB& b : bad) {
        expectError(ErrorCode::InvalidArgument,
                    [&] { bp.createProxy(b, ProxyType::Dynamic, 1, 1); });
        expectError(ErrorCode::InvalidArgument, [&] { bp.moveProxy(p, b, {0.0f, 0.0f}); });
    }
    const AABB ok = makeBox({5.0f, 5.0f}, {1.0f, 1.0f});
    expectError(ErrorCode::InvalidArgument, [&] { bp.moveProxy(p, ok, {nan, 0.0f}); });
    expectError(ErrorCode::InvalidArgument, [&] { bp.moveProxy(p, ok, {0.0f, inf}); });
    expectError(ErrorCode::InvalidArgument, [&] { bp.moveProxy(p, ok, {1e20f, 0.0f}); });
    expectError(ErrorCode::InvalidArgument, [&] { bp.createProxy(ok, ProxyType::Dynamic, -1, 1); });
    expectError(ErrorCode::StaleId, [&] { bp.moveProxy(7, ok, {0.0f, 0.0f}); });
    expectError(ErrorCode::StaleId, [&] { bp.destroyProxy(-1); });

    auto none = [](int) { return true; };
    auto noneCast = [](const RayCastInput&, int) { return 1.0f; };
    expectError(ErrorCode::InvalidArgument, [&] {
        bp.query({{nan, 0.0f}, {1.0f, 1.0f}}, ~0ull, none);
    });
    expectError(ErrorCode::InvalidArgument, [&] {
        bp.rayCast({{0.0f, 0.0f}, {nan, 1.0f}, 1.0f}, ~0ull, noneCast);
    });
    expectError(ErrorCode::InvalidArgument, [&] {
        bp.rayCast({{0.0f, 0.0f}, {1.0f, 1.0f}, inf}, ~0ull, noneCast);
    });
    expectError(ErrorCode::InvalidArgument, [&] {
        bp.shapeCast(ok, {inf, 0.0f}, ~0ull, noneCast);
    });

    EXPECT_EQ(bp.proxyCount(), 1);
    EXPECT_EQ(bp.fatAABB(p).lower, fat.lower);
    EXPECT_EQ(bp.fatAABB(p).upper, fat.upper);
    EXPECT_NO_THROW(bp.validate());
    bp.destroyProxy(p);
    expectError(ErrorCode::StaleId, [&] { bp.touchProxy(p); });
    EXPECT_NO_THROW(bp.validate());
}

INSTANTIATE_TEST_SUITE_P(BothStructures, StructureFixture,
                         ::testing::Values(BroadphaseType::Tree, BroadphaseType::SortAndSweep));

// ---- fat boxes -----------------------------------------------------------------

TEST(BroadphaseFatBoxes, MarginRelativeToSizeAndSpeculativeDistance) {
    BroadPhase bp(BroadphaseType::Tree);
    // Half extent 0.5: margin 0.125 * 0.5 = 0.0625 (below the kAabbMargin cap),
    // on top of the speculative distance.
    AABB tight = makeBox({0.0f, 0.0f}, {0.5f, 0.5f});
    int d = bp.createProxy(tight, ProxyType::Dynamic, 0, 1);
    int s = bp.createProxy(tight, ProxyType::Static, 1, 1);
    const float m = detail::kAabbMarginFraction * 0.5f;
    ASSERT_LT(m, kAabbMargin);
    const Vec2 grow{kSpeculativeDistance, kSpeculativeDistance};
    const Vec2 margin{m, m};
    EXPECT_EQ(bp.fatAABB(d).lower, (tight.lower - grow) - margin);
    EXPECT_EQ(bp.fatAABB(d).upper, (tight.upper + grow) + margin);
    EXPECT_EQ(bp.fatAABB(s).lower, tight.lower);  // static: no margin
    EXPECT_EQ(bp.fatAABB(s).upper, tight.upper);
    // A big shape's margin is capped at kAabbMargin.
    int big = bp.createProxy(makeBox({10.0f, 0.0f}, {5.0f, 1.0f}), ProxyType::Dynamic, 2, 1);
    EXPECT_EQ(bp.fatAABB(big).upper.x, (15.0f + kSpeculativeDistance) + kAabbMargin);
    bp.flush();
    // A move within the margin keeps the tight box grown by the speculative
    // distance inside the fat box: nothing to re-fit.
    AABB small{tight.lower + Vec2{0.06f, 0.0f}, tight.upper + Vec2{0.06f, 0.0f}};
    EXPECT_FALSE(bp.moveProxy(d, small, {0.06f, 0.0f}));
    // Beyond the margin: re-fit.
    AABB edge{tight.lower + Vec2{0.07f, 0.0f}, tight.upper + Vec2{0.07f, 0.0f}};
    EXPECT_TRUE(bp.moveProxy(d, edge, {0.07f, 0.0f}));
    // The new fat box is centred on the shape, not stretched along the motion.
    AABB moved{tight.lower + Vec2{0.5f, -0.5f}, tight.upper + Vec2{0.5f, -0.5f}};
    EXPECT_TRUE(bp.moveProxy(d, moved, {0.5f, -0.5f}));
    EXPECT_EQ(bp.fatAABB(d).lower, (moved.lower - grow) - margin);
    EXPECT_EQ(bp.fatAABB(d).upper, (moved.upper + grow) + margin);
    EXPECT_TRUE(bp.isMoved(d));
    EXPECT_NO_THROW(bp.validate());
}

// ---- pair budget ---------------------------------------------------------------

TEST(BroadphaseBudget, KeepsTheLowestKeysWhateverTheStructure) {
    // 300 boxes at one point: 44 850 overlapping pairs. Skip a third of them
    // and keep at most 1 000: the kept ones are the 1 000 lowest of the rest.
    auto skip = [](int a, int b) { return (a + b) % 3 == 0; };
    std::vector<BroadphasePair> expected;
    int64_t notSkipped = 0;
    for (int a = 0; a < 300; ++a)
        for (int b = a + 1; b < 300; ++b)
            if (!skip(a, b)) {
                ++notSkipped;
                if (expected.size() < 1000) expected.push_back({a, b});
            }
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        BroadPhase bp(type);
        for (int i = 0; i < 300; ++i) {
            bp.createProxy({{1.0f, 1.0f}, {1.0f, 1.0f}}, ProxyType::Dynamic, i, 1);
        }
        std::vector<BroadphasePair> out;
        std::vector<BroadphasePair> accepted;
        const detail::PairSearchResult r = bp.updatePairs(
            skip,
            [&](int a, int b) {
                accepted.push_back({a, b});
                return true;
            },
            out, 1000);
        EXPECT_EQ(r.found, notSkipped);
        EXPECT_EQ(r.dropped, notSkipped - 1000);
        EXPECT_EQ(out, expected);
        EXPECT_EQ(accepted, expected);
        // A budget of 0 keeps nothing and still reports everything.
        bp.touchProxy(0);
        out.clear();
        const detail::PairSearchResult none = bp.updatePairs(
            skip, [](int, int) { return true; }, out, 0);
        EXPECT_TRUE(out.empty());
        EXPECT_EQ(none.found, none.dropped);
        EXPECT_GT(none.found, 0);
    }
}

// The split search (updatePairsParallel, what the world runs on its workers)
// against the serial one: the same pairs in the same order with the same
// budget, for a split into parts run backwards one at a time and for two
// real threads, on a random field where some boxes move each round.
namespace {

// 2 000 boxes of 1.2 m over 60 m, every fifth static, created in each of
// `bps` with the same proxy ids (the search tests below compare them).
std::vector<AABB> createRandomBoxes(Rng& rng, std::initializer_list<BroadPhase*> bps) {
    std::vector<AABB> boxes;
    for (int i = 0; i < 2000; ++i) {
        const AABB box = makeBox({rng.uniform(0, 60), rng.uniform(0, 60)}, {0.6f, 0.6f});
        boxes.push_back(box);
        const ProxyType t = i % 5 == 0 ? ProxyType::Static : ProxyType::Dynamic;
        for (BroadPhase* bp : bps) bp->createProxy(box, t, i, 1);
    }
    return boxes;
}

// Moves every `every`-th dynamic box by up to 3 m in each of `bps`: every
// eleventh (about 9 %) makes both kinds search by queries, every one makes
// them sweep.
void moveRandomBoxes(Rng& rng, std::vector<AABB>& boxes, int every,
                     std::initializer_list<BroadPhase*> bps) {
    for (int i = 1; i < 2000; i += every) {
        if (i % 5 == 0) continue;
        const Vec2 d{rng.uniform(-3, 3), rng.uniform(-3, 3)};
        boxes[size_t(i)] = {boxes[size_t(i)].lower + d, boxes[size_t(i)].upper + d};
        for (BroadPhase* bp : bps) bp->moveProxy(i, boxes[size_t(i)], d);
    }
}

}  // namespace

TEST(BroadphaseBudget, SplitSearchGivesTheSerialResult) {
    auto backwards = [](int count, auto&& fn) {
        for (int k = count - 1; k >= 0; --k) fn(k, k + 1);
    };
    auto twoThreads = [](int count, auto&& fn) {
        test::MaybeThread other([&] { fn(count / 2, count); });
        fn(0, count / 2);
        other.join();
    };
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        for (int64_t budget : {int64_t(INT64_MAX), int64_t(50)}) {
            BroadPhase serial(type), split1(type), split2(type);
            Rng rng(7);
            std::vector<AABB> boxes = createRandomBoxes(rng, {&serial, &split1, &split2});
            auto skip = [](int a, int b) { return (a * 7 + b) % 4 == 0; };
            auto accept = [](int a, int b) { return (a + b) % 5 != 0; };
            for (int round = 0; round < 4; ++round) {
                std::vector<BroadphasePair> a, b, c;
                const detail::PairSearchResult ra = serial.updatePairs(skip, accept, a, budget);
                const detail::PairSearchResult rb =
                    split1.updatePairsParallel(backwards, skip, accept, b, budget);
                const detail::PairSearchResult rc =
                    split2.updatePairsParallel(twoThreads, skip, accept, c, budget);
                ASSERT_FALSE(a.empty());
                EXPECT_EQ(a, b);
                EXPECT_EQ(a, c);
                EXPECT_EQ(ra.found, rb.found);
                EXPECT_EQ(ra.found, rc.found);
                EXPECT_EQ(ra.dropped, rb.dropped);
                EXPECT_EQ(ra.dropped, rc.dropped);
                if (budget != INT64_MAX) {
                    EXPECT_GT(ra.dropped, 0);
                }
                if (round == 2) {
                    EXPECT_GT(split2.sweptSearches(), 0);
                }
                // After round 1 every box moves: both kinds sweep, in parts.
                moveRandomBoxes(rng, boxes, round == 1 ? 1 : 11, {&serial, &split1, &split2});
            }
        }
    }
}

// A skip test that can prefetch gets the candidates in batches
// (BroadPhase::SkipBatch); the pairs, their order and the counts must be
// those of a plain skip test, by queries (few moved) and by sweep (all moved).
TEST(BroadphaseBudget, BatchedSkipGivesThePlainResult) {
    struct PrefetchingSkip {
        int* prefetches;
        bool operator()(int a, int b) const { return (a * 7 + b) % 4 == 0; }
        void prefetch(int, int) const { ++*prefetches; }
    };
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        for (int64_t budget : {int64_t(INT64_MAX), int64_t(50)}) {
            BroadPhase plain(type), batched(type);
            Rng rng(9);
            std::vector<AABB> boxes = createRandomBoxes(rng, {&plain, &batched});
            int prefetches = 0;
            const PrefetchingSkip batchSkip{&prefetches};
            auto plainSkip = [](int a, int b) { return (a * 7 + b) % 4 == 0; };
            auto accept = [](int a, int b) { return (a + b) % 5 != 0; };
            for (int round = 0; round < 4; ++round) {
                SCOPED_TRACE("round " + std::to_string(round));
                std::vector<BroadphasePair> a, b;
                const detail::PairSearchResult ra = plain.updatePairs(plainSkip, accept, a, budget);
                const detail::PairSearchResult rb =
                    batched.updatePairs(batchSkip, accept, b, budget);
                ASSERT_FALSE(a.empty());
                EXPECT_EQ(a, b);
                EXPECT_EQ(ra.found, rb.found);
                EXPECT_EQ(ra.dropped, rb.dropped);
                // After round 1 every box moves (a sweep), otherwise every eleventh (queries).
                moveRandomBoxes(rng, boxes, round == 1 ? 1 : 11, {&plain, &batched});
            }
            EXPECT_GT(prefetches, 0);
            EXPECT_GT(batched.sweptSearches(), 0);
        }
    }
}

// The world's re-fit in two halves (refitFat on the workers, commitRefit in
// order on one thread) is moveProxy: the same fat boxes, the same trees node
// for node, the same pairs; a box still inside its fat box changes nothing.
TEST(BroadphaseTree, RefitInTwoHalvesIsMoveProxy) {
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        BroadPhase moved(type), split(type);
        Rng rng(13);
        std::vector<AABB> boxes = createRandomBoxes(rng, {&moved, &split});
        auto skip = [](int, int) { return false; };
        auto accept = [](int, int) { return true; };
        for (int round = 0; round < 4; ++round) {
            SCOPED_TRACE("round " + std::to_string(round));
            std::vector<BroadphasePair> a, b;
            moved.updatePairs(skip, accept, a);
            split.updatePairs(skip, accept, b);
            EXPECT_EQ(a, b);
            std::vector<int> refitted;
            for (int i = 1; i < 2000; i += round == 1 ? 1 : 7) {
                if (i % 5 == 0) continue;
                const float step = i % 3 == 0 ? 0.01f : 1.5f;  // some stay inside their fat boxes
                const Vec2 d{step * rng.uniform(-1, 1), step * rng.uniform(-1, 1)};
                boxes[size_t(i)] = {boxes[size_t(i)].lower + d, boxes[size_t(i)].upper + d};
                const bool left = moved.moveProxy(i, boxes[size_t(i)], d);
                EXPECT_EQ(split.refitFat(i, boxes[size_t(i)]), left);
                EXPECT_EQ(split.refitPending(i), left);
                if (left) refitted.push_back(i);
            }
            EXPECT_FALSE(refitted.empty());
            for (int i : refitted) split.commitRefit(i);
            for (int i = 0; i < 2000; ++i) {
                ASSERT_FALSE(split.refitPending(i));
                ASSERT_EQ(split.fatAABB(i).lower, moved.fatAABB(i).lower);
                ASSERT_EQ(split.fatAABB(i).upper, moved.fatAABB(i).upper);
            }
            ASSERT_NO_THROW(split.validate());
            std::vector<std::pair<AABB, int>> na, nb;
            moved.forEachNode([&](const AABB& box, int depth, bool leaf) {
                na.push_back({box, leaf ? -depth : depth});
            });
            split.forEachNode([&](const AABB& box, int depth, bool leaf) {
                nb.push_back({box, leaf ? -depth : depth});
            });
            ASSERT_EQ(na.size(), nb.size());
            for (size_t k = 0; k < na.size(); ++k) {
                ASSERT_EQ(na[k].first.lower, nb[k].first.lower);
                ASSERT_EQ(na[k].first.upper, nb[k].first.upper);
                ASSERT_EQ(na[k].second, nb[k].second);
            }
        }
    }
}

// The world defers the tree flush past the pair search and runs it beside
// the solver (BroadPhase::deferFlush). The search on the unflushed trees must
// find the plain search's pairs, queries meanwhile must find every overlap,
// and the trees after the deferred flush must be the plain ones node for
// node (the flush's input is the same), by queries (few moved) and by sweep
// (all moved), and when a proxy moves before the deferred flush has run.
TEST(BroadphaseTree, DeferredFlushGivesThePlainPairsAndTrees) {
    auto nodes = [](const BroadPhase& bp) {
        std::vector<std::pair<AABB, int>> out;
        bp.forEachNode([&](const AABB& box, int depth, bool leaf) {
            out.push_back({box, leaf ? -depth - 1 : depth});
        });
        return out;
    };
    auto sameNodes = [](const std::vector<std::pair<AABB, int>>& a,
                        const std::vector<std::pair<AABB, int>>& b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i].first.lower != b[i].first.lower || a[i].first.upper != b[i].first.upper ||
                a[i].second != b[i].second)
                return false;
        return true;
    };
    BroadPhase plain(BroadphaseType::Tree), deferred(BroadphaseType::Tree);
    Rng rng(11);
    std::vector<AABB> boxes = createRandomBoxes(rng, {&plain, &deferred});
    auto skip = [](int a, int b) { return (a * 7 + b) % 4 == 0; };
    auto accept = [](int, int) { return true; };
    for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        // Round 0: every proxy is new (pending): nothing is deferred.
        EXPECT_EQ(deferred.deferFlush(), round > 0);
        std::vector<BroadphasePair> a, b;
        const detail::PairSearchResult ra = plain.updatePairs(skip, accept, a);
        const detail::PairSearchResult rb = deferred.updatePairs(skip, accept, b);
        ASSERT_FALSE(a.empty());
        EXPECT_EQ(a, b);
        EXPECT_EQ(ra.found, rb.found);
        // A query on the unflushed trees finds every overlap (brute force).
        const AABB probe = makeBox({rng.uniform(0, 60), rng.uniform(0, 60)}, {5.0f, 5.0f});
        std::vector<int> hits, expected;
        deferred.query(probe, ~0ull, [&](int shape) {
            hits.push_back(shape);
            return true;
        });
        for (int i = 0; i < int(boxes.size()); ++i)
            if (aabbOverlaps(deferred.fatAABB(i), probe)) expected.push_back(i);
        std::sort(hits.begin(), hits.end());
        EXPECT_EQ(hits, expected);
        if (round == 3) {
            // A move before the deferred flush runs it first.
            moveRandomBoxes(rng, boxes, 11, {&plain, &deferred});
            EXPECT_FALSE(deferred.flushDeferred());
        } else {
            deferred.finishDeferredFlush();
        }
        ASSERT_NO_THROW(deferred.validate());
        EXPECT_TRUE(sameNodes(nodes(plain), nodes(deferred)));
        // Round 1 moves every box (a sweep and a partial rebuild), the others every eleventh.
        moveRandomBoxes(rng, boxes, round == 1 ? 1 : 11, {&plain, &deferred});
    }
    EXPECT_GT(deferred.sweptSearches(), 0);
    BroadPhase sap(BroadphaseType::SortAndSweep);
    EXPECT_FALSE(sap.deferFlush());
}

// ---- allocation ----------------------------------------------------------------

TEST_P(StructureFixture, WarmStepsDoNotAllocate) {
    // 2000 boxes oscillating with a period of 40 steps: after warming up over
    // a few periods, a whole further period must not allocate.
    BroadPhase bp(GetParam());
    Rng rng(8);
    struct Body {
        Vec2 base{0.0f, 0.0f};
        Vec2 amp{0.0f, 0.0f};
        Vec2 half{0.0f, 0.0f};
        Vec2 pos{0.0f, 0.0f};
        int proxy = -1;
    };
    std::vector<Body> bodies(2000);
    for (int i = 0; i < 2000; ++i) {
        Body& b = bodies[i];
        b.base = {rng.uniform(0.0f, 120.0f), rng.uniform(0.0f, 120.0f)};
        b.amp = {rng.uniform(-3.0f, 3.0f), rng.uniform(-3.0f, 3.0f)};
        b.half = {rng.uniform(0.1f, 1.0f), rng.uniform(0.1f, 1.0f)};
        b.pos = b.base;
        b.proxy = bp.createProxy(makeBox(b.pos, b.half),
                                 i % 10 == 0 ? ProxyType::Static : ProxyType::Dynamic, i, 1);
    }
    std::vector<BroadphasePair> out;
    long pairCount = 0;
    auto step = [&](int t) {
        for (int i = 0; i < 2000; ++i) {
            Body& b = bodies[i];
            if (i % 10 == 0) continue;
            float phase = 2.0f * kPi * static_cast<float>(t % 40) / 40.0f;
            Vec2 to = b.base + std::sin(phase) * b.amp;
            Vec2 d = to - b.pos;
            b.pos = to;
            bp.moveProxy(b.proxy, makeBox(b.pos, b.half), d);
        }
        out.clear();
        bp.updatePairs([](int, int) { return true; }, out);
        pairCount += static_cast<long>(out.size());
        bp.query(makeBox({60.0f, 60.0f}, {10.0f, 10.0f}), ~0ull, [](int) { return true; });
        bp.rayCast(RayCastInput{{0.0f, 0.0f}, {120.0f, 120.0f}, 1.0f}, ~0ull,
                   [](const RayCastInput& in, int) { return in.maxFraction; });
    };
    int t = 0;
    for (; t < 200; ++t) step(t);
    const long long before = test::allocationCount();
    for (; t < 240; ++t) step(t);
    EXPECT_EQ(test::allocationCount() - before, 0);
    EXPECT_GT(pairCount, 0);
}

}  // namespace
}  // namespace carom::bptest
