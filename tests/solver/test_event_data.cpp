// Events with their data: contact ids and the manifold of begin
// events, sensor overlap lists, breakable joints, and what a game may do
// while it reads the event spans.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "engine/world/world_impl.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::kDt;

// A box of walls with bodies thrown around inside, some resting on the
// floor: contacts begin and end all the time.
struct Arena {
    World w;
    std::vector<BodyId> bodies;
    explicit Arena(uint32_t seed, Vec2 gravity = {0.0f, -10.0f}, int workers = 1)
        : w([&] {
              WorldDef d;
              d.gravity = gravity;
              d.workerCount = workers;
              return d;
          }()) {
        test::addGround(w, {0.0f, -0.5f}, 12.0f, 0.5f);
        test::addGround(w, {0.0f, 20.5f}, 12.0f, 0.5f);
        test::addGround(w, {-12.5f, 10.0f}, 0.5f, 11.0f);
        test::addGround(w, {12.5f, 10.0f}, 0.5f, 11.0f);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> x(-10.0f, 10.0f), y(1.0f, 18.0f), v(-8.0f, 8.0f),
            r(0.2f, 0.6f);
        for (int i = 0; i < 40; ++i) {
            const Vec2 p{x(rng), y(rng)}, vel{v(rng), v(rng)};
            switch (i % 3) {
                case 0:
                    bodies.push_back(test::addBall(w, p, r(rng), 0.3f, vel));
                    break;
                case 1:
                    bodies.push_back(test::addBox(w, p, r(rng), r(rng), 0.3f, 1.0f, 0.6f, vel));
                    break;
                default: {
                    BodyDef bd;
                    bd.type = BodyType::Dynamic;
                    bd.position = p;
                    bd.linearVelocity = vel;
                    BodyId b = w.createBody(bd);
                    w.createShape(b, ShapeDef{},
                                  Capsule{{-0.4f, 0.0f}, {0.4f, 0.0f}, r(rng) * 0.5f});
                    bodies.push_back(b);
                }
            }
        }
    }
};

bool sameBits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The manifold a begin event carries is, bit for bit, the one contactData
// gives for its id after that step (the solver changes impulses only), and
// the event's id is the one ContactData reports.
TEST(EventData, BeginManifoldEqualsContactDataAtThatStep) {
    Arena a(7);
    int checked = 0, twoPoints = 0;
    for (int step = 0; step < 240; ++step) {
        a.w.step(kDt);
        for (const ContactBeginEvent& e : a.w.contactEvents().begin) {
            ASSERT_TRUE(a.w.isValid(e.contact));
            const ContactData d = a.w.contactData(e.contact);
            EXPECT_EQ(d.contact, e.contact);
            EXPECT_EQ(d.shapeA, e.shapeA);
            EXPECT_EQ(d.shapeB, e.shapeB);
            ASSERT_EQ(d.pointCount, e.manifold.pointCount);
            ASSERT_GE(e.manifold.pointCount, 1);
            EXPECT_TRUE(sameBits(d.normal.x, e.manifold.normal.x) &&
                        sameBits(d.normal.y, e.manifold.normal.y));
            EXPECT_NEAR(length(e.manifold.normal), 1.0f, 1e-5f);
            for (int i = 0; i < d.pointCount; ++i) {
                EXPECT_TRUE(sameBits(d.points[i].point.x, e.manifold.points[i].point.x));
                EXPECT_TRUE(sameBits(d.points[i].point.y, e.manifold.points[i].point.y));
                EXPECT_TRUE(sameBits(d.points[i].separation, e.manifold.points[i].separation));
                EXPECT_EQ(d.points[i].id, e.manifold.points[i].id);
                // A touching point is within the speculative distance.
                EXPECT_LE(e.manifold.points[i].separation, kSpeculativeDistance);
            }
            twoPoints += e.manifold.pointCount == 2;
            ++checked;
        }
    }
    EXPECT_GT(checked, 40);
    EXPECT_GT(twoPoints, 5);
}

// An id is valid from its begin event to its end event: the set of ids
// begun and not ended is, every step, exactly the set of touching contacts'
// ids; ended ids are stale and contactData refuses them.
TEST(EventData, ContactIdsLiveFromBeginToEnd) {
    Arena a(11);
    std::set<ContactId> live, ended;
    int ends = 0;
    for (int step = 0; step < 300; ++step) {
        a.w.step(kDt);
        const ContactEvents ev = a.w.contactEvents();
        for (const ContactEndEvent& e : ev.end) {
            ASSERT_EQ(live.erase(e.contact), 1u) << "an end event for an id that never began";
            ended.insert(e.contact);
            ++ends;
        }
        for (const ContactBeginEvent& e : ev.begin) {
            EXPECT_TRUE(live.insert(e.contact).second);
            EXPECT_EQ(ended.count(e.contact), 0u) << "an id reissued";
        }
        for (const ContactHitEvent& h : ev.hit) EXPECT_TRUE(live.count(h.contact));
        std::set<ContactId> touching;
        for (const ContactData& d : a.w.contacts()) touching.insert(d.contact);
        EXPECT_EQ(touching, live);
        for (ContactId id : ended) {
            EXPECT_FALSE(a.w.isValid(id));
            EXPECT_THROW(a.w.contactData(id), Error);
        }
        // Destroying a body between steps ends its contacts at once: their
        // ids go stale now, and the end events come with the next step.
        if (step == 150) {
            const BodyId victim = a.bodies[5];
            const std::vector<ContactData> its = a.w.contacts(victim);
            a.w.destroyBody(victim);
            for (const ContactData& d : its) EXPECT_FALSE(a.w.isValid(d.contact));
        }
    }
    EXPECT_GT(ends, 20);
    EXPECT_FALSE(a.w.isValid(ContactId{}));
    try {
        a.w.contactData(ContactId{});
        ADD_FAILURE() << "a null contact id was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::StaleId);
    }
}

// A ball resting on the ground, lifted away and put back: two episodes, two
// ids; the first is stale after its end event.
TEST(EventData, IdGoesStaleAfterEndAndANewTouchGetsANewId) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId ball = test::addBall(w, {0.0f, 0.25f}, 0.25f);
    w.step(kDt);
    ASSERT_EQ(w.contactEvents().begin.size(), 1u);
    const ContactId first = w.contactEvents().begin[0].contact;
    test::run(w, 30);
    EXPECT_TRUE(w.isValid(first));
    EXPECT_EQ(w.contactData(first).pointCount, 1);
    EXPECT_NEAR(w.contactData(first).points[0].normalImpulse, 10.0f * w.mass(ball) * kDt / 4.0f,
                1e-3f);
    w.setTransform(ball, {0.0f, 3.0f}, 0.0f);
    w.setLinearVelocity(ball, {0.0f, 0.0f});
    w.step(kDt);
    ASSERT_EQ(w.contactEvents().end.size(), 1u);
    EXPECT_EQ(w.contactEvents().end[0].contact, first);
    EXPECT_FALSE(w.isValid(first));
    w.setTransform(ball, {0.0f, 0.25f}, 0.0f);
    w.step(kDt);
    ASSERT_EQ(w.contactEvents().begin.size(), 1u);
    const ContactId second = w.contactEvents().begin[0].contact;
    EXPECT_NE(second, first);
    EXPECT_TRUE(w.isValid(second));
    EXPECT_FALSE(w.isValid(first));
}

// The sequence of begin/end events with their ids is the same whatever the
// worker count.
TEST(EventData, EventIdsAreDeterministicAcrossWorkers) {
    auto record = [](int workers) {
        Arena a(3, {0.0f, -10.0f}, workers);
        std::vector<std::tuple<int, int, int, uint32_t>> log;
        for (int step = 0; step < 200; ++step) {
            a.w.step(kDt);
            for (const auto& e : a.w.contactEvents().begin)
                log.emplace_back(step, e.shapeA.index, e.contact.index, e.contact.generation);
            for (const auto& e : a.w.contactEvents().end)
                log.emplace_back(-step, e.shapeA.index, e.contact.index, e.contact.generation);
        }
        return log;
    };
    EXPECT_EQ(record(1), record(2));
}

// ---- sensors ------------------------------------------------------------------

// The overlap list against brute force: every shape of the world tested
// against each sensor with the narrowphase, with the sensor rules (no
// sensors, not its own body, enableSensorEvents, filters). Also: last list
// + begin events - end events = this list.
TEST(EventData, SensorOverlapsEqualBruteForce) {
    Arena a(5, {0.0f, 0.0f});
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> x(-9.0f, 9.0f), y(2.0f, 17.0f);
    // Visitors the sensors must ignore: events off, or filtered out.
    for (int i = 0; i < 6; ++i) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {x(rng), y(rng)};
        bd.linearVelocity = {3.0f, -2.0f};
        BodyId b = a.w.createBody(bd);
        ShapeDef sd;
        if (i % 2 == 0)
            sd.enableSensorEvents = false;
        else
            sd.filter.maskBits = ~2ull;  // does not see category 2 (sensor 0)
        a.w.createShape(b, sd, Circle{{0.0f, 0.0f}, 0.4f});
        a.bodies.push_back(b);
    }
    std::vector<ShapeId> sensors;
    ShapeDef sensorDef;
    sensorDef.isSensor = true;
    sensorDef.filter.categoryBits = 2;
    sensors.push_back(a.w.createShape(a.w.createBody(BodyDef{}), sensorDef, makeBox(4.0f, 3.0f)));
    sensorDef.filter.categoryBits = 1;
    sensors.push_back(
        a.w.createShape(a.w.createBody(BodyDef{}), sensorDef, Circle{{5.0f, 12.0f}, 3.0f}));
    // A sensor riding on a moving dynamic body, and one on a body it shares with a solid shape.
    sensors.push_back(a.w.createShape(a.bodies[0], sensorDef, Circle{{0.0f, 0.0f}, 2.0f}));
    sensors.push_back(a.w.createShape(a.bodies[1], sensorDef, makeBox(1.5f, 1.5f)));
    // A second sensor overlapping the first: sensors never see sensors.
    sensors.push_back(a.w.createShape(a.w.createBody(BodyDef{}), sensorDef,
                                      makeOffsetBox(2.0f, 2.0f, {2.0f, 8.0f}, 0.3f)));

    std::map<ShapeId, std::set<ShapeId>> last;
    int nonEmpty = 0;
    for (int step = 0; step < 240; ++step) {
        a.w.step(kDt);
        std::map<ShapeId, std::set<ShapeId>> now = last;
        for (const auto& e : a.w.sensorEvents().begin)
            EXPECT_TRUE(now[e.sensorShape].insert(e.visitorShape).second);
        for (const auto& e : a.w.sensorEvents().end)
            EXPECT_EQ(now[e.sensorShape].erase(e.visitorShape), 1u);
        for (ShapeId sensor : sensors) {
            const ShapeGeometry sg = a.w.geometry(sensor);
            const Transform sx = a.w.transform(a.w.shapeBody(sensor));
            const Filter sf = a.w.shapeDef(sensor).filter;
            std::vector<ShapeId> brute;
            for (BodyId b : a.w.bodies()) {
                if (b == a.w.shapeBody(sensor)) continue;
                for (ShapeId s : a.w.shapes(b)) {
                    const ShapeDef d = a.w.shapeDef(s);
                    if (d.isSensor || !d.enableSensorEvents ||
                        !detail::filtersCollide(sf, d.filter))
                        continue;
                    if (shapeDistance(sg, sx, a.w.geometry(s), a.w.transform(b)).distance <= 0.0f)
                        brute.push_back(s);
                }
            }
            std::sort(brute.begin(), brute.end());
            const std::vector<ShapeId> got = a.w.sensorOverlaps(sensor);
            EXPECT_EQ(got, brute) << "sensor " << sensor.index << " at step " << step;
            EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
            EXPECT_EQ(std::set<ShapeId>(got.begin(), got.end()), now[sensor]);
            nonEmpty += !got.empty();
        }
        last = now;
        // Shapes destroyed between steps leave the lists at once (their end
        // events come with the next step).
        if (step == 120) {
            for (int k = 2; k < 8; ++k) a.w.destroyBody(a.bodies[size_t(k)]);
            for (ShapeId sensor : sensors)
                for (ShapeId v : a.w.sensorOverlaps(sensor)) EXPECT_TRUE(a.w.isValid(v));
        }
    }
    EXPECT_GT(nonEmpty, 200);
}

TEST(EventData, SensorOverlapsRefusesNonSensorsAndStaleIds) {
    World w;
    BodyId ground = test::addGround(w, {0.0f, 0.0f}, 1.0f, 1.0f);
    const ShapeId solid = w.shapes(ground)[0];
    try {
        (void)w.sensorOverlaps(solid);
        ADD_FAILURE() << "a solid shape was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_EQ(e.field(), "sensor");
    }
    ShapeDef sd;
    sd.isSensor = true;
    const ShapeId sensor = w.createShape(ground, sd, Circle{{0.0f, 0.0f}, 2.0f});
    EXPECT_TRUE(w.sensorOverlaps(sensor).empty());  // before its first step
    w.destroyShape(sensor);
    try {
        (void)w.sensorOverlaps(sensor);
        ADD_FAILURE() << "a stale sensor id was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::StaleId);
    }
}

// ---- breakable joints ------------------------------------------------------------

// A mass m hanging from a pin through its centre: the constraint force is
// m·g upwards. With the threshold just below, every step reports the joint;
// just above, none does; and every step, "reported" is exactly "measured
// force above the threshold".
TEST(EventData, JointEventFiresExactlyWhenTheForcePassesTheThreshold) {
    for (const float factor : {0.99f, 1.01f}) {
        WorldDef def;
        def.enableSleep = false;
        World w(def);
        BodyId anchor = w.createBody(BodyDef{});
        BodyId mass = test::addBox(w, {0.0f, 5.0f}, 0.5f, 0.5f, 0.0f, 2.0f);  // 2 kg
        const float mg = w.mass(mass) * 10.0f;
        RevoluteJointDef d = w.makeRevoluteJointDef(anchor, mass, {0.0f, 5.0f});
        d.forceThreshold = factor * mg;
        int tag = 42;
        d.userData = &tag;
        const JointId pin = w.createJoint(d);
        int reported = 0;
        float worst = 0.0f;  // largest |‖F‖ - m·g| / m·g over the run
        for (int step = 0; step < 120; ++step) {
            w.step(kDt);
            const Vec2 f = w.jointConstraintForce(pin);
            worst = std::max(worst, std::fabs(length(f) - mg) / mg);
            const bool over = length(f) > factor * mg;
            const std::span<const JointEvent> ev = w.jointEvents();
            ASSERT_EQ(ev.size(), over ? 1u : 0u) << "step " << step << " force " << length(f);
            if (over) {
                EXPECT_EQ(ev[0].jointId, pin);
                EXPECT_EQ(ev[0].userData, &tag);
                ++reported;
            }
            if (step >= 10) {
                EXPECT_NEAR(f.y, mg, 1e-3f * mg);
                EXPECT_NEAR(f.x, 0.0f, 1e-3f * mg);
            }
            // The older names are the same values.
            EXPECT_EQ(w.jointReactionForce(pin), f);
            EXPECT_EQ(w.jointReactionTorque(pin), w.jointConstraintTorque(pin));
        }
        // The soft step holds a pinned mass with exactly m·g from the first step.
        EXPECT_EQ(reported, factor < 1.0f ? 120 : 0);
        std::printf("pin, threshold %.2f m·g: %d/120 steps reported, max |F - m·g| / m·g = %.2g\n",
                    double(factor), reported, double(worst));
    }
}

// A weld holding a horizontal beam by one end carries the torque m·g·L/2.
TEST(EventData, TorqueThresholdOnAWeldedBeam) {
    for (const float factor : {0.98f, 1.02f}) {
        WorldDef def;
        def.enableSleep = false;
        World w(def);
        BodyId wall = w.createBody(BodyDef{});
        BodyId beam = test::addBox(w, {1.0f, 0.0f}, 1.0f, 0.1f);  // 2 m long, its end at x = 0
        const float torque = w.mass(beam) * 10.0f * 1.0f;
        WeldJointDef d = w.makeWeldJointDef(wall, beam, {0.0f, 0.0f});
        d.torqueThreshold = factor * torque;
        const JointId weld = w.createJoint(d);
        int reported = 0;
        float worst = 0.0f;  // from step 10 on
        for (int step = 0; step < 90; ++step) {
            w.step(kDt);
            const bool over = std::fabs(w.jointConstraintTorque(weld)) > factor * torque;
            if (step >= 10)
                worst = std::max(
                    worst, std::fabs(std::fabs(w.jointConstraintTorque(weld)) - torque) / torque);
            ASSERT_EQ(w.jointEvents().size(), over ? 1u : 0u);
            reported += over;
            if (step >= 10) {
                EXPECT_NEAR(std::fabs(w.jointConstraintTorque(weld)), torque, 1e-3f * torque);
            }
        }
        // Only the first step, while the beam starts to hang, differs.
        if (factor < 1.0f) {
            EXPECT_GE(reported, 89);
        } else {
            EXPECT_LE(reported, 1);
        }
        std::printf(
            "weld, threshold %.2f m·g·L/2: %d/90 steps reported, max |T - m·g·L/2| / m·g·L/2 = "
            "%.2g (steps 10-89)\n",
            double(factor), reported, double(worst));
    }
}

// A chain of links with a heavy mass at its end: the top joint carries the
// whole weight, each lower joint less. With one threshold on every joint
// between the top joint's load and the next, only the top joint reports;
// the game destroys it in response and the chain falls freely.
TEST(EventData, BreakableChainBreaksAtTheTopAndFalls) {
    WorldDef def;
    def.enableSleep = false;
    World w(def);
    BodyId prev = w.createBody(BodyDef{});
    std::vector<JointId> joints;
    std::vector<BodyId> links;
    const int n = 4;
    float total = 0.0f;
    for (int i = 0; i < n; ++i) {
        const Vec2 pin{0.0f, 10.0f - float(i)};
        // Vertical links 1 m long, 0.2 kg; the last one twice as dense (the hanging mass).
        BodyId link =
            test::addBox(w, {pin.x, pin.y - 0.5f}, 0.1f, 0.5f, 0.0f, i == n - 1 ? 2.0f : 1.0f);
        total += w.mass(link);
        RevoluteJointDef d = w.makeRevoluteJointDef(prev, link, pin);
        joints.push_back(w.createJoint(d));
        links.push_back(link);
        prev = link;
    }
    const float below = 10.0f * (total - w.mass(links[0]));  // what the second joint carries
    const float top = 10.0f * total;
    for (JointId j : joints) w.setJointForceThreshold(j, 0.5f * (below + top));
    EXPECT_EQ(w.jointForceThreshold(joints[2]), 0.5f * (below + top));
    // Settle with the thresholds out of the way, then arm them.
    for (JointId j : joints) w.setJointForceThreshold(j, FLT_MAX);
    test::run(w, 60);
    EXPECT_NEAR(length(w.jointConstraintForce(joints[0])), top, 1e-3f * top);
    EXPECT_NEAR(length(w.jointConstraintForce(joints[1])), below, 1e-3f * top);
    std::printf(
        "chain after 60 steps: top joint %.5g N (expected %.5g), second %.5g N (expected %.5g)\n",
        double(length(w.jointConstraintForce(joints[0]))), double(top),
        double(length(w.jointConstraintForce(joints[1]))), double(below));
    for (JointId j : joints) w.setJointForceThreshold(j, 0.5f * (below + top));
    w.step(kDt);
    ASSERT_EQ(w.jointEvents().size(), 1u);
    EXPECT_EQ(w.jointEvents()[0].jointId, joints[0]);
    // The engine destroyed nothing; the game breaks the joint.
    EXPECT_TRUE(w.isValid(joints[0]));
    const Vec2 p0 = w.position(links[n - 1]);
    for (const JointEvent& e : w.jointEvents()) w.destroyJoint(e.jointId);
    EXPECT_FALSE(w.isValid(joints[0]));
    const int steps = 30;
    test::run(w, steps);
    // Free fall of the whole chain: Δy = -½ g t², v = -g t (one step of
    // semi-implicit Euler ahead: within g·dt).
    const float t = float(steps) * kDt;
    EXPECT_NEAR(w.position(links[n - 1]).y - p0.y, -0.5f * 10.0f * t * t, 10.0f * kDt * t);
    EXPECT_NEAR(w.linearVelocity(links[n - 1]).y, -10.0f * t, 0.05f);
    EXPECT_TRUE(w.jointEvents().empty());  // the chain in free fall pulls on nothing
}

TEST(EventData, ThresholdsAreValidatedAndTheWorldKeptAsItWas) {
    World w;
    BodyId a = w.createBody(BodyDef{});
    BodyId b = test::addBox(w, {0.0f, 0.0f}, 0.5f, 0.5f);
    DistanceJointDef d = w.makeDistanceJointDef(a, b, {0.0f, 1.0f}, {0.0f, 0.0f});
    for (float bad : {-1.0f, std::nanf(""), INFINITY}) {
        d.forceThreshold = bad;
        try {
            w.createJoint(d);
            ADD_FAILURE() << "forceThreshold " << bad << " accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), "forceThreshold");
        }
    }
    d.forceThreshold = FLT_MAX;
    d.torqueThreshold = -0.5f;
    EXPECT_THROW(w.createJoint(d), Error);
    EXPECT_EQ(w.counters().joints, 0);
    d.torqueThreshold = 0.0f;  // 0 is allowed: any torque at all reports
    const JointId j = w.createJoint(d);
    EXPECT_EQ(w.jointTorqueThreshold(j), 0.0f);
    EXPECT_EQ(w.jointForceThreshold(j), FLT_MAX);
    try {
        w.setJointForceThreshold(j, -2.0f);
        ADD_FAILURE() << "a negative threshold was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.field(), "forceThreshold");  // the def member, as for every joint setter
    }
    EXPECT_EQ(w.jointForceThreshold(j), FLT_MAX);
    EXPECT_EQ(w.distanceJointDef(j).torqueThreshold, 0.0f);
    w.destroyJoint(j);
    EXPECT_THROW(w.setJointTorqueThreshold(j, 1.0f), Error);
}

// ---- reading events while changing the world -------------------------------------

// The game walks every span of the step and destroys what they name (bodies
// of contact and move events, broken joints): the spans stay where they were
// with the same contents (run under ASan by the sanitizer suite), and the
// end events those destructions cause come with the next step.
TEST(EventData, DestroyingWhileReadingEventsLeavesTheSpansIntact) {
    Arena a(21);
    // Sensors and breakable joints so that every kind of event is present.
    ShapeDef sensorDef;
    sensorDef.isSensor = true;
    a.w.createShape(a.w.createBody(BodyDef{}), sensorDef, makeBox(12.0f, 1.5f));
    for (int i = 0; i < 6; ++i) {
        RevoluteJointDef d =
            a.w.makeRevoluteJointDef(a.bodies[size_t(2 * i)], a.bodies[size_t(2 * i + 1)],
                                     a.w.position(a.bodies[size_t(2 * i)]));
        d.forceThreshold = 0.0f;
        d.collideConnected = true;
        a.w.createJoint(d);
    }
    int destroyed = 0, sawSensor = 0, sawJoint = 0;
    for (int step = 0; step < 120; ++step) {
        a.w.step(kDt);
        const ContactEvents ce = a.w.contactEvents();
        const SensorEvents se = a.w.sensorEvents();
        const std::span<const BodyMoveEvent> me = a.w.bodyMoveEvents();
        const std::span<const JointEvent> je = a.w.jointEvents();
        const std::vector<ContactBeginEvent> begin(ce.begin.begin(), ce.begin.end());
        const std::vector<SensorBeginEvent> sensorBegin(se.begin.begin(), se.begin.end());
        const std::vector<BodyMoveEvent> moves(me.begin(), me.end());
        const std::vector<JointEvent> joints(je.begin(), je.end());
        sawSensor += int(se.begin.size() + se.end.size());
        sawJoint += int(je.size());
        for (const JointEvent& e : je)
            if (a.w.isValid(e.jointId)) a.w.destroyJoint(e.jointId);
        for (const ContactBeginEvent& e : ce.begin) {
            if (step % 10 != 0 || !a.w.isValid(e.shapeB)) continue;
            const BodyId b = a.w.shapeBody(e.shapeB);
            if (a.w.bodyType(b) == BodyType::Dynamic) a.w.destroyBody(b), ++destroyed;
        }
        for (const SensorBeginEvent& e : se.begin)
            if (step % 7 == 0 && a.w.isValid(e.visitorShape))
                a.w.destroyBody(a.w.shapeBody(e.visitorShape)), ++destroyed;
        for (const BodyMoveEvent& e : me)
            if (step == 60 && a.w.isValid(e.body) && (e.body.index % 3) == 0)
                a.w.destroyBody(e.body), ++destroyed;
        // Same spans, same contents, after all that.
        const ContactEvents ce2 = a.w.contactEvents();
        ASSERT_EQ(ce2.begin.data(), ce.begin.data());
        ASSERT_EQ(ce2.end.data(), ce.end.data());
        ASSERT_EQ(ce2.end.size(), ce.end.size());
        ASSERT_EQ(a.w.sensorEvents().end.size(), se.end.size());
        ASSERT_EQ(a.w.bodyMoveEvents().data(), me.data());
        ASSERT_EQ(a.w.jointEvents().data(), je.data());
        ASSERT_TRUE(std::equal(begin.begin(), begin.end(), ce.begin.begin(), ce.begin.end(),
                               [](const auto& x, const auto& y) {
                                   return x.contact == y.contact && x.shapeA == y.shapeA;
                               }));
        ASSERT_TRUE(std::equal(
            sensorBegin.begin(), sensorBegin.end(), se.begin.begin(), se.begin.end(),
            [](const auto& x, const auto& y) { return x.visitorShape == y.visitorShape; }));
        ASSERT_TRUE(std::equal(moves.begin(), moves.end(), me.begin(), me.end(),
                               [](const auto& x, const auto& y) { return x.body == y.body; }));
        ASSERT_TRUE(
            std::equal(joints.begin(), joints.end(), je.begin(), je.end(),
                       [](const auto& x, const auto& y) { return x.jointId == y.jointId; }));
    }
    EXPECT_GT(destroyed, 10);
    EXPECT_GT(sawSensor, 0);
    EXPECT_GT(sawJoint, 0);
}

// Move events are written where each body's step ends (the write-back), then
// patched for what happens after it: continuous collision moving a fast body
// back to its time of impact, and the sleep stage. After every step each
// event must still be the body's pose and awake state as the step left
// them, one per body that was awake, at 1 and 2 workers.
TEST(EventData, MoveEventsAreTheFinalPoseAndSleepOfEveryStep) {
    for (int workers : {1, 2}) {
        WorldDef def;
        def.workerCount = workers;
        World w(def);
        test::addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f);
        test::addGround(w, {10.0f, 3.0f}, 0.05f,
                        3.0f);  // a thin wall the fast balls would pass through
        for (int i = 0; i < 4; ++i)
            test::addBox(w, {-5.0f, 0.5f + float(i)}, 0.5f, 0.5f);  // falls asleep
        std::vector<BodyId> fast;
        for (int i = 0; i < 3; ++i)
            fast.push_back(test::addBall(w, {0.0f, 1.0f + float(i)}, 0.1f, 0.0f, {400.0f, 0.0f}));
        w.setBullet(fast[2], true);
        int asleep = 0, steps = 0;
        for (; steps < 600 && asleep < 4; ++steps) {
            w.step(kDt);
            const std::span<const BodyMoveEvent> moves = w.bodyMoveEvents();
            std::set<int> seen;
            for (const BodyMoveEvent& e : moves) {
                ASSERT_TRUE(seen.insert(e.body.index).second) << "two events for one body";
                const Transform xf = w.transform(e.body);
                ASSERT_EQ(std::memcmp(&e.transform, &xf, sizeof(Transform)), 0) << "step " << steps;
                ASSERT_EQ(e.fellAsleep, !w.isAwake(e.body)) << "step " << steps;
                asleep += int(e.fellAsleep);
            }
            if (steps == 0) {
                ASSERT_EQ(moves.size(), 7u);  // every dynamic body moved in the first step
            }
        }
        EXPECT_EQ(asleep, 4) << "the stack fell asleep";  // and none of it woke again
        // Continuous collision stopped the balls at the wall (their events matched that pose).
        for (BodyId b : fast) EXPECT_LT(w.position(b).x, 10.0f) << "workers " << workers;
    }
}

}  // namespace
}  // namespace carom
