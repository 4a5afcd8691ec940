// Gear, pulley and rope joints in scene files: the keys load into the joints
// they describe, refusals point at the offending key, and a saved world loads
// back to the same state and the same text.
#include <gtest/gtest.h>

#include <carom/scene.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

const char* kBodies = R"({"carom": 1, "bodies": [
      {"name": "g", "type": "static"},
      {"name": "w1", "position": [0, 2], "shapes": [{"type": "circle", "radius": 1}]},
      {"name": "w2", "position": [3, 2], "shapes": [{"type": "circle", "radius": 0.5}]},
      {"name": "box", "position": [6, 0], "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}],
    )";

std::string scene(const std::string& joints) {
    return std::string(kBodies) + joints + "}";
}

const char* kGearJoints = R"("joints": [
      {"type": "revolute", "name": "p1", "a": "g", "b": "w1", "anchor": [0, 2], "motor": {"speed": 2, "max_torque": 100}},
      {"type": "revolute", "name": "p2", "a": "g", "b": "w2", "anchor": [3, 2]},
      {"type": "gear", "joint_a": "p1", "joint_b": "p2", "ratio": 0.5},
      {"type": "pulley", "a": "w1", "b": "box", "anchor_a": [0, 2], "anchor_b": [6, 0.5],
       "ground_anchor_a": [0, 8], "ground_anchor_b": [6, 8], "ratio": 1.5},
      {"type": "rope", "a": "g", "b": "box", "anchor_a": [7, 3], "anchor_b": [6, 0], "max_length": 4}])";

TEST(GearPulleyRopeScene, KeysBecomeTheJoints) {
    SceneRunner r(loadString(scene(kGearJoints), "gears.json"));
    const World& w = r.world();
    std::vector<JointId> joints = w.joints();
    ASSERT_EQ(joints.size(), 5u);
    ASSERT_EQ(w.jointType(joints[2]), JointType::Gear);
    GearJointDef g = w.gearJointDef(joints[2]);
    EXPECT_EQ(g.jointA, joints[0]);
    EXPECT_EQ(g.jointB, joints[1]);
    EXPECT_EQ(g.ratio, 0.5f);
    EXPECT_EQ(r.nameOf(g.bodyA), "w1");
    EXPECT_EQ(r.nameOf(g.bodyB), "w2");
    EXPECT_EQ(r.jointName(joints[0]), "p1");
    PulleyJointDef p = w.pulleyJointDef(joints[3]);
    EXPECT_EQ(p.groundAnchorB, Vec2(6.0f, 8.0f));
    EXPECT_EQ(p.lengthA, 6.0f);  // default: the current lengths
    EXPECT_EQ(p.lengthB, 7.5f);
    EXPECT_EQ(p.ratio, 1.5f);
    EXPECT_EQ(w.ropeJointDef(joints[4]).maxLength, 4.0f);
}

TEST(GearPulleyRopeScene, SavedWorldLoadsBackToTheSameStateAndText) {
    for (const char* source : {"inline", "gears_pulleys.json"}) {
        SceneRunner original(std::string(source) == "inline"
                                 ? loadString(scene(kGearJoints), "gears.json")
                                 : loadFile(std::string(CAROM_SCENES_DIR) + "/" + source));
        original.run(150);
        std::string saved = sceneJson(original);
        SceneRunner reloaded(loadString(saved, "saved.json"));
        EXPECT_EQ(reloaded.world().stateHash(), original.world().stateHash()) << source;
        EXPECT_EQ(reloaded.world().joints().size(), original.world().joints().size()) << source;
        EXPECT_EQ(sceneJson(reloaded), saved) << source;
        // Stepping on: the gears hold their ratio in the reloaded world too.
        reloaded.run(60);
        EXPECT_TRUE(test::stateIsFinite(reloaded.world())) << source;
    }
}

TEST(GearPulleyRopeScene, GearedJointsMadeThroughTheApiGetNamesWhenSaved) {
    SceneRunner r(loadString(scene(R"("joints": [])"), "api.json"));
    World& w = r.world();
    BodyId g = r.findBody("g"), w1 = r.findBody("w1"), w2 = r.findBody("w2");
    JointId a = w.createJoint(w.makeRevoluteJointDef(g, w1, {0.0f, 2.0f}));
    JointId b = w.createJoint(w.makeRevoluteJointDef(g, w2, {3.0f, 2.0f}));
    w.createJoint(w.makeGearJointDef(a, b, -2.0f));
    std::string saved = sceneJson(r);
    EXPECT_NE(saved.find(R"("joint_a": "_joint0", "joint_b": "_joint1", "ratio": -2)"),
              std::string::npos)
        << saved;
    SceneRunner reloaded(loadString(saved, "saved.json"));
    EXPECT_EQ(reloaded.world().joints().size(), 3u);
    EXPECT_EQ(sceneJson(reloaded), saved);
}

void expectRefused(const std::string& joints, const char* path, const char* message) {
    try {
        loadString(scene(joints), "bad.json");
        ADD_FAILURE() << path << ": accepted";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.path, path) << e.what();
        EXPECT_NE(e.message.find(message), std::string::npos) << e.what();
        EXPECT_GT(e.line, 0) << e.what();
    }
}

TEST(GearPulleyRopeScene, RefusalsNameTheKey) {
    const std::string pins =
        R"({"type": "revolute", "name": "p1", "a": "g", "b": "w1", "anchor": [0, 2]},
           {"type": "revolute", "name": "p2", "a": "g", "b": "w2", "anchor": [3, 2]},
           {"type": "distance", "name": "d", "a": "g", "b": "box", "anchor_a": [6, 3], "anchor_b": [6, 0]})";
    auto joints = [&](const std::string& more) {
        return R"("joints": [)" + pins + ", " + more + "]";
    };
    expectRefused(joints(R"({"type": "gear", "joint_a": "p1", "joint_b": "p3"})"),
                  "joints[3].joint_b", "no joint named \"p3\" is listed before this gear");
    expectRefused(joints(R"({"type": "gear", "joint_a": "d", "joint_b": "p2"})"),
                  "joints[3].joint_a", "must be a revolute or prismatic joint");
    expectRefused(joints(R"({"type": "gear", "joint_a": "p1", "joint_b": "p1"})"),
                  "joints[3].joint_b", "must name a different joint than joint_a");
    expectRefused(joints(R"({"type": "gear", "joint_a": "p1", "joint_b": "p2", "ratio": 0})"),
                  "joints[3].ratio", "within [0.001, 1000]");
    expectRefused(joints(R"({"type": "gear", "a": "g", "joint_a": "p1", "joint_b": "p2"})"),
                  "joints[3].a", "unknown key");
    expectRefused(
        joints(
            R"({"type": "rope", "name": "p1", "a": "g", "b": "box", "anchor_a": [6, 3], "anchor_b": [6, 0]})"),
        "joints[3].name", "joint name \"p1\" is already used in this list");
    expectRefused(
        joints(R"({"type": "pulley", "a": "w1", "b": "box", "anchor_a": [0, 2], "anchor_b": [6, 0],
                             "ground_anchor_a": [0, 8], "ground_anchor_b": [6, 8], "ratio": -1})"),
        "joints[3].ratio", "must be > 0");
    expectRefused(
        joints(R"({"type": "pulley", "a": "w1", "b": "box", "anchor_a": [0, 2], "anchor_b": [6, 0],
                             "ground_anchor_a": [0, 8]})"),
        "joints[3]", "missing required key \"ground_anchor_b\"");
    expectRefused(
        joints(
            R"({"type": "rope", "a": "g", "b": "box", "anchor_a": [6, 3], "anchor_b": [6, 0], "max_length": 0})"),
        "joints[3].max_length", "must be > 0");
    expectRefused(
        joints(R"({"type": "rope", "a": "g", "b": "box", "anchor_a": [6, 0], "anchor_b": [6, 0]})"),
        "joints[3].anchor_b", "the anchors coincide");
    // A gear whose joints move the same body.
    expectRefused(R"("joints": [
        {"type": "revolute", "name": "q1", "a": "g", "b": "w1", "anchor": [0, 2]},
        {"type": "revolute", "name": "q2", "a": "w2", "b": "w1", "anchor": [0, 2]},
        {"type": "gear", "joint_a": "q1", "joint_b": "q2"}])",
                  "joints[2].joint_b", "a gear needs two different bodies");
}

}  // namespace
}  // namespace carom::scene
