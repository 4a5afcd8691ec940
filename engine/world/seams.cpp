// Tile seams: the endpoint index and the links (see seams.hpp).
//
// Rule (order-free, so the links never depend on the order of creation or
// on the broadphase): end e links to end f when f is the only other end
// within kSeamTolerance of e, e is the only one of f, they belong to
// different shapes, and, for two chain ends, one is an end point2 and the
// other a point1 (a chain is solid on one side: ends meeting point2 to point2
// face opposite ways). Ends of static bodies are compared in the world
// frame, ends of any other body only with ends of the same body, in its
// frame.
//
// Cost. Each end keeps the number of other shapes' ends within the
// tolerance and the XOR of their ids (SeamEnd), so the rule is read in
// O(1). Adding or removing an end at p updates the ends within the
// tolerance of p and relinks those and their partners. Buckets have a
// diagonal under the tolerance, so a bucket holding 4 ends or more is
// crowded: each of its ends meets at least two others (at most one of them
// is of its own shape) and is never linked. Crowded buckets keep no counts:
// they are counted whole when a count needs them and skipped by updates. A
// heap of identical segments, or of segments sharing one end point, thus
// costs O(1) per end, like a row of tiles, where the plain rule (count the
// ends near every end near the change) costs O(n) per end and O(n^2) for
// the heap.
#include "engine/world/seams.hpp"

#include <algorithm>
#include <cmath>

#include "engine/world/world_impl.hpp"

namespace carom::detail {
namespace {

constexpr double kBucket = 0.7 * double(kSeamTolerance);  // diagonal 0.99 kSeamTolerance
constexpr size_t kCrowd = 4;                              // ends that make a bucket crowded

bool same(Vec2 a, Vec2 b) {
    return a.x == b.x && a.y == b.y;
}

// The rule's distance test (symmetric: the same bits either way round).
bool meet(Vec2 a, Vec2 b) {
    return distanceSquared(a, b) <= kSeamTolerance * kSeamTolerance;
}

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

// The bucket column (or row) of x. In double: a float divided by the
// bucket side in float would lose the bucket far from the origin. Clamped
// (NaN included) so the conversion is defined.
int64_t bucketOf(double x) {
    constexpr double kLimit = 4.0e15;
    const double c = std::floor(x / kBucket);
    return int64_t(c < kLimit ? (c > -kLimit ? c : -kLimit) : kLimit);
}
int64_t cellOf(int64_t bucket) {
    return bucket >= 0 ? bucket / 3 : -((2 - bucket) / 3);
}
int placeOf(int64_t bx, int64_t by) {
    return int(bx - 3 * cellOf(bx)) + 3 * int(by - 3 * cellOf(by));
}

enum class Reach { None, Some, All };

// How much of bucket (bx, by) lies within the tolerance of p, with a margin
// far above rounding so that All means every end of the bucket meets p (the
// test `meet`) and None means none does.
Reach reach(int64_t bx, int64_t by, Vec2 p) {
    const double x0 = double(bx) * kBucket, x1 = x0 + kBucket, y0 = double(by) * kBucket,
                 y1 = y0 + kBucket;
    const double px = double(p.x), py = double(p.y), r = double(kSeamTolerance);
    const double fx = std::max(std::fabs(px - x0), std::fabs(px - x1));
    const double fy = std::max(std::fabs(py - y0), std::fabs(py - y1));
    if (fx * fx + fy * fy <= (0.999 * r) * (0.999 * r)) return Reach::All;
    const double nx = std::max({x0 - px, 0.0, px - x1}), ny = std::max({y0 - py, 0.0, py - y1});
    return nx * nx + ny * ny > (1.001 * r) * (1.001 * r) ? Reach::None : Reach::Some;
}

const Shape& shapeOf(const WorldState& w, int end) {
    return w.shapes[size_t(end >> 1)];
}
Vec2 pointOf(const WorldState& w, int end) {
    return shapeOf(w, end).seamPoint[end & 1];
}
bool indexed(const WorldState& w, int end) {
    return size_t(end >> 1) < w.shapes.size() &&
           (shapeOf(w, end).seamEnds & (1u << (end & 1))) != 0;
}
bool crowded(const SeamBucket& b) {
    return b.ends.size() >= kCrowd;
}

using CellMap = std::unordered_map<SeamCellKey, SeamCell, SeamCellHash>;

// The bucket of the indexed end e, and its cell.
SeamBucket& bucketOfEnd(WorldState& w, int e, CellMap::iterator& cell) {
    const Shape& s = shapeOf(w, e);
    const Vec2 p = s.seamPoint[e & 1];
    const int64_t bx = bucketOf(double(p.x)), by = bucketOf(double(p.y));
    auto it = w.seams.cells.find(SeamCellKey{cellOf(bx), cellOf(by), s.seamGroup});
    cell = it;
    const int place = placeOf(bx, by);
    for (SeamBucket& b : it->second.buckets)
        if (b.place == place) return b;
    return it->second.buckets.front();  // not reached: an indexed end has its bucket
}

// Visits the ends of `group` within the tolerance of p. With `count`,
// counts them all in n and XORs their ids into x (a crowded bucket in full
// reach whole); calls each(end) for every one in a bucket that keeps counts
// (not crowded, and not `skip`).
template <class Fn>
void visitNear(WorldState& w, int group, Vec2 p, bool count, int& n, int& x, const SeamBucket* skip,
               Fn&& each) {
    const double r = 1.001 * double(kSeamTolerance);
    const int64_t bx0 = bucketOf(double(p.x) - r), bx1 = bucketOf(double(p.x) + r);
    const int64_t by0 = bucketOf(double(p.y) - r), by1 = bucketOf(double(p.y) + r);
    for (int64_t cx = cellOf(bx0); cx <= cellOf(bx1); ++cx) {
        for (int64_t cy = cellOf(by0); cy <= cellOf(by1); ++cy) {
            auto it = w.seams.cells.find(SeamCellKey{cx, cy, group});
            if (it == w.seams.cells.end()) continue;
            for (SeamBucket& b : it->second.buckets) {
                const int64_t bx = 3 * cx + b.place % 3, by = 3 * cy + b.place / 3;
                if (bx < bx0 || bx > bx1 || by < by0 || by > by1) continue;
                const Reach rc = reach(bx, by, p);
                if (rc == Reach::None) continue;
                ++w.seams.visits;
                if (crowded(b)) {
                    if (!count) continue;
                    if (rc == Reach::All) {
                        n += int(b.ends.size());
                        x ^= b.xorEnds;
                        continue;
                    }
                    w.seams.visits += b.ends.size();
                    for (int f : b.ends)
                        if (meet(p, pointOf(w, f))) ++n, x ^= f;
                    continue;
                }
                w.seams.visits += b.ends.size();
                for (int f : b.ends) {
                    if (!meet(p, pointOf(w, f))) continue;
                    if (count) ++n, x ^= f;
                    if (&b != skip) each(f);
                }
            }
        }
    }
}

// Turns the count of every end meeting the indexed end e (e itself
// included, at distance 0) into the rule's: without e, and without its
// shape's other end.
void ownOut(const WorldState& w, int e, int n, int x, SeamEnd& out) {
    n -= 1;
    x ^= e;
    if (indexed(w, e ^ 1) && meet(pointOf(w, e), pointOf(w, e ^ 1))) n -= 1, x ^= e ^ 1;
    out.near = n;
    out.xorNear = x;
}

void countNear(WorldState& w, int e, SeamEnd& out) {
    int n = 0, x = 0;
    visitNear(w, shapeOf(w, e).seamGroup, pointOf(w, e), true, n, x, nullptr, [](int) {});
    ownOut(w, e, n, x, out);
}

void addEnd(WorldState& w, int x) {
    Shape& s = w.shapes[size_t(x >> 1)];
    const int k = x & 1;
    const Vec2 p = s.seamPoint[k];
    const int64_t bx = bucketOf(double(p.x)), by = bucketOf(double(p.y));
    SeamCell& cell = w.seams.cells[SeamCellKey{cellOf(bx), cellOf(by), s.seamGroup}];
    const int place = placeOf(bx, by);
    SeamBucket* home = nullptr;
    for (SeamBucket& b : cell.buckets)
        if (b.place == place) home = &b;
    if (!home) home = &cell.buckets.emplace_back(SeamBucket{place, 0, {}});
    w.seams.ends[size_t(x)] = SeamEnd{};
    w.seams.ends[size_t(x)].slot = int(home->ends.size());
    home->ends.push_back(x);
    home->xorEnds ^= x;
    s.seamEnds = uint8_t(s.seamEnds | (1u << k));
    const bool count = !crowded(*home);
    int n = 0, xr = 0;
    visitNear(w, s.seamGroup, p, count, n, xr, nullptr, [&](int f) {
        if ((f >> 1) == (x >> 1)) return;  // x itself, and its shape's other end
        SeamEnd& d = w.seams.ends[size_t(f)];
        d.near += 1;
        d.xorNear ^= x;
        w.seams.touched.push_back(f);
    });
    if (count) {
        ownOut(w, x, n, xr, w.seams.ends[size_t(x)]);
    } else {
        w.seams.ends[size_t(x)].near = kSeamCrowded;
        if (home->ends.size() == kCrowd)  // just crowded: its ends stop counting
            for (int f : home->ends)
                w.seams.ends[size_t(f)].near = kSeamCrowded, w.seams.touched.push_back(f);
    }
    w.seams.touched.push_back(x);
}

void removeEnd(WorldState& w, int x) {
    Shape& s = w.shapes[size_t(x >> 1)];
    const int k = x & 1;
    CellMap::iterator cell;
    SeamBucket& home = bucketOfEnd(w, x, cell);
    const bool wasCrowded = crowded(home);
    SeamEnd& d = w.seams.ends[size_t(x)];
    const int moved = home.ends.back();
    home.ends[size_t(d.slot)] = moved;
    w.seams.ends[size_t(moved)].slot = d.slot;
    home.ends.pop_back();
    home.xorEnds ^= x;
    if (d.link >= 0) w.seams.touched.push_back(d.link);
    int n = 0, xr = 0;
    // The ends of a bucket that was crowded have no counts to update.
    visitNear(w, s.seamGroup, s.seamPoint[k], false, n, xr, wasCrowded ? &home : nullptr,
              [&](int f) {
                  if ((f >> 1) == (x >> 1)) return;
                  SeamEnd& e = w.seams.ends[size_t(f)];
                  e.near -= 1;
                  e.xorNear ^= x;
                  w.seams.touched.push_back(f);
              });
    s.seamEnds = uint8_t(s.seamEnds & ~(1u << k));
    s.seamShape[k] = -1;
    w.seams.ends[size_t(x)] = SeamEnd{};
    if (wasCrowded && !crowded(home)) {  // no longer crowded: its ends count again
        for (int f : home.ends) {
            countNear(w, f, w.seams.ends[size_t(f)]);
            w.seams.touched.push_back(f);
        }
    }
    if (home.ends.empty()) {
        std::vector<SeamBucket>& buckets = cell->second.buckets;
        const size_t i = size_t(&home - buckets.data());
        if (i + 1 != buckets.size()) buckets[i] = std::move(buckets.back());
        buckets.pop_back();
        if (buckets.empty()) w.seams.cells.erase(cell);
    }
}

// The link of end e from the counts (a pure function of them).
void relinkEnd(WorldState& w, int e) {
    if (!indexed(w, e)) return;
    Shape& s = w.shapes[size_t(e >> 1)];
    SeamEnd& d = w.seams.ends[size_t(e)];
    const int k = e & 1;
    d.link = -1;
    s.seamShape[k] = -1;
    if (d.near != 1) return;
    const int partner = d.xorNear;
    if (w.seams.ends[size_t(partner)].near != 1) return;  // then its one end is e
    const Shape& f = shapeOf(w, partner);
    const int fk = partner & 1;
    if (s.type == ShapeType::ChainSegment && f.type == ShapeType::ChainSegment && k == fk) return;
    Vec2 point{}, far{};
    openEnd(f, fk, point, far);
    if (s.seamGroup < 0)  // static: through the world frame
        far = invTransformPoint(w.bodies[size_t(s.body)].xf,
                                transformPoint(w.bodies[size_t(f.body)].xf, far));
    d.link = partner;
    s.seamShape[k] = partner >> 1;
    s.seamGhost[k] = far;
}

// Relinks every touched end, the end linked to it before and the end it
// may link to now: a link depends only on the two ends' counts.
void relinkTouched(WorldState& w) {
    std::vector<int>& touched = w.seams.touched;
    for (size_t i = 0; i < touched.size(); ++i) {
        const int e = touched[i];
        const int before = indexed(w, e) ? w.seams.ends[size_t(e)].link : -1;
        relinkEnd(w, e);
        if (before >= 0) relinkEnd(w, before);
        if (indexed(w, e) && w.seams.ends[size_t(e)].near == 1)
            relinkEnd(w, w.seams.ends[size_t(e)].xorNear);
    }
    touched.clear();
}

void growEnds(WorldState& w) {
    if (w.seams.ends.size() < 2 * w.shapes.size()) w.seams.ends.resize(2 * w.shapes.size());
}

}  // namespace

void seamAddShape(WorldImpl& w, int shapeIndex) {
    if (!w.def.joinTileSeams) return;
    Shape& s = w.shapes[size_t(shapeIndex)];
    const Body& b = w.bodies[size_t(s.body)];
    if (!b.enabled) return;  // a disabled body's ends join when it is enabled (enableBody)
    growEnds(w);
    s.seamGroup = b.type == BodyType::Static ? -1 : s.body;
    for (int k = 0; k < 2; ++k) {
        Vec2 point{}, far{};
        if (!openEnd(s, k, point, far)) continue;
        s.seamPoint[k] = s.seamGroup < 0 ? transformPoint(b.xf, point) : point;
        addEnd(w, shapeIndex * 2 + k);
    }
    relinkTouched(w);
}

void seamRemoveShape(WorldImpl& w, int shapeIndex) {
    const Shape& s = w.shapes[size_t(shapeIndex)];
    if (s.seamEnds == 0) return;
    for (int k = 0; k < 2; ++k)
        if (s.seamEnds & (1u << k)) removeEnd(w, shapeIndex * 2 + k);
    relinkTouched(w);
}

void seamRemoveBody(WorldImpl& w, int bodyIndex) {
    for (int s : w.bodies[size_t(bodyIndex)].shapes) seamRemoveShape(w, s);
}

void seamAddBody(WorldImpl& w, int bodyIndex) {
    for (int s : w.bodies[size_t(bodyIndex)].shapes) seamAddShape(w, s);
}

void seamRebuild(WorldState& w) {
    w.seams.cells.clear();
    w.seams.touched.clear();
    w.seams.ends.assign(2 * w.shapes.size(), SeamEnd{});
    for (size_t i = 0; i < w.shapes.size(); ++i) {
        Shape& s = w.shapes[i];
        const uint8_t ends = s.seamEnds;
        s.seamEnds = 0;
        s.seamShape[0] = s.seamShape[1] = -1;
        for (int k = 0; k < 2; ++k)
            if (ends & (1u << k)) addEnd(w, int(i) * 2 + k);
    }
    relinkTouched(w);
}

Vec2 refCentroid(ShapeRef r) {
    switch (r.type) {
        case ShapeType::Circle:
            return static_cast<const Circle*>(r.geometry)->center;
        case ShapeType::Capsule: {
            const auto& g = *static_cast<const Capsule*>(r.geometry);
            return lerp(g.center1, g.center2, 0.5f);
        }
        case ShapeType::Segment: {
            const auto& g = *static_cast<const Segment*>(r.geometry);
            return lerp(g.point1, g.point2, 0.5f);
        }
        case ShapeType::Polygon:
            return polygonParts(r).centroid;
        case ShapeType::ChainSegment: {
            const auto& g = static_cast<const ChainSegment*>(r.geometry)->segment;
            return lerp(g.point1, g.point2, 0.5f);
        }
        default:
            return {0.0f, 0.0f};
    }
}

ShapeRef seamShapeRef(const Shape& s, Vec2 otherCentroid, ShapeType otherType,
                      ChainSegment& storage) {
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
