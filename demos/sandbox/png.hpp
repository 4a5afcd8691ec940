// Reading back what the renderer drew and saving it as a PNG (stb_image_write
// from Debian's libstb).
#pragma once

#include <string>

#include <SDL.h>

namespace carom::sandbox {

/// Writes the renderer's current target (w x h pixels) to path as an RGB PNG.
/// Throws std::runtime_error when the pixels cannot be read or the file written.
void writeScreenshot(SDL_Renderer* renderer, int w, int h, const std::string& path);

}  // namespace carom::sandbox
