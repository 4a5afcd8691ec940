// The determinism table: the state hash after every step of every bench
// scene and every stability scene, committed in table.txt, is what each
// platform must reproduce bit for bit, with each SIMD width it has and at 1
// and 4 workers. A difference fails with the scene, the platform, the
// configuration and the first step whose state differs.
#include <gtest/gtest.h>

#include <carom/scene.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/platform.hpp"
#include "solver/wide_contact.hpp"

namespace carom {
namespace {

const std::string kRoot = CAROM_SOURCE_DIR;
const std::string kTable = kRoot + "/tests/determinism/table.txt";

struct Entry {
    std::string scene;             ///< relative to the repository root
    std::vector<uint64_t> hashes;  ///< after steps 1, 2, ...
};

// The bench scenes are large: their first steps carry the contacts of
// whole piles. The stability scenes are small and run longer.
int stepsFor(const std::string& scene) {
    return scene.rfind("bench/", 0) == 0 ? 20 : 60;
}

std::vector<std::string> tableScenes() {
    std::vector<std::string> out;
    for (const char* dir : {"bench/scenes", "demos/scenes/stability"})
        for (const auto& e : std::filesystem::directory_iterator(kRoot + "/" + dir))
            if (e.path().extension() == ".json")
                out.push_back(std::string(dir) + "/" + e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<uint64_t> run(const std::string& scene, int steps, SimdWidth simd, int workers) {
    scene::RunOptions options;
    options.simd = simd;
    options.threads = workers;
    scene::SceneRunner runner(scene::loadFile(kRoot + "/" + scene), options);
    std::vector<uint64_t> hashes;
    hashes.reserve(size_t(steps));
    for (int i = 0; i < steps; ++i) {
        runner.step();
        hashes.push_back(runner.world().stateHash());
    }
    return hashes;
}

std::vector<Entry> readTable() {
    std::vector<Entry> table;
    std::ifstream in(kTable);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        Entry e;
        int steps = 0;
        ls >> e.scene >> steps;
        std::string h;
        while (ls >> h) e.hashes.push_back(std::stoull(h, nullptr, 16));
        if (int(e.hashes.size()) != steps)
            ADD_FAILURE() << kTable << ": " << e.scene << " lists " << e.hashes.size()
                          << " hashes for " << steps << " steps";
        table.push_back(std::move(e));
    }
    return table;
}

// The widths this build and CPU run as distinct kernels.
std::vector<SimdWidth> widths() {
    std::vector<SimdWidth> out{SimdWidth::Scalar};
    if (&detail::contactKernels(SimdWidth::SSE2) != &detail::contactKernels(SimdWidth::Scalar))
        out.push_back(SimdWidth::SSE2);
    if (&detail::contactKernels(SimdWidth::AVX2) != &detail::contactKernels(SimdWidth::SSE2))
        out.push_back(SimdWidth::AVX2);
    return out;
}

TEST(DeterminismTable, ListsEveryBenchAndStabilityScene) {
    if (std::getenv("CAROM_DETERMINISM_WRITE") != nullptr) {
        std::ofstream out(kTable);
        out << "# The state hash (World::stateHash, hex) after each step of each scene: every "
               "platform,\n"
               "# SIMD width and worker count must reproduce it (tests/determinism). Written by\n"
               "# CAROM_DETERMINISM_WRITE=1 build/bin/carom_determinism_tests from the scalar "
               "kernels at 1 worker.\n"
               "# scene steps hash1 hash2 ...\n";
        for (const std::string& scene : tableScenes()) {
            const int steps = stepsFor(scene);
            out << scene << ' ' << steps;
            for (uint64_t h : run(scene, steps, SimdWidth::Scalar, 1)) {
                char buf[20];
                std::snprintf(buf, sizeof buf, " %016llx", static_cast<unsigned long long>(h));
                out << buf;
            }
            out << '\n';
        }
        ASSERT_TRUE(out.good()) << "cannot write " << kTable;
    }
    std::vector<std::string> listed;
    for (const Entry& e : readTable()) listed.push_back(e.scene);
    EXPECT_EQ(listed, tableScenes())
        << "the table is not current: rewrite it (see tests/determinism/CMakeLists.txt)";
}

class DeterminismTable : public ::testing::TestWithParam<std::string> {};

// The configurations run: each width at 1 and 4 workers; with
// CAROM_DETERMINISM_CONFIGS=widest only the widest kernel at 4 workers (the
// quick check of a cross build under an emulator, scripts/cross.sh).
std::vector<std::pair<SimdWidth, int>> configurations() {
    const std::vector<SimdWidth> all = widths();
    const char* pick = std::getenv("CAROM_DETERMINISM_CONFIGS");
    if (pick != nullptr && std::string(pick) == "widest") return {{all.back(), 4}};
    std::vector<std::pair<SimdWidth, int>> out;
    for (SimdWidth simd : all)
        for (int workers : {1, 4}) out.emplace_back(simd, workers);
    return out;
}

TEST_P(DeterminismTable, EveryWidthAndWorkerCountGivesTheTablesHashes) {
    const std::vector<Entry> table = readTable();
    const auto it = std::find_if(table.begin(), table.end(),
                                 [](const Entry& e) { return e.scene == GetParam(); });
    ASSERT_NE(it, table.end()) << GetParam() << " is not in " << kTable;
    for (const auto& [simd, workers] : configurations()) {
        const std::vector<uint64_t> got = run(it->scene, int(it->hashes.size()), simd, workers);
        const auto diff = std::mismatch(got.begin(), got.end(), it->hashes.begin());
        if (diff.first != got.end()) {
            ADD_FAILURE() << it->scene << " on " << CAROM_PLATFORM_NAME << " with the "
                          << detail::contactKernels(simd).name << " kernels at " << workers
                          << " workers: the state differs from the table's from step "
                          << (diff.first - got.begin()) + 1 << " on";
        }
    }
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
    std::string s = info.param;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Scenes, DeterminismTable, ::testing::ValuesIn(tableScenes()), testName);

}  // namespace
}  // namespace carom
