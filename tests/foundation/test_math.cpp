// Carom's own cosine, sine and arctangent (math.hpp) against the truth in
// long double, their special values, and the same bits on every platform.
#include <gtest/gtest.h>

#include <carom/math.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

namespace carom {
namespace {

constexpr long double kPiL = 3.141592653589793238462643383279502884L;

uint32_t bitsOf(float x) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

TEST(DeterministicMath, CosSinAreWithinAFloatRoundingOfTheTrueValues) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> small(-4.0f * float(kPiL), 4.0f * float(kPiL));
    std::uniform_real_distribution<float> large(-1.0e5f, 1.0e5f);
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
        const float a = i % 2 == 0 ? small(rng) : large(rng);
        const Rot q = computeCosSin(a);
        const long double c = std::cos((long double)a), s = std::sin((long double)a);
        worst = std::max({worst, double(std::fabs(q.c - c)), double(std::fabs(q.s - s))});
    }
    EXPECT_LE(worst, 1.0e-7);
}

TEST(DeterministicMath, CosSinAtTheQuadrantsAndSpecialValues) {
    EXPECT_EQ(bitsOf(computeCosSin(0.0f).c), bitsOf(1.0f));
    EXPECT_EQ(bitsOf(computeCosSin(0.0f).s), bitsOf(0.0f));
    EXPECT_EQ(bitsOf(computeCosSin(-0.0f).s), bitsOf(-0.0f));
    for (int k = -8; k <= 8; ++k) {
        const float a = float(k) * 0.5f * float(kPiL);
        const Rot q = computeCosSin(a);
        EXPECT_NEAR(q.c, std::cos((long double)a), 1e-7) << k;
        EXPECT_NEAR(q.s, std::sin((long double)a), 1e-7) << k;
    }
    for (float bad :
         {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
          std::numeric_limits<float>::quiet_NaN()}) {
        EXPECT_TRUE(std::isnan(computeCosSin(bad).c));
        EXPECT_TRUE(std::isnan(computeCosSin(bad).s));
    }
}

TEST(DeterministicMath, Atan2IsWithinAFloatRoundingOfTheTrueValue) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_int_distribution<int> e(-30, 30);
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
        const float y = std::ldexp(u(rng), e(rng)), x = std::ldexp(u(rng), e(rng));
        const long double truth = std::atan2((long double)y, (long double)x);
        worst = std::max(worst, double(std::fabs(computeAtan2(y, x) - truth)));
    }
    EXPECT_LE(worst, 2.5e-7);  // half a float ulp of π, where the result is largest
}

TEST(DeterministicMath, Atan2FollowsStdAtan2AtSignedZerosInfinitiesAndNaN) {
    const float inf = std::numeric_limits<float>::infinity(),
                nan = std::numeric_limits<float>::quiet_NaN();
    const float cases[][2] = {{0.0f, 0.0f},   {-0.0f, 0.0f}, {0.0f, -0.0f}, {-0.0f, -0.0f},
                              {1.0f, 0.0f},   {-1.0f, 0.0f}, {0.0f, 1.0f},  {0.0f, -1.0f},
                              {-0.0f, -1.0f}, {inf, 1.0f},   {-inf, 1.0f},  {1.0f, inf},
                              {1.0f, -inf},   {-1.0f, -inf}, {inf, inf},    {inf, -inf},
                              {-inf, inf},    {-inf, -inf},  {1.0f, 1.0f},  {-1.0f, -1.0f}};
    for (const auto& c : cases) {
        const float got = computeAtan2(c[0], c[1]);
        const float want = std::atan2(c[0], c[1]);
        EXPECT_NEAR(got, want, 2.5e-7) << c[0] << ", " << c[1];
        EXPECT_EQ(std::signbit(got), std::signbit(want)) << c[0] << ", " << c[1];
    }
    EXPECT_TRUE(std::isnan(computeAtan2(nan, 1.0f)));
    EXPECT_TRUE(std::isnan(computeAtan2(1.0f, nan)));
}

TEST(DeterministicMath, AngleOfMakeRotGivesTheAngleBack) {
    for (int i = -3141; i <= 3141; i += 7) {
        const float a = float(i) * 1.0e-3f;
        EXPECT_NEAR(angleOf(makeRot(a)), a, 3.0e-7f) << a;
    }
}

// The same inputs give the same bits on every compiler, CPU and C library:
// this digest of 100 000 results is the one every platform's build must
// print (the cross builds run this test under their emulators).
TEST(DeterministicMath, TheSameBitsOnEveryPlatform) {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](float x) {
        h ^= bitsOf(x);
        h *= 1099511628211ull;
    };
    std::mt19937 rng(3);  // mt19937's sequence is fixed by the standard
    for (int i = 0; i < 50000; ++i) {
        const uint32_t r = rng();
        float a;
        std::memcpy(&a, &r, sizeof a);
        if (!std::isfinite(a)) a = float(r % 100000u) * 1.0e-3f;
        const Rot q = computeCosSin(float(std::fmod(double(a), 1.0e5)));
        mix(q.c);
        mix(q.s);
        mix(computeAtan2(q.s, q.c));
        // Two draws in a fixed order: the order in which a call's arguments
        // are evaluated is unspecified (GCC takes the last first, Clang the
        // first), so rng() inside both arguments gave each compiler other pairs.
        const float x = float(int32_t(rng())) * 1e-9f;
        const float y = float(int32_t(rng())) * 1e-9f;
        mix(computeAtan2(y, x));
    }
    EXPECT_EQ(h, 4780058935301305362ull);
}

}  // namespace
}  // namespace carom
