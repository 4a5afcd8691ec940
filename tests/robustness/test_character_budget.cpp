// The scene runner's character budget (scene::kMaxCharacterWork,
// docs/robustness.md "Budgets"): 2 000 characters created at one point
// each see the 1 999 others in every mover query, some thirty queries per
// character and step. The movers' queries stop where the budget is spent; the
// characters left stay where they are that step, and the runner says so.
#include <string>

#include <gtest/gtest.h>

#include <carom/scene.hpp>

using namespace carom;
using namespace carom::scene;

namespace {

std::string charactersAtOnePoint(int rows, int columns) {
    return R"({"carom": 1, "bodies": [{"generate": "grid", "rows": )" + std::to_string(rows) +
           R"(, "columns": )" + std::to_string(columns) +
           R"(, "step": [0, 0], "body": {"character": {}}}]})";
}

TEST(CharacterBudget, ThousandsOfCharactersAtOnePointLeaveTheRestUnmoved) {
    SceneRunner runner(loadString(charactersAtOnePoint(20, 100), "crowd.json"));
    EXPECT_FALSE(runner.characterBudgetExceeded());
    runner.setInput(CharacterInput{1.0f, false});
    for (int step = 0; step < 2; ++step) {
        runner.step();
        // Each character's first query alone sees all 2 000 capsules: the
        // probes spend the budget after 100 characters, and no one moves.
        EXPECT_EQ(runner.charactersOverBudget(), 2000) << "step " << step;
        EXPECT_TRUE(runner.characterBudgetExceeded());
        for (const scene::CharacterState& c : runner.characters())
            ASSERT_EQ(runner.world().position(c.body).x, 0.0f);
    }
}

TEST(CharacterBudget, AnOrdinaryCrowdStaysWithinIt) {
    // 30 characters in a row on a floor, running: every one moves every step.
    SceneRunner runner(loadString(R"({"carom": 1, "bodies": [
        {"type": "static", "shapes": [{"type": "box", "half_extents": [200, 0.5]}]},
        {"generate": "grid", "rows": 1, "columns": 30, "origin": [-60, 1.3], "step": [2, 0], "body": {"character": {}}}]})",
                                  "row.json"));
    runner.setInput(CharacterInput{1.0f, false});
    runner.run(120);
    EXPECT_FALSE(runner.characterBudgetExceeded());
    EXPECT_EQ(runner.charactersOverBudget(), 0);
    for (const scene::CharacterState& c : runner.characters()) EXPECT_TRUE(c.grounded);
}

}  // namespace
