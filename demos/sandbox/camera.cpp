#include "camera.hpp"

#include <algorithm>

namespace carom::sandbox {

namespace {
// Zooming stops at these heights: below a millimetre or beyond the API's
// coordinate range nothing useful is visible and floats lose precision.
constexpr float kMinHeight = 1.0e-3f;
constexpr float kMaxHeight = 2.0e6f;
}  // namespace

void Camera::setViewport(int widthPx, int heightPx) {
    width_ = std::max(widthPx, 1);
    height_ = std::max(heightPx, 1);
}

void Camera::set(Vec2 center, float heightMetres) {
    if (isFinite(center)) center_ = center;
    if (isFinite(heightMetres) && heightMetres > 0.0f)
        viewHeight_ = std::clamp(heightMetres, kMinHeight, kMaxHeight);
}

Vec2 Camera::worldToScreen(Vec2 w) const {
    float s = scale();
    return {0.5f * static_cast<float>(width_) + (w.x - center_.x) * s,
            0.5f * static_cast<float>(height_) - (w.y - center_.y) * s};
}

Vec2 Camera::screenToWorld(Vec2 p) const {
    float inv = 1.0f / scale();
    return {center_.x + (p.x - 0.5f * static_cast<float>(width_)) * inv,
            center_.y - (p.y - 0.5f * static_cast<float>(height_)) * inv};
}

void Camera::panPixels(Vec2 deltaPx) {
    float inv = 1.0f / scale();
    center_.x -= deltaPx.x * inv;
    center_.y += deltaPx.y * inv;
}

void Camera::zoomAt(Vec2 screenAnchor, float factor) {
    if (!(factor > 0.0f) || !isFinite(factor)) return;
    // Keep the anchored world point fixed: w = c + (s - half) / scale must
    // hold before and after, so c' = w - (s - half) / scale'.
    Vec2 anchorWorld = screenToWorld(screenAnchor);
    viewHeight_ = std::clamp(viewHeight_ / factor, kMinHeight, kMaxHeight);
    Vec2 after = screenToWorld(screenAnchor);
    center_ += anchorWorld - after;
}

void Camera::fit(const AABB& box, float margin, ScreenInsets insets) {
    if (!isValid(box)) return;
    const float width = static_cast<float>(width_);
    float left = std::max(insets.left, 0.0f);
    float right = std::max(insets.right, 0.0f);
    if (!(width - left - right >= width / 3.0f)) left = right = 0.0f;
    const float freeWidth = width - left - right;
    Vec2 ext = aabbExtents(box);
    float aspect = freeWidth / static_cast<float>(height_);
    // The height needed to show the box vertically, and the height whose
    // width shows it across the free part; take the larger.
    float h = std::max(2.0f * ext.y, 2.0f * ext.x / aspect);
    h = std::max(h * (1.0f + 2.0f * margin), 1.0f);
    // The box's centre goes to the middle of the free part.
    const float shiftPx = left + 0.5f * freeWidth - 0.5f * width;
    Vec2 c = aabbCenter(box);
    c.x -= shiftPx * h / static_cast<float>(height_);
    set(c, h);
}

AABB Camera::visibleBounds() const {
    Vec2 a = screenToWorld({0.0f, static_cast<float>(height_)});
    Vec2 b = screenToWorld({static_cast<float>(width_), 0.0f});
    return {minVec(a, b), maxVec(a, b)};
}

}  // namespace carom::sandbox
