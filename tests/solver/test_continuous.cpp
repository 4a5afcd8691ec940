// Continuous collision: a fast circle, a fast box, a spinning bar and a
// bullet against a thin wall, floor or plank, each without tunnelling.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::kDt;
using test::noGravity;

// A circle of radius 0.1 at 200 m/s (3.3 m per step) stops at a 10 cm wall.
TEST(Continuous, FastCircleStopsAtThinWall) {
    World w(noGravity());
    test::addGround(w, {5.0f, 0.0f}, 0.05f, 2.0f);
    BodyId ball = test::addBall(w, {0.0f, 0.0f}, 0.1f, 0.0f, {200.0f, 0.0f});
    for (int i = 0; i < 60; ++i) {
        w.step(kDt);
        ASSERT_LT(w.position(ball).x, 5.0f - 0.05f - 0.1f + 0.01f) << "tunnelled at step " << i;
    }
    EXPECT_GT(w.position(ball).x, 4.5f);
}

// The same ball without continuous collision does tunnel: the test can fail.
TEST(Continuous, WithoutContinuousTheCircleTunnels) {
    WorldDef def = noGravity();
    def.enableContinuous = false;
    World w(def);
    test::addGround(w, {5.0f, 0.0f}, 0.05f, 2.0f);
    BodyId ball = test::addBall(w, {0.0f, 0.0f}, 0.1f, 0.0f, {200.0f, 0.0f});
    test::run(w, 10);
    EXPECT_GT(w.position(ball).x, 5.0f);
}

// A non-bullet box falling at 300 m/s stays above a 10 cm floor.
TEST(Continuous, FastBoxStaysAboveThinFloor) {
    World w;
    test::addGround(w, {0.0f, -0.05f}, 10.0f, 0.05f);
    BodyId box = test::addBox(w, {0.0f, 20.0f}, 0.25f, 0.25f);
    w.setLinearVelocity(box, {0.0f, -300.0f});
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        ASSERT_GT(w.position(box).y, 0.25f - 0.02f) << "below the floor at step " << i;
    }
    EXPECT_NEAR(w.position(box).y, 0.25f, 0.02f);
}

// A thin bar spinning at 60 rad/s next to a wall never passes it.
TEST(Continuous, SpinningBarNeverPassesWall) {
    World w(noGravity());
    test::addGround(w, {1.2f, 0.0f}, 0.05f, 5.0f);  // wall face at x = 1.15
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.0f, 0.0f};
    bd.angularVelocity = 60.0f;
    bd.linearVelocity = {2.0f, 0.0f};
    BodyId bar = w.createBody(bd);
    w.createShape(bar, ShapeDef{}, makeBox(1.0f, 0.02f));
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        // Every corner of the bar stays left of the wall's far face.
        for (Vec2 corner :
             {Vec2{1.0f, 0.02f}, Vec2{1.0f, -0.02f}, Vec2{-1.0f, 0.02f}, Vec2{-1.0f, -0.02f}})
            ASSERT_LT(w.worldPoint(bar, corner).x, 1.25f) << "passed the wall at step " << i;
    }
}

// A long rod (8 m) spinning at 90-170 rad/s (1.5-2.8 rad in the step) about
// its centre, its tip sweeping through a wall 3 m away that neither end pose
// reaches. It stops at the wall: not inside it, and not short of it (a pose
// made as a normalised lerp of the rotations turns at another rate than the
// time of impact assumes, and stops short or deep), and not through it (a
// candidate box of the two end poses only misses the wall).
TEST(Continuous, LongRodSpinningFastStopsAtTheWall) {
    const Polygon wallShape = makeBox(0.1f, 0.5f);
    const Polygon rodShape = makeBox(4.0f, 0.05f);
    for (float spin : {90.0f, 120.0f, 170.0f}) {
        for (float angle : {-1.6f, -1.2f, -0.9f}) {
            SCOPED_TRACE(::testing::Message() << spin << " rad/s from " << angle << " rad");
            World w(noGravity());
            BodyDef wd;
            wd.position = {3.0f, 0.0f};
            BodyId wall = w.createBody(wd);
            w.createShape(wall, ShapeDef{}, wallShape);
            BodyDef bd;
            bd.type = BodyType::Dynamic;
            bd.angle = angle;
            bd.angularVelocity = spin;
            BodyId rod = w.createBody(bd);
            w.createShape(rod, ShapeDef{}, rodShape);
            ASSERT_GT(
                shapeDistance(rodShape, w.transform(rod), wallShape, w.transform(wall)).distance,
                0.5f);
            w.step(kDt);
            DistanceResult d =
                shapeDistance(rodShape, w.transform(rod), wallShape, w.transform(wall));
            EXPECT_FALSE(d.overlap) << "depth " << d.depth;
            EXPECT_GT(d.distance, 0.0f);
            EXPECT_LE(d.distance, 1.25f * kLinearSlop + 1e-4f);
        }
    }
}

// A bullet hits a thin dynamic plank and pushes it instead of passing.
TEST(Continuous, BulletPushesThinDynamicPlank) {
    World w(noGravity());
    BodyId plank = test::addBox(w, {5.0f, 0.0f}, 0.05f, 1.0f);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.isBullet = true;
    bd.position = {0.0f, 0.0f};
    bd.linearVelocity = {250.0f, 0.0f};
    BodyId bullet = w.createBody(bd);
    ShapeDef sd;
    sd.density = 5.0f;
    w.createShape(bullet, sd, Circle{{0.0f, 0.0f}, 0.05f});
    test::run(w, 30);
    EXPECT_LT(w.position(bullet).x, w.position(plank).x);
    EXPECT_GT(w.linearVelocity(plank).x, 0.1f);
    EXPECT_GT(w.position(plank).x, 5.0f);
}

// Without the bullet flag, the same shot passes the dynamic plank: proof
// that the previous test measures continuous collision.
TEST(Continuous, NonBulletPassesThinDynamicPlank) {
    World w(noGravity());
    test::addBox(w, {5.0f, 0.0f}, 0.05f, 1.0f);
    BodyId shot = test::addBall(w, {0.0f, 0.0f}, 0.05f, 0.0f, {250.0f, 0.0f});
    test::run(w, 30);
    EXPECT_GT(w.position(shot).x, 6.0f);
}

}  // namespace
}  // namespace carom

namespace carom {
namespace {

BodyId addBullet(World& w, Vec2 p, Vec2 v, float r = 0.05f) {
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.isBullet = true;
    bd.position = p;
    bd.linearVelocity = v;
    BodyId b = w.createBody(bd);
    w.createShape(b, ShapeDef{}, Circle{{0.0f, 0.0f}, r});
    return b;
}

// Two 5 cm bullets at 300 m/s each way, 6 m apart: their paths cross inside
// one 1/60 s step (each goes 5 m). They meet where the analytic answer says
// (centres 2r apart at x = ∓0.05), whichever was created first, and never
// pass through each other afterwards.
TEST(Continuous, BulletsFiredAtEachOtherMeet) {
    for (bool leftFirst : {true, false}) {
        World w(noGravity());
        BodyId left{}, right{};
        if (leftFirst) {
            left = addBullet(w, {-3.0f, 0.0f}, {300.0f, 0.0f});
            right = addBullet(w, {3.0f, 0.0f}, {-300.0f, 0.0f});
        } else {
            right = addBullet(w, {3.0f, 0.0f}, {-300.0f, 0.0f});
            left = addBullet(w, {-3.0f, 0.0f}, {300.0f, 0.0f});
        }
        w.step(test::kDt);
        EXPECT_NEAR(w.position(left).x, -0.05f, 0.01f);
        EXPECT_NEAR(w.position(right).x, 0.05f, 0.01f);
        for (int i = 0; i < 30; ++i) {
            w.step(test::kDt);
            ASSERT_LT(w.position(left).x, w.position(right).x) << "passed through at step " << i;
        }
    }
}

// Without the bullet flag the same two shots pass through each other: proof
// that the test above measures bullet-against-bullet collision.
TEST(Continuous, NonBulletShotsPassEachOther) {
    World w(noGravity());
    BodyId left = test::addBall(w, {-3.0f, 0.0f}, 0.05f, 0.0f, {300.0f, 0.0f});
    BodyId right = test::addBall(w, {3.0f, 0.0f}, 0.05f, 0.0f, {-300.0f, 0.0f});
    w.step(test::kDt);
    EXPECT_GT(w.position(left).x, w.position(right).x);
}

// A bullet fired through fast debris crossing its path stops at the first
// piece it actually meets: one that crossed before it arrived, one that
// arrives after it passed and one further on are all skipped or later.
TEST(Continuous, BulletHitsFirstDebrisItMeets) {
    World w(noGravity());
    auto debris = [&](float x, float y0) {
        // 0.2 m boxes rising at 60 m/s: 1 m a step, five times their size.
        return test::addBox(w, {x, y0}, 0.1f, 0.1f, 0.0f, 1.0f, 0.6f, {0.0f, 60.0f});
    };
    debris(1.0f, 0.3f);   // already above the line when the bullet passes x = 1 (t = 1/300 s)
    debris(1.5f, -0.8f);  // still below when the bullet passes x = 1.5
    BodyId hit = debris(2.0f, -0.4f);  // on the line when the bullet reaches x = 2 (t = 1/150 s)
    debris(3.0f, -0.6f);               // on the line at t = 1/100 s: later than the one above
    BodyId bullet = addBullet(w, {0.0f, 0.0f}, {300.0f, 0.0f});
    w.step(test::kDt);
    // Stopped against the left face of the box at x = 2 (centre 2 - 0.1 - 0.05).
    EXPECT_NEAR(w.position(bullet).x, 1.85f, 0.02f);
    w.step(test::kDt);
    EXPECT_GT(w.linearVelocity(hit).x, 1.0f) << "the bullet's impulse went to the box it met";
}

}  // namespace
}  // namespace carom
