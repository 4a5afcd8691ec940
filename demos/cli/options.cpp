#include "options.hpp"

#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <carom/json_writer.hpp>

namespace carom::cli {

bool parseNumber(const std::string& text, double& v) {
#if defined(__cpp_lib_to_chars)
    auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    return res.ec == std::errc() && res.ptr == text.data() + text.size();
#else
    // from_chars's syntax: no leading blank or '+', no hexadecimal.
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || text[0] == '+')
        return false;
    if (text.find_first_of("xX") != std::string::npos) return false;
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
#endif
}

namespace {

// Splits "--name=value" and "--name value" forms.
struct ArgCursor {
    const std::vector<std::string>& args;
    std::size_t index = 0;

    bool done() const { return index >= args.size(); }
    std::string value(const std::string& flag, std::optional<std::string>& inlineValue) {
        if (inlineValue) {
            std::string v = *inlineValue;
            inlineValue.reset();
            return v;
        }
        if (index >= args.size()) throw UsageError(flag + " needs a value");
        return args[index++];
    }
};

std::int64_t parseCount(const std::string& flag, const std::string& text, std::int64_t lo,
                        std::int64_t hi) {
    std::int64_t v = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (res.ec != std::errc() || res.ptr != text.data() + text.size()) {
        throw UsageError(flag + ": expected an integer, got \"" + text + "\"");
    }
    if (v < lo || v > hi) {
        throw UsageError(flag + ": must be between " + std::to_string(lo) + " and " +
                         std::to_string(hi) + ", got " + text);
    }
    return v;
}

double parseSeconds(const std::string& flag, const std::string& text) {
    double v = 0.0;
    if (!parseNumber(text, v) || !std::isfinite(v) || v < 0.0) {
        throw UsageError(flag + ": expected a number of seconds >= 0, got \"" + text + "\"");
    }
    return v;
}

}  // namespace

RunFlags parseRunFlags(const std::vector<std::string>& args, bool allowOut, bool allowJson) {
    RunFlags f;
    ArgCursor c{args};
    bool everyGiven = false;
    bool keyframesGiven = false;
    while (!c.done()) {
        std::string arg = args[c.index++];
        if (arg == "--help" || arg == "-h") {
            f.help = true;
            return f;
        }
        if (arg.size() < 2 || arg[0] != '-' || arg == "-") {
            if (!f.scene.empty())
                throw UsageError("expected one scene file, got \"" + f.scene + "\" and \"" + arg +
                                 "\"");
            f.scene = arg;
            continue;
        }
        std::optional<std::string> inlineValue;
        if (std::size_t eq = arg.find('='); eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        if (arg == "--steps") {
            f.steps = parseCount(arg, c.value(arg, inlineValue), 0, scene::kMaxSteps);
        } else if (arg == "--seconds") {
            f.seconds = parseSeconds(arg, c.value(arg, inlineValue));
        } else if (arg == "--threads") {
            f.run.threads =
                static_cast<int>(parseCount(arg, c.value(arg, inlineValue), 1, scene::kMaxThreads));
        } else if (arg == "--broadphase") {
            std::string v = c.value(arg, inlineValue);
            if (v == "tree")
                f.run.broadphase = BroadphaseType::Tree;
            else if (v == "sap")
                f.run.broadphase = BroadphaseType::SortAndSweep;
            else
                throw UsageError("--broadphase: expected tree or sap, got \"" + v + "\"");
        } else if (arg == "--out" && allowOut) {
            f.out = c.value(arg, inlineValue);
        } else if (arg == "--record" && allowOut) {
            f.record = c.value(arg, inlineValue);
        } else if (arg == "--keyframes" && allowOut) {
            f.keyframes = parseCount(arg, c.value(arg, inlineValue), 1, 1 << 30);
            keyframesGiven = true;
        } else if (arg == "--trace") {
            f.trace = c.value(arg, inlineValue);
        } else if (arg == "--every") {
            f.every = parseCount(arg, c.value(arg, inlineValue), 1, std::int64_t(1) << 40);
            everyGiven = true;
        } else if (arg == "--json" && allowJson) {
            f.json = true;
        } else {
            throw UsageError("unknown option " + arg);
        }
        if (inlineValue) throw UsageError(arg + " takes no value");
    }
    if (f.scene.empty()) throw UsageError("missing the scene file");
    if (f.steps && f.seconds) throw UsageError("give --steps or --seconds, not both");
    if (everyGiven && !f.trace) throw UsageError("--every needs --trace FILE.csv");
    if (keyframesGiven && !f.record) throw UsageError("--keyframes needs --record FILE");
    return f;
}

std::string parseSingleFile(const std::vector<std::string>& args, const char* what) {
    std::string file;
    for (const std::string& arg : args) {
        if (arg == "--help" || arg == "-h") return std::string();
        if (arg.size() >= 2 && arg[0] == '-') throw UsageError("unknown option " + arg);
        if (!file.empty())
            throw UsageError(std::string("expected one ") + what + ", got \"" + file + "\" and \"" +
                             arg + "\"");
        file = arg;
    }
    if (file.empty()) throw UsageError(std::string("missing the ") + what);
    return file;
}

std::int64_t stepsToRun(const RunFlags& flags, const scene::SceneRunner& runner) {
    if (flags.steps) return *flags.steps;
    if (flags.seconds) {
        std::int64_t n = runner.stepsFor(*flags.seconds);
        if (n > scene::kMaxSteps) {
            throw UsageError("--seconds: " + scene::formatDouble(*flags.seconds) + " s takes " +
                             std::to_string(n) + " steps of " +
                             scene::formatDouble(runner.desc().world.timestep) + " s; at most " +
                             std::to_string(scene::kMaxSteps) + " steps are allowed");
        }
        return n;
    }
    std::int64_t n = runner.stepsFor(runner.desc().duration);
    return n < 1 ? 1 : n;
}

void checkBudget(const scene::SceneRunner& runner, std::int64_t step) {
    const World& world = runner.world();
    auto count = [](std::int64_t n, const char* one, const char* many) {
        return std::to_string(n) + (n == 1 ? one : many);
    };
    if (world.sensorBudgetExceeded()) {
        throw BudgetError(
            "step " + std::to_string(step) + ": the sensor overlap budget of " +
            std::to_string(world.def().maxSensorOverlaps) + " overlaps is full and " +
            count(world.counters().sensorsOverBudget, " sensor was", " sensors were") +
            " cut short or left out; the scene puts too many shapes inside too many sensors "
            "(bodies created at one point?)");
    }
    if (runner.characterBudgetExceeded()) {
        throw BudgetError(
            "step " + std::to_string(step) + ": the character budget of " +
            std::to_string(scene::kMaxCharacterWork) + " shapes examined per step is spent and " +
            count(runner.charactersOverBudget(), " character was", " characters were") +
            " left where they were; the scene puts too many characters or shapes on top of each "
            "other (characters created at one point?)");
    }
    if (!world.contactBudgetExceeded()) return;
    const Counters c = world.counters();
    throw BudgetError(
        "step " + std::to_string(step) + ": the contact budget of " +
        std::to_string(world.def().maxContacts) + " contacts is full and " +
        std::to_string(c.pairsOverBudget) +
        " more overlapping shape pairs were left out; the scene puts too many shapes on "
        "top of each other (bodies created at one point?)");
}

int finishOutput(const char* verb, int status) {
    // The verbs write through both std::cout and C's stdout (printf): flush
    // both, then ask each whether a write failed (a full disk, /dev/full, a
    // closed descriptor). Only now does a buffered write report its error.
    std::cout.flush();
    const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout;
    if (!failed) return status;
    std::cerr << "carom " << verb << ": error: cannot write to standard output\n";
    return status == kExitOk ? kExitFailure : status;
}

void warnNonFinite(const scene::SceneRunner& runner, const char* verb) {
    const std::int64_t n = runner.world().counters().nonFiniteBodies;
    if (n == 0) return;
    std::cerr << "carom " << verb
              << ": warning: the solver left a body's state not finite (NaN or inf) " << n
              << " times; each time the step stopped that body where it was, so the result is not "
                 "the scene's "
                 "physics (see docs/robustness.md)\n";
}

int reportError(const char* verb) {
    try {
        throw;
    } catch (const scene::SceneError& e) {
        std::cerr << e.report();
        return e.kind == scene::SceneError::Kind::Io ? kExitFailure : kExitBadInput;
    } catch (const UsageError& e) {
        std::cerr << "carom " << verb << ": error: " << e.what() << " (see carom " << verb
                  << " --help)\n";
        return kExitBadInput;
    } catch (const BudgetError& e) {
        std::cerr << "carom " << verb << ": error: " << e.what() << "\n";
        return kExitBudget;
    } catch (const std::exception& e) {
        std::cerr << "carom " << verb << ": error: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace carom::cli
