// Speed clamps that cannot overflow, and steps far longer than a
// frame (a game that hitches and calls step(0.5) or step(1.0)).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "engine/world/world_solver.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::kDt;

// ---- the linear clamp --------------------------------------------------------

TEST(SpeedClamp, LinearClampKeepsDirectionForAnyFiniteOrInfiniteSpeed) {
    const float maxSpeed = 400.0f;
    const float inf = std::numeric_limits<float>::infinity();
    const Vec2 cases[] = {{1.8e19f, 0.0f},    {2.0e19f, 0.0f},     {0.0f, -1.0e30f},
                          {3.0e38f, 3.0e38f}, {-2.0e30f, 1.0e30f}, {3.0e38f, -2.0e38f},
                          {inf, 5.0f},        {-inf, inf}};
    for (Vec2 v : cases) {
        const Vec2 c = detail::clampLinearSpeed(v, maxSpeed);
        ASSERT_TRUE(isFinite(c)) << v.x << " " << v.y;
        EXPECT_NEAR(length(c), maxSpeed, 1e-3f) << v.x << " " << v.y;
        // Same direction as v (for an infinite component: that axis's sign).
        const double vx = std::isinf(v.x) ? std::copysign(1.0, double(v.x)) : double(v.x);
        const double vy = std::isinf(v.y) ? std::copysign(1.0, double(v.y)) : double(v.y);
        const double norm = (std::isinf(v.x) || std::isinf(v.y))
                                ? std::hypot(std::isinf(v.x) ? vx : 0.0, std::isinf(v.y) ? vy : 0.0)
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
// velocity after one substep is ~1e35 m/s, whose square overflows; the body
// must not stop dead (speed 0) but leave at maxLinearSpeed in the force's
// direction.
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

// ---- large steps -------------------------------------------------------------

enum class Ground { Box, Segment, Chain };

const char* groundName(Ground g) {
    return g == Ground::Box ? "box" : g == Ground::Segment ? "segment" : "chain";
}

// Static ground whose top is the line y = 0 for |x| <= 20.
void addGroundOf(World& w, Ground g) {
    BodyId ground = w.createBody(BodyDef{});
    switch (g) {
        case Ground::Box:
            w.createShape(ground, ShapeDef{}, makeOffsetBox(20.0f, 0.5f, {0.0f, -0.5f}, 0.0f));
            break;
        case Ground::Segment:
            w.createShape(ground, ShapeDef{}, Segment{{-20.0f, 0.0f}, {20.0f, 0.0f}});
            break;
        case Ground::Chain: {
            ChainDef cd;  // right to left: solid below
            cd.points = {
                {20.0f, 0.0f}, {10.0f, 0.0f}, {0.0f, 0.0f}, {-10.0f, 0.0f}, {-20.0f, 0.0f}};
            w.createChain(ground, cd);
            break;
        }
    }
}

struct Dropped {
    BodyId body;
    ShapeId shape;
};

// Boxes and balls dropped from a few metres, a small stack, and a thin bar
// (4 cm thick) thrown down at 100 m/s, tilted.
std::vector<Dropped> addDropped(World& w) {
    std::vector<Dropped> out;
    auto add = [&](BodyDef bd, const auto& geometry) {
        bd.type = BodyType::Dynamic;
        BodyId b = w.createBody(bd);
        out.push_back({b, w.createShape(b, ShapeDef{}, geometry)});
    };
    for (int i = 0; i < 4; ++i) {
        BodyDef bd;
        bd.position = {-8.0f + 2.0f * float(i), 1.0f + 1.5f * float(i)};
        bd.angle = 0.3f * float(i);
        add(bd, makeBox(0.5f, 0.5f));
    }
    for (int i = 0; i < 3; ++i) {  // a stack of three, resting
        BodyDef bd;
        bd.position = {0.0f, 0.5f + 1.0f * float(i)};
        add(bd, makeBox(0.5f, 0.5f));
    }
    for (int i = 0; i < 4; ++i) {
        BodyDef bd;
        bd.position = {3.0f + 1.5f * float(i), 0.5f + 2.0f * float(i)};
        add(bd, Circle{{0.0f, 0.0f}, 0.25f});
    }
    BodyDef bar;
    bar.position = {12.0f, 10.0f};
    bar.angle = 0.2f;
    bar.linearVelocity = {0.0f, -100.0f};
    add(bar, makeBox(1.0f, 0.02f));
    return out;
}

// Deepest point of any dropped body below y = 0 (0 when all are above).
float deepest(const World& w, const std::vector<Dropped>& bodies) {
    float d = 0.0f;
    for (const Dropped& b : bodies) d = std::max(d, -w.shapeAABB(b.shape).lower.y);
    return d;
}

struct LargeStepRun {
    float worstDepth = 0.0f;  ///< deepest below the ground top over all steps, m
    float finalDepth = 0.0f;  ///< deepest at the end, m
    float lowestCenter = 1e9f;
    uint64_t hash = 0;
};

LargeStepRun runLargeSteps(Ground g, float dt, int workers = 1, float seconds = 6.0f) {
    WorldDef def;
    def.workerCount = workers;
    World w(def);
    addGroundOf(w, g);
    const std::vector<Dropped> bodies = addDropped(w);
    LargeStepRun r;
    const int steps = int(std::ceil(seconds / dt));
    for (int i = 0; i < steps; ++i) {
        w.step(dt);
        r.worstDepth = std::max(r.worstDepth, deepest(w, bodies));
        for (const Dropped& b : bodies)
            r.lowestCenter = std::min(r.lowestCenter, w.position(b.body).y);
    }
    r.finalDepth = deepest(w, bodies);
    r.hash = w.stateHash();
    return r;
}

// Box, segment and chain ground under steps of 0.1, 0.25, 0.5 and 1 s (and
// 1/60 s for comparison): no body's centre ever ends a step below the
// ground top, and all end resting on it. Before long steps were split, the
// tilted bar sank 130-560 m at 0.25-1 s (boxes and balls held).
TEST(LargeSteps, NoBodyEndsBelowOrInsideTheGround) {
    for (Ground g : {Ground::Box, Ground::Segment, Ground::Chain}) {
        for (float dt : {1.0f / 60.0f, 0.1f, 0.25f, 0.5f, 1.0f}) {
            const LargeStepRun r = runLargeSteps(g, dt);
            std::printf(
                "ground %-7s dt %.3f s: worst depth %.4f m, final depth %.4f m, lowest centre %.3f "
                "m\n",
                groundName(g), double(dt), double(r.worstDepth), double(r.finalDepth),
                double(r.lowestCenter));
            const std::string what =
                std::string(groundName(g)) + " ground, step " + std::to_string(dt);
            EXPECT_GT(r.lowestCenter, 0.0f) << what;
            // The bar's corner dips into a one-sided chain for a step as it
            // lands (0.125 m at 1/60 s, 0.244 m split at 1/30 s) and comes
            // back out; two-sided ground holds it within 6 cm.
            EXPECT_LT(r.worstDepth, g == Ground::Chain ? 0.3f : 0.06f) << what;
            EXPECT_LT(r.finalDepth, 0.01f) << what;
        }
    }
}

// The split is a sequence of full steps: a 0.1 s step is three steps of
// 1/30 s, bit for bit, and a 1/30 s step is not split.
TEST(LargeSteps, SplitStepIsTheSameAsEqualShortSteps) {
    WorldDef def;
    World a(def), b(def);
    for (World* w : {&a, &b}) {
        addGroundOf(*w, Ground::Box);
        addDropped(*w);
    }
    for (int i = 0; i < 20; ++i) {
        a.step(0.1f);
        for (int k = 0; k < 3; ++k) b.step(0.1f / 3.0f);
        ASSERT_EQ(a.stateHash(), b.stateHash()) << "step " << i;
    }
}

// Bit-identical whatever the worker count, split or not.
TEST(LargeSteps, SplitStepsAreIdenticalAcrossWorkerCounts) {
    for (float dt : {0.25f, 1.0f}) {
        const uint64_t one = runLargeSteps(Ground::Chain, dt, 1, 4.0f).hash;
        EXPECT_EQ(one, runLargeSteps(Ground::Chain, dt, 2, 4.0f).hash) << dt;
        EXPECT_EQ(one, runLargeSteps(Ground::Chain, dt, 4, 4.0f).hash) << dt;
    }
}

// The events of a split step are those of all its parts: the ball that lands
// during the second part of a 0.5 s step reports its contact, and every
// body has exactly one move event, its final pose.
TEST(LargeSteps, SplitStepReportsEveryPartsEventsAndOneMovePerBody) {
    World w;
    addGroundOf(w, Ground::Box);
    BodyId ball = test::addBall(w, {0.0f, 0.5f}, 0.25f);  // lands after ~0.1 s
    BodyId box = test::addBox(w, {3.0f, 3.0f}, 0.5f, 0.5f);
    w.step(0.5f);
    const auto moves = w.bodyMoveEvents();
    ASSERT_EQ(moves.size(), 2u);
    for (const BodyMoveEvent& e : moves) {
        const Transform xf = w.transform(e.body);
        EXPECT_EQ(e.transform.p.x, xf.p.x);
        EXPECT_EQ(e.transform.p.y, xf.p.y);
    }
    EXPECT_TRUE(moves[0].body == ball || moves[1].body == ball);
    EXPECT_TRUE(moves[0].body == box || moves[1].body == box);
    EXPECT_GE(w.contactEvents().begin.size(), 1u);
    EXPECT_NEAR(w.position(ball).y, 0.25f, 0.02f);
}

}  // namespace
}  // namespace carom
