// Issue 11: speed clamps that cannot overflow, and steps far longer than a
// frame (a game that hitches and calls step(0.5) or step(1.0)).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "solver/world_solver.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::kDt;

// ---- the linear clamp --------------------------------------------------------

TEST(SpeedClamp, LinearClampKeepsDirectionForAnyFiniteOrInfiniteSpeed) {
    const float maxSpeed = 400.0f;
    const float inf = std::numeric_limits<float>::infinity();
    const Vec2 cases[] = {{1.8e19f, 0.0f}, {2.0e19f, 0.0f},  {0.0f, -1.0e30f}, {3.0e38f, 3.0e38f},
                          {-2.0e30f, 1.0e30f}, {3.0e38f, -2.0e38f}, {inf, 5.0f}, {-inf, inf}};
    for (Vec2 v : cases) {
        const Vec2 c = detail::clampLinearSpeed(v, maxSpeed);
        ASSERT_TRUE(isFinite(c)) << v.x << " " << v.y;
        EXPECT_NEAR(length(c), maxSpeed, 1e-3f) << v.x << " " << v.y;
        // Same direction as v (for an infinite component: that axis's sign).
        const double vx = std::isinf(v.x) ? std::copysign(1.0, double(v.x)) : double(v.x);
        const double vy = std::isinf(v.y) ? std::copysign(1.0, double(v.y)) : double(v.y);
        const double norm = (std::isinf(v.x) || std::isinf(v.y)) ? std::hypot(std::isinf(v.x) ? vx : 0.0,
                                                                              std::isinf(v.y) ? vy : 0.0)
                                                                 : std::hypot(vx, vy);
        const double ex = (std::isinf(v.y) && !std::isinf(v.x)) ? 0.0 : vx / norm;
        const double ey = (std::isinf(v.x) && !std::isinf(v.y)) ? 0.0 : vy / norm;
        EXPECT_NEAR(c.x / maxSpeed, ex, 1e-5) << v.x << " " << v.y;
        EXPECT_NEAR(c.y / maxSpeed, ey, 1e-5) << v.x << " " << v.y;
    }
    // Below the clamp and below the overflow: untouched, and the old
    // arithmetic (bit for bit) above the clamp.
    EXPECT_EQ(detail::clampLinearSpeed({3.0f, -4.0f}, maxSpeed).x, 3.0f);
    const Vec2 v{1.0e6f, 2.0e6f};
    const Vec2 old = (maxSpeed / std::sqrt(lengthSquared(v))) * v;
    const Vec2 now = detail::clampLinearSpeed(v, maxSpeed);
    EXPECT_EQ(now.x, old.x);
    EXPECT_EQ(now.y, old.y);
}

// The lightest body the API takes pushed by the largest force it takes: the
// velocity after one substep is ~1e35 m/s, whose square overflowed, and the
// body used to stop dead (speed 0). It now leaves at maxLinearSpeed in the
// force's direction.
TEST(SpeedClamp, HugeForceOnLightestBodyEndsAtMaxSpeedInItsDirection) {
    for (float sign : {1.0f, -1.0f}) {
        WorldDef def;
        def.gravity = {0.0f, 0.0f};
        World w(def);
        BodyId b = test::addBall(w, {0.0f, 0.0f}, 0.5f);
        w.setMassData(b, MassData{kMinMass, {0.0f, 0.0f}, kMinRotationalInertia});
        const Vec2 f{sign * 0.6f * kMaxForce, 0.8f * kMaxForce};
        w.applyForceToCenter(b, f);
        w.applyTorque(b, sign * kMaxForce);
        w.step(kDt);
        const Vec2 v = w.linearVelocity(b);
        ASSERT_TRUE(isFinite(v));
        EXPECT_NEAR(length(v), def.maxLinearSpeed, 1e-2f);
        EXPECT_NEAR(v.x / length(v), sign * 0.6f, 1e-5f);
        EXPECT_NEAR(v.y / length(v), 0.8f, 1e-5f);
        // Angular: torque/I = 1e49 is inf in float; the rate ends at the
        // rotation clamp, an eighth of a turn (π/4) per substep, with the
        // torque's sign.
        const float wz = w.angularVelocity(b);
        ASSERT_TRUE(std::isfinite(wz));
        const float maxW = 0.25f * kPi * float(def.substeps) / kDt;
        EXPECT_NEAR(wz, sign * maxW, 1e-3f * maxW);
        // And it keeps moving at that speed: the next steps are ordinary.
        const Vec2 p0 = w.position(b);
        w.step(kDt);
        EXPECT_NEAR(length(w.position(b) - p0), def.maxLinearSpeed * kDt, 1e-2f);
    }
}

}  // namespace
}  // namespace carom
