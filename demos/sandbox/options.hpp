// Command line of carom-sandbox (see docs/sandbox.md; it follows the conventions of docs/cli.md).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <carom/debug_draw.hpp>
#include <carom/types.hpp>

namespace carom::sandbox {

/// A bad command line; main() prints it and exits with status 2.
class UsageError : public std::runtime_error {
   public:
    using std::runtime_error::runtime_error;
};

struct Options {
    std::string scene;       ///< empty: the bundled default scene
    bool headless = false;   ///< no window: offscreen software rendering
    int frames = -1;         ///< frames to run (headless default 60; window: until closed)
    double seconds = -1.0;   ///< run time: wall clock in a window, simulated headless
    std::string screenshot;  ///< PNG of the last frame
    std::string script;      ///< input script replayed frame by frame
    int width = 1280;
    int height = 720;
    bool paused = false;
    bool showUi = true;
    std::optional<BroadphaseType> broadphase;
    std::optional<int> threads;
    DebugDrawFlags draw{};  ///< initial debug-draw flags (--draw)
    std::string record;     ///< --record FILE: record the session, written on quit
    std::string replay;     ///< --replay FILE: open a recording to play and scrub
    bool help = false;
};

/// Parses argv (argv[0] is skipped). Throws UsageError.
Options parseOptions(const std::vector<std::string>& args);

/// The --help text.
std::string usageText();

/// Sets the named draw flag ("aabbs", "contacts", ...); false if unknown.
bool setDrawFlag(DebugDrawFlags& flags, const std::string& name, bool value);

}  // namespace carom::sandbox
