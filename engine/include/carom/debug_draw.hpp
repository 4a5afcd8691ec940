// Debug drawing: World::draw calls these for what the flags ask for. Colours
// are 0xRRGGBB. Implement the ones you need; the defaults do nothing.
#pragma once

#include <cstdint>
#include <span>

#include <carom/math.hpp>

namespace carom {

struct DebugDrawFlags {
    bool shapes = true;
    bool joints = true;
    bool aabbs = false;       ///< shape bounding boxes (fat boxes)
    bool broadphase = false;  ///< tree nodes or sweep intervals
    bool contactPoints = false;
    bool contactNormals = false;
    bool contactImpulses = false;
    bool centersOfMass = false;
    bool islands = false;     ///< island bounds, sleeping islands in their own colour
    bool continuous = false;  ///< sweeps of bodies that used continuous collision this step
};

/// Suggested colours.
namespace colors {
inline constexpr uint32_t kStatic = 0x7fbf7f;
inline constexpr uint32_t kKinematic = 0x7f7fe5;
inline constexpr uint32_t kDynamic = 0xe5b27f;
inline constexpr uint32_t kSleeping = 0x999999;
inline constexpr uint32_t kSensor = 0x4ccc66;
inline constexpr uint32_t kBullet = 0xe57f7f;
inline constexpr uint32_t kJoint = 0x7fcccc;
inline constexpr uint32_t kContact = 0xe5e54c;
inline constexpr uint32_t kNormal = 0x66e5e5;
inline constexpr uint32_t kAabb = 0xe54ce5;
inline constexpr uint32_t kIsland = 0xcc99ff;
}  // namespace colors

class DebugDraw {
   public:
    virtual ~DebugDraw() = default;
    /// A closed outline through vertices (world frame).
    virtual void drawPolygon(std::span<const Vec2> vertices, uint32_t color) {
        (void)vertices, (void)color;
    }
    /// A filled convex polygon, rounded by radius, placed at xf (vertices in local frame).
    virtual void drawSolidPolygon(const Transform& xf, std::span<const Vec2> vertices, float radius,
                                  uint32_t color) {
        (void)xf, (void)vertices, (void)radius, (void)color;
    }
    virtual void drawCircle(Vec2 center, float radius, uint32_t color) {
        (void)center, (void)radius, (void)color;
    }
    /// A filled circle at xf with a mark along its local x axis to show rotation.
    virtual void drawSolidCircle(const Transform& xf, float radius, uint32_t color) {
        (void)xf, (void)radius, (void)color;
    }
    virtual void drawSolidCapsule(Vec2 p1, Vec2 p2, float radius, uint32_t color) {
        (void)p1, (void)p2, (void)radius, (void)color;
    }
    virtual void drawSegment(Vec2 p1, Vec2 p2, uint32_t color) { (void)p1, (void)p2, (void)color; }
    /// Axes of a frame (x red, y green).
    virtual void drawTransform(const Transform& xf) { (void)xf; }
    virtual void drawPoint(Vec2 p, float sizePixels, uint32_t color) {
        (void)p, (void)sizePixels, (void)color;
    }
    virtual void drawString(Vec2 p, const char* text, uint32_t color) {
        (void)p, (void)text, (void)color;
    }
};

}  // namespace carom
