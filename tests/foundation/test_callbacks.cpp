// explode() keeps to the impulse and speed bounds as applyLinearImpulse
// does (one rule).
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

namespace carom::test {
namespace {

// ---- explode: the impulse and speed bounds of applyLinearImpulse --------------

TEST(Explode, KeepsToTheImpulseAndSpeedBounds) {
    for (const int shapes : {1, 3}) {
        SCOPED_TRACE(std::to_string(shapes) + " shapes");
        World w;
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        const BodyId box = w.createBody(bd);
        for (int k = 0; k < shapes; ++k)
            w.createShape(box, ShapeDef{}, makeOffsetBox(0.5f, 0.5f, {0.3f * float(k), 0.0f}, 0.0f));
        w.explode(ExplosionDef{{0.0f, 1.5f}, 1.0f, 0.0f, 1e25f, ~0ull});
        const Vec2 v = w.linearVelocity(box);
        ASSERT_TRUE(isFinite(v)) << v.x << ", " << v.y;
        EXPECT_LE(length(v), kMaxLinearSpeed * (1.0f + 1e-6f)) << v.x << ", " << v.y;
        EXPECT_LT(v.y, -0.99f * kMaxLinearSpeed) << "pushed away from the blast, at the speed bound";
        const float spin = w.angularVelocity(box);
        EXPECT_TRUE(std::isfinite(spin));
        EXPECT_LE(std::fabs(spin), kMaxAngularSpeed);
        // One rule: the same as the largest impulse applyLinearImpulse takes.
        World same;
        const BodyId twin = same.createBody(bd);
        for (int k = 0; k < shapes; ++k)
            same.createShape(twin, ShapeDef{}, makeOffsetBox(0.5f, 0.5f, {0.3f * float(k), 0.0f}, 0.0f));
        if (shapes == 1) {
            same.applyLinearImpulse(twin, {0.0f, -kMaxForce}, {0.0f, 0.5f});
            EXPECT_EQ(v.x, same.linearVelocity(twin).x);
            EXPECT_EQ(v.y, same.linearVelocity(twin).y);
            EXPECT_EQ(spin, same.angularVelocity(twin));
        }
    }
}

}  // namespace
}  // namespace carom::test
