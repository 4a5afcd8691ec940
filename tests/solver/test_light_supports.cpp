// Light supports under heavy loads (engine/world/solver_step.cpp,
// raiseLightSupports; docs/solver.md): a body under one more than eight
// times heavier, resting on something itself, is solved with a raised mass
// and inertia and its weight unchanged, and in an impact its contacts'
// warm start restarts every substep from what they came into the step with.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tests/support/alloc_counter.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::addBox;
using test::run;

struct HeavyOnLight {
    BodyId ground, left, right, heavy;
};

// The stability suite's heavy_on_light: a 20 m box of 400 kg whose centre
// starts at heavyY above two 1 kg boxes 18 m apart on a segment ground (it
// rests on them at 11 m).
HeavyOnLight heavyOnLight(World& w, float heavyY) {
    HeavyOnLight s;
    s.ground = w.createBody(BodyDef{});
    w.createShape(s.ground, ShapeDef{}, Segment{{-40.0f, 0.0f}, {40.0f, 0.0f}});
    s.left = addBox(w, {-9.0f, 0.5f}, 0.5f, 0.5f);
    s.right = addBox(w, {9.0f, 0.5f}, 0.5f, 0.5f);
    s.heavy = addBox(w, {0.0f, heavyY}, 10.0f, 10.0f);
    return s;
}

// Dropped from 15 m (17 m/s at the landing), it lands within a step and
// stays: never more than 1 cm above its resting height once down, the light
// boxes upright where they were, nothing slid. Before, it went on through
// the light boxes for two steps and was thrown back up 3.1 m at 8.2 m/s,
// tipping the left box over (1.47 rad) and sliding 9 cm.
TEST(LightSupports, HeavyBoxDroppedOnLightBoxesLandsWithoutBouncingOrTippingThem) {
    World w(test::awakeDef());
    const HeavyOnLight s = heavyOnLight(w, 26.0f);
    bool landed = false;
    float highest = -1.0f;
    for (int k = 0; k < 300; ++k) {
        run(w, 1);
        landed = landed || w.position(s.heavy).y < 11.2f;
        if (landed) highest = std::max(highest, w.position(s.heavy).y - 11.0f);
    }
    std::printf(
        "highest after landing %.4f m; heavy (%.4f, %.4f); light boxes at %.4f, %.4f, turned %.4f, "
        "%.4f rad\n",
        highest, w.position(s.heavy).x, w.position(s.heavy).y, w.position(s.left).x,
        w.position(s.right).x, w.angle(s.left), w.angle(s.right));
    ASSERT_TRUE(landed);
    EXPECT_LT(highest, 0.01f);
    EXPECT_NEAR(w.position(s.heavy).y, 11.0f, 0.02f);
    EXPECT_NEAR(w.position(s.heavy).x, 0.0f, 0.05f);
    EXPECT_NEAR(w.angle(s.heavy), 0.0f, 0.001f);
    for (BodyId light : {s.left, s.right}) {
        EXPECT_NEAR(w.angle(light), 0.0f, 0.01f);
        EXPECT_NEAR(w.position(light).y, 0.5f, 0.01f);
    }
    EXPECT_NEAR(w.position(s.left).x, -9.0f, 0.05f);
    EXPECT_NEAR(w.position(s.right).x, 9.0f, 0.05f);
}

// Resting on them from the start: the heavy box sinks at most 2 mm into
// them (it sank 1.9 cm: each light box's soft contacts, sized for 1 kg,
// carried 200 kg), and the ground carries the three boxes' weights and no
// more: a raised body's weight is its own (its gravity is scaled down with
// its raised mass).
TEST(LightSupports, AHeavyBoxRestsOnLightOnesWithTheirWeightsUnchanged) {
    World w(test::awakeDef());
    const HeavyOnLight s = heavyOnLight(w, 11.0f);
    run(w, 120);
    float ground = 0.0f;  // the last substep's impulses
    for (const ContactData& c : w.contacts(s.ground))
        for (int i = 0; i < c.pointCount; ++i) ground += c.points[i].normalImpulse;
    const float h = test::kDt / float(w.def().substeps);
    const float weight =
        (w.mass(s.heavy) + w.mass(s.left) + w.mass(s.right)) * std::fabs(w.def().gravity.y) * h;
    std::printf("sink %.5f m; ground %.4f N s per substep, weights %.4f\n",
                11.0f - w.position(s.heavy).y, ground, weight);
    EXPECT_NEAR(w.position(s.heavy).y, 11.0f, 0.002f);
    EXPECT_NEAR(ground, weight, 0.005f * weight);
}

// A light body under a heavy one in free fall keeps its own mass (nothing
// holds it up): both fall together at g.
TEST(LightSupports, FallFreelyWithTheirLoad) {
    WorldDef def = test::awakeDef();
    World w(def);
    const BodyId light = addBox(w, {0.0f, 100.5f}, 0.5f, 0.5f);
    const BodyId heavy = addBox(w, {0.0f, 101.5f}, 0.5f, 0.5f, 0.0f, 400.0f);
    run(w, 30);
    const float t = 30.0f * test::kDt;
    const float v = def.gravity.y * t;
    for (BodyId b : {light, heavy}) EXPECT_NEAR(w.linearVelocity(b).y, v, 0.01f * std::fabs(v));
}

TEST(LightSupports, KeepDeterminism) {
    // 150 steps: the landing (about step 105) and what follows.
    test::expectOneHashEverywhere([](int workers) { return test::awakeDef(workers); },
                                  [](World& w) { heavyOnLight(w, 26.0f); }, 150);
}

// Raised bodies and restarted lanes take no allocation once warm: a hop
// (the heavy box thrown up at 3 m/s, back down at 3 m/s, an impact) after
// the landing and one hop (whose contacts ending and beginning again
// allocate once).
TEST(LightSupports, WarmStepAllocatesNothing) {
    for (int workers : {1, 2}) {
        World w(test::awakeDef(workers));
        const HeavyOnLight s = heavyOnLight(w, 26.0f);
        run(w, 300);
        w.setLinearVelocity(s.heavy, {0.0f, 3.0f});
        run(w, 60);
        w.setLinearVelocity(s.heavy, {0.0f, 3.0f});
        const long long before = test::allocationCount();
        run(w, 60);
        EXPECT_EQ(test::allocationCount() - before, 0) << workers << " workers";
        EXPECT_NEAR(w.position(s.heavy).y, 11.0f, 0.02f) << "it landed again";
    }
}

}  // namespace
}  // namespace carom
