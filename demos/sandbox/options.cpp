#include "options.hpp"

#include <charconv>
#include <sstream>

namespace carom::sandbox {

namespace {

template <class T>
T parseNumber(const std::string& flag, const std::string& text) {
    T value{};
    const char* first = text.data();
    const char* last = first + text.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc{} || ptr != last)
        throw UsageError(flag + ": expected a number, got \"" + text + "\"");
    return value;
}

}  // namespace

bool setDrawFlag(DebugDrawFlags& f, const std::string& name, bool value) {
    if (name == "shapes")
        f.shapes = value;
    else if (name == "joints")
        f.joints = value;
    else if (name == "aabbs")
        f.aabbs = value;
    else if (name == "broadphase")
        f.broadphase = value;
    else if (name == "contacts")
        f.contactPoints = f.contactNormals = value;
    else if (name == "impulses")
        f.contactImpulses = value;
    else if (name == "com")
        f.centersOfMass = value;
    else if (name == "islands")
        f.islands = value;
    else if (name == "continuous")
        f.continuous = value;
    else
        return false;
    return true;
}

std::string usageText() {
    return "usage: carom-sandbox [SCENE] [options]\n"
           "\n"
           "Opens a window on SCENE (default: the bundled demos/scenes/default.json).\n"
           "\n"
           "  --headless             no window: render offscreen with SDL's software renderer\n"
           "  --frames N             run N frames, then exit (headless default: 60)\n"
           "  --seconds T            run T seconds (wall clock in a window, simulated headless)\n"
           "  --quit-after N         same as --frames N\n"
           "  --screenshot FILE.png  write the last frame as a PNG\n"
           "  --script FILE          replay timed mouse and key events (see docs/sandbox.md)\n"
           "  --size WxH             window or image size in pixels (default 1280x720)\n"
           "  --broadphase tree|sap  override the scene's broadphase\n"
           "  --threads K            worker threads (override the scene)\n"
           "  --draw LIST            comma list of debug layers to show: aabbs, broadphase,\n"
           "                         contacts, impulses, com, islands, continuous, joints, shapes\n"
           "  --record FILE          record the session (keys, tools), written on quit\n"
           "  --replay FILE          play a recording, with a step slider to scrub it\n"
           "  --paused               start paused\n"
           "  --no-ui                hide the ImGui panels\n"
           "  --help                 this text\n"
           "\n"
           "Exit status: 0 success, 2 bad flag or bad scene (headless), 1 other failure.\n";
}

Options parseOptions(const std::vector<std::string>& args) {
    Options o;
    auto value = [&](size_t& i) -> const std::string& {
        if (i + 1 >= args.size()) throw UsageError(args[i] + ": missing value");
        return args[++i];
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a == "--headless") {
            o.headless = true;
        } else if (a == "--frames" || a == "--quit-after") {
            o.frames = parseNumber<int>(a, value(i));
            if (o.frames < 0) throw UsageError(a + ": must be >= 0");
        } else if (a == "--seconds") {
            o.seconds = parseNumber<double>(a, value(i));
            if (!(o.seconds >= 0.0) || o.seconds > 1.0e6)
                throw UsageError(a + ": must be in [0, 1e6]");
        } else if (a == "--screenshot") {
            o.screenshot = value(i);
        } else if (a == "--script") {
            o.script = value(i);
        } else if (a == "--size") {
            const std::string& s = value(i);
            size_t x = s.find('x');
            if (x == std::string::npos) throw UsageError("--size: expected WxH, got \"" + s + "\"");
            o.width = parseNumber<int>(a, s.substr(0, x));
            o.height = parseNumber<int>(a, s.substr(x + 1));
            if (o.width < 64 || o.height < 64 || o.width > 8192 || o.height > 8192)
                throw UsageError("--size: each side must be in [64, 8192]");
        } else if (a == "--broadphase") {
            const std::string& s = value(i);
            if (s == "tree")
                o.broadphase = BroadphaseType::Tree;
            else if (s == "sap")
                o.broadphase = BroadphaseType::SortAndSweep;
            else
                throw UsageError("--broadphase: expected tree or sap, got \"" + s + "\"");
        } else if (a == "--threads") {
            o.threads = parseNumber<int>(a, value(i));
            if (*o.threads < 1 || *o.threads > 256)
                throw UsageError("--threads: must be in [1, 256]");
        } else if (a == "--draw") {
            std::stringstream list(value(i));
            std::string name;
            while (std::getline(list, name, ','))
                if (!name.empty() && !setDrawFlag(o.draw, name, true))
                    throw UsageError("--draw: unknown layer \"" + name + "\"");
        } else if (a == "--record") {
            o.record = value(i);
        } else if (a == "--replay") {
            o.replay = value(i);
        } else if (a == "--paused") {
            o.paused = true;
        } else if (a == "--no-ui") {
            o.showUi = false;
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError("unknown option " + a + " (see --help)");
        } else if (o.scene.empty()) {
            o.scene = a;
        } else {
            throw UsageError("more than one scene given: " + o.scene + " and " + a);
        }
    }
    if (!o.record.empty() && !o.replay.empty())
        throw UsageError("--record and --replay cannot be given together");
    if (!o.replay.empty() && !o.scene.empty())
        throw UsageError("--replay brings its own scene; give no scene file with it");
    if (!o.screenshot.empty() && o.screenshot.size() < 5)
        throw UsageError("--screenshot: expected a file name ending in .png");
    return o;
}

}  // namespace carom::sandbox
