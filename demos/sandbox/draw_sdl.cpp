#include "draw_sdl.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>

namespace carom::sandbox {

namespace {

constexpr float kOutlineWidth = 1.5f;
// Rounded corners of polygons get this many arc steps each.
constexpr int kCornerSteps = 5;

SDL_Color rgb(uint32_t c, uint8_t alpha = 255) {
    return {static_cast<Uint8>((c >> 16) & 0xff), static_cast<Uint8>((c >> 8) & 0xff),
            static_cast<Uint8>(c & 0xff), alpha};
}

// Fills are the outline colour at half brightness and half opacity, so that
// overlapping shapes and the structures drawn under them stay visible.
SDL_Color fillColor(uint32_t c) {
    SDL_Color o = rgb(c);
    return {static_cast<Uint8>(o.r / 2), static_cast<Uint8>(o.g / 2), static_cast<Uint8>(o.b / 2),
            160};
}

}  // namespace

void SdlDebugDraw::begin(const Camera& camera, ImDrawList* textList) {
    camera_ = &camera;
    text_ = textList;
    visible_ = camera.visibleBounds();
    vertices_.clear();
}

void SdlDebugDraw::flush() {
    if (!vertices_.empty()) {
        SDL_SetRenderDrawBlendMode(renderer_, SDL_BLENDMODE_BLEND);
        SDL_RenderGeometry(renderer_, nullptr, vertices_.data(), static_cast<int>(vertices_.size()),
                           nullptr, 0);
    }
    vertices_.clear();
}

void SdlDebugDraw::pushVertex(Vec2 p, SDL_Color c) {
    SDL_Vertex v;
    v.position = {p.x, p.y};
    v.color = c;
    v.tex_coord = {0.0f, 0.0f};
    vertices_.push_back(v);
}

void SdlDebugDraw::screenLine(Vec2 a, Vec2 b, float widthPx, uint32_t color, uint8_t alpha) {
    SDL_Color c = rgb(color, alpha);
    Vec2 d = b - a;
    float len = length(d);
    // A zero-length line still shows as a dot of the line's width.
    Vec2 dir = len > 1.0e-4f ? d / len : Vec2{1.0f, 0.0f};
    Vec2 n = leftPerp(dir) * (0.5f * widthPx);
    if (len <= 1.0e-4f) {
        a -= dir * (0.5f * widthPx);
        b += dir * (0.5f * widthPx);
    }
    pushVertex(a + n, c);
    pushVertex(b + n, c);
    pushVertex(b - n, c);
    pushVertex(a + n, c);
    pushVertex(b - n, c);
    pushVertex(a - n, c);
}

void SdlDebugDraw::outline(std::span<const Vec2> pts, uint32_t color) {
    size_t n = pts.size();
    for (size_t i = 0; i < n; ++i) screenLine(pts[i], pts[(i + 1) % n], kOutlineWidth, color);
}

void SdlDebugDraw::fillConvex(std::span<const Vec2> pts, uint32_t color) {
    SDL_Color c = fillColor(color);
    for (size_t i = 1; i + 1 < pts.size(); ++i) {
        pushVertex(pts[0], c);
        pushVertex(pts[i], c);
        pushVertex(pts[i + 1], c);
    }
}

bool SdlDebugDraw::offscreen(Vec2 c, float r) const {
    return c.x + r < visible_.lower.x || c.x - r > visible_.upper.x || c.y + r < visible_.lower.y ||
           c.y - r > visible_.upper.y;
}

bool SdlDebugDraw::tiny(Vec2 centerWorld, float radius, uint32_t color) {
    constexpr float kDotPixels = 3.0f;
    float rp = radius * camera_->scale();
    if (rp >= kDotPixels) return false;
    Vec2 s = camera_->worldToScreen(centerWorld);
    float h = std::max(rp, 0.75f);
    SDL_Color c = rgb(color);
    const Vec2 corners[4] = {s + Vec2{-h, -h}, s + Vec2{h, -h}, s + Vec2{h, h}, s + Vec2{-h, h}};
    for (int i : {0, 1, 2, 0, 2, 3}) pushVertex(corners[i], c);
    return true;
}

void SdlDebugDraw::circlePoints(Vec2 centerWorld, float radius, std::vector<Vec2>& out) const {
    float rp = radius * camera_->scale();
    int n = std::clamp(static_cast<int>(4.0f * std::sqrt(std::max(rp, 0.0f))), 8, 96);
    Vec2 c = camera_->worldToScreen(centerWorld);
    out.clear();
    for (int i = 0; i < n; ++i) {
        float a = 2.0f * kPi * static_cast<float>(i) / static_cast<float>(n);
        out.push_back({c.x + rp * std::cos(a), c.y - rp * std::sin(a)});
    }
}

void SdlDebugDraw::drawPolygon(std::span<const Vec2> vertices, uint32_t color) {
    scratch_.clear();
    for (Vec2 v : vertices) scratch_.push_back(camera_->worldToScreen(v));
    outline(scratch_, color);
}

void SdlDebugDraw::drawSolidPolygon(const Transform& xf, std::span<const Vec2> vertices,
                                    float radius, uint32_t color) {
    size_t n = vertices.size();
    if (n == 0) return;
    Vec2 centre{0.0f, 0.0f};
    for (Vec2 v : vertices) centre += v;
    centre /= static_cast<float>(n);
    float reach = 0.0f;
    for (Vec2 v : vertices) reach = std::max(reach, distance(v, centre));
    if (offscreen(transformPoint(xf, centre), reach + radius)) return;
    if (tiny(transformPoint(xf, centre), reach + radius, color)) return;

    scratch_.clear();
    if (radius <= 0.0f || n < 3) {
        for (Vec2 v : vertices) scratch_.push_back(camera_->worldToScreen(transformPoint(xf, v)));
    } else {
        // A rounded polygon is the core polygon grown by radius: each vertex
        // becomes an arc from the previous edge's outward normal to the next
        // edge's (counter-clockwise order, so the normal is the right perp).
        for (size_t i = 0; i < n; ++i) {
            Vec2 v = vertices[i];
            Vec2 prevEdge = normalizeOrZero(v - vertices[(i + n - 1) % n]);
            Vec2 nextEdge = normalizeOrZero(vertices[(i + 1) % n] - v);
            float a0 = std::atan2(-prevEdge.x, prevEdge.y);
            float a1 = std::atan2(-nextEdge.x, nextEdge.y);
            if (a1 < a0) a1 += 2.0f * kPi;
            for (int k = 0; k <= kCornerSteps; ++k) {
                float a = a0 + (a1 - a0) * static_cast<float>(k) / static_cast<float>(kCornerSteps);
                Vec2 p{v.x + radius * std::cos(a), v.y + radius * std::sin(a)};
                scratch_.push_back(camera_->worldToScreen(transformPoint(xf, p)));
            }
        }
    }
    fillConvex(scratch_, color);
    outline(scratch_, color);

    // Rotation mark: from the centre along the local +x axis to the boundary.
    // The ray leaves the convex core where it first crosses an edge plane
    // facing along +x: t = min over those edges of n·(v - c) / n·x.
    if (n >= 3) {
        float t = reach;
        for (size_t i = 0; i < n; ++i) {
            Vec2 e = vertices[(i + 1) % n] - vertices[i];
            Vec2 nrm = normalizeOrZero(rightPerp(e));
            if (nrm.x > 1.0e-6f) t = std::min(t, dot(nrm, vertices[i] - centre) / nrm.x);
        }
        Vec2 a = camera_->worldToScreen(transformPoint(xf, centre));
        Vec2 b = camera_->worldToScreen(transformPoint(xf, centre + Vec2{t + radius, 0.0f}));
        screenLine(a, b, kOutlineWidth, color);
    }
}

void SdlDebugDraw::drawCircle(Vec2 center, float radius, uint32_t color) {
    if (offscreen(center, radius)) return;
    circlePoints(center, radius, scratch_);
    outline(scratch_, color);
}

void SdlDebugDraw::drawSolidCircle(const Transform& xf, float radius, uint32_t color) {
    if (offscreen(xf.p, radius) || tiny(xf.p, radius, color)) return;
    circlePoints(xf.p, radius, scratch_);
    fillConvex(scratch_, color);
    outline(scratch_, color);
    Vec2 a = camera_->worldToScreen(xf.p);
    Vec2 b = camera_->worldToScreen(xf.p + rotate(xf.q, Vec2{radius, 0.0f}));
    screenLine(a, b, kOutlineWidth, color);
}

void SdlDebugDraw::drawSolidCapsule(Vec2 p1, Vec2 p2, float radius, uint32_t color) {
    if (offscreen(0.5f * (p1 + p2), 0.5f * distance(p1, p2) + radius)) return;
    if (tiny(0.5f * (p1 + p2), 0.5f * distance(p1, p2) + radius, color)) return;
    Vec2 axis = normalizeOrZero(p2 - p1);
    if (lengthSquared(axis) == 0.0f) axis = {1.0f, 0.0f};
    float base = std::atan2(axis.y, axis.x);
    float rp = radius * camera_->scale();
    int half = std::clamp(static_cast<int>(2.0f * std::sqrt(std::max(rp, 0.0f))), 6, 48);
    scratch_.clear();
    // Half circle around p2 from -90° to +90° of the axis, then around p1.
    for (int end = 0; end < 2; ++end) {
        Vec2 c = end == 0 ? p2 : p1;
        float start = base - 0.5f * kPi + static_cast<float>(end) * kPi;
        for (int i = 0; i <= half; ++i) {
            float a = start + kPi * static_cast<float>(i) / static_cast<float>(half);
            scratch_.push_back(camera_->worldToScreen(c + radius * Vec2{std::cos(a), std::sin(a)}));
        }
    }
    fillConvex(scratch_, color);
    outline(scratch_, color);
    screenLine(camera_->worldToScreen(p1), camera_->worldToScreen(p2), kOutlineWidth, color);
}

void SdlDebugDraw::drawSegment(Vec2 p1, Vec2 p2, uint32_t color) {
    if (offscreen(0.5f * (p1 + p2), 0.5f * distance(p1, p2))) return;
    screenLine(camera_->worldToScreen(p1), camera_->worldToScreen(p2), kOutlineWidth, color);
}

void SdlDebugDraw::drawTransform(const Transform& xf) {
    constexpr float kAxisPx = 20.0f;
    Vec2 o = camera_->worldToScreen(xf.p);
    // Screen y points down, so a world direction (x, y) is (x, -y) on screen.
    screenLine(o, o + kAxisPx * Vec2{xf.q.c, -xf.q.s}, kOutlineWidth, 0xe53333);
    screenLine(o, o + kAxisPx * Vec2{-xf.q.s, -xf.q.c}, kOutlineWidth, 0x33e533);
}

void SdlDebugDraw::drawPoint(Vec2 p, float sizePixels, uint32_t color) {
    if (offscreen(p, 0.0f)) return;
    Vec2 s = camera_->worldToScreen(p);
    float h = 0.5f * std::max(sizePixels, 1.0f);
    const Vec2 corners[4] = {s + Vec2{-h, -h}, s + Vec2{h, -h}, s + Vec2{h, h}, s + Vec2{-h, h}};
    SDL_Color c = rgb(color);
    for (int i : {0, 1, 2, 0, 2, 3}) pushVertex(corners[i], c);
}

void SdlDebugDraw::drawString(Vec2 p, const char* text, uint32_t color) {
    if (text_ == nullptr || text == nullptr || offscreen(p, 0.0f)) return;
    Vec2 s = camera_->worldToScreen(p);
    SDL_Color c = rgb(color);
    text_->AddText(ImVec2(s.x + 3.0f, s.y - 14.0f), IM_COL32(c.r, c.g, c.b, 255), text);
}

}  // namespace carom::sandbox
