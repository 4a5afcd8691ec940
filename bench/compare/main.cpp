// carom-compare: Carom, Box2D 2.4.1 and Chipmunk 7 on the same scene files,
// in the same process, so every performance claim is a median and a ratio
// from one run (docs/benchmarks.md).
//
//   carom-compare SCENE... [--steps N] [--steps NAME=N] [--engines carom,box2d,chipmunk]
//                 [--repeat R] [--json]
//
// For each scene: parse it once (carom::scene::loadFile), then R rounds; in
// each round every engine builds its world from the parsed scene (untimed)
// and steps it N times, each step timed alone, by steady_clock and by the
// thread's CPU clock. Engines take turns inside a round, so slow drift of
// the machine's load hits them alike. The report gives, per engine, the
// median, mean and 95th percentile of all R x N step times, the ratio engine
// median / Carom median (> 1: Carom is faster), the spread of the per-round
// medians, and the mean height and speed of the dynamic bodies after the
// last round as a sanity check.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "adapter.hpp"
#include "report.hpp"
#include "stats.hpp"

namespace {

using namespace carom::compare;
namespace scene = carom::scene;

struct Options {
    std::vector<std::string> scenes;
    std::vector<std::string> engines{"carom", "box2d", "chipmunk"};
    long long steps = 0;                      // 0: the scene's duration
    std::map<std::string, long long> capFor;  // scene name -> step cap
    int repeat = 1;
    bool json = false;
};

[[noreturn]] void usage(int code) {
    std::fprintf(
        code == 0 ? stdout : stderr,
        "usage: carom-compare SCENE... [--steps N] [--steps NAME=N]\n"
        "                     [--engines carom,box2d,chipmunk] [--repeat R] [--json]\n"
        "  --steps N       at most N steps per run (default: the scene's duration / timestep)\n"
        "  --steps NAME=N  at most N steps for the scene named NAME (overrides --steps N)\n"
        "  --engines       comma-separated subset of carom, box2d, chipmunk (default: all)\n"
        "  --repeat R      rounds per scene; engines alternate within a round (default 1)\n"
        "  --json          print the results as JSON on stdout (the table goes to stderr)\n");
    std::exit(code);
}

long long parseCount(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || v < 1) {
        std::fprintf(stderr, "carom-compare: %s expects a positive integer, got '%s'\n",
                     flag.c_str(), text.c_str());
        std::exit(2);
    }
    return v;
}

Options parseArgs(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "carom-compare: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            usage(0);
        } else if (a == "--steps") {
            std::string v = value();
            auto eq = v.find('=');
            if (eq == std::string::npos)
                o.steps = parseCount(a, v);
            else
                o.capFor[v.substr(0, eq)] = parseCount(a, v.substr(eq + 1));
        } else if (a == "--repeat") {
            o.repeat = static_cast<int>(std::min(parseCount(a, value()), 1000LL));
        } else if (a == "--json") {
            o.json = true;
        } else if (a == "--engines") {
            o.engines.clear();
            std::stringstream ss(value());
            for (std::string e; std::getline(ss, e, ',');) {
                if (e != "carom" && e != "box2d" && e != "chipmunk") {
                    std::fprintf(stderr, "carom-compare: unknown engine '%s'\n", e.c_str());
                    std::exit(2);
                }
                if (std::find(o.engines.begin(), o.engines.end(), e) == o.engines.end())
                    o.engines.push_back(e);
            }
            if (o.engines.empty()) usage(2);
        } else if (a.rfind("--", 0) == 0) {
            std::fprintf(stderr, "carom-compare: unknown option %s\n", a.c_str());
            usage(2);
        } else {
            o.scenes.push_back(a);
        }
    }
    if (o.scenes.empty()) usage(2);
    return o;
}

std::unique_ptr<Adapter> build(const std::string& engine, const scene::SceneDesc& desc) {
    if (engine == "carom") return makeCaromAdapter(desc);
    if (engine == "box2d") return makeBox2dAdapter(desc);
    return makeChipmunkAdapter(desc);
}

// The calling thread's CPU time, ms.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1.0e3 + static_cast<double>(ts.tv_nsec) * 1.0e-6;
}

// One round of one engine: build (not in the statistics), then N timed steps.
void runOnce(EngineResult& r, const scene::SceneDesc& desc, long long steps) {
    using clock = std::chrono::steady_clock;
    auto t0 = clock::now();
    std::unique_ptr<Adapter> adapter = build(r.engine, desc);
    r.buildMs = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    r.start = adapter->sanity();
    std::vector<double> round;
    round.reserve(static_cast<std::size_t>(steps));
    for (long long i = 0; i < steps; ++i) {
        double c0 = threadCpuMs();
        auto a = clock::now();
        adapter->step();
        auto b = clock::now();
        double c1 = threadCpuMs();
        round.push_back(std::chrono::duration<double, std::milli>(b - a).count());
        r.cpuMs.push_back(c1 - c0);
    }
    r.wallMs.insert(r.wallMs.end(), round.begin(), round.end());
    r.roundMedians.push_back(summarize(round).median);
    r.bodies = adapter->bodyCount();
    r.sanity = adapter->sanity();
    r.notes = adapter->notes();
    r.settings = adapter->settings();
}

long long stepsFor(const Options& o, const scene::SceneDesc& desc, long long sceneSteps) {
    long long cap = o.steps;
    auto it = o.capFor.find(desc.name);
    if (it != o.capFor.end()) cap = it->second;
    return cap > 0 ? std::min(cap, sceneSteps) : sceneSteps;
}

SceneResult runScene(const std::string& file, const Options& o) {
    scene::SceneDesc desc = scene::loadFile(file);
    SceneResult s;
    s.name = desc.name;
    s.file = file;
    s.sceneSteps = std::llround(desc.duration / desc.world.timestep);
    s.steps = stepsFor(o, desc, s.sceneSteps);
    for (const std::string& e : o.engines) {
        s.engines.emplace_back();
        s.engines.back().engine = e;
    }
    for (int round = 0; round < o.repeat; ++round) {
        for (EngineResult& r : s.engines) {
            std::fprintf(stderr, "  %s: %s, round %d/%d, %lld steps\n", s.name.c_str(),
                         r.engine.c_str(), round + 1, o.repeat, s.steps);
            runOnce(r, desc, s.steps);
        }
    }
    for (EngineResult& r : s.engines) {
        r.wall = summarize(r.wallMs);
        r.cpu = summarize(r.cpuMs);
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parseArgs(argc, argv);
    std::FILE* table = o.json ? stderr : stdout;
#ifndef NDEBUG
    std::fprintf(stderr,
                 "carom-compare: warning: built with assertions (not Release); timings are not "
                 "representative\n");
#endif
    // Versions first: this also creates Chipmunk's first space, whose debug banner is captured.
    std::string versions = "box2d " + box2dVersion() + ", chipmunk " + chipmunkVersion();
    std::fprintf(table, "carom-compare: %s; %s; %d round(s)\n\n", machineDescription().c_str(),
                 versions.c_str(), o.repeat);
    std::fflush(table);
    std::vector<SceneResult> results;
    try {
        for (const std::string& file : o.scenes) results.push_back(runScene(file, o));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "carom-compare: %s\n", e.what());
        return 1;
    }
    printTable(table, results, o.repeat);
    if (o.json) std::cout << toJson(results, o.repeat) << "\n";
    return 0;
}
