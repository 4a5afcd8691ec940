// Creating and destroying many shapes on one body
// takes linear time. A chain at the documented limit (kMaxChainPoints) is
// created, stepped and destroyed, and the whole-body recomputations (extents,
// mass) are counted through WorldImpl::shapeVisits: linear work visits each
// shape a bounded number of times, quadratic work n²/2 times. The test runs
// in the default suite, so a regression also shows as a timeout.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

#include "tests/support/internals.hpp"

using namespace carom;

TEST(Scaling, ChainAtTheLimitIsLinear) {
    World w;
    BodyId ground = w.createBody(BodyDef{});
    ChainDef cd;
    cd.points.reserve(kMaxChainPoints);
    for (size_t i = 0; i < kMaxChainPoints; ++i)
        cd.points.push_back({-50000.0f + float(i), 0.25f * float(i % 7)});
    const uint64_t before = internals(w).shapeVisits;
    ChainId c = w.createChain(ground, cd);
    const int n = int(kMaxChainPoints) - 1;
    EXPECT_EQ(int(w.chainSegments(c).size()), n);
    EXPECT_EQ(w.counters().shapes, n);
    // A body on the chain, so the step has something to do.
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.5f, 3.0f};
    BodyId ball = w.createBody(bd);
    w.createShape(ball, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
    for (int i = 0; i < 10; ++i) w.step(1.0f / 60.0f);
    EXPECT_LT(w.position(ball).y, 3.0f);
    w.destroyChain(c);
    EXPECT_EQ(w.counters().shapes, 1);
    EXPECT_TRUE(w.shapes(ground).empty());
    w.destroyBody(ground);
    const uint64_t visits = internals(w).shapeVisits - before;
    // Linear: a few visits per segment (the lazy extents once per step
    // that follows a change). Quadratic would be ~5e9.
    EXPECT_LE(visits, uint64_t(4) * uint64_t(n)) << visits;
}

TEST(Scaling, ManyShapesOnOneDynamicBodyAreLinear) {
    World w;
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    BodyId b = w.createBody(bd);
    const int n = 20000;
    std::vector<ShapeId> shapes;
    shapes.reserve(n);
    const uint64_t before = internals(w).shapeVisits;
    for (int i = 0; i < n; ++i)  // default ShapeDef: the mass is updated after each one
        shapes.push_back(
            w.createShape(b, ShapeDef{}, Circle{{float(i % 100), float(i / 100)}, 0.4f}));
    EXPECT_NEAR(w.mass(b), float(n) * kPi * 0.16f, 1e-3f * float(n));
    // The mass after n single additions equals one recomputation from scratch.
    const float incremental = w.mass(b);
    const Vec2 center = w.localCenterOfMass(b);
    w.setMassData(b, MassData{1.0f, {0.0f, 0.0f}, 1.0f});
    w.setDensity(shapes[0], 1.0f);  // recomputes from every shape
    EXPECT_EQ(w.mass(b), incremental);
    EXPECT_EQ(w.localCenterOfMass(b).x, center.x);
    w.step(1.0f / 60.0f);
    // Removal without a mass update per shape is O(1) each (swap with the last).
    for (int i = 0; i < n; i += 2) w.destroyShape(shapes[size_t(i)], false);
    EXPECT_EQ(int(w.shapes(b).size()), n / 2);
    for (ShapeId s : w.shapes(b)) EXPECT_EQ(w.shapeBody(s), b);
    w.step(1.0f / 60.0f);
    w.destroyBody(b);
    EXPECT_EQ(w.counters().shapes, 0);
    const uint64_t visits = internals(w).shapeVisits - before;
    EXPECT_LE(visits, uint64_t(6) * uint64_t(n)) << visits;
}
