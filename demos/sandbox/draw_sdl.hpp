// DebugDraw onto an SDL_Renderer.
//
// World::draw calls the DebugDraw methods once per shape, joint, contact, box
// ... in world coordinates. This class turns every call into screen-space
// triangles (fills, and outlines as thin quads) appended to one vertex list,
// and flush() hands the list to SDL_RenderGeometry in a single call. One
// batched call keeps thousand-body scenes fast on SDL's software renderer,
// and because outlines are triangles too, the painter's order of the calls
// is kept exactly (a later shape covers an earlier outline).
//
// Text (contact impulse magnitudes) goes to an ImGui draw list when one is
// given: ImGui already has a font, and its background list is drawn after
// the world and under the panels.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <SDL.h>

#include <carom/debug_draw.hpp>

#include "camera.hpp"

struct ImDrawList;

namespace carom::sandbox {

class SdlDebugDraw final : public DebugDraw {
   public:
    explicit SdlDebugDraw(SDL_Renderer* renderer) : renderer_(renderer) {}

    /// Starts a frame seen through camera; text goes to textList (may be null).
    void begin(const Camera& camera, ImDrawList* textList);
    /// Draws everything appended since begin().
    void flush();

    void drawPolygon(std::span<const Vec2> vertices, uint32_t color) override;
    void drawSolidPolygon(const Transform& xf, std::span<const Vec2> vertices, float radius,
                          uint32_t color) override;
    void drawCircle(Vec2 center, float radius, uint32_t color) override;
    void drawSolidCircle(const Transform& xf, float radius, uint32_t color) override;
    void drawSolidCapsule(Vec2 p1, Vec2 p2, float radius, uint32_t color) override;
    void drawSegment(Vec2 p1, Vec2 p2, uint32_t color) override;
    void drawTransform(const Transform& xf) override;
    void drawPoint(Vec2 p, float sizePixels, uint32_t color) override;
    void drawString(Vec2 p, const char* text, uint32_t color) override;

    /// A line of a given pixel width between two screen points.
    void screenLine(Vec2 a, Vec2 b, float widthPx, uint32_t color, uint8_t alpha = 255);

   private:
    void outline(std::span<const Vec2> screenPts, uint32_t color);
    void fillConvex(std::span<const Vec2> screenPts, uint32_t color);
    /// Screen points of a circle approximated for its pixel size.
    void circlePoints(Vec2 centerWorld, float radius, std::vector<Vec2>& out) const;
    bool offscreen(Vec2 centerWorld, float radius) const;
    /// Shapes smaller than a few pixels are drawn as one dot: the software
    /// renderer pays per triangle, and a 40-triangle circle 2 px wide looks
    /// the same as a dot (this keeps 10,000-body scenes interactive).
    bool tiny(Vec2 centerWorld, float radius, uint32_t color);
    void pushVertex(Vec2 p, SDL_Color c);

    SDL_Renderer* renderer_;
    const Camera* camera_ = nullptr;
    ImDrawList* text_ = nullptr;
    AABB visible_{};
    std::vector<SDL_Vertex> vertices_;
    std::vector<Vec2> scratch_;
};

}  // namespace carom::sandbox
