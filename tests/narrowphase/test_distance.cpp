// GJK distance and EPA penetration against brute force and hand-checked cases.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "narrowphase/narrowphase.hpp"
#include "narrowphase/src/proxy.hpp"
#include "np_test_util.hpp"

namespace carom::test {
namespace {

constexpr int kKindCount = static_cast<int>(Kind::Count);

double signedOf(const DistanceResult& r) {
    return r.overlap ? -r.depth : r.distance;
}

// Every pair of kinds, random shapes in random poses: signed distance, a
// normal achieving it, witness points on both surfaces.
TEST(Distance, MatchesBruteForceForEveryPairOfKinds) {
    Rng rng(1234);
    const int perPair = 150 * kScale;
    int overlapping = 0, apart = 0;
    for (int ka = 0; ka < kKindCount; ++ka) {
        for (int kb = 0; kb < kKindCount; ++kb) {
            for (int i = 0; i < perPair; ++i) {
                ShapeGeometry a = randomShape(rng, static_cast<Kind>(ka));
                ShapeGeometry b = randomShape(rng, static_cast<Kind>(kb));
                Transform xfA = randomTransform(rng, 1.0f);
                Transform xfB = randomTransform(rng, 2.0f);
                DistanceResult r = shapeDistance(a, xfA, b, xfB);
                SCOPED_TRACE(::testing::Message() << kindName(static_cast<Kind>(ka)) << " vs "
                                                  << kindName(static_cast<Kind>(kb)) << " #" << i);
                ASSERT_TRUE(finite(r));
                WorldShape wa = toWorld(a, xfA), wb = toWorld(b, xfB);
                double truth = bruteSignedDistance(wa, wb);
                const double tol = 5e-4;
                EXPECT_NEAR(signedOf(r), truth, tol);
                EXPECT_NEAR(length(r.normal), 1.0, 1e-4);
                // The normal achieves the signed distance (gap along it).
                EXPECT_NEAR(gapAlong(wa, wb, r.normal), truth, tol);
                EXPECT_GE(r.distance, 0.0f);
                EXPECT_GE(r.depth, 0.0f);
                EXPECT_LE(r.iterations, 80);
                // Witness points on the rounded surfaces.
                EXPECT_NEAR(pointSignedDistance(wa, r.pointA.x, r.pointA.y), 0.0, tol);
                EXPECT_NEAR(pointSignedDistance(wb, r.pointB.x, r.pointB.y), 0.0, tol);
                if (!r.overlap) {
                    ++apart;
                    EXPECT_NEAR(distance(r.pointA, r.pointB), r.distance, tol);
                } else {
                    ++overlapping;
                    EXPECT_NEAR(dot(r.pointA - r.pointB, r.normal), r.depth, tol);
                }
            }
        }
    }
    // The poses give a good mix of both regimes.
    EXPECT_GT(overlapping, perPair * kKindCount * kKindCount / 6);
    EXPECT_GT(apart, perPair * kKindCount * kKindCount / 5);
}

// Far from the world origin GJK works in A's frame: same answer as near it.
TEST(Distance, FarFromOriginMatchesNearOrigin) {
    Rng rng(99);
    for (int i = 0; i < 400 * kScale; ++i) {
        ShapeGeometry a = randomShape(rng, static_cast<Kind>(rng.integer(0, kKindCount - 1)));
        ShapeGeometry b = randomShape(rng, static_cast<Kind>(rng.integer(0, kKindCount - 1)));
        Transform xfA = randomTransform(rng, 1.0f), xfB = randomTransform(rng, 2.5f);
        DistanceResult near = shapeDistance(a, xfA, b, xfB);
        Vec2 far{5000.0f, -3000.0f};
        Transform fA{xfA.p + far, xfA.q}, fB{xfB.p + far, xfB.q};
        DistanceResult r = shapeDistance(a, fA, b, fB);
        ASSERT_TRUE(finite(r));
        EXPECT_NEAR(signedOf(r), signedOf(near), 2e-3) << i;
    }
}

// A warm cache changes nothing but the work done.
TEST(Distance, CacheWarmStartGivesSameAnswerWithFewerIterations) {
    Rng rng(7);
    int coldIterations = 0, warmIterations = 0;
    for (int pair = 0; pair < 100 * kScale; ++pair) {
        ShapeGeometry a = randomShape(rng, Kind::Polygon);
        ShapeGeometry b = randomShape(rng, static_cast<Kind>(rng.integer(0, kKindCount - 1)));
        Transform xfA = randomTransform(rng, 1.0f), xfB = randomTransform(rng, 2.5f);
        SimplexCache cache;
        Vec2 velocity{rng.uniform(-0.02f, 0.02f), rng.uniform(-0.02f, 0.02f)};
        float spin = rng.uniform(-0.02f, 0.02f);
        for (int step = 0; step < 30; ++step) {
            xfB.p += velocity;
            xfB.q = integrateRot(xfB.q, spin);
            DistanceResult cold = shapeDistance(a, xfA, b, xfB);
            DistanceResult warm = shapeDistance(a, xfA, b, xfB, &cache);
            ASSERT_TRUE(finite(warm));
            EXPECT_NEAR(signedOf(cold), signedOf(warm), 2e-4);
            coldIterations += cold.iterations;
            warmIterations += warm.iterations;
        }
    }
    EXPECT_LT(warmIterations, coldIterations);
}

// A 3 mm plank and a point 5 mm from it: 5 mm, not "overlap", wherever the
// point is along the plank, at the short ends too, in any pose.
TEST(Distance, ThinPlankVersusNearbyPointIsFiveMillimetres) {
    const float half = 0.0015f;
    const float gap = 0.005f;
    const float pointRadius = 1.0e-4f;
    Rng rng(3);
    for (float halfLength : {0.5f, 5.0f}) {
        Polygon plank = makeBox(halfLength, half);
        SimplexCache cache;
        for (int i = 0; i < 200 * kScale; ++i) {
            Transform xfA = randomTransform(rng, 50.0f);
            // Along a long face, or off a short end.
            Vec2 local;
            if (i % 4 == 0)
                local = {halfLength + gap + pointRadius, rng.uniform(-half, half)};
            else
                local = {rng.uniform(-halfLength, halfLength), half + gap + pointRadius};
            if (i % 2 == 1) local = -local;
            Circle point{{0.0f, 0.0f}, pointRadius};
            Transform xfB{transformPoint(xfA, local), makeRot(rng.uniform(-3.0f, 3.0f))};
            DistanceResult r =
                detail::shapeDistance(detail::makeRef(plank), xfA, detail::makeRef(point), xfB,
                                      (i % 3 == 0) ? nullptr : &cache);
            ASSERT_FALSE(r.overlap) << i;
            EXPECT_NEAR(r.distance, gap, 2e-5) << i;
        }
    }
}

TEST(Distance, NearTouchingAndTouchingBoxes) {
    Polygon box = makeBox(0.5f, 0.5f);
    for (float d : {1.0e-2f, 1.0e-3f, 1.0e-4f, 2.0e-5f}) {
        DistanceResult r =
            shapeDistance(box, Transform{}, box, makeTransform({1.0f + d, 0.3f}, 0.0f));
        EXPECT_FALSE(r.overlap) << d;
        EXPECT_NEAR(r.distance, d, 2e-6f) << d;
        EXPECT_NEAR(r.normal.x, 1.0f, 1e-5f);
    }
    DistanceResult touching =
        shapeDistance(box, Transform{}, box, makeTransform({1.0f, 0.3f}, 0.0f));
    EXPECT_NEAR(touching.distance, 0.0f, 2e-6f);
    EXPECT_NEAR(touching.depth, 0.0f, 2e-6f);
}

TEST(Distance, IdenticalShapesOverlapByTheirWidth) {
    Rng rng(11);
    for (int k = 0; k < kKindCount; ++k) {
        for (int i = 0; i < 20; ++i) {
            ShapeGeometry s = randomShape(rng, static_cast<Kind>(k));
            Transform xf = randomTransform(rng, 3.0f);
            DistanceResult r = shapeDistance(s, xf, s, xf);
            ASSERT_TRUE(finite(r));
            EXPECT_TRUE(r.overlap);
            double truth = bruteSignedDistance(toWorld(s, xf), toWorld(s, xf));
            EXPECT_NEAR(-r.depth, truth, 5e-4)
                << kindName(static_cast<Kind>(k)) << " " << r.iterations;
        }
    }
}

TEST(Distance, FixedCases) {
    // Circles: centres 3 apart, radii 1 and 0.5.
    DistanceResult r = shapeDistance(Circle{{0, 0}, 1.0f}, Transform{}, Circle{{0, 0}, 0.5f},
                                     makeTransform({0.0f, 3.0f}, 0.0f));
    EXPECT_NEAR(r.distance, 1.5f, 1e-6f);
    EXPECT_NEAR(r.normal.y, 1.0f, 1e-6f);
    EXPECT_NEAR(r.pointA.y, 1.0f, 1e-6f);
    EXPECT_NEAR(r.pointB.y, 2.5f, 1e-6f);
    // Circles overlapping by 0.5.
    r = shapeDistance(Circle{{0, 0}, 1.0f}, Transform{}, Circle{{0, 0}, 1.0f},
                      makeTransform({1.5f, 0.0f}, 0.0f));
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 0.5f, 1e-6f);

    // Unit boxes (half width 1) three apart: 1; rotated 45 degrees: 3 - 1 - sqrt 2.
    Polygon box = makeBox(1.0f, 1.0f);
    r = shapeDistance(box, Transform{}, box, makeTransform({3.0f, 0.0f}, 0.0f));
    EXPECT_NEAR(r.distance, 1.0f, 1e-6f);
    r = shapeDistance(box, Transform{}, box, makeTransform({3.0f, 0.0f}, kPi / 4));
    EXPECT_NEAR(r.distance, 2.0f - std::sqrt(2.0f), 1e-5f);
    // Overlap by 0.25 along x.
    r = shapeDistance(box, Transform{}, box, makeTransform({1.75f, 0.5f}, 0.0f));
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 0.25f, 1e-5f);
    EXPECT_NEAR(r.normal.x, 1.0f, 1e-5f);

    // Pentagon (vertex at angle 0) against hexagon (vertex at 180 degrees),
    // both of circumradius 1, on the x axis: vertex against vertex, d - 2.
    std::vector<Vec2> pent, hex;
    for (int i = 0; i < 5; ++i)
        pent.push_back({std::cos(2 * kPi * i / 5), std::sin(2 * kPi * i / 5)});
    for (int i = 0; i < 6; ++i)
        hex.push_back({std::cos(2 * kPi * i / 6), std::sin(2 * kPi * i / 6)});
    Polygon pentagon = makePolygon(pent), hexagon = makePolygon(hex);
    for (float d : {2.5f, 2.1f, 2.001f}) {
        r = shapeDistance(pentagon, Transform{}, hexagon, makeTransform({d, 0.0f}, 0.0f));
        EXPECT_FALSE(r.overlap);
        EXPECT_NEAR(r.distance, d - 2.0f, 2e-6f);
    }
    // Overlap: checked against brute force.
    Transform xfHex = makeTransform({1.7f, 0.2f}, 0.3f);
    r = shapeDistance(pentagon, Transform{}, hexagon, xfHex);
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(-r.depth, bruteSignedDistance(toWorld(pentagon, {}), toWorld(hexagon, xfHex)),
                1e-5);
    // Containment: a hexagon of circumradius 0.3 at the pentagon's centre
    // leaves through the nearest face: apothem cos 36 + 0.3 cos 24.
    Polygon small = makePolygon(std::vector<Vec2>{{0.3f, 0},
                                                  {0.15f, 0.2598076f},
                                                  {-0.15f, 0.2598076f},
                                                  {-0.3f, 0},
                                                  {-0.15f, -0.2598076f},
                                                  {0.15f, -0.2598076f}});
    r = shapeDistance(pentagon, Transform{}, small, Transform{});
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, std::cos(kPi / 5) + 0.3f * std::cos(24.0f * kPi / 180.0f), 1e-5f);

    // Segments crossing at right angles through their middles: B must move
    // 1 to clear A's end (or A's line): depth 1.
    Segment horizontal{{-1.0f, 0.0f}, {1.0f, 0.0f}};
    Segment vertical{{0.0f, -1.0f}, {0.0f, 1.0f}};
    r = shapeDistance(horizontal, Transform{}, vertical, Transform{});
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 1.0f, 1e-5f);
    // Segments apart: the vertical one lifted by 1.5.
    r = shapeDistance(horizontal, Transform{}, vertical, makeTransform({0.0f, 1.5f}, 0.0f));
    EXPECT_FALSE(r.overlap);
    EXPECT_NEAR(r.distance, 0.5f, 1e-6f);
    // Parallel segments 0.25 apart.
    r = shapeDistance(horizontal, Transform{}, horizontal, makeTransform({0.5f, 0.25f}, 0.0f));
    EXPECT_NEAR(r.distance, 0.25f, 1e-6f);

    // Capsules crossing: radius 0.1 each, B's core at x = 0.5 spans y in
    // [-1, 1]: cheapest exit is +x by 0.5 + 0.2.
    Capsule ca{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.1f};
    Capsule cb{{0.5f, -1.0f}, {0.5f, 1.0f}, 0.1f};
    r = shapeDistance(ca, Transform{}, cb, Transform{});
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 0.7f, 1e-5f);
    EXPECT_NEAR(r.normal.x, 1.0f, 1e-5f);
}

// EPA from degenerate simplices: GJK ends on a point (concentric circles,
// corners touching) or on a segment (collinear segments or capsules, whose
// Minkowski difference is itself flat).
TEST(Distance, DegenerateOverlaps) {
    DistanceResult r = shapeDistance(Circle{{0, 0}, 0.5f}, makeTransform({3.0f, 4.0f}, 1.0f),
                                     Circle{{0, 0}, 0.25f}, makeTransform({3.0f, 4.0f}, 0.0f));
    ASSERT_TRUE(finite(r));
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 0.75f, 1e-6f);
    EXPECT_NEAR(length(r.normal), 1.0f, 1e-6f);

    Segment s1{{-1.0f, 0.0f}, {1.0f, 0.0f}}, s2{{0.0f, 0.0f}, {2.0f, 0.0f}};
    r = shapeDistance(s1, Transform{}, s2, Transform{});
    ASSERT_TRUE(finite(r));
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 0.0f, 1e-6f);
    EXPECT_NEAR(std::fabs(r.normal.y), 1.0f, 1e-6f);

    Capsule c1{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.1f}, c2{{0.0f, 0.0f}, {2.0f, 0.0f}, 0.1f};
    r = shapeDistance(c1, Transform{}, c2, Transform{});
    EXPECT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 0.2f, 1e-6f);
    EXPECT_NEAR(std::fabs(r.normal.y), 1.0f, 1e-6f);

    // Boxes touching corner to corner, and a segment lying on a box face.
    Polygon box = makeBox(0.5f, 0.5f);
    r = shapeDistance(box, Transform{}, box, makeTransform({1.0f, 1.0f}, 0.0f));
    EXPECT_NEAR(r.distance, 0.0f, 1e-6f);
    EXPECT_NEAR(r.depth, 0.0f, 1e-6f);
    r = shapeDistance(box, Transform{}, Segment{{-0.2f, 0.5f}, {0.3f, 0.5f}}, Transform{});
    EXPECT_NEAR(r.distance, 0.0f, 1e-6f);
    EXPECT_NEAR(r.depth, 0.0f, 1e-6f);
    EXPECT_NEAR(r.normal.y, 1.0f, 1e-5f);
}

// Hill climbing finds the same support value as a scan, from any start.
TEST(Support, HillClimbingMatchesScan) {
    Rng rng(5);
    for (int i = 0; i < 2000 * kScale; ++i) {
        Polygon p = std::get<Polygon>(randomShape(rng, Kind::Polygon));
        float a = rng.uniform(-kPi, kPi);
        Vec2 d{std::cos(a), std::sin(a)};
        int start = rng.integer(0, p.count - 1);
        int hill = detail::supportHillClimb(p.vertices.data(), p.count, d, start);
        int scan = detail::supportScan(p.vertices.data(), p.count, d);
        EXPECT_NEAR(dot(p.vertices[hill], d), dot(p.vertices[scan], d), 1e-6f) << i;
    }
}

TEST(Distance, RefusesBadInput) {
    Polygon box = makeBox(1.0f, 1.0f);
    Transform bad{{std::nanf(""), 0.0f}, {}};
    EXPECT_THROW((void)shapeDistance(box, bad, box, Transform{}), Error);
    Transform badRot{{0.0f, 0.0f}, {2.0f, 0.0f}};
    EXPECT_THROW((void)shapeDistance(box, Transform{}, box, badRot), Error);
    EXPECT_THROW((void)shapeDistance(Circle{{0, 0}, -1.0f}, Transform{}, box, Transform{}), Error);
}

}  // namespace
}  // namespace carom::test
