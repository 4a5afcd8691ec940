// Contact manifolds: consistency with the brute-force signed distance on
// random pairs of every kind, and hand-checked resting, id and chain cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "narrowphase/narrowphase.hpp"
#include "np_test_util.hpp"

namespace carom::test {
namespace {

constexpr int kKindCount = static_cast<int>(Kind::Count);

float minSeparation(const Manifold& m) {
    float s = 1e30f;
    for (int i = 0; i < m.pointCount; ++i) s = std::min(s, m.points[i].separation);
    return s;
}

bool isRound(Kind k) {
    return k == Kind::Circle;
}

// Random pairs of every kind (chains excluded: they are one-sided and have
// their own tests below).
TEST(Manifold, ConsistentWithBruteForceDistance) {
    Rng rng(4321);
    const int perPair = 120 * kScale;
    int withPoints = 0;
    for (int ka = 0; ka < kKindCount; ++ka) {
        for (int kb = 0; kb < kKindCount; ++kb) {
            Kind kindA = static_cast<Kind>(ka), kindB = static_cast<Kind>(kb);
            if (kindA == Kind::Chain || kindB == Kind::Chain) continue;
            for (int i = 0; i < perPair; ++i) {
                ShapeGeometry a = randomShape(rng, kindA);
                ShapeGeometry b = randomShape(rng, kindB);
                Transform xfA = randomTransform(rng, 1.0f);
                Transform xfB = randomTransform(rng, 2.0f);
                SCOPED_TRACE(::testing::Message()
                             << kindName(kindA) << " vs " << kindName(kindB) << " #" << i);
                Manifold m = collide(a, xfA, b, xfB);
                ASSERT_TRUE(finite(m));
                ASSERT_LE(m.pointCount, 2);
                WorldShape wa = toWorld(a, xfA), wb = toWorld(b, xfB);
                double sd = bruteSignedDistance(wa, wb);
                if (sd > kSpeculativeDistance + 1e-4) {
                    EXPECT_EQ(m.pointCount, 0) << "sd " << sd;
                    continue;
                }
                if (sd < kSpeculativeDistance - 1e-4) {
                    ASSERT_GE(m.pointCount, 1) << "sd " << sd;
                }
                if (m.pointCount == 0) continue;
                ++withPoints;
                EXPECT_NEAR(length(m.normal), 1.0f, 1e-4f);
                float ms = minSeparation(m);
                bool exactPoints =
                    isRound(kindA) || isRound(kindB) || (wa.radius == 0.0 && wb.radius == 0.0);
                // Never more separated than the truth (the solver would miss
                // a contact); for round shapes and for overlaps: the truth.
                EXPECT_LE(ms, sd + 2e-4);
                if (isRound(kindA) || isRound(kindB) || sd < 0.0) {
                    EXPECT_NEAR(ms, sd, 2e-3);
                }
                // The normal points from A to B: moving B along it separates.
                EXPECT_NEAR(gapAlong(wa, wb, m.normal), ms, 2e-3);
                for (int k = 0; k < m.pointCount; ++k) {
                    const ManifoldPoint& p = m.points[k];
                    EXPECT_LE(p.separation, kSpeculativeDistance + 1e-6f);
                    EXPECT_NEAR(p.anchorA.x, p.point.x - xfA.p.x, 1e-5f);
                    EXPECT_NEAR(p.anchorA.y, p.point.y - xfA.p.y, 1e-5f);
                    EXPECT_NEAR(p.anchorB.x, p.point.x - xfB.p.x, 1e-5f);
                    EXPECT_NEAR(p.anchorB.y, p.point.y - xfB.p.y, 1e-5f);
                    EXPECT_EQ(p.normalImpulse, 0.0f);
                    EXPECT_EQ(p.tangentImpulse, 0.0f);
                    // Midway between the surfaces: each is half the
                    // separation away (the point's distance to a surface is
                    // at most its distance to the surface point it came from).
                    // (Clipping offsets rounded incident edges along the
                    // reference normal, an approximation, so this is exact
                    // only with a circle or without radii.)
                    if (!exactPoints) continue;
                    double half = 0.5 * std::fabs(p.separation);
                    EXPECT_LE(std::fabs(pointSignedDistance(wa, p.point.x, p.point.y)),
                              half + 2e-3);
                    EXPECT_LE(std::fabs(pointSignedDistance(wb, p.point.x, p.point.y)),
                              half + 2e-3);
                }
                if (m.pointCount == 2) {
                    EXPECT_NE(m.points[0].id, m.points[1].id);
                }
                if (isRound(kindA) || isRound(kindB)) {
                    EXPECT_EQ(m.pointCount, 1);
                }
            }
        }
    }
    EXPECT_GT(withPoints, perPair * 6);
}

// Any order of kinds: swapping A and B flips the normal and keeps the points.
TEST(Manifold, FlipSymmetry) {
    Rng rng(77);
    int compared = 0;
    for (int i = 0; i < 3000 * kScale; ++i) {
        Kind ka = static_cast<Kind>(rng.integer(0, kKindCount - 2));
        Kind kb = static_cast<Kind>(rng.integer(0, kKindCount - 1));
        ShapeGeometry a = randomShape(rng, ka), b = randomShape(rng, kb);
        Transform xfA = randomTransform(rng, 1.0f), xfB = randomTransform(rng, 2.0f);
        Manifold ab = collide(a, xfA, b, xfB);
        Manifold ba = collide(b, xfB, a, xfA);
        ASSERT_TRUE(finite(ab));
        ASSERT_TRUE(finite(ba));
        // Two polygon-like shapes whose face separations differ by less than
        // the reference tolerance (0.1 slop) keep A's face as the reference
        // in both orders, so they may legitimately differ; when both orders
        // chose the same face (opposite normals), they must agree.
        bool mayDiffer = ka != Kind::Circle && kb != Kind::Circle;
        if (!mayDiffer ||
            (ab.pointCount > 0 && ba.pointCount > 0 && length(ab.normal + ba.normal) < 2e-6f)) {
            ASSERT_EQ(ab.pointCount, ba.pointCount) << i;
            if (ab.pointCount == 0) continue;
            ++compared;
            EXPECT_NEAR(ab.normal.x, -ba.normal.x, 1e-5f);
            EXPECT_NEAR(ab.normal.y, -ba.normal.y, 1e-5f);
            EXPECT_NEAR(minSeparation(ab), minSeparation(ba), 1e-4f);
            for (int k = 0; k < ab.pointCount; ++k) {
                float best = 1e30f;
                for (int j = 0; j < ba.pointCount; ++j)
                    best = std::min(best, distance(ab.points[k].point, ba.points[j].point));
                EXPECT_LT(best, 1e-4f) << i;
                const ManifoldPoint& p = ab.points[k];
                EXPECT_NEAR(p.anchorB.x, p.point.x - xfB.p.x, 1e-5f);
            }
        }
    }
    EXPECT_GT(compared, 300 * kScale);
}

TEST(Manifold, BoxRestingOnBoxHasTwoPoints) {
    Polygon ground = makeBox(5.0f, 0.5f);
    Polygon box = makeBox(0.5f, 0.5f);
    Transform xfB = makeTransform({0.3f, 1.0f - 0.01f}, 0.0f);
    Manifold m = collide(ground, Transform{}, box, xfB);
    ASSERT_EQ(m.pointCount, 2);
    EXPECT_NEAR(m.normal.x, 0.0f, 1e-6f);
    EXPECT_NEAR(m.normal.y, 1.0f, 1e-6f);
    std::vector<float> xs;
    for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(m.points[i].separation, -0.01f, 1e-5f);
        EXPECT_NEAR(m.points[i].point.y, 0.5f - 0.005f, 1e-5f);
        xs.push_back(m.points[i].point.x);
    }
    std::sort(xs.begin(), xs.end());
    EXPECT_NEAR(xs[0], -0.2f, 1e-5f);
    EXPECT_NEAR(xs[1], 0.8f, 1e-5f);

    // Speculative: 1 cm above gives two points at +1 cm; 3 cm above none.
    m = collide(ground, Transform{}, box, makeTransform({0.3f, 1.01f}, 0.0f));
    ASSERT_EQ(m.pointCount, 2);
    EXPECT_NEAR(m.points[0].separation, 0.01f, 1e-5f);
    m = collide(ground, Transform{}, box, makeTransform({0.3f, 1.03f}, 0.0f));
    EXPECT_EQ(m.pointCount, 0);

    // A capsule lying on the ground: two points; a circle: one.
    Capsule cap{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f};
    m = collide(ground, Transform{}, cap, makeTransform({1.0f, 0.74f}, 0.0f));
    ASSERT_EQ(m.pointCount, 2);
    EXPECT_NEAR(m.points[0].separation, -0.01f, 1e-5f);
    EXPECT_NEAR(m.points[1].separation, -0.01f, 1e-5f);
    m = collide(ground, Transform{}, Circle{{0, 0}, 0.25f}, makeTransform({1.0f, 0.74f}, 0.0f));
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_NEAR(m.points[0].separation, -0.01f, 1e-6f);
}

// Two-vertex cores have no area: capsules end to end on one axis are
// separated along that axis, which is no edge normal.
TEST(Manifold, CollinearCapsulesAndCirclesOnTheAxis) {
    Capsule a{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.5f};
    for (float tilt : {0.0f, 1.0e-4f, -3.0e-3f}) {
        Capsule b{{0.0f, 0.0f}, {2.0f, 0.0f}, 0.5f};
        Manifold m = collide(a, Transform{}, b, makeTransform({1.8f, 0.0f}, tilt));
        ASSERT_EQ(m.pointCount, 1) << tilt;
        EXPECT_NEAR(m.normal.x, 1.0f, 1e-4f);
        EXPECT_NEAR(m.points[0].separation, -0.2f, 1e-4f);
        EXPECT_NEAR(m.points[0].point.x, 1.4f, 1e-4f);
        // Apart by more than the speculative distance: nothing.
        EXPECT_EQ(collide(a, Transform{}, b, makeTransform({2.05f, 0.0f}, tilt)).pointCount, 0);
        // Segments end to end, 1 cm apart: one speculative point.
        Segment s1{{-1.0f, 0.0f}, {1.0f, 0.0f}}, s2{{0.0f, 0.0f}, {1.0f, 0.0f}};
        m = collide(s1, Transform{}, s2, makeTransform({1.01f, 0.0f}, tilt));
        ASSERT_EQ(m.pointCount, 1);
        EXPECT_NEAR(m.points[0].separation, 0.01f, 1e-4f);
    }
    // Parallel capsules resting on each other: two points.
    Capsule top{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f};
    Capsule bottom{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.25f};
    Manifold rest = collide(bottom, Transform{}, top, makeTransform({0.3f, 0.49f}, 0.0f));
    ASSERT_EQ(rest.pointCount, 2);
    EXPECT_NEAR(rest.normal.y, 1.0f, 1e-6f);
    EXPECT_NEAR(rest.points[0].separation, -0.01f, 1e-5f);
    EXPECT_NEAR(rest.points[1].separation, -0.01f, 1e-5f);
    // A circle on the capsule's axis beyond its end.
    Manifold m = collide(a, Transform{}, Circle{{0, 0}, 0.5f}, makeTransform({1.9f, 0.0f}, 0.0f));
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_NEAR(m.normal.x, 1.0f, 1e-6f);
    EXPECT_NEAR(m.points[0].separation, -0.1f, 1e-6f);
    m = collide(Circle{{0, 0}, 0.5f}, makeTransform({-1.9f, 0.0f}, 0.0f), a, Transform{});
    ASSERT_EQ(m.pointCount, 1);
    EXPECT_NEAR(m.normal.x, 1.0f, 1e-6f);
    EXPECT_NEAR(m.points[0].separation, -0.1f, 1e-6f);
}

// Small motions keep the same features touching, so the ids stay.
TEST(Manifold, FeatureIdsStableUnderSmallMotion) {
    Rng rng(8);
    Polygon ground = makeBox(5.0f, 0.5f);
    std::vector<Vec2> hexPts;
    for (int i = 0; i < 6; ++i)
        hexPts.push_back({0.5f * std::cos(kPi * i / 3), 0.5f * std::sin(kPi * i / 3)});
    Polygon hexagon = makePolygon(hexPts);
    Polygon box = makeBox(0.5f, 0.3f);
    for (const Polygon* shape : {&box, &hexagon}) {
        float h = shape == &box ? 0.3f : 0.5f * std::sin(kPi / 3);
        Transform base = makeTransform({0.0f, 0.5f + h - 0.01f}, 0.0f);
        Manifold ref = collide(ground, Transform{}, *shape, base);
        ASSERT_EQ(ref.pointCount, 2);
        for (int i = 0; i < 200; ++i) {
            Transform xf =
                makeTransform(base.p + Vec2{rng.uniform(-0.2f, 0.2f), rng.uniform(-0.004f, 0.004f)},
                              rng.uniform(-0.01f, 0.01f));
            Manifold m = collide(ground, Transform{}, *shape, xf);
            ASSERT_EQ(m.pointCount, 2);
            std::vector<uint16_t> a{ref.points[0].id, ref.points[1].id},
                b{m.points[0].id, m.points[1].id};
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            EXPECT_EQ(a, b) << i;
        }
    }
}

// A chain along y = 0, solid side up (points run right to left so that the
// right-hand normal points up).
std::vector<ChainSegment> flatChain(int n, float step) {
    std::vector<Vec2> pts;
    for (int i = 0; i <= n; ++i) pts.push_back({0.5f * n * step - i * step, 0.0f});
    std::vector<ChainSegment> segs;
    for (int i = 0; i < n; ++i) {
        ChainSegment s;
        s.segment = {pts[i], pts[i + 1]};
        s.ghost1 = i > 0 ? pts[i - 1] : pts[i] + (pts[i] - pts[i + 1]);
        s.ghost2 = i + 2 <= n ? pts[i + 2] : pts[i + 1] + (pts[i + 1] - pts[i]);
        segs.push_back(s);
    }
    return segs;
}

TEST(Manifold, BoxSlidingOverFlatChainNeverSnags) {
    std::vector<ChainSegment> chain = flatChain(20, 0.5f);
    Polygon box = makeBox(0.4f, 0.4f);
    Polygon rounded = makeRoundedBox(0.35f, 0.35f, 0.05f);
    Capsule capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.1f};
    for (float depth : {0.0f, 0.005f, 0.02f, 0.06f}) {
        for (int shapeIndex = 0; shapeIndex < 3; ++shapeIndex) {
            ShapeGeometry g = shapeIndex == 0   ? ShapeGeometry{box}
                              : shapeIndex == 1 ? ShapeGeometry{rounded}
                                                : ShapeGeometry{capsule};
            float h = shapeIndex == 2 ? 0.1f : 0.4f;
            for (float x = -3.0f; x <= 3.0f; x += 0.0137f) {
                Transform xf = makeTransform({x, h - depth}, 0.0f);
                int contacts = 0;
                float deepest = 1e30f;
                for (const ChainSegment& s : chain) {
                    Manifold m = collide(s, Transform{}, g, xf);
                    if (m.pointCount == 0) continue;
                    ++contacts;
                    // Never a sideways normal at an inner vertex.
                    EXPECT_NEAR(m.normal.x, 0.0f, 1e-4f) << "x " << x << " depth " << depth;
                    EXPECT_NEAR(m.normal.y, 1.0f, 1e-4f);
                    deepest = std::min(deepest, minSeparation(m));
                }
                ASSERT_GT(contacts, 0) << x;
                EXPECT_NEAR(deepest, -depth, 1e-4f) << x;
            }
        }
    }
}

TEST(Manifold, ChainSegmentIsOneSided) {
    std::vector<ChainSegment> chain = flatChain(4, 1.0f);
    Polygon box = makeBox(0.4f, 0.4f);
    for (const ChainSegment& s : chain) {
        // Below the chain (behind it) and slightly overlapping: no contact.
        EXPECT_EQ(collide(s, Transform{}, box, makeTransform({0.2f, -0.39f}, 0.0f)).pointCount, 0);
        EXPECT_EQ(collide(s, Transform{}, Circle{{0, 0}, 0.3f}, makeTransform({0.2f, -0.29f}, 0.0f))
                      .pointCount,
                  0);
        // Two chain segments never collide.
        EXPECT_EQ(collide(s, Transform{}, chain[0], makeTransform({0.0f, 0.0f}, 0.5f)).pointCount,
                  0);
    }
    // A circle exactly over an inner vertex touches with normal +y only.
    for (const ChainSegment& s : chain) {
        Manifold m =
            collide(s, Transform{}, Circle{{0, 0}, 0.3f}, makeTransform({0.0f, 0.29f}, 0.0f));
        if (m.pointCount > 0) {
            EXPECT_NEAR(m.normal.y, 1.0f, 1e-5f);
            EXPECT_NEAR(m.points[0].separation, -0.01f, 1e-5f);
        }
    }
}

// A convex corner of a chain (a step down) gives vertex normals, owned by
// exactly one of the two segments.
TEST(Manifold, ConvexChainCornerOwnedOnce) {
    // Points right to left: a ledge at y = 0 for x in [0, 2], then a wall down.
    std::vector<Vec2> pts{{2.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, -2.0f}};
    ChainSegment top{{4.0f, 0.0f}, {pts[0], pts[1]}, pts[2], 0};
    ChainSegment wall{pts[0], {pts[1], pts[2]}, {0.0f, -4.0f}, 0};
    for (float angle = 0.05f; angle < kPi / 2; angle += 0.1f) {
        Vec2 dir{-std::sin(angle), std::cos(angle)};
        Transform xf = makeTransform(0.29f * dir, 0.0f);
        Manifold m1 = collide(top, Transform{}, Circle{{0, 0}, 0.3f}, xf);
        Manifold m2 = collide(wall, Transform{}, Circle{{0, 0}, 0.3f}, xf);
        EXPECT_EQ(m1.pointCount + m2.pointCount, 1) << angle;
        const Manifold& m = m1.pointCount ? m1 : m2;
        EXPECT_NEAR(dot(m.normal, dir), 1.0f, 1e-4f);
    }
}

}  // namespace
}  // namespace carom::test
