// carom stability [SCENE...|DIR]: run stability scenes and report the figure
// each declares in its `stability` key (docs/stability.md).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <carom/json_writer.hpp>

#include "options.hpp"
#include "progress.hpp"
#include "stability_metrics.hpp"
#include "verbs.hpp"

namespace carom::cli {

namespace {

const char* kHelp =
    "usage: carom stability SCENE...|DIR [options]\n"
    "\n"
    "Runs each scene (a folder: its .json files that have a \"stability\" key) and\n"
    "reports the figure the scene declares (docs/stability.md): drift, sag, rise,\n"
    "peak_speed, joint_error or stretch over its window, whether it stands, how\n"
    "far it slid sideways, the peak speed and joint error of the whole run, and\n"
    "whether a step threw or a value went non-finite. A failed scene is a result,\n"
    "not an error: the exit status is 0 unless a file or flag is bad.\n"
    "\n"
    "  --threads K     worker threads (overrides world.threads; figures do not change)\n"
    "  --seconds T     run T seconds instead of each scene's duration (T > settle)\n"
    "  --json          one JSON array, an object per scene\n"
    "  --help          this text\n";

struct Flags {
    std::vector<std::string> scenes;
    scene::RunOptions run;
    std::optional<double> seconds;
    bool json = false;
    bool help = false;
};

Flags parseFlags(const std::vector<std::string>& args) {
    Flags f;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::optional<std::string> inlineValue;
        if (arg.size() > 2 && arg[0] == '-' && arg.find('=') != std::string::npos) {
            inlineValue = arg.substr(arg.find('=') + 1);
            arg = arg.substr(0, arg.find('='));
        }
        auto value = [&]() {
            if (inlineValue) return *inlineValue;
            if (i + 1 >= args.size()) throw UsageError(arg + " needs a value");
            return args[++i];
        };
        if (arg == "--help" || arg == "-h") {
            f.help = true;
            return f;
        } else if (arg == "--json" && !inlineValue) {
            f.json = true;
        } else if (arg == "--threads") {
            std::string v = value();
            int n = 0;
            auto res = std::from_chars(v.data(), v.data() + v.size(), n);
            if (res.ec != std::errc() || res.ptr != v.data() + v.size() || n < 1 ||
                n > scene::kMaxThreads) {
                throw UsageError("--threads: expected an integer between 1 and " +
                                 std::to_string(scene::kMaxThreads) + ", got \"" + v + "\"");
            }
            f.run.threads = n;
        } else if (arg == "--seconds") {
            std::string v = value();
            double t = 0.0;
            if (!parseNumber(v, t) || !std::isfinite(t) || t <= 0.0) {
                throw UsageError("--seconds: expected a number of seconds > 0, got \"" + v + "\"");
            }
            f.seconds = t;
        } else if (arg.size() >= 2 && arg[0] == '-') {
            throw UsageError("unknown option " + arg);
        } else {
            f.scenes.push_back(arg);
        }
    }
    if (f.scenes.empty()) throw UsageError("missing the scene files or folder");
    return f;
}

// The scene files named on the command line, folders expanded to their
// .json files that have a `stability` key, in name order.
std::vector<scene::SceneDesc> collect(const std::vector<std::string>& names) {
    namespace fs = std::filesystem;
    std::vector<scene::SceneDesc> out;
    for (const std::string& name : names) {
        std::error_code ec;
        if (fs::is_directory(name, ec)) {
            std::vector<std::string> files;
            for (const auto& e : fs::directory_iterator(name)) {
                if (e.path().extension() == ".json") files.push_back(e.path().string());
            }
            std::sort(files.begin(), files.end());
            for (const std::string& file : files) {
                scene::SceneDesc d = scene::loadFile(file);
                if (d.stability) out.push_back(std::move(d));
            }
            if (files.empty()) throw UsageError("no .json file in " + name);
        } else {
            scene::SceneDesc d = scene::loadFile(name);
            if (!d.stability)
                throw UsageError(name + " has no \"stability\" key (docs/stability.md)");
            out.push_back(std::move(d));
        }
    }
    return out;
}

const char* figureName(scene::StabilityFigure f) {
    switch (f) {
        case scene::StabilityFigure::Drift:
            return "drift";
        case scene::StabilityFigure::Sag:
            return "sag";
        case scene::StabilityFigure::Rise:
            return "rise";
        case scene::StabilityFigure::PeakSpeed:
            return "peak_speed";
        case scene::StabilityFigure::JointError:
            return "joint_error";
        case scene::StabilityFigure::Stretch:
            return "stretch";
    }
    return "?";
}

struct Outcome {
    StabilityResult r;
    std::int64_t steps = 0;
    std::optional<std::string> error;  ///< what a step threw
    std::int64_t errorStep = -1;
};

Outcome measure(const scene::SceneDesc& desc, const Flags& flags) {
    const scene::StabilitySpec& spec = *desc.stability;
    scene::SceneRunner runner(desc, flags.run);
    Outcome o;
    o.steps = runner.stepsFor(flags.seconds ? *flags.seconds : desc.duration);
    std::int64_t settle = runner.stepsFor(spec.settle);
    if (settle > o.steps) {
        throw UsageError(desc.file + ": the run (" + std::to_string(o.steps) +
                         " steps) ends before the settle time (" + std::to_string(settle) +
                         " steps)");
    }
    StabilityMeter meter(spec, meterBodies(runner), meterJoints(runner), settle);
    meter.sample(0, meterPoses(runner));
    Progress progress(o.steps);
    for (std::int64_t k = 1; k <= o.steps; ++k) {
        try {
            runner.step();
        } catch (const std::exception& e) {
            // A step that throws is what the suite is there to catch: report it.
            o.error = e.what();
            o.errorStep = k;
            break;
        }
        if (meter.wants(k) && !meter.sample(k, meterPoses(runner))) break;
        progress.update(k);
    }
    progress.finish();
    o.r = meter.result();
    return o;
}

std::string num(std::optional<double> v, const char* fmt = "%.4g") {
    if (!v) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, fmt, *v);
    return buf;
}

std::string note(const Outcome& o) {
    if (o.error) return "threw at step " + std::to_string(o.errorStep) + ": " + *o.error;
    if (!o.r.finite) return "non-finite at step " + std::to_string(o.r.nonfiniteStep);
    return "";
}

}  // namespace

int stabilityVerb(const std::vector<std::string>& args) {
    try {
        Flags flags = parseFlags(args);
        if (flags.help) {
            std::cout << kHelp;
            return kExitOk;
        }
        std::vector<scene::SceneDesc> scenes = collect(flags.scenes);
        scene::JsonWriter j;
        j.beginArray();
        if (!flags.json) {
            std::printf("%-30s %-11s %10s %8s %6s %8s %8s %10s %10s  %s\n", "scene", "figure",
                        "value", "goal", "stands", "disp m", "slide m", "peak m/s", "joint m",
                        "note");
        }
        for (const scene::SceneDesc& desc : scenes) {
            const scene::StabilitySpec& spec = *desc.stability;
            Outcome o = measure(desc, flags);
            std::optional<double> goal =
                spec.goal ? std::optional<double>(*spec.goal) : std::nullopt;
            bool failed = o.error || !o.r.finite;
            std::optional<bool> meets;
            if (goal) meets = !failed && o.r.value && *o.r.value <= *goal;
            if (flags.json) {
                j.newline().beginObject();
                j.key("scene").value(desc.name).key("file").value(desc.file);
                j.key("figure").value(figureName(spec.figure));
                j.key("value");
                if (o.r.value)
                    j.value(*o.r.value);
                else
                    j.null();
                j.key("goal");
                if (goal)
                    j.value(*goal);
                else
                    j.null();
                j.key("meets_goal");
                if (meets)
                    j.value(*meets);
                else
                    j.null();
                j.key("stands");
                if (o.r.stands)
                    j.value(*o.r.stands);
                else
                    j.null();
                j.key("displacement").value(o.r.displacement);
                j.key("slide").value(o.r.slide);
                j.key("peak_speed").value(o.r.peakSpeed);
                j.key("joint_error");
                if (o.r.jointError)
                    j.value(*o.r.jointError);
                else
                    j.null();
                j.key("steps").value(o.steps).key("window_start").value(o.r.windowStart);
                j.key("last_sample").value(o.r.lastStep).key("samples").value(o.r.samples);
                j.key("finite").value(o.r.finite);
                j.key("nonfinite_step");
                if (o.r.nonfiniteStep >= 0)
                    j.value(o.r.nonfiniteStep);
                else
                    j.null();
                j.key("error");
                if (o.error)
                    j.value(*o.error);
                else
                    j.null();
                j.key("error_step");
                if (o.error)
                    j.value(o.errorStep);
                else
                    j.null();
                j.endObject();
            } else {
                std::string stands = o.r.stands ? (*o.r.stands ? "yes" : "NO") : "-";
                std::printf("%-30s %-11s %10s %8s %6s %8s %8s %10s %10s  %s\n", desc.name.c_str(),
                            figureName(spec.figure), num(o.r.value).c_str(), num(goal).c_str(),
                            stands.c_str(), num(o.r.displacement, "%.3g").c_str(),
                            num(o.r.slide, "%.3g").c_str(), num(o.r.peakSpeed, "%.4g").c_str(),
                            num(o.r.jointError, "%.3g").c_str(), note(o).c_str());
                std::fflush(stdout);
            }
        }
        j.endArray();
        if (flags.json) std::cout << j.str() << "\n";
        return kExitOk;
    } catch (...) {
        return reportError("stability");
    }
}

}  // namespace carom::cli
