// Stacks and piles: cases every rigid-body engine's test bed carries (Box2D
// samples "Vertical Stack", "Pyramid", "Confined"/overlap recovery, Solver2D's
// "heavy on light" large mass ratio), with measured tolerances.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::addBox;
using test::addGround;
using test::kDt;
using test::run;

// Ten 1 m boxes stacked exactly. Soft contacts settle by a few millimetres
// per contact under load; after that the stack must stand still: over 5 s no
// box drifts 3 cm, and the whole settling stays under 5 cm.
TEST(Stacking, TenBoxStackStands) {
    WorldDef def;
    def.enableSleep = false;  // keep solving: sleeping would hide drift
    World w(def);
    const std::vector<BodyId> boxes = test::boxColumn(w, 10);
    run(w, 30);
    std::vector<Vec2> settled;
    for (BodyId b : boxes) settled.push_back(w.position(b));
    run(w, 300);
    for (int i = 0; i < 10; ++i) {
        const Vec2 p = w.position(boxes[size_t(i)]);
        EXPECT_LT(distance(p, settled[size_t(i)]), 0.03f) << "box " << i;
        EXPECT_NEAR(p.x, 0.0f, 0.03f) << "box " << i;
        EXPECT_NEAR(p.y, 0.5f + float(i), 0.05f) << "box " << i;
        EXPECT_NEAR(w.angle(boxes[size_t(i)]), 0.0f, 0.02f) << "box " << i;
    }
}

// A 20-row pyramid of 0.5 m boxes stands for 10 s: the top box stays within
// a few centimetres of its start and no box leaves its column.
TEST(Stacking, TwentyRowPyramidStands) {
    WorldDef def;
    def.enableSleep = false;
    World w(def);
    addGround(w, {0.0f, -0.5f}, 40.0f, 0.5f);
    const int rows = 20;
    const float h = 0.25f;
    std::vector<BodyId> boxes;
    std::vector<Vec2> starts;
    for (int row = 0; row < rows; ++row) {
        const int count = rows - row;
        for (int i = 0; i < count; ++i) {
            const Vec2 p{(float(i) - 0.5f * float(count - 1)) * 2.0f * h,
                         h + 2.0f * h * float(row)};
            boxes.push_back(addBox(w, p, h, h));
            starts.push_back(p);
        }
    }
    run(w, 600);
    float worst = 0.0f;
    for (size_t i = 0; i < boxes.size(); ++i)
        worst = std::max(worst, distance(w.position(boxes[i]), starts[i]));
    EXPECT_LT(worst, 0.05f);
    EXPECT_LT(std::fabs(w.position(boxes.back()).x), 0.03f);
}

// Solver2D's "heavy on light": a box 400 times heavier than the two small
// boxes it rests on must not crush them (they keep their height, the heavy
// box stays above them).
TEST(Stacking, HeavyBoxOnLightBoxes) {
    WorldDef def;
    def.enableSleep = false;
    World w(def);
    addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f);
    BodyId left = addBox(w, {-1.0f, 0.25f}, 0.25f, 0.25f, 0.0f, 1.0f);
    BodyId right = addBox(w, {1.0f, 0.25f}, 0.25f, 0.25f, 0.0f, 1.0f);
    // Areas 0.25 m² and 1.5 m²: density 400 / 6 gives a 400 : 1 mass ratio.
    BodyId heavy = addBox(w, {0.0f, 0.75f}, 1.5f, 0.25f, 0.0f, 400.0f / 6.0f);
    EXPECT_NEAR(w.mass(heavy) / w.mass(left), 400.0f, 1.0f);
    run(w, 60);
    const float settled = w.position(heavy).y;
    run(w, 240);
    // The light boxes keep their place and height (they sink 0.2 mm into
    // the ground: solved as light supports under a heavy load, docs/solver.md,
    // their contacts are sized for 1/8 of the heavy box; 9 mm before).
    EXPECT_NEAR(w.position(left).y, 0.25f, 0.02f);
    EXPECT_NEAR(w.position(right).y, 0.25f, 0.02f);
    EXPECT_NEAR(w.position(left).x, -1.0f, 0.01f);
    EXPECT_NEAR(w.position(right).x, 1.0f, 0.01f);
    // The heavy box stands still on them, its underside well above the light
    // boxes' centres (it sinks 0.4 mm; 1.9 cm when the light boxes' soft
    // contacts were sized for their own 1 kg, F / (m ω²), docs/solver.md).
    EXPECT_NEAR(w.position(heavy).y, settled, 0.005f);
    EXPECT_GT(w.position(heavy).y - 0.25f, 0.25f + 0.1f);
    EXPECT_NEAR(w.angle(heavy), 0.0f, 0.01f);
}

// Ten boxes created overlapping by 0.25 m each (Box2D's "overlap recovery"):
// the soft contacts push them apart over a few steps instead of in one
// violent correction. They end stacked in their column. The top box does
// rise while the nine overlaps resolve beneath it (each contact pushes at up
// to contactPushMaxSpeed, and the pushes add up along the column), but less
// than 5 m above where it comes to rest; 2.25 m of overlap projected away in
// one step would launch it at over 100 m/s.
TEST(Stacking, OverlappingBoxesSeparateGently) {
    World w;
    addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f);
    std::vector<BodyId> boxes;
    for (int i = 0; i < 10; ++i)
        boxes.push_back(addBox(w, {0.0f, 0.5f + 0.75f * float(i)}, 0.5f, 0.5f));
    float highest = 0.0f;
    for (int k = 0; k < 300; ++k) {
        w.step(kDt);
        highest = std::max(highest, w.position(boxes.back()).y);
    }
    EXPECT_LT(highest - w.position(boxes.back()).y, 5.0f);
    for (size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_NEAR(w.position(boxes[i]).x, 0.0f, 0.05f) << "box " << i;
        EXPECT_NEAR(w.position(boxes[i]).y, 0.5f + float(i), 0.05f) << "box " << i;
        EXPECT_NEAR(w.angle(boxes[i]), 0.0f, 0.02f) << "box " << i;
    }
}

// A resting stack goes to sleep as one island, then wakes when hit.
TEST(Stacking, RestingStackFallsAsleepAndWakes) {
    World w;
    const std::vector<BodyId> boxes = test::boxColumn(w, 5);
    int sleptAt = -1;
    for (int k = 0; k < 600 && sleptAt < 0; ++k) {
        w.step(kDt);
        if (!w.isAwake(boxes[0])) sleptAt = k;
    }
    ASSERT_GE(sleptAt, 0) << "stack never fell asleep";
    for (BodyId b : boxes) EXPECT_FALSE(w.isAwake(b));
    Counters c = w.counters();
    EXPECT_EQ(c.awakeBodies, 0);
    EXPECT_EQ(c.islands, 1);
    EXPECT_EQ(c.awakeIslands, 0);
    // Sleeping bodies report a move event with fellAsleep on the step they slept.
    // Waking one wakes the island.
    w.applyLinearImpulseToCenter(boxes[4], {0.1f, 0.0f});
    for (BodyId b : boxes) EXPECT_TRUE(w.isAwake(b));
    // A ball thrown at a sleeping stack wakes it through the contact.
    run(w, 120);
    for (BodyId b : boxes) ASSERT_FALSE(w.isAwake(b));
    BodyId ball = test::addBall(w, {-5.0f, 2.5f}, 0.25f, 0.0f, {10.0f, 0.0f});
    bool woke = false;
    for (int k = 0; k < 60 && !woke; ++k) {
        w.step(kDt);
        woke = w.isAwake(boxes[2]);
    }
    EXPECT_TRUE(woke);
    EXPECT_TRUE(w.isValid(ball));
    // A static shape created across a sleeping stack wakes it.
    w.destroyBody(ball);
    run(w, 180);
    for (BodyId b : boxes) ASSERT_FALSE(w.isAwake(b));
    BodyDef wall;
    wall.position = {0.6f, 2.5f};
    w.createShape(w.createBody(wall), ShapeDef{}, makeBox(0.2f, 3.0f));
    w.step(kDt);
    EXPECT_TRUE(w.isAwake(boxes[0]));
}

// Bodies created asleep and touching stay asleep (their contacts wait for
// an awake side, as in Box2D v3) until something awake reaches them; then the
// hit wakes them through the contacts. The benchmark scene `smash` is this.
TEST(Stacking, PileCreatedAsleepStaysAsleepUntilHit) {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World w(def);
    std::vector<BodyId> blocks;
    for (int r = 0; r < 6; ++r) {
        for (int c = 0; c < 6; ++c) {
            BodyDef bd;
            bd.type = BodyType::Dynamic;
            bd.isAwake = false;
            bd.position = {10.0f + 0.4f * float(c), 0.4f * float(r)};
            BodyId b = w.createBody(bd);
            w.createShape(b, ShapeDef{}, makeBox(0.2f, 0.2f));
            blocks.push_back(b);
        }
    }
    // Checked after every step: woken by mistake they would fall back
    // asleep within half a second, after costing full steps meanwhile.
    for (int k = 0; k < 60; ++k) {
        w.step(kDt);
        ASSERT_EQ(w.counters().awakeBodies, 0) << "step " << k;
    }
    for (BodyId b : blocks) EXPECT_FALSE(w.isAwake(b));
    // A ball from the left hits the first column and the pile wakes.
    test::addBall(w, {5.0f, 0.0f}, 0.2f, 0.0f, {20.0f, 0.0f});
    bool farSideWoke = false;
    for (int k = 0; k < 120 && !farSideWoke; ++k) {
        w.step(kDt);
        farSideWoke = w.isAwake(blocks.back());
    }
    EXPECT_TRUE(w.isAwake(blocks.front()));
    EXPECT_TRUE(farSideWoke);
}

}  // namespace
}  // namespace carom
