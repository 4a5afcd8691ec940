// World::snapshot / restore: restore followed by N steps gives
// the bits the original N steps gave, in the same world and in a fresh one,
// at 1 and 2 workers, with both broadphases; ids, events, callbacks, the byte
// form (round trip, corruption refused), refusals, and the rollback pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "engine/core/platform.hpp"
#include "engine/world/snapshot_bytes.hpp"
#include "tests/support/alloc_counter.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::kDt;

struct Scene {
    BodyId player;   // pushed by the rollback test's inputs
    BodyId sleeper;  // a box at rest far away: asleep by step 100
    JointId mouse;
    ShapeId sensor;
};

// Every kind of state the step keeps: a pyramid (stacks, warm-started
// contacts), one joint of every type, a sleeping island, bullets (against a
// wall and against each other), a chain terrain, a sensor, a kinematic
// paddle, a mouse joint, hit and pre-solve events.
Scene buildScene(World& w) {
    Scene s;
    BodyId ground = test::addGround(w, {0.0f, -0.5f}, 60.0f, 0.5f);
    for (int row = 0; row < 7; ++row)
        for (int i = 0; i < 7 - row; ++i)
            test::addBox(w, {-12.0f + (float(i) - 0.5f * float(6 - row)) * 1.0f, 0.5f + float(row)},
                         0.5f, 0.5f);
    test::addLinkChain(w, {10.0f, 12.0f}, 5);  // revolute
    s.sleeper = test::addBox(w, {40.0f, 0.5f}, 0.5f, 0.5f);

    // Prismatic, distance, weld, wheel, motor joints on a few boxes.
    BodyId a = test::addBox(w, {-2.0f, 6.0f}, 0.4f, 0.4f);
    BodyId b = test::addBox(w, {-1.0f, 6.0f}, 0.4f, 0.4f);
    PrismaticJointDef pj = w.makePrismaticJointDef(ground, a, {-2.0f, 6.0f}, {0.0f, 1.0f});
    pj.enableLimit = true;
    pj.lowerTranslation = -3.0f;
    pj.upperTranslation = 1.0f;
    w.createJoint(pj);
    DistanceJointDef dj = w.makeDistanceJointDef(a, b, {-2.0f, 6.0f}, {-1.0f, 6.0f});
    dj.enableSpring = true;
    dj.hertz = 3.0f;
    dj.dampingRatio = 0.3f;
    w.createJoint(dj);
    BodyId c = test::addBox(w, {0.0f, 6.0f}, 0.3f, 0.3f);
    w.createJoint(w.makeWeldJointDef(b, c, {-0.5f, 6.0f}));
    BodyId chassis = test::addBox(w, {20.0f, 2.0f}, 1.0f, 0.25f);
    BodyDef wd;
    wd.type = BodyType::Dynamic;
    wd.position = {20.5f, 1.2f};
    BodyId wheel = w.createBody(wd);
    w.createShape(wheel, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.4f});
    WheelJointDef wj = w.makeWheelJointDef(chassis, wheel, {20.5f, 1.2f}, {0.0f, 1.0f});
    wj.enableMotor = true;
    wj.motorSpeed = -4.0f;
    wj.maxMotorTorque = 20.0f;
    w.createJoint(wj);
    BodyId follower = test::addBox(w, {24.0f, 3.0f}, 0.3f, 0.3f);
    MotorJointDef mj = w.makeMotorJointDef(chassis, follower);
    mj.maxForce = 50.0f;
    mj.maxTorque = 5.0f;
    w.createJoint(mj);
    s.player = test::addBall(w, {-20.0f, 0.5f}, 0.5f);
    BodyId dragged = test::addBox(w, {5.0f, 3.0f}, 0.5f, 0.25f);
    MouseJointDef md = w.makeMouseJointDef(ground, dragged, {5.0f, 3.0f});
    md.target = {7.0f, 5.0f};
    md.maxForce = 200.0f;
    s.mouse = w.createJoint(md);

    // Bullets: one against a wall, two crossing each other.
    BodyId wall = test::addGround(w, {-45.0f, 5.0f}, 0.2f, 5.0f);
    (void)wall;
    for (float y : {2.0f, 4.0f}) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.isBullet = true;
        bd.position = {-30.0f, y};
        bd.linearVelocity = {-120.0f, y == 2.0f ? 20.0f : -20.0f};
        ShapeDef sd;
        sd.enableHitEvents = true;
        w.createShape(w.createBody(bd), sd, Circle{{0.0f, 0.0f}, 0.1f});
    }

    // A chain terrain with balls rolling on it.
    BodyId terrain = w.createBody(BodyDef{});
    ChainDef cd;
    for (int i = 0; i <= 20; ++i)
        cd.points.push_back({30.0f + float(i), 0.3f * std::sin(0.7f * float(i)) + 0.2f});
    std::reverse(cd.points.begin(), cd.points.end());  // solid below: right of the point order
    w.createChain(terrain, cd);
    for (int i = 0; i < 4; ++i)
        test::addBall(w, {32.0f + 3.0f * float(i), 3.0f}, 0.3f, 0.2f, {1.0f, 0.0f});

    // A sensor over the pyramid and a kinematic paddle.
    ShapeDef sensor;
    sensor.isSensor = true;
    s.sensor = w.createShape(w.createBody(BodyDef{}), sensor,
                             makeOffsetBox(4.0f, 4.0f, {-12.0f, 4.0f}, 0.0f));
    BodyDef kd;
    kd.type = BodyType::Kinematic;
    kd.position = {-12.0f, 9.0f};
    kd.angularVelocity = 1.5f;
    w.createShape(w.createBody(kd), ShapeDef{}, makeBox(2.0f, 0.1f));

    // Rain of mixed shapes with pre-solve events.
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < 24; ++i) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {-12.0f + 4.0f * u(rng), 12.0f + 4.0f * (u(rng) + 1.0f)};
        bd.angle = 3.0f * u(rng);
        BodyId body = w.createBody(bd);
        ShapeDef sd;
        sd.restitution = 0.2f * (u(rng) + 1.0f);
        sd.enablePreSolveEvents = i % 4 == 0;
        sd.enableHitEvents = true;
        if (i % 2 == 0)
            w.createShape(body, sd, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.15f});
        else
            w.createShape(body, sd, makeBox(0.25f, 0.2f));
    }
    return s;
}

// What must match bit for bit besides the body hash: contacts with their
// impulses, and the counters.
struct Fingerprint {
    uint64_t hash = 0;
    std::vector<uint32_t> contactBits;
    int awake = 0, contacts = 0, touching = 0, islands = 0, awakeIslands = 0;
    friend bool operator==(const Fingerprint&, const Fingerprint&) = default;
};

uint32_t bitsOf(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

Fingerprint fingerprint(const World& w) {
    Fingerprint f;
    f.hash = w.stateHash();
    for (const ContactData& c : w.contacts()) {
        f.contactBits.push_back(uint32_t(c.shapeA.index));
        f.contactBits.push_back(uint32_t(c.shapeB.index));
        for (int i = 0; i < c.pointCount; ++i) {
            f.contactBits.push_back(bitsOf(c.points[i].normalImpulse));
            f.contactBits.push_back(bitsOf(c.points[i].tangentImpulse));
            f.contactBits.push_back(bitsOf(c.points[i].separation));
        }
    }
    const Counters k = w.counters();
    f.awake = k.awakeBodies;
    f.contacts = k.contacts;
    f.touching = k.touchingContacts;
    f.islands = k.islands;
    f.awakeIslands = k.awakeIslands;
    return f;
}

std::vector<Fingerprint> runFingerprints(World& w, int steps) {
    std::vector<Fingerprint> out;
    for (int i = 0; i < steps; ++i) {
        w.step(kDt);
        out.push_back(fingerprint(w));
    }
    return out;
}

WorldDef defOf(BroadphaseType type, int workers) {
    WorldDef def;
    def.broadphase = type;
    def.workerCount = workers;
    return def;
}

// The contract: step 100, snapshot, step 200 → H; restore, step 200 → H;
// and the same in a fresh world built from the same scene, at 1 and 2
// workers, Tree and SortAndSweep. Every one of the 200 steps is compared,
// contacts and counters included, not only the final hash.
TEST(Snapshot, RestoreThenStepsRepeatTheSteps) {
    for (BroadphaseType type : {BroadphaseType::Tree, BroadphaseType::SortAndSweep})
        for (int workers : {1, 2}) {
            SCOPED_TRACE(testing::Message()
                         << "broadphase " << int(type) << ", " << workers << " workers");
            World w(defOf(type, workers));
            const Scene scene = buildScene(w);
            test::run(w, 100);
            ASSERT_FALSE(w.isAwake(scene.sleeper)) << "the scene must hold a sleeping island";
            const Fingerprint atSnapshot = fingerprint(w);
            const Snapshot snap = w.snapshot();
            const std::vector<Fingerprint> original = runFingerprints(w, 200);
            ASSERT_NE(original.back().hash, atSnapshot.hash);

            w.restore(snap);
            EXPECT_TRUE(fingerprint(w) == atSnapshot);
            EXPECT_TRUE(runFingerprints(w, 200) == original) << "same world";

            // A fresh world from the same scene, at the other worker count.
            World fresh(defOf(type, 3 - workers));
            buildScene(fresh);
            fresh.restore(snap);
            EXPECT_TRUE(runFingerprints(fresh, 200) == original) << "fresh world";

            // Through the byte form.
            World fromBytes(defOf(type, workers));
            fromBytes.restore(Snapshot::fromBytes(snap.bytes()));
            EXPECT_TRUE(runFingerprints(fromBytes, 200) == original) << "restored from bytes";
        }
}

// Restoring twice from one snapshot, and restoring a snapshot taken after a
// restore, stay exact (the spare state swapped in by restore is reused).
TEST(Snapshot, RepeatedRestoresStayExact) {
    World w;
    buildScene(w);
    test::run(w, 30);
    const Snapshot s = w.snapshot();
    const std::vector<Fingerprint> original = runFingerprints(w, 60);
    for (int round = 0; round < 3; ++round) {
        w.restore(s);
        EXPECT_TRUE(runFingerprints(w, 60) == original) << round;
    }
    w.restore(s);
    test::run(w, 20);
    const Snapshot mid = w.snapshot();
    const std::vector<Fingerprint> tail = runFingerprints(w, 40);
    w.restore(mid);
    EXPECT_TRUE(runFingerprints(w, 40) == tail);
}

// Ids: the snapshot holds the id tables with their generations.
TEST(Snapshot, IdsBeforeTheSnapshotComeBackIdsAfterItGoStale) {
    World w;
    const Scene scene = buildScene(w);
    test::run(w, 10);
    const std::vector<BodyId> bodiesBefore = w.bodies();
    const std::vector<JointId> jointsBefore = w.joints();
    const Snapshot snap = w.snapshot();
    const std::vector<Fingerprint> original = runFingerprints(w, 60);
    w.restore(snap);

    // Destroy a body (with its shapes and joints) and the mouse joint, then
    // create objects: they take the freed slots with new generations.
    const BodyId victim = bodiesBefore[5];
    const ShapeId victimShape = w.shapes(victim).front();
    w.destroyBody(victim);
    w.destroyJoint(scene.mouse);
    const BodyId created = test::addBox(w, {0.0f, 20.0f}, 0.5f, 0.5f);
    const ShapeId createdShape = w.shapes(created).front();
    EXPECT_EQ(created.index, victim.index);
    EXPECT_FALSE(w.isValid(victim));
    test::run(w, 30);

    w.restore(snap);
    EXPECT_TRUE(w.isValid(victim));
    EXPECT_TRUE(w.isValid(victimShape));
    EXPECT_TRUE(w.isValid(scene.mouse));
    EXPECT_FALSE(w.isValid(created));
    EXPECT_FALSE(w.isValid(createdShape));
    EXPECT_THROW(w.position(created), Error);
    EXPECT_EQ(w.bodies(), bodiesBefore);
    EXPECT_EQ(w.joints(), jointsBefore);
    EXPECT_TRUE(runFingerprints(w, 60) == original);

    // Re-running the same edits after a restore issues the same ids again
    // (what replays and rollback rely on).
    w.restore(snap);
    w.destroyBody(victim);
    EXPECT_EQ(test::addBox(w, {0.0f, 20.0f}, 0.5f, 0.5f), created);
}

struct Events {
    std::vector<uint32_t> bits;
    friend bool operator==(const Events&, const Events&) = default;
};

Events eventsOf(const World& w) {
    Events e;
    auto id = [&](auto x) {
        e.bits.push_back(uint32_t(x.index));
        e.bits.push_back(x.generation);
    };
    const ContactEvents c = w.contactEvents();
    for (const auto& x : c.begin) id(x.shapeA), id(x.shapeB);
    e.bits.push_back(0xffffffffu);
    for (const auto& x : c.end) id(x.shapeA), id(x.shapeB);
    e.bits.push_back(0xffffffffu);
    for (const auto& x : c.hit)
        id(x.shapeA), id(x.shapeB), e.bits.push_back(bitsOf(x.approachSpeed));
    e.bits.push_back(0xffffffffu);
    const SensorEvents s = w.sensorEvents();
    for (const auto& x : s.begin) id(x.sensorShape), id(x.visitorShape);
    e.bits.push_back(0xffffffffu);
    for (const auto& x : s.end) id(x.sensorShape), id(x.visitorShape);
    e.bits.push_back(0xffffffffu);
    for (const auto& x : w.bodyMoveEvents()) id(x.body), e.bits.push_back(bitsOf(x.transform.p.x));
    return e;
}

// Events: restore leaves the last step's events as they were (they are the
// record of that step, events.hpp); the steps after it report what they
// reported the first time, end events waiting from a shape destroyed before
// the snapshot included.
TEST(Snapshot, EventsAfterRestore) {
    World w;
    buildScene(w);
    test::run(w, 40);
    // A shape destroyed between steps leaves end events for the next step.
    const BodyId ball = test::addBall(w, {-12.0f, 7.5f}, 0.3f);
    test::run(w, 30);
    w.destroyBody(ball);
    const Snapshot snap = w.snapshot();
    std::vector<Events> original;
    int nonEmpty = 0;
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        original.push_back(eventsOf(w));
        nonEmpty += w.contactEvents().begin.size() > 0 && w.contactEvents().end.size() > 0 ? 1 : 0;
    }
    EXPECT_GT(nonEmpty, 0);
    test::run(w, 5);
    const Events lastStep = eventsOf(w);
    w.restore(snap);
    EXPECT_TRUE(eventsOf(w) == lastStep);
    for (int i = 0; i < 120; ++i) {
        w.step(kDt);
        ASSERT_TRUE(eventsOf(w) == original[size_t(i)]) << "step " << i;
    }
}

// Kept from the target world: callbacks, worker count; from the snapshot:
// gravity, the sleep and continuous switches, user data of objects.
TEST(Snapshot, WhatRestoreKeepsAndWhatItTakes) {
    World w;
    const Scene scene = buildScene(w);
    int dummy = 0, other = 0;
    w.setUserData(scene.player, &dummy);
    const Snapshot snap = w.snapshot();
    int preSolveCalls = 0;
    w.setPreSolveCallback([&](ShapeId, ShapeId, const ContactData&) {
        ++preSolveCalls;
        return true;
    });
    w.setGravity({0.0f, -3.0f});
    w.enableContinuous(false);
    w.setWorkerCount(2);
    w.setUserData(scene.player, &other);
    w.restore(snap);
    EXPECT_EQ(w.gravity().y, -10.0f);
    EXPECT_TRUE(w.def().enableContinuous);
    EXPECT_EQ(w.def().workerCount, 2);
    EXPECT_EQ(w.userData(scene.player), &dummy);
    test::run(w, 60);
    EXPECT_GT(preSolveCalls, 0);
    // Through bytes: no pointers.
    w.restore(Snapshot::fromBytes(snap.bytes()));
    EXPECT_EQ(w.userData(scene.player), nullptr);
}

// Refused restores throw and leave the world exactly as it was.
TEST(Snapshot, RefusedRestoreLeavesTheWorldUnchanged) {
    World w;
    buildScene(w);
    test::run(w, 50);

    WorldDef moreSubsteps;
    moreSubsteps.substeps = 8;
    World other(moreSubsteps);
    buildScene(other);
    WorldDef sap;
    sap.broadphase = BroadphaseType::SortAndSweep;
    World otherPhase(sap);
    buildScene(otherPhase);

    World twin;
    buildScene(twin);
    test::run(twin, 50);
    ASSERT_TRUE(fingerprint(twin) == fingerprint(w));

    try {
        w.restore(other.snapshot());
        FAIL() << "a snapshot of a world with another substep count was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_EQ(e.field(), "snapshot.def.substeps");
    }
    EXPECT_THROW(w.restore(otherPhase.snapshot()), Error);
    EXPECT_THROW(w.restore(Snapshot{}), Error);
    EXPECT_THROW(Snapshot{}.bytes(), Error);
    // Unchanged: the next steps are those of an untouched twin.
    EXPECT_TRUE(runFingerprints(w, 60) == runFingerprints(twin, 60));
}

TEST(Snapshot, RefusedInsideStepCallbacks) {
    World w;
    buildScene(w);
    const Snapshot snap = w.snapshot();
    int locked = 0, calls = 0;
    w.setPreSolveCallback([&](ShapeId, ShapeId, const ContactData&) {
        ++calls;
        try {
            w.restore(snap);
        } catch (const Error& e) {
            locked += e.code() == ErrorCode::Locked;
        }
        try {
            (void)w.snapshot();
        } catch (const Error& e) {
            locked += e.code() == ErrorCode::Locked;
        }
        return true;
    });
    test::run(w, 60);
    ASSERT_GT(calls, 0);
    EXPECT_EQ(locked, 2 * calls);
}

// The byte form: a round trip gives the same bytes, and every corruption
// (a flipped byte anywhere, a truncation, an extension) is refused with
// carom::Error.
TEST(Snapshot, BytesRoundTripAndCorruptionIsRefused) {
    World w;
    buildScene(w);
    test::run(w, 80);
    const std::vector<uint8_t> bytes = w.snapshot().bytes();
    const Snapshot back = Snapshot::fromBytes(bytes);
    EXPECT_EQ(back.bytes(), bytes);
    // Equal states give equal bytes: a twin world run the same way, and the
    // world after restoring its own snapshot. Only where the compiler can
    // zero structs' padding (docs/snapshot.md); elsewhere the states are
    // equal (stateHash) and the padding bytes may differ.
    World twin;
    buildScene(twin);
    test::run(twin, 80);
    test::run(twin, 10);
    twin.restore(back);
    EXPECT_EQ(twin.stateHash(), w.stateHash());
#if CAROM_CAN_CLEAR_PADDING
    EXPECT_EQ(twin.snapshot().bytes(), bytes);
    World twin2;
    buildScene(twin2);
    test::run(twin2, 80);
    EXPECT_EQ(twin2.snapshot().bytes(), bytes);
#endif

    std::mt19937 rng(2026);
    int refused = 0;
    const int trials = 400;
    for (int t = 0; t < trials; ++t) {
        std::vector<uint8_t> bad = bytes;
        switch (t % 4) {
            case 0:
                bad[rng() % bad.size()] ^= uint8_t(1u << (rng() % 8));
                break;
            case 1:
                bad[rng() % 48] ^= uint8_t(1 + rng() % 255);
                break;  // the header and first fields
            case 2:
                bad.resize(rng() % bad.size());
                break;
            default:
                bad.push_back(uint8_t(rng()));
                break;
        }
        try {
            (void)Snapshot::fromBytes(bad);
        } catch (const Error& e) {
            refused += e.code() == ErrorCode::InvalidArgument;
        }
    }
    EXPECT_EQ(refused, trials);
    EXPECT_THROW(Snapshot::fromBytes({}), Error);
}

// The byte form keeps a slot for each WorldDef solver switch that was
// removed, written as the behaviour every world now has. Bytes whose slot
// says otherwise (written by a build that had the switch, set the other
// way) are refused naming the switch, not run as if it were not set. The
// slots are found beside the tuning values that follow and precede them:
// frictionInRelaxOnly's flag just before contactRelaxPasses,
// relaxShockScaledMasses' and contactPushHoldsLoad's just after
// relaxShockScale.
TEST(Snapshot, BytesWithARemovedSolverSwitchSetAreRefused) {
    if constexpr (std::endian::native != std::endian::little)
        GTEST_SKIP() << "slots found by little-endian bytes";
    auto bytesOf = [](const WorldDef& def) {
        World w(def);
        test::addBox(w, {0.0f, 1.0f}, 0.5f, 0.5f);
        return w.snapshot().bytes();
    };
    const std::vector<uint8_t> base = bytesOf(WorldDef{});
    WorldDef passes;
    passes.tuning.contactRelaxPasses = 2;  // its lowest byte differs first
    WorldDef shock;
    shock.tuning.relaxShockScale = 0.5f;  // 0.25f and 0.5f differ in the top byte
    const std::vector<uint8_t> a = bytesOf(passes), b = bytesOf(shock);
    ASSERT_EQ(a.size(), base.size());
    ASSERT_EQ(b.size(), base.size());
    // In the payload: the header's checksums differ too.
    const auto payload = std::ptrdiff_t(detail::kSnapshotHeaderSize);
    auto firstDiff = [&](const std::vector<uint8_t>& x) {
        return size_t(std::mismatch(base.begin() + payload, base.end(), x.begin() + payload).first -
                      base.begin());
    };
    auto lastDiff = [&](const std::vector<uint8_t>& x) {
        size_t i = base.size();
        while (i > 0 && base[i - 1] == x[i - 1]) --i;
        return i - 1;
    };
    struct Slot {
        size_t at;
        uint8_t now;  // the behaviour every world has
        const char* name;
    };
    const Slot slots[] = {{firstDiff(a) - 1, 0, "frictionInRelaxOnly"},
                          {lastDiff(b) + 1, 1, "relaxShockScaledMasses"},
                          {lastDiff(b) + 2, 0, "contactPushHoldsLoad"}};
    auto resealed = [](std::vector<uint8_t> bytes) {
        const uint64_t sum = detail::snapshotChecksum(bytes.data() + detail::kSnapshotHeaderSize,
                                                      bytes.size() - detail::kSnapshotHeaderSize);
        std::memcpy(bytes.data() + detail::kSnapshotChecksumOffset, &sum, sizeof sum);
        return bytes;
    };
    ASSERT_EQ(resealed(base), base);
    for (const Slot& slot : slots) {
        ASSERT_EQ(base[slot.at], slot.now) << slot.name;
        std::vector<uint8_t> bad = base;
        bad[slot.at] = uint8_t(1 - slot.now);
        try {
            (void)Snapshot::fromBytes(resealed(bad));
            ADD_FAILURE() << "accepted bytes with " << slot.name << " set";
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), "bytes");
            EXPECT_NE(std::string(e.what()).find(std::string("WorldDef::") + slot.name),
                      std::string::npos)
                << e.what();
        }
    }
}

// Rollback netcode: inputs arrive late, so the game predicts (no input),
// and when the real inputs of the last 5 frames arrive it rewinds 5 frames
// and re-simulates them. Ten such rewinds end on the bits of a straight run
// with the real inputs from the start.
TEST(Snapshot, RollbackTenRewindsOfFiveFrames) {
    auto input = [](int frame) {
        return Vec2{float(frame % 7) - 3.0f, frame % 11 == 0 ? 6.0f : 0.0f};
    };
    auto applyInput = [](World& w, BodyId player, Vec2 in) {
        w.applyLinearImpulseToCenter(player, in);
    };
    for (int workers : {1, 2}) {
        World straight(defOf(BroadphaseType::Tree, workers));
        const Scene s1 = buildScene(straight);
        for (int f = 0; f < 50; ++f) {
            applyInput(straight, s1.player, input(f));
            straight.step(kDt);
        }

        World game(defOf(BroadphaseType::Tree, workers));
        const Scene s2 = buildScene(game);
        for (int rewind = 0; rewind < 10; ++rewind) {
            const int first = rewind * 5;
            const Snapshot confirmed = game.snapshot();
            for (int f = first; f < first + 5; ++f) {  // predicted: a wrong input
                applyInput(game, s2.player, Vec2{1.0f, 2.0f});
                game.step(kDt);
            }
            game.restore(confirmed);  // the real inputs arrived
            for (int f = first; f < first + 5; ++f) {
                applyInput(game, s2.player, input(f));
                game.step(kDt);
            }
        }
        EXPECT_EQ(game.stateHash(), straight.stateHash()) << workers << " workers";
        EXPECT_TRUE(fingerprint(game) == fingerprint(straight)) << workers << " workers";
    }
}

// Once warm, a rollback loop's steps allocate nothing: restore swaps in a
// spare state whose buffers have already grown to the scene.
TEST(Snapshot, WarmRollbackStepsDoNotAllocate) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 40.0f, 0.5f);
    for (int row = 0; row < 10; ++row)
        for (int i = 0; i < 10 - row; ++i)
            test::addBox(w, {(float(i) - 0.5f * float(9 - row)) * 1.0f, 0.5f + float(row)}, 0.5f,
                         0.5f);
    test::run(w, 60);  // settling, not asleep: every step has work
    const Snapshot s = w.snapshot();
    for (int round = 0; round < 4; ++round) {  // warm both states
        w.restore(s);
        test::run(w, 5);
    }
    w.restore(s);
    const long long before = test::allocationCount();
    test::run(w, 5);
    EXPECT_EQ(test::allocationCount() - before, 0);
}

}  // namespace
}  // namespace carom
