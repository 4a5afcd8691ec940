// Time of impact and shape casts against fine sub-stepping of the motion, and
// hand-checked casts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "narrowphase/narrowphase.hpp"
#include "np_test_util.hpp"

namespace carom::test {
namespace {

constexpr int kKindCount = static_cast<int>(Kind::Count);

double signedOf(const DistanceResult& r) {
    return r.overlap ? -static_cast<double>(r.depth) : r.distance;
}

double separationAt(const ShapeGeometry& a, const Sweep& sa, const ShapeGeometry& b,
                    const Sweep& sb, float t) {
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

// Long rods (2-200 m: boxes, capsules, segments, off-centre boxes) turning
// up to ±π about a centre of mass anywhere along them, against boxes,
// circles and other rods that also move and turn. A hit is a time at which
// the shapes are apart by more than 0 and at most target + tolerance, by an
// independent distance query; a failed answer is still a safe time.
TEST(TimeOfImpact, SpinningLongRodsHitWithinTolerance) {
    Rng rng(1717);
    const float target = kLinearSlop;
    int hits = 0, failed = 0, cases = 0;
    double worst = 0.0;
    for (int i = 0; i < 1500 * kScale; ++i) {
        float half = std::exp(rng.uniform(0.0f, std::log(100.0f)));
        float thick = rng.uniform(0.001f, 0.05f);
        ShapeGeometry rod;
        switch (i % 4) {
            case 0:
                rod = Capsule{{-half, 0.0f}, {half, 0.0f}, thick};
                break;
            case 1:
                rod = makeBox(half, thick);
                break;
            case 2:
                rod = Segment{{-half, 0.0f}, {half, 0.0f}};
                break;
            default:
                rod = makeOffsetBox(half, thick, {0.5f * half, 0.0f}, 0.0f);
                break;
        }
        ShapeGeometry other;
        switch ((i / 4) % 3) {
            case 0:
                other = makeBox(0.5f, 0.5f);
                break;
            case 1:
                other = Circle{{0.0f, 0.0f}, 0.2f};
                break;
            default:
                other = Capsule{{-0.3f * half, 0.0f}, {0.3f * half, 0.0f}, thick};
                break;
        }
        Sweep sa;
        sa.localCenter = {rng.uniform(-0.5f, 0.5f) * half, 0.0f};
        sa.c1 = {rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f)};
        sa.c2 = sa.c1 + Vec2{rng.uniform(-2.0f, 2.0f), rng.uniform(-2.0f, 2.0f)};
        float a0 = rng.uniform(-kPi, kPi);
        sa.q1 = makeRot(a0);
        sa.q2 = makeRot(a0 + rng.uniform(-3.1f, 3.1f));
        Sweep sb;
        sb.c1 = {rng.uniform(-half, half), rng.uniform(-half, half)};
        sb.c2 = sb.c1 + Vec2{rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f)};
        float b0 = rng.uniform(-kPi, kPi);
        sb.q1 = makeRot(b0);
        sb.q2 = makeRot(b0 + rng.uniform(-3.0f, 3.0f));
        if (separationAt(rod, sa, other, sb, 0.0f) < 0.01) continue;
        ++cases;
        ToiResult r = timeOfImpact(rod, sa, other, sb, 1.0f, target);
        SCOPED_TRACE(::testing::Message() << "#" << i << " half length " << half);
        ASSERT_TRUE(r.t >= 0.0f && r.t <= 1.0f);
        double s = separationAt(rod, sa, other, sb, r.t);
        if (r.state == ToiState::Hit) {
            ++hits;
            worst = std::max(worst, s);
            EXPECT_GT(s, 0.0);
            EXPECT_LE(s, target + 0.25f * kLinearSlop + 1e-4);
        } else if (r.state == ToiState::Failed) {
            ++failed;
            EXPECT_GT(s, 0.0);
        } else {
            EXPECT_EQ(r.state, ToiState::Separated);
        }
    }
    EXPECT_GT(hits, cases / 5);
    EXPECT_LE(failed, cases / 20);
    std::printf("spinning rods: %d cases, %d hits (widest %.5f m), %d failed\n", cases, hits, worst,
                failed);
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
    EXPECT_THROW((void)timeOfImpact(box, still, box, away, 2.0f), Error);
    EXPECT_THROW((void)timeOfImpact(box, still, box, away, 1.0f, -1.0f), Error);
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

// ---- rays from far away against a double-precision reference ---------------

// The first fraction in [0, 1] at which origin + t·translation is within the
// rounded shape, in double: the signed distance along a line is convex, so a
// golden-section search finds its minimum and a bisection the first root
// before it. Segments and chain segments (no interior) are solved exactly.
struct RefRay {
    bool hit = false;
    double fraction = 0.0;
    double minGap = 0.0;  // least signed distance along the ray (how close a miss is)
};

RefRay referenceRay(const ShapeGeometry& g, const WorldShape& s, const Transform& xf, Vec2 o,
                    Vec2 d) {
    RefRay r;
    const double ox = o.x, oy = o.y, dx = d.x, dy = d.y;
    if (s.x.size() == 2 && s.radius == 0.0) {
        // o + t d = p1 + u (p2 - p1)
        double ex = s.x[1] - s.x[0], ey = s.y[1] - s.y[0];
        double den = dx * ey - dy * ex;
        double wx = s.x[0] - ox, wy = s.y[0] - oy;
        // Signed side of the origin: > 0 on the right of p1 -> p2 (chain's solid side).
        double side = ex * (oy - s.y[0]) - ey * (ox - s.x[0]);
        if (den == 0.0) return r;
        double t = (wx * ey - wy * ex) / den;
        double u = (wx * dy - wy * dx) / den;
        double len = std::sqrt(ex * ex + ey * ey);
        // How far the line passes from the segment's nearer end (for grazes).
        r.minGap = std::max({-u * len, (u - 1.0) * len, 0.0});
        bool oneSided = std::holds_alternative<ChainSegment>(g);
        if (oneSided && side < 0.0) return r;
        if (t < 0.0 || t > 1.0 || u < 0.0 || u > 1.0) return r;
        r.hit = true;
        r.fraction = t;
        return r;
    }
    (void)xf;
    auto f = [&](double t) { return pointSignedDistance(s, ox + t * dx, oy + t * dy); };
    const double phi = 0.6180339887498949;
    double lo = 0.0, hi = 1.0;
    for (int it = 0; it < 400; ++it) {
        double m1 = hi - phi * (hi - lo), m2 = lo + phi * (hi - lo);
        if (f(m1) < f(m2))
            hi = m2;
        else
            lo = m1;
    }
    double tMin = 0.5 * (lo + hi);
    r.minGap = f(tMin);
    if (r.minGap > 0.0) return r;
    lo = 0.0;
    hi = tMin;
    for (int it = 0; it < 2000 && lo < hi; ++it) {
        double m = 0.5 * (lo + hi);
        if (m <= lo || m >= hi) break;  // adjacent doubles
        if (f(m) > 0.0)
            lo = m;
        else
            hi = m;
    }
    r.hit = true;
    r.fraction = hi;
    return r;
}

// Rays from 1 m to 1e6 m away (and with translations up to 1e15 times longer
// than needed) at every kind of shape: the hit point is on the surface to a
// few ulps of the shape's size, the normal is unit and supports the shape at
// that point, and the fraction equals the double-precision answer to within
// the rounding of the inputs themselves (float origin and direction, ~6e-8 of
// the distance, divided by the cosine of the incidence).
TEST(RayCast, FarRaysMatchDoubleReference) {
    Rng rng(4242);
    const double eps = 6.0e-8;
    int hits = 0, checked = 0;
    double worstPoint = 0.0, worstFraction = 0.0;
    for (int decade = 0; decade <= 6; ++decade) {
        const float dist = std::pow(10.0f, static_cast<float>(decade));
        for (int i = 0; i < 60 * kScale; ++i) {
            Kind kind = static_cast<Kind>(i % kKindCount);
            ShapeGeometry g = randomShape(rng, kind);
            Transform xf = randomTransform(rng, 1.0f);
            WorldShape s = toWorld(g, xf);
            AABB box = computeAABB(g, xf);
            Vec2 centre = 0.5f * (box.lower + box.upper);
            Vec2 half = 0.5f * (box.upper - box.lower);
            float a = rng.uniform(-kPi, kPi);
            Vec2 origin = centre + dist * Vec2{std::cos(a), std::sin(a)};
            // Aim at a point of the box grown by 20 % (some rays miss).
            Vec2 target =
                centre + Vec2{rng.uniform(-1.2f, 1.2f) * half.x, rng.uniform(-1.2f, 1.2f) * half.y};
            float stretch = rng.chance(0.2f) ? std::pow(10.0f, rng.uniform(0.0f, 15.0f))
                                             : rng.uniform(1.1f, 2.0f);
            Vec2 translation = stretch * (target - origin);
            if (pointSignedDistance(s, origin.x, origin.y) <= 1e-3) continue;
            CastOutput out = rayCast(RayCastInput{origin, translation, 1.0f}, g, xf);
            RefRay ref = referenceRay(g, s, xf, origin, translation);
            SCOPED_TRACE(::testing::Message() << kindName(kind) << " at " << dist << " m, #" << i);
            ASSERT_TRUE(std::isfinite(out.fraction) && isFinite(out.point) && isFinite(out.normal));
            const double len = std::hypot(double(translation.x), double(translation.y));
            const double scale =
                double(dist) + 2.0;  // distance from the origin to the shape, and its size
            const double lateral =
                16.0 * eps * scale;  // rounding of the ray's position at the shape
            if (out.hit != ref.hit) {
                // Only a graze within the inputs' rounding may go either way.
                EXPECT_LE(std::fabs(ref.minGap), lateral)
                    << "hit " << out.hit << " ref " << ref.hit;
                continue;
            }
            if (!out.hit) continue;
            ++hits;
            // The point is on the surface (a few ulps of the shape's size).
            double onSurface = std::fabs(pointSignedDistance(s, out.point.x, out.point.y));
            worstPoint = std::max(worstPoint, onSurface);
            EXPECT_LE(onSurface, 1e-5);
            // The normal is unit, faces the ray and supports the shape at the point.
            EXPECT_NEAR(length(out.normal), 1.0f, 1e-5f);
            double nx = out.normal.x, ny = out.normal.y;
            double cosIncidence = -(nx * translation.x + ny * translation.y) / len;
            EXPECT_GE(cosIncidence, -1e-6);
            double support = supportValue(s, nx, ny) - (nx * out.point.x + ny * out.point.y);
            EXPECT_LE(support, 1e-5);
            // The fraction, as a distance along the ray, within the inputs' rounding.
            if (cosIncidence < 0.05)
                continue;  // grazing: the position along the ray is ill-conditioned
            ++checked;
            double along = std::fabs(double(out.fraction) - ref.fraction) * len;
            double tol = lateral / cosIncidence + 4.0 * eps * ref.fraction * len;
            worstFraction = std::max(worstFraction, along / scale);
            EXPECT_LE(along, tol) << "fraction " << out.fraction << " ref " << ref.fraction;
        }
    }
    EXPECT_GT(hits, 150 * kScale);
    EXPECT_GT(checked, 100 * kScale);
    RecordProperty("worst_point_off_surface_m", std::to_string(worstPoint));
    RecordProperty("worst_distance_error_over_distance", std::to_string(worstFraction));
    std::printf(
        "far rays: %d hits, %d fractions checked, worst point off surface %.3g m, "
        "worst distance error / distance %.3g\n",
        hits, checked, worstPoint, worstFraction);
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
