// Convex hull for polygon construction.
//
// Andrew's monotone chain: sort the points lexicographically, then build the
// lower and upper chains, popping any point that does not make a strict left
// turn. O(n log n), exact in its decisions up to the collinearity tolerance
// below, and simple enough to check by eye. Before that, points closer than
// kWeldTolerance are welded, so near-duplicates cannot make slivers; after it,
// vertices that lie (within tolerance) on the line through their neighbours
// are dropped, so every edge has a well-defined normal.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <carom/error.hpp>
#include <carom/geometry.hpp>

#include "engine/core/rules.hpp"

namespace carom {
namespace {

constexpr int kMaxInputPoints = 4 * kMaxPolygonVertices * 64;

// Signed area of the triangle (o, a, b) times two; > 0 for a left turn.
float turn(Vec2 o, Vec2 a, Vec2 b) {
    return cross(a - o, b - o);
}

}  // namespace

Polygon makePolygon(std::span<const Vec2> points, float radius) {
    detail::requireRange(radius, 0.0f, kMaxShapeRadius, "radius", " m");
    if (points.size() < 3)
        detail::refuse("points", "at least 3 points", std::to_string(points.size()));
    if (points.size() > size_t(kMaxInputPoints))
        detail::refuse("points", "at most " + std::to_string(kMaxInputPoints) + " points",
                       std::to_string(points.size()), ErrorCode::LimitExceeded);
    for (size_t i = 0; i < points.size(); ++i) {
        const Vec2 p = points[i];
        if (!(std::fabs(p.x) <= kMaxCoordinate && std::fabs(p.y) <= kMaxCoordinate))
            detail::refuseWhy("points", "points[" + std::to_string(i) +
                                            "] must be finite with both components within ±" +
                                            detail::formatFloat(kMaxCoordinate) + " m, got " +
                                            detail::formatVec(p));
    }

    // Weld near-duplicates (order-preserving, O(n²) on small inputs).
    std::vector<Vec2> ps;
    ps.reserve(points.size());
    const float weldSq = kWeldTolerance * kWeldTolerance;
    for (Vec2 p : points) {
        bool unique = true;
        for (Vec2 q : ps) {
            if (distanceSquared(p, q) < weldSq) {
                unique = false;
                break;
            }
        }
        if (unique) ps.push_back(p);
    }
    if (ps.size() < 3)
        detail::refuseWhy("points", "polygon points have no area (fewer than 3 distinct points)");

    std::sort(ps.begin(), ps.end(),
              [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });

    // Monotone chain: lower hull left→right, upper hull right→left.
    std::vector<Vec2> hull(2 * ps.size());
    size_t k = 0;
    for (size_t i = 0; i < ps.size(); ++i) {
        while (k >= 2 && turn(hull[k - 2], hull[k - 1], ps[i]) <= 0.0f) --k;
        hull[k++] = ps[i];
    }
    for (size_t i = ps.size() - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && turn(hull[k - 2], hull[k - 1], ps[i]) <= 0.0f) --k;
        hull[k++] = ps[i];
    }
    hull.resize(k > 0 ? k - 1 : 0);  // the last point repeats the first

    // Drop vertices that are collinear with their neighbours within the
    // linear slop (relative to the edge length), until none is.
    bool removed = true;
    while (removed && hull.size() >= 3) {
        removed = false;
        for (size_t i = 0; i < hull.size(); ++i) {
            Vec2 a = hull[(i + hull.size() - 1) % hull.size()];
            Vec2 b = hull[i];
            Vec2 c = hull[(i + 1) % hull.size()];
            Vec2 e = c - a;
            float len = length(e);
            if (len <= 0.0f) continue;
            float dist = std::fabs(cross(e, b - a)) / len;  // distance of b from line ac
            if (dist <= 2.0f * kLinearSlop * 0.1f) {
                hull.erase(hull.begin() + long(i));
                removed = true;
                break;
            }
        }
    }
    if (hull.size() < 3)
        detail::refuseWhy("points", "polygon points have no area (collinear or duplicate points)");
    if (hull.size() > size_t(kMaxPolygonVertices))
        detail::refuseWhy("points",
                          "polygon hull has " + std::to_string(hull.size()) +
                              " vertices, at most " + std::to_string(kMaxPolygonVertices) +
                              " are allowed",
                          ErrorCode::LimitExceeded);

    Polygon poly;
    poly.count = int(hull.size());
    poly.radius = radius;
    for (int i = 0; i < poly.count; ++i) poly.vertices[size_t(i)] = hull[size_t(i)];

    // Normals and area centroid (triangle fan about the first vertex, which
    // keeps round-off small for polygons far from the origin).
    float area = 0.0f;
    Vec2 c{0.0f, 0.0f};
    const Vec2 origin = poly.vertices[0];
    for (int i = 0; i < poly.count; ++i) {
        Vec2 v1 = poly.vertices[size_t(i)];
        Vec2 v2 = poly.vertices[size_t((i + 1) % poly.count)];
        poly.normals[size_t(i)] = normalizeOrZero(rightPerp(v2 - v1));
        float a = 0.5f * cross(v1 - origin, v2 - origin);
        c += a * (1.0f / 3.0f) * ((v1 - origin) + (v2 - origin));
        area += a;
    }
    if (!(area > kLinearSlop * kLinearSlop))
        detail::refuseWhy("points", "polygon points have no area");
    poly.centroid = origin + c * (1.0f / area);
    return poly;
}

}  // namespace carom
