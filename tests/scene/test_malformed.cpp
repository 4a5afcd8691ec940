// The malformed-input corpus (tests/scene/malformed/): one small file per
// way a user's input has been found to mislead or break `carom`, each with a
// sidecar NAME.expect giving the verbs to run it through, the exit status
// and the exact standard error:
//
//     verbs: validate run
//     exit: 2
//     stderr:
//     NAME.json:1:32: error: world.timestep: must be a finite number ...
//
// The command runs in the corpus folder, so messages name the file as the
// user typed it. `validate` and `run` must agree exactly: whatever `run`
// would refuse, `validate` refuses the same way (docs/robustness.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

struct Expectation {
    std::vector<std::string> verbs;
    int exitCode = -1;
    std::string err;
};

Expectation readExpectation(const std::string& path) {
    std::string text = test::readText(path);
    Expectation e;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("verbs:", 0) == 0) {
            std::istringstream words(line.substr(6));
            for (std::string w; words >> w;) e.verbs.push_back(w);
        } else if (line.rfind("exit:", 0) == 0) {
            e.exitCode = std::stoi(line.substr(5));
        } else if (line == "stderr:") {
            e.err = text.substr(static_cast<std::size_t>(in.tellg()));
            break;
        }
    }
    return e;
}

std::vector<std::string> corpus() {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(CAROM_MALFORMED_DIR)) {
        if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

class Malformed : public ::testing::TestWithParam<std::string> {};

TEST_P(Malformed, RefusedWhereItIsInTheUsersWords) {
    const std::string dir = CAROM_MALFORMED_DIR;
    const std::string file = GetParam() + ".json";
    Expectation e = readExpectation(dir + "/" + GetParam() + ".expect");
    ASSERT_FALSE(e.verbs.empty()) << GetParam() << ".expect has no verbs: line";
    ASSERT_NE(e.exitCode, -1) << GetParam() << ".expect has no exit: line";
    ASSERT_FALSE(e.err.empty()) << GetParam() << ".expect has no stderr";
    for (const std::string& verb : e.verbs) {
        test::CliResult r = test::runCli({verb, file}, dir);
        EXPECT_EQ(r.exitCode, e.exitCode) << verb << " " << file << "\n" << r.err;
        EXPECT_EQ(r.err, e.err) << verb << " " << file;
        EXPECT_EQ(r.out, "") << verb << " " << file;
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Malformed, ::testing::ValuesIn(corpus()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             for (char& c : name) {
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             }
                             return name;
                         });

}  // namespace
}  // namespace carom::scene
