// The text table and the JSON document of a carom-compare run.
//
// Ratios are always engine median / Carom median of the same scene from the
// same run, so > 1 means Carom is faster. Two clocks are reported: the
// steady_clock time of each step (what a game sees, the headline) and the
// thread's CPU time (what the step cost when the machine is shared: time the
// thread spent descheduled is not in it).
#include "report.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

namespace carom::compare {

namespace {

const EngineResult* caromOf(const SceneResult& s) {
    for (const EngineResult& r : s.engines) {
        if (r.engine == "carom") return &r;
    }
    return nullptr;
}

// Spread of the per-round wall medians relative to the pooled median, in percent.
double spreadPercent(const EngineResult& r) {
    if (r.roundMedians.size() < 2 || r.wall.median <= 0.0) return 0.0;
    auto [lo, hi] = std::minmax_element(r.roundMedians.begin(), r.roundMedians.end());
    return 100.0 * (*hi - *lo) / r.wall.median;
}

// "1.23", or "-" without a Carom figure to divide by.
std::string ratioText(double value, double carom) {
    if (carom <= 0.0) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", value / carom);
    return buf;
}

}  // namespace

std::string machineDescription() {
    std::string cpu = "unknown CPU";
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) cpu = line.substr(std::min(line.size(), colon + 2));
            break;
        }
    }
    return cpu + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
}

void printTable(std::FILE* out, const std::vector<SceneResult>& results, int repeat) {
    std::fprintf(out, "%-14s %-9s %6s %5s %10s %10s %10s %7s %10s %7s %7s %8s %8s %8s\n", "scene",
                 "engine", "bodies", "steps", "median ms", "mean ms", "p95 ms", "ratio",
                 "cpu med ms", "cpu rat", "spread%", "start y", "mean y", "mean |v|");
    for (const SceneResult& s : results) {
        const EngineResult* carom = caromOf(s);
        for (const EngineResult& r : s.engines) {
            std::string ratio = ratioText(r.wall.median, carom ? carom->wall.median : 0.0);
            std::string cpuRatio = ratioText(r.cpu.median, carom ? carom->cpu.median : 0.0);
            std::fprintf(out,
                         "%-14s %-9s %6d %5lld %10.3f %10.3f %10.3f %7s %10.3f %7s %7.1f %8.2f "
                         "%8.2f %8.2f\n",
                         s.name.c_str(), r.engine.c_str(), r.bodies, s.steps, r.wall.median,
                         r.wall.mean, r.wall.p95, ratio.c_str(), r.cpu.median, cpuRatio.c_str(),
                         spreadPercent(r), r.start.meanY, r.sanity.meanY, r.sanity.meanSpeed);
        }
    }
    std::fprintf(out,
                 "\nratio = engine median / carom median (> 1: Carom is faster), wall clock "
                 "(steady_clock);\n"
                 "cpu = the same from the thread's CPU time; spread%% = range of the %d per-round "
                 "medians / median;\n"
                 "start y = mean height of the dynamic bodies as built; mean y, mean |v| = after "
                 "the last round.\n",
                 repeat);
    // Settings follow each scene's world (sleep, substeps): one line per
    // engine and distinct settings, with the scenes that used them.
    std::fprintf(out, "\nsettings:\n");
    std::vector<std::string> order;
    std::map<std::string, std::map<std::string, std::string>>
        scenesBy;  // engine -> settings -> scenes
    for (const SceneResult& s : results) {
        for (const EngineResult& r : s.engines) {
            if (std::find(order.begin(), order.end(), r.engine) == order.end())
                order.push_back(r.engine);
            std::string& names = scenesBy[r.engine][r.settings];
            names += (names.empty() ? "" : ", ") + s.name;
        }
    }
    for (const std::string& engine : order) {
        for (const auto& [settings, names] : scenesBy[engine]) {
            std::fprintf(out, "  %-9s %s [%s]\n", engine.c_str(), settings.c_str(), names.c_str());
        }
    }
    std::fprintf(out, "approximations:\n");
    for (const SceneResult& s : results) {
        for (const EngineResult& r : s.engines) {
            for (const auto& [what, count] : r.notes) {
                std::fprintf(out, "  %-14s %-9s %s (x%lld)\n", s.name.c_str(), r.engine.c_str(),
                             what.c_str(), static_cast<long long>(count));
            }
        }
    }
    std::fflush(out);
}

std::string toJson(const std::vector<SceneResult>& results, int repeat) {
    auto summary = [](const Summary& s) {
        return nlohmann::json{{"median_ms", s.median}, {"mean_ms", s.mean}, {"p95_ms", s.p95},
                              {"min_ms", s.min},       {"max_ms", s.max},   {"count", s.count}};
    };
    nlohmann::json doc;
    doc["machine"] = machineDescription();
    doc["versions"] = {
        {"box2d", box2dVersion()}, {"chipmunk", chipmunkVersion()}, {"compiler", __VERSION__}};
    doc["repeat"] = repeat;
    doc["scenes"] = nlohmann::json::array();
    for (const SceneResult& s : results) {
        const EngineResult* carom = caromOf(s);
        nlohmann::json js = {
            {"name", s.name}, {"file", s.file}, {"steps", s.steps}, {"scene_steps", s.sceneSteps}};
        js["engines"] = nlohmann::json::array();
        for (const EngineResult& r : s.engines) {
            nlohmann::json je = {
                {"engine", r.engine},
                {"settings", r.settings},
                {"bodies", r.bodies},
                {"wall", summary(r.wall)},
                {"cpu", summary(r.cpu)},
                {"round_medians_ms", r.roundMedians},
                {"build_ms", r.buildMs},
                {"start", {{"mean_y", r.start.meanY}, {"mean_speed", r.start.meanSpeed}}},
                {"sanity",
                 {{"dynamic_bodies", r.sanity.dynamicBodies},
                  {"mean_y", r.sanity.meanY},
                  {"mean_speed", r.sanity.meanSpeed},
                  {"mean_angular_velocity", r.sanity.meanAngularVelocity}}},
                {"notes", r.notes},
            };
            if (carom != nullptr && carom->wall.median > 0.0) {
                je["ratio_to_carom"] = r.wall.median / carom->wall.median;
            }
            if (carom != nullptr && carom->cpu.median > 0.0) {
                je["cpu_ratio_to_carom"] = r.cpu.median / carom->cpu.median;
            }
            js["engines"].push_back(je);
        }
        doc["scenes"].push_back(js);
    }
    return doc.dump(2);
}

}  // namespace carom::compare
