// Tile seams: the endpoint hash and the links (see seams.hpp).
//
// Rule (order-free, so the links never depend on the order of creation or
// on the broadphase): end e links to end f when f is the only other end
// within kSeamTolerance of e, e is the only one of f, they belong to
// different shapes, and, for two chain ends, one is an end point2 and the
// other a point1 (a chain is solid on one side: ends meeting point2 to point2
// face opposite ways). Ends of static bodies are compared in the world
// frame, ends of any other body only with ends of the same body, in its
// frame. A change at point p can only change the links of ends within
// 2 kSeamTolerance of p (those whose count changed, and their partners), so
// every update relinks exactly those.
#include "engine/world/seams.hpp"

#include <algorithm>
#include <cmath>

#include "engine/world/world_impl.hpp"

namespace carom::detail {
namespace {

// A query reaches at most 2 kSeamTolerance from its point: with cells of
// twice that it touches at most 2 x 2 cells.
constexpr float kCell = 4.0f * kSeamTolerance;

bool same(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }

// End k of s in its body frame and the far point of its segment, when the
// end is open: both ends of a Segment; a chain segment's end whose ghost is
// the end itself (createChain's mark of an open chain end). Sensors are not
// surfaces.
bool openEnd(const Shape& s, int k, Vec2& point, Vec2& far) {
    if (s.isSensor) return false;
    if (s.type == ShapeType::Segment) {
        const Segment& g = s.geom.segment;
        point = k == 0 ? g.point1 : g.point2;
        far = k == 0 ? g.point2 : g.point1;
        return true;
    }
    if (s.type == ShapeType::ChainSegment) {
        const ChainSegment& c = s.geom.chainSegment;
        point = k == 0 ? c.segment.point1 : c.segment.point2;
        far = k == 0 ? c.segment.point2 : c.segment.point1;
        return same(k == 0 ? c.ghost1 : c.ghost2, point);
    }
    return false;
}

int32_t cellOf(float x) {
    const float c = std::floor(x / kCell);
    return int32_t(std::clamp(c, -1.0e9f, 1.0e9f));
}

uint64_t cellKey(int32_t ix, int32_t iy, int group) {
    // Different cells may share a key: lookups check the cell and the group.
    return (uint64_t(uint32_t(ix)) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(uint32_t(iy)) * 0xC2B2AE3D27D4EB4Full) ^
           (uint64_t(uint32_t(group)) * 0x165667B19E3779F9ull);
}

// Calls fn(end) for every indexed end of `group` within r of p, once each.
template <class Fn>
void forNear(const WorldImpl& w, int group, Vec2 p, float r, Fn&& fn) {
    const int32_t x0 = cellOf(p.x - r), x1 = cellOf(p.x + r);
    const int32_t y0 = cellOf(p.y - r), y1 = cellOf(p.y + r);
    for (int32_t ix = x0; ix <= x1; ++ix) {
        for (int32_t iy = y0; iy <= y1; ++iy) {
            auto it = w.seams.cells.find(cellKey(ix, iy, group));
            if (it == w.seams.cells.end()) continue;
            for (int end : it->second) {
                const Shape& o = w.shapes[size_t(end >> 1)];
                const Vec2 q = o.seamPoint[end & 1];
                if (o.seamGroup != group || cellOf(q.x) != ix || cellOf(q.y) != iy) continue;
                if (distanceSquared(p, q) <= r * r) fn(end);
            }
        }
    }
}

// Ends of other shapes within the tolerance of `end`; the last one in `other`.
int countNear(const WorldImpl& w, int end, int& other) {
    const Shape& s = w.shapes[size_t(end >> 1)];
    int count = 0;
    forNear(w, s.seamGroup, s.seamPoint[end & 1], kSeamTolerance, [&](int o) {
        if ((o >> 1) == (end >> 1)) return;
        ++count;
        other = o;
    });
    return count;
}

void relinkEnd(WorldImpl& w, int end) {
    Shape& s = w.shapes[size_t(end >> 1)];
    const int k = end & 1;
    s.seamShape[k] = -1;
    int partner = -1, back = -1;
    if (countNear(w, end, partner) != 1 || countNear(w, partner, back) != 1) return;
    const Shape& f = w.shapes[size_t(partner >> 1)];
    const int fk = partner & 1;
    if (s.type == ShapeType::ChainSegment && f.type == ShapeType::ChainSegment && k == fk) return;
    Vec2 point{}, far{};
    openEnd(f, fk, point, far);
    if (s.seamGroup < 0)  // static: through the world frame
        far = invTransformPoint(w.bodies[size_t(s.body)].xf, transformPoint(w.bodies[size_t(f.body)].xf, far));
    s.seamShape[k] = partner >> 1;
    s.seamGhost[k] = far;
}

void relinkAround(WorldImpl& w, int group, Vec2 p) {
    forNear(w, group, p, 2.0f * kSeamTolerance, [&](int end) { relinkEnd(w, end); });
}

}  // namespace

void seamAddShape(WorldImpl& w, int shapeIndex) {
    if (!w.def.joinTileSeams) return;
    Shape& s = w.shapes[size_t(shapeIndex)];
    const Body& b = w.bodies[size_t(s.body)];
    if (!b.enabled) return;  // a disabled body's ends join when it is enabled (enableBody)
    s.seamGroup = b.type == BodyType::Static ? -1 : s.body;
    for (int k = 0; k < 2; ++k) {
        Vec2 point{}, far{};
        if (!openEnd(s, k, point, far)) continue;
        s.seamPoint[k] = s.seamGroup < 0 ? transformPoint(b.xf, point) : point;
        s.seamEnds = uint8_t(s.seamEnds | (1u << k));
        w.seams.cells[cellKey(cellOf(s.seamPoint[k].x), cellOf(s.seamPoint[k].y), s.seamGroup)].push_back(
            shapeIndex * 2 + k);
    }
    for (int k = 0; k < 2; ++k)
        if (w.shapes[size_t(shapeIndex)].seamEnds & (1u << k))
            relinkAround(w, w.shapes[size_t(shapeIndex)].seamGroup, w.shapes[size_t(shapeIndex)].seamPoint[k]);
}

void seamRemoveShape(WorldImpl& w, int shapeIndex) {
    Shape& s = w.shapes[size_t(shapeIndex)];
    if (s.seamEnds == 0) return;
    const int group = s.seamGroup;
    const uint8_t ends = s.seamEnds;
    const Vec2 points[2] = {s.seamPoint[0], s.seamPoint[1]};
    for (int k = 0; k < 2; ++k) {
        if (!(ends & (1u << k))) continue;
        auto it = w.seams.cells.find(cellKey(cellOf(points[k].x), cellOf(points[k].y), group));
        if (it == w.seams.cells.end()) continue;
        auto& list = it->second;
        list.erase(std::find(list.begin(), list.end(), shapeIndex * 2 + k));
        if (list.empty()) w.seams.cells.erase(it);
    }
    s.seamEnds = 0;
    s.seamShape[0] = s.seamShape[1] = -1;
    for (int k = 0; k < 2; ++k)
        if (ends & (1u << k)) relinkAround(w, group, points[k]);
}

void seamRemoveBody(WorldImpl& w, int bodyIndex) {
    for (int s : w.bodies[size_t(bodyIndex)].shapes) seamRemoveShape(w, s);
}

void seamAddBody(WorldImpl& w, int bodyIndex) {
    for (int s : w.bodies[size_t(bodyIndex)].shapes) seamAddShape(w, s);
}

Vec2 refCentroid(ShapeRef r) {
    switch (r.type) {
        case ShapeType::Circle: return static_cast<const Circle*>(r.geometry)->center;
        case ShapeType::Capsule: {
            const auto& g = *static_cast<const Capsule*>(r.geometry);
            return lerp(g.center1, g.center2, 0.5f);
        }
        case ShapeType::Segment: {
            const auto& g = *static_cast<const Segment*>(r.geometry);
            return lerp(g.point1, g.point2, 0.5f);
        }
        case ShapeType::Polygon: return polygonParts(r).centroid;
        case ShapeType::ChainSegment: {
            const auto& g = static_cast<const ChainSegment*>(r.geometry)->segment;
            return lerp(g.point1, g.point2, 0.5f);
        }
        default: return {0.0f, 0.0f};
    }
}

ShapeRef seamShapeRef(const Shape& s, Vec2 otherCentroid, ShapeType otherType, ChainSegment& storage) {
    if (s.type == ShapeType::ChainSegment) {
        storage = s.geom.chainSegment;
        if (s.seamShape[0] >= 0) storage.ghost1 = s.seamGhost[0];
        if (s.seamShape[1] >= 0) storage.ghost2 = s.seamGhost[1];
        return makeRef(storage);
    }
    // A two-sided segment: this contact uses the side the other shape's
    // centroid is on (its collision side, the right of q1 -> q2).
    const Segment& g = s.geom.segment;
    const bool flip = dot(rightPerp(g.point2 - g.point1), otherCentroid - g.point1) < 0.0f;
    const int k1 = flip ? 1 : 0, k2 = 1 - k1;
    const Vec2 q1 = flip ? g.point2 : g.point1, q2 = flip ? g.point1 : g.point2;
    // A free end stays a true end. For a polygon that is a right-angle turn
    // into the solid side (a convex vertex: the normals round the end are
    // admitted); the circle routine instead gives the end point itself for a
    // ghost equal to the end (its open-chain rule), while a right-angle ghost
    // would hand the end region to a neighbour that does not exist.
    const Vec2 behind = otherType == ShapeType::Circle ? Vec2{0.0f, 0.0f} : rightPerp(q2 - q1);
    storage.segment = {q1, q2};
    storage.ghost1 = s.seamShape[k1] >= 0 ? s.seamGhost[k1] : q1 - behind;
    storage.ghost2 = s.seamShape[k2] >= 0 ? s.seamGhost[k2] : q2 - behind;
    storage.chainIndex = -1;
    return makeRef(storage);
}

}  // namespace carom::detail
