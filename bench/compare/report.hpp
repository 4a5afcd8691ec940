// Results of a carom-compare run and their two renderings: the text table
// (docs/benchmarks.md reproduces it) and JSON (--json).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "adapter.hpp"
#include "stats.hpp"

namespace carom::compare {

struct EngineResult {
    std::string engine;
    std::string settings;
    int bodies = 0;
    std::vector<double> wallMs;        ///< steady_clock time of every step of every round
    std::vector<double> cpuMs;         ///< the thread's CPU time of the same steps
    std::vector<double> roundMedians;  ///< wall median of each round
    double buildMs = 0.0;              ///< building the world, last round (not in the statistics)
    Sanity start;                      ///< right after building the world
    Sanity sanity;                     ///< after the last round
    std::map<std::string, std::int64_t> notes;
    Summary wall;
    Summary cpu;
};

struct SceneResult {
    std::string name;
    std::string file;
    long long steps = 0;       ///< steps per round
    long long sceneSteps = 0;  ///< the scene's duration / timestep
    std::vector<EngineResult> engines;
};

/// The machine line: CPU model and hardware threads.
std::string machineDescription();

void printTable(std::FILE* out, const std::vector<SceneResult>& results, int repeat);
std::string toJson(const std::vector<SceneResult>& results, int repeat);

}  // namespace carom::compare
