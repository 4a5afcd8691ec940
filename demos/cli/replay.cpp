// carom replay FILE: replay a recording and report the first step whose
// state differs, and the first body that differs.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include <carom/error.hpp>
#include <carom/recording.hpp>
#include <carom/scene_recording.hpp>

#include "options.hpp"
#include "verbs.hpp"

namespace carom::cli {

namespace {

const char* kHelp =
    "usage: carom replay FILE [options]\n"
    "\n"
    "Replays a recording made by `carom run SCENE --record FILE` (or the\n"
    "sandbox) from its initial scene with its inputs, and checks the state hash\n"
    "after every step. Prints one line when every step matches (exit status 0);\n"
    "otherwise the first step that differs, and, at the first keyframe from\n"
    "there, the first body that differs and how (exit status 1). A damaged or\n"
    "truncated file is refused (exit status 2).\n"
    "\n"
    "  --threads K             worker threads (the bits must not change)\n"
    "  --broadphase tree|sap   overrides the scene's broadphase (nor with this)\n"
    "  --help                  this text\n";

std::string hex(std::uint64_t h) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

}  // namespace

int replayVerb(const std::vector<std::string>& args) {
    try {
        RunFlags flags = parseRunFlags(args, /*allowOut=*/false, /*allowJson=*/false);
        if (flags.help) {
            std::cout << kHelp;
            return kExitOk;
        }
        if (flags.steps || flags.seconds || flags.trace)
            throw UsageError("replay takes only --threads and --broadphase");
        std::ifstream in(flags.scene, std::ios::binary);
        if (!in) throw std::runtime_error("cannot read " + flags.scene);
        const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                              std::istreambuf_iterator<char>());
        Recording recording;
        try {
            recording = Recording::fromBytes(bytes);
        } catch (const carom::Error& e) {
            throw UsageError(flags.scene + ": " + e.what());
        }
        const scene::ReplayReport r = scene::replayRecording(recording, flags.scene, flags.run);
        if (r.firstDifferentStep == 0) {
            std::cout << flags.scene << ": " << r.steps
                      << " steps replayed, every state hash matches"
                      << (recording.frames.empty()
                              ? ""
                              : " (last " + hex(recording.frames.back().hash) + ")")
                      << "\n";
            return kExitOk;
        }
        std::cout << flags.scene << ": step " << r.firstDifferentStep << " of " << r.steps
                  << " differs: recorded hash " << hex(r.recordedHash) << ", replayed "
                  << hex(r.replayedHash) << "\n";
        if (r.comparedAtStep == 0) {
            std::cout << "  (no keyframe from that step on to compare the bodies at)\n";
        } else if (!r.body.found) {
            std::cout << "  at step " << r.comparedAtStep
                      << " (keyframe) every body matches; what differs is not a body's pose, "
                         "velocity or sleep\n";
        } else {
            std::cout << "  at step " << r.comparedAtStep
                      << " (keyframe) the first body that differs is #" << r.body.index;
            if (!r.bodyName.empty()) std::cout << " \"" << r.bodyName << "\"";
            std::cout << ": " << r.body.what << "\n";
        }
        return kExitFailure;
    } catch (...) {
        return reportError("replay");
    }
}

}  // namespace carom::cli
