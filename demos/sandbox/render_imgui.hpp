// Dear ImGui's draw lists onto an SDL_Renderer.
//
// Debian's libimgui.a carries ImGui's SDL2 platform backend (events, mouse,
// keyboard) but not its SDL_Renderer backend, so the sandbox draws ImGui's
// output itself. That output is simple: per command list, indexed triangles
// with a texture (the font atlas) and a clip rectangle per draw command, which
// maps one to one onto SDL_RenderGeometryRaw (SDL >= 2.0.18). The same code
// draws into a window or into the software renderer used by --headless.
#pragma once

#include <SDL.h>

struct ImDrawData;

namespace carom::sandbox {

class ImGuiSdlRenderer {
   public:
    /// Uploads the font atlas of the current ImGui context. Returns false
    /// (and leaves ImGui without a font texture) when SDL refuses the texture.
    bool init(SDL_Renderer* renderer);
    void shutdown();
    void render(ImDrawData* data);

   private:
    SDL_Renderer* renderer_ = nullptr;
    SDL_Texture* font_ = nullptr;
};

}  // namespace carom::sandbox
