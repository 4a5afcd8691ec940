// Settings a game changes while the world runs: each setter
// changes behaviour measurably, refusals leave the world as it was, and the
// new settings keep results independent of worker count and SIMD width.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "tests/support/internals.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using namespace test;

// Deepest overlap of the touching contacts of a body, metres (>= 0).
float deepest(const World& w, BodyId body) {
    float d = 0.0f;
    for (const ContactData& c : w.contacts(body))
        for (int i = 0; i < c.pointCount; ++i) d = std::max(d, -c.points[i].separation);
    return d;
}

// A heavy box resting on the ground; penetration after 2 s.
float restingPenetration(float hertz) {
    World w;
    if (hertz > 0.0f) w.setContactTuning(hertz, 10.0f, 3.0f);
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f, 0.0f, 50.0f);
    run(w, 120);
    return deepest(w, box);
}

TEST(LiveSettings, ContactHertzChangesPenetration) {
    const float stiff = restingPenetration(0.0f);  // default 30 Hz
    const float soft = restingPenetration(3.0f);
    // The soft spring sags further, about as 1/hertz² (measured: 3.5 mm at
    // 3 Hz against 0.1 mm at 30 Hz).
    EXPECT_GT(soft, 10.0f * stiff) << "stiff " << stiff << " soft " << soft;
    std::printf("resting penetration: %.3g m at 30 Hz, %.3g m at 3 Hz\n", double(stiff),
                double(soft));
    EXPECT_GT(soft, 0.002f);
    World w;
    w.setContactTuning(3.0f, 2.0f, 1.5f);
    EXPECT_EQ(w.contactHertz(), 3.0f);
    EXPECT_EQ(w.contactDampingRatio(), 2.0f);
    EXPECT_EQ(w.contactPushMaxSpeed(), 1.5f);
    EXPECT_EQ(w.def().contactHertz, 3.0f);
}

TEST(LiveSettings, PushMaxSpeedBoundsThePushOut) {
    // A box created 20 cm deep in the ground is pushed out no faster than
    // the push-out speed (per step displacement: the relax pass takes the
    // push-out velocity away again).
    for (float push : {0.5f, 3.0f}) {
        WorldDef def;
        def.gravity = {0.0f, 0.0f};
        World w(def);
        w.setContactTuning(30.0f, 10.0f, push);
        addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
        BodyId box = addBox(w, {0.0f, 0.3f}, 0.5f, 0.5f);
        float fastest = 0.0f;
        for (int i = 0; i < 10; ++i) {
            const float y0 = w.position(box).y;
            w.step(kDt);
            fastest = std::max(fastest, (w.position(box).y - y0) / kDt);
        }
        EXPECT_LE(fastest, push * 1.01f);
        EXPECT_GT(fastest, push * 0.5f);
    }
}

TEST(LiveSettings, JointTuningSoftensJoints) {
    // A heavy bob on a light link: a soft world joint stretches more. The
    // tuning's softness is the iterative joints' (enableJointDirectSolve
    // off); a joint the direct solve takes (the default here: a revolute
    // without limit to a static body) is rigid, the tuning only sets how fast
    // it corrects a position error.
    auto stretch = [](float hertz, bool direct = false) {
        WorldDef def;
        def.tuning.enableJointDirectSolve = direct;
        World w(def);
        w.setJointTuning(hertz, 2.0f);
        BodyId anchor = w.createBody(BodyDef{});
        BodyId bob = addBox(w, {0.0f, -1.0f}, 0.2f, 0.2f, 0.0f, 100.0f);
        w.createJoint(w.makeRevoluteJointDef(anchor, bob, {0.0f, 0.0f}));
        run(w, 60);
        return std::fabs(w.position(bob).y + 1.0f);
    };
    const float soft = stretch(2.0f), stiff = stretch(60.0f), direct = stretch(2.0f, true);
    std::printf(
        "bob's stretch after 1 s: iterative %.3g m at 2 Hz, %.3g m at 60 Hz; direct %.3g m at 2 "
        "Hz\n",
        double(soft), double(stiff), double(direct));
    EXPECT_GT(soft, 5.0f * stiff);
    EXPECT_LT(direct, 0.1f * soft);
    World w;
    w.setJointTuning(5.0f, 0.5f);
    EXPECT_EQ(w.jointHertz(), 5.0f);
    EXPECT_EQ(w.jointDampingRatio(), 0.5f);
}

TEST(LiveSettings, WarmStartingOffChangesTheResult) {
    auto stack = [](bool warm, float* sag) {
        World w;
        EXPECT_TRUE(w.isWarmStartingEnabled());
        w.enableWarmStarting(warm);
        EXPECT_EQ(w.isWarmStartingEnabled(), warm);
        const std::vector<BodyId> boxes = test::boxColumn(w, 10, 10.0f);
        run(w, 60);
        // How far the stack has sunk into itself: the top box's drop.
        *sag = 9.5f - w.position(boxes.back()).y;
        return w.stateHash();
    };
    float sagWarm = 0.0f, sagCold = 0.0f;
    const uint64_t warm = stack(true, &sagWarm);
    const uint64_t cold = stack(false, &sagCold);
    EXPECT_NE(warm, cold);
    // Without the carried impulses each step starts from zero and the
    // substeps cannot hold ten boxes up: the stack sinks more.
    EXPECT_GT(sagCold, 2.0f * sagWarm) << "warm " << sagWarm << " cold " << sagCold;
    std::printf("10-box stack sag after 1 s: %.3g m warm-started, %.3g m without\n",
                double(sagWarm), double(sagCold));
}

TEST(LiveSettings, MaxLinearSpeedClamps) {
    World w;
    BodyId ball = addBall(w, {0.0f, 100.0f}, 0.25f);
    w.setMaxLinearSpeed(2.0f);
    EXPECT_EQ(w.maxLinearSpeed(), 2.0f);
    run(w, 60);  // free fall would reach 10 m/s
    EXPECT_NEAR(length(w.linearVelocity(ball)), 2.0f, 1e-4f);
    w.setMaxLinearSpeed(400.0f);
    run(w, 30);
    EXPECT_GT(length(w.linearVelocity(ball)), 6.0f);
}

// A ball with e = 1 dropped from 1 m meets the ground at about 4.4 m/s.
TEST(LiveSettings, RestitutionThresholdDecidesTheBounce) {
    for (float threshold : {1.0f, 10.0f}) {
        World w;
        w.setRestitutionThreshold(threshold);
        EXPECT_EQ(w.restitutionThreshold(), threshold);
        addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
        BodyId ball = addBall(w, {0.0f, 1.25f}, 0.25f, 1.0f);
        float up = 0.0f;
        for (int i = 0; i < 40; ++i) {
            w.step(kDt);
            up = std::max(up, w.linearVelocity(ball).y);
        }
        if (threshold < 4.0f)
            EXPECT_GT(up, 3.5f);
        else
            EXPECT_LT(up, 0.1f);
    }
}

// Hit events of a ball dropped from 1 m (about 4.4 m/s at impact).
int countHits(float threshold, bool shapeFlag, bool setLater) {
    World w;
    w.setHitEventThreshold(threshold);
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.0f, 1.25f};
    BodyId ball = w.createBody(bd);
    ShapeDef sd;
    sd.enableHitEvents = shapeFlag && !setLater;
    ShapeId s = w.createShape(ball, sd, Circle{{0.0f, 0.0f}, 0.25f});
    EXPECT_EQ(w.areHitEventsEnabled(s), shapeFlag && !setLater);
    int hits = 0;
    for (int i = 0; i < 60; ++i) {
        if (i == 20 && setLater) w.enableHitEvents(s, shapeFlag);
        w.step(kDt);
        hits += int(w.contactEvents().hit.size());
    }
    return hits;
}

TEST(LiveSettings, HitThresholdAndHitFlag) {
    EXPECT_EQ(countHits(1.0f, true, false), 1);
    EXPECT_EQ(countHits(10.0f, true, false), 0);
    EXPECT_EQ(countHits(1.0f, false, false), 0);
    // Turned on before the impact (step 20 of about 27), on a contact that
    // already exists: the hit is reported.
    EXPECT_EQ(countHits(1.0f, true, true), 1);
}

// Begin and end events pair up across changes of enableContactEvents.
TEST(LiveSettings, ContactEventFlagPairsBeginAndEnd) {
    World w;
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId box = addBox(w, {0.0f, 0.6f}, 0.5f, 0.5f);
    ShapeId s = w.shapes(box)[0];
    // A contact reports when either shape asks: the ground is set like the box.
    ShapeId g = w.shapes(w.bodies()[0])[0];
    int begins = 0, ends = 0;
    auto stepCount = [&](int n) {
        for (int i = 0; i < n; ++i) {
            w.step(kDt);
            begins += int(w.contactEvents().begin.size());
            ends += int(w.contactEvents().end.size());
        }
    };
    auto lift = [&] {
        w.setTransform(box, {0.0f, 5.0f}, 0.0f);
        w.setLinearVelocity(box, {0.0f, 0.0f});
    };
    stepCount(10);
    ASSERT_EQ(begins, 1);
    // Off while touching: the owed end event still comes.
    w.enableContactEvents(s, false);
    w.enableContactEvents(g, false);
    EXPECT_FALSE(w.areContactEventsEnabled(s));
    lift();
    stepCount(5);
    EXPECT_EQ(ends, 1);
    // Off: a new touch sends nothing.
    stepCount(80);
    EXPECT_EQ(begins, 1);
    ASSERT_GT(w.contacts(box).size(), 0u);
    // On while touching: no begin for this touch, so no end either.
    w.enableContactEvents(s, true);
    stepCount(5);
    EXPECT_EQ(begins, 1);
    lift();
    stepCount(5);
    EXPECT_EQ(ends, 1);
    // The next touch is reported as usual.
    stepCount(80);
    EXPECT_EQ(begins, 2);
}

TEST(LiveSettings, PreSolveFlag) {
    World w;
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    ShapeId s = w.shapes(box)[0];
    int calls = 0;
    w.setPreSolveCallback([&](ShapeId, ShapeId, const ContactData&) {
        ++calls;
        return true;
    });
    run(w, 5);
    EXPECT_EQ(calls, 0);
    w.enablePreSolveEvents(s, true);
    EXPECT_TRUE(w.arePreSolveEventsEnabled(s));
    run(w, 5);
    EXPECT_EQ(calls, 5);
    w.enablePreSolveEvents(s, false);
    run(w, 5);
    EXPECT_EQ(calls, 5);
}

TEST(LiveSettings, SensorEventFlag) {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World w(def);
    BodyId zone = w.createBody(BodyDef{});
    ShapeDef sensor;
    sensor.isSensor = true;
    w.createShape(zone, sensor, makeBox(2.0f, 2.0f));
    BodyId box = addBox(w, {0.0f, 0.0f}, 0.5f, 0.5f);
    ShapeId s = w.shapes(box)[0];
    w.step(kDt);
    EXPECT_EQ(w.sensorEvents().begin.size(), 1u);
    w.enableSensorEvents(s, false);
    EXPECT_FALSE(w.areSensorEventsEnabled(s));
    w.step(kDt);
    EXPECT_EQ(w.sensorEvents().end.size(), 1u);
    w.step(kDt);
    EXPECT_EQ(w.sensorEvents().begin.size() + w.sensorEvents().end.size(), 0u);
    w.enableSensorEvents(s, true);
    w.step(kDt);
    EXPECT_EQ(w.sensorEvents().begin.size(), 1u);
}

// Conveyor: a static belt moving its top surface at 2 m/s carries a box to
// that speed, whichever of the two shapes comes first in the contact.
TEST(LiveSettings, ConveyorCarriesABoxAtBeltSpeed) {
    for (bool boxFirst : {false, true}) {
        for (float speed : {2.0f, -1.5f}) {
            World w;
            BodyId box{};
            if (boxFirst) box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
            BodyId belt = w.createBody(BodyDef{});
            ShapeDef sd;
            sd.tangentSpeed = speed;
            ShapeId beltShape =
                w.createShape(belt, sd, makeOffsetBox(20.0f, 0.5f, {0.0f, -0.5f}, 0.0f));
            if (!boxFirst) box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
            EXPECT_EQ(w.tangentSpeed(beltShape), speed);
            run(w, 120);
            EXPECT_NEAR(w.linearVelocity(box).x, speed, 0.01f * std::fabs(speed))
                << "box first " << boxFirst << " speed " << speed;
            // Stopping the belt stops the box (friction again).
            w.setTangentSpeed(beltShape, 0.0f);
            run(w, 60);
            EXPECT_NEAR(w.linearVelocity(box).x, 0.0f, 1e-3f);
        }
    }
}

TEST(LiveSettings, ConveyorSetLaterWakesWhatSleepsOnIt) {
    World w;
    BodyId belt = w.createBody(BodyDef{});
    ShapeId beltShape =
        w.createShape(belt, ShapeDef{}, makeOffsetBox(20.0f, 0.5f, {0.0f, -0.5f}, 0.0f));
    BodyId box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    run(w, 120);
    ASSERT_FALSE(w.isAwake(box));
    w.setTangentSpeed(beltShape, 1.0f);
    EXPECT_TRUE(w.isAwake(box));
    run(w, 120);
    EXPECT_NEAR(w.linearVelocity(box).x, 1.0f, 0.01f);
}

// A box on a 20° slope: μ = 0.6 holds it (tan 20° = 0.36); a friction
// callback that gives 0 for material 7 against 9 lets it slide at g sin θ.
TEST(LiveSettings, FrictionCallbackResultIsUsed) {
    const float theta = 20.0f * kPi / 180.0f;
    const Vec2 up{std::cos(theta), std::sin(theta)};
    const Vec2 n{-std::sin(theta), std::cos(theta)};
    for (int mode = 0; mode < 3;
         ++mode) {  // 0: built-in, 1: callback from the start, 2: set while resting
        World w;
        w.enableSleep(false);
        int calls = 0;
        uint64_t seenA = 0, seenB = 0;
        FrictionMixFn fn = [&](float fa, uint64_t ma, float fb, uint64_t mb) {
            ++calls;
            seenA = std::min(ma, mb), seenB = std::max(ma, mb);
            return (ma == 7 && mb == 9) || (ma == 9 && mb == 7) ? 0.0f : std::sqrt(fa * fb);
        };
        if (mode == 1) w.setFrictionCallback(fn);
        BodyId ground = w.createBody(BodyDef{});
        ShapeDef gd;
        gd.userMaterialId = 7;
        w.setTransform(ground, {0.0f, 0.0f}, theta);
        ShapeId gs = w.createShape(ground, gd, makeBox(40.0f, 0.5f));
        EXPECT_EQ(w.userMaterialId(gs), 7u);
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = 1.001f * n + 10.0f * up;
        bd.angle = theta;
        BodyId box = w.createBody(bd);
        ShapeDef sd;
        sd.userMaterialId = 9;
        w.createShape(box, sd, makeBox(0.5f, 0.5f));
        run(w, 30);
        if (mode == 2) {
            EXPECT_NEAR(length(w.linearVelocity(box)), 0.0f, 0.01f);
            w.setFrictionCallback(fn);  // re-mixes the existing contact now
            EXPECT_EQ(calls, 1);
            EXPECT_TRUE(w.hasFrictionCallback());
        }
        const Vec2 v0 = w.linearVelocity(box);
        run(w, 60);
        const float a = -dot(w.linearVelocity(box) - v0, up) / (60.0f * kDt);
        if (mode == 0) {
            EXPECT_NEAR(a, 0.0f, 0.05f);
            EXPECT_EQ(calls, 0);
        } else {
            EXPECT_NEAR(a, 10.0f * std::sin(theta), 0.05f * 10.0f * std::sin(theta))
                << "mode " << mode;
            EXPECT_EQ(seenA, 7u);
            EXPECT_EQ(seenB, 9u);
            EXPECT_EQ(calls, 1);  // once per contact: at creation (or when set)
        }
    }
}

TEST(LiveSettings, RestitutionCallbackAndRulesApplyToExistingContacts) {
    // A ball resting... then dropped: the callback's e = 1 makes it bounce
    // although both shapes have e = 0.
    World w;
    w.setRestitutionCallback([](float, uint64_t, float, uint64_t) { return 1.0f; });
    EXPECT_TRUE(w.hasRestitutionCallback());
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId ball = addBall(w, {0.0f, 1.25f}, 0.25f, 0.0f);
    float up = 0.0f;
    for (int i = 0; i < 40; ++i) {
        w.step(kDt);
        up = std::max(up, w.linearVelocity(ball).y);
    }
    EXPECT_GT(up, 3.5f);
    // Back to the built-in rule (max of 0 and 0): no more bounce.
    w.setRestitutionCallback({});
    EXPECT_FALSE(w.hasRestitutionCallback());
    w.setTransform(ball, {0.0f, 1.25f}, 0.0f);
    w.setLinearVelocity(ball, {0.0f, 0.0f});
    up = 0.0f;
    for (int i = 0; i < 40; ++i) {
        w.step(kDt);
        up = std::max(up, w.linearVelocity(ball).y);
    }
    EXPECT_LT(up, 0.1f);
    // Rule setters: a bouncy ball on dead ground bounces under Max, not Min,
    // switched while it rests (the contact is re-mixed).
    w.setRestitution(w.shapes(ball)[0], 0.8f);
    w.setRestitutionMixing(RestitutionMixing::Min);
    EXPECT_EQ(w.restitutionMixing(), RestitutionMixing::Min);
    w.setFrictionMixing(FrictionMixing::Max);
    EXPECT_EQ(w.frictionMixing(), FrictionMixing::Max);
    EXPECT_EQ(internals(w)
                  .contacts[size_t(internals(w).bodies[size_t(ball.index)].contacts[0])]
                  .restitution,
              0.0f);
    w.setRestitutionMixing(RestitutionMixing::Max);
    EXPECT_EQ(internals(w)
                  .contacts[size_t(internals(w).bodies[size_t(ball.index)].contacts[0])]
                  .restitution,
              0.8f);
}

TEST(LiveSettings, CallbackResultsAreClamped) {
    World w;
    w.setFrictionCallback([](float, uint64_t, float, uint64_t) { return std::nanf(""); });
    w.setRestitutionCallback([](float, uint64_t, float, uint64_t) { return 1e30f; });
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId ball = addBall(w, {0.0f, 0.25f}, 0.25f);
    run(w, 2);
    const detail::Contact& c =
        internals(w).contacts[size_t(internals(w).bodies[size_t(ball.index)].contacts[0])];
    EXPECT_EQ(c.friction, 0.0f);
    EXPECT_EQ(c.restitution, kMaxMaterialCoefficient);
    run(w, 30);
    EXPECT_TRUE(isFinite(w.position(ball)));
}

// ---- bodies --------------------------------------------------------------------

TEST(LiveSettings, DisabledBodyLeavesTheSimulationAndComesBack) {
    World w;
    BodyId ground = addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId box = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    BodyId faller = addBall(w, {5.0f, 10.0f}, 0.25f);
    run(w, 30);
    ASSERT_EQ(w.contacts(box).size(), 1u);
    const Vec2 v = w.linearVelocity(faller);
    const Vec2 p = w.position(faller);
    w.disableBody(box);
    w.disableBody(faller);
    w.disableBody(faller);  // no effect the second time
    EXPECT_FALSE(w.isEnabled(box));
    EXPECT_TRUE(w.isValid(box));
    EXPECT_FALSE(w.isAwake(faller));
    // Its contact ends (event with the next step); it falls no more.
    w.step(kDt);
    ASSERT_EQ(w.contactEvents().end.size(), 1u);
    EXPECT_EQ(w.contacts(box).size(), 0u);
    run(w, 30);
    EXPECT_EQ(w.position(faller), p);
    EXPECT_EQ(w.linearVelocity(faller), v);
    // Queries do not see it.
    EXPECT_FALSE(w.castRayClosest({0.0f, 5.0f}, {0.0f, -4.8f}).hit);
    EXPECT_TRUE(w.queryPoint({0.0f, 0.5f}).empty());
    int seen = 0;
    w.overlapAABB(AABB{{-1.0f, 0.1f}, {1.0f, 1.0f}}, {}, [&](ShapeId) { return ++seen, true; });
    EXPECT_EQ(seen, 0);
    EXPECT_EQ(w.counters().awakeBodies, 0);
    // Ground still hit by the same ray, once the box is out of the way.
    EXPECT_EQ(w.castRayClosest({0.0f, 5.0f}, {0.0f, -6.0f}).shape, w.shapes(ground)[0]);
    // Back: the faller resumes with its velocity, the box rests again.
    w.enableBody(faller);
    w.enableBody(box);
    EXPECT_TRUE(w.isEnabled(box));
    EXPECT_TRUE(w.isAwake(faller));
    w.step(kDt);
    EXPECT_NEAR(w.linearVelocity(faller).y, v.y - 10.0f * kDt, 1e-4f);
    EXPECT_EQ(w.contacts(box).size(), 1u);
    EXPECT_EQ(w.contactEvents().begin.size(), 1u);
    EXPECT_EQ(w.castRayClosest({0.0f, 5.0f}, {0.0f, -6.0f}).shape, w.shapes(box)[0]);
}

TEST(LiveSettings, DisabledBodysJointsDoNotAct) {
    World w;
    BodyId anchor = w.createBody(BodyDef{});
    BodyId bob = addBox(w, {0.0f, -1.0f}, 0.2f, 0.2f);
    w.createJoint(w.makeRevoluteJointDef(anchor, bob, {0.0f, 0.0f}));
    BodyId hanger = addBox(w, {3.0f, -1.0f}, 0.2f, 0.2f);
    BodyId link = addBox(w, {3.0f, -2.0f}, 0.2f, 0.2f);
    w.createJoint(w.makeRevoluteJointDef(anchor, hanger, {3.0f, 0.0f}));
    JointId j = w.createJoint(w.makeRevoluteJointDef(hanger, link, {3.0f, -1.5f}));
    run(w, 10);
    EXPECT_NEAR(w.position(bob).y, -1.0f, 0.01f);
    // Disabling the anchor: the bob's joint to it stops holding it.
    w.disableBody(anchor);
    run(w, 30);
    EXPECT_LT(w.position(bob).y, -1.0f - 0.5f * 10.0f * 0.25f + 0.05f);
    // The hanger, too, falls; the link falls with it (their joint acts, both enabled).
    EXPECT_NEAR(w.position(hanger).y - w.position(link).y, 1.0f, 0.02f);
    // Disabling the link: its joint to the hanger stops, the link stays put.
    const Vec2 linkAt = w.position(link);
    w.disableBody(link);
    run(w, 10);
    EXPECT_EQ(w.position(link), linkAt);
    EXPECT_EQ(w.jointReactionForce(j), (Vec2{0.0f, 0.0f}));
    EXPECT_TRUE(w.isValid(j));
    // Enabling joins it again: the joint pulls it along.
    w.enableBody(link);
    run(w, 30);
    EXPECT_NEAR(distance(w.position(hanger), w.position(link)), 1.0f, 0.05f);
    // Created disabled, with a joint made while disabled.
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {10.0f, 0.0f};
    bd.isEnabled = false;
    BodyId late = w.createBody(bd);
    w.createShape(late, ShapeDef{}, makeBox(0.2f, 0.2f));
    w.createJoint(w.makeDistanceJointDef(late, bob, {10.0f, 0.0f}, w.position(bob)));
    run(w, 10);
    EXPECT_EQ(w.position(late), (Vec2{10.0f, 0.0f}));
    EXPECT_FALSE(w.castRayClosest({10.0f, 1.0f}, {0.0f, -2.0f}).hit);
    w.enableBody(late);
    run(w, 1);
    EXPECT_LT(w.position(late).y, 0.0f);
}

TEST(LiveSettings, DisabledBodyTypeChangesAndDestruction) {
    World w;
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId a = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    BodyId b = addBox(w, {0.0f, 1.5f}, 0.5f, 0.5f);
    w.createJoint(w.makeWeldJointDef(a, b, {0.0f, 1.0f}));
    run(w, 10);
    w.disableBody(a);
    w.setBodyType(a, BodyType::Kinematic);
    w.setBodyType(a, BodyType::Dynamic);
    w.setTransform(a, {3.0f, 0.5f}, 0.0f);
    w.createShape(a, ShapeDef{}, Circle{{0.0f, 0.6f}, 0.2f});
    EXPECT_FALSE(w.isAwake(a));
    run(w, 10);
    EXPECT_EQ(w.position(a), (Vec2{3.0f, 0.5f}));
    w.enableBody(a);
    run(w, 60);
    EXPECT_TRUE(isFinite(w.position(b)));
    w.disableBody(b);
    w.destroyBody(b);
    run(w, 10);
    EXPECT_EQ(w.counters().bodies, 2);
}

TEST(LiveSettings, MotionLockXHoldsAgainstContacts) {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World w(def);
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.0f, 0.0f};
    bd.motionLocks.linearX = true;
    BodyId held = w.createBody(bd);
    w.createShape(held, ShapeDef{}, makeBox(0.5f, 0.5f));
    EXPECT_TRUE(w.motionLocks(held).linearX);
    // A ball flies into it from the left (without the lock the two would
    // share the momentum: 0.8 m/s each).
    BodyId ball = addBall(w, {-3.0f, 0.0f}, 0.25f, 0.0f, {5.0f, 0.0f});
    run(w, 60);
    EXPECT_EQ(w.position(held).x, 0.0f);
    EXPECT_EQ(w.linearVelocity(held).x, 0.0f);
    // It met an immovable body along x: stopped dead, and not through.
    EXPECT_LT(std::fabs(w.linearVelocity(ball).x), 0.01f);
    EXPECT_LT(w.position(ball).x, -0.74f);
    // A sideways impulse and velocity are refused along the locked axis.
    w.applyLinearImpulseToCenter(held, {10.0f, 10.0f});
    EXPECT_EQ(w.linearVelocity(held).x, 0.0f);
    EXPECT_GT(w.linearVelocity(held).y, 0.0f);
    w.setLinearVelocity(held, {3.0f, 0.0f});
    EXPECT_EQ(w.linearVelocity(held), (Vec2{0.0f, 0.0f}));
}

TEST(LiveSettings, MotionLockYHoldsAgainstGravityAndJoints) {
    World w;
    BodyId box = addBox(w, {0.0f, 2.0f}, 0.5f, 0.5f);
    BodyId hung = addBox(w, {2.0f, 2.0f}, 0.2f, 0.2f);
    w.createJoint(w.makeDistanceJointDef(box, hung, {0.0f, 2.0f}, {2.0f, 2.0f}));
    w.setMotionLocks(box, MotionLocks{false, true, false});
    float lowest = 2.0f;
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        lowest = std::min(lowest, w.position(hung).y);
        ASSERT_EQ(w.position(box).y, 2.0f);
    }
    EXPECT_EQ(w.linearVelocity(box).y, 0.0f);
    // The hung box swings down on the joint and drags the box sideways in x.
    EXPECT_LT(lowest, 0.5f);
    EXPECT_GT(std::fabs(w.position(box).x), 0.05f);
    // Unlocked, it falls.
    w.setMotionLocks(box, MotionLocks{});
    run(w, 30);
    EXPECT_LT(w.position(box).y, 1.5f);
}

TEST(LiveSettings, RotationLockKeepsTheAngle) {
    World w;
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    // A box landing on its corner tips over unless rotation is locked.
    for (bool locked : {false, true}) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {locked ? 3.0f : -3.0f, 2.0f};
        bd.angle = 0.3f;
        bd.motionLocks.angularZ = locked;
        BodyId box = w.createBody(bd);
        w.createShape(box, ShapeDef{}, makeBox(0.5f, 0.5f));
        EXPECT_EQ(w.isFixedRotation(box), locked);
        const Rot q = w.rotation(box);
        run(w, 90);
        if (locked) {
            EXPECT_EQ(w.rotation(box).c, q.c);
            EXPECT_EQ(w.rotation(box).s, q.s);
        } else
            EXPECT_NEAR(w.angle(box), 0.0f, 0.05f);
    }
}

TEST(LiveSettings, SleepThreshold) {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    World w(def);
    BodyId ball = addBall(w, {0.0f, 0.0f}, 0.25f, 0.0f, {0.5f, 0.0f});
    EXPECT_EQ(w.sleepThreshold(ball), 0.05f);
    run(w, 60);
    EXPECT_TRUE(w.isAwake(ball));
    w.setSleepThreshold(ball, 1.0f);
    EXPECT_EQ(w.sleepThreshold(ball), 1.0f);
    run(w, 60);
    EXPECT_FALSE(w.isAwake(ball));
}

TEST(LiveSettings, BulletFlag) {
    World w;
    BodyId b = addBall(w, {0.0f, 0.0f}, 0.1f);
    EXPECT_FALSE(w.isBullet(b));
    w.setBullet(b, true);
    EXPECT_TRUE(w.isBullet(b));
}

// ---- refusals and locking --------------------------------------------------------

struct Snapshot {
    uint64_t hash;
    WorldDef def;
    MotionLocks locks;
    float sleep;
    bool enabled;
    float tangent;
    bool flags[4];
};

Snapshot snap(const World& w, BodyId b, ShapeId s) {
    return {w.stateHash(),
            w.def(),
            w.motionLocks(b),
            w.sleepThreshold(b),
            w.isEnabled(b),
            w.tangentSpeed(s),
            {w.areContactEventsEnabled(s), w.areSensorEventsEnabled(s), w.areHitEventsEnabled(s),
             w.arePreSolveEventsEnabled(s)}};
}

void expectSame(const Snapshot& a, const Snapshot& b) {
    EXPECT_EQ(a.hash, b.hash);
    EXPECT_EQ(a.def.hitEventThreshold, b.def.hitEventThreshold);
    EXPECT_EQ(a.def.contactHertz, b.def.contactHertz);
    EXPECT_EQ(a.def.contactDampingRatio, b.def.contactDampingRatio);
    EXPECT_EQ(a.def.contactPushMaxSpeed, b.def.contactPushMaxSpeed);
    EXPECT_EQ(a.def.jointHertz, b.def.jointHertz);
    EXPECT_EQ(a.def.jointDampingRatio, b.def.jointDampingRatio);
    EXPECT_EQ(a.def.restitutionThreshold, b.def.restitutionThreshold);
    EXPECT_EQ(a.def.maxLinearSpeed, b.def.maxLinearSpeed);
    EXPECT_EQ(a.def.enableWarmStarting, b.def.enableWarmStarting);
    EXPECT_EQ(a.def.frictionMixing, b.def.frictionMixing);
    EXPECT_EQ(a.def.restitutionMixing, b.def.restitutionMixing);
    EXPECT_EQ(a.locks.linearX, b.locks.linearX);
    EXPECT_EQ(a.locks.linearY, b.locks.linearY);
    EXPECT_EQ(a.locks.angularZ, b.locks.angularZ);
    EXPECT_EQ(a.sleep, b.sleep);
    EXPECT_EQ(a.enabled, b.enabled);
    EXPECT_EQ(a.tangent, b.tangent);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(a.flags[i], b.flags[i]);
}

TEST(LiveSettings, RefusalsLeaveTheWorldAsItWas) {
    World w;
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId b = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    ShapeId s = w.shapes(b)[0];
    run(w, 10);
    const Snapshot before = snap(w, b, s);
    const float nan = std::nanf("");
    struct Bad {
        const char* field;
        std::function<void()> call;
    } bad[] = {
        {"threshold", [&] { w.setHitEventThreshold(-1.0f); }},
        {"threshold", [&] { w.setHitEventThreshold(nan); }},
        {"hertz", [&] { w.setContactTuning(-1.0f, 10.0f, 3.0f); }},
        {"dampingRatio", [&] { w.setContactTuning(30.0f, 2e6f, 3.0f); }},
        {"pushMaxSpeed", [&] { w.setContactTuning(30.0f, 10.0f, 1e6f); }},
        {"hertz", [&] { w.setJointTuning(nan, 2.0f); }},
        {"dampingRatio", [&] { w.setJointTuning(60.0f, -2.0f); }},
        {"threshold", [&] { w.setRestitutionThreshold(-0.5f); }},
        {"speed", [&] { w.setMaxLinearSpeed(0.0f); }},
        {"speed", [&] { w.setMaxLinearSpeed(2e5f); }},
        {"rule", [&] { w.setFrictionMixing(static_cast<FrictionMixing>(9)); }},
        {"rule", [&] { w.setRestitutionMixing(static_cast<RestitutionMixing>(9)); }},
        {"threshold", [&] { w.setSleepThreshold(b, -1.0f); }},
        {"speed", [&] { w.setTangentSpeed(s, 1e6f); }},
        {"speed", [&] { w.setTangentSpeed(s, nan); }},
    };
    for (const Bad& x : bad) {
        try {
            x.call();
            ADD_FAILURE() << "accepted: " << x.field;
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
            EXPECT_EQ(e.field(), x.field);
        }
        expectSame(before, snap(w, b, s));
    }
    // Stale ids.
    BodyId gone = addBall(w, {5.0f, 5.0f}, 0.2f);
    ShapeId goneShape = w.shapes(gone)[0];
    w.destroyBody(gone);
    const Snapshot again = snap(w, b, s);
    std::function<void()> stale[] = {
        [&] { w.disableBody(gone); },
        [&] { w.enableBody(gone); },
        [&] {
            w.setMotionLocks(gone, MotionLocks{true, true, true});
        },
        [&] { w.setSleepThreshold(gone, 1.0f); },
        [&] { w.enableHitEvents(goneShape, true); },
        [&] { w.setTangentSpeed(goneShape, 1.0f); },
    };
    for (auto& call : stale) {
        EXPECT_THROW(call(), Error);
        expectSame(again, snap(w, b, s));
    }
    // ShapeDef and BodyDef rules.
    ShapeDef sd;
    sd.tangentSpeed = nan;
    EXPECT_THROW(w.createShape(b, sd, Circle{{0.0f, 0.0f}, 0.1f}), Error);
    expectSame(again, snap(w, b, s));
}

TEST(LiveSettings, SettersAreLockedInsideStep) {
    World w;
    addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId b = addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    ShapeId s = w.shapes(b)[0];
    w.enablePreSolveEvents(s, true);
    std::vector<std::function<void()>> calls = {
        [&] { w.setHitEventThreshold(2.0f); },
        [&] { w.setContactTuning(10.0f, 1.0f, 1.0f); },
        [&] { w.setJointTuning(10.0f, 1.0f); },
        [&] { w.setRestitutionThreshold(2.0f); },
        [&] { w.setMaxLinearSpeed(2.0f); },
        [&] { w.enableWarmStarting(false); },
        [&] { w.setFrictionMixing(FrictionMixing::Min); },
        [&] { w.setRestitutionMixing(RestitutionMixing::Min); },
        [&] { w.setFrictionCallback({}); },
        [&] { w.setRestitutionCallback({}); },
        [&] { w.disableBody(b); },
        [&] { w.enableBody(b); },
        [&] {
            w.setMotionLocks(b, MotionLocks{true, false, false});
        },
        [&] { w.setSleepThreshold(b, 1.0f); },
        [&] { w.enableContactEvents(s, false); },
        [&] { w.enableSensorEvents(s, false); },
        [&] { w.enableHitEvents(s, true); },
        [&] { w.enablePreSolveEvents(s, false); },
        [&] { w.setTangentSpeed(s, 1.0f); },
    };
    int locked = 0;
    w.setPreSolveCallback([&](ShapeId, ShapeId, const ContactData&) {
        for (auto& call : calls) {
            try {
                call();
            } catch (const Error& e) {
                if (e.code() == ErrorCode::Locked) ++locked;
            }
        }
        return true;
    });
    w.step(kDt);
    EXPECT_EQ(locked, int(calls.size()));
    EXPECT_TRUE(w.isWarmStartingEnabled());
    EXPECT_TRUE(w.isEnabled(b));
}

// ---- determinism -------------------------------------------------------------------

// A scene using every new setting, changed while it runs.
uint64_t liveScene(int workers, SimdWidth width) {
    WorldDef def;
    def.workerCount = workers;
    def.simdWidth = width;
    World w(def);
    w.setFrictionCallback([](float a, uint64_t ma, float b, uint64_t mb) {
        return ma + mb == 3 ? 0.1f : std::sqrt(a * b);
    });
    w.setRestitutionCallback(
        [](float a, uint64_t, float b, uint64_t) { return 0.5f * (a + b) + 0.1f; });
    BodyId ground = w.createBody(BodyDef{});
    ShapeDef belt;
    belt.tangentSpeed = 1.5f;
    belt.userMaterialId = 1;
    w.createShape(ground, belt, makeOffsetBox(30.0f, 0.5f, {0.0f, -0.5f}, 0.0f));
    std::vector<BodyId> bodies;
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 6; ++j) {
            BodyDef bd;
            bd.type = BodyType::Dynamic;
            bd.position = {-12.0f + 2.0f * float(i), 0.5f + 1.05f * float(j)};
            bd.motionLocks.linearX = (i + j) % 7 == 0;
            bd.motionLocks.angularZ = (i + j) % 5 == 0;
            BodyId b = w.createBody(bd);
            ShapeDef sd;
            sd.userMaterialId = uint64_t((i + j) % 3);
            sd.restitution = 0.1f * float(j % 3);
            w.createShape(b, sd, j % 2 ? makeBox(0.5f, 0.5f) : makeRoundedBox(0.4f, 0.4f, 0.1f));
            bodies.push_back(b);
        }
    for (size_t k = 0; k + 6 < bodies.size(); k += 9)
        w.createJoint(w.makeDistanceJointDef(bodies[k], bodies[k + 6], w.position(bodies[k]),
                                             w.position(bodies[k + 6])));
    for (int step = 0; step < 240; ++step) {
        if (step == 30) w.setContactTuning(20.0f, 5.0f, 2.0f);
        if (step == 40) w.enableWarmStarting(false);
        if (step == 60) w.disableBody(bodies[13]);
        if (step == 70) w.setMotionLocks(bodies[20], MotionLocks{false, true, false});
        if (step == 80) w.enableWarmStarting(true);
        if (step == 100) w.enableBody(bodies[13]);
        if (step == 120) w.setMaxLinearSpeed(3.0f);
        if (step == 150) w.setTangentSpeed(w.shapes(ground)[0], -2.0f);
        w.step(kDt);
    }
    return w.stateHash();
}

TEST(LiveSettings, WorkersAndWidthsGiveTheSameBits) {
    const uint64_t ref = liveScene(1, SimdWidth::Scalar);
    EXPECT_EQ(liveScene(2, SimdWidth::Scalar), ref);
    EXPECT_EQ(liveScene(1, SimdWidth::SSE2), ref);
    EXPECT_EQ(liveScene(2, SimdWidth::AVX2), ref);
    EXPECT_EQ(liveScene(1, SimdWidth::AVX2), ref);
}

}  // namespace
}  // namespace carom
