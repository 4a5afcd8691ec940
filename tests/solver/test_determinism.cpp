// Determinism (bit-identical state across runs, broadphase structures and
// worker counts), allocation-free steps, and world queries against brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <vector>

#include "solver/graph_color.hpp"
#include "solver/wide_contact.hpp"
#include "tests/support/alloc_counter.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::kDt;

// A busy scene: a pyramid, a rain of mixed shapes, a pendulum chain, a
// bullet, a kinematic paddle and a sensor.
void buildScene(World& w, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    test::addGround(w, {0.0f, -0.5f}, 40.0f, 0.5f);
    for (int row = 0; row < 8; ++row)
        for (int i = 0; i < 8 - row; ++i)
            test::addBox(w, {-10.0f + (float(i) - 0.5f * float(7 - row)) * 1.0f, 0.5f + float(row)},
                         0.5f, 0.5f);
    for (int i = 0; i < 40; ++i) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {8.0f * u(rng), 6.0f + 10.0f * (u(rng) + 1.0f)};
        bd.angle = 3.0f * u(rng);
        BodyId b = w.createBody(bd);
        ShapeDef sd;
        sd.restitution = 0.3f * (u(rng) + 1.0f);
        switch (i % 3) {
            case 0:
                w.createShape(b, sd, Circle{{0.0f, 0.0f}, 0.3f + 0.1f * u(rng)});
                break;
            case 1:
                w.createShape(b, sd, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.2f});
                break;
            default:
                w.createShape(b, sd, makeBox(0.3f + 0.1f * u(rng), 0.2f));
                break;
        }
    }
    test::addLinkChain(w, {20.0f, 10.0f}, 6);
    BodyDef bb;
    bb.type = BodyType::Dynamic;
    bb.isBullet = true;
    bb.position = {-30.0f, 2.0f};
    bb.linearVelocity = {150.0f, 0.0f};
    w.createShape(w.createBody(bb), ShapeDef{}, Circle{{0.0f, 0.0f}, 0.1f});
    BodyDef kd;
    kd.type = BodyType::Kinematic;
    kd.position = {0.0f, 3.0f};
    kd.angularVelocity = 1.0f;
    w.createShape(w.createBody(kd), ShapeDef{}, makeBox(3.0f, 0.1f));
    ShapeDef sensor;
    sensor.isSensor = true;
    w.createShape(w.createBody(BodyDef{}), sensor, makeOffsetBox(5.0f, 5.0f, {0.0f, 5.0f}, 0.0f));
}

uint64_t runScene(const WorldDef& def, int steps) {
    World w(def);
    buildScene(w, 1234u);
    for (int i = 0; i < steps; ++i) w.step(kDt);
    return w.stateHash();
}

TEST(Determinism, SameSceneSameHash) {
    WorldDef def;
    const uint64_t a = runScene(def, 240);
    const uint64_t b = runScene(def, 240);
    EXPECT_EQ(a, b);
}

TEST(Determinism, TreeAndSortAndSweepAgree) {
    WorldDef tree;
    WorldDef sap;
    sap.broadphase = BroadphaseType::SortAndSweep;
    EXPECT_EQ(runScene(tree, 240), runScene(sap, 240));
}

TEST(Determinism, WorkerCountDoesNotMatter) {
    WorldDef one;
    WorldDef two;
    two.workerCount = 2;
    WorldDef three;
    three.workerCount = 3;
    const uint64_t h1 = runScene(one, 240);
    EXPECT_EQ(h1, runScene(two, 240));
    EXPECT_EQ(h1, runScene(three, 240));
}

// Sixty-four small boxes fired at a thin wall: every step has more fast
// bodies than the continuous stage hands to its workers in parts
// (continuous.cpp), and none may pass the wall whatever the worker count.
TEST(Determinism, ManyFastBodiesAnyWorkerCount) {
    auto run = [](int workers) {
        WorldDef def;
        def.workerCount = workers;
        def.gravity = {0.0f, 0.0f};
        World w(def);
        test::addGround(w, {10.0f, 0.0f}, 0.05f, 40.0f);
        std::vector<BodyId> shots;
        for (int i = 0; i < 64; ++i) {
            BodyDef bd;
            bd.type = BodyType::Dynamic;
            bd.position = {0.0f, -32.0f + float(i)};
            bd.angle = 0.1f * float(i);
            bd.linearVelocity = {250.0f + float(i), 3.0f * float(i % 5)};
            bd.angularVelocity = float(i % 7);
            shots.push_back(w.createBody(bd));
            w.createShape(shots.back(), ShapeDef{}, makeBox(0.1f, 0.1f));
        }
        for (int s = 0; s < 30; ++s) w.step(kDt);
        for (BodyId b : shots) EXPECT_LT(w.position(b).x, 10.0f);
        return w.stateHash();
    };
    const uint64_t h1 = run(1);
    EXPECT_EQ(h1, run(2));
    EXPECT_EQ(h1, run(3));
}

// The wide contact solver gives the same bits at every width (1, 4, 8
// lanes) and worker count; AVX2 only where the CPU has it.
TEST(Determinism, SimdWidthDoesNotMatter) {
    std::vector<SimdWidth> widths{SimdWidth::Scalar, SimdWidth::SSE2};
    if (detail::cpuHasAvx2()) widths.push_back(SimdWidth::AVX2);
    WorldDef ref;
    ref.simdWidth = SimdWidth::Scalar;
    const uint64_t h = runScene(ref, 240);
    for (SimdWidth width : widths)
        for (int workers : {1, 2, 3}) {
            WorldDef def;
            def.simdWidth = width;
            def.workerCount = workers;
            EXPECT_EQ(h, runScene(def, 240)) << int(width) << " " << workers;
        }
}

// A pyramid (mostly two-point manifolds through the block solver) at every
// width and with two workers.
TEST(Determinism, SimdWidthDoesNotMatterOnAPyramid) {
    auto pyramid = [](SimdWidth width, int workers) {
        WorldDef def;
        def.simdWidth = width;
        def.workerCount = workers;
        World w(def);
        test::addGround(w, {0.0f, -0.5f}, 40.0f, 0.5f);
        for (int row = 0; row < 20; ++row)
            for (int i = 0; i < 20 - row; ++i)
                test::addBox(w, {(float(i) - 0.5f * float(19 - row)) * 1.0f, 0.5f + float(row)},
                             0.5f, 0.5f);
        for (int i = 0; i < 240; ++i) w.step(kDt);
        return w.stateHash();
    };
    const uint64_t h = pyramid(SimdWidth::Scalar, 1);
    EXPECT_EQ(h, pyramid(SimdWidth::SSE2, 1));
    EXPECT_EQ(h, pyramid(SimdWidth::SSE2, 2));
    if (detail::cpuHasAvx2()) {
        EXPECT_EQ(h, pyramid(SimdWidth::AVX2, 1));
        EXPECT_EQ(h, pyramid(SimdWidth::AVX2, 2));
    }
}

// Joints coloured with the contacts (graph_color.hpp): a joint grid (the
// shape of bench/scenes/joint_grid.json, 1 000 bodies, ~1 950 revolute
// joints in a few colours, each cut into many blocks) with boxes falling on
// it, so colours hold joints and contacts together.
uint64_t jointGridHash(int workers, BroadphaseType broadphase, int steps) {
    WorldDef def;
    def.workerCount = workers;
    def.broadphase = broadphase;
    def.enableSleep = false;
    World w(def);
    test::addGround(w, {20.0f, -30.0f}, 40.0f, 0.5f);
    const BodyId anchor = w.createBody(BodyDef{});
    constexpr int kColumns = 40, kRows = 25;
    std::vector<BodyId> grid(size_t(kColumns * kRows));
    ShapeDef node;
    node.filter.categoryBits = 2;
    node.filter.maskBits = ~2ull;  // the grid's circles do not collide with each other
    for (int i = 0; i < kColumns; ++i)
        for (int j = 0; j < kRows; ++j) {
            BodyDef bd;
            bd.type = BodyType::Dynamic;
            bd.position = {float(i), -float(j)};
            const BodyId b = w.createBody(bd);
            w.createShape(b, node, Circle{{0.0f, 0.0f}, 0.4f});
            grid[size_t(i * kRows + j)] = b;
            if (j == 0 && i % 8 == 0)
                w.createJoint(w.makeRevoluteJointDef(anchor, b, {float(i), 0.5f}));
            if (i > 0)
                w.createJoint(w.makeRevoluteJointDef(grid[size_t((i - 1) * kRows + j)], b,
                                                     {float(i) - 0.5f, -float(j)}));
            if (j > 0)
                w.createJoint(w.makeRevoluteJointDef(grid[size_t(i * kRows + j - 1)], b,
                                                     {float(i), 0.5f - float(j)}));
        }
    for (int k = 0; k < 30; ++k)
        test::addBox(w, {1.0f + 1.3f * float(k), 3.0f + float(k % 3)}, 0.3f, 0.3f);
    for (int i = 0; i < steps; ++i) w.step(kDt);
    return w.stateHash();
}

TEST(Determinism, JointGridSameBitsForAnyWorkerCountAndBroadphase) {
    const uint64_t h = jointGridHash(1, BroadphaseType::Tree, 90);
    for (int workers : {1, 2, 3}) {
        EXPECT_EQ(h, jointGridHash(workers, BroadphaseType::Tree, 90))
            << workers << " workers, tree";
        EXPECT_EQ(h, jointGridHash(workers, BroadphaseType::SortAndSweep, 90))
            << workers << " workers, sap";
    }
}

// Every joint type among contacts: a kinematic body held by joints and
// touched by boxes (its state is only read), a hub with 30 joints (more
// than kGraphColors: some go to the overflow colour), a gear and a pulley,
// a mouse joint, and bodies resting on the ground.
uint64_t jointZooHash(int workers, BroadphaseType broadphase, int steps) {
    WorldDef def;
    def.workerCount = workers;
    def.broadphase = broadphase;
    World w(def);
    const BodyId ground = test::addGround(w, {0.0f, -0.5f}, 60.0f, 0.5f);
    // Hub and spokes: 30 ropes and distance joints on one body.
    const BodyId hub = test::addBox(w, {0.0f, 8.0f}, 0.5f, 0.5f);
    w.createJoint(w.makeRevoluteJointDef(ground, hub, {0.0f, 8.0f}));
    for (int k = 0; k < 30; ++k) {
        const float a = 2.0f * kPi * float(k) / 30.0f;
        const Vec2 p{3.0f * std::cos(a), 8.0f + 3.0f * std::sin(a)};
        const BodyId spoke = test::addBall(w, p, 0.2f);
        if (k % 2 == 0)
            w.createJoint(w.makeDistanceJointDef(hub, spoke, {0.0f, 8.0f}, p));
        else
            w.createJoint(w.makeRopeJointDef(hub, spoke, {0.0f, 8.0f}, p));
    }
    // A kinematic paddle turning on a pin, with a box hanging from it and
    // boxes landing on it.
    BodyDef kd;
    kd.type = BodyType::Kinematic;
    kd.position = {15.0f, 4.0f};
    kd.angularVelocity = 0.7f;
    const BodyId paddle = w.createBody(kd);
    w.createShape(paddle, ShapeDef{}, makeBox(3.0f, 0.2f));
    for (int k = 0; k < 4; ++k) {
        const BodyId b = test::addBox(w, {13.5f + float(k), 2.5f}, 0.3f, 0.3f);
        w.createJoint(w.makeWeldJointDef(paddle, b, {13.5f + float(k), 2.8f}));
    }
    for (int k = 0; k < 6; ++k)
        test::addBox(w, {13.0f + float(k), 6.0f + float(k % 2)}, 0.25f, 0.25f);
    // Prismatic with limit and motor, wheel, motor joint, mouse.
    const BodyId slider = test::addBox(w, {-15.0f, 2.0f}, 1.0f, 0.25f);
    PrismaticJointDef pd = w.makePrismaticJointDef(ground, slider, {-15.0f, 2.0f}, {1.0f, 0.0f});
    pd.enableLimit = true;
    pd.lowerTranslation = -3.0f;
    pd.upperTranslation = 3.0f;
    pd.enableMotor = true;
    pd.motorSpeed = 2.0f;
    pd.maxMotorForce = 500.0f;
    w.createJoint(pd);
    const BodyId chassis = test::addBox(w, {-25.0f, 2.0f}, 1.5f, 0.3f);
    for (float dx : {-1.0f, 1.0f}) {
        const BodyId wheel = test::addBall(w, {-25.0f + dx, 1.0f}, 0.5f);
        WheelJointDef wd = w.makeWheelJointDef(chassis, wheel, {-25.0f + dx, 1.0f}, {0.0f, 1.0f});
        wd.enableMotor = true;
        wd.motorSpeed = -4.0f;
        wd.maxMotorTorque = 50.0f;
        w.createJoint(wd);
    }
    const BodyId carried = test::addBox(w, {-25.0f, 3.0f}, 0.3f, 0.3f);
    MotorJointDef md = w.makeMotorJointDef(chassis, carried);
    md.maxForce = 200.0f;
    md.maxTorque = 50.0f;
    w.createJoint(md);
    const BodyId dragged = test::addBall(w, {25.0f, 1.0f}, 0.4f);
    MouseJointDef mouse = w.makeMouseJointDef(ground, dragged, {27.0f, 4.0f});
    mouse.maxForce = 300.0f;
    w.createJoint(mouse);
    // A gear between two pinned wheels, and a pulley.
    const BodyId gearA = test::addBall(w, {30.0f, 6.0f}, 1.0f);
    const BodyId gearB = test::addBall(w, {33.0f, 6.0f}, 0.5f);
    RevoluteJointDef ra = w.makeRevoluteJointDef(ground, gearA, {30.0f, 6.0f});
    ra.enableMotor = true;
    ra.motorSpeed = 2.0f;
    ra.maxMotorTorque = 100.0f;
    const JointId pinA = w.createJoint(ra);
    const JointId pinB = w.createJoint(w.makeRevoluteJointDef(ground, gearB, {33.0f, 6.0f}));
    w.createJoint(w.makeGearJointDef(pinA, pinB, -2.0f));
    const BodyId left = test::addBox(w, {38.0f, 4.0f}, 0.4f, 0.4f);
    const BodyId right = test::addBox(w, {42.0f, 4.0f}, 0.5f, 0.5f);
    w.createJoint(w.makePulleyJointDef(left, right, {38.0f, 9.0f}, {42.0f, 9.0f}, {38.0f, 4.0f},
                                       {42.0f, 4.0f}, 1.0f));
    for (int i = 0; i < steps; ++i) w.step(kDt);
    return w.stateHash();
}

TEST(Determinism, EveryJointTypeSameBitsForAnyWorkerCountAndBroadphase) {
    const uint64_t h = jointZooHash(1, BroadphaseType::Tree, 180);
    for (int workers : {1, 2, 3}) {
        EXPECT_EQ(h, jointZooHash(workers, BroadphaseType::Tree, 180))
            << workers << " workers, tree";
        EXPECT_EQ(h, jointZooHash(workers, BroadphaseType::SortAndSweep, 180))
            << workers << " workers, sap";
    }
}

// The colouring against brute force: in each colour no body is written by
// two constraints; a constraint is in the overflow only when it asked for it
// or each of the kGraphColors colours already held one of its bodies; the
// sort keeps each colour's constraints in their order.
TEST(GraphColor, ColoursShareNoBodyAndOverflowOnlyWhenFull) {
    std::mt19937 rng(5);
    constexpr int kBodies = 60;
    std::uniform_int_distribution<int> body(-8, kBodies - 1);  // negatives: a side that cannot move
    std::vector<detail::ColorBodies> joints(150), contacts(400);
    for (auto* list : {&joints, &contacts})
        for (detail::ColorBodies& c : *list) {
            c.a = std::max(body(rng), -1);
            c.b = std::max(body(rng), -1);
            c.overflow = list == &joints && rng() % 40 == 0;
        }
    // A hub with 40 constraints overflows.
    for (int k = 0; k < 40; ++k) contacts[size_t(k)] = {3, 10 + k % 50, false};

    std::vector<uint32_t> masks(kBodies, 0u);
    std::vector<uint8_t> jointColors(joints.size()), contactColors(contacts.size());
    detail::assignColors(joints, masks, jointColors);
    detail::assignColors(contacts, masks, contactColors);

    std::vector<detail::ColorBodies> all(joints);
    all.insert(all.end(), contacts.begin(), contacts.end());
    std::vector<uint8_t> colors(jointColors);
    colors.insert(colors.end(), contactColors.begin(), contactColors.end());
    int overflowed = 0;
    for (size_t i = 0; i < all.size(); ++i) {
        ASSERT_LE(int(colors[i]), detail::kOverflowColor);
        const auto uses = [&](size_t k, int c) {
            return c >= 0 && (all[k].a == c || all[k].b == c);
        };
        if (colors[i] == detail::kOverflowColor) {
            ++overflowed;
            if (all[i].overflow) continue;
            // Every colour was taken by an earlier constraint on one of its bodies.
            for (int c = 0; c < detail::kGraphColors; ++c) {
                bool taken = false;
                for (size_t k = 0; k < i && !taken; ++k)
                    taken = colors[k] == c && (uses(k, all[i].a) || uses(k, all[i].b));
                EXPECT_TRUE(taken)
                    << "constraint " << i << " overflowed with colour " << c << " free";
            }
            continue;
        }
        EXPECT_FALSE(all[i].overflow);
        for (size_t k = 0; k < i; ++k)
            if (colors[k] == colors[i]) {
                EXPECT_FALSE(uses(k, all[i].a) || uses(k, all[i].b)) << i << " and " << k;
            }
    }
    EXPECT_GE(overflowed, 40 - detail::kGraphColors);

    std::vector<int> items(contacts.size()), sorted(contacts.size());
    for (size_t i = 0; i < items.size(); ++i) items[i] = int(1000 + i);
    std::vector<int> starts(detail::kColorStartCount);
    detail::sortByColor(contactColors, items, sorted, starts);
    ASSERT_EQ(starts.front(), 0);
    ASSERT_EQ(starts.back(), int(items.size()));
    for (int c = 0; c <= detail::kOverflowColor; ++c)
        for (int i = starts[size_t(c)]; i < starts[size_t(c) + 1]; ++i) {
            EXPECT_EQ(contactColors[size_t(sorted[size_t(i)] - 1000)], c);
            if (i > starts[size_t(c)]) {
                EXPECT_LT(sorted[size_t(i) - 1], sorted[size_t(i)]);
            }
        }
}

TEST(Determinism, HashChangesWhenTheSceneDoes) {
    WorldDef def;
    World a(def), b(def);
    buildScene(a, 1234u);
    buildScene(b, 1235u);
    for (int i = 0; i < 10; ++i) a.step(kDt), b.step(kDt);
    EXPECT_NE(a.stateHash(), b.stateHash());
}

// A world without sleep holding a pyramid of `rows` unit boxes on the ground.
World pyramidWorld(int workers, int rows) {
    WorldDef def;
    def.enableSleep = false;
    def.workerCount = workers;
    World w(def);
    test::addGround(w, {0.0f, -0.5f}, 40.0f, 0.5f);
    for (int row = 0; row < rows; ++row)
        for (int i = 0; i < rows - row; ++i)
            test::addBox(w, {(float(i) - 0.5f * float(rows - 1 - row)) * 1.0f, 0.5f + float(row)},
                         0.5f, 0.5f);
    return w;
}

TEST(Performance, WarmStepAllocatesNothing) {
    for (int workers : {1, 2}) {
        World w = pyramidWorld(workers, 12);
        for (int i = 0; i < 120; ++i) w.step(kDt);  // warm up: every contact exists
        const long long before = test::allocationCount();
        for (int i = 0; i < 60; ++i) w.step(kDt);
        EXPECT_EQ(test::allocationCount() - before, 0) << workers << " workers";
    }
}

// The joint stages (colouring, parallel prepare, joint blocks) allocate
// nothing either once warm.
TEST(Performance, WarmJointStepAllocatesNothing) {
    for (int workers : {1, 2}) {
        World w = pyramidWorld(workers, 8);
        // Chains whose links never touch (one collision group): the
        // contacts are the pyramid's and stay the same once warm.
        ShapeDef link;
        link.filter.groupIndex = -1;
        const BodyId anchor = w.createBody(BodyDef{});
        for (int k = 0; k < 8; ++k) {
            BodyId prev = anchor;
            for (int i = 0; i < 12; ++i) {
                const Vec2 pin{-20.0f + 5.0f * float(k) + 0.5f * float(i), 30.0f};
                BodyDef bd;
                bd.type = BodyType::Dynamic;
                bd.position = {pin.x + 0.25f, pin.y};
                const BodyId b = w.createBody(bd);
                w.createShape(b, link, makeBox(0.25f, 0.05f));
                w.createJoint(w.makeRevoluteJointDef(prev, b, pin));
                prev = b;
            }
        }
        for (int i = 0; i < 120; ++i) w.step(kDt);
        const long long before = test::allocationCount();
        for (int i = 0; i < 60; ++i) w.step(kDt);
        EXPECT_EQ(test::allocationCount() - before, 0) << workers << " workers";
    }
}

// Queries through the broadphase give the same shapes as testing every shape.
TEST(Queries, MatchBruteForce) {
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        WorldDef def;
        def.broadphase = type;
        World w(def);
        buildScene(w, 99u);
        for (int i = 0; i < 30; ++i) w.step(kDt);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-12.0f, 12.0f);
        const std::vector<BodyId> bodies = w.bodies();
        for (int q = 0; q < 50; ++q) {
            const Vec2 origin{u(rng), 8.0f + 0.5f * u(rng)};
            const Vec2 translation{u(rng), u(rng) - 12.0f};
            // Brute force closest hit over every shape.
            float best = 2.0f;
            for (BodyId b : bodies)
                for (ShapeId s : w.shapes(b)) {
                    CastOutput o = w.rayCast(s, origin, translation);
                    if (o.hit && o.fraction < best) best = o.fraction;
                }
            RayResult r = w.castRayClosest(origin, translation);
            if (best <= 1.0f) {
                ASSERT_TRUE(r.hit);
                EXPECT_FLOAT_EQ(r.fraction, best);
            } else {
                EXPECT_FALSE(r.hit);
            }
            // Box query: every shape whose box overlaps is reported.
            const AABB box{{origin.x - 2.0f, origin.y - 6.0f}, {origin.x + 2.0f, origin.y}};
            std::vector<ShapeId> got;
            w.queryAABB(box, {}, [&](ShapeId id) {
                got.push_back(id);
                return true;
            });
            for (BodyId b : bodies)
                for (ShapeId s : w.shapes(b)) {
                    if (aabbOverlaps(w.shapeAABB(s), box)) {
                        EXPECT_NE(std::find(got.begin(), got.end(), s), got.end());
                    }
                }
        }
        // A shape cast downwards from above the ground hits its top.
        bool hit = false;
        float fraction = 2.0f;
        w.castShape(Circle{{0.0f, 0.0f}, 0.5f}, Transform{{35.0f, 5.0f}, Rot{}}, {0.0f, -10.0f}, {},
                    [&](ShapeId, Vec2, Vec2, float f) {
                        hit = true;
                        fraction = std::min(fraction, f);
                        return f;
                    });
        EXPECT_TRUE(hit);
        EXPECT_NEAR(fraction, 0.45f, 0.01f);
    }
}

// Exact overlap queries: overlapShape reports exactly the shapes
// whose true geometry overlaps or touches the query shape, as brute force by
// shapeDistance over every shape finds them, and overlapAABB exactly those
// whose tight box overlaps; both broadphases, a chain segment included.
TEST(Queries, OverlapShapeAndTightBoxMatchBruteForce) {
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep}) {
        WorldDef def;
        def.broadphase = type;
        World w(def);
        buildScene(w, 99u);
        ChainDef chain;
        chain.points = {{-30.0f, 3.0f}, {-25.0f, 1.0f}, {-20.0f, 2.0f}};
        w.createChain(w.createBody(BodyDef{}), chain);
        for (int i = 0; i < 30; ++i) w.step(kDt);
        std::mt19937 rng(21);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        std::vector<ShapeId> all;
        for (BodyId b : w.bodies())
            for (ShapeId s : w.shapes(b)) all.push_back(s);
        int reported = 0, boxOnly = 0;
        for (int q = 0; q < 200; ++q) {
            ShapeGeometry g;
            switch (q % 5) {
                case 0:
                    g = Circle{{0.1f, 0.0f}, 0.2f + 1.5f * std::fabs(u(rng))};
                    break;
                case 1:
                    g = makeBox(0.1f + 2.0f * std::fabs(u(rng)), 0.1f + std::fabs(u(rng)));
                    break;
                case 2:
                    g = Capsule{{-1.0f, 0.0f}, {1.0f, 0.3f}, 0.1f + 0.5f * std::fabs(u(rng))};
                    break;
                case 3:
                    g = Segment{{-2.0f, 0.0f}, {2.0f, 0.5f}};
                    break;
                default:
                    g = makeRoundedBox(0.5f, 0.2f, 0.3f);
                    break;
            }
            const Transform xf =
                makeTransform({30.0f * u(rng), 10.0f + 10.0f * u(rng)}, 3.0f * u(rng));
            std::vector<ShapeId> got;
            w.overlapShape(g, xf, {}, [&](ShapeId id) {
                got.push_back(id);
                return true;
            });
            std::vector<ShapeId> want;
            for (ShapeId s : all) {
                DistanceResult d = shapeDistance(w.geometry(s), w.transform(w.shapeBody(s)), g, xf);
                if (d.overlap || d.distance <= 0.0f) want.push_back(s);
            }
            std::sort(got.begin(), got.end());
            EXPECT_EQ(got, want) << "query " << q;
            reported += int(got.size());
            // Tight boxes: exactly the shapes whose shapeAABB overlaps.
            const AABB box = computeAABB(g, xf);
            std::vector<ShapeId> gotBox, wantBox;
            w.overlapAABB(box, {}, [&](ShapeId id) {
                gotBox.push_back(id);
                return true;
            });
            for (ShapeId s : all)
                if (aabbOverlaps(w.shapeAABB(s), box)) wantBox.push_back(s);
            std::sort(gotBox.begin(), gotBox.end());
            EXPECT_EQ(gotBox, wantBox) << "query " << q;
            boxOnly += int(wantBox.size() - want.size());
        }
        // The test sees both answers: shapes overlapping, and boxes
        // overlapping where the shapes do not.
        EXPECT_GT(reported, 50);
        EXPECT_GT(boxOnly, 20);
        // Returning false stops; a category the query does not accept is skipped.
        int calls = 0;
        w.overlapShape(makeBox(40.0f, 1.0f), Transform{{0.0f, -0.5f}, Rot{}}, {}, [&](ShapeId) {
            ++calls;
            return false;
        });
        EXPECT_EQ(calls, 1);
        QueryFilter none;
        none.maskBits = 0;
        w.overlapAABB(AABB{{-50.0f, -50.0f}, {50.0f, 50.0f}}, none, [&](ShapeId) {
            ADD_FAILURE() << "masked shape reported";
            return true;
        });
        // Refused: bad geometry, a non-unit rotation, a pose beyond the range, a NaN box.
        auto ignore = [](ShapeId) { return true; };
        EXPECT_THROW(w.overlapShape(Circle{{0.0f, 0.0f}, -1.0f}, Transform{}, {}, ignore), Error);
        EXPECT_THROW(w.overlapShape(Circle{{0.0f, 0.0f}, 1.0f},
                                    Transform{{0.0f, 0.0f}, Rot{2.0f, 0.0f}}, {}, ignore),
                     Error);
        EXPECT_THROW(
            w.overlapShape(Circle{{0.0f, 0.0f}, 1.0f}, Transform{{2e6f, 0.0f}, Rot{}}, {}, ignore),
            Error);
        EXPECT_THROW(w.overlapAABB(AABB{{0.0f, 0.0f}, {NAN, 1.0f}}, {}, ignore), Error);
    }
}

}  // namespace
}  // namespace carom
