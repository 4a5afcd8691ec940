// Geometry against closed forms and brute force.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

using namespace carom;

namespace {

// Mass properties by dense sampling of a grid over the shape's box: the
// reference for shapes whose closed form is what we want to check.
MassData sampleMass(const ShapeGeometry& g, float density, float cell) {
    AABB box = computeAABB(g, Transform{});
    double m = 0, mx = 0, my = 0, ixx = 0;
    for (float x = box.lower.x + 0.5f * cell; x < box.upper.x; x += cell)
        for (float y = box.lower.y + 0.5f * cell; y < box.upper.y; y += cell)
            if (containsPoint(g, Vec2{x, y})) {
                double dm = double(density) * cell * cell;
                m += dm, mx += dm * x, my += dm * y, ixx += dm * (double(x) * x + double(y) * y);
            }
    MassData out;
    out.mass = float(m);
    out.center = Vec2{float(mx / m), float(my / m)};
    out.rotationalInertia = float(
        ixx - m * (double(out.center.x) * out.center.x + double(out.center.y) * out.center.y));
    return out;
}

}  // namespace

TEST(Mass, CircleAtOffset) {
    MassData m = computeMass(Circle{{1.0f, 0.0f}, 1.0f}, 1.0f);
    EXPECT_NEAR(m.mass, kPi, 1e-5f);
    EXPECT_NEAR(m.center.x, 1.0f, 1e-6f);
    EXPECT_NEAR(m.center.y, 0.0f, 1e-6f);
    EXPECT_NEAR(m.rotationalInertia, kPi / 2.0f, 1e-5f);
}

TEST(Mass, TwoByTwoBox) {
    MassData m = computeMass(makeBox(1.0f, 1.0f), 1.0f);
    EXPECT_NEAR(m.mass, 4.0f, 1e-5f);
    EXPECT_NEAR(m.rotationalInertia, 8.0f / 3.0f, 1e-5f);
    EXPECT_NEAR(m.center.x, 0.0f, 1e-6f);
}

TEST(Mass, OffsetRotatedBoxKeepsMassAndCentroidInertia) {
    MassData ref = computeMass(makeBox(1.5f, 0.5f), 2.0f);
    MassData m = computeMass(makeOffsetBox(1.5f, 0.5f, {3.0f, -2.0f}, 0.7f), 2.0f);
    EXPECT_NEAR(m.mass, ref.mass, 1e-4f);
    EXPECT_NEAR(m.rotationalInertia, ref.rotationalInertia, 1e-3f);
    EXPECT_NEAR(m.center.x, 3.0f, 1e-5f);
    EXPECT_NEAR(m.center.y, -2.0f, 1e-5f);
}

TEST(Mass, CapsuleBetweenInscribedAndBoundingBoxes) {
    Capsule c{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.5f};
    float m = computeMass(c, 1.0f).mass;
    float inscribed = 2.0f * 1.0f;  // the 2 × 1 rectangle between the centres
    float bounding = 3.0f * 1.0f;   // the 3 × 1 box around the whole capsule
    EXPECT_GT(m, inscribed);
    EXPECT_LT(m, bounding);
    EXPECT_NEAR(m, 2.0f + kPi * 0.25f, 1e-5f);
}

TEST(Mass, CapsuleAndRoundedPolygonMatchSampling) {
    const std::vector<ShapeGeometry> shapes = {
        Capsule{{-0.7f, 0.2f}, {0.9f, -0.4f}, 0.35f},
        makeRoundedBox(0.8f, 0.4f, 0.2f),
        makePolygon(std::vector<Vec2>{{0, 0}, {2, 0.3f}, {1.2f, 1.5f}, {-0.3f, 1.0f}}, 0.15f),
    };
    for (const auto& g : shapes) {
        MassData exact = computeMass(g, 1.5f);
        MassData sampled = sampleMass(g, 1.5f, 0.004f);
        EXPECT_NEAR(exact.mass, sampled.mass, 2e-3f * sampled.mass);
        EXPECT_NEAR(exact.center.x, sampled.center.x, 2e-3f);
        EXPECT_NEAR(exact.center.y, sampled.center.y, 2e-3f);
        EXPECT_NEAR(exact.rotationalInertia, sampled.rotationalInertia,
                    5e-3f * sampled.rotationalInertia);
    }
}

TEST(Hull, RandomPointsGiveConvexCounterClockwiseHullContainingAll) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-3.0f, 3.0f);
    for (int trial = 0; trial < 500; ++trial) {
        std::vector<Vec2> pts(3 + trial % 40);
        for (auto& p : pts) p = {u(rng), u(rng)};
        Polygon poly;
        try {
            poly = makePolygon(pts);
        } catch (const Error&) {
            continue;  // only degenerate sets may be refused, and 3 random points rarely are
        }
        ASSERT_NO_THROW(validate(poly));
        for (Vec2 p : pts) {
            for (int i = 0; i < poly.count; ++i)
                EXPECT_LE(dot(poly.normals[size_t(i)], p - poly.vertices[size_t(i)]), 1e-3f);
        }
    }
}

TEST(Hull, SixtyFourVerticesAllowedAndMoreRefused) {
    auto ring = [](int n) {
        std::vector<Vec2> pts;
        for (int i = 0; i < n; ++i) {
            float a = 2.0f * kPi * float(i) / float(n);
            pts.push_back({2.0f * std::cos(a), 2.0f * std::sin(a)});
        }
        return pts;
    };
    EXPECT_EQ(makePolygon(ring(64)).count, 64);
    try {
        makePolygon(ring(65));
        FAIL() << "65 hull vertices accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::LimitExceeded);
    }
}

TEST(Hull, DegenerateInputsRefused) {
    EXPECT_THROW(makePolygon(std::vector<Vec2>{{0, 0}, {1, 1}}), Error);
    EXPECT_THROW(makePolygon(std::vector<Vec2>{{0, 0}, {1, 1}, {2, 2}, {3, 3}}), Error);
    EXPECT_THROW(makePolygon(std::vector<Vec2>{{0, 0}, {0, 0}, {0, 0}}), Error);
    EXPECT_THROW(makePolygon(std::vector<Vec2>{{0, 0}, {1, 0}, {0, NAN}}), Error);
    EXPECT_THROW(makePolygon(std::vector<Vec2>{{0, 0}, {1, 0}, {0, 1}}, -0.1f), Error);
    EXPECT_THROW(makeBox(0.0f, 1.0f), Error);
    EXPECT_THROW(makeBox(1.0f, -1.0f), Error);
    EXPECT_THROW(makeBox(INFINITY, 1.0f), Error);
}

TEST(RayCast, RayHitsTwoByTwoBoxAtThreeEighths) {
    CastOutput out = rayCast(RayCastInput{{-4.0f, 0.0f}, {8.0f, 0.0f}, 1.0f}, makeBox(1.0f, 1.0f));
    ASSERT_TRUE(out.hit);
    EXPECT_NEAR(out.fraction, 3.0f / 8.0f, 1e-6f);
    EXPECT_NEAR(out.normal.x, -1.0f, 1e-6f);
}

TEST(RayCast, StartingInsideDoesNotHit) {
    EXPECT_FALSE(rayCast(RayCastInput{{0, 0}, {5, 0}, 1}, makeBox(1, 1)).hit);
    EXPECT_FALSE(rayCast(RayCastInput{{0, 0}, {5, 0}, 1}, Circle{{0, 0}, 1}).hit);
    EXPECT_FALSE(rayCast(RayCastInput{{0, 0}, {5, 0}, 1}, Capsule{{-1, 0}, {1, 0}, 0.5f}).hit);
}

TEST(RayCast, ChainSegmentIsOneSided) {
    // Edge from right to left: its solid (right-hand) side faces up.
    ChainSegment cs;
    cs.segment = {{1.0f, 0.0f}, {-1.0f, 0.0f}};
    cs.ghost1 = {2.0f, 0.0f};
    cs.ghost2 = {-2.0f, 0.0f};
    EXPECT_TRUE(rayCast(RayCastInput{{0, 1}, {0, -2}, 1}, cs).hit);
    EXPECT_FALSE(rayCast(RayCastInput{{0, -1}, {0, 2}, 1}, cs).hit);
}

// Every shape kind against brute-force marching along the ray.
TEST(RayCast, MatchesMarchingOnRandomRays) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-4.0f, 4.0f);
    const std::vector<ShapeGeometry> shapes = {
        Circle{{0.3f, -0.2f}, 0.8f},
        Capsule{{-0.7f, 0.2f}, {0.9f, -0.4f}, 0.35f},
        makeOffsetBox(0.8f, 0.4f, {0.2f, 0.1f}, 0.4f),
        makeRoundedBox(0.6f, 0.3f, 0.25f),
        makePolygon(std::vector<Vec2>{{0, 0}, {2, 0.3f}, {1.2f, 1.5f}, {-0.3f, 1.0f}}, 0.1f),
    };
    int hits = 0;
    for (const auto& g : shapes) {
        for (int i = 0; i < 400; ++i) {
            RayCastInput in{{u(rng), u(rng)}, {u(rng), u(rng)}, 1.0f};
            if (containsPoint(g, in.origin)) continue;
            // March in small steps to find the first inside point.
            const int n = 20000;
            float first = -1.0f;
            for (int k = 0; k <= n; ++k) {
                float t = float(k) / float(n);
                if (containsPoint(g, in.origin + t * in.translation)) {
                    first = t;
                    break;
                }
            }
            CastOutput out = rayCast(in, g);
            float tol = 2.0f / float(n) + 1e-4f;
            if (first < 0.0f) {
                // A graze thinner than the marching step may be missed by marching.
                continue;
            }
            ++hits;
            ASSERT_TRUE(out.hit) << "shape " << g.index() << " ray " << i;
            EXPECT_NEAR(out.fraction, first, tol) << "shape " << g.index();
            EXPECT_NEAR(length(out.normal), 1.0f, 1e-4f);
        }
    }
    EXPECT_GT(hits, 100);
}

// Far origins must not cancel in the circle, capsule and rounded-polygon
// code (cancelling gives the centre with a zero normal at 1e4 m,
// a NaN fraction at 1e10 m, a capsule spanning ±1.5 hit at x = -28.6 from
// 100 km). The full sweep against a double reference is in the narrowphase
// tests (RayCast.FarRaysMatchDoubleReference).
TEST(RayCast, FarOriginsHitTheSurfaceWithItsNormal) {
    const Circle circle{{0.0f, 0.0f}, 1.0f};
    const Capsule capsule{{-1.5f, 0.0f}, {1.5f, 0.0f}, 0.5f};
    const Polygon rounded = makeRoundedBox(1.0f, 0.5f, 0.25f);
    for (float d : {1e2f, 1e4f, 1e5f, 1e6f, 1e10f, 1e30f}) {
        SCOPED_TRACE(d);
        RayCastInput in{{-d, 0.25f}, {2.0f * d, 0.0f}, 1.0f};
        // Circle: entry at x = -√(1 - 0.25²), fraction (d - 0.968...) / 2d.
        CastOutput c = rayCast(in, circle);
        ASSERT_TRUE(c.hit);
        const double x = -std::sqrt(1.0 - 0.0625);
        EXPECT_NEAR(c.point.x, x, 1e-6);
        EXPECT_NEAR(c.point.y, 0.25, 1e-6);
        EXPECT_NEAR(c.normal.x, x, 1e-6);
        EXPECT_NEAR(c.normal.y, 0.25, 1e-6);
        EXPECT_NEAR(c.fraction, (double(d) + x) / (2.0 * d), 1e-7);
        // Capsule: the left cap, at x = -1.5 - √(0.5² - 0.25²).
        CastOutput k = rayCast(in, capsule);
        ASSERT_TRUE(k.hit);
        EXPECT_NEAR(k.point.x, -1.5 - std::sqrt(0.1875), 1e-6);
        EXPECT_NEAR(k.point.y, 0.25, 1e-6);
        EXPECT_NEAR(length(k.normal), 1.0f, 1e-6f);
        // Rounded box: the left side pushed out to x = -1.25 (y = 0.25 is
        // the end of the flat part, where the corner arc starts).
        CastOutput p = rayCast(RayCastInput{{-d, 0.1f}, {2.0f * d, 0.0f}, 1.0f}, rounded);
        ASSERT_TRUE(p.hit);
        EXPECT_NEAR(p.point.x, -1.25, 1e-6);
        EXPECT_NEAR(p.normal.x, -1.0f, 1e-6f);
        // From above, through the capsule's side in its own frame.
        CastOutput side = rayCast(RayCastInput{{0.7f, d}, {0.0f, -2.0f * d}, 1.0f}, capsule);
        ASSERT_TRUE(side.hit);
        EXPECT_NEAR(side.point.x, 0.7, 1e-6);
        EXPECT_NEAR(side.point.y, 0.5, 1e-6);
        EXPECT_NEAR(side.normal.y, 1.0f, 1e-6f);
    }
}

// The fraction is relative to the given translation, however long: it is
// formed once as distance / |translation| (no |d|² to overflow, no product
// of small numbers to underflow), down to float's smallest normal numbers.
TEST(RayCast, HugeTranslationsKeepAnAccurateFraction) {
    const std::vector<ShapeGeometry> shapes = {
        Circle{{0.0f, 0.0f}, 1.0f}, Capsule{{0.0f, -1.0f}, {0.0f, 1.0f}, 1.0f}, makeBox(1.0f, 1.0f),
        makeRoundedBox(0.5f, 0.5f, 0.5f), Segment{{-1.0f, -1.0f}, {-1.0f, 1.0f}}};
    for (const ShapeGeometry& g : shapes) {
        for (float len : {1e3f, 1e20f, 1e30f, 3e38f}) {
            SCOPED_TRACE(::testing::Message() << "shape " << g.index() << " length " << len);
            // Hits x = -1 after 3 m: fraction 3 / len.
            CastOutput out =
                rayCast(RayCastInput{{-4.0f, 0.0f}, {len, 0.0f}, 1.0f}, g, Transform{});
            ASSERT_TRUE(out.hit);
            EXPECT_NEAR(out.fraction / (3.0 / double(len)), 1.0, 1e-6);
            EXPECT_NEAR(out.point.x, -1.0f, 1e-6f);
            // The same diagonally, in a rotated frame: nothing overflows.
            const float h = 0.70710678f * len;
            CastOutput diag =
                rayCast(RayCastInput{{-4.0f, -4.0f}, {h, h}, 1.0f}, g, makeTransform({0, 0}, 0.3f));
            EXPECT_TRUE(std::isfinite(diag.fraction) && isFinite(diag.point) &&
                        isFinite(diag.normal));
            EXPECT_TRUE(diag.hit);
        }
    }
    // Beyond the engine's range nothing is NaN: a far origin gives a finite
    // answer or a miss.
    for (float o : {1e20f, 3e38f}) {
        CastOutput out = rayCast(RayCastInput{{-o, -o}, {o, o}, 1.0f}, Circle{{0, 0}, 1},
                                 makeTransform({1e6f, 0}, 2.0f));
        EXPECT_TRUE(std::isfinite(out.fraction) && isFinite(out.point) && isFinite(out.normal));
    }
}

TEST(Bounds, PolygonAABBContainsEveryVertex) {
    Polygon p = makeOffsetBox(1.0f, 0.5f, {2, 3}, 0.3f, 0.1f);
    Transform xf = makeTransform({-4, 5}, 1.2f);
    AABB box = computeAABB(p, xf);
    for (int i = 0; i < p.count; ++i) {
        Vec2 v = transformPoint(xf, p.vertices[size_t(i)]);
        EXPECT_GE(v.x, box.lower.x + 0.1f - 1e-5f);
        EXPECT_LE(v.x, box.upper.x - 0.1f + 1e-5f);
    }
}

TEST(Math, RotationHelpers) {
    Rot q = makeRot(0.5f), r = makeRot(-1.25f);
    EXPECT_NEAR(angleOf(mulRot(q, r)), -0.75f, 1e-6f);
    EXPECT_NEAR(relativeAngle(q, r), -1.75f, 1e-6f);
    Vec2 v{1.0f, 2.0f};
    Vec2 back = invRotate(q, rotate(q, v));
    EXPECT_NEAR(back.x, 1.0f, 1e-6f);
    EXPECT_NEAR(back.y, 2.0f, 1e-6f);
    EXPECT_NEAR(unwindAngle(3.5f * kPi), -0.5f * kPi, 1e-5f);
    Transform a = makeTransform({1, 2}, 0.3f), b = makeTransform({-3, 1}, 1.1f);
    Transform c = invMulTransforms(a, mulTransforms(a, b));
    EXPECT_NEAR(c.p.x, b.p.x, 1e-5f);
    EXPECT_NEAR(angleOf(c.q), 1.1f, 1e-5f);
}
