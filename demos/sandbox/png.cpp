#include "png.hpp"

#include <stdexcept>
#include <vector>

#include <stb_image_write.h>

namespace carom::sandbox {

void writeScreenshot(SDL_Renderer* renderer, int w, int h, const std::string& path) {
    std::vector<unsigned char> rgba(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
    // SDL_PIXELFORMAT_RGBA32 is bytes R, G, B, A in memory on any endianness.
    if (SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_RGBA32, rgba.data(), 4 * w) != 0)
        throw std::runtime_error(std::string("cannot read the rendered pixels: ") + SDL_GetError());
    // Drop alpha: the window has no meaningful transparency, and RGB files are smaller.
    std::vector<unsigned char> rgb(static_cast<size_t>(w) * static_cast<size_t>(h) * 3);
    for (size_t i = 0, n = static_cast<size_t>(w) * static_cast<size_t>(h); i < n; ++i) {
        rgb[3 * i + 0] = rgba[4 * i + 0];
        rgb[3 * i + 1] = rgba[4 * i + 1];
        rgb[3 * i + 2] = rgba[4 * i + 2];
    }
    if (stbi_write_png(path.c_str(), w, h, 3, rgb.data(), 3 * w) == 0)
        throw std::runtime_error("cannot write " + path);
}

}  // namespace carom::sandbox
