// The sandbox camera: which part of the world the window shows.
//
// A camera is a centre (world metres), the world height visible from the top
// of the window to the bottom (metres), and the window size (pixels). The
// horizontal extent follows from the aspect ratio, so a scene's "view"
// (centre and height) looks the same in any window shape. World +y is up and
// screen +y is down, hence the sign flip in the conversions.
#pragma once

#include <carom/math.hpp>

namespace carom::sandbox {

/// Pixels along the window's left and right edges that panels cover: a fit
/// shows the box in the rest.
struct ScreenInsets {
    float left = 0.0f;
    float right = 0.0f;
};

class Camera {
   public:
    void setViewport(int widthPx, int heightPx);
    int width() const { return width_; }
    int height() const { return height_; }

    void set(Vec2 center, float heightMetres);
    Vec2 center() const { return center_; }
    float viewHeight() const { return viewHeight_; }

    /// Pixels per metre.
    float scale() const { return static_cast<float>(height_) / viewHeight_; }

    Vec2 worldToScreen(Vec2 w) const;
    Vec2 screenToWorld(Vec2 s) const;

    /// Moves the view by a screen-space delta (dragging the world along).
    void panPixels(Vec2 deltaPx);
    /// Zooms by factor (> 1 zooms in) keeping the world point under
    /// screenAnchor fixed on screen.
    void zoomAt(Vec2 screenAnchor, float factor);
    /// Shows the box with a margin (fraction of its size) around it, in the
    /// part of the window the insets leave uncovered (the whole window when
    /// they would leave less than a third of its width).
    void fit(const AABB& box, float margin = 0.1f, ScreenInsets insets = {});
    /// The world box the window shows.
    AABB visibleBounds() const;

   private:
    Vec2 center_{0.0f, 0.0f};
    float viewHeight_ = 20.0f;
    int width_ = 1280;
    int height_ = 720;
};

}  // namespace carom::sandbox
