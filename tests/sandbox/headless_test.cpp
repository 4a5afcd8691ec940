// Runs the real carom-sandbox executable headless and checks its pictures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <carom/recording.hpp>
#include <carom/scene_recording.hpp>

#include "sandbox_run.hpp"

namespace carom::sandbox::test {
namespace {

// The sandbox clears to this colour before drawing the world.
constexpr uint8_t kBackground[3] = {0x1c, 0x1e, 0x24};

bool isBackground(const uint8_t* p) {
    return p[0] == kBackground[0] && p[1] == kBackground[1] && p[2] == kBackground[2];
}

Image shoot(const std::vector<std::string>& extra, const std::string& tag,
            RunResult* result = nullptr) {
    std::string png = outDir() + "/" + tag + ".png";
    std::filesystem::remove(png);
    std::vector<std::string> args = extra;
    args.insert(args.end(), {"--headless", "--screenshot", png});
    RunResult r = runSandbox(args, tag);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("wrote " + png), std::string::npos) << r.out;
    if (result != nullptr) *result = r;
    return loadPng(png);
}

TEST(SandboxHeadless, DefaultSceneAtFrame0And120IsValidNotBlankAndMoves) {
    Image f0 = shoot({"--frames", "0", "--size", "960x540", "--no-ui"}, "default_frame0");
    Image f120 = shoot({"--frames", "120", "--size", "960x540", "--no-ui"}, "default_frame120");
    ASSERT_TRUE(f0.valid());
    ASSERT_TRUE(f120.valid());
    EXPECT_EQ(f0.width, 960);
    EXPECT_EQ(f0.height, 540);
    EXPECT_GT(luminanceVariance(f0), 5.0);
    EXPECT_GT(luminanceVariance(f120), 5.0);
    // Without the panels only the world is drawn: a difference means bodies moved.
    EXPECT_GT(differingFraction(f0, f120), 0.001);
}

TEST(SandboxHeadless, PanelsAreDrawn) {
    Image bare = shoot({"--frames", "0", "--size", "960x540", "--no-ui"}, "panels_off");
    Image ui = shoot({"--frames", "0", "--size", "960x540"}, "panels_on");
    ASSERT_TRUE(ui.valid());
    EXPECT_GT(differingFraction(bare, ui), 0.02);
}

TEST(SandboxHeadless, SameRunGivesTheSamePicture) {
    Image a = shoot({sourceFile("scenes/window.json"), "--frames", "60", "--no-ui"}, "repeat_a");
    Image b = shoot({sourceFile("scenes/window.json"), "--frames", "60", "--no-ui"}, "repeat_b");
    ASSERT_TRUE(a.valid());
    EXPECT_EQ(differingFraction(a, b), 0.0);
}

TEST(SandboxHeadless, EveryShapeKindIsDrawnWhereItIs) {
    // shapes.json: view centre (0, 0), 20 m tall in 720 px, so 36 px per
    // metre with the world origin at pixel (640, 360).
    Image img = shoot({sourceFile("scenes/shapes.json"), "--frames", "0", "--no-ui"}, "shapes");
    ASSERT_TRUE(img.valid());
    ASSERT_EQ(img.width, 1280);
    auto px = [&](float x, float y) {
        return img.at(static_cast<int>(640.0f + 36.0f * x), static_cast<int>(360.0f - 36.0f * y));
    };
    struct Probe {
        const char* what;
        float x, y;
    };
    for (Probe p : {Probe{"circle", -6.5f, 2.7f}, Probe{"capsule", -2.5f, 2.3f},
                    Probe{"capsule end", -3.9f, 2.5f}, Probe{"box", 1.5f, 2.3f},
                    Probe{"rounded box side", 2.3f, 3.4f}, Probe{"polygon", 5.5f, 2.2f}}) {
        EXPECT_FALSE(isBackground(px(p.x, p.y)))
            << p.what << " not filled at (" << p.x << ", " << p.y << ")";
    }
    // Segments are 1.5 px lines: one of the rows next to the exact one is hit.
    for (Probe p : {Probe{"segment", -6.0f, -2.5f}, Probe{"chain", 2.0f, -2.5f}}) {
        bool drawn = false;
        for (float dy : {-1.0f / 36.0f, 0.0f, 1.0f / 36.0f})
            drawn = drawn || !isBackground(px(p.x, p.y + dy));
        EXPECT_TRUE(drawn) << p.what << " not drawn at (" << p.x << ", " << p.y << ")";
    }
    // Away from the shapes and the 1 m grid lines: nothing but background.
    for (Probe p :
         {Probe{"empty", 0.5f, 7.5f}, Probe{"empty", -8.5f, -6.5f}, Probe{"empty", 8.5f, 0.5f}}) {
        EXPECT_TRUE(isBackground(px(p.x, p.y)))
            << "something drawn at (" << p.x << ", " << p.y << ")";
    }
}

TEST(SandboxHeadless, ScriptedKeySpawnsABodyAtTheCursor) {
    std::string script = outDir() + "/spawn_script.txt";
    std::string shot = outDir() + "/spawn_scripted.png";
    std::filesystem::remove(shot);
    {
        std::ofstream s(script);
        s << "# spawn a box at the world point (0.5, 7.5)\n0 wmove 0.5 7.5\n0 key 1\n2 screenshot "
          << shot << "\n";
    }
    RunResult r = runSandbox({sourceFile("scenes/shapes.json"), "--headless", "--paused", "--no-ui",
                              "--frames", "3", "--script", script},
                             "spawn");
    ASSERT_EQ(r.status, 0) << r.err;
    Image img = loadPng(shot);
    ASSERT_TRUE(img.valid()) << r.out;
    EXPECT_FALSE(isBackground(img.at(640 + 18, 360 - 270)));
}

TEST(SandboxHeadless, ScriptedMouseDragPullsTheBallToTheCursor) {
    // window.json: the ball (radius 0.8) rests at (5, 0.8); view centre
    // (0, 4), 14 m tall in 720 px. Grab it, hold the cursor at (-2, 6) for
    // about a second: the mouse joint's spring brings the ball there.
    std::string script = outDir() + "/drag_script.txt";
    std::string held = outDir() + "/drag_held.png";
    std::filesystem::remove(held);
    {
        std::ofstream s(script);
        s << "5 wmove 5 0.8\n5 down left\n6 wmove -2 6\n70 screenshot " << held << "\n71 up left\n";
    }
    RunResult r = runSandbox({sourceFile("scenes/window.json"), "--headless", "--no-ui", "--frames",
                              "72", "--script", script},
                             "drag");
    ASSERT_EQ(r.status, 0) << r.err;
    Image img = loadPng(held);
    ASSERT_TRUE(img.valid()) << r.out;
    Image still =
        shoot({sourceFile("scenes/window.json"), "--frames", "70", "--no-ui"}, "drag_none");
    ASSERT_TRUE(still.valid());
    const float scale = 720.0f / 14.0f;
    auto px = [&](const Image& im, float x, float y) {
        return im.at(static_cast<int>(640.0f + scale * x),
                     static_cast<int>(360.0f - scale * (y - 4.0f)));
    };
    EXPECT_FALSE(isBackground(px(img, -2.0f, 6.0f))) << "the ball is not at the cursor";
    EXPECT_TRUE(isBackground(px(still, -2.0f, 6.0f)));
    // And it left its resting place.
    EXPECT_FALSE(isBackground(px(still, 5.0f, 0.8f)));
    EXPECT_TRUE(isBackground(px(img, 5.0f, 1.2f)));
}

// A session recorded with --record (a mouse drag, which travels as edits)
// replays to the bit, and --replay shows the recorded run: the ball is where
// the drag took it, with no mouse at all.
TEST(SandboxHeadless, ARecordedSessionReplaysWithTheDrag) {
    const std::string script = outDir() + "/record_script.txt";
    const std::string rec = outDir() + "/session.rec";
    std::filesystem::remove(rec);
    std::ofstream(script) << "5 wmove 5 0.8\n5 down left\n6 wmove -2 6\n71 up left\n";
    RunResult r = runSandbox({sourceFile("scenes/window.json"), "--headless", "--no-ui", "--frames",
                              "80", "--script", script, "--record", rec},
                             "record");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("wrote " + rec + " (80 steps)"), std::string::npos) << r.err;
    std::ifstream in(rec, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    const Recording recording = Recording::fromBytes(bytes);
    ASSERT_EQ(recording.frames.size(), 80u);
    int edits = 0;
    for (const Recording::Frame& f : recording.frames) edits += f.input.size() > scene::kInputBytes;
    EXPECT_GT(edits, 60);  // every step of the drag
    EXPECT_EQ(scene::replayRecording(recording, rec).firstDifferentStep, 0);

    Image replayed = shoot({"--replay", rec, "--frames", "70", "--no-ui"}, "replay70");
    ASSERT_TRUE(replayed.valid());
    const float scale = 720.0f / 14.0f;
    auto px = [&](const Image& im, float x, float y) {
        return im.at(static_cast<int>(640.0f + scale * x),
                     static_cast<int>(360.0f - scale * (y - 4.0f)));
    };
    EXPECT_FALSE(isBackground(px(replayed, -2.0f, 6.0f))) << "the ball is not where it was dragged";
    EXPECT_TRUE(isBackground(px(replayed, 5.0f, 1.2f)));
}

// The platformer (a scene with a character): scripted held keys run it and a
// tapped Space makes it jump, instead of panning and pausing.
TEST(SandboxHeadless, ScriptedKeysDriveTheCharacter) {
    const std::string scene = sourceFile("../../demos/scenes/platformer.json");
    // platformer.json's view: centre (0, 5.5), 23 m tall in 720 px; the hero
    // (a capsule 1.4 m tall) starts at (-18, 0.705) and runs at 6 m/s.
    const float scale = 720.0f / 23.0f;
    auto px = [&](const Image& im, float x, float y) {
        return im.at(static_cast<int>(640.0f + scale * x),
                     static_cast<int>(360.0f - scale * (y - 5.5f)));
    };
    auto play = [&](const std::string& lines, const std::string& tag) {
        const std::string script = outDir() + "/" + tag + ".txt";
        std::ofstream(script) << lines;
        return shoot({scene, "--frames", "60", "--no-ui", "--script", script}, tag);
    };
    Image idle = play("", "platformer_idle");
    Image ran = play("0 press right\n", "platformer_run");
    Image jumped = play("45 key space\n", "platformer_jump");
    ASSERT_TRUE(idle.valid() && ran.valid() && jumped.valid());
    // (Points 0.15 m right of the hero's axis: whole metres are grid lines.)
    EXPECT_FALSE(isBackground(px(idle, -17.85f, 0.7f)));
    EXPECT_TRUE(isBackground(px(idle, -11.85f, 0.7f)));
    // Sixty steps at 6 m/s: from x = -18 to -12.
    EXPECT_TRUE(isBackground(px(ran, -17.85f, 0.7f)));
    EXPECT_FALSE(isBackground(px(ran, -11.85f, 0.7f)));
    // Fifteen steps into a jump at 11 m/s (gravity 25): about 2 m up.
    EXPECT_TRUE(isBackground(px(jumped, -17.85f, 0.3f)));
    EXPECT_FALSE(isBackground(px(jumped, -17.85f, 2.7f)));
}

TEST(SandboxHeadless, BadSceneIsRefusedWithItsLocation) {
    RunResult r =
        runSandbox({sourceFile("scenes/bad.json"), "--headless", "--frames", "1"}, "bad_scene");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("bad.json:5:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("radius"), std::string::npos) << r.err;
}

TEST(SandboxHeadless, MissingSceneIsBadInput) {
    RunResult r =
        runSandbox({sourceFile("scenes/no_such_scene.json"), "--headless"}, "missing_scene");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("no_such_scene.json"), std::string::npos) << r.err;
}

TEST(SandboxHeadless, BadFlagsAreBadInput) {
    EXPECT_EQ(runSandbox({"--frobnicate"}, "bad_flag").status, 2);
    EXPECT_EQ(runSandbox({"--headless", "--frames", "ten"}, "bad_frames").status, 2);
    EXPECT_EQ(runSandbox({"--headless", "--size", "10x10"}, "bad_size").status, 2);
    EXPECT_EQ(runSandbox({"--draw", "sparkles"}, "bad_draw").status, 2);
    RunResult help = runSandbox({"--help"}, "help");
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("--headless"), std::string::npos);
}

}  // namespace
}  // namespace carom::sandbox::test
