// carom query FILE: geometric questions answered by the narrowphase.
#include <iostream>

#include <carom/scene_query.hpp>

#include "options.hpp"
#include "verbs.hpp"

namespace carom::cli {

namespace {

const char* kHelp =
    "usage: carom query FILE\n"
    "\n"
    "FILE is {\"queries\": [...]}; shapes are shape objects as in scene files\n"
    "(material keys ignored, no chains) and transforms are {\"position\": [x, y],\n"
    "\"angle\": a} (identity when left out). Prints one JSON array, one result\n"
    "per query, in order:\n"
    "\n"
    "  distance  a, at_a, b, at_b  ->  distance, overlap, depth, normal, point_a, point_b, "
    "iterations\n"
    "  contact   a, at_a, b, at_b  ->  normal, points [{point, separation, id}]\n"
    "  raycast   shape, at, origin, translation  ->  hit, fraction, point, normal\n"
    "  toi       a, from_a, to_a, b, from_b, to_b  ->  state, t, iterations\n";

}  // namespace

int queryVerb(const std::vector<std::string>& args) {
    try {
        std::string file = parseSingleFile(args, "query file");
        if (file.empty()) {
            std::cout << kHelp;
            return kExitOk;
        }
        std::cout << scene::answerQueryFile(file);
        return kExitOk;
    } catch (...) {
        return reportError("query");
    }
}

}  // namespace carom::cli
