// Time of tile-seam linking (WorldDef::joinTileSeams): N static segments
// created one by one, with seams joined and without; the difference is the
// linking. Layouts (those of scripts/seam_pile.py): identical (N copies of
// one segment from (-5000, 0) to (5000, 0)), shared (N segments from one
// common end point), row (a row of N tiles meeting end to end). Prints the
// median of 3 runs of each.
//
// `crossings` prints instead what a box, a wheel and a capsule feel crossing
// each floor of seam_crossing.hpp with the seams joined and not (the table of
// docs/narrowphase.md, "Tile seams"; the tile-seam tests assert on the same
// crossings).
//
//   carom_bench_seams [LAYOUT...] [N...]   default: all three, 1000 10000 100000
//   carom_bench_seams crossings
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <carom/carom.hpp>

#include "seam_crossing.hpp"

namespace {

std::vector<carom::Segment> layout(const std::string& name, int n) {
    std::vector<carom::Segment> out;
    out.reserve(size_t(n));
    for (int i = 0; i < n; ++i) {
        if (name == "identical") {
            out.push_back({{-5000.0f, 0.0f}, {5000.0f, 0.0f}});
        } else if (name == "shared") {
            const float a = 6.2831853f * float(i) / float(n);
            out.push_back({{0.0f, 0.0f}, {10.0f * std::cos(a), 10.0f * std::sin(a)}});
        } else {
            out.push_back({{0.5f * float(i), 0.0f}, {0.5f * float(i + 1), 0.0f}});
        }
    }
    return out;
}

// Milliseconds to create the segments on static bodies of 4000 shapes each.
double buildMs(const std::vector<carom::Segment>& segments, bool join) {
    carom::WorldDef def;
    def.joinTileSeams = join;
    carom::World w(def);
    const auto t0 = std::chrono::steady_clock::now();
    carom::BodyId body{};
    for (size_t i = 0; i < segments.size(); ++i) {
        if (i % 4000 == 0) body = w.createBody(carom::BodyDef{});
        w.createShape(body, carom::ShapeDef{}, segments[i]);
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double median3(const std::vector<carom::Segment>& segments, bool join) {
    double t[3];
    for (double& x : t) x = buildMs(segments, join);
    std::sort(t, t + 3);
    return t[1];
}

int printCrossings() {
    using namespace carom::seams;
    std::printf("%-8s %-4s %-22s %11s %11s %11s %11s %11s %11s %11s %11s\n", "mover", "mu", "floor",
                "kick joined", "kick off", "snag joined", "snag off", "stall joined", "stall off",
                "rise joined", "lift joined");
    for (Mover m : kMovers) {
        for (float mu : {0.0f, 0.1f}) {
            const float friction = m == Mover::Wheel && mu == 0.0f ? 0.6f : mu;
            for (Floor f : kAllFloors) {
                const Crossing a = cross(f, m, friction, true);
                const Crossing b = cross(f, m, friction, false);
                std::printf(
                    "%-8s %-4.1f %-22s %11.2e %11.2e %11.2e %11.2e %11.2e %11.2e %11.2e %11.2e\n",
                    name(m), double(friction), name(f), double(a.kick), double(b.kick),
                    double(a.snag), double(b.snag), double(a.stall), double(b.stall),
                    double(a.rise), double(a.lift));
            }
        }
    }
    // The character (an upright capsule moved by the mover calls).
    for (Floor f : kAllFloors) {
        const Crossing a = walk(f, true);
        const Crossing b = walk(f, false);
        std::printf("%-8s %-4s %-22s %11.2e %11.2e %11.2e %11.2e %11.2e %11.2e %11.2e %11.2e\n",
                    "walker", "-", name(f), double(a.kick), double(b.kick), double(a.snag),
                    double(b.snag), double(a.stall), double(b.stall), double(a.rise),
                    double(a.lift));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "crossings") return printCrossings();
    std::vector<int> sizes;
    std::vector<std::string> layouts;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "identical" || a == "shared" || a == "row")
            layouts.push_back(a);
        else if (std::atoi(argv[i]) > 0)
            sizes.push_back(std::atoi(argv[i]));
        else
            return std::fprintf(stderr, "usage: %s [identical|shared|row...] [N...]\n", argv[0]), 2;
    }
    if (sizes.empty()) sizes = {1000, 10000, 100000};
    if (layouts.empty()) layouts = {"identical", "shared", "row"};
    std::printf("%-10s %8s %12s %12s %12s\n", "layout", "segments", "joined ms", "unjoined ms",
                "linking ms");
    for (const std::string& name : layouts) {
        for (int n : sizes) {
            const std::vector<carom::Segment> segments = layout(name, n);
            const double on = median3(segments, true), off = median3(segments, false);
            std::printf("%-10s %8d %12.1f %12.1f %12.1f\n", name.c_str(), n, on, off, on - off);
            std::fflush(stdout);
        }
    }
    return 0;
}
