// Helpers shared by the scene tests.
#pragma once

#include <string>
#include <vector>

#include <carom/scene.hpp>

namespace carom::scene::test {

/// The result of running the `carom` command.
struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// Runs build/bin/carom with the arguments (each is shell-quoted), in the
/// directory cwd when given (so messages name files as the arguments do),
/// with standard input from the file stdinFile (default: the null device)
/// and standard output to stdoutFile when given (else captured in `out`).
/// Through the shell std::system runs (sh; cmd.exe on Windows); in a cross
/// build through the emulator (CAROM_CLI_LAUNCHER) too.
CliResult runCli(const std::vector<std::string>& args, const std::string& cwd = std::string(),
                 const std::string& stdinFile = std::string(),
                 const std::string& stdoutFile = std::string());

/// The shell words that start the `carom` command: the cross build's
/// emulator, if any, and the quoted path of the executable.
std::string cliCommand();

/// Runs a shell command line (std::system) and returns its exit code, -1
/// when it did not exit normally.
int systemExitCode(const std::string& command);

/// A fresh temporary directory for this test process.
std::string tempDir();
/// Writes text to a file in tempDir() and returns its path.
std::string writeTemp(const std::string& name, const std::string& text);
std::string readText(const std::string& path);

/// Every .json file of a folder, sorted.
std::vector<std::string> jsonFiles(const std::string& dir);

/// True when every body of the world has finite position, rotation and velocities.
bool stateIsFinite(const World& world);

/// Loads the cold scene text into a fresh runner, hands it the warm state
/// `bad`, and expects a refusal naming `field` that leaves the world as it
/// was: no contacts, the same state hash.
void expectWarmStateRefused(const std::string& coldText, const WarmState& bad,
                            const std::string& field);

}  // namespace carom::scene::test
