#include "sandbox_run.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <stb_image.h>

namespace carom::sandbox::test {

namespace {

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    return q + "'";
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

std::string outDir() {
    std::filesystem::create_directories(CAROM_SANDBOX_OUT_DIR);
    return CAROM_SANDBOX_OUT_DIR;
}

std::string sourceFile(const std::string& name) {
    return std::string(CAROM_SANDBOX_TEST_DIR) + "/" + name;
}

RunResult runSandbox(const std::vector<std::string>& args, const std::string& tag) {
    std::string outFile = outDir() + "/" + tag + ".stdout";
    std::string errFile = outDir() + "/" + tag + ".stderr";
    std::string cmd = quote(CAROM_SANDBOX_EXE);
    // Appended piece by piece: g++ 12 warns falsely (-Wrestrict) about
    // `" " + std::string` temporaries at -O2.
    for (const std::string& a : args) {
        cmd += ' ';
        cmd += quote(a);
    }
    cmd += " >";
    cmd += quote(outFile);
    cmd += " 2>";
    cmd += quote(errFile);
    int raw = std::system(cmd.c_str());
    RunResult r;
    r.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(outFile);
    r.err = slurp(errFile);
    return r;
}

Image loadPng(const std::string& path) {
    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 3);
    if (data == nullptr) return Image{};
    img.rgb.assign(data, data + static_cast<size_t>(img.width) * img.height * 3);
    stbi_image_free(data);
    return img;
}

double luminanceVariance(const Image& img) {
    if (!img.valid()) return 0.0;
    double sum = 0.0;
    double sq = 0.0;
    size_t n = static_cast<size_t>(img.width) * img.height;
    for (size_t i = 0; i < n; ++i) {
        double l = 0.299 * img.rgb[3 * i] + 0.587 * img.rgb[3 * i + 1] + 0.114 * img.rgb[3 * i + 2];
        sum += l;
        sq += l * l;
    }
    double mean = sum / static_cast<double>(n);
    return sq / static_cast<double>(n) - mean * mean;
}

double differingFraction(const Image& a, const Image& b) {
    if (a.width != b.width || a.height != b.height || !a.valid()) return 1.0;
    size_t n = static_cast<size_t>(a.width) * a.height;
    size_t diff = 0;
    for (size_t i = 0; i < n; ++i)
        if (a.rgb[3 * i] != b.rgb[3 * i] || a.rgb[3 * i + 1] != b.rgb[3 * i + 1] ||
            a.rgb[3 * i + 2] != b.rgb[3 * i + 2])
            ++diff;
    return static_cast<double>(diff) / static_cast<double>(n);
}

}  // namespace carom::sandbox::test
