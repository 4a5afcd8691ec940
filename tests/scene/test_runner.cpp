// SceneRunner: worlds built as the file says, and event scripts that
// behave as written.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include <carom/scene.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

// A free disc in zero gravity; impulse [2, 0] at t = 0.5 s.
const char* kImpulseScene = R"({"carom": 1, "world": {"gravity": [0, 0]},
    "bodies": [{"name": "puck", "shapes": [{"type": "circle", "radius": 0.5}]}],
    "events": [{"time": 0.5, "action": "impulse", "body": "puck", "impulse": [2, 0]}]})";

TEST(SceneRunner, ImpulseAtHalfASecondGivesImpulseOverMass) {
    SceneRunner r(loadString(kImpulseScene, "impulse.json"));
    BodyId puck = r.findBody("puck");
    ASSERT_FALSE(puck.isNull());
    float mass = r.world().mass(puck);
    EXPECT_NEAR(mass, kPi * 0.25f, 1e-5f);
    // Step k starts at k/60 s; the event goes before step 30 (t = 0.5).
    r.run(30);
    EXPECT_EQ(r.world().linearVelocity(puck), Vec2(0.0f, 0.0f));
    EXPECT_EQ(r.pendingEvents(), 1u);
    r.step();
    EXPECT_EQ(r.pendingEvents(), 0u);
    EXPECT_FLOAT_EQ(r.world().linearVelocity(puck).x, 2.0f / mass);
    EXPECT_EQ(r.world().linearVelocity(puck).y, 0.0f);
    r.run(29);  // one second in all: 30 steps of motion
    EXPECT_NEAR(r.world().position(puck).x, 30.0f / 60.0f * 2.0f / mass, 1e-4f);
    EXPECT_DOUBLE_EQ(r.time(), 1.0);
}

TEST(SceneRunner, ImpulseOffCentreSpins) {
    SceneRunner r(loadString(R"({"carom": 1, "world": {"gravity": [0, 0]},
        "bodies": [{"name": "bar", "shapes": [{"type": "box", "half_extents": [1, 0.1]}]}],
        "events": [{"time": 0, "action": "impulse", "body": "bar", "impulse": [0, 1], "point": [1, 0]}]})",
                             "x.json"));
    r.step();
    BodyId bar = r.findBody("bar");
    float inertia = r.world().rotationalInertia(bar);
    EXPECT_NEAR(r.world().angularVelocity(bar), 1.0f / inertia, 1e-4f);
    EXPECT_NEAR(r.world().linearVelocity(bar).y, 1.0f / r.world().mass(bar), 1e-5f);
}

TEST(SceneRunner, SpawnDestroySetVelocityAndGravity) {
    SceneRunner r(loadString(R"({"carom": 1, "world": {"gravity": [0, 0]},
        "bodies": [{"name": "post", "type": "static", "position": [0, 5]},
                   {"name": "rock", "position": [3, 0], "shapes": [{"type": "circle", "radius": 0.5}]}],
        "events": [
          {"time": 0, "action": "set_velocity", "body": "rock", "linear_velocity": [1, 0]},
          {"time": 1, "action": "spawn",
           "bodies": [{"name": "bob", "position": [0, 3], "shapes": [{"type": "circle", "radius": 0.25}]},
                      {"generate": "grid", "rows": 1, "columns": 2, "origin": [10, 0], "step": [2, 0], "body": {"name": "pair"}}],
           "joints": [{"type": "distance", "a": "post", "b": "bob", "anchor_a": [0, 5], "anchor_b": [0, 3]}]},
          {"time": 2, "action": "destroy", "body": "rock"},
          {"time": 2, "action": "gravity", "gravity": [0, -4]}]})",
                             "events.json"));
    World& w = r.world();
    EXPECT_EQ(r.bodies().size(), 2u);
    r.step();
    EXPECT_EQ(w.linearVelocity(r.findBody("rock")), Vec2(1.0f, 0.0f));
    r.run(59);
    EXPECT_TRUE(r.findBody("bob").isNull());
    r.step();  // step 60 starts at t = 1: the spawn comes first
    BodyId bob = r.findBody("bob");
    ASSERT_FALSE(bob.isNull());
    EXPECT_FALSE(r.findBody("pair[1]").isNull());
    EXPECT_EQ(r.bodies().size(), 5u);
    EXPECT_EQ(*r.bodies().back().name, "pair[1]");
    ASSERT_EQ(w.joints().size(), 1u);
    EXPECT_NEAR(w.distanceJointDef(w.joints()[0]).length, 2.0f,
                1e-6f);  // default: the current distance
    BodyId rock = r.findBody("rock");
    r.run(60);
    EXPECT_TRUE(r.findBody("bob").isNull() == false);
    EXPECT_TRUE(r.findBody("rock").isNull());
    EXPECT_FALSE(w.isValid(rock));
    EXPECT_EQ(r.bodies().size(), 4u);
    EXPECT_EQ(w.gravity(), Vec2(0.0f, -4.0f));
    EXPECT_FALSE(r.nameOf(rock).has_value());

    // The state lists live bodies in creation order, the destroyed one left out.
    nlohmann::json state = nlohmann::json::parse(stateJson(r));
    std::vector<std::string> names;
    for (const auto& b : state["bodies"]) names.push_back(b["name"].get<std::string>());
    EXPECT_EQ(names, (std::vector<std::string>{"post", "bob", "pair[0]", "pair[1]"}));
}

TEST(SceneRunner, JointsUseWorldAnchorsAtCreation) {
    SceneRunner r(loadString(R"({"carom": 1, "bodies": [
          {"name": "a", "type": "static"},
          {"name": "b", "position": [2, 0], "angle": 1.5707964, "shapes": [{"type": "circle", "radius": 0.5}]}],
        "joints": [
          {"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0]},
          {"type": "prismatic", "a": "a", "b": "b", "anchor": [1, 0], "axis": [0, 1]},
          {"type": "motor", "a": "a", "b": "b"}]})",
                             "x.json"));
    const World& w = r.world();
    std::vector<JointId> joints = w.joints();
    ASSERT_EQ(joints.size(), 3u);
    RevoluteJointDef rev = w.revoluteJointDef(joints[0]);
    EXPECT_NEAR(rev.localAnchorA.x, 1.0f, 1e-6f);
    EXPECT_NEAR(rev.localAnchorB.x, 0.0f, 1e-6f);  // (1, 0) seen from b, turned by 90 degrees
    EXPECT_NEAR(rev.localAnchorB.y, 1.0f, 1e-6f);
    EXPECT_NEAR(rev.referenceAngle, 1.5707964f, 1e-6f);
    PrismaticJointDef pri = w.prismaticJointDef(joints[1]);
    EXPECT_NEAR(pri.localAxisA.y, 1.0f, 1e-6f);
    MotorJointDef mot = w.motorJointDef(joints[2]);
    EXPECT_NEAR(mot.linearOffset.x, 2.0f, 1e-6f);  // default: b's current place in a's frame
    EXPECT_NEAR(mot.angularOffset, 1.5707964f, 1e-6f);
}

TEST(SceneRunner, StateJsonHasTheShapeOfTheSpec) {
    SceneRunner r(loadString(R"({"carom": 1, "name": "shape",
        "bodies": [{"type": "static", "shapes": [{"type": "box", "half_extents": [5, 0.5]}]},
                   {"name": "spinner", "type": "kinematic", "angle": -3.14159274, "angular_velocity": -2},
                   {"name": "ball", "position": [0, 2], "shapes": [{"type": "circle", "radius": 0.5}]}]})",
                             "x.json"));
    r.run(45);
    nlohmann::json s = nlohmann::json::parse(stateJson(r));
    ASSERT_TRUE(s.is_object());
    EXPECT_EQ(s.size(), 5u);
    EXPECT_EQ(s["scene"], "shape");
    EXPECT_EQ(s["steps"], 45);
    EXPECT_DOUBLE_EQ(s["time"].get<double>(), 0.75);
    std::string hash = s["hash"];
    EXPECT_EQ(hash.size(), 16u);
    EXPECT_EQ(hash.find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_EQ(hash, hashHex(r.world().stateHash()));
    ASSERT_EQ(s["bodies"].size(), 3u);
    EXPECT_TRUE(s["bodies"][0]["name"].is_null());
    EXPECT_EQ(s["bodies"][0]["type"], "static");
    EXPECT_EQ(s["bodies"][1]["type"], "kinematic");
    EXPECT_EQ(s["bodies"][2]["name"], "ball");
    for (const auto& b : s["bodies"]) {
        EXPECT_EQ(b.size(), 7u);
        for (const char* key : {"name", "type", "position", "angle", "linear_velocity",
                                "angular_velocity", "awake"}) {
            EXPECT_TRUE(b.contains(key)) << key;
        }
        EXPECT_EQ(b["position"].size(), 2u);
        EXPECT_EQ(b["linear_velocity"].size(), 2u);
        EXPECT_TRUE(b["awake"].is_boolean());
        double a = b["angle"];
        EXPECT_GT(a, -static_cast<double>(kPi));
        EXPECT_LE(a, static_cast<double>(kPi));
    }
    // Numbers are printed so that they read back to the same float.
    EXPECT_EQ(s["bodies"][2]["position"][1].get<float>(), r.world().position(r.findBody("ball")).y);
}

TEST(SceneRunner, AngleIsInHalfOpenRange) {
    World w;
    BodyDef def;
    BodyId id = w.createBody(def);
    w.setTransform(id, Transform{{0.0f, 0.0f}, Rot{-1.0f, -0.0f}});  // atan2 says -pi here
    EXPECT_EQ(bodyAngle(w, id), kPi);
    for (int k = -200; k <= 200; ++k) {
        w.setTransform(id, {0.0f, 0.0f}, 0.05f * static_cast<float>(k));
        float a = bodyAngle(w, id);
        EXPECT_GT(a, -kPi);
        EXPECT_LE(a, kPi);
    }
}

TEST(SceneRunner, FitsAViewWhenTheFileHasNone) {
    SceneRunner r(loadString(R"({"carom": 1, "bodies": [
        {"type": "static", "position": [10, 0], "shapes": [{"type": "box", "half_extents": [4, 1]}]}]})",
                             "x.json"));
    View v = r.view();
    EXPECT_NEAR(v.center.x, 10.0f, 0.2f);
    EXPECT_NEAR(v.center.y, 0.0f, 0.2f);
    EXPECT_GE(v.height, 2.0f * 1.0f);
    EXPECT_GE(v.height * 16.0f / 9.0f, 8.0f);
    SceneRunner withView(
        loadString(R"({"carom": 1, "view": {"center": [1, 2], "height": 3}})", "x.json"));
    EXPECT_EQ(withView.view().center, Vec2(1.0f, 2.0f));
    EXPECT_EQ(withView.view().height, 3.0f);
}

TEST(SceneRunner, OverridesOfTheCommandLine) {
    SceneDesc d =
        loadString(R"({"carom": 1, "world": {"broadphase": "sap", "threads": 2}})", "x.json");
    SceneRunner plain(d);
    EXPECT_EQ(plain.world().broadphaseType(), BroadphaseType::SortAndSweep);
    EXPECT_EQ(plain.world().def().workerCount, 2);
    RunOptions o;
    o.broadphase = BroadphaseType::Tree;
    o.threads = 1;
    SceneRunner overridden(d, o);
    EXPECT_EQ(overridden.world().broadphaseType(), BroadphaseType::Tree);
    EXPECT_EQ(overridden.world().def().workerCount, 1);
    EXPECT_EQ(plain.stepsFor(0.5), 30);
}

// One-way platform: a body thrown up from below passes through, then lands
// on top; without one_way the same platform stops it underneath.
TEST(SceneRunner, OneWayPlatformLetsBodiesUpButNotDown) {
    auto run = [](bool oneWay) {
        std::string json = std::string(R"({"carom": 1, "bodies": [
            {"name": "platform", "type": "static", "position": [0, 3],
             "shapes": [{"type": "box", "half_extents": [3, 0.2], "one_way": )") +
                           (oneWay ? "true" : "false") + R"(}]},
            {"name": "ball", "position": [0, 0], "linear_velocity": [0, 11], "shapes": [{"type": "circle", "radius": 0.4}]}]})";
        SceneRunner r(loadString(json, "oneway.json"));
        r.run(180);
        return r.world().position(r.findBody("ball")).y;
    };
    float through = run(true);
    float blocked = run(false);
    EXPECT_NEAR(through, 3.0f + 0.2f + 0.4f, 0.05f);  // resting on top
    EXPECT_LT(blocked, 3.0f);                         // stopped below (and fell back)
}

}  // namespace
}  // namespace carom::scene
