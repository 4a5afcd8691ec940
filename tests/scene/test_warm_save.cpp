// Warm saves (SaveOptions::warm, docs/scene-format.md "Cold and warm
// files"): a scene saved with its warm section and reloaded steps to the
// same bits as the original, from any moment, for every demo scene; and
// what the warm section carries beyond motion (events) or refuses.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <sstream>

#include <carom/scene.hpp>

#include "tests/support/internals.hpp"
#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

SaveOptions warmOptions() {
    SaveOptions options;
    options.warm = true;
    return options;
}

// The first body whose position, rotation or velocities differ in any bit
// between the two worlds (bodies in creation order), described; empty when
// every bit agrees.
std::string firstDifference(const World& a, const World& b) {
    const std::vector<BodyId> ba = a.bodies();
    const std::vector<BodyId> bb = b.bodies();
    if (ba.size() != bb.size())
        return std::to_string(ba.size()) + " bodies against " + std::to_string(bb.size());
    auto bits = [](float x) {
        uint32_t u;
        std::memcpy(&u, &x, sizeof u);
        return u;
    };
    for (std::size_t k = 0; k < ba.size(); ++k) {
        const Vec2 pa = a.position(ba[k]), pb = b.position(bb[k]);
        const Rot qa = a.rotation(ba[k]), qb = b.rotation(bb[k]);
        const Vec2 va = a.linearVelocity(ba[k]), vb = b.linearVelocity(bb[k]);
        const float wa = a.angularVelocity(ba[k]), wb = b.angularVelocity(bb[k]);
        if (bits(pa.x) != bits(pb.x) || bits(pa.y) != bits(pb.y) || bits(qa.c) != bits(qb.c) ||
            bits(qa.s) != bits(qb.s) || bits(va.x) != bits(vb.x) || bits(va.y) != bits(vb.y) ||
            bits(wa) != bits(wb)) {
            std::ostringstream out;
            out.precision(9);
            out << "body " << k << " (\"" << a.name(ba[k]) << "\"): position " << pa.x << ", "
                << pa.y << " / " << pb.x << ", " << pb.y << "; velocity " << va.x << ", " << va.y
                << ", " << wa << " / " << vb.x << ", " << vb.y << ", " << wb;
            return out.str();
        }
    }
    return {};
}

// ---- every demo scene, from several moments --------------------------------------

class WarmSaveEveryDemoScene : public ::testing::TestWithParam<std::string> {};

// The scene runs once to 120 steps; after 1, 5, 50 and 100 steps it is
// saved warm from its runner (characters, platforms and pending events
// included) and reloaded, the reload saves to the same text, and each
// reload then runs 20 steps beside the original, every body's bits compared
// after each step. The warm file once lost the solver's centres of mass
// (the pyramid after 1 step), the fast-body marks that manifold reuse reads
// (card house, tumbler, dominoes, joints), the gears' counted coordinates
// and constants (gears_pulleys), and a character's capsule had no place in
// the section (platformer: not savable at all).
TEST_P(WarmSaveEveryDemoScene, ContinuesBitForBitAfter1_5_50And100Steps) {
    constexpr int kMore = 20;
    constexpr std::int64_t kMoments[] = {1, 5, 50, 100};
    struct Reload {
        std::int64_t savedAt = 0;
        std::unique_ptr<SceneRunner> runner;
        bool failed = false;
    };
    std::vector<Reload> reloads;
    SceneRunner original(loadFile(GetParam()));
    for (std::int64_t step = 1; step <= kMoments[3] + kMore; ++step) {
        original.step();
        for (Reload& r : reloads) {
            if (r.failed || step > r.savedAt + kMore) continue;
            r.runner->step();
            const std::string diff = firstDifference(original.world(), r.runner->world());
            if (!diff.empty()) {
                ADD_FAILURE() << "saved after " << r.savedAt << " steps, " << (step - r.savedAt)
                              << " steps on: " << diff;
                r.failed = true;
            }
        }
        for (std::int64_t moment : kMoments) {
            if (step != moment) continue;
            const std::string text = sceneJson(original, warmOptions());
            auto reloaded = std::make_unique<SceneRunner>(loadString(text, "warm.json"));
            EXPECT_EQ(firstDifference(original.world(), reloaded->world()), "")
                << "at load, saved after " << step;
            // The imported state exports as it was written.
            EXPECT_TRUE(sceneJson(*reloaded, warmOptions()) == text) << "saved after " << step;
            reloads.push_back({step, std::move(reloaded), false});
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Scenes, WarmSaveEveryDemoScene,
                         ::testing::ValuesIn(test::jsonFiles(CAROM_SCENES_DIR)),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             return std::filesystem::path(info.param).stem().string();
                         });

// ---- events ---------------------------------------------------------------------

// A box resting on the ground inside a sensor, saved warm: once it is
// thrown up, the reload reports the contact's end and the sensor's end as
// the original does, and no second begin for the sensor (the begin-event
// marks of contacts and the sensors' overlaps are in the warm section).
TEST(WarmSave, ContactAndSensorEventsContinueAsInTheOriginal) {
    const std::string scene = R"({"carom": 1, "bodies": [
      {"name": "ground", "type": "static", "shapes": [{"type": "segment", "p1": [-10, 0], "p2": [10, 0]},
                                                      {"type": "box", "half_extents": [2, 2], "center": [0, 1], "sensor": true}]},
      {"name": "box", "type": "dynamic", "position": [0, 0.5], "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}]})";
    SceneRunner original(loadString(scene, "events.json"));
    original.run(10);
    ASSERT_EQ(original.world()
                  .sensorOverlaps(original.world().shapes(original.findBody("ground"))[1])
                  .size(),
              1u);
    const std::string text = sceneJson(original, warmOptions());
    EXPECT_NE(text.find("\"begin_sent\": true"), std::string::npos);
    EXPECT_NE(text.find("\"sensors\": ["), std::string::npos);
    SceneRunner reloaded(loadString(text, "warm.json"));
    auto events = [](SceneRunner& r) {
        World& w = r.world();
        w.setLinearVelocity(r.findBody("box"), {0.0f, 20.0f});
        std::string log;
        for (int step = 1; step <= 30; ++step) {
            r.step();
            const ContactEvents c = w.contactEvents();
            const SensorEvents s = w.sensorEvents();
            for (std::size_t k = 0; k < c.begin.size(); ++k)
                log += std::to_string(step) + " contact begin\n";
            for (std::size_t k = 0; k < c.end.size(); ++k)
                log += std::to_string(step) + " contact end\n";
            for (std::size_t k = 0; k < s.begin.size(); ++k)
                log += std::to_string(step) + " sensor begin\n";
            for (std::size_t k = 0; k < s.end.size(); ++k)
                log += std::to_string(step) + " sensor end\n";
        }
        return log;
    };
    const std::string expected = events(original);
    EXPECT_NE(expected.find("contact end"), std::string::npos) << expected;
    EXPECT_NE(expected.find("sensor end"), std::string::npos) << expected;
    EXPECT_EQ(events(reloaded), expected);
    EXPECT_EQ(firstDifference(original.world(), reloaded.world()), "");
}

// ---- what cannot be written ----------------------------------------------------

// A solver value that is not finite (a fault of the world, such as a NaN
// impulse a joint's solve left) is refused by name and key, instead of
// being written as null and failing the writer's own reload check with
// "expected a number, got null"; the world still saves cold.
TEST(WarmSave, ANonFiniteJointImpulseIsRefusedByNameNotWrittenAsNull) {
    SceneRunner runner(loadFile(std::string(CAROM_SCENES_DIR) + "/joints.json"));
    runner.run(5);
    World& w = runner.world();
    ASSERT_FALSE(w.joints().empty());
    internals(w).joints[std::size_t(w.joints()[0].index)].carried.motorImpulse =
        std::numeric_limits<float>::quiet_NaN();
    try {
        sceneJson(runner, warmOptions());
        FAIL() << "saved";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.kind, SceneError::Kind::Unsavable) << e.what();
        const std::string message = e.what();
        EXPECT_NE(message.find("joints[0]"), std::string::npos) << message;
        EXPECT_NE(message.find("motor impulse"), std::string::npos) << message;
        EXPECT_NE(message.find("NaN"), std::string::npos) << message;
        EXPECT_EQ(message.find("null"), std::string::npos) << message;
    }
    EXPECT_NO_THROW(SceneRunner(loadString(sceneJson(runner), "cold.json")));
}

// ---- the engine's rules for the new parts --------------------------------------

// setWarmState checks the centres of mass, gear states, begin-event marks
// and sensor overlaps before it changes anything, naming the field.
TEST(WarmState, CentresGearsEventMarksAndSensorsAreChecked) {
    const std::string scene = R"({"carom": 1, "bodies": [
      {"name": "ground", "type": "static", "shapes": [{"type": "segment", "p1": [-10, 0], "p2": [10, 0]},
                                                      {"type": "circle", "radius": 3, "sensor": true}]},
      {"name": "box", "type": "dynamic", "position": [0, 0.5], "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]},
      {"name": "high", "type": "dynamic", "position": [5, 4], "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}],
      "joints": [{"type": "revolute", "a": "ground", "b": "high", "anchor": [5, 4]}]})";
    SceneRunner original(loadString(scene, "checks.json"));
    original.run(10);
    const WarmState s = original.world().warmState();
    ASSERT_EQ(s.bodies.size(), 2u);
    ASSERT_EQ(s.sensors.size(), 1u);
    ASSERT_EQ(s.sensors[0].overlaps.size(), 1u);
    std::size_t touching = 0;
    while (touching < s.contacts.size() && !s.contacts[touching].touching) ++touching;
    ASSERT_LT(touching, s.contacts.size());
    EXPECT_TRUE(s.contacts[touching].beginEventSent);
    const std::string cold = worldJson(original.world());
    auto refused = [&](const WarmState& bad, const std::string& field) {
        test::expectWarmStateRefused(cold, bad, field);
    };
    WarmState bad = s;
    bad.bodies[0].center.x += 0.01f;
    refused(bad, "bodies[0].center");
    bad = s;
    bad.bodies[0].center.y = std::numeric_limits<float>::quiet_NaN();
    refused(bad, "bodies[0].center");
    bad = s;
    bad.joints[0].gear = true;  // a revolute joint
    refused(bad, "joints[0].gear");
    bad = s;
    bad.contacts[touching].touching = false;
    bad.contacts[touching].pointCount = 0;
    refused(bad, "contacts[" + std::to_string(touching) + "].beginEventSent");
    bad = s;
    bad.sensors[0].overlaps.push_back(bad.sensors[0].overlaps[0]);
    refused(bad, "sensors[0].overlaps");
    bad = s;
    bad.sensors[0].overlaps[0] = bad.sensors[0].sensor;  // itself: a sensor of its own body
    refused(bad, "sensors[0].overlaps");
    bad = s;
    bad.sensors[0].sensor = original.world().shapes(original.findBody("box"))[0];
    refused(bad, "sensors[0].sensor");
    // And the state as exported is taken, and exports again as it was.
    SceneRunner fresh(loadString(cold, "cold.json"));
    fresh.world().setWarmState(s);
    const std::string warm = worldJson(original.world(), warmOptions());
    EXPECT_EQ(worldJson(fresh.world(), warmOptions()), warm);
    // A file without the centres (optional keys) loads, each body's centre
    // taken as the rebuilt body's.
    std::string withoutCentres = warm;
    for (std::size_t at; (at = withoutCentres.find(", \"center\": [")) != std::string::npos;)
        withoutCentres.erase(at, withoutCentres.find(']', at) + 1 - at);
    SceneRunner older(loadString(withoutCentres, "older.json"));
    EXPECT_EQ(older.world().stateHash(), original.world().stateHash());
}

// A gear's state is refused out of its bounds (finite, within 1e12), by field.
TEST(WarmState, GearStatesAreChecked) {
    SceneRunner runner(loadFile(std::string(CAROM_SCENES_DIR) + "/gears_pulleys.json"));
    runner.run(5);
    const WarmState s = runner.world().warmState();
    std::size_t gear = 0;
    while (gear < s.joints.size() && !s.joints[gear].gear) ++gear;
    ASSERT_LT(gear, s.joints.size());
    const std::string cold = worldJson(runner.world());
    for (float bad : {std::numeric_limits<float>::infinity(),
                      std::numeric_limits<float>::quiet_NaN(), 2.0e12f}) {
        WarmState b = s;
        b.joints[gear].gearConstant = bad;
        test::expectWarmStateRefused(cold, b, "joints[" + std::to_string(gear) + "].gear");
    }
}

}  // namespace
}  // namespace carom::scene
