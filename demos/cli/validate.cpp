// carom validate SCENE: load and check a scene file, print a summary.
#include <cstdint>
#include <iostream>
#include <string>

#include "options.hpp"
#include "verbs.hpp"

namespace carom::cli {

namespace {

const std::string kHelp =
    "usage: carom validate SCENE\n"
    "\n"
    "Loads and checks the scene file against docs/scene-format.md, builds its\n"
    "world without stepping it, and prints a one-line summary:\n"
    "  FILE: ok: scene \"NAME\", B bodies, S shapes, J joints, E events, D s\n"
    "(\"E events (spawning N bodies)\" when events spawn bodies), or every error of\n"
    "the file, one per line in file order, as FILE:LINE:COL: error: PATH: message\n"
    "(at most " +
    std::to_string(scene::kMaxReportedErrors) + ", then how many more; exit status 2).\n";

}  // namespace

int validateVerb(const std::vector<std::string>& args) {
    try {
        std::string file = parseSingleFile(args, "scene file");
        if (file.empty()) {
            std::cout << kHelp;
            return kExitOk;
        }
        scene::SceneDesc d = scene::loadFile(file);
        // Build the world too (without stepping): a file that validates also runs.
        scene::SceneRunner runner(d);
        std::size_t shapes = 0;
        for (const scene::BodyDesc& b : d.bodies) shapes += b.shapes.size();
        // The bodies of the file (generators expanded); the events' spawns apart, when there are
        // any.
        const std::int64_t spawned = d.totalBodies - static_cast<std::int64_t>(d.bodies.size());
        std::cout << file << ": ok: scene \"" << d.name << "\", " << d.bodies.size() << " bodies, "
                  << shapes << " shapes, " << d.joints.size() << " joints, " << d.events.size()
                  << " events";
        if (spawned > 0) std::cout << " (spawning " << spawned << " bodies)";
        std::cout << ", " << d.duration << " s\n";
        return kExitOk;
    } catch (...) {
        return reportError("validate");
    }
}

}  // namespace carom::cli
