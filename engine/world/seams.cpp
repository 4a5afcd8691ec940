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

void relinkTouched(WorldState& w);

// ---------------------------------------------------------------------------
// Polygon tiles (SeamTile). A tile's exposed pieces are a function of the
// static polygon tiles alone; a piece's ghosts of those and of the open
// ends; an open end's link to a piece of those too. So an update recomputes,
// in that order, the pieces of the tiles near the change, the ghosts of the
// tiles near those, and the links of the ends at their pieces' ends: every
// result is a pure function of the geometry, whatever the order of edits.

constexpr double kTileCell = 1.0;       // metres: the side of a tile-index cell
constexpr int64_t kMaxTileCells = 256;  // a tile spanning more cells is listed in bigTiles

ShapeRef polyRef(const WorldState& w, const Shape& s) {
    return s.polygon >= 0 ? makeRef(w.polygons[size_t(s.polygon)]) : makeRef(s.geom.polygon);
}

bool tileEligible(const WorldState& w, const Shape& s) {
    if (!w.def.joinTileSeams || !s.alive || s.isSensor || s.type != ShapeType::Polygon)
        return false;
    const Body& b = w.bodies[size_t(s.body)];
    return b.type == BodyType::Static && b.enabled && polygonParts(polyRef(w, s)).radius == 0.0f;
}

int64_t tileCellOf(double x) {
    constexpr double kLimit = 4.0e15;
    const double c = std::floor(x / kTileCell);
    return int64_t(c < kLimit ? (c > -kLimit ? c : -kLimit) : kLimit);
}

struct CellRange {
    int64_t x0, x1, y0, y1;
    bool big() const {
        return (x1 - x0 + 1) > kMaxTileCells || (y1 - y0 + 1) > kMaxTileCells ||
               (x1 - x0 + 1) * (y1 - y0 + 1) > kMaxTileCells;
    }
};

// The cells within the tolerance of the points' box.
CellRange cellsAround(const Vec2* p, int n) {
    double x0 = double(p[0].x), x1 = x0, y0 = double(p[0].y), y1 = y0;
    for (int i = 1; i < n; ++i) {
        x0 = std::min(x0, double(p[i].x)), x1 = std::max(x1, double(p[i].x));
        y0 = std::min(y0, double(p[i].y)), y1 = std::max(y1, double(p[i].y));
    }
    const double r = 2.0 * double(kSeamTolerance);
    return {tileCellOf(x0 - r), tileCellOf(x1 + r), tileCellOf(y0 - r), tileCellOf(y1 + r)};
}

// The tile slots listed within the tolerance of the points' box (sorted,
// each once; `self` left out).
void tilesAround(const WorldState& w, const Vec2* p, int n, int self, std::vector<int>& out) {
    out.clear();
    const CellRange c = cellsAround(p, n);
    const SeamIndex& x = w.seams;
    if (c.big()) {
        for (size_t t = 0; t < x.tiles.size(); ++t)
            if (x.tiles[t].shape >= 0) out.push_back(int(t));
    } else {
        for (int64_t cx = c.x0; cx <= c.x1; ++cx)
            for (int64_t cy = c.y0; cy <= c.y1; ++cy) {
                auto it = x.tileCells.find(SeamCellKey{cx, cy, -2});
                if (it != x.tileCells.end())
                    out.insert(out.end(), it->second.begin(), it->second.end());
            }
        out.insert(out.end(), x.bigTiles.begin(), x.bigTiles.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    out.erase(std::remove(out.begin(), out.end(), self), out.end());
}

int edgeCount(const SeamTile& t) {
    return int(t.vertices.size());
}
Vec2 edgeStart(const SeamTile& t, int i) {
    return t.vertices[size_t(i)];
}
Vec2 edgeEnd(const SeamTile& t, int i) {
    return t.vertices[size_t(i + 1 == edgeCount(t) ? 0 : i + 1)];
}
// p within the tolerance of the line through a and b.
bool onLine(Vec2 a, Vec2 b, Vec2 p) {
    const Vec2 d = b - a;
    const float len = length(d);
    return len > 0.0f && std::fabs(cross(d, p - a)) <= kSeamTolerance * len;
}
// The parts of edge i of t that other tiles' edges, facing the other way
// along the same line, leave uncovered (gaps wider than the tolerance), as
// distances from its first vertex, appended to out.
void uncovered(const WorldState& w, const SeamTile& t, int i, const std::vector<int>& near,
               std::vector<std::pair<float, float>>& out) {
    const Vec2 p1 = edgeStart(t, i), p2 = edgeEnd(t, i);
    const Vec2 d = p2 - p1;
    const float len = length(d);
    if (!(len > 0.0f)) return;
    const Vec2 u = (1.0f / len) * d;
    std::vector<std::pair<float, float>> spans;
    for (int n : near) {
        const SeamTile& o = w.seams.tiles[size_t(n)];
        for (int j = 0; j < edgeCount(o); ++j) {
            const Vec2 q1 = edgeStart(o, j), q2 = edgeEnd(o, j);
            if (!(dot(q2 - q1, d) < 0.0f) || !onLine(p1, p2, q1) || !onLine(p1, p2, q2)) continue;
            const float a = dot(q1 - p1, u), b = dot(q2 - p1, u);
            spans.push_back({std::min(a, b), std::max(a, b)});
        }
    }
    std::sort(spans.begin(), spans.end());
    float reached = 0.0f;  // covered up to here (or open from here)
    for (const auto& [a, b] : spans) {
        if (b <= reached) continue;
        if (a > reached + kSeamTolerance) out.push_back({reached, std::min(a, len)});
        if (a >= len) break;
        reached = std::max(reached, b);
    }
    if (reached < len - kSeamTolerance) out.push_back({reached, len});
}

// The far point (world frame) of open end e.
Vec2 endFar(const WorldState& w, int e) {
    const Shape& s = shapeOf(w, e);
    Vec2 point{}, far{};
    openEnd(s, e & 1, point, far);
    return transformPoint(w.bodies[size_t(s.body)].xf, far);
}

// What continues the surface of an exposed piece of tile `self` at its
// point v: after v (next, the piece ends at v) or before v (the piece starts
// at v). Candidates: an exposed piece of another tile starting (next) or
// ending (before) at v (pieces split where other tiles' edges cover them,
// so a step's wall ends at the foot of the step); a segment or chain end at v
// (from a side face below a segment or a chain end, the corner it makes is
// concave: the face gives no normals round it). Returns how many there are
// (saturated at 2) and, for one, its far point in `ghost`.
int continuation(WorldState& w, int self, Vec2 v, bool next, const std::vector<int>& near,
                 Vec2& ghost) {
    int count = 0;
    for (int n : near) {
        if (n == self) continue;
        for (const SeamPiece& p : w.seams.tiles[size_t(n)].pieces) {
            if (meet(next ? p.p1 : p.p2, v)) {
                ghost = next ? p.p2 : p.p1;
                if (++count > 1) return 2;
            }
        }
    }
    int n = 0, x = 0;
    visitNear(w, -1, v, true, n, x, nullptr, [](int) {});
    if (n > 1) return 2;
    if (n == 1) {
        ghost = endFar(w, x);
        ++count;
    }
    return std::min(count, 2);
}

void tilePieces(WorldState& w, int slot, std::vector<int>& near) {
    SeamTile& t = w.seams.tiles[size_t(slot)];
    tilesAround(w, t.vertices.data(), edgeCount(t), slot, near);
    const Shape& s = w.shapes[size_t(t.shape)];
    const Transform& xf = w.bodies[size_t(s.body)].xf;
    const PolygonParts g = polygonParts(polyRef(w, s));
    t.pieces.clear();
    t.covered = false;
    std::vector<std::pair<float, float>> open;
    for (int i = 0; i < edgeCount(t); ++i) {
        open.clear();
        uncovered(w, t, i, near, open);
        const Vec2 p1 = edgeStart(t, i), p2 = edgeEnd(t, i);
        const float len = length(p2 - p1);
        for (const auto& [a, b] : open) {
            SeamPiece p;
            p.edgeIndex = i;
            p.atVertex = uint8_t((a == 0.0f ? 1 : 0) | (b == len ? 2 : 0));
            p.p1 = a == 0.0f ? p1 : p1 + (a / len) * (p2 - p1);
            p.p2 = b == len ? p2 : p1 + (b / len) * (p2 - p1);
            p.edge.segment.point1 = a == 0.0f ? g.vertices[i] : invTransformPoint(xf, p.p1);
            p.edge.segment.point2 =
                b == len ? g.vertices[(i + 1) % g.count] : invTransformPoint(xf, p.p2);
            p.edge.chainIndex = -1;
            t.pieces.push_back(p);
        }
        if (!(open.size() == 1 && open[0].first == 0.0f && open[0].second == len)) t.covered = true;
    }
}

void tileGhosts(WorldState& w, int slot, std::vector<int>& near) {
    SeamTile& t = w.seams.tiles[size_t(slot)];
    Shape& s = w.shapes[size_t(t.shape)];
    tilesAround(w, t.vertices.data(), edgeCount(t), slot, near);
    const Transform& xf = w.bodies[size_t(s.body)].xf;
    const int m = edgeCount(t);
    const size_t np = t.pieces.size();
    bool linked = t.covered;
    for (size_t k = 0; k < np; ++k) {
        SeamPiece& p = t.pieces[k];
        const SeamPiece& prev = t.pieces[(k + np - 1) % np];
        const SeamPiece& next = t.pieces[(k + 1) % np];
        p.free = 0;
        p.concave = 0;
        Vec2 ghost{};
        // The own polygon continues the piece at a vertex whose other edge
        // is uncovered there.
        const bool ownPrev =
            (p.atVertex & 1) && (prev.atVertex & 2) && prev.edgeIndex == (p.edgeIndex + m - 1) % m;
        const bool ownNext =
            (p.atVertex & 2) && (next.atVertex & 1) && next.edgeIndex == (p.edgeIndex + 1) % m;
        if (continuation(w, slot, p.p1, false, near, ghost) == 1) {
            p.edge.ghost1 = invTransformPoint(xf, ghost);
            if (cross(p.p1 - ghost, p.p2 - p.p1) < 0.0f) p.concave |= 1;
            linked = true;
        } else if (ownPrev) {
            p.edge.ghost1 = prev.edge.segment.point1;
        } else {
            p.edge.ghost1 = p.edge.segment.point1;
            p.free |= 1;
        }
        if (continuation(w, slot, p.p2, true, near, ghost) == 1) {
            p.edge.ghost2 = invTransformPoint(xf, ghost);
            if (cross(p.p2 - p.p1, ghost - p.p2) < 0.0f) p.concave |= 2;
            linked = true;
        } else if (ownNext) {
            p.edge.ghost2 = next.edge.segment.point2;
        } else {
            p.edge.ghost2 = p.edge.segment.point2;
            p.free |= 2;
        }
    }
    s.seamTileLinked = linked;
}

// Open end e (static, meeting no other end) continued by exactly one exposed
// tile edge at its point: linked to that tile (the edge's far point is its
// ghost). A chain end takes an edge running on the same way; a segment end
// one that turns by less than a right angle.
void linkEndToTile(WorldState& w, int e) {
    if (w.seams.tiles.empty()) return;
    Shape& s = w.shapes[size_t(e >> 1)];
    const int k = e & 1;
    const Vec2 p = s.seamPoint[k];
    const Vec2 far = endFar(w, e);
    std::vector<int> near;
    tilesAround(w, &p, 1, -1, near);
    int count = 0, tileShape = -1;
    Vec2 ghost{};
    for (int n : near) {
        const SeamTile& o = w.seams.tiles[size_t(n)];
        for (const SeamPiece& piece : o.pieces) {
            const Vec2 q1 = piece.p1, q2 = piece.p2;
            for (int end = 0; end < 2; ++end) {
                const Vec2 at = end == 0 ? q1 : q2, other = end == 0 ? q2 : q1;
                if (!meet(at, p)) continue;
                const bool fits = s.type == ShapeType::ChainSegment
                                      ? end == 1 - k
                                      : dot(other - p, far - p) < 0.0f;
                if (!fits) continue;
                ++count;
                ghost = other;
                tileShape = o.shape;
            }
        }
    }
    if (count != 1) return;
    s.seamShape[k] = tileShape;
    s.seamGhost[k] = invTransformPoint(w.bodies[size_t(s.body)].xf, ghost);
}

void listTile(WorldState& w, int slot) {
    SeamTile& t = w.seams.tiles[size_t(slot)];
    const CellRange c = cellsAround(t.vertices.data(), edgeCount(t));
    t.cells.clear();
    if (c.big()) {
        w.seams.bigTiles.push_back(slot);
        return;
    }
    for (int64_t cx = c.x0; cx <= c.x1; ++cx)
        for (int64_t cy = c.y0; cy <= c.y1; ++cy) {
            const SeamCellKey key{cx, cy, -2};
            w.seams.tileCells[key].push_back(slot);
            t.cells.push_back(key);
        }
}

void unlistTile(WorldState& w, int slot) {
    SeamTile& t = w.seams.tiles[size_t(slot)];
    if (t.cells.empty()) {
        auto& big = w.seams.bigTiles;
        big.erase(std::remove(big.begin(), big.end(), slot), big.end());
    }
    for (const SeamCellKey& key : t.cells) {
        auto it = w.seams.tileCells.find(key);
        std::vector<int>& list = it->second;
        list.erase(std::remove(list.begin(), list.end(), slot), list.end());
        if (list.empty()) w.seams.tileCells.erase(it);
    }
    t.cells.clear();
}

// Puts shape si in the tile index (not yet masked or ghosted); returns its slot.
int insertTile(WorldState& w, int si) {
    Shape& s = w.shapes[size_t(si)];
    int slot;
    if (!w.seams.freeTiles.empty()) {
        slot = w.seams.freeTiles.back();
        w.seams.freeTiles.pop_back();
    } else {
        slot = int(w.seams.tiles.size());
        w.seams.tiles.emplace_back();
    }
    SeamTile& t = w.seams.tiles[size_t(slot)];
    const PolygonParts g = polygonParts(polyRef(w, s));
    const Transform& xf = w.bodies[size_t(s.body)].xf;
    t.shape = si;
    t.vertices.resize(size_t(g.count));
    for (int i = 0; i < g.count; ++i) t.vertices[size_t(i)] = transformPoint(xf, g.vertices[i]);
    t.pieces.clear();
    t.covered = false;
    s.seamTile = slot;
    s.seamTileLinked = false;
    listTile(w, slot);
    return slot;
}

// Recomputes what a change within the box of the points can alter: the
// exposed pieces of the tiles there, the ghosts of the tiles near those, the
// links of the ends at their vertices.
void refreshTiles(WorldState& w, const Vec2* points, int n, std::vector<Vec2> ends = {}) {
    if (w.seams.tiles.empty() && ends.empty()) return;
    std::vector<int> first, second, near, scratch;
    tilesAround(w, points, n, -1, first);
    // The ends that may link to a piece: at the pieces' ends, before and after.
    auto pieceEnds = [&](int t) {
        for (const SeamPiece& p : w.seams.tiles[size_t(t)].pieces)
            ends.insert(ends.end(), {p.p1, p.p2});
    };
    for (int t : first) pieceEnds(t);
    for (int t : first) tilePieces(w, t, near);
    second = first;
    for (int t : first) {
        const SeamTile& x = w.seams.tiles[size_t(t)];
        tilesAround(w, x.vertices.data(), edgeCount(x), -1, scratch);
        second.insert(second.end(), scratch.begin(), scratch.end());
    }
    std::sort(second.begin(), second.end());
    second.erase(std::unique(second.begin(), second.end()), second.end());
    for (int t : second) tileGhosts(w, t, near);
    for (int t : first) pieceEnds(t);
    for (const Vec2& v : ends) {
        int cnt = 0, xr = 0;
        visitNear(w, -1, v, false, cnt, xr, nullptr, [&](int f) { w.seams.touched.push_back(f); });
    }
    relinkTouched(w);
}

// The link of end e from the counts (a pure function of them).
void relinkEnd(WorldState& w, int e) {
    if (!indexed(w, e)) return;
    Shape& s = w.shapes[size_t(e >> 1)];
    SeamEnd& d = w.seams.ends[size_t(e)];
    const int k = e & 1;
    d.link = -1;
    s.seamShape[k] = -1;
    if (d.near == 0 && s.seamGroup < 0) {
        linkEndToTile(w, e);
        return;
    }
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
    if (s.type == ShapeType::Polygon) {
        if (!tileEligible(w, s)) return;
        const int slot = insertTile(w, shapeIndex);
        const std::vector<Vec2> v = w.seams.tiles[size_t(slot)].vertices;
        refreshTiles(w, v.data(), int(v.size()));
        return;
    }
    growEnds(w);
    s.seamGroup = b.type == BodyType::Static ? -1 : s.body;
    Vec2 points[2];
    int n = 0;
    for (int k = 0; k < 2; ++k) {
        Vec2 point{}, far{};
        if (!openEnd(s, k, point, far)) continue;
        s.seamPoint[k] = s.seamGroup < 0 ? transformPoint(b.xf, point) : point;
        addEnd(w, shapeIndex * 2 + k);
        if (s.seamGroup < 0) points[n++] = s.seamPoint[k];
    }
    relinkTouched(w);
    // Tile edges at the new ends may now continue into them.
    for (int i = 0; i < n; ++i) refreshTiles(w, &points[i], 1);
}

void seamRemoveShape(WorldImpl& w, int shapeIndex) {
    Shape& s = w.shapes[size_t(shapeIndex)];
    if (s.seamTile >= 0) {
        const int slot = s.seamTile;
        unlistTile(w, slot);
        SeamTile& t = w.seams.tiles[size_t(slot)];
        const std::vector<Vec2> v = std::move(t.vertices);
        std::vector<Vec2> ends;  // where ends may have been linked to it
        for (const SeamPiece& p : t.pieces) ends.insert(ends.end(), {p.p1, p.p2});
        t = SeamTile{};
        w.seams.freeTiles.push_back(slot);
        s.seamTile = -1;
        s.seamTileLinked = false;
        refreshTiles(w, v.data(), int(v.size()), std::move(ends));
        return;
    }
    if (s.seamEnds == 0) return;
    Vec2 points[2];
    int n = 0;
    for (int k = 0; k < 2; ++k)
        if (s.seamEnds & (1u << k)) {
            if (s.seamGroup < 0) points[n++] = s.seamPoint[k];
            removeEnd(w, shapeIndex * 2 + k);
        }
    relinkTouched(w);
    for (int i = 0; i < n; ++i) refreshTiles(w, &points[i], 1);
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
    w.seams.tiles.clear();
    w.seams.freeTiles.clear();
    w.seams.tileCells.clear();
    w.seams.bigTiles.clear();
    w.seams.ends.assign(2 * w.shapes.size(), SeamEnd{});
    for (size_t i = 0; i < w.shapes.size(); ++i) {
        Shape& s = w.shapes[i];
        const uint8_t ends = s.seamEnds;
        s.seamEnds = 0;
        s.seamShape[0] = s.seamShape[1] = -1;
        s.seamTile = -1;
        s.seamTileLinked = false;
        for (int k = 0; k < 2; ++k)
            if (ends & (1u << k)) addEnd(w, int(i) * 2 + k);
        if (tileEligible(w, s)) insertTile(w, int(i));
    }
    std::vector<int> near;
    for (size_t t = 0; t < w.seams.tiles.size(); ++t) tilePieces(w, int(t), near);
    for (size_t t = 0; t < w.seams.tiles.size(); ++t) tileGhosts(w, int(t), near);
    relinkTouched(w);
}

namespace {

bool insidePolygon(const PolygonParts& g, Vec2 p) {
    for (int i = 0; i < g.count; ++i)
        if (!(dot(g.normals[i], p - g.vertices[i]) < 0.0f)) return false;
    return true;
}

float deepest(const Manifold& m) {
    float d = m.points[0].separation;
    for (int i = 1; i < m.pointCount; ++i) d = std::min(d, m.points[i].separation);
    return d;
}

}  // namespace

bool tilePiece(const SeamPiece& p, Vec2 centroid, ShapeType otherType, ChainSegment& c) {
    c = p.edge;
    const Vec2 q1 = c.segment.point1, q2 = c.segment.point2;
    if ((p.concave & 1) && cross(q1 - c.ghost1, centroid - q1) > 0.0f) return false;
    if ((p.concave & 2) && cross(c.ghost2 - q2, centroid - q2) > 0.0f) return false;
    if (p.free != 0) {
        // As seamShapeRef resolves a segment's free end.
        const Vec2 behind = otherType == ShapeType::Circle ? Vec2{0.0f, 0.0f} : rightPerp(q2 - q1);
        if (p.free & 1) c.ghost1 = q1 - behind;
        if (p.free & 2) c.ghost2 = q2 - behind;
    }
    return true;
}

bool seamCornerHidden(const ChainSegment& c, Vec2 normal) {
    const Vec2 e = c.segment.point2 - c.segment.point1;
    const float len = length(e);
    if (!(len > 0.0f)) return false;
    const float lean = dot(normal, e) / len;
    constexpr float kLean = 1.0e-3f;  // radians, far above rounding
    auto smooth = [&](Vec2 before, Vec2 after) {
        const float lb = length(before), la = length(after);
        return lb > 0.0f && la > 0.0f && cross(before, after) <= kLean * lb * la;
    };
    if (lean > kLean) return smooth(e, c.ghost2 - c.segment.point2);
    if (lean < -kLean) return smooth(c.segment.point1 - c.ghost1, e);
    return false;
}

const SeamTile* tileToCollide(const WorldState& w, const Shape& ts, Vec2 inside) {
    if (!ts.seamTileLinked) return nullptr;
    if (insidePolygon(polygonParts(polyRef(w, ts)), inside)) return nullptr;
    return &w.seams.tiles[size_t(ts.seamTile)];
}

Manifold collideTile(const WorldState& w, const Shape& ts, ShapeRef tileRef, const Transform& xfT,
                     ShapeRef other, const Transform& xfO, const AABB& otherBox, bool tileIsA,
                     SimplexCache* cache) {
    const Vec2 c = invTransformPoint(xfT, transformPoint(xfO, refCentroid(other)));
    const SeamTile* t = tileToCollide(w, ts, c);
    if (t == nullptr)
        return tileIsA ? collideShapes(tileRef, xfT, other, xfO, cache)
                       : collideShapes(other, xfO, tileRef, xfT, cache);
    // The deepest of the exposed pieces' manifolds (a chain segment collides
    // only a shape on its outer side, so at most the pieces round one corner
    // give points).
    Manifold best{};
    const float margin = 2.0f * kSpeculativeDistance;
    for (const SeamPiece& p : t->pieces) {
        // Pieces whose box is beyond the speculative distance of the other
        // shape's box give no points.
        if (std::min(p.p1.x, p.p2.x) - otherBox.upper.x > margin ||
            otherBox.lower.x - std::max(p.p1.x, p.p2.x) > margin ||
            std::min(p.p1.y, p.p2.y) - otherBox.upper.y > margin ||
            otherBox.lower.y - std::max(p.p1.y, p.p2.y) > margin)
            continue;
        ChainSegment edge;
        if (!tilePiece(p, c, other.type, edge)) continue;
        const ShapeRef e = makeRef(edge);
        const Manifold m = tileIsA ? collideShapes(e, xfT, other, xfO, nullptr)
                                   : collideShapes(other, xfO, e, xfT, nullptr);
        if (m.pointCount > 0 && (best.pointCount == 0 || deepest(m) < deepest(best))) best = m;
    }
    return best;
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
