#include "render_imgui.hpp"

#include <cstddef>

#include <imgui.h>

namespace carom::sandbox {

bool ImGuiSdlRenderer::init(SDL_Renderer* renderer) {
    renderer_ = renderer;
    ImGuiIO& io = ImGui::GetIO();
    unsigned char* pixels = nullptr;
    int w = 0;
    int h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    // ImGui's RGBA32 is bytes R, G, B, A in memory: SDL's ABGR8888 on a
    // little-endian machine, SDL_PIXELFORMAT_RGBA32 on any.
    font_ = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, w, h);
    if (font_ == nullptr) return false;
    SDL_UpdateTexture(font_, nullptr, pixels, 4 * w);
    SDL_SetTextureBlendMode(font_, SDL_BLENDMODE_BLEND);
    SDL_SetTextureScaleMode(font_, SDL_ScaleModeLinear);
    io.Fonts->SetTexID(static_cast<ImTextureID>(font_));
    return true;
}

void ImGuiSdlRenderer::shutdown() {
    if (font_ != nullptr) {
        ImGui::GetIO().Fonts->SetTexID(nullptr);
        SDL_DestroyTexture(font_);
        font_ = nullptr;
    }
    renderer_ = nullptr;
}

void ImGuiSdlRenderer::render(ImDrawData* data) {
    if (renderer_ == nullptr || data == nullptr || data->CmdListsCount == 0) return;
    SDL_Rect oldClip;
    SDL_bool hadClip = SDL_RenderIsClipEnabled(renderer_);
    SDL_RenderGetClipRect(renderer_, &oldClip);
    SDL_SetRenderDrawBlendMode(renderer_, SDL_BLENDMODE_BLEND);

    ImVec2 origin = data->DisplayPos;
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        const ImDrawVert* vtx = list->VtxBuffer.Data;
        const ImDrawIdx* idx = list->IdxBuffer.Data;
        for (int c = 0; c < list->CmdBuffer.Size; ++c) {
            const ImDrawCmd& cmd = list->CmdBuffer[c];
            if (cmd.UserCallback != nullptr) {
                if (cmd.UserCallback != ImDrawCallback_ResetRenderState)
                    cmd.UserCallback(list, &cmd);
                continue;
            }
            float x0 = cmd.ClipRect.x - origin.x;
            float y0 = cmd.ClipRect.y - origin.y;
            float x1 = cmd.ClipRect.z - origin.x;
            float y1 = cmd.ClipRect.w - origin.y;
            if (x1 <= x0 || y1 <= y0) continue;
            SDL_Rect clip{static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1 - x0),
                          static_cast<int>(y1 - y0)};
            SDL_RenderSetClipRect(renderer_, &clip);

            const ImDrawVert* base = vtx + cmd.VtxOffset;
            const int stride = static_cast<int>(sizeof(ImDrawVert));
            const float* xy = reinterpret_cast<const float*>(reinterpret_cast<const char*>(base) +
                                                             offsetof(ImDrawVert, pos));
            const float* uv = reinterpret_cast<const float*>(reinterpret_cast<const char*>(base) +
                                                             offsetof(ImDrawVert, uv));
            // ImU32 colours are R, G, B, A bytes in memory: an SDL_Color.
            const SDL_Color* col = reinterpret_cast<const SDL_Color*>(
                reinterpret_cast<const char*>(base) + offsetof(ImDrawVert, col));
            SDL_RenderGeometryRaw(
                renderer_, static_cast<SDL_Texture*>(cmd.GetTexID()), xy, stride, col, stride, uv,
                stride, list->VtxBuffer.Size - static_cast<int>(cmd.VtxOffset), idx + cmd.IdxOffset,
                static_cast<int>(cmd.ElemCount), static_cast<int>(sizeof(ImDrawIdx)));
        }
    }
    SDL_RenderSetClipRect(renderer_, hadClip ? &oldClip : nullptr);
}

}  // namespace carom::sandbox
