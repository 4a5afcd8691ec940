// Save -> load round trips: the reloaded world has the same state hash,
// bit for bit, and saving it again writes the same text.
#include <gtest/gtest.h>

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

INSTANTIATE_TEST_SUITE_P(Scenes, SaveRoundTrip,
                         ::testing::Values(std::make_pair("default.json", 90), std::make_pair("joints.json", 60),
                                           std::make_pair("car.json", 60), std::make_pair("ragdolls.json", 45),
                                           std::make_pair("spawn_events.json", 150),
                                           std::make_pair("one_way.json", 40),
                                           std::make_pair("sensors_filtering.json", 30),
                                           std::make_pair("newtons_cradle.json", 30),
                                           std::make_pair("arch.json", 0)));

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

}  // namespace
}  // namespace carom::scene
