// Command-line options shared by the verbs of `carom`.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <carom/scene.hpp>

namespace carom::cli {

/// Reads the whole of text as a decimal number into v (std::from_chars, or
/// strtod where the standard library has no floating-point from_chars);
/// false when text is not one number.
bool parseNumber(const std::string& text, double& v);

/// A bad flag or argument: reported as "carom VERB: error: ..." with exit status 2.
class UsageError : public std::runtime_error {
   public:
    using std::runtime_error::runtime_error;
};

/// Exit statuses of docs/cli.md.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;
/// A budget was reached: WorldDef::maxContacts, WorldDef::maxSensorOverlaps
/// or the runner's scene::kMaxCharacterWork (docs/robustness.md, "Budgets").
inline constexpr int kExitBudget = 3;

/// Thrown by checkBudget: reported as "carom VERB: error: ..." with exit status 3.
class BudgetError : public std::runtime_error {
   public:
    using std::runtime_error::runtime_error;
};

/// Throws BudgetError when the step that just ran (number `step`, from 1)
/// left something out because a budget was reached: contact pairs, sensor
/// overlaps, character moves. Cheap: call it after every step.
void checkBudget(const scene::SceneRunner& runner, std::int64_t step);

/// Writes "carom VERB: warning: ..." to standard error when a step of the
/// run had to stop a body whose state the solver left not finite
/// (Counters::nonFiniteBodies): a solver fault that the step kept finite
/// but that changed the result.
void warnNonFinite(const scene::SceneRunner& runner, const char* verb);

/// Options of `run` and `bench`.
struct RunFlags {
    std::string scene;
    std::optional<std::int64_t> steps;
    std::optional<double> seconds;
    scene::RunOptions run;
    std::optional<std::string> out;     // run only
    std::optional<std::string> record;  // run only: --record FILE
    std::int64_t keyframes = 60;        // run only: --keyframes K
    std::optional<std::string> trace;
    std::int64_t every = 1;
    bool json = false;  // bench only
    bool help = false;
};

/// Parses `run` (allowOut) or `bench` (allowJson) arguments after the verb.
RunFlags parseRunFlags(const std::vector<std::string>& args, bool allowOut, bool allowJson);

/// For verbs taking one file and no options (validate, query): the file, or
/// an empty string when --help was asked.
std::string parseSingleFile(const std::vector<std::string>& args, const char* what);

/// The number of steps a run takes: --steps, --seconds, or the scene's duration.
std::int64_t stepsToRun(const RunFlags& flags, const scene::SceneRunner& runner);

/// Prints an error for the exception in flight and returns the exit status:
/// SceneError (2, or 1 when the file cannot be read; every error of the
/// file, SceneError::report), UsageError (2), BudgetError (3), anything
/// else (1).
int reportError(const char* verb);

/// Flushes standard output and checks that everything written to it
/// arrived: returns status, or, when a write failed, prints
/// "carom VERB: error: cannot write to standard output" and returns 1
/// (status when it already says a failure). main calls it after every verb.
int finishOutput(const char* verb, int status);

}  // namespace carom::cli
