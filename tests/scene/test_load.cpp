// Loading: every key of scene-format.md reaches the SceneDesc with the
// value or default the spec gives.
#include <gtest/gtest.h>

#include <cmath>

#include <carom/scene.hpp>

namespace carom::scene {
namespace {

TEST(SceneLoad, DefaultsOfAnEmptyScene) {
    SceneDesc d = loadString(R"({"carom": 1})", "some/dir/my_scene.json");
    EXPECT_EQ(d.name, "my_scene");
    EXPECT_EQ(d.description, "");
    EXPECT_EQ(d.duration, 10.0);
    EXPECT_EQ(d.world.gravity, Vec2(0.0f, -10.0f));
    EXPECT_EQ(d.world.timestep, 1.0 / 60.0);
    EXPECT_EQ(d.world.substeps, 4);
    EXPECT_EQ(d.world.broadphase, BroadphaseType::Tree);
    EXPECT_TRUE(d.world.sleep);
    EXPECT_TRUE(d.world.continuous);
    EXPECT_EQ(d.world.threads, 1);
    EXPECT_TRUE(d.world.tileSeams);
    EXPECT_FALSE(d.view.has_value());
    EXPECT_TRUE(d.bodies.empty());
    EXPECT_TRUE(d.joints.empty());
    EXPECT_TRUE(d.events.empty());
    EXPECT_TRUE(d.materials.empty());
}

TEST(SceneLoad, TopLevelAndWorldValues) {
    SceneDesc d = loadString(R"({"carom": 1, "name": "n", "description": "d", "duration": 2.5,
        "world": {"gravity": [1, -3], "timestep": 0.01, "substeps": 8, "broadphase": "sap", "sleep": false,
                  "continuous": false, "threads": 3, "tile_seams": false},
        "view": {"center": [1, 2], "height": 7}})",
                             "x.json");
    EXPECT_EQ(d.name, "n");
    EXPECT_EQ(d.description, "d");
    EXPECT_EQ(d.duration, 2.5);
    EXPECT_EQ(d.world.gravity, Vec2(1.0f, -3.0f));
    EXPECT_EQ(d.world.timestep, 0.01);
    EXPECT_EQ(d.world.substeps, 8);
    EXPECT_EQ(d.world.broadphase, BroadphaseType::SortAndSweep);
    EXPECT_FALSE(d.world.sleep);
    EXPECT_FALSE(d.world.continuous);
    EXPECT_EQ(d.world.threads, 3);
    EXPECT_FALSE(d.world.tileSeams);
    ASSERT_TRUE(d.view.has_value());
    EXPECT_EQ(d.view->center, Vec2(1.0f, 2.0f));
    EXPECT_EQ(d.view->height, 7.0f);
}

TEST(SceneLoad, BodyDefaultsAndValues) {
    SceneDesc d = loadString(R"({"carom": 1, "bodies": [{},
        {"name": "b", "type": "kinematic", "position": [1, 2], "angle": 0.5, "linear_velocity": [3, 4],
         "angular_velocity": 5, "linear_damping": 0.1, "angular_damping": 0.2, "gravity_scale": -1,
         "bullet": true, "fixed_rotation": true, "awake": false, "allow_sleep": false},
        {"type": "static"}]})",
                             "x.json");
    ASSERT_EQ(d.bodies.size(), 3u);
    const BodyDesc& a = d.bodies[0];
    EXPECT_FALSE(a.name.has_value());
    EXPECT_EQ(a.def.type, BodyType::Dynamic);  // the format's default, unlike BodyDef's
    EXPECT_EQ(a.def.position, Vec2(0.0f, 0.0f));
    EXPECT_EQ(a.def.angle, 0.0f);
    EXPECT_EQ(a.def.gravityScale, 1.0f);
    EXPECT_FALSE(a.def.isBullet);
    EXPECT_TRUE(a.def.isAwake);
    EXPECT_TRUE(a.def.enableSleep);
    const BodyDesc& b = d.bodies[1];
    EXPECT_EQ(*b.name, "b");
    EXPECT_EQ(b.def.type, BodyType::Kinematic);
    EXPECT_EQ(b.def.position, Vec2(1.0f, 2.0f));
    EXPECT_EQ(b.def.angle, 0.5f);
    EXPECT_EQ(b.def.linearVelocity, Vec2(3.0f, 4.0f));
    EXPECT_EQ(b.def.angularVelocity, 5.0f);
    EXPECT_EQ(b.def.linearDamping, 0.1f);
    EXPECT_EQ(b.def.angularDamping, 0.2f);
    EXPECT_EQ(b.def.gravityScale, -1.0f);
    EXPECT_TRUE(b.def.isBullet);
    EXPECT_TRUE(b.def.fixedRotation);
    EXPECT_FALSE(b.def.isAwake);
    EXPECT_FALSE(b.def.enableSleep);
    EXPECT_EQ(d.bodies[2].def.type, BodyType::Static);
}

TEST(SceneLoad, ShapesOfEveryKind) {
    SceneDesc d = loadString(R"({"carom": 1, "bodies": [{"shapes": [
        {"type": "circle", "radius": 0.5, "center": [1, 2]},
        {"type": "capsule", "p1": [0, 0], "p2": [2, 0], "radius": 0.25},
        {"type": "box", "half_extents": [1, 0.5], "center": [3, 0], "angle": 1.5707964, "radius": 0.1},
        {"type": "polygon", "vertices": [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]], "radius": 0.05},
        {"type": "segment", "p1": [0, 0], "p2": [0, 3]},
        {"type": "chain", "points": [[3, 0], [2, 0], [1, 1]], "loop": true}]}]})",
                             "x.json");
    const auto& s = d.bodies[0].shapes;
    ASSERT_EQ(s.size(), 6u);
    const auto& c = std::get<Circle>(s[0].geometry);
    EXPECT_EQ(c.radius, 0.5f);
    EXPECT_EQ(c.center, Vec2(1.0f, 2.0f));
    const auto& cap = std::get<Capsule>(s[1].geometry);
    EXPECT_EQ(cap.center2, Vec2(2.0f, 0.0f));
    EXPECT_EQ(cap.radius, 0.25f);
    EXPECT_EQ(s[2].kind, ShapeKind::Box);
    const auto& box = std::get<Polygon>(s[2].geometry);
    ASSERT_EQ(box.count, 4);
    EXPECT_EQ(box.radius, 0.1f);
    for (int k = 0; k < 4; ++k) {
        // Rotated by 90 degrees: the long side is vertical, centred on (3, 0).
        Vec2 v = box.vertices[static_cast<std::size_t>(k)];
        EXPECT_NEAR(std::fabs(v.x - 3.0f), 0.5f, 1e-5f);
        EXPECT_NEAR(std::fabs(v.y), 1.0f, 1e-5f);
    }
    const auto& poly = std::get<Polygon>(s[3].geometry);
    EXPECT_EQ(poly.count, 4);  // (1, 0.5) is inside the hull
    EXPECT_EQ(poly.radius, 0.05f);
    EXPECT_EQ(std::get<Segment>(s[4].geometry).point2, Vec2(0.0f, 3.0f));
    EXPECT_EQ(s[5].kind, ShapeKind::Chain);
    EXPECT_TRUE(s[5].chainLoop);
    ASSERT_EQ(s[5].chainPoints.size(), 3u);
    EXPECT_EQ(s[5].chainPoints[2], Vec2(1.0f, 1.0f));
}

TEST(SceneLoad, MaterialsFiltersAndFlags) {
    SceneDesc d = loadString(R"({"carom": 1,
        "materials": {"ice": {"density": 2, "friction": 0.02, "restitution": 0.1, "rolling_resistance": 0.3}},
        "bodies": [{"shapes": [
          {"type": "circle", "radius": 1},
          {"type": "circle", "radius": 1, "material": "ice"},
          {"type": "circle", "radius": 1, "material": "ice", "friction": 0.5, "sensor": true,
           "filter": {"category": 4294967293, "mask": 18446744073709551615, "group": -3}},
          {"type": "box", "half_extents": [1, 1], "one_way": true}]}]})",
                             "x.json");
    const auto& s = d.bodies[0].shapes;
    EXPECT_EQ(s[0].def.density, 1.0f);
    EXPECT_EQ(s[0].def.friction, 0.6f);
    EXPECT_EQ(s[0].def.restitution, 0.0f);
    EXPECT_EQ(s[0].def.rollingResistance, 0.0f);
    EXPECT_FALSE(s[0].def.isSensor);
    EXPECT_EQ(s[0].def.filter.categoryBits, 1u);
    EXPECT_EQ(s[0].def.filter.maskBits, ~0ull);
    EXPECT_EQ(s[0].def.filter.groupIndex, 0);
    EXPECT_EQ(s[1].def.density, 2.0f);
    EXPECT_EQ(s[1].def.friction, 0.02f);
    EXPECT_EQ(s[1].def.restitution, 0.1f);
    EXPECT_EQ(s[1].def.rollingResistance, 0.3f);
    EXPECT_EQ(*s[1].material, "ice");
    EXPECT_EQ(s[2].def.friction, 0.5f);  // override
    EXPECT_EQ(s[2].def.density, 2.0f);   // from the material
    EXPECT_TRUE(s[2].def.isSensor);
    EXPECT_EQ(s[2].def.filter.categoryBits, 4294967293ull);
    EXPECT_EQ(s[2].def.filter.maskBits, 18446744073709551615ull);
    EXPECT_EQ(s[2].def.filter.groupIndex, -3);
    EXPECT_TRUE(s[3].oneWay);
    EXPECT_TRUE(s[3].def.enablePreSolveEvents);
}

TEST(SceneLoad, GridGeneratorNamesAndOffsets) {
    SceneDesc d = loadString(R"({"carom": 1, "bodies": [{"name": "first"},
        {"generate": "grid", "rows": 2, "columns": 3, "origin": [10, 20], "step": [2, 5],
         "body": {"name": "g", "position": [1, 1], "shapes": [{"type": "circle", "radius": 0.5}]}},
        {"name": "last"}]})",
                             "x.json");
    ASSERT_EQ(d.bodies.size(), 8u);
    EXPECT_EQ(*d.bodies[0].name, "first");
    EXPECT_EQ(*d.bodies[7].name, "last");
    for (int r = 0; r < 2; ++r) {
        for (int c = 0; c < 3; ++c) {
            const BodyDesc& b = d.bodies[static_cast<std::size_t>(1 + r * 3 + c)];
            EXPECT_EQ(*b.name, "g[" + std::to_string(r * 3 + c) + "]");
            EXPECT_EQ(b.def.position, Vec2(1.0f + 10.0f + 2.0f * c, 1.0f + 20.0f + 5.0f * r));
            EXPECT_EQ(b.shapes.size(), 1u);
        }
    }
    EXPECT_EQ(d.totalBodies, 8);
}

TEST(SceneLoad, PyramidGeneratorRowsFromTheBottom) {
    SceneDesc d = loadString(R"({"carom": 1, "bodies": [
        {"generate": "pyramid", "rows": 4, "origin": [0, 0.5], "step": [1, 1], "body": {"name": "p"}},
        {"generate": "pyramid", "rows": 2, "step": [1, 1], "body": {}}]})",
                             "x.json");
    ASSERT_EQ(d.bodies.size(), 10u + 3u);
    int i = 0;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4 - r; ++c, ++i) {
            const BodyDesc& b = d.bodies[static_cast<std::size_t>(i)];
            EXPECT_EQ(*b.name, "p[" + std::to_string(i) + "]");
            EXPECT_FLOAT_EQ(b.def.position.x, static_cast<float>(c) + 0.5f * static_cast<float>(r));
            EXPECT_FLOAT_EQ(b.def.position.y, 0.5f + static_cast<float>(r));
        }
    }
    EXPECT_FALSE(d.bodies[10].name.has_value());  // an unnamed template makes unnamed copies
}

TEST(SceneLoad, JointsKeepTheirKeys) {
    SceneDesc d =
        loadString(R"({"carom": 1, "bodies": [{"name": "a"}, {"name": "b", "position": [2, 0]}],
        "joints": [
          {"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], "collide_connected": true,
           "limit": {"lower": -1, "upper": 1}, "motor": {"speed": 2, "max_torque": 3}, "spring": {"hertz": 4, "damping_ratio": 0.5}},
          {"type": "prismatic", "a": "a", "b": "b", "anchor": [1, 0], "axis": [0, 2], "motor": {"speed": 1, "max_force": 9}},
          {"type": "distance", "a": "a", "b": "b", "anchor_a": [0, 0], "anchor_b": [2, 0], "min_length": 1, "max_length": 3},
          {"type": "weld", "a": "a", "b": "b", "anchor": [1, 0], "linear_hertz": 1, "angular_hertz": 2,
           "linear_damping_ratio": 0.3, "angular_damping_ratio": 0.4},
          {"type": "wheel", "a": "a", "b": "b", "anchor": [2, 0]},
          {"type": "motor", "a": "a", "b": "b", "linear_offset": [1, 1], "angular_offset": 0.5, "max_force": 10,
           "max_torque": 11, "correction_factor": 0.2}]})",
                   "x.json");
    ASSERT_EQ(d.joints.size(), 6u);
    const JointDesc& r = d.joints[0];
    EXPECT_EQ(r.type, JointType::Revolute);
    EXPECT_TRUE(r.collideConnected);
    EXPECT_EQ(r.limit->lower, -1.0f);
    EXPECT_EQ(r.motor->maxForce, 3.0f);
    EXPECT_EQ(r.spring->dampingRatio, 0.5f);
    EXPECT_EQ(d.joints[1].axis, Vec2(0.0f, 1.0f));  // normalised
    EXPECT_EQ(d.joints[1].motor->maxForce, 9.0f);
    EXPECT_FALSE(d.joints[2].length.has_value());  // default: the current distance
    EXPECT_EQ(*d.joints[2].minLength, 1.0f);
    EXPECT_EQ(d.joints[3].angularDampingRatio, 0.4f);
    EXPECT_EQ(d.joints[4].axis, Vec2(0.0f, 1.0f));  // wheel default axis
    EXPECT_EQ(*d.joints[5].linearOffset, Vec2(1.0f, 1.0f));
    EXPECT_EQ(d.joints[5].correctionFactor, 0.2f);
}

// Breakable joints: force_threshold / torque_threshold on any joint type
// reach the desc and the created joint; absent, they never report.
TEST(SceneLoad, JointThresholdsReachTheJoints) {
    SceneDesc d =
        loadString(R"({"carom": 1, "bodies": [{"name": "a"}, {"name": "b", "position": [2, 0]}],
        "joints": [
          {"type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], "force_threshold": 250, "torque_threshold": 0},
          {"type": "motor", "a": "a", "b": "b", "torque_threshold": 3.5},
          {"type": "weld", "a": "a", "b": "b", "anchor": [1, 0]}]})",
                   "x.json");
    ASSERT_EQ(d.joints.size(), 3u);
    EXPECT_EQ(d.joints[0].forceThreshold, 250.0f);
    EXPECT_EQ(d.joints[0].torqueThreshold, 0.0f);
    EXPECT_EQ(d.joints[1].forceThreshold, FLT_MAX);
    EXPECT_EQ(d.joints[1].torqueThreshold, 3.5f);
    EXPECT_EQ(d.joints[2].forceThreshold, FLT_MAX);
    SceneRunner runner(d);
    const std::vector<JointId> joints = runner.world().joints();
    ASSERT_EQ(joints.size(), 3u);
    EXPECT_EQ(runner.world().jointForceThreshold(joints[0]), 250.0f);
    EXPECT_EQ(runner.world().jointTorqueThreshold(joints[0]), 0.0f);
    EXPECT_EQ(runner.world().jointTorqueThreshold(joints[1]), 3.5f);
    EXPECT_EQ(runner.world().jointTorqueThreshold(joints[2]), FLT_MAX);
}

TEST(SceneLoad, EventsSortedByTimeStably) {
    SceneDesc d = loadString(R"({"carom": 1, "bodies": [{"name": "a"}],
        "events": [
          {"time": 2, "action": "gravity", "gravity": [0, 1]},
          {"time": 1, "action": "impulse", "body": "a", "impulse": [1, 0]},
          {"time": 2, "action": "destroy", "body": "a"},
          {"time": 2.5, "action": "spawn", "bodies": [{"name": "a"}]},
          {"time": 0, "action": "set_velocity", "body": "a", "angular_velocity": 3}]})",
                             "x.json");
    ASSERT_EQ(d.events.size(), 5u);
    EXPECT_EQ(d.events[0].action, EventAction::SetVelocity);
    EXPECT_EQ(d.events[1].action, EventAction::Impulse);
    EXPECT_EQ(d.events[2].action, EventAction::Gravity);  // file order among equal times
    EXPECT_EQ(d.events[3].action, EventAction::Destroy);
    EXPECT_EQ(d.events[4].action, EventAction::Spawn);  // the name is free again
    EXPECT_FALSE(d.events[0].linearVelocity.has_value());
    EXPECT_EQ(*d.events[0].angularVelocity, 3.0f);
    EXPECT_EQ(d.totalBodies, 2);
}

}  // namespace
}  // namespace carom::scene
