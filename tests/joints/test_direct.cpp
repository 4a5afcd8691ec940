// WorldDef::tuning.enableJointDirectSolve (solver/joint_direct.hpp): joint trees
// solved exactly by a sparse LDLᵀ factorisation, against analytic values,
// the iterative path it replaces, and the engine's contracts (determinism,
// no allocation in a warm step, snapshots).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>
#include <carom/error.hpp>

#include "tests/support/alloc_counter.hpp"
#include "tests/support/fixtures.hpp"

namespace carom::test {
namespace {

constexpr float kG = 10.0f;

// A vertical chain of `links` 1 m links (hx 0.05, density linkDensity) from
// a static anchor at (x, top), a 1 m box of loadDensity at its end. Nothing
// in the chain collides with itself (group -1). Returns the joints, top
// first, and the bodies below the anchor in `bodies`. limit > 0: every
// joint turns at most ±limit rad.
std::vector<JointId> hangChain(World& w, float x, float top, int links, float linkDensity,
                               float loadDensity, std::vector<BodyId>& bodies, float limit = 0.0f) {
    BodyDef anchorDef;
    anchorDef.position = {x, top};
    BodyId prev = w.createBody(anchorDef);
    std::vector<JointId> joints;
    for (int i = 0; i <= links; ++i) {
        const bool load = i == links;
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {x, top - float(i) - 0.5f};
        BodyId b = w.createBody(bd);
        ShapeDef sd;
        sd.density = load ? loadDensity : linkDensity;
        sd.filter.groupIndex = -1;
        w.createShape(b, sd, load ? makeBox(0.5f, 0.5f) : makeBox(0.05f, 0.5f));
        RevoluteJointDef jd = w.makeRevoluteJointDef(prev, b, {x, top - float(i)});
        jd.enableLimit = limit > 0.0f;
        jd.lowerAngle = -limit;
        jd.upperAngle = limit;
        joints.push_back(w.createJoint(jd));
        bodies.push_back(b);
        prev = b;
    }
    return joints;
}

WorldDef directDef(bool on = true) {
    WorldDef def;
    def.enableSleep = false;
    def.tuning.enableJointDirectSolve = on;
    return def;
}

// At rest the force a joint applies to the body below it is the weight of
// everything below: exact in the direct solve (the iterative one converges
// to it only over many steps). 1 kg links, a 100 kg load: no body is
// mass-scaled (h·λ/ℓ stays below a link's mass), so the figures are the
// solver's own.
TEST(JointDirect, HangingChainJointForcesEqualTheWeightBelowEachLink) {
    World w(directDef());
    std::vector<BodyId> bodies;
    const std::vector<JointId> joints = hangChain(w, 0.0f, 20.0f, 10, 20.0f, 100.0f, bodies);
    run(w, 120);
    for (size_t k = 0; k < joints.size(); ++k) {
        float below = 0.0f;
        for (size_t b = k; b < bodies.size(); ++b) below += w.mass(bodies[b]);
        const Vec2 f = w.jointReactionForce(joints[k]);
        EXPECT_NEAR(f.y, kG * below, 1e-4f * kG * below) << "joint " << k;
        EXPECT_NEAR(f.x, 0.0f, 1e-4f * kG * below) << "joint " << k;
    }
}

// The chain_load scene: a 1 kg chain of ten links holds 1e6 kg within 2 %
// of its 10 m length (the iterative solver lets the load fall freely); the
// top joint carries the whole weight to 1 % (the light links are
// mass-scaled, which adds at most their scaled masses: ~7e-4 here).
TEST(JointDirect, LightChainHoldsAMillionTimesItsMass) {
    World w(directDef());
    std::vector<BodyId> bodies;
    const std::vector<JointId> joints = hangChain(w, 0.0f, 20.0f, 10, 1.0f, 1e6f, bodies);
    const BodyId load = bodies.back();
    float worst = 0.0f;
    for (int i = 0; i < 300; ++i) {
        w.step(kDt);
        const float top = w.worldPoint(load, {0.0f, 0.5f}).y;
        worst = std::max(worst, std::fabs((20.0f - top) - 10.0f));
    }
    EXPECT_LT(worst, 0.2f);
    const float weight = kG * (w.mass(load) + 10.0f * w.mass(bodies[0]));
    EXPECT_NEAR(w.jointReactionForce(joints[0]).y, weight, 0.01f * weight);

    World off(directDef(false));
    std::vector<BodyId> offBodies;
    hangChain(off, 0.0f, 20.0f, 10, 1.0f, 1e6f, offBodies);
    run(off, 300);
    EXPECT_GT(20.0f - off.worldPoint(offBodies.back(), {0.0f, 0.5f}).y, 11.0f)
        << "the iterative path holds it now";
}

// A chain of 0.1 kg links with a limit on every joint (±0.3 rad) holding a
// 100 kg box (1000 times a link) started at 3 m/s sideways, so that it
// swings against the limits: the direct solve takes the joints, their
// limit rows with the tree's exact response to each joint's turn
// (JointDirect::solveTurns). The pins hold (0.2 mm of stretch) and every
// joint stays within its limit; with every joint iterative the chain
// stretches 2.8 m. (At 10 000 times the limits give way in both: the limit
// rows are solved one joint after another, once a pass; docs/solver.md,
// "Joint trees solved exactly".)
TEST(JointDirect, LimitedChainHoldsAThousandTimesItsMassWithinItsLimits) {
    auto swing = [](bool direct, float& worstAngle) {
        World w(directDef(direct));
        std::vector<BodyId> bodies;
        const std::vector<JointId> joints =
            hangChain(w, 0.0f, 20.0f, 10, 1.0f, 100.0f, bodies, 0.3f);
        w.setLinearVelocity(bodies.back(), {3.0f, 0.0f});
        float worstStretch = 0.0f;
        worstAngle = 0.0f;
        for (int i = 0; i < 300; ++i) {
            w.step(kDt);
            const float length =
                distance(w.worldPoint(bodies.back(), {0.0f, 0.5f}), Vec2{0.0f, 20.0f});
            worstStretch = std::max(worstStretch, length - 10.0f);
            for (JointId j : joints)
                worstAngle = std::max(worstAngle, std::fabs(w.revoluteAngle(j)));
        }
        return worstStretch;
    };
    float angle = 0.0f, offAngle = 0.0f;
    EXPECT_LT(swing(true, angle), 0.01f);
    EXPECT_LT(angle, 0.3f + 0.02f);
    EXPECT_GT(swing(false, offAngle), 1.0f) << "the iterative path holds it now";
}

// A cantilever of five welded boxes from a wall, a box 1000 times as dense
// welded at its tip: rigid welds solved exactly barely sag.
TEST(JointDirect, WeldedCantileverHoldsAHeavyTip) {
    World w(directDef());
    BodyId prev = addStatic(w, {0.0f, 10.0f});
    BodyId tip;
    for (int i = 0; i < 6; ++i) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {0.5f + float(i), 10.0f};
        tip = w.createBody(bd);
        ShapeDef sd;
        sd.density = i == 5 ? 1000.0f : 1.0f;
        sd.filter.groupIndex = -1;
        w.createShape(tip, sd, makeBox(0.5f, 0.1f));
        w.createJoint(w.makeWeldJointDef(prev, tip, {float(i), 10.0f}));
        prev = tip;
    }
    run(w, 180);
    EXPECT_LT(10.0f - w.position(tip).y, 0.01f);
    EXPECT_LT(length(w.linearVelocity(tip)), 0.01f);
}

// Joints in a loop are left to the iterative path: a closed square of four
// links steps bit for bit as with the switch off.
TEST(JointDirect, LoopsFallBackToTheIterativeSolver) {
    auto hash = [](bool on) {
        World w(directDef(on));
        addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f);
        const Vec2 corners[4] = {{0.0f, 5.0f}, {2.0f, 5.0f}, {2.0f, 7.0f}, {0.0f, 7.0f}};
        BodyId links[4];
        for (int i = 0; i < 4; ++i) {
            const Vec2 a = corners[i], b = corners[(i + 1) % 4];
            links[i] =
                addBox(w, 0.5f * (a + b), a.x == b.x ? 0.1f : 1.0f, a.x == b.x ? 1.0f : 0.1f);
        }
        for (int i = 0; i < 4; ++i)
            w.createJoint(
                w.makeRevoluteJointDef(links[i], links[(i + 1) % 4], corners[(i + 1) % 4]));
        run(w, 120);
        return w.stateHash();
    };
    EXPECT_EQ(hash(true), hash(false));
}

// Trees among contacts (chains with a pile of boxes on their loads), two of
// them and a loop: the same state at 1 and 2 workers and with either
// broadphase, and a warm step allocates nothing.
TEST(JointDirect, DeterministicAndAllocationFreeAtOneAndTwoWorkers) {
    auto build = [](World& w) {
        addGround(w, {0.0f, -0.5f}, 30.0f, 0.5f);
        std::vector<BodyId> bodies;
        hangChain(w, -5.0f, 12.0f, 6, 1.0f, 1e4f, bodies);
        hangChain(w, 5.0f, 12.0f, 8, 1.0f, 50.0f, bodies);
        for (int i = 0; i < 12; ++i)
            addBox(w, {-6.0f + float(i % 4) * 0.6f + 0.1f * float(i / 4), 7.0f + float(i / 4)},
                   0.25f, 0.25f);
        addLinkChain(w, {-20.0f, 10.0f}, 6);
    };
    uint64_t reference = 0;
    for (int variant = 0; variant < 3; ++variant) {
        WorldDef def = directDef();
        def.workerCount = variant == 1 ? 2 : 1;
        def.broadphase = variant == 2 ? BroadphaseType::SortAndSweep : BroadphaseType::Tree;
        World w(def);
        build(w);
        run(w, 120);
        if (variant == 0)
            reference = w.stateHash();
        else
            EXPECT_EQ(w.stateHash(), reference) << "variant " << variant;
    }
    // Allocation: the pile above still makes new contacts now and then
    // (as it does with the switch off), so two chains alone.
    for (int workers : {1, 2}) {
        WorldDef def = directDef();
        def.workerCount = workers;
        World w(def);
        std::vector<BodyId> bodies;
        hangChain(w, -5.0f, 12.0f, 6, 1.0f, 1e4f, bodies);
        hangChain(w, 5.0f, 12.0f, 8, 1.0f, 50.0f, bodies);
        w.setLinearVelocity(bodies.back(), {3.0f, 0.0f});
        run(w, 30);
        const long long before = allocationCount();
        run(w, 30);
        EXPECT_EQ(allocationCount(), before) << workers;
    }
}

// The switch is part of the world a snapshot fits: restoring into a world
// with it the other way is refused, and the byte form carries it.
TEST(JointDirect, SnapshotsCarryTheSwitch) {
    World on(directDef());
    std::vector<BodyId> bodies;
    hangChain(on, 0.0f, 20.0f, 3, 1.0f, 10.0f, bodies);
    run(on, 10);
    const Snapshot snap = on.snapshot();
    World off(directDef(false));
    EXPECT_THROW(off.restore(snap), Error);
    World again(directDef());
    again.restore(snap);
    run(on, 20);
    run(again, 20);
    EXPECT_EQ(again.stateHash(), on.stateHash());
}

// Box2D v3's "falling hinges" determinism scene (shared/determinism.c): 4
// columns of 30 rounded boxes on a ground box, each column's boxes joined
// in pairs by a revolute. Its joints have a limit and a spring; `hinge`
// picks those features; `perturb` turns body i by a further perturb·(i+1)
// radians. Returns the step (from 1) at which every body sleeps, or 0 if
// they are still awake after `maxSteps`; `hash` gets the state hash then.
enum class Hinge { LimitAndSpring, Limit, Spring, Motor, Free };

int fallingHingesSleepStep(bool direct, Hinge hinge, int workers, uint64_t& hash,
                           int maxSteps = 2000, float perturb = 0.0f) {
    WorldDef def;
    def.tuning.enableJointDirectSolve = direct;
    def.workerCount = workers;
    World w(def);
    addGround(w, {0.0f, -1.0f}, 20.0f, 1.0f, 0.0f);
    constexpr int kColumns = 4, kRows = 30;
    constexpr float h = 0.25f, r = 0.1f * h, offset = 0.4f * h, dx = 10.0f * h, pi = 3.14159265f;
    for (int j = 0; j < kColumns; ++j) {
        BodyId prev{};
        for (int i = 0; i < kRows; ++i) {
            BodyDef bd;
            bd.type = BodyType::Dynamic;
            bd.position = {-0.5f * dx * float(kColumns - 1) + dx * float(j) + offset * float(i),
                           h + 2.0f * h * float(i)};
            bd.angle = 0.1f * float(i) - 1.0f + perturb * float(i + 1);
            const BodyId b = w.createBody(bd);
            ShapeDef sd;
            sd.friction = 0.3f;
            w.createShape(b, sd, makeRoundedBox(h - r, h - r, r));
            if (i % 2 == 0) {
                prev = b;
                continue;
            }
            RevoluteJointDef jd;
            jd.bodyA = prev;
            jd.bodyB = b;
            jd.localAnchorA = {h, h};
            jd.localAnchorB = {offset, -h};
            jd.enableLimit = hinge == Hinge::LimitAndSpring || hinge == Hinge::Limit;
            jd.lowerAngle = -0.1f * pi;
            jd.upperAngle = 0.2f * pi;
            jd.enableSpring = hinge == Hinge::LimitAndSpring || hinge == Hinge::Spring;
            jd.hertz = 0.5f;
            jd.dampingRatio = 0.5f;
            jd.enableMotor = hinge == Hinge::Motor;
            jd.maxMotorTorque = 0.5f;  // a joint friction
            w.createJoint(jd);
        }
    }
    for (int step = 1; step <= maxSteps; ++step) {
        w.step(kDt);
        if (w.counters().awakeBodies == 0) {
            hash = w.stateHash();
            return step;
        }
    }
    return 0;
}

// Hinged piles fall asleep as soon with the joint direct solve as without
// it. A revolute with a limit, motor or spring once had only its pin in the
// direct solve, its angular rows left to the iterative passes: the pin's
// impulse was written into a copy the store stage never read, so each step
// started the pin cold, and the rows, turning the two bodies alone, fought
// the pin. Box2D's scene never slept (the fastest body at 0.09 m/s after
// 5 000 steps; Box2D itself sleeps at step 274). Now every kind of hinge
// sleeps within half as long again as with every joint iterative, and the
// same at 1 and 3 workers.
//
// Free hinges are judged over eight starts a micro-radian apart: where the
// pile ends with a body hanging from a free hinge, that body swings as a
// pendulum with nothing to damp it, in either solve, and whether a start
// ends so is chaotic. The direct solve must settle about as many of the
// starts, as soon (the defect left every start awake for 2 500 steps).
TEST(JointDirect, FallingHingesSleepAsSoonAsWithTheIterativeSolve) {
    const char* names[] = {"limit and spring", "limit", "spring", "motor"};
    for (Hinge hinge : {Hinge::LimitAndSpring, Hinge::Limit, Hinge::Spring, Hinge::Motor}) {
        uint64_t hash = 0, iterativeHash = 0;
        const int direct = fallingHingesSleepStep(true, hinge, 1, hash);
        const int iterative = fallingHingesSleepStep(false, hinge, 1, iterativeHash);
        std::printf("[ hinges   ] %s: asleep at step %d (every joint iterative: %d)\n",
                    names[int(hinge)], direct, iterative);
        ASSERT_GT(iterative, 0) << names[int(hinge)];
        EXPECT_GT(direct, 0) << names[int(hinge)] << ": still awake";
        EXPECT_LE(direct, iterative * 3 / 2) << names[int(hinge)];
    }
    auto settled = [](bool direct) {
        std::vector<int> steps;
        for (int k = 0; k < 8; ++k) {
            uint64_t hash = 0;
            const int s =
                fallingHingesSleepStep(direct, Hinge::Free, 1, hash, 2000, float(k) * 1.0e-6f);
            if (s > 0) steps.push_back(s);
        }
        std::sort(steps.begin(), steps.end());
        return steps;
    };
    const std::vector<int> direct = settled(true), iterative = settled(false);
    ASSERT_GE(iterative.size(), 4u);
    EXPECT_GE(direct.size() + 2, iterative.size())
        << "free: fewer starts settle with the direct solve";
    ASSERT_FALSE(direct.empty());
    const int directMedian = direct[direct.size() / 2],
              iterativeMedian = iterative[iterative.size() / 2];
    std::printf(
        "[ hinges   ] free: %zu of 8 starts asleep, median step %d (every joint iterative: %zu, "
        "%d)\n",
        direct.size(), directMedian, iterative.size(), iterativeMedian);
    EXPECT_LE(directMedian, iterativeMedian * 3 / 2);
    uint64_t one = 0, three = 0;
    const int sleepOne = fallingHingesSleepStep(true, Hinge::LimitAndSpring, 1, one);
    EXPECT_EQ(fallingHingesSleepStep(true, Hinge::LimitAndSpring, 3, three), sleepOne);
    EXPECT_EQ(three, one);
}

// A 1 kg box hanging from a pin reports its weight as the pin's force, and
// a force threshold of 0.9 of it raises a joint event, whatever the pin has:
// nothing, a limit, a motor or a spring. With a limit, motor or spring the
// force once read 0 N (the pin's impulse went to a copy that was never
// stored) and the joint never broke.
TEST(JointDirect, PinReportsTheWeightItHoldsWithALimitMotorOrSpring) {
    const char* names[] = {"plain", "limit", "motor", "spring"};
    for (int kind = 0; kind < 4; ++kind) {
        World w(directDef());
        const BodyId anchor = addStatic(w, {0.0f, 10.0f});
        const BodyId box = addBox(w, {0.0f, 9.0f}, 0.5f, 0.5f);  // 1 kg
        RevoluteJointDef jd = w.makeRevoluteJointDef(anchor, box, {0.0f, 10.0f});
        jd.enableLimit = kind == 1;
        jd.lowerAngle = -0.5f;
        jd.upperAngle = 0.5f;
        jd.enableMotor = kind == 2;
        jd.maxMotorTorque = 10.0f;
        jd.enableSpring = kind == 3;
        jd.hertz = 2.0f;
        jd.dampingRatio = 0.5f;
        const float weight = kG * w.mass(box);
        jd.forceThreshold = 0.9f * weight;
        const JointId pin = w.createJoint(jd);
        int events = 0;
        for (int i = 0; i < 60; ++i) {
            w.step(kDt);
            events += int(w.jointEvents().size());
        }
        const float ratio = length(w.jointConstraintForce(pin)) / weight;
        std::printf("[ pin      ] %s: force / m g = %.7f\n", names[kind], double(ratio));
        EXPECT_NEAR(ratio, 1.0f, 1e-4f) << names[kind];
        EXPECT_EQ(events, 60) << names[kind];
    }
}

// Three small heavy boxes each on a 1 m stick, joined end to end, every
// joint locked (lower = upper) and started half a radian from its lock.
// With the pins in the direct solve and the locks' rows iterative, each
// lock's row, turning only its two bodies, threw them off the pins of their
// other joints and the next row pushed back harder: the impulses grew a
// hundredfold a pass, to inf and NaN, and the step's guard froze the
// chain. Now each row has its exact response in the tree: nothing is lost
// to the guard, and every joint comes to its lock.
TEST(JointDirect, LockedJointsSideBySideComeToTheirLocks) {
    World w(directDef());
    BodyId prev = addStatic(w, {0.0f, 10.0f});
    Vec2 pin{0.0f, 10.0f};
    std::vector<JointId> joints;
    for (int i = 0; i < 3; ++i) {
        const float angle = 0.5f * float(i);
        const Vec2 dir{std::cos(angle), std::sin(angle)};
        const BodyId b = addBox(w, pin + dir, 0.1f, 0.1f, angle, 25.0f);
        RevoluteJointDef jd = w.makeRevoluteJointDef(prev, b, pin);
        jd.referenceAngle = 0.0f;
        jd.enableLimit = true;
        jd.lowerAngle = jd.upperAngle = i == 0 ? 0.0f : -0.1f;
        joints.push_back(w.createJoint(jd));
        prev = b;
        pin = pin + dir;
    }
    run(w, 300);
    EXPECT_EQ(w.counters().nonFiniteBodies, 0);
    for (size_t i = 0; i < joints.size(); ++i)
        EXPECT_NEAR(w.revoluteAngle(joints[i]), i == 0 ? 0.0f : -0.1f, 0.01f) << "joint " << i;
}

// Two wheels of 1 m, each pinned at its centre to a static axle 6 m from
// the other, joined by a rope of 3 m from a's centre to a point on b's rim
// (or a distance joint of 3 m): a rope they can never satisfy, which pulls
// each pin hard. Each wheel is a tree of one body; its pin once mass-scaled
// it from the pin's impulse, which the rope's pull, taken back at the
// scaled mass, grew substep after substep to inf and NaN: the step's guard
// then froze b for good (its velocity zero, the joints' warm impulses NaN).
// Now the pins hold, b keeps turning under the rope, and nothing is NaN.
void pinnedWheelsUnderAnImpossibleLink(bool rope) {
    World w(directDef());
    BodyId wheels[2];
    const Vec2 centres[2] = {{0.0f, 5.0f}, {6.0f, 5.0f}};
    for (int i = 0; i < 2; ++i) {
        wheels[i] = addBall(w, centres[i], 1.0f);
        w.createJoint(w.makeRevoluteJointDef(addStatic(w, centres[i]), wheels[i], centres[i]));
    }
    if (rope) {
        RopeJointDef jd = w.makeRopeJointDef(wheels[0], wheels[1], centres[0], {6.0f, 5.5f});
        jd.maxLength = 3.0f;
        w.createJoint(jd);
    } else {
        DistanceJointDef jd =
            w.makeDistanceJointDef(wheels[0], wheels[1], centres[0], {6.0f, 5.5f});
        jd.length = 3.0f;
        w.createJoint(jd);
    }
    bool turning = true;
    for (int i = 0; i < 300; ++i) {
        w.step(kDt);
        const float spin = w.angularVelocity(wheels[1]);
        turning = turning && std::isfinite(spin) && spin != 0.0f;
    }
    EXPECT_TRUE(turning) << "b was stopped";
    for (const WarmJoint& j : w.warmState().joints) {
        EXPECT_TRUE(std::isfinite(j.linearImpulse.x) && std::isfinite(j.linearImpulse.y) &&
                    std::isfinite(j.springImpulse) && std::isfinite(j.upperImpulse));
    }
    for (int i = 0; i < 2; ++i)
        EXPECT_LT(distance(w.position(wheels[i]), centres[i]), 1e-3f) << "pin " << i;
    EXPECT_EQ(w.counters().nonFiniteBodies, 0);
}

TEST(JointDirect, PinnedWheelsUnderAnImpossibleRopeStayFinite) {
    pinnedWheelsUnderAnImpossibleLink(true);
}
TEST(JointDirect, PinnedWheelsUnderAnImpossibleDistanceJointStayFinite) {
    pinnedWheelsUnderAnImpossibleLink(false);
}

}  // namespace
}  // namespace carom::test
