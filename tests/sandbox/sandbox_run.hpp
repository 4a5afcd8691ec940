// Helpers for tests that run the carom-sandbox executable and read its PNGs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace carom::sandbox::test {

struct RunResult {
    int status = -1;  ///< exit status (-1 when it did not exit normally)
    std::string out;  ///< standard output
    std::string err;  ///< standard error
};

/// Runs carom-sandbox with the arguments (each shell-quoted); `tag` names
/// the files that keep its output in the test output folder.
RunResult runSandbox(const std::vector<std::string>& args, const std::string& tag);

/// The folder for test artefacts (created on demand), in the build tree.
std::string outDir();
/// A file of tests/sandbox (scenes, scripts).
std::string sourceFile(const std::string& name);

struct Image {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgb;  ///< width * height * 3
    bool valid() const { return width > 0 && height > 0; }
    const uint8_t* at(int x, int y) const { return &rgb[3 * (static_cast<size_t>(y) * width + x)]; }
};

/// Decodes a PNG with stb_image (an invalid Image when it is not one).
Image loadPng(const std::string& path);
/// Variance of the pixel luminance: zero for a blank picture.
double luminanceVariance(const Image& img);
/// Fraction of pixels whose colour differs between a and b (same size).
double differingFraction(const Image& a, const Image& b);

}  // namespace carom::sandbox::test
