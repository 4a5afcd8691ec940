// Gear, pulley and rope joints against analytic truth: the gear ratio held
// over a driven run (whole turns included), rack and pinion, the pulley's
// rope length conserved with unequal masses, a rope that never stretches,
// tensions at rest, determinism across worker counts, refusals that change
// nothing, and the gear going with the joints it gears.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <vector>

#include <carom/debug_draw.hpp>

#include <carom/error.hpp>
#include <carom/limits.hpp>

#include "tests/support/alloc_counter.hpp"
#include "tests/support/fixtures.hpp"

namespace carom::test {
namespace {

constexpr float kG = 10.0f;

// A body's angle counted over whole turns (the body stores a rotation):
// each call adds the change since the last call, unwound.
struct TurnCounter {
    float last = 0.0f, total = 0.0f;
    explicit TurnCounter(float start) : last(start) {}
    void update(float now) {
        total += unwindAngle(now - last);
        last = now;
    }
};

// Two wheels on fixed axles, geared ratio : 1, the first driven by a motor.
struct GearTrain {
    World w = makeWorld();
    BodyId ground, wheelA, wheelB;
    JointId pinA, pinB, gear;

    explicit GearTrain(float ratio) {
        ground = addStatic(w);
        wheelA = addBall(w, {0.0f, 2.0f}, 1.0f);
        wheelB = addBall(w, {3.0f, 2.0f}, 0.5f);
        RevoluteJointDef ra = w.makeRevoluteJointDef(ground, wheelA, {0.0f, 2.0f});
        ra.enableMotor = true;
        ra.motorSpeed = 3.0f;
        ra.maxMotorTorque = 1000.0f;
        pinA = w.createJoint(ra);
        pinB = w.createJoint(w.makeRevoluteJointDef(ground, wheelB, {3.0f, 2.0f}));
        gear = w.createJoint(w.makeGearJointDef(pinA, pinB, ratio));
    }
};

TEST(Gear, RevoluteRatioHeldOverManyTurns) {
    for (float ratio : {2.0f, -0.5f}) {
        GearTrain t(ratio);
        TurnCounter a(t.w.angle(t.wheelA)), b(t.w.angle(t.wheelB));
        float worst = 0.0f;
        for (int i = 0; i < 300; ++i) {  // 5 s at 3 rad/s: more than two turns of A
            t.w.step(kDt);
            a.update(t.w.angle(t.wheelA));
            b.update(t.w.angle(t.wheelB));
            if (std::fabs(a.total) > 0.5f)
                worst = std::max(worst, std::fabs(a.total + ratio * b.total) / std::fabs(a.total));
        }
        std::printf("[figure] gear ratio %g: %.2f rad of A, worst |dA + ratio dB| / |dA| = %.2e\n",
                    ratio, a.total, worst);
        EXPECT_GT(std::fabs(a.total), 4.0f * kPi) << ratio;  // the turns were counted
        // coordinateA + ratio·coordinateB constant: ΔθB = -ΔθA / ratio, within 0.5 %.
        EXPECT_LT(worst, 0.005f) << ratio;
        EXPECT_NEAR(b.total, -a.total / ratio, 0.005f * std::fabs(a.total / ratio)) << ratio;
    }
}

TEST(Gear, ReactionTorqueDrivesTheSecondWheel) {
    // With the motor accelerating A, the gear's torque on B is what spins B up:
    // torque = I_B · αB. Measure over one step of constant acceleration.
    GearTrain t(2.0f);
    t.w.setJointMotorSpeed(t.pinA, 0.0f);
    for (int i = 0; i < 10; ++i) t.w.step(kDt);
    t.w.enableJointMotor(t.pinA, false);
    // A constant torque on A: both wheels accelerate together.
    const float torque = 5.0f;
    float w0 = t.w.angularVelocity(t.wheelB);
    t.w.applyTorque(t.wheelA, torque);
    t.w.step(kDt);
    const float alphaB = (t.w.angularVelocity(t.wheelB) - w0) / kDt;
    const float IB = t.w.rotationalInertia(t.wheelB);
    EXPECT_NEAR(t.w.jointReactionTorque(t.gear), IB * alphaB,
                0.01f * std::fabs(IB * alphaB) + 1e-4f);
    // Analytic: θA = -2 θB, so the system's inertia seen from A is IA + IB/4.
    const float IA = t.w.rotationalInertia(t.wheelA);
    const float alphaA = torque / (IA + IB / 4.0f);
    EXPECT_NEAR(alphaB, -alphaA / 2.0f, 0.01f * alphaA);
}

TEST(Gear, RackAndPinion) {
    // A pinion of radius r turning by θ moves the rack by -r θ: gear ratio 1/r
    // between the pinion's revolute and the rack's prismatic joint.
    World w = makeWorld();
    BodyId ground = addStatic(w);
    const float r = 0.5f;
    BodyId pinion = addBall(w, {0.0f, 1.0f}, r);
    BodyId rack = addBox(w, {0.0f, 0.4f}, 2.0f, 0.1f);
    RevoluteJointDef rd = w.makeRevoluteJointDef(ground, pinion, {0.0f, 1.0f});
    rd.enableMotor = true;
    rd.motorSpeed = 2.0f;
    rd.maxMotorTorque = 1000.0f;
    JointId pin = w.createJoint(rd);
    JointId slide =
        w.createJoint(w.makePrismaticJointDef(ground, rack, {0.0f, 0.4f}, {1.0f, 0.0f}));
    w.createJoint(w.makeGearJointDef(pin, slide, 1.0f / r));
    TurnCounter turn(w.angle(pinion));
    const float x0 = w.jointTranslation(slide);
    float worst = 0.0f;
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        turn.update(w.angle(pinion));
        const float dx = w.jointTranslation(slide) - x0;
        if (std::fabs(turn.total) > 0.5f)
            worst = std::max(worst, std::fabs(dx + r * turn.total) / std::fabs(r * turn.total));
    }
    std::printf("[figure] rack and pinion: %.2f rad, worst |dx + r dtheta| / |r dtheta| = %.2e\n",
                turn.total, worst);
    EXPECT_GT(turn.total, 3.0f);
    EXPECT_LT(worst, 0.005f);
    EXPECT_NEAR(w.position(rack).y, 0.4f, 1e-3f);  // the prismatic joint still holds the rack level
}

// Two boxes over two pulleys: A on the left, B on the right.
struct Pulley {
    World w = makeWorld();
    BodyId ground, a, b;
    JointId joint;

    Pulley(float massA, float massB, float ratio) {
        ground = addStatic(w);
        // Boxes of side 2·h with density 1 kg/m²: mass 4 h².
        a = addBox(w, {-2.0f, 0.0f}, 0.5f * std::sqrt(massA), 0.5f * std::sqrt(massA));
        b = addBox(w, {2.0f, 0.0f}, 0.5f * std::sqrt(massB), 0.5f * std::sqrt(massB));
        PulleyJointDef d = w.makePulleyJointDef(a, b, {-2.0f, 6.0f}, {2.0f, 6.0f}, {-2.0f, 0.0f},
                                                {2.0f, 0.0f}, ratio);
        joint = w.createJoint(d);
    }
    float constant() const { return 6.0f + w.pulleyJointDef(joint).ratio * 6.0f; }
    float total() const {
        return w.pulleyLengthA(joint) + w.pulleyJointDef(joint).ratio * w.pulleyLengthB(joint);
    }
};

TEST(Pulley, LengthSumConservedWithUnequalMasses) {
    for (float ratio : {1.0f, 2.0f}) {
        Pulley p(1.0f, 3.0f * ratio, ratio);
        const float c = p.constant();
        float worst = 0.0f;
        const float yB0 = p.w.position(p.b).y;
        for (int i = 0; i < 60; ++i) {
            p.w.step(kDt);
            worst = std::max(worst, std::fabs(p.total() - c) / c);
        }
        std::printf("[figure] pulley ratio %g: worst |lengthA + ratio lengthB - c| / c = %.2e\n",
                    ratio, worst);
        EXPECT_LT(worst, 0.01f) << ratio;
        // The heavier side went down, the other up, by ratio : 1.
        const float dB = p.w.position(p.b).y - yB0;
        EXPECT_LT(dB, -0.5f) << ratio;
        EXPECT_NEAR(p.w.position(p.a).y, -ratio * dB, 0.01f * ratio * std::fabs(dB)) << ratio;
        // Analytic acceleration of B: g (mB - r mA) / (mB + r² mA) downwards, so
        // after t = 1 s it has dropped g t² (mB - r mA) / (2 (mB + r² mA)).
        const float mA = p.w.mass(p.a), mB = p.w.mass(p.b);
        const float drop = 0.5f * kG * (mB - ratio * mA) / (mB + ratio * ratio * mA);
        std::printf("[figure] pulley ratio %g: drop of B in 1 s %.4f m, analytic %.4f m\n", ratio,
                    -dB, drop);
        EXPECT_NEAR(-dB, drop, 0.02f * drop) << ratio;
    }
}

TEST(Pulley, HoldsBalancedMassesWithTensionMg) {
    for (float ratio : {1.0f, 2.0f}) {
        // Balance: the rope pulls A with T and B with ratio·T, so mB = ratio·mA.
        Pulley p(1.0f, ratio, ratio);
        for (int i = 0; i < 120; ++i) p.w.step(kDt);
        EXPECT_LT(length(p.w.linearVelocity(p.a)), 1e-3f) << ratio;
        EXPECT_LT(length(p.w.linearVelocity(p.b)), 1e-3f) << ratio;
        const float mgB = p.w.mass(p.b) * kG;
        const Vec2 f = p.w.jointReactionForce(p.joint);
        std::printf("[figure] pulley ratio %g at rest: pull on B %.5f N, mB g %.5f N\n", ratio, f.y,
                    mgB);
        EXPECT_NEAR(f.y, mgB, 0.005f * mgB) << ratio;  // ratio × T = mB g, straight up
        EXPECT_NEAR(f.x, 0.0f, 1e-3f * mgB) << ratio;
    }
}

TEST(Pulley, RopeGoesSlackInsteadOfPushing) {
    // Throw A up towards its pulley: the rope must let it go (no push on B).
    Pulley p(1.0f, 1.0f, 1.0f);
    p.w.setLinearVelocity(p.a, {0.0f, 6.0f});
    p.w.step(kDt);
    EXPECT_LT(p.total(), p.constant() - 0.05f);  // slack
    EXPECT_LT(p.w.linearVelocity(p.b).y, 0.0f);  // B falls freely, not lifted
    EXPECT_NEAR(p.w.linearVelocity(p.b).y, -kG * kDt, 1e-3f);
}

TEST(Rope, NeverLongerThanMaxLengthWhileFallingAndSwinging) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 5.0f});
    BodyId bob = addBox(w, {2.0f, 5.0f}, 0.2f, 0.2f);
    RopeJointDef d = w.makeRopeJointDef(ground, bob, {0.0f, 5.0f}, {2.0f, 5.0f});
    d.maxLength = 3.0f;  // starts slack: the bob falls freely first
    JointId rope = w.createJoint(d);
    float longest = 0.0f, shortest = 1e9f, lowest = 1e9f;
    for (int i = 0; i < 300; ++i) {
        w.step(kDt);
        const float len = w.distanceJointLength(rope);
        longest = std::max(longest, len);
        if (i > 120) shortest = std::min(shortest, len);
        lowest = std::min(lowest, w.position(bob).y);
    }
    std::printf("[figure] rope 3 m: longest %.5f m, shortest once taut %.4f m\n", longest,
                shortest);
    EXPECT_LT(longest, 3.0f + 0.01f);  // taut, never stretched beyond a centimetre
    EXPECT_GT(longest, 3.0f - 0.01f);  // and it did go taut
    EXPECT_LT(lowest, 5.0f - 2.9f);    // the bob swung through the bottom
    EXPECT_GT(shortest, 2.9f);         // once taut, a swinging bob keeps the rope taut
}

TEST(Rope, HangingMassTensionIsMg) {
    World w = makeWorld();
    BodyId ground = addStatic(w, {0.0f, 5.0f});
    BodyId bob = addBox(w, {0.0f, 3.0f}, 0.2f, 0.2f);
    JointId rope = w.createJoint(w.makeRopeJointDef(ground, bob, {0.0f, 5.0f}, {0.0f, 3.0f}));
    for (int i = 0; i < 120; ++i) w.step(kDt);
    const float mg = w.mass(bob) * kG;
    std::printf("[figure] rope at rest: tension %.5f N, m g %.5f N\n", w.jointReactionForce(rope).y,
                mg);
    EXPECT_NEAR(w.jointReactionForce(rope).y, mg, 0.005f * mg);
    EXPECT_NEAR(w.distanceJointLength(rope), 2.0f, 0.005f);
    // A rope only pulls: a bob pushed towards the anchor is not held off.
    w.setLinearVelocity(bob, {0.0f, 3.0f});
    w.step(kDt);
    EXPECT_LT(w.distanceJointLength(rope), 2.0f - 0.02f);
    EXPECT_EQ(w.jointReactionForce(rope).y, 0.0f);
}

// All three types together, for determinism.
uint64_t mixedSceneHash(int workers) {
    WorldDef def;
    def.workerCount = workers;
    World w(def);
    BodyId ground = addStatic(w);
    BodyId wa = addBall(w, {0.0f, 2.0f}, 1.0f);
    BodyId wb = addBall(w, {3.0f, 2.0f}, 0.5f);
    RevoluteJointDef ra = w.makeRevoluteJointDef(ground, wa, {0.0f, 2.0f});
    ra.enableMotor = true;
    ra.motorSpeed = 2.0f;
    ra.maxMotorTorque = 50.0f;
    JointId pa = w.createJoint(ra);
    JointId pb = w.createJoint(w.makeRevoluteJointDef(ground, wb, {3.0f, 2.0f}));
    w.createJoint(w.makeGearJointDef(pa, pb, 2.0f));
    BodyId a = addBox(w, {-6.0f, 0.0f}, 0.3f, 0.3f);
    BodyId b = addBox(w, {-4.0f, 0.0f}, 0.4f, 0.4f);
    w.createJoint(w.makePulleyJointDef(a, b, {-6.0f, 5.0f}, {-4.0f, 5.0f}, {-6.0f, 0.0f},
                                       {-4.0f, 0.0f}, 1.5f));
    for (int k = 0; k < 20; ++k) {
        BodyId bob = addBox(w, {8.0f + 1.5f * float(k), 4.0f}, 0.2f, 0.2f);
        RopeJointDef rd =
            w.makeRopeJointDef(ground, bob, {8.0f + 1.5f * float(k) - 1.0f, 5.0f}, w.position(bob));
        rd.maxLength *= 1.2f;
        w.createJoint(rd);
    }
    for (int i = 0; i < 180; ++i) w.step(kDt);
    return w.stateHash();
}

TEST(GearPulleyRope, SameHashAtOneAndTwoWorkers) {
    EXPECT_EQ(mixedSceneHash(1), mixedSceneHash(2));
}

TEST(GearPulleyRope, WarmStepsAllocateNothing) {
    for (int workers : {1, 2}) {
        WorldDef def;
        def.workerCount = workers;
        World w(def);
        BodyId ground = addStatic(w);
        BodyId wa = addBall(w, {0.0f, 2.0f}, 1.0f), wb = addBall(w, {3.0f, 2.0f}, 0.5f);
        RevoluteJointDef ra = w.makeRevoluteJointDef(ground, wa, {0.0f, 2.0f});
        ra.enableMotor = true;
        ra.motorSpeed = 2.0f;
        ra.maxMotorTorque = 50.0f;
        JointId pa = w.createJoint(ra);
        JointId pb = w.createJoint(w.makeRevoluteJointDef(ground, wb, {3.0f, 2.0f}));
        w.createJoint(w.makeGearJointDef(pa, pb, 2.0f));
        BodyId a = addBox(w, {-6.0f, 0.0f}, 0.3f, 0.3f), b = addBox(w, {-4.0f, 0.0f}, 0.4f, 0.4f);
        w.createJoint(w.makePulleyJointDef(a, b, {-6.0f, 5.0f}, {-4.0f, 5.0f}, {-6.0f, 0.0f},
                                           {-4.0f, 0.0f}, 1.5f));
        BodyId bob = addBox(w, {8.0f, 4.0f}, 0.2f, 0.2f);
        w.createJoint(w.makeRopeJointDef(ground, bob, {7.0f, 5.0f}, {8.0f, 4.0f}));
        for (int i = 0; i < 30; ++i) w.step(kDt);
        const long long before = allocationCount();
        for (int i = 0; i < 30; ++i) w.step(kDt);
        EXPECT_EQ(allocationCount(), before) << workers;
    }
}

TEST(GearPulleyRope, RefusalsLeaveTheWorldUnchanged) {
    GearTrain t(2.0f);
    t.w.step(kDt);
    BodyId box = addBox(t.w, {5.0f, 0.0f}, 0.5f, 0.5f);
    JointId dist =
        t.w.createJoint(t.w.makeDistanceJointDef(t.ground, box, {5.0f, 1.0f}, {5.0f, 0.0f}));
    const uint64_t hash = t.w.stateHash();
    const size_t joints = t.w.joints().size();
    auto refused = [&](auto def, ErrorCode code) {
        try {
            t.w.createJoint(def);
            ADD_FAILURE() << "accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), code) << e.what();
        }
        EXPECT_EQ(t.w.stateHash(), hash);
        EXPECT_EQ(t.w.joints().size(), joints);
    };
    GearJointDef g = t.w.makeGearJointDef(t.pinA, t.pinB, 2.0f);
    auto gear = [&](auto change) {
        GearJointDef c = g;
        change(c);
        return c;
    };
    refused(gear([](GearJointDef& c) { c.ratio = 0.0f; }), ErrorCode::InvalidArgument);
    refused(gear([](GearJointDef& c) { c.ratio = std::nanf(""); }), ErrorCode::InvalidArgument);
    refused(gear([](GearJointDef& c) { c.ratio = INFINITY; }), ErrorCode::InvalidArgument);
    refused(gear([](GearJointDef& c) { c.jointB = c.jointA; }), ErrorCode::InvalidArgument);
    refused(gear([](GearJointDef& c) { c.jointB = JointId{}; }), ErrorCode::InvalidArgument);
    refused(gear([&](GearJointDef& c) {
                c.jointB = dist;
                c.bodyB = {};
            }),
            ErrorCode::InvalidArgument);
    refused(gear([&](GearJointDef& c) { c.bodyB = box; }), ErrorCode::InvalidArgument);
    refused(gear([&](GearJointDef& c) {
                c.jointB = t.gear;
                c.bodyB = {};
            }),
            ErrorCode::InvalidArgument);
    {
        JointId stale = t.w.createJoint(t.w.makeRevoluteJointDef(t.ground, box, {5.0f, 0.0f}));
        t.w.destroyJoint(stale);
        refused(gear([&](GearJointDef& c) {
                    c.jointB = stale;
                    c.bodyB = {};
                }),
                ErrorCode::StaleId);
    }
    PulleyJointDef p = t.w.makePulleyJointDef(t.wheelA, box, {0.0f, 6.0f}, {5.0f, 6.0f},
                                              {0.0f, 2.0f}, {5.0f, 0.0f}, 1.0f);
    PulleyJointDef bad = p;
    bad.ratio = 0.0f;
    refused(bad, ErrorCode::InvalidArgument);
    bad = p;
    bad.ratio = -1.0f;
    refused(bad, ErrorCode::InvalidArgument);
    bad = p;
    bad.lengthA = -1.0f;
    refused(bad, ErrorCode::InvalidArgument);
    bad = p;
    bad.groundAnchorB = {2.0f * kMaxCoordinate, 0.0f};
    refused(bad, ErrorCode::InvalidArgument);
    RopeJointDef r = t.w.makeRopeJointDef(t.ground, box, {5.0f, 2.0f}, {5.0f, 0.0f});
    r.maxLength = 0.0f;
    refused(r, ErrorCode::InvalidArgument);
    r.maxLength = std::nanf("");
    refused(r, ErrorCode::InvalidArgument);
    EXPECT_THROW((void)t.w.makeGearJointDef(t.pinA, JointId{}, 1.0f), Error);
}

struct SegmentRecorder : DebugDraw {
    struct Segment {
        Vec2 p1, p2;
        uint32_t color;
    };
    std::vector<Segment> segments;
    void drawSegment(Vec2 p1, Vec2 p2, uint32_t color) override {
        segments.push_back({p1, p2, color});
    }
    bool has(Vec2 p1, Vec2 p2, uint32_t color) const {
        for (const Segment& s : segments)
            if (distance(s.p1, p1) < 1e-4f && distance(s.p2, p2) < 1e-4f && s.color == color)
                return true;
        return false;
    }
};

TEST(GearPulleyRope, DebugDrawShowsRopesAndGears) {
    World w = makeWorld();
    BodyId ground = addStatic(w);
    BodyId wa = addBall(w, {0.0f, 2.0f}, 1.0f), wb = addBall(w, {3.0f, 2.0f}, 0.5f);
    JointId pa = w.createJoint(w.makeRevoluteJointDef(ground, wa, {0.0f, 2.0f}));
    JointId pb = w.createJoint(w.makeRevoluteJointDef(ground, wb, {3.0f, 2.0f}));
    JointId gear = w.createJoint(w.makeGearJointDef(pa, pb, 2.0f));
    BodyId a = addBox(w, {-6.0f, 0.0f}, 0.3f, 0.3f), b = addBox(w, {-4.0f, 0.0f}, 0.3f, 0.3f);
    w.createJoint(w.makePulleyJointDef(a, b, {-6.0f, 5.0f}, {-4.0f, 5.0f}, {-6.0f, 0.3f},
                                       {-4.0f, 0.3f}, 1.0f));
    BodyId bob = addBox(w, {8.0f, 0.0f}, 0.2f, 0.2f);
    RopeJointDef rd = w.makeRopeJointDef(ground, bob, {8.0f, 3.0f}, {8.0f, 0.0f});
    rd.maxLength = 4.0f;  // slack
    JointId rope = w.createJoint(rd);
    DebugDrawFlags f;
    f.shapes = false;
    {
        SegmentRecorder r;
        w.draw(r, f);
        EXPECT_TRUE(r.has(w.position(wa), w.position(wb), colors::kJoint));  // gear
        EXPECT_TRUE(r.has({-6.0f, 5.0f}, {-6.0f, 0.3f}, colors::kJoint));    // pulley, A's rope
        EXPECT_TRUE(r.has({-4.0f, 5.0f}, {-4.0f, 0.3f}, colors::kJoint));    // B's rope
        EXPECT_TRUE(r.has({-6.0f, 5.0f}, {-4.0f, 5.0f}, colors::kJoint));    // over the top
        EXPECT_TRUE(r.has({8.0f, 3.0f}, {8.0f, 0.0f}, colors::kSleeping));   // slack rope, grey
    }
    w.destroyJoint(gear);
    w.destroyJoint(rope);
    rd.maxLength = 3.0f;  // taut
    w.createJoint(rd);
    SegmentRecorder r;
    w.draw(r, f);
    EXPECT_FALSE(r.has(w.position(wa), w.position(wb), colors::kJoint));
    EXPECT_TRUE(r.has({8.0f, 3.0f}, {8.0f, 0.0f}, colors::kJoint));
}

TEST(Gear, DestroyedWithTheJointsItGears) {
    {
        GearTrain t(2.0f);
        t.w.destroyJoint(t.pinB);
        EXPECT_FALSE(t.w.isValid(t.gear));
        EXPECT_TRUE(t.w.isValid(t.pinA));
        EXPECT_EQ(t.w.joints().size(), 1u);
        t.w.step(kDt);  // nothing left reads the dead joint
    }
    {
        GearTrain t(2.0f);
        t.w.destroyJoint(t.pinA);
        EXPECT_FALSE(t.w.isValid(t.gear));
        EXPECT_TRUE(t.w.isValid(t.pinB));
    }
    {
        // The ground holds both geared joints: destroying it takes all three.
        GearTrain t(2.0f);
        t.w.destroyBody(t.ground);
        EXPECT_TRUE(t.w.joints().empty());
        t.w.step(kDt);
    }
    {
        GearTrain t(2.0f);
        t.w.destroyBody(t.wheelB);
        EXPECT_FALSE(t.w.isValid(t.gear));
        EXPECT_FALSE(t.w.isValid(t.pinB));
        EXPECT_TRUE(t.w.isValid(t.pinA));
    }
    {
        // Destroying the gear leaves the joints it geared.
        GearTrain t(2.0f);
        t.w.destroyJoint(t.gear);
        EXPECT_TRUE(t.w.isValid(t.pinA));
        EXPECT_TRUE(t.w.isValid(t.pinB));
        EXPECT_EQ(t.w.joints().size(), 2u);
    }
}

TEST(Gear, DefRoundTripsThroughTheWorld) {
    GearTrain t(-1.5f);
    GearJointDef d = t.w.gearJointDef(t.gear);
    EXPECT_EQ(d.jointA, t.pinA);
    EXPECT_EQ(d.jointB, t.pinB);
    EXPECT_EQ(d.bodyA, t.wheelA);
    EXPECT_EQ(d.bodyB, t.wheelB);
    EXPECT_EQ(d.ratio, -1.5f);
    EXPECT_EQ(t.w.jointType(t.gear), JointType::Gear);
    EXPECT_THROW(t.w.pulleyJointDef(t.gear), Error);
    // Null bodies are filled in from the joints.
    GearJointDef bare;
    bare.jointA = t.pinA;
    bare.jointB = t.pinB;
    JointId second = t.w.createJoint(bare);
    EXPECT_EQ(t.w.jointBodyA(second), t.wheelA);
    EXPECT_EQ(t.w.jointBodyB(second), t.wheelB);
}

}  // namespace
}  // namespace carom::test
