// Unit tests of the sandbox parts that need no window: camera, input
// scripts, scene files and the file watcher, the command line.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

#include "camera.hpp"
#include "options.hpp"
#include "scene_files.hpp"
#include "script.hpp"
#include "sandbox_run.hpp"

namespace carom::sandbox {
namespace {

namespace fs = std::filesystem;

TEST(SandboxCamera, ScreenAndWorldAreInverse) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-100.0f, 100.0f);
    for (int i = 0; i < 200; ++i) {
        Camera cam;
        cam.setViewport(640 + i, 480);
        cam.set({u(rng), u(rng)}, 1.0f + std::fabs(u(rng)));
        Vec2 w{u(rng), u(rng)};
        Vec2 back = cam.screenToWorld(cam.worldToScreen(w));
        EXPECT_NEAR(back.x, w.x, 1e-3f);
        EXPECT_NEAR(back.y, w.y, 1e-3f);
    }
}

TEST(SandboxCamera, WorldUpIsScreenUpAndCentreIsMiddle) {
    Camera cam;
    cam.setViewport(800, 600);
    cam.set({3.0f, 4.0f}, 10.0f);
    Vec2 c = cam.worldToScreen({3.0f, 4.0f});
    EXPECT_FLOAT_EQ(c.x, 400.0f);
    EXPECT_FLOAT_EQ(c.y, 300.0f);
    EXPECT_FLOAT_EQ(cam.scale(), 60.0f);
    EXPECT_LT(cam.worldToScreen({3.0f, 5.0f}).y, 300.0f);
    AABB v = cam.visibleBounds();
    EXPECT_NEAR(v.upper.y - v.lower.y, 10.0f, 1e-4f);
    EXPECT_NEAR(v.upper.x - v.lower.x, 10.0f * 800.0f / 600.0f, 1e-4f);
}

TEST(SandboxCamera, ZoomKeepsTheAnchorStillAndPanMovesByPixels) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> px(0.0f, 1000.0f);
    for (int i = 0; i < 100; ++i) {
        Camera cam;
        cam.setViewport(1000, 700);
        cam.set({1.0f, -2.0f}, 25.0f);
        Vec2 anchor{px(rng), 0.7f * px(rng)};
        Vec2 before = cam.screenToWorld(anchor);
        cam.zoomAt(anchor, 1.15f + 0.001f * static_cast<float>(i));
        Vec2 after = cam.screenToWorld(anchor);
        EXPECT_NEAR(before.x, after.x, 1e-3f);
        EXPECT_NEAR(before.y, after.y, 1e-3f);
    }
    Camera cam;
    cam.setViewport(1000, 500);
    cam.set({0.0f, 0.0f}, 10.0f);  // 50 px per metre
    Vec2 w = cam.screenToWorld({500.0f, 250.0f});
    cam.panPixels({100.0f, -50.0f});
    // The world point that was at the centre follows the drag.
    Vec2 s = cam.worldToScreen(w);
    EXPECT_NEAR(s.x, 600.0f, 1e-3f);
    EXPECT_NEAR(s.y, 200.0f, 1e-3f);
}

TEST(SandboxCamera, FitShowsTheWholeBox) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-50.0f, 50.0f);
    for (int i = 0; i < 100; ++i) {
        Camera cam;
        cam.setViewport(300 + 10 * i, 900 - 5 * i);
        Vec2 a{u(rng), u(rng)};
        Vec2 b = a + Vec2{1.0f + std::fabs(u(rng)), 1.0f + std::fabs(u(rng))};
        cam.fit({a, b});
        EXPECT_TRUE(aabbContains(cam.visibleBounds(), AABB{a, b}));
    }
}

// Fit with panels along the sides: the box lies in the part of the window
// they leave free (its screen x within [left, width - right]) and its centre
// in the middle of that part; insets that would leave under a third of the
// window are ignored.
TEST(SandboxCamera, FitLeavesRoomForThePanels) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-50.0f, 50.0f);
    for (int i = 0; i < 100; ++i) {
        Camera cam;
        cam.setViewport(800 + 5 * i, 450 + 2 * i);
        const ScreenInsets insets{280.0f, i % 2 == 0 ? 0.0f : 140.0f};
        Vec2 a{u(rng), u(rng)};
        Vec2 b = a + Vec2{1.0f + std::fabs(u(rng)), 1.0f + std::fabs(u(rng))};
        cam.fit({a, b}, 0.05f, insets);
        const float right = static_cast<float>(cam.width()) - insets.right;
        for (Vec2 corner : {a, b, Vec2{a.x, b.y}, Vec2{b.x, a.y}}) {
            const Vec2 s = cam.worldToScreen(corner);
            EXPECT_GE(s.x, insets.left - 0.01f);
            EXPECT_LE(s.x, right + 0.01f);
            EXPECT_GE(s.y, -0.01f);
            EXPECT_LE(s.y, static_cast<float>(cam.height()) + 0.01f);
        }
        EXPECT_NEAR(cam.worldToScreen(aabbCenter(AABB{a, b})).x, 0.5f * (insets.left + right),
                    0.05f);
    }
    Camera cam;
    cam.setViewport(600, 400);
    cam.fit({{-1.0f, -1.0f}, {1.0f, 1.0f}}, 0.0f,
            ScreenInsets{300.0f, 150.0f});  // 150 px free: ignored
    EXPECT_NEAR(cam.worldToScreen({0.0f, 0.0f}).x, 300.0f, 0.01f);
}

TEST(SandboxScript, ParsesEveryActionAndExpandsDrags) {
    Script s = Script::parse(
        "# comment\n"
        "3 move 10 20\n"
        "\n"
        "3 key space  # trailing comment\n"
        "1 wheel -2\n"
        "5 wdrag 0 0 4 2 4\n"
        "12 screenshot a.png\n"
        "13 quit\n",
        "t.txt");
    EXPECT_EQ(s.lastFrame(), 13);
    auto f1 = s.eventsAt(1);
    ASSERT_EQ(f1.size(), 1u);
    EXPECT_EQ(f1[0].kind, ScriptEvent::Kind::Wheel);
    auto f3 = s.eventsAt(3);
    ASSERT_EQ(f3.size(), 2u);
    EXPECT_EQ(f3[0].kind, ScriptEvent::Kind::Move);
    EXPECT_EQ(f3[1].kind, ScriptEvent::Kind::Key);
    EXPECT_EQ(f3[1].text, "space");
    // A drag: move + press at its first frame, one move per frame, release at the last.
    auto f5 = s.eventsAt(5);
    ASSERT_EQ(f5.size(), 2u);
    EXPECT_EQ(f5[0].kind, ScriptEvent::Kind::Move);
    EXPECT_TRUE(f5[0].world);
    EXPECT_EQ(f5[1].kind, ScriptEvent::Kind::Down);
    auto f7 = s.eventsAt(7);
    ASSERT_EQ(f7.size(), 1u);
    EXPECT_FLOAT_EQ(f7[0].pos.x, 2.0f);
    EXPECT_FLOAT_EQ(f7[0].pos.y, 1.0f);
    auto f9 = s.eventsAt(9);
    ASSERT_EQ(f9.size(), 2u);
    EXPECT_FLOAT_EQ(f9[0].pos.x, 4.0f);
    EXPECT_EQ(f9[1].kind, ScriptEvent::Kind::Up);
    EXPECT_TRUE(s.eventsAt(10).empty());
    EXPECT_EQ(s.eventsAt(12)[0].text, "a.png");
    EXPECT_EQ(s.eventsAt(13)[0].kind, ScriptEvent::Kind::Quit);
}

// Held keys for a scene's character: press and release, with key names checked.
TEST(SandboxScript, PressAndReleaseHoldKeys) {
    Script s = Script::parse("2 press right\n9 release right\n", "t.txt");
    ASSERT_EQ(s.eventsAt(2).size(), 1u);
    EXPECT_EQ(s.eventsAt(2)[0].kind, ScriptEvent::Kind::Press);
    EXPECT_EQ(s.eventsAt(2)[0].text, "right");
    EXPECT_EQ(s.eventsAt(9)[0].kind, ScriptEvent::Kind::Release);
    EXPECT_THROW(Script::parse("1 press nosuchkey\n", "t.txt"), std::runtime_error);
    EXPECT_THROW(Script::parse("1 release\n", "t.txt"), std::runtime_error);
}

TEST(SandboxScript, ErrorsNameTheLine) {
    auto message = [](const std::string& text) {
        try {
            Script::parse(text, "s.txt");
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(message("0 move 1 2\n1 jump\n").rfind("s.txt:2: ", 0), 0u);
    EXPECT_EQ(message("x move 1 2\n").rfind("s.txt:1: ", 0), 0u);
    EXPECT_EQ(message("\n\n4 down sideways\n").rfind("s.txt:3: ", 0), 0u);
    EXPECT_EQ(message("4 key nosuchkey\n").rfind("s.txt:1: ", 0), 0u);
    EXPECT_EQ(message("4 move 1 2 3\n").rfind("s.txt:1: ", 0), 0u);
    EXPECT_EQ(message("-1 quit\n").rfind("s.txt:1: ", 0), 0u);
    EXPECT_EQ(message("4 drag 0 0 1 1 0\n").rfind("s.txt:1: ", 0), 0u);
}

TEST(SandboxFiles, WatcherSeesEachChangeOnce) {
    fs::path dir = fs::path(test::outDir()) / "watch";
    fs::create_directories(dir);
    fs::path file = dir / "scene.json";
    fs::remove(file);
    FileWatcher w;
    w.watch(file);
    EXPECT_FALSE(w.changed());  // missing file
    std::ofstream(file) << "{}";
    EXPECT_TRUE(w.changed());  // appeared
    EXPECT_FALSE(w.changed());
    // Set the time explicitly: file systems with coarse timestamps would
    // otherwise hide a rewrite within the same tick.
    fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(5));
    EXPECT_TRUE(w.changed());
    EXPECT_FALSE(w.changed());
}

TEST(SandboxFiles, ListsOnlyJsonFilesSorted) {
    fs::path dir = fs::path(test::outDir()) / "list";
    fs::remove_all(dir);
    fs::create_directories(dir / "sub.json");
    for (const char* n : {"b.json", "a.json", "notes.txt", "c.json"})
        std::ofstream(dir / n) << "{}";
    auto files = listScenes(dir);
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[0].filename(), "a.json");
    EXPECT_EQ(files[1].filename(), "b.json");
    EXPECT_EQ(files[2].filename(), "c.json");
}

TEST(SandboxFiles, FindsTheBundledSceneFolders) {
    auto folders = sceneFolders();
    ASSERT_FALSE(folders.empty());
    EXPECT_EQ(folders[0].label, "demos");
    EXPECT_TRUE(fs::is_directory(folders[0].path));
}

TEST(SandboxOptions, ParsesFlags) {
    Options o = parseOptions({"s.json", "--headless", "--frames", "12", "--screenshot", "x.png",
                              "--size", "320x200", "--broadphase", "sap", "--draw",
                              "aabbs,contacts", "--paused", "--no-ui"});
    EXPECT_EQ(o.scene, "s.json");
    EXPECT_TRUE(o.headless);
    EXPECT_EQ(o.frames, 12);
    EXPECT_EQ(o.screenshot, "x.png");
    EXPECT_EQ(o.width, 320);
    EXPECT_EQ(o.height, 200);
    EXPECT_EQ(o.broadphase, BroadphaseType::SortAndSweep);
    EXPECT_TRUE(o.draw.aabbs);
    EXPECT_TRUE(o.draw.contactPoints);
    EXPECT_TRUE(o.draw.contactNormals);
    EXPECT_FALSE(o.draw.islands);
    EXPECT_TRUE(o.paused);
    EXPECT_FALSE(o.showUi);
    EXPECT_THROW(parseOptions({"a.json", "b.json"}), UsageError);
    EXPECT_THROW(parseOptions({"--frames"}), UsageError);
    EXPECT_THROW(parseOptions({"--frames", "-3"}), UsageError);
    EXPECT_THROW(parseOptions({"--seconds", "nan"}), UsageError);
    EXPECT_THROW(parseOptions({"--threads", "0"}), UsageError);
    EXPECT_THROW(parseOptions({"--size", "100"}), UsageError);
}

}  // namespace
}  // namespace carom::sandbox
