#include "scene_test_util.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#if defined(_WIN32)
#include <process.h>
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace carom::scene::test {

namespace {

#if defined(_WIN32)
// cmd.exe: a word in double quotes (no test argument holds one).
std::string shellQuote(const std::string& s) {
    return "\"" + s + "\"";
}
int processId() {
    return ::_getpid();
}
// std::system's result is the command's exit code.
int exitCodeOf(int status) {
    return status;
}
#else
// sh: a word in single quotes, each quote in it closed, escaped, reopened.
std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    out.push_back('\'');
    return out;
}
int processId() {
    return static_cast<int>(::getpid());
}
int exitCodeOf(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
#endif

}  // namespace

std::string cliCommand() {
    std::string command = CAROM_CLI_LAUNCHER;
    if (!command.empty()) command.push_back(' ');
    command.append(shellQuote(CAROM_CLI_PATH));
    return command;
}

int systemExitCode(const std::string& command) {
#if defined(_WIN32)
    // cmd /c strips the first and the last quote of its command line when
    // it starts with one: the whole line goes in one more pair.
    return exitCodeOf(std::system(("\"" + command + "\"").c_str()));
#else
    return exitCodeOf(std::system(command.c_str()));
#endif
}

std::string nullDevice() {
#if defined(_WIN32)
    return "NUL";
#else
    return "/dev/null";
#endif
}

std::string tempDir() {
    static std::string dir = [] {
        std::string leaf = "carom_scene_tests_";
        leaf.append(std::to_string(processId()));
        std::filesystem::path p = std::filesystem::temp_directory_path() / leaf;
        std::filesystem::create_directories(p);
        return p.string();
    }();
    return dir;
}

std::string writeTemp(const std::string& name, const std::string& text) {
    std::string path = tempDir() + "/" + name;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return path;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

CliResult runCli(const std::vector<std::string>& args, const std::string& cwd,
                 const std::string& stdinFile, const std::string& stdoutFile) {
    static int counter = 0;
    std::string base = tempDir();
    base.append("/cli");
    base.append(std::to_string(counter++));
    std::string command;
#if defined(_WIN32)
    if (!cwd.empty()) command = "cd /d " + shellQuote(cwd) + " && ";
#else
    if (!cwd.empty()) command = "cd " + shellQuote(cwd) + " && ";
#endif
    command.append(cliCommand());
    for (const std::string& a : args) {
        command.push_back(' ');
        command.append(shellQuote(a));
    }
    command.append(" >");
    command.append(shellQuote(stdoutFile.empty() ? base + ".out" : stdoutFile));
    command.append(" 2>");
    command.append(shellQuote(base + ".err"));
    command.append(" <");
    command.append(shellQuote(stdinFile.empty() ? nullDevice() : stdinFile));
    CliResult r;
    r.exitCode = systemExitCode(command);
    if (stdoutFile.empty()) r.out = readText(base + ".out");
    r.err = readText(base + ".err");
    return r;
}

std::vector<std::string> jsonFiles(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

bool stateIsFinite(const World& world) {
    for (BodyId id : world.bodies()) {
        Vec2 p = world.position(id);
        Rot q = world.rotation(id);
        Vec2 v = world.linearVelocity(id);
        float w = world.angularVelocity(id);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(q.c) ||
            !std::isfinite(q.s) || !std::isfinite(v.x) || !std::isfinite(v.y) ||
            !std::isfinite(w)) {
            return false;
        }
    }
    return true;
}

void expectWarmStateRefused(const std::string& coldText, const WarmState& bad,
                            const std::string& field) {
    SceneRunner fresh(loadString(coldText, "cold.json"));
    const uint64_t before = fresh.world().stateHash();
    try {
        fresh.world().setWarmState(bad);
        ADD_FAILURE() << field << " accepted";
    } catch (const carom::Error& e) {
        EXPECT_EQ(e.field(), field) << e.what();
    }
    EXPECT_EQ(fresh.world().counters().contacts, 0) << field;
    EXPECT_EQ(fresh.world().stateHash(), before) << field;
}

}  // namespace carom::scene::test
