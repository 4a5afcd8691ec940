// Save -> load round trips: the reloaded world has the same state hash,
// bit for bit, and saving it again writes the same text.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <random>

#include <carom/geometry.hpp>
#include <carom/limits.hpp>
#include <carom/scene.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

void expectSameBodies(const SceneRunner& a, const SceneRunner& b) {
    const World& wa = a.world();
    const World& wb = b.world();
    std::vector<BodyId> ba = wa.bodies();
    std::vector<BodyId> bb = wb.bodies();
    ASSERT_EQ(ba.size(), bb.size());
    for (std::size_t k = 0; k < ba.size(); ++k) {
        EXPECT_EQ(a.nameOf(ba[k]), b.nameOf(bb[k])) << k;
        EXPECT_EQ(wa.bodyType(ba[k]), wb.bodyType(bb[k])) << k;
        EXPECT_EQ(wa.position(ba[k]), wb.position(bb[k])) << k;
        EXPECT_EQ(wa.rotation(ba[k]).c, wb.rotation(bb[k]).c) << k;
        EXPECT_EQ(wa.rotation(ba[k]).s, wb.rotation(bb[k]).s) << k;
        EXPECT_EQ(wa.linearVelocity(ba[k]), wb.linearVelocity(bb[k])) << k;
        EXPECT_EQ(wa.angularVelocity(ba[k]), wb.angularVelocity(bb[k])) << k;
        EXPECT_EQ(wa.isAwake(ba[k]), wb.isAwake(bb[k])) << k;
        EXPECT_EQ(wa.shapes(ba[k]).size(), wb.shapes(bb[k]).size()) << k;
        EXPECT_EQ(wa.mass(ba[k]), wb.mass(bb[k])) << k;
    }
    EXPECT_EQ(wa.joints().size(), wb.joints().size());
    EXPECT_EQ(wa.gravity(), wb.gravity());
    EXPECT_EQ(a.pendingEvents(), b.pendingEvents());
}

class SaveRoundTrip : public ::testing::TestWithParam<std::pair<const char*, int>> {};

TEST_P(SaveRoundTrip, SameHashAndSameText) {
    auto [file, steps] = GetParam();
    SceneRunner original(loadFile(std::string(CAROM_SCENES_DIR) + "/" + file));
    original.run(steps);
    std::string saved = sceneJson(original);
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash()) << file;
    expectSameBodies(original, reloaded);
    // Saving the reloaded world again gives the very same file.
    EXPECT_EQ(sceneJson(reloaded), saved) << file;
}

INSTANTIATE_TEST_SUITE_P(
    Scenes, SaveRoundTrip,
    ::testing::Values(std::make_pair("default.json", 90), std::make_pair("joints.json", 60),
                      std::make_pair("car.json", 60), std::make_pair("ragdolls.json", 45),
                      std::make_pair("spawn_events.json", 150), std::make_pair("one_way.json", 40),
                      std::make_pair("sensors_filtering.json", 30),
                      std::make_pair("newtons_cradle.json", 30), std::make_pair("arch.json", 0),
                      std::make_pair("tiles.json", 120)));

// A revolute's and a prismatic's spring `target` reach the joints
// (targetAngle, targetTranslation) and drive them there; a distance joint's
// `motor`, a `filter` joint and a body's `contact_reuse` reach the world;
// all survive a save.
TEST(SaveRoundTrip, SpringTargetsAreKept) {
    const std::string text = R"({"carom": 1, "world": {"gravity": [0, 0]},
        "bodies": [{"name": "g"},
          {"name": "disc", "type": "dynamic", "position": [0, 0], "shapes": [{"type": "circle", "radius": 0.5}]},
          {"name": "slide", "type": "dynamic", "position": [3, 0], "contact_reuse": false, "shapes": [{"type": "box", "half_extents": [0.25, 0.25]}]}],
        "joints": [
          {"type": "revolute", "a": "g", "b": "disc", "anchor": [0, 0], "spring": {"hertz": 2, "damping_ratio": 1, "target": 0.75}},
          {"type": "prismatic", "a": "g", "b": "slide", "anchor": [3, 0], "axis": [1, 0], "spring": {"hertz": 2, "damping_ratio": 1, "target": -0.5}},
          {"type": "distance", "a": "g", "b": "disc", "anchor_a": [0, 2], "anchor_b": [0, 0], "min_length": 1, "max_length": 3,
           "spring": {"hertz": 0}, "motor": {"speed": 0.25, "max_force": 40}},
          {"type": "filter", "a": "disc", "b": "slide"}]})";
    SceneRunner runner(loadString(text, "targets.json"));
    const std::vector<JointId> joints = runner.world().joints();
    ASSERT_EQ(joints.size(), 4u);
    EXPECT_EQ(runner.world().jointType(joints[3]), JointType::Filter);
    EXPECT_FALSE(runner.world().isContactReuseEnabled(runner.findBody("slide")));
    EXPECT_EQ(runner.world().revoluteJointDef(joints[0]).targetAngle, 0.75f);
    const DistanceJointDef winch = runner.world().distanceJointDef(joints[2]);
    EXPECT_TRUE(winch.enableMotor);
    EXPECT_EQ(winch.motorSpeed, 0.25f);
    EXPECT_EQ(winch.maxMotorForce, 40.0f);
    EXPECT_EQ(runner.world().prismaticJointDef(joints[1]).targetTranslation, -0.5f);
    runner.run(180);
    EXPECT_NEAR(runner.world().revoluteAngle(joints[0]), 0.75f, 1e-3f);
    EXPECT_NEAR(runner.world().jointTranslation(joints[1]), -0.5f, 1e-3f);
    const std::string saved = sceneJson(runner);
    EXPECT_NE(saved.find("\"target\": 0.75"), std::string::npos) << saved;
    EXPECT_NE(saved.find("\"max_force\": 40"), std::string::npos) << saved;
    EXPECT_NE(saved.find("\"type\": \"filter\""), std::string::npos) << saved;
    EXPECT_NE(saved.find("\"contact_reuse\": false"), std::string::npos) << saved;
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_EQ(reloaded.world().stateHash(), runner.world().stateHash());
    EXPECT_EQ(sceneJson(reloaded), saved);
}

// world.tile_seams false reaches the World, changes the run (the boxes snag
// on the tiles) and survives a save.
TEST(SaveRoundTrip, TileSeamsOffIsKept) {
    std::string text = test::readText(std::string(CAROM_SCENES_DIR) + "/tiles.json");
    const std::string key = "\"duration\": 8,";
    ASSERT_NE(text.find(key), std::string::npos);
    text.replace(text.find(key), key.size(), key + " \"world\": {\"tile_seams\": false},");
    SceneRunner joined(loadFile(std::string(CAROM_SCENES_DIR) + "/tiles.json"));
    SceneRunner off(loadString(text, "tiles_off.json"));
    EXPECT_TRUE(joined.world().def().joinTileSeams);
    EXPECT_FALSE(off.world().def().joinTileSeams);
    joined.run(120);
    off.run(120);
    EXPECT_NE(joined.world().stateHash(), off.world().stateHash());
    const std::string saved = sceneJson(off);
    EXPECT_NE(saved.find("\"tile_seams\": false"), std::string::npos);
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_FALSE(reloaded.world().def().joinTileSeams);
    EXPECT_EQ(reloaded.world().stateHash(), off.world().stateHash());
}

// A world switch of the arch scene: `entry` ("\"key\": value") reaches the
// World (isSet on its WorldDef; the plain scene has the default, for which
// isSet is false), the default is not written, the set value changes the run
// where changesRun, is written as `entry` and survives a save; a `bad` value
// is refused with the key's name in the message.
struct WorldKeyCase {
    std::string entry;
    bool (*isSet)(const WorldDef&);
    bool changesRun = true;
    std::string bad;  // empty: no refusal checked
};

void checkWorldKeyRoundTrip(const WorldKeyCase& k) {
    const std::string path = std::string(CAROM_SCENES_DIR) + "/arch.json";
    const std::string name = k.entry.substr(1, k.entry.find('"', 1) - 1);
    const std::string text = test::readText(path);
    const std::string world = "\"world\": {\"substeps\": 8}";
    ASSERT_NE(text.find(world), std::string::npos);
    auto withEntry = [&](const std::string& entry) {
        std::string t = text;
        t.replace(t.find(world), world.size(), "\"world\": {\"substeps\": 8, " + entry + "}");
        return t;
    };
    SceneRunner plain(loadFile(path));
    SceneRunner set(loadString(withEntry(k.entry), "arch_set.json"));
    EXPECT_FALSE(k.isSet(plain.world().def())) << name;
    EXPECT_TRUE(k.isSet(set.world().def())) << name;
    EXPECT_EQ(sceneJson(plain).find(name), std::string::npos);
    plain.run(120);
    set.run(120);
    if (k.changesRun) {
        EXPECT_NE(plain.world().stateHash(), set.world().stateHash()) << name;
    }
    const std::string saved = sceneJson(set);
    EXPECT_NE(saved.find(k.entry), std::string::npos) << name;
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_TRUE(k.isSet(reloaded.world().def())) << name;
    EXPECT_EQ(reloaded.world().stateHash(), set.world().stateHash()) << name;
    if (k.bad.empty()) return;
    try {
        (void)loadString(withEntry("\"" + name + "\": " + k.bad), "arch_bad.json");
        ADD_FAILURE() << name << " " << k.bad << " was accepted";
    } catch (const SceneError& e) {
        EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
}

// world.relax_shock_scale (default 0.25; outside (0, 1] refused).
TEST(SaveRoundTrip, RelaxShockScaleIsKept) {
    checkWorldKeyRoundTrip({"\"relax_shock_scale\": 0.5",
                            [](const WorldDef& d) { return d.tuning.relaxShockScale == 0.5f; },
                            true, "0"});
}

// world.contact_relax_passes (default 1; outside [1, 8] refused).
TEST(SaveRoundTrip, ContactRelaxPassesIsKept) {
    checkWorldKeyRoundTrip({"\"contact_relax_passes\": 2",
                            [](const WorldDef& d) { return d.tuning.contactRelaxPasses == 2; },
                            true, "0"});
}

// world.contact_leak_scale (default 0.65; outside (0, 1] refused).
TEST(SaveRoundTrip, ContactLeakScaleIsKept) {
    checkWorldKeyRoundTrip({"\"contact_leak_scale\": 1",
                            [](const WorldDef& d) { return d.tuning.contactLeakScale == 1.0f; },
                            true, "0"});
}

TEST(SaveRoundTrip, ThroughAFileAndOnward) {
    // Free bodies in zero gravity, far apart: nothing but integration, so the
    // reloaded world must also stay identical when stepped on.
    SceneRunner original(loadString(R"({"carom": 1, "world": {"gravity": [0, 0]},
        "bodies": [
          {"name": "a", "angular_velocity": 3.3, "linear_velocity": [0.1, 0.7], "shapes": [{"type": "box", "half_extents": [0.3, 0.7]}]},
          {"name": "b", "position": [40, 0], "angular_velocity": -1.7, "shapes": [{"type": "capsule", "p1": [0, 0], "p2": [1, 0.5], "radius": 0.2}]},
          {"position": [-40, 0], "angle": 2, "angular_velocity": 0.9, "linear_velocity": [-1, 0], "shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 0.1], [0.4, 1.3]], "radius": 0.05}]}]})",
                                    "free.json"));
    original.run(77);
    std::string path = test::tempDir() + "/free_saved.json";
    saveScene(original, path);
    SceneRunner reloaded(loadFile(path));
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash());
    original.run(60);
    reloaded.run(60);
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash());
    expectSameBodies(original, reloaded);
}

// The shape key `wind`: the runner applies it before every step (a box in a
// sideways wind drifts; the same box without it does not), save writes it
// back, and the reloaded scene steps on identically.
TEST(SaveRoundTrip, WindKey) {
    SceneRunner original(loadString(R"({"carom": 1, "world": {"gravity": [0, 0]}, "bodies": [
          {"name": "kite", "shapes": [{"type": "box", "half_extents": [0.5, 0.5],
             "wind": {"velocity": [8, 0], "lift": 0.5, "density": 2}}]},
          {"name": "still", "position": [0, 3], "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}]})",
                                    "wind.json"));
    original.run(30);
    const World& w = original.world();
    EXPECT_GT(w.linearVelocity(original.findBody("kite")).x, 0.5f);
    EXPECT_EQ(w.linearVelocity(original.findBody("still")).x, 0.0f);
    const std::optional<Wind> wind = original.windOf(w.shapes(original.findBody("kite"))[0]);
    ASSERT_TRUE(wind.has_value());
    EXPECT_EQ(wind->velocity, (Vec2{8.0f, 0.0f}));
    EXPECT_EQ(wind->drag, 1.0f);
    EXPECT_EQ(wind->lift, 0.5f);
    EXPECT_EQ(wind->density, 2.0f);
    const std::string saved = sceneJson(original);
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash());
    EXPECT_EQ(sceneJson(reloaded), saved);
    original.run(30);
    reloaded.run(30);
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash());
}

// The live settings' keys (scene-format.md "Additions"): loaded into the
// world, written back by save, and the reloaded world steps on identically.
TEST(SaveRoundTrip, LiveSettingsKeys) {
    SceneRunner original(
        loadString(R"({"carom": 1, "world": {"contact_hertz": 20, "contact_damping_ratio": 5,
          "contact_push_max_speed": 2, "joint_hertz": 30, "joint_damping_ratio": 1, "restitution_threshold": 0.5,
          "hit_event_threshold": 2, "max_linear_speed": 50, "warm_starting": false, "friction_mixing": "min",
          "restitution_mixing": "average"},
        "bodies": [
          {"name": "belt", "type": "static", "shapes": [{"type": "box", "half_extents": [10, 0.5],
             "tangent_speed": 1.5, "material_id": 18446744073709551615, "contact_events": false,
             "sensor_events": false, "hit_events": true}]},
          {"name": "a", "position": [0, 1], "sleep_threshold": 0.2, "motion_locks": {"linear_y": false, "angular_z": true},
             "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]},
          {"name": "b", "position": [3, 2], "motion_locks": {"linear_x": true},
             "shapes": [{"type": "circle", "radius": 0.3}]},
          {"name": "c", "position": [-3, 3], "enabled": false, "linear_velocity": [1, 0],
             "shapes": [{"type": "circle", "radius": 0.3}]}]})",
                   "live.json"));
    const World& w = original.world();
    EXPECT_EQ(w.contactHertz(), 20.0f);
    EXPECT_EQ(w.contactPushMaxSpeed(), 2.0f);
    EXPECT_EQ(w.jointDampingRatio(), 1.0f);
    EXPECT_EQ(w.hitEventThreshold(), 2.0f);
    EXPECT_EQ(w.maxLinearSpeed(), 50.0f);
    EXPECT_FALSE(w.isWarmStartingEnabled());
    EXPECT_EQ(w.frictionMixing(), FrictionMixing::Min);
    EXPECT_EQ(w.restitutionMixing(), RestitutionMixing::Average);
    const ShapeId belt = w.shapes(original.findBody("belt"))[0];
    EXPECT_EQ(w.tangentSpeed(belt), 1.5f);
    EXPECT_EQ(w.userMaterialId(belt), ~0ull);
    EXPECT_FALSE(w.areContactEventsEnabled(belt));
    EXPECT_FALSE(w.areSensorEventsEnabled(belt));
    EXPECT_TRUE(w.areHitEventsEnabled(belt));
    EXPECT_EQ(w.sleepThreshold(original.findBody("a")), 0.2f);
    EXPECT_TRUE(w.isFixedRotation(original.findBody("a")));
    EXPECT_TRUE(w.motionLocks(original.findBody("b")).linearX);
    EXPECT_FALSE(w.isEnabled(original.findBody("c")));
    original.run(40);
    EXPECT_EQ(w.position(original.findBody("b")).x, 3.0f);
    EXPECT_EQ(w.position(original.findBody("c")), (Vec2{-3.0f, 3.0f}));
    EXPECT_GT(w.linearVelocity(original.findBody("a")).x, 0.5f);  // carried by the belt
    const std::string saved = sceneJson(original);
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash());
    expectSameBodies(original, reloaded);
    EXPECT_EQ(sceneJson(reloaded), saved);
    original.run(60);
    reloaded.run(60);
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash());
}

// joint_direct_solve (WorldDef::tuning.enableJointDirectSolve, default true):
// loaded into the world, written back by save only when off, and the reload
// steps on identically.
TEST(SaveRoundTrip, JointDirectSolveKey) {
    const char* chain = R"("bodies": [{"name": "anchor", "type": "static", "position": [0, 5]},
          {"name": "link", "position": [0.5, 5], "shapes": [{"type": "box", "half_extents": [0.5, 0.05]}]},
          {"name": "load", "position": [1.5, 5], "shapes": [{"type": "box", "half_extents": [0.5, 0.5], "density": 1000}]}],
        "joints": [{"type": "revolute", "a": "anchor", "b": "link", "anchor": [0, 5]},
                   {"type": "revolute", "a": "link", "b": "load", "anchor": [1, 5]}]})";
    SceneRunner original(
        loadString(std::string(R"({"carom": 1, "world": {"joint_direct_solve": false}, )") + chain,
                   "iterative.json"));
    EXPECT_FALSE(original.world().def().tuning.enableJointDirectSolve);
    // Saved before the first step: a cold save of a stepped world drops the
    // joints' warm-start impulses, and the continuation would differ.
    const std::string saved = sceneJson(original);
    EXPECT_NE(saved.find("joint_direct_solve"), std::string::npos);
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_FALSE(reloaded.world().def().tuning.enableJointDirectSolve);
    original.run(60);
    reloaded.run(60);
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash());

    SceneRunner on(loadString(std::string(R"({"carom": 1, )") + chain, "default.json"));
    EXPECT_TRUE(on.world().def().tuning.enableJointDirectSolve);
    EXPECT_EQ(sceneJson(on).find("joint_direct_solve"), std::string::npos);
}

TEST(SaveRoundTrip, PendingEventsKeepTheirMomentsRelativeToNow) {
    SceneRunner original(loadString(R"({"carom": 1, "world": {"gravity": [0, 0]},
        "bodies": [{"name": "a", "shapes": [{"type": "circle", "radius": 1}]}],
        "events": [{"time": 0.5, "action": "impulse", "body": "a", "impulse": [1, 0]},
                   {"time": 1.5, "action": "spawn", "bodies": [{"name": "b", "position": [5, 0]}]}]})",
                                    "x.json"));
    original.run(60);  // the impulse is applied; the spawn is 0.5 s ahead
    SceneRunner reloaded(loadString(sceneJson(original), "saved.json"));
    ASSERT_EQ(reloaded.pendingEvents(), 1u);
    EXPECT_DOUBLE_EQ(reloaded.desc().events[0].time, 0.5);
    reloaded.run(30);
    EXPECT_TRUE(reloaded.findBody("b").isNull());
    reloaded.step();
    EXPECT_FALSE(reloaded.findBody("b").isNull());
}

TEST(SaveRoundTrip, UnnamedJointBodiesGetNames) {
    SceneRunner original(loadString(R"({"carom": 1, "bodies": [
          {"name": "_body0", "type": "static"},
          {"type": "static", "position": [0, 3]},
          {"position": [0, 1], "shapes": [{"type": "circle", "radius": 0.2}]}],
        "events": []})",
                                    "x.json"));
    World& w = original.world();
    std::vector<BodyId> b = w.bodies();
    RevoluteJointDef def;
    def.bodyA = b[1];
    def.bodyB = b[2];
    def.localAnchorA = {0.0f, -1.0f};
    def.localAnchorB = {0.0f, 1.0f};
    w.createJoint(def);
    original.run(10);
    SceneRunner reloaded(loadString(sceneJson(original), "saved.json"));
    EXPECT_EQ(reloaded.world().joints().size(), 1u);
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash());
    EXPECT_EQ(*reloaded.nameOf(reloaded.world().bodies()[0]), "_body0");
}

// Saves, reloads and checks the promise of save: the same state hash and,
// saved again, the same text. Returns false when save refused (with a
// message that says why), which the caller decides to allow or not.
bool roundTrips(const SceneRunner& original, const std::string& label) {
    std::string saved;
    try {
        saved = sceneJson(original);
    } catch (const SceneError& e) {
        EXPECT_EQ(e.kind, SceneError::Kind::Unsavable) << label << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find(": error: cannot save: "), std::string::npos)
            << e.what();
        return false;
    }
    EXPECT_EQ(saved.find("null"), std::string::npos) << label;
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash()) << label;
    std::vector<BodyId> a = original.world().bodies();
    std::vector<BodyId> b = reloaded.world().bodies();
    EXPECT_EQ(a.size(), b.size()) << label;
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
        EXPECT_EQ(original.world().shapes(a[k]).size(), reloaded.world().shapes(b[k]).size())
            << label << " body " << k;
        float ma = original.world().mass(a[k]);
        EXPECT_NEAR(reloaded.world().mass(b[k]), ma, 1.0e-5f * ma) << label << " body " << k;
    }
    EXPECT_EQ(reloaded.world().joints().size(), original.world().joints().size()) << label;
    EXPECT_EQ(sceneJson(reloaded), saved) << label;
    return true;
}

// Joint thresholds are saved (only when set) and load back to the same
// values and the same text.
TEST(SaveRoundTrip, JointThresholds) {
    SceneRunner original(loadString(R"({"carom": 1, "bodies": [
          {"name": "a", "type": "static"},
          {"name": "b", "position": [0, -1], "shapes": [{"type": "circle", "radius": 0.2}]},
          {"name": "c", "position": [0, -2], "shapes": [{"type": "circle", "radius": 0.2}]}],
        "joints": [{"type": "revolute", "a": "a", "b": "b", "anchor": [0, 0], "force_threshold": 12.5},
                   {"type": "distance", "a": "b", "b": "c", "anchor_a": [0, -1], "anchor_b": [0, -2]}]})",
                                    "x.json"));
    World& w = original.world();
    w.setJointTorqueThreshold(w.joints()[1], 0.25f);
    original.run(5);
    const std::string saved = sceneJson(original);
    EXPECT_NE(saved.find("\"force_threshold\": 12.5"), std::string::npos) << saved;
    EXPECT_NE(saved.find("\"torque_threshold\": 0.25"), std::string::npos) << saved;
    EXPECT_EQ(saved.find("\"torque_threshold\": 3.4"), std::string::npos)
        << "an unset threshold was written";
    EXPECT_TRUE(roundTrips(original, "thresholds"));
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_EQ(reloaded.world().jointForceThreshold(reloaded.world().joints()[0]), 12.5f);
    EXPECT_EQ(reloaded.world().jointTorqueThreshold(reloaded.world().joints()[1]), 0.25f);
    EXPECT_EQ(reloaded.world().jointTorqueThreshold(reloaded.world().joints()[0]), FLT_MAX);
}

// Every shipped scene (demos and benchmarks), run for a while, saves to a
// file that loads back to the same state.
std::vector<std::string> shippedScenes() {
    std::vector<std::string> files = test::jsonFiles(CAROM_SCENES_DIR);
    for (const std::string& f : test::jsonFiles(CAROM_BENCH_SCENES_DIR)) files.push_back(f);
    return files;
}

class SaveShipped : public ::testing::TestWithParam<std::string> {};

TEST_P(SaveShipped, AfterRunningLoadsBackToTheSameState) {
    SceneRunner runner(loadFile(GetParam()));
    // Big benchmark scenes get a step; the demos a second and a half.
    runner.run(runner.world().bodies().size() > 1000 ? 1 : 90);
    EXPECT_TRUE(roundTrips(runner, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Scenes, SaveShipped, ::testing::ValuesIn(shippedScenes()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             // demos/scenes/tumbler.json -> demos_tumbler (bench has one too)
                             std::filesystem::path p(info.param);
                             std::string name = p.parent_path().parent_path().filename().string() +
                                                "_" + p.stem().string();
                             for (char& c : name) {
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             }
                             return name;
                         });

// A box 2 mm thick: as a polygon its corners would be welded by the hull
// and refused on reload, so it is saved as a box, both when the file made
// it and when the World API did (recognised bit for bit).
TEST(SaveRoundTrip, ThinBoxesStayBoxes) {
    SceneRunner runner(loadString(R"({"carom": 1, "world": {"gravity": [0, 0]}, "bodies": [
        {"name": "thin", "shapes": [{"type": "box", "half_extents": [0.001, 1]},
                                     {"type": "box", "half_extents": [0.0004, 0.3], "center": [0.7, 0.1], "angle": 0.3, "radius": 0.01}]}]})",
                                  "thin.json"));
    World& w = runner.world();
    BodyId api = w.createBody(BodyDef{});
    w.createShape(api, ShapeDef{}, makeBox(0.001f, 1.0f));
    w.createShape(api, ShapeDef{}, makeOffsetBox(0.001f, 0.5f, Vec2{0.25f, -1.5f}, 1.1f, 0.0f));
    runner.run(5);
    std::string saved = sceneJson(runner);
    EXPECT_EQ(saved.find("\"polygon\""), std::string::npos) << saved;
    EXPECT_NE(saved.find("\"half_extents\": [0.001, 1]"), std::string::npos) << saved;
    EXPECT_TRUE(roundTrips(runner, "thin boxes"));
}

// A body flying out of the +-1e6 m a file can hold is stopped at the bound
// by World::step (limits.hpp, kMaxCoordinate), the very range the loader
// takes, so the world still saves and loads back. (A world save cannot
// hold, beyond the bound or not finite, is refused by name instead:
// requireSavable in save.cpp.)
TEST(SaveRoundTrip, BodiesAtTheCoordinateBoundStillSave) {
    SceneRunner runner(loadString(R"({"carom": 1, "world": {"gravity": [0, 0]}, "bodies": [
        {"name": "rocket", "position": [999999.5, 0], "linear_velocity": [120, 0], "shapes": [{"type": "circle", "radius": 0.5}]}]})",
                                  "rocket.json"));
    EXPECT_TRUE(roundTrips(runner, "before"));
    runner.run(2);
    EXPECT_LE(runner.world().position(runner.findBody("rocket")).x, 1.0e6f);
    EXPECT_TRUE(roundTrips(runner, "at the bound"));
    saveScene(runner, test::tempDir() + "/rocket_saved.json");
    SceneRunner reloaded(loadFile(test::tempDir() + "/rocket_saved.json"));
    EXPECT_EQ(reloaded.world().stateHash(), runner.world().stateHash());
}

// Seeded random worlds, built partly from scene text and partly through the
// World API (any shape kind, thin and rotated boxes, joints between unnamed
// bodies), stepped a random while: each saves to a file that loads back to
// the same state hash, or save refuses with a clear error. None of these
// worlds leaves the file range, so none may be refused.
TEST(SaveRoundTrip, RandomWorldsLoadBackToTheSameState) {
    for (unsigned seed = 1; seed <= 40; ++seed) {
        std::mt19937 rng(seed);
        auto uniform = [&](float lo, float hi) {
            return std::uniform_real_distribution<float>(lo, hi)(rng);
        };
        SceneRunner runner(loadString(R"({"carom": 1, "bodies": [
            {"name": "ground", "type": "static", "shapes": [{"type": "chain", "points": [[30, 0], [0, -1], [-30, 0]]}]},
            {"name": "plank", "position": [0, 3], "shapes": [{"type": "box", "half_extents": [0.0015, 0.8], "angle": 0.2}]}]})",
                                      "random.json"));
        World& w = runner.world();
        std::vector<BodyId> made;
        int count = 3 + static_cast<int>(rng() % 10);
        for (int k = 0; k < count; ++k) {
            BodyDef bd;
            int type = static_cast<int>(rng() % 5);
            bd.type = type == 0   ? BodyType::Static
                      : type == 1 ? BodyType::Kinematic
                                  : BodyType::Dynamic;
            bd.position = {uniform(-20.0f, 20.0f), uniform(0.5f, 15.0f)};
            bd.angle = uniform(-3.0f, 3.0f);
            bd.linearVelocity = {uniform(-5.0f, 5.0f), uniform(-5.0f, 5.0f)};
            bd.angularVelocity = uniform(-4.0f, 4.0f);
            bd.isBullet = rng() % 7 == 0;
            BodyId b = w.createBody(bd);
            int shapes = 1 + static_cast<int>(rng() % 3);
            for (int s = 0; s < shapes; ++s) {
                ShapeDef sd;
                sd.density = uniform(0.1f, 5.0f);
                sd.friction = uniform(0.0f, 1.0f);
                Vec2 c{uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f)};
                switch (rng() % 6) {
                    case 0:
                        w.createShape(b, sd, Circle{c, uniform(0.05f, 1.0f)});
                        break;
                    case 1:
                        w.createShape(
                            b, sd,
                            Capsule{c, c + Vec2{uniform(0.1f, 1.0f), uniform(-1.0f, 1.0f)},
                                    uniform(0.05f, 0.5f)});
                        break;
                    case 2:
                        w.createShape(b, sd,
                                      makeBox(uniform(0.0005f, 1.0f), uniform(0.0005f, 1.0f)));
                        break;
                    case 3:
                        w.createShape(b, sd,
                                      makeOffsetBox(uniform(0.0005f, 1.0f), uniform(0.01f, 1.0f), c,
                                                    uniform(-3.0f, 3.0f),
                                                    rng() % 2 ? 0.0f : uniform(0.0f, 0.1f)));
                        break;
                    case 4: {
                        std::vector<Vec2> points;
                        for (int p = 0; p < 6; ++p)
                            points.push_back(c + Vec2{uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f)});
                        try {
                            w.createShape(
                                b, sd, makePolygon(points, rng() % 2 ? 0.0f : uniform(0.0f, 0.1f)));
                        } catch (const carom::Error&) {
                            // Rarely the points have no area; another shape then.
                            w.createShape(b, sd, Circle{c, 0.3f});
                        }
                        break;
                    }
                    default:
                        w.createShape(
                            b, sd, Segment{c, c + Vec2{uniform(0.1f, 2.0f), uniform(-1.0f, 1.0f)}});
                        break;
                }
            }
            made.push_back(b);
        }
        for (std::size_t k = 1; k < made.size(); k += 3) {
            RevoluteJointDef jd;
            jd.bodyA = made[k - 1];
            jd.bodyB = made[k];
            jd.localAnchorA = {0.5f, 0.0f};
            jd.localAnchorB = {-0.5f, 0.0f};
            w.createJoint(jd);
        }
        runner.run(static_cast<std::int64_t>(rng() % 90));
        EXPECT_TRUE(roundTrips(runner, "seed " + std::to_string(seed))) << "seed " << seed;
    }
}

}  // namespace
}  // namespace carom::scene

// ---- names, saveWorld, every user setting, the warm section -------------------

namespace carom::scene {
namespace {

TEST(BodyNames, SetFindAndRename) {
    World w;
    BodyDef d;
    d.name = "crate";
    BodyId a = w.createBody(d);
    BodyId b = w.createBody(d);  // a duplicate: allowed, the earlier one is found
    BodyId c = w.createBody(BodyDef{});
    EXPECT_EQ(w.name(a), "crate");
    EXPECT_EQ(w.name(c), "");
    EXPECT_EQ(w.findBody("crate"), a);
    EXPECT_TRUE(w.findBody("").isNull());
    EXPECT_TRUE(w.findBody("nothing").isNull());
    w.destroyBody(a);
    EXPECT_EQ(w.findBody("crate"), b);
    w.setName(c, "lid");
    EXPECT_EQ(w.findBody("lid"), c);
    w.setName(b, "");
    EXPECT_TRUE(w.findBody("crate").isNull());
    // A slot reused by a new body does not keep the old name.
    BodyId again = w.createBody(BodyDef{});
    EXPECT_EQ(w.name(again), "");
}

TEST(BodyNames, RefusedNamesLeaveTheWorldAsItWas) {
    World w;
    BodyDef d;
    std::string longName(kMaxBodyNameLength + 1, 'x');
    d.name = longName;
    try {
        w.createBody(d);
        FAIL() << "a name above the limit was accepted";
    } catch (const carom::Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::LimitExceeded);
        EXPECT_EQ(e.field(), "name");
    }
    EXPECT_EQ(w.counters().bodies, 0);
    d.name = std::string_view("a\0b", 3);
    EXPECT_THROW(w.createBody(d), carom::Error);
    d.name = "ok";
    BodyId b = w.createBody(d);
    EXPECT_THROW(w.setName(b, longName), carom::Error);
    EXPECT_EQ(w.name(b), "ok");
    std::string atLimit(kMaxBodyNameLength, 'y');
    d.name = atLimit;  // at the limit: accepted
    EXPECT_NO_THROW(w.createBody(d));
}

TEST(BodyNames, TheLoaderNamesTheWorldsBodies) {
    SceneRunner runner(loadFile(std::string(CAROM_SCENES_DIR) + "/joints.json"));
    for (BodyId id : runner.world().bodies()) {
        std::optional<std::string> n = runner.nameOf(id);
        EXPECT_EQ(std::string(runner.world().name(id)), n.value_or("")) << id.index;
        if (n) {
            EXPECT_EQ(runner.world().findBody(*n), id);
        }
    }
}

TEST(WorldAccessors, SleepThresholdAndMassOverride) {
    World w;
    BodyDef d;
    d.type = BodyType::Dynamic;
    d.sleepThreshold = 0.2f;
    BodyId b = w.createBody(d);
    w.createShape(b, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
    EXPECT_EQ(w.sleepThreshold(b), 0.2f);
    w.setSleepThreshold(b, 0.7f);
    EXPECT_EQ(w.sleepThreshold(b), 0.7f);
    EXPECT_THROW(w.setSleepThreshold(b, -1.0f), carom::Error);
    EXPECT_EQ(w.sleepThreshold(b), 0.7f);
    EXPECT_FALSE(w.isMassOverridden(b));
    w.setMassData(b, MassData{3.0f, {0.1f, 0.0f}, 0.4f});
    EXPECT_TRUE(w.isMassOverridden(b));
    w.createShape(b, ShapeDef{}, Circle{{1.0f, 0.0f}, 0.2f});  // a shape change recomputes the mass
    EXPECT_FALSE(w.isMassOverridden(b));
}

// A world built through the API alone, with every setting a save must keep:
// names, event switches, sleep thresholds, mass overrides, a mouse joint,
// chains, joints of every type, world settings.
World handBuiltWorld(BroadphaseType broadphase = BroadphaseType::Tree, int workers = 1) {
    WorldDef wd;
    wd.broadphase = broadphase;
    wd.workerCount = workers;
    wd.contactHertz = 25.0f;
    wd.jointDampingRatio = 1.5f;
    wd.restitutionThreshold = 0.5f;
    wd.frictionMixing = FrictionMixing::Min;
    wd.restitutionMixing = RestitutionMixing::Average;
    wd.maxContacts = 50000;
    World w(wd);
    BodyDef gd;
    gd.name = "ground";
    BodyId ground = w.createBody(gd);
    ChainDef cd;
    cd.points = {{20.0f, 0.0f}, {0.0f, -0.5f}, {-20.0f, 0.0f}};
    cd.enableSensorEvents = true;
    w.createChain(ground, cd);
    w.createShape(ground, ShapeDef{}, Segment{{-20.0f, 6.0f}, {-20.0f, 0.0f}});
    std::vector<BodyId> boxes;
    for (int k = 0; k < 8; ++k) {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {-3.0f + 0.9f * float(k % 4), 0.6f + 1.1f * float(k / 4)};
        bd.sleepThreshold = 0.02f + 0.01f * float(k);
        std::string name = "box" + std::to_string(k);
        bd.name = name;
        BodyId b = w.createBody(bd);
        ShapeDef sd;
        sd.friction = 0.4f + 0.05f * float(k);
        sd.enableHitEvents = k % 2 == 0;
        sd.enableContactEvents = k % 3 != 0;
        sd.enableSensorEvents = k != 5;
        sd.enablePreSolveEvents = k == 7;
        w.createShape(b, sd, makeBox(0.4f, 0.5f));
        boxes.push_back(b);
    }
    w.setMassData(boxes[2], MassData{2.5f, {0.05f, -0.1f}, 0.3f});
    BodyDef wheel;
    wheel.type = BodyType::Dynamic;
    wheel.position = {5.0f, 1.0f};
    wheel.name = "wheel";
    BodyId wb = w.createBody(wheel);
    w.createShape(wb, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
    BodyDef arm;
    arm.type = BodyType::Dynamic;
    arm.position = {5.0f, 3.0f};
    BodyId ab = w.createBody(arm);  // unnamed: saved as _body0
    w.createShape(ab, ShapeDef{}, Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.1f});
    RevoluteJointDef rj = w.makeRevoluteJointDef(ground, ab, {4.5f, 3.0f});
    rj.enableMotor = true;
    rj.motorSpeed = 1.0f;
    rj.maxMotorTorque = 20.0f;
    w.createJoint(rj);
    w.createJoint(w.makeDistanceJointDef(ab, wb, {5.5f, 3.0f}, {5.0f, 1.0f}));
    PrismaticJointDef pj = w.makePrismaticJointDef(
        ground, boxes[4], boxes.size() > 4 ? w.position(boxes[4]) : Vec2{}, {0.0f, 1.0f});
    pj.enableSpring = true;
    pj.hertz = 2.0f;
    pj.dampingRatio = 0.3f;
    w.createJoint(pj);
    w.createJoint(w.makeWeldJointDef(boxes[6], boxes[7], w.position(boxes[6])));
    WheelJointDef whj = w.makeWheelJointDef(boxes[1], boxes[5], w.position(boxes[5]), {0.0f, 1.0f});
    w.createJoint(whj);
    w.createJoint(w.makeMotorJointDef(boxes[0], boxes[3]));
    MouseJointDef mj = w.makeMouseJointDef(ground, wb, {6.0f, 2.0f});
    mj.maxForce = 200.0f;
    w.createJoint(mj);
    return w;
}

TEST(SaveWorld, AHandBuiltWorldLoadsBackWithTheSameHashAndSettings) {
    World w = handBuiltWorld();
    for (int k = 0; k < 30; ++k) w.step(1.0f / 60.0f);
    std::string path = test::tempDir() + "/hand_built.json";
    saveWorld(w, path);
    SceneRunner reloaded(loadFile(path));
    const World& r = reloaded.world();
    EXPECT_EQ(r.stateHash(), w.stateHash());
    // Saving the reloaded world gives the same text.
    EXPECT_EQ(worldJson(r), worldJson(w));
    const WorldDef& a = w.def();
    const WorldDef& b = r.def();
    EXPECT_EQ(b.contactHertz, a.contactHertz);
    EXPECT_EQ(b.jointDampingRatio, a.jointDampingRatio);
    EXPECT_EQ(b.restitutionThreshold, a.restitutionThreshold);
    EXPECT_EQ(b.frictionMixing, a.frictionMixing);
    EXPECT_EQ(b.restitutionMixing, a.restitutionMixing);
    EXPECT_EQ(b.maxContacts, a.maxContacts);
    std::vector<BodyId> ba = w.bodies();
    std::vector<BodyId> bb = r.bodies();
    ASSERT_EQ(ba.size(), bb.size());
    for (std::size_t k = 0; k < ba.size(); ++k) {
        if (!w.name(ba[k]).empty()) {
            EXPECT_EQ(r.name(bb[k]), w.name(ba[k])) << k;
        }
        EXPECT_EQ(r.sleepThreshold(bb[k]), w.sleepThreshold(ba[k])) << k;
        EXPECT_EQ(r.isMassOverridden(bb[k]), w.isMassOverridden(ba[k])) << k;
        EXPECT_EQ(r.mass(bb[k]), w.mass(ba[k])) << k;
        EXPECT_EQ(r.rotationalInertia(bb[k]), w.rotationalInertia(ba[k])) << k;
        EXPECT_EQ(r.localCenterOfMass(bb[k]), w.localCenterOfMass(ba[k])) << k;
        std::vector<ShapeId> sa = w.shapes(ba[k]);
        std::vector<ShapeId> sb = r.shapes(bb[k]);
        ASSERT_EQ(sa.size(), sb.size()) << k;
        for (std::size_t s = 0; s < sa.size(); ++s) {
            ShapeDef da = w.shapeDef(sa[s]);
            ShapeDef db = r.shapeDef(sb[s]);
            EXPECT_EQ(db.friction, da.friction);
            EXPECT_EQ(db.enableContactEvents, da.enableContactEvents) << k << "/" << s;
            EXPECT_EQ(db.enableSensorEvents, da.enableSensorEvents) << k << "/" << s;
            EXPECT_EQ(db.enableHitEvents, da.enableHitEvents) << k << "/" << s;
            EXPECT_EQ(db.enablePreSolveEvents, da.enablePreSolveEvents) << k << "/" << s;
        }
    }
    EXPECT_TRUE(r.isMassOverridden(r.findBody("box2")));
    EXPECT_TRUE(r.chainDef(r.chains(r.findBody("ground"))[0]).enableSensorEvents);
    std::vector<JointId> ja = w.joints();
    std::vector<JointId> jb = r.joints();
    ASSERT_EQ(ja.size(), jb.size());
    for (std::size_t k = 0; k < ja.size(); ++k)
        EXPECT_EQ(r.jointType(jb[k]), w.jointType(ja[k])) << k;
    MouseJointDef ma = w.mouseJointDef(ja.back());
    MouseJointDef mb = r.mouseJointDef(jb.back());
    EXPECT_EQ(mb.target, ma.target);
    EXPECT_EQ(mb.maxForce, ma.maxForce);
    EXPECT_EQ(mb.localAnchorB, ma.localAnchorB);
}

// Steps `original` 100 steps, saves it with or without the warm section,
// steps both 200 more; returns whether the hashes agreed at the end.
bool continuesExactly(World& original, bool warm, float dt = 1.0f / 60.0f) {
    for (int k = 0; k < 100; ++k) original.step(dt);
    SaveOptions options;
    options.warm = warm;
    std::string text = worldJson(original, options);
    SceneRunner reloaded(loadString(text, "warm.json"));
    EXPECT_EQ(reloaded.world().stateHash(), original.stateHash());
    if (warm) {
        // The imported state reads back as it was written.
        EXPECT_EQ(worldJson(reloaded.world(), options), text);
    }
    for (int k = 0; k < 200; ++k) {
        original.step(dt);
        reloaded.world().step(dt);
    }
    return reloaded.world().stateHash() == original.stateHash();
}

class WarmRoundTrip : public ::testing::TestWithParam<std::tuple<BroadphaseType, int>> {};

TEST_P(WarmRoundTrip, AHandBuiltWorldContinuesBitForBit) {
    auto [broadphase, workers] = GetParam();
    World w = handBuiltWorld(broadphase, workers);
    EXPECT_TRUE(continuesExactly(w, true));
}

TEST_P(WarmRoundTrip, ShippedScenesContinueBitForBit) {
    auto [broadphase, workers] = GetParam();
    for (const char* file : {"pyramid.json", "ragdolls.json", "car.json", "card_house.json",
                             "chain_heavy_ball.json"}) {
        RunOptions options;
        options.broadphase = broadphase;
        options.threads = workers;
        SceneRunner runner(loadFile(std::string(CAROM_SCENES_DIR) + "/" + file), options);
        // The scene's events are the runner's business; the world alone here.
        EXPECT_TRUE(continuesExactly(runner.world(), true, runner.timestep())) << file;
    }
}

INSTANTIATE_TEST_SUITE_P(BroadphasesAndWorkers, WarmRoundTrip,
                         ::testing::Combine(::testing::Values(BroadphaseType::Tree,
                                                              BroadphaseType::SortAndSweep),
                                            ::testing::Values(1, 2)));

// Without the warm section the reload starts cold: the same state at once,
// and it runs, but a pile in contact soon differs in its last bits.
TEST(WarmRoundTrip, WithoutItAPileStartsColdAndDrifts) {
    SceneRunner runner(loadFile(std::string(CAROM_SCENES_DIR) + "/pyramid.json"));
    EXPECT_FALSE(continuesExactly(runner.world(), false, runner.timestep()));
}

// A warm file of the pyramid after 100 steps is larger than the cold one,
// holds every contact and loads back to the same state hash (its size and
// time: carom_bench_snapshot, docs/scene-format.md).
TEST(WarmRoundTrip, AWarmPyramidReloadsWithEveryContact) {
    SceneRunner runner(loadFile(std::string(CAROM_SCENES_DIR) + "/pyramid.json"));
    runner.run(100);
    const World& w = runner.world();
    const std::string cold = worldJson(w);
    SaveOptions options;
    options.warm = true;
    const std::string warm = worldJson(w, options);
    SceneRunner reloaded(loadString(warm, "warm.json"));
    EXPECT_GT(warm.size(), cold.size());
    EXPECT_EQ(reloaded.world().counters().contacts, w.counters().contacts);
    EXPECT_EQ(reloaded.world().stateHash(), w.stateHash());
}

TEST(WarmRoundTrip, BadSectionsAreRefusedAtTheirPlace) {
    World w = handBuiltWorld();
    for (int k = 0; k < 20; ++k) w.step(1.0f / 60.0f);
    SaveOptions options;
    options.warm = true;
    std::string text = worldJson(w, options);
    // A shape position beyond its body's shapes.
    std::string bad = text;
    std::size_t at = bad.find("\"shape\": [1, 0]");
    ASSERT_NE(at, std::string::npos);
    bad.replace(at, 15, "\"shape\": [1, 9]");
    try {
        loadString(bad, "bad.json");
        FAIL() << "accepted";
    } catch (const SceneError& e) {
        EXPECT_NE(e.path.find("warm.shapes["), std::string::npos) << e.what();
    }
    // A contact between shapes that cannot collide: the engine refuses it
    // when the runner applies the section, and nothing is built.
    bad = text;
    at = bad.find("\"a\": [");
    ASSERT_NE(at, std::string::npos);
    std::size_t end = bad.find(']', at);
    std::size_t bAt = bad.find("\"b\": [", at);
    std::string a = bad.substr(at + 5, end - at - 4);
    bad.replace(bAt + 5, bad.find(']', bAt) - bAt - 4, a);  // b := a: a shape with itself
    EXPECT_THROW(SceneRunner(loadString(bad, "bad.json")), SceneError);
}

// A World may hold what no scene file can: saveWorld refuses it by kind, as
// saveScene does, and writes nothing. Names are bytes to the World but
// JSON strings in a file, so a name that is not UTF-8 is such a thing.
TEST(SaveWorld, UnsavableWorldsAreRefused) {
    World w;
    BodyDef d;
    d.name = "\xff\xfe";
    w.createBody(d);
    std::string path = test::tempDir() + "/unsavable.json";
    std::filesystem::remove(path);
    try {
        saveWorld(w, path);
        FAIL() << "saved";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.kind, SceneError::Kind::Unsavable) << e.what();
        EXPECT_NE(std::string(e.what()).find(": error: cannot save: "), std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

// Duplicate names in a World are made unique in the file (NAME~2), so the
// file loads, and joints still find their bodies.
TEST(SaveWorld, DuplicateNamesAreMadeUnique) {
    World w;
    BodyDef d;
    d.name = "twin";
    d.type = BodyType::Dynamic;
    BodyId a = w.createBody(d);
    d.position = {2.0f, 0.0f};
    BodyId b = w.createBody(d);
    w.createJoint(w.makeDistanceJointDef(a, b, {0.0f, 0.0f}, {2.0f, 0.0f}));
    SceneRunner reloaded(loadString(worldJson(w), "twins.json"));
    std::vector<BodyId> r = reloaded.world().bodies();
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(reloaded.world().name(r[0]), "twin");
    EXPECT_EQ(reloaded.world().name(r[1]), "twin~2");
    EXPECT_EQ(reloaded.world().joints().size(), 1u);
    EXPECT_EQ(reloaded.world().stateHash(), w.stateHash());
}

TEST(WarmState, SetWarmStateChecksBeforeChanging) {
    World w = handBuiltWorld();
    for (int k = 0; k < 20; ++k) w.step(1.0f / 60.0f);
    WarmState s = w.warmState();
    ASSERT_FALSE(s.contacts.empty());
    // A world that already has contacts refuses it.
    EXPECT_THROW(w.setWarmState(s), carom::Error);
    World fresh = handBuiltWorld();
    WarmState bad = s;
    bad.contacts[0].points[0].normalImpulse = std::numeric_limits<float>::quiet_NaN();
    bad.contacts[0].pointCount = 1;
    bad.contacts[0].touching = true;
    uint64_t before = fresh.stateHash();
    EXPECT_THROW(fresh.setWarmState(bad), carom::Error);
    EXPECT_EQ(fresh.counters().contacts, 0);
    EXPECT_EQ(fresh.stateHash(), before);
    bad = s;
    bad.islands.clear();
    EXPECT_THROW(fresh.setWarmState(bad), carom::Error);
    EXPECT_EQ(fresh.counters().contacts, 0);
}

// The manifold reuse record (WarmContact::reuse, on by default): exported by
// warmState, imported by setWarmState and carried by the saved file's warm
// section, bit for bit; a bad record is refused with its path and changes
// nothing.
TEST(WarmState, ReuseRecordRoundTrips) {
    // 30 steps: the pyramid is settling (awake), its contacts recorded.
    SceneRunner runner(loadFile(std::string(CAROM_SCENES_DIR) + "/pyramid.json"));
    runner.run(30);
    const World& w = runner.world();
    const WarmState s = w.warmState();
    std::size_t valid = 0;
    for (const WarmContact& c : s.contacts) valid += c.reuse.valid ? 1 : 0;
    ASSERT_GT(valid, 0u);
    auto sameRecord = [](const WarmContactReuse& a, const WarmContactReuse& b) {
        auto bits = [](float x) {
            uint32_t u;
            std::memcpy(&u, &x, sizeof u);
            return u;
        };
        auto v = [&](Vec2 p, Vec2 q) { return bits(p.x) == bits(q.x) && bits(p.y) == bits(q.y); };
        auto r = [&](Rot p, Rot q) { return bits(p.c) == bits(q.c) && bits(p.s) == bits(q.s); };
        bool same = a.valid == b.valid && a.referenceIsB == b.referenceIsB &&
                    a.pointCount == b.pointCount && r(a.rotationA, b.rotationA) &&
                    r(a.rotationB, b.rotationB) && v(a.relativeCenter, b.relativeCenter) &&
                    r(a.relativeRotation, b.relativeRotation) && v(a.localNormal, b.localNormal);
        for (int k = 0; k < a.pointCount && same; ++k)
            same = v(a.localPointA[k], b.localPointA[k]) && v(a.localPointB[k], b.localPointB[k]) &&
                   bits(a.baseSeparation[k]) == bits(b.baseSeparation[k]);
        return same;
    };
    auto sameRecords = [&](const WarmState& x, const WarmState& y) {
        if (x.contacts.size() != y.contacts.size()) return false;
        for (std::size_t k = 0; k < x.contacts.size(); ++k)
            if (!sameRecord(x.contacts[k].reuse, y.contacts[k].reuse)) return false;
        return true;
    };
    // Through the API: a rebuilt world (the cold file) given the warm state.
    const std::string coldText = worldJson(w);
    SceneRunner cold(loadString(coldText, "cold.json"));
    cold.world().setWarmState(s);
    EXPECT_TRUE(sameRecords(cold.world().warmState(), s));
    // Through a saved file: the key is written for valid records only.
    SaveOptions options;
    options.warm = true;
    const std::string text = worldJson(w, options);
    EXPECT_NE(text.find("\"reuse\": {"), std::string::npos);
    SceneRunner reloaded(loadString(text, "warm.json"));
    EXPECT_TRUE(sameRecords(reloaded.world().warmState(), s));
    // Reuse actually happens after the reload, as in the original.
    World& original = runner.world();
    original.step(runner.timestep());
    reloaded.world().step(runner.timestep());
    EXPECT_GT(original.counters().reusedManifolds, 0);
    EXPECT_EQ(reloaded.world().counters().reusedManifolds, original.counters().reusedManifolds);
    EXPECT_EQ(reloaded.world().stateHash(), original.stateHash());

    // Bad records: refused with their path, nothing changed.
    std::size_t k = 0;
    while (!s.contacts[k].reuse.valid) ++k;
    const std::string path = "contacts[" + std::to_string(k) + "].reuse";
    // (Into the world s was taken from, rebuilt: not the original, which has
    // stepped since, and whose centres of mass s no longer matches.)
    auto refused = [&](const WarmState& bad, const std::string& field) {
        test::expectWarmStateRefused(coldText, bad, field);
    };
    WarmState bad = s;
    bad.contacts[k].reuse.rotationA = Rot{0.9f, 0.0f};
    refused(bad, path + ".rotationA");
    bad = s;
    bad.contacts[k].reuse.relativeRotation.s = std::numeric_limits<float>::quiet_NaN();
    refused(bad, path + ".relativeRotation");
    bad = s;
    bad.contacts[k].reuse.pointCount = 3;
    refused(bad, path + ".pointCount");
    bad = s;
    bad.contacts[k].reuse.localPointB[0].x = std::numeric_limits<float>::infinity();
    bad.contacts[k].reuse.pointCount = 1;
    refused(bad, path + ".localPointB[0]");
    // In a file: a malformed record is refused where it is.
    std::string badText = text;
    const std::size_t at = badText.find("\"rotation_a\": [");
    ASSERT_NE(at, std::string::npos);
    badText.replace(at, badText.find(']', at) + 1 - at, "\"rotation_a\": 7");
    try {
        loadString(badText, "bad.json");
        FAIL() << "accepted";
    } catch (const SceneError& e) {
        EXPECT_NE(e.path.find(".reuse.rotation_a"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("bad.json:"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace carom::scene
