// carom: run, benchmark, validate and query Carom scenes without a window
// (docs/cli.md).
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#endif

#include "options.hpp"
#include "verbs.hpp"

namespace {

const char* kUsage =
    "usage: carom VERB [ARGS]\n"
    "\n"
    "  carom run SCENE [options]       simulate a scene headless and print its final state\n"
    "  carom bench SCENE [options]     time the steps of a scene\n"
    "  carom validate SCENE            check a scene file\n"
    "  carom query FILE                answer geometric questions from the narrowphase\n"
    "  carom stability SCENE...|DIR    report the figures of stability scenes\n"
    "  carom replay FILE               replay a recording and check it step by step\n"
    "\n"
    "carom VERB --help describes each verb. Exit status: 0 success, 2 bad input\n"
    "(a file that breaks its spec, a bad flag), 3 the scene reached the contact\n"
    "budget (run and bench), 1 any other failure (output that cannot be written\n"
    "included).\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace carom::cli;
#if defined(_WIN32)
    // The same bytes on every platform: lines end in "\n", not "\r\n" (the
    // C runtime's text mode), so outputs compare and diff across platforms.
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
#endif
    if (argc < 2) {
        std::cerr << kUsage;
        return kExitBadInput;
    }
    std::string verb = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    // Every verb's output is checked once it is done (finishOutput).
    if (verb == "--help" || verb == "-h" || verb == "help") {
        std::cout << kUsage;
        return finishOutput("--help", kExitOk);
    }
    if (verb == "run") return finishOutput("run", runVerb(args));
    if (verb == "bench") return finishOutput("bench", benchVerb(args));
    if (verb == "validate") return finishOutput("validate", validateVerb(args));
    if (verb == "query") return finishOutput("query", queryVerb(args));
    if (verb == "stability") return finishOutput("stability", stabilityVerb(args));
    if (verb == "replay") return finishOutput("replay", replayVerb(args));
    std::cerr << "carom: error: unknown verb \"" << verb << "\"\n\n" << kUsage;
    return kExitBadInput;
}
