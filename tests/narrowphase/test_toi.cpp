// Time of impact and shape casts against fine sub-stepping of the motion, and
// hand-checked casts.
#include <gtest/gtest.h>

#include <cmath>

#include "narrowphase/narrowphase.hpp"
#include "np_test_util.hpp"

namespace carom::test {
namespace {

constexpr int kKindCount = static_cast<int>(Kind::Count);

double signedOf(const DistanceResult& r) { return r.overlap ? -static_cast<double>(r.depth) : r.distance; }

double separationAt(const ShapeGeometry& a, const Sweep& sa, const ShapeGeometry& b, const Sweep& sb, float t) {
    return signedOf(shapeDistance(a, sweepTransform(sa, t), b, sweepTransform(sb, t)));
}

Sweep randomSweep(Rng& rng, float spread, float travel, float turn) {
    Sweep s;
    s.localCenter = {rng.uniform(-0.3f, 0.3f), rng.uniform(-0.3f, 0.3f)};
    s.c1 = {rng.uniform(-spread, spread), rng.uniform(-spread, spread)};
    s.c2 = s.c1 + Vec2{rng.uniform(-travel, travel), rng.uniform(-travel, travel)};
    float angle = rng.uniform(-kPi, kPi);
    s.q1 = makeRot(angle);
    s.q2 = makeRot(angle + rng.uniform(-turn, turn));
    return s;
}

TEST(TimeOfImpact, SweepTransformInterpolatesCentreAndAngle) {
    Sweep s;
    s.localCenter = {0.5f, 0.0f};
    s.c1 = {0.0f, 0.0f};
    s.c2 = {2.0f, 0.0f};
    s.q1 = makeRot(0.0f);
    s.q2 = makeRot(1.0f);
    Transform xf = sweepTransform(s, 0.5f);
    EXPECT_NEAR(angleOf(xf.q), 0.5f, 1e-6f);
    // The centre of mass (local (0.5, 0)) sits at lerp(c1, c2, 0.5).
    Vec2 c = transformPoint(xf, s.localCenter);
    EXPECT_NEAR(c.x, 1.0f, 1e-6f);
    EXPECT_NEAR(c.y, 0.0f, 1e-6f);
}

// Random shapes on random sweeps (translation and rotation of both bodies):
// the reported time is never later than the first contact found by 1000
// sub-steps, the shapes are then apart by at most target + tolerance, and
// a "separated" pair never touches.
TEST(TimeOfImpact, AgreesWithSubstepping) {
    Rng rng(2024);
    const int cases = 1500 * kScale;
    const int substeps = 1000;
    const float target = kLinearSlop;
    int hits = 0, separated = 0, failed = 0;
    for (int i = 0; i < cases; ++i) {
        Kind ka = static_cast<Kind>(rng.integer(0, kKindCount - 1));
        Kind kb = static_cast<Kind>(rng.integer(0, kKindCount - 1));
        ShapeGeometry a = randomShape(rng, ka), b = randomShape(rng, kb);
        Sweep sa = randomSweep(rng, 2.0f, 2.0f, 2.0f);
        Sweep sb = randomSweep(rng, 2.0f, 3.0f, 2.0f);
        double s0 = separationAt(a, sa, b, sb, 0.0f);
        if (std::fabs(s0) < 1e-3) continue;
        ToiResult r = timeOfImpact(a, sa, b, sb, 1.0f, target);
        SCOPED_TRACE(::testing::Message() << kindName(ka) << " vs " << kindName(kb) << " #" << i);
        ASSERT_TRUE(std::isfinite(r.t));
        ASSERT_GE(r.t, 0.0f);
        ASSERT_LE(r.t, 1.0f);
        if (s0 < 0.0) {
            EXPECT_EQ(r.state, ToiState::Overlapped);
            continue;
        }
        float firstContact = 2.0f;
        double minSeparation = 1e30;
        for (int k = 0; k <= substeps; ++k) {
            float t = static_cast<float>(k) / substeps;
            double s = separationAt(a, sa, b, sb, t);
            minSeparation = std::min(minSeparation, s);
            if (s <= 0.0) {
                firstContact = t;
                break;
            }
        }
        switch (r.state) {
            case ToiState::Hit: {
                ++hits;
                EXPECT_LE(r.t, firstContact);
                double s = separationAt(a, sa, b, sb, r.t);
                EXPECT_GT(s, 0.0);
                EXPECT_LE(s, target + 0.25f * kLinearSlop + 1e-4);
                break;
            }
            case ToiState::Separated:
                ++separated;
                EXPECT_EQ(firstContact, 2.0f) << "missed a contact";
                EXPECT_GT(minSeparation, 0.5 * target);
                break;
            case ToiState::Failed:
                ++failed;
                EXPECT_LE(r.t, firstContact);
                EXPECT_GT(separationAt(a, sa, b, sb, r.t), 0.0);
                break;
            default:
                ADD_FAILURE() << "unexpected state " << static_cast<int>(r.state);
        }
    }
    EXPECT_GT(hits, cases / 10);
    EXPECT_GT(separated, cases / 10);
    EXPECT_LE(failed, cases / 100);
}

// A thin bar spinning at 60 rad/s over a 1/60 s step (1 rad) sweeps its tip
// through a small block that neither the start nor the end pose touches.
TEST(TimeOfImpact, CatchesThinBarSpinningFast) {
    Polygon bar = makeBox(1.0f, 0.01f);
    Polygon block = makeOffsetBox(0.05f, 0.05f, {0.0f, 0.0f}, 0.0f);
    Sweep sa;  // the bar, pivoting about its centre at the origin
    sa.c1 = sa.c2 = {0.0f, 0.0f};
    sa.q1 = makeRot(0.5f * kPi);
    sa.q2 = makeRot(0.5f * kPi - 60.0f / 60.0f);
    Sweep sb;  // the block, static, on the tip's path at angle 1.0 rad
    sb.c1 = sb.c2 = {0.9f * std::cos(1.0f), 0.9f * std::sin(1.0f)};
    ASSERT_GT(separationAt(bar, sa, block, sb, 0.0f), 0.0);
    ASSERT_GT(separationAt(bar, sa, block, sb, 1.0f), 0.0);
    ToiResult r = timeOfImpact(bar, sa, block, sb);
    ASSERT_EQ(r.state, ToiState::Hit);
    double s = separationAt(bar, sa, block, sb, r.t);
    EXPECT_GT(s, 0.0);
    EXPECT_LE(s, 1.25 * kLinearSlop + 1e-5);
    // The bar's side face meets the block corner near angle 1.0 + a bit.
    for (int k = 0; k < 1000; ++k) {
        float t = r.t * k / 1000.0f;
        ASSERT_GT(separationAt(bar, sa, block, sb, t), 0.0) << t;
    }
    EXPECT_GT(r.t, 0.4f);
    EXPECT_LT(r.t, 0.6f);
}

// Both bodies moving (and turning) towards each other.
TEST(TimeOfImpact, BothBodiesMoving) {
    Polygon box = makeBox(0.25f, 0.25f);
    Sweep sa, sb;
    sa.c1 = {-2.0f, 0.0f};
    sa.c2 = {1.0f, 0.1f};
    sa.q1 = makeRot(0.0f);
    sa.q2 = makeRot(0.7f);
    sb.c1 = {2.0f, 0.0f};
    sb.c2 = {-1.0f, -0.1f};
    sb.q1 = makeRot(0.3f);
    sb.q2 = makeRot(-0.4f);
    ToiResult r = timeOfImpact(box, sa, box, sb);
    ASSERT_EQ(r.state, ToiState::Hit);
    double s = separationAt(box, sa, box, sb, r.t);
    EXPECT_GT(s, 0.0);
    EXPECT_LE(s, 1.25 * kLinearSlop + 1e-5);
    // First contact by bisection on sub-steps: no earlier than r.t.
    float tc = 0.0f;
    for (int k = 0; k <= 10000; ++k) {
        tc = k / 10000.0f;
        if (separationAt(box, sa, box, sb, tc) <= 0.0) break;
    }
    EXPECT_LE(r.t, tc);
    EXPECT_GT(r.t, tc - 0.01f);
}

TEST(TimeOfImpact, OverlappedAndSeparated) {
    Polygon box = makeBox(0.5f, 0.5f);
    Sweep still;
    Sweep overlapping;
    overlapping.c1 = overlapping.c2 = {0.5f, 0.0f};
    EXPECT_EQ(timeOfImpact(box, still, box, overlapping).state, ToiState::Overlapped);
    Sweep away;
    away.c1 = {2.0f, 0.0f};
    away.c2 = {5.0f, 0.0f};
    ToiResult r = timeOfImpact(box, still, box, away);
    EXPECT_EQ(r.state, ToiState::Separated);
    EXPECT_EQ(r.t, 1.0f);
    EXPECT_THROW(timeOfImpact(box, still, box, away, 2.0f), Error);
    EXPECT_THROW(timeOfImpact(box, still, box, away, 1.0f, -1.0f), Error);
}

// A unit square sweeping along (-2, 0) towards a segment at x = 2 touches it
// halfway.
TEST(ShapeCast, SquareHitsSegmentHalfway) {
    Segment wall{{2.0f, -3.0f}, {2.0f, 3.0f}};
    Polygon square = makeSquare(0.5f);
    Transform start = makeTransform({3.5f, 0.4f}, 0.0f);
    CastOutput out = shapeCast(wall, Transform{}, square, start, {-2.0f, 0.0f});
    ASSERT_TRUE(out.hit);
    EXPECT_LE(out.fraction, 0.5f);
    EXPECT_NEAR(out.fraction, 0.5f, 3e-4f);
    EXPECT_NEAR(out.normal.x, 1.0f, 1e-5f);
    EXPECT_NEAR(out.point.x, 2.0f, 1e-5f);
    // The same with time of impact on sweeps.
    Sweep sa;
    sa.c1 = sa.c2 = {0.0f, 0.0f};
    Sweep sb;
    sb.c1 = {3.5f, 0.4f};
    sb.c2 = {1.5f, 0.4f};
    ToiResult r = timeOfImpact(wall, sa, square, sb);
    ASSERT_EQ(r.state, ToiState::Hit);
    EXPECT_LE(r.t, 0.5f);
    EXPECT_GT(r.t, 0.5f - 1.25f * kLinearSlop / 2.0f - 1e-5f);
    // Too short a cast misses.
    EXPECT_FALSE(shapeCast(wall, Transform{}, square, start, {-2.0f, 0.0f}, 0.4f).hit);
}

TEST(RayCast, RayHitsBoxAtThreeEighths) {
    Polygon box = makeBox(1.0f, 1.0f);
    RayCastInput ray{{-4.0f, 0.0f}, {8.0f, 0.0f}, 1.0f};
    CastOutput out = rayCast(ray, ShapeGeometry{box}, Transform{});
    ASSERT_TRUE(out.hit);
    EXPECT_NEAR(out.fraction, 3.0f / 8.0f, 1e-6f);
    EXPECT_NEAR(out.normal.x, -1.0f, 1e-6f);
}

// Random casts against sub-stepping of the translation.
TEST(ShapeCast, AgreesWithSubstepping) {
    Rng rng(555);
    int hits = 0;
    for (int i = 0; i < 1500 * kScale; ++i) {
        Kind ka = static_cast<Kind>(rng.integer(0, kKindCount - 1));
        Kind kb = static_cast<Kind>(rng.integer(0, kKindCount - 1));
        ShapeGeometry a = randomShape(rng, ka), b = randomShape(rng, kb);
        Transform xfA = randomTransform(rng, 1.0f), xfB = randomTransform(rng, 3.0f);
        Vec2 translation{rng.uniform(-6.0f, 6.0f), rng.uniform(-6.0f, 6.0f)};
        double s0 = signedOf(shapeDistance(a, xfA, b, xfB));
        if (s0 <= 1e-3) continue;
        CastOutput out = shapeCast(a, xfA, b, xfB, translation);
        SCOPED_TRACE(::testing::Message() << kindName(ka) << " vs " << kindName(kb) << " #" << i);
        ASSERT_TRUE(std::isfinite(out.fraction));
        float first = 2.0f;
        for (int k = 0; k <= 1000; ++k) {
            float t = k / 1000.0f;
            Transform xf{xfB.p + t * translation, xfB.q};
            if (signedOf(shapeDistance(a, xfA, b, xf)) <= 0.0) {
                first = t;
                break;
            }
        }
        if (!out.hit) {
            EXPECT_EQ(first, 2.0f);
            continue;
        }
        ++hits;
        EXPECT_LE(out.fraction, first);
        Transform xf{xfB.p + out.fraction * translation, xfB.q};
        DistanceResult d = shapeDistance(a, xfA, b, xf);
        EXPECT_FALSE(d.overlap);
        EXPECT_LT(d.distance, 0.1f * kLinearSlop + 1e-5f);
        EXPECT_NEAR(length(out.normal), 1.0f, 1e-4f);
        EXPECT_LT(dot(out.normal, translation), 0.0f);
    }
    EXPECT_GT(hits, 150 * kScale);
}

}  // namespace
}  // namespace carom::test
