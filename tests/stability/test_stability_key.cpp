// The project key `stability` of scene files (docs/scene-format.md, Additions).
#include <gtest/gtest.h>

#include <carom/scene.hpp>

namespace carom::scene {
namespace {

std::string sceneWith(const std::string& stability, double duration = 5.0) {
    return R"({"carom": 1, "duration": )" + std::to_string(duration) + R"(,
      "bodies": [{"name": "ground", "type": "static", "shapes": [{"type": "box", "half_extents": [5, 0.5]}]},
                 {"generate": "grid", "rows": 3, "columns": 1, "origin": [0, 1], "step": [0, 1],
                  "body": {"name": "box", "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}}],
      "stability": )" +
           stability + "}";
}

std::string errorOf(const std::string& text) {
    try {
        loadString(text, "s.json");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}

TEST(StabilityKey, ParsedWithItsDefaults) {
    SceneDesc d = loadString(sceneWith(R"({"figure": "drift"})"), "s.json");
    ASSERT_TRUE(d.stability);
    EXPECT_EQ(d.stability->figure, StabilityFigure::Drift);
    EXPECT_TRUE(d.stability->bodies.empty());
    EXPECT_EQ(d.stability->settle, 0.0);
    EXPECT_EQ(d.stability->every, 1);
    EXPECT_FALSE(d.stability->collapse);
    EXPECT_FALSE(d.stability->goal);

    SceneDesc s =
        loadString(sceneWith(R"({"figure": "stretch", "bodies": ["box*", "ground"], "settle": 1.5,
        "every": 3, "collapse": 0.5, "goal": 0.01, "level": 2,
        "from": {"body": "ground"}, "to": {"body": "box[2]", "local": [0, 0.5]}})"),
                   "s.json");
    const StabilitySpec& t = *s.stability;
    EXPECT_EQ(t.figure, StabilityFigure::Stretch);
    EXPECT_EQ(t.bodies, (std::vector<std::string>{"box*", "ground"}));
    EXPECT_EQ(t.settle, 1.5);
    EXPECT_EQ(t.every, 3);
    EXPECT_EQ(*t.collapse, 0.5f);
    EXPECT_EQ(*t.goal, 0.01f);
    EXPECT_EQ(*t.level, 2.0f);
    EXPECT_EQ(t.from->body, "ground");
    EXPECT_EQ(t.to->body, "box[2]");
    EXPECT_EQ(t.to->local.y, 0.5f);

    EXPECT_FALSE(loadString(R"({"carom": 1})", "plain.json").stability);
}

TEST(StabilityKey, RefusedWhenWrong) {
    EXPECT_NE(
        errorOf(sceneWith(R"({"figure": "drfit"})")).find("stability.figure: expected one of"),
        std::string::npos);
    EXPECT_NE(errorOf(sceneWith(R"({"figure": "drfit"})")).find("did you mean \"drift\"?"),
              std::string::npos);
    EXPECT_NE(errorOf(sceneWith(R"({})")).find("missing required key \"figure\""),
              std::string::npos);
    EXPECT_NE(errorOf(sceneWith(R"({"figure": "sag", "bodies": ["box[7]"]})"))
                  .find("stability.bodies[0]: no body named"),
              std::string::npos);
    EXPECT_NE(errorOf(sceneWith(R"({"figure": "sag", "bodies": ["crate*"]})"))
                  .find("starting with \"crate\""),
              std::string::npos);
    EXPECT_NE(errorOf(sceneWith(R"({"figure": "stretch", "from": {"body": "ground"}})"))
                  .find("needs \"from\" and \"to\""),
              std::string::npos);
    EXPECT_NE(errorOf(sceneWith(R"({"figure": "drift", "settle": 5})"))
                  .find("stability.settle: must be >= 0 and below"),
              std::string::npos);
    EXPECT_NE(errorOf(sceneWith(R"({"figure": "drift", "every": 0})")).find("stability.every"),
              std::string::npos);
    EXPECT_NE(errorOf(sceneWith(R"({"figure": "drift", "goal": -1})")).find("stability.goal"),
              std::string::npos);
    EXPECT_NE(
        errorOf(sceneWith(R"({"figure": "drift", "setle": 1})")).find("did you mean \"settle\"?"),
        std::string::npos);
}

}  // namespace
}  // namespace carom::scene
