// Single contacts against analytic results: resting, friction on an incline,
// sliding to a stop, restitution, and an elastic head-on collision.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::addBall;
using test::addBox;
using test::addGround;
using test::kDt;
using test::run;

// Box2D's HelloWorld: a 2×2 box dropped from y = 4 onto a ground box whose
// top is at y = 0 rests with its centre at y = 1 after 90 steps.
TEST(Contacts, HelloWorldBoxRests) {
    World w;
    addGround(w, {0.0f, -10.0f}, 50.0f, 10.0f);
    BodyId box = addBox(w, {0.0f, 4.0f}, 1.0f, 1.0f);
    run(w, 90);
    EXPECT_NEAR(w.position(box).y, 1.0f, 0.01f);
    EXPECT_NEAR(w.position(box).x, 0.0f, 0.01f);
    EXPECT_NEAR(w.angle(box), 0.0f, 0.01f);
    EXPECT_EQ(w.contacts().size(), 1u);
}

// A box on a slope of angle θ: static friction holds it when μ > tan θ.
TEST(Contacts, InclineHoldsWhenFrictionExceedsTangent) {
    const float theta = 20.0f * kPi / 180.0f;
    WorldDef d;
    d.enableSleep = false;  // a sleeping box would hold trivially
    World w(d);
    const Vec2 up{std::cos(theta), std::sin(theta)};  // along the slope, up-hill
    const Vec2 n{-std::sin(theta), std::cos(theta)};
    addGround(w, {0.0f, 0.0f}, 20.0f, 0.5f, theta, 0.5f);
    BodyId box = addBox(w, 1.001f * n, 0.5f, 0.5f, theta, 1.0f, 0.5f);
    const Vec2 start = w.position(box);
    run(w, 300);
    EXPECT_NEAR(dot(w.position(box) - start, up), 0.0f, 0.005f);
    EXPECT_NEAR(dot(w.linearVelocity(box), up), 0.0f, 1e-3f);
}

// With μ < tan θ the box slides with a = g (sin θ - μ cos θ).
TEST(Contacts, InclineSlidesWithCoulombAcceleration) {
    const float theta = 20.0f * kPi / 180.0f;
    const float mu = 0.2f;
    World w;
    const Vec2 up{std::cos(theta), std::sin(theta)};
    const Vec2 n{-std::sin(theta), std::cos(theta)};
    addGround(w, {0.0f, 0.0f}, 40.0f, 0.5f, theta, mu);
    BodyId box = addBox(w, 0.5f * n + 0.5f * n + 10.0f * up, 0.5f, 0.5f, theta, 1.0f, mu);
    run(w, 20);  // settle onto the slope
    const float v0 = dot(w.linearVelocity(box), up);
    const int steps = 60;
    run(w, steps);
    const float v1 = dot(w.linearVelocity(box), up);
    const float measured = -(v1 - v0) / (float(steps) * kDt);
    const float expected = 10.0f * (std::sin(theta) - mu * std::cos(theta));
    EXPECT_NEAR(measured, expected, 0.08f * expected);
}

// Friction mixing: ground μ = 0.1, box μ = 0.9 on a 20° slope (tan = 0.364).
// The mixed μ is 0.3 (geometric mean), 0.1 (min), 0.9 (max) or 0.5 (average);
// each gives its own acceleration
// g (sin θ - μ cos θ), or holds when μ ≥ tan θ.
TEST(Contacts, FrictionMixingRules) {
    const float theta = 20.0f * kPi / 180.0f;
    struct Case {
        FrictionMixing rule;
        float mu;
    } cases[] = {{FrictionMixing::GeometricMean, 0.3f},
                 {FrictionMixing::Min, 0.1f},
                 {FrictionMixing::Max, 0.9f},
                 {FrictionMixing::Average, 0.5f}};
    for (const Case& c : cases) {
        WorldDef def;
        def.frictionMixing = c.rule;
        def.enableSleep = false;
        World w(def);
        const Vec2 up{std::cos(theta), std::sin(theta)};
        const Vec2 n{-std::sin(theta), std::cos(theta)};
        addGround(w, {0.0f, 0.0f}, 40.0f, 0.5f, theta, 0.1f);
        BodyId box = addBox(w, 1.001f * n + 10.0f * up, 0.5f, 0.5f, theta, 1.0f, 0.9f);
        run(w, 60);
        const float a = -dot(w.linearVelocity(box), up) / (60.0f * kDt);
        const float expected = std::max(0.0f, 10.0f * (std::sin(theta) - c.mu * std::cos(theta)));
        EXPECT_NEAR(a, expected, 0.05f * 10.0f * std::sin(theta)) << "mu " << c.mu;
    }
}

// Restitution mixing: a ball with e = 0.5 on ground with e = 0 bounces with
// max (the default) and does not bounce with min.
TEST(Contacts, RestitutionMixingRules) {
    for (RestitutionMixing rule : {RestitutionMixing::Max, RestitutionMixing::Min}) {
        WorldDef def;
        def.restitutionMixing = rule;
        World w(def);
        addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f, 0.0f, 0.6f, 0.0f);
        BodyId ball = addBall(w, {0.0f, 2.25f}, 0.25f, 0.5f);
        float up = 0.0f;
        for (int i = 0; i < 90; ++i) {
            w.step(kDt);
            up = std::max(up, w.linearVelocity(ball).y);
        }
        if (rule == RestitutionMixing::Max)
            EXPECT_NEAR(up, 0.5f * std::sqrt(2.0f * 10.0f * 2.0f), 0.2f);
        else
            EXPECT_LT(up, 0.1f);
    }
}

// A frictionless box sliding over a flat chain of many 0.5 m segments glides
// across the inner vertices without snagging (ghost vertices, one-sided
// segments): its speed and height stay constant.
TEST(Contacts, BoxGlidesOverFlatChainWithoutSnagging) {
    World w;
    ChainDef chain;
    // Points run right to left, so their right-hand side (the side that
    // collides) faces up.
    for (int i = 0; i <= 80; ++i) chain.points.push_back({20.0f - 0.5f * float(i), 0.0f});
    chain.friction = 0.0f;
    w.createChain(w.createBody(BodyDef{}), chain);
    BodyId box = addBox(w, {-15.0f, 0.25f}, 0.25f, 0.25f, 0.0f, 1.0f, 0.0f, {6.0f, 0.0f});
    float minVx = 6.0f, maxDy = 0.0f;
    for (int i = 0; i < 240; ++i) {
        w.step(kDt);
        minVx = std::min(minVx, w.linearVelocity(box).x);
        maxDy = std::max(maxDy, std::fabs(w.position(box).y - 0.25f));
    }
    EXPECT_GT(w.position(box).x, 8.0f);
    EXPECT_GT(minVx, 5.99f);
    EXPECT_LT(maxDy, 0.01f);
}

// A box sliding at v on flat ground with μ stops after v² / (2 μ g).
TEST(Contacts, SlidingBoxStopsAtCoulombDistance) {
    const float mu = 0.4f, v = 5.0f, g = 10.0f;
    World w;
    addGround(w, {0.0f, -0.5f}, 50.0f, 0.5f, 0.0f, mu);
    BodyId box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f, 0.0f, 1.0f, mu);
    run(w, 10);
    const float x0 = w.position(box).x;
    w.setLinearVelocity(box, {v, 0.0f});
    run(w, 180);
    const float distance = w.position(box).x - x0;
    const float expected = v * v / (2.0f * mu * g);
    EXPECT_NEAR(distance, expected, 0.05f * expected);
    EXPECT_NEAR(w.linearVelocity(box).x, 0.0f, 1e-3f);
}

// A ball dropped from h with e = 0.5 on both shapes rises to e² h.
TEST(Contacts, RestitutionBounceHeight) {
    const float e = 0.5f, h = 5.0f, r = 0.25f;
    World w;
    addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f, 0.0f, 0.6f, e);
    BodyId ball = addBall(w, {0.0f, h + r}, r, e);
    float apex = 0.0f;
    bool bounced = false;
    for (int i = 0; i < 240; ++i) {
        w.step(kDt);
        if (w.linearVelocity(ball).y > 0.0f) bounced = true;
        if (bounced) apex = std::max(apex, w.position(ball).y - r);
        if (bounced && w.linearVelocity(ball).y < 0.0f) break;
    }
    EXPECT_TRUE(bounced);
    EXPECT_NEAR(apex, e * e * h, 0.05f * e * e * h);
}

// Two equal discs with e = 1 meeting head-on exchange their velocities.
TEST(Contacts, ElasticDiscsSwapVelocities) {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World w(def);
    BodyId a = addBall(w, {-2.0f, 0.0f}, 0.5f, 1.0f, {3.0f, 0.0f}, 0.0f);
    BodyId b = addBall(w, {2.0f, 0.0f}, 0.5f, 1.0f, {-1.0f, 0.0f}, 0.0f);
    run(w, 120);
    EXPECT_NEAR(w.linearVelocity(a).x, -1.0f, 0.02f);
    EXPECT_NEAR(w.linearVelocity(b).x, 3.0f, 0.02f);
    EXPECT_NEAR(w.linearVelocity(a).y, 0.0f, 1e-4f);
    EXPECT_NEAR(w.angularVelocity(a), 0.0f, 1e-4f);
}

// A disc of radius r on the ground (top surface at y = 0) rolling without
// slip at v to the right.
struct RollingDisc {
    BodyId body;
    ShapeId shape;
};
RollingDisc addRollingDisc(World& w, float r, float v, const ShapeDef& sd) {
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.0f, r};
    bd.linearVelocity = {v, 0.0f};
    bd.angularVelocity = -v / r;
    const BodyId disc = w.createBody(bd);
    return {disc, w.createShape(disc, sd, Circle{{0.0f, 0.0f}, r})};
}

// A disc rolling without slip at v with rolling resistance c feels the
// torque c·r·N; with I = ½ m r² it decelerates at a = c g / 1.5 and stops
// after v² / (2a). Without resistance it keeps rolling.
TEST(Contacts, RollingResistanceStopsARollingDisc) {
    const float r = 0.5f, v = 2.0f, c = 0.2f, g = 10.0f;
    for (float resistance : {c, 0.0f}) {
        World w;
        addGround(w, {0.0f, -0.5f}, 50.0f, 0.5f);
        ShapeDef sd;
        sd.rollingResistance = resistance;
        const BodyId disc = addRollingDisc(w, r, v, sd).body;
        run(w, 180);
        if (resistance > 0.0f) {
            const float expected = v * v / (2.0f * c * g / 1.5f);
            EXPECT_NEAR(w.position(disc).x, expected, 0.1f * expected);
            EXPECT_NEAR(w.linearVelocity(disc).x, 0.0f, 0.01f);
        } else {
            EXPECT_NEAR(w.linearVelocity(disc).x, v, 0.01f);
        }
    }
}

// The contact keeps the product of the larger coefficient and the larger
// radius (the solver reads it, not the shapes): a setter must reach the
// contacts that already exist, on either shape of the pair. The disc rolls
// freely for half a second, then stops after v² / (2a) from there.
TEST(Contacts, RollingResistanceSetWhileRollingActsAtOnce) {
    const float r = 0.5f, v = 2.0f, c = 0.2f, g = 10.0f;
    for (bool onGround : {false, true}) {
        World w;
        BodyId ground = addGround(w, {0.0f, -0.5f}, 50.0f, 0.5f);
        const RollingDisc rolling = addRollingDisc(w, r, v, ShapeDef{});
        const BodyId disc = rolling.body;
        const ShapeId discShape = rolling.shape;
        run(w, 30);
        ASSERT_NEAR(w.linearVelocity(disc).x, v, 0.01f);
        const float x0 = w.position(disc).x;
        w.setRollingResistance(onGround ? w.shapes(ground)[0] : discShape, c);
        run(w, 180);
        const float expected = v * v / (2.0f * c * g / 1.5f);
        EXPECT_NEAR(w.position(disc).x - x0, expected, 0.1f * expected) << "on ground " << onGround;
        EXPECT_NEAR(w.linearVelocity(disc).x, 0.0f, 0.01f) << "on ground " << onGround;
    }
}

}  // namespace
}  // namespace carom
