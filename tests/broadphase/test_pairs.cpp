// Randomised property tests: the pairs both broadphase structures report,
// accumulated the way the World accumulates contacts, equal the O(n²)
// brute-force set of overlapping fat boxes after every update; and the two
// structures hand the world identical pairs in identical order.
#include <cmath>

#include <gtest/gtest.h>

#include "bp_test_util.hpp"

namespace carom::bptest {
namespace {

struct SceneParams {
    uint32_t seed = 1;
    int initial = 2000;  ///< shapes created before the first step (one batch)
    int steps = 40;
    float worldSize = 150.0f;  ///< centres in [0, worldSize)²
    float moveChance = 0.5f;   ///< per movable shape per step: small move
    float jumpChance = 0.01f;  ///< per movable shape per step: jump anywhere
    float churn = 0.005f;      ///< per shape per step: destroy (and one creation each)
    int batchStep = 15;        ///< this step creates `batchSize` shapes at once
    int batchSize = 1500;
    bool validateEveryOp = false;
    /// Snap centres, sizes and small moves to multiples of 0.1: boxes then
    /// often touch exactly, which tests the closed-interval tie handling.
    bool lattice = false;
};

/// Mirrors a world: shapes created, moved, re-typed, re-filtered, touched,
/// destroyed and re-created, applied identically to a tree and a
/// sort-and-sweep broadphase.
class Scene {
   public:
    explicit Scene(const SceneParams& p)
        : p_(p), rng_(p.seed), tree_(BroadphaseType::Tree), sap_(BroadphaseType::SortAndSweep) {}

    void run() {
        for (int i = 0; i < p_.initial; ++i) create();
        for (int step = 0; step < p_.steps; ++step) {
            if (step == p_.batchStep) {
                for (int i = 0; i < p_.batchSize; ++i) create();
            }
            mutate();
            tree_.update(shapes_);
            sap_.update(shapes_);
            check(step);
            if (::testing::Test::HasFatalFailure()) return;
        }
    }

    int reportedPairs() const { return static_cast<int>(tree_.pairs.size()); }
    const BroadPhase& tree() const { return tree_.bp; }

   private:
    AABB randomBox() {
        Vec2 c{rng_.uniform(0.0f, p_.worldSize), rng_.uniform(0.0f, p_.worldSize)};
        float kind = rng_.uniform(0.0f, 1.0f);
        Vec2 h{0.0f, 0.0f};
        if (kind < 0.85f) {
            h = {rng_.uniform(0.05f, 1.0f), rng_.uniform(0.05f, 1.0f)};
        } else if (kind < 0.95f) {
            h = {rng_.uniform(1.0f, 8.0f), rng_.uniform(1.0f, 8.0f)};
        } else if (kind < 0.98f) {
            h = {0.0f, 0.0f};  // a point
        } else {
            h = {rng_.uniform(5.0f, 20.0f), 0.0f};  // a flat segment
        }
        if (p_.lattice) {
            c = {snap(c.x), snap(c.y)};
            h = {snap(h.x), snap(h.y)};
        }
        return makeBox(c, h);
    }

    static float snap(float v) { return std::round(v * 10.0f) * 0.1f; }

    ProxyType randomType() {
        float t = rng_.uniform(0.0f, 1.0f);
        if (t < 0.2f) return ProxyType::Static;
        if (t < 0.3f) return ProxyType::Kinematic;
        return ProxyType::Dynamic;
    }

    void create() {
        int id;
        if (!freeShapes_.empty()) {
            id = freeShapes_.back();
            freeShapes_.pop_back();
        } else {
            id = static_cast<int>(shapes_.size());
            shapes_.emplace_back();
        }
        Shape& s = shapes_[id];
        s.alive = true;
        s.tight = randomBox();
        s.type = randomType();
        s.bits = 1ull << rng_.below(4);
        int a = tree_.bp.createProxy(s.tight, s.type, id, s.bits);
        int b = sap_.bp.createProxy(s.tight, s.type, id, s.bits);
        ASSERT_EQ(a, b);
        s.proxy = a;
        maybeValidate();
    }

    void destroy(int id) {
        Shape& s = shapes_[id];
        tree_.bp.destroyProxy(s.proxy);
        sap_.bp.destroyProxy(s.proxy);
        s = Shape{};
        freeShapes_.push_back(id);
        maybeValidate();
    }

    void move(Shape& s, Vec2 displacement, Vec2 reportedDisplacement) {
        s.tight.lower += displacement;
        s.tight.upper += displacement;
        bool a = tree_.bp.moveProxy(s.proxy, s.tight, reportedDisplacement);
        bool b = sap_.bp.moveProxy(s.proxy, s.tight, reportedDisplacement);
        ASSERT_EQ(a, b);
        maybeValidate();
    }

    void mutate() {
        const int count = static_cast<int>(shapes_.size());
        int destroyed = 0;
        for (int id = 0; id < count; ++id) {
            Shape& s = shapes_[id];
            if (!s.alive) continue;
            if (rng_.chance(p_.churn)) {
                destroy(id);
                ++destroyed;
                continue;
            }
            if (s.type != ProxyType::Static) {
                if (rng_.chance(p_.jumpChance)) {
                    Vec2 to{rng_.uniform(0.0f, p_.worldSize), rng_.uniform(0.0f, p_.worldSize)};
                    Vec2 d = to - aabbCenter(s.tight);
                    // A teleport reports no displacement half of the time.
                    move(s, d, rng_.chance(0.5f) ? d : Vec2{0.0f, 0.0f});
                } else if (rng_.chance(p_.moveChance)) {
                    Vec2 d{rng_.uniform(-0.3f, 0.3f), rng_.uniform(-0.3f, 0.3f)};
                    if (p_.lattice) d = {snap(d.x), snap(d.y)};
                    move(s, d, d);
                }
            } else if (rng_.chance(0.002f)) {
                Vec2 d{rng_.uniform(-3.0f, 3.0f), rng_.uniform(-3.0f, 3.0f)};
                move(s, d, Vec2{0.0f, 0.0f});
            }
            if (rng_.chance(0.003f)) {
                s.type = randomType();
                tree_.bp.setProxyType(s.proxy, s.type);
                sap_.bp.setProxyType(s.proxy, s.type);
                maybeValidate();
            }
            if (rng_.chance(0.003f)) {
                s.bits = 1ull << rng_.below(4);
                tree_.bp.setCategoryBits(s.proxy, s.bits);
                sap_.bp.setCategoryBits(s.proxy, s.bits);
                maybeValidate();
            }
            if (rng_.chance(0.005f)) {
                tree_.bp.touchProxy(s.proxy);
                sap_.bp.touchProxy(s.proxy);
            }
        }
        for (int i = 0; i < destroyed; ++i) create();
    }

    void maybeValidate() {
        if (!p_.validateEveryOp) return;
        tree_.bp.validate();
        sap_.bp.validate();
    }

    void check(int step) {
        SCOPED_TRACE("step " + std::to_string(step));
        ASSERT_NO_THROW(tree_.bp.validate());
        ASSERT_NO_THROW(sap_.bp.validate());
        ASSERT_EQ(tree_.bp.proxyCount(), sap_.bp.proxyCount());
        for (const Shape& s : shapes_) {
            if (!s.alive) continue;
            ASSERT_EQ(tree_.bp.fatAABB(s.proxy).lower, sap_.bp.fatAABB(s.proxy).lower);
            ASSERT_EQ(tree_.bp.fatAABB(s.proxy).upper, sap_.bp.fatAABB(s.proxy).upper);
            ASSERT_TRUE(aabbContains(tree_.bp.fatAABB(s.proxy), s.tight));
        }
        expectWellFormed(tree_);
        expectWellFormed(sap_);
        // Identical calls in identical order, whichever structure.
        ASSERT_EQ(tree_.acceptCalls, sap_.acceptCalls);
        ASSERT_EQ(tree_.out, sap_.out);
        PairSet truth = bruteForcePairs(tree_.bp, shapes_);
        ASSERT_EQ(tree_.pairs, truth);
        ASSERT_EQ(sap_.pairs, truth);
        EXPECT_EQ(tree_.bp.movedCount(), 0);
        EXPECT_EQ(sap_.bp.movedCount(), 0);
    }

    SceneParams p_;
    Rng rng_;
    PairTracker tree_;
    PairTracker sap_;
    std::vector<Shape> shapes_;
    std::vector<int> freeShapes_;
};

#ifndef CAROM_BP_LONG_TESTS

TEST(BroadphasePairs, SparseFieldMatchesBruteForce) {
    SceneParams p;
    p.seed = 11;
    Scene scene(p);
    scene.run();
    EXPECT_GT(scene.reportedPairs(), 100);  // the test exercises real overlaps
}

TEST(BroadphasePairs, DensePileMatchesBruteForce) {
    SceneParams p;
    p.seed = 12;
    p.initial = 1200;
    p.worldSize = 30.0f;
    p.batchSize = 400;
    p.steps = 25;
    Scene scene(p);
    scene.run();
    EXPECT_GT(scene.reportedPairs(), 5000);
    // Most proxies move every step: the tree kind searched by its sweep
    // lists (broadphase.hpp), and every step's pairs above matched.
    EXPECT_GT(scene.tree().sweptSearches(), 10);
}

TEST(BroadphasePairs, LatticeWithTouchingBoxesMatchesBruteForce) {
    SceneParams p;
    p.seed = 15;
    p.initial = 1500;
    p.worldSize = 60.0f;
    p.lattice = true;
    p.steps = 30;
    p.batchSize = 500;
    Scene scene(p);
    scene.run();
}

TEST(BroadphasePairs, FewMoversMatchBruteForce) {
    // Few moved proxies per step: sort-and-sweep searches by queries instead
    // of a full sweep; the answer must not change.
    SceneParams p;
    p.seed = 16;
    p.initial = 1500;
    p.worldSize = 60.0f;
    p.moveChance = 0.02f;
    p.jumpChance = 0.002f;
    p.churn = 0.001f;
    p.steps = 40;
    p.batchSize = 50;
    Scene scene(p);
    scene.run();
    // The tree kind queried around the few movers (it swept only for the
    // first step and the batches that moved more than an eighth).
    EXPECT_LT(scene.tree().sweptSearches(), 10);
}

TEST(BroadphasePairs, HighChurnAndJumpsMatchBruteForce) {
    SceneParams p;
    p.seed = 13;
    p.initial = 800;
    p.worldSize = 80.0f;
    p.jumpChance = 0.1f;
    p.churn = 0.05f;
    p.steps = 40;
    p.batchSize = 1500;  // a batch big enough to rebuild the tree mid-run
    Scene scene(p);
    scene.run();
}

TEST(BroadphasePairs, ValidateAfterEveryOperation) {
    SceneParams p;
    p.seed = 14;
    p.initial = 150;
    p.worldSize = 25.0f;
    p.jumpChance = 0.05f;
    p.churn = 0.03f;
    p.steps = 30;
    p.batchStep = 5;
    p.batchSize = 100;
    p.validateEveryOp = true;
    Scene scene(p);
    scene.run();
}

TEST(BroadphasePairs, ManySeeds) {
    for (uint32_t seed = 100; seed < 110; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        SceneParams p;
        p.seed = seed;
        p.initial = 300;
        p.worldSize = 20.0f + 10.0f * static_cast<float>(seed - 100);
        p.steps = 20;
        p.batchStep = static_cast<int>(seed % 7);
        p.batchSize = 200;
        p.jumpChance = 0.03f;
        p.churn = 0.02f;
        Scene scene(p);
        scene.run();
        if (HasFatalFailure()) return;
    }
}

#else  // CAROM_BP_LONG_TESTS: bigger variants, binary carom_broadphase_long_tests (label "long")

TEST(BroadphasePairsLong, TenThousandBoxes) {
    SceneParams p;
    p.seed = 21;
    p.initial = 10000;
    p.worldSize = 350.0f;
    p.steps = 20;
    p.batchStep = 10;
    p.batchSize = 5000;
    Scene scene(p);
    scene.run();
}

TEST(BroadphasePairsLong, DenseAndChurning) {
    SceneParams p;
    p.seed = 22;
    p.initial = 4000;
    p.worldSize = 50.0f;
    p.steps = 30;
    p.jumpChance = 0.05f;
    p.churn = 0.03f;
    Scene scene(p);
    scene.run();
}

#endif

}  // namespace
}  // namespace carom::bptest
