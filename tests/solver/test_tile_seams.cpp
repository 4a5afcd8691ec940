// Seamless tiled terrain (WorldDef::joinTileSeams): separate
// segments and chains that meet end to end collide as one chain would.
// Boxes, wheels and capsules cross 100 tile seams with no more vertical kick
// and no more speed loss than over one chain of the same points; the links
// follow destruction, moves and new geometry, and equal a brute-force
// endpoint search on random layouts; heaps of 100 000 ends at one point
// link in linear work; results stay deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "bench/seams/seam_crossing.hpp"
#include "tests/support/internals.hpp"
#include "tests/support/alloc_counter.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace test {}
namespace {

using test::kDt;

using namespace seams;

// Across 110 separate segments, 110 two-point chains and 10 chains end to
// end, a box, a wheel and a capsule (with and without friction) get no more
// vertical kick than over one chain of the same points, lose no speed beyond
// friction's, are not held back by continuous collision at a seam, and cross
// at least 100 seams. Without the links the segments kick and snag (what the
// test would see if linking broke).
TEST(TileSeams, CrossingTilesIsAsSmoothAsOneChain) {
    // The seams give the manifolds of the one chain bit for bit
    // (TileSeams.SeamIsAnInnerChainVertex), but a wheel centred on a vertex
    // touches both segments and the solver meets the two contacts in another
    // order (other bodies, other shape indices): up to 8.5e-4 m/s apart.
    constexpr float kKickEpsilon = 5.0e-3f;  // m/s, against 1.5-7 m/s without the links
    constexpr float kSnagLimit = 5.0e-3f;    // m/s per step beyond friction
    for (Mover m : kMovers) {
        for (float mu : {0.0f, 0.1f}) {
            const float friction = m == Mover::Wheel && mu == 0.0f ? 0.6f : mu;
            const Crossing chain = cross(Floor::OneChain, m, friction);
            EXPECT_GE(chain.seams, 100);
            for (Floor f : kTileFloors) {
                SCOPED_TRACE(testing::Message()
                             << name(m) << " mu " << friction << " over " << name(f));
                const Crossing c = cross(f, m, friction);
                EXPECT_GE(c.seams, 100);
                EXPECT_LE(c.kick, chain.kick + kKickEpsilon);
                EXPECT_LE(c.rise, chain.rise + kKickEpsilon);
                EXPECT_LE(c.snag, kSnagLimit);
                EXPECT_LE(c.lift, chain.lift + 1.0e-4f);
                EXPECT_LE(c.stall, chain.stall + 1.0e-4f);
            }
            const Crossing before = cross(Floor::Segments, m, friction, false);
            EXPECT_GT(before.kick, 1.0f) << name(m) << ": separate segments without links";
            EXPECT_GT(before.snag, 0.4f) << name(m) << ": separate segments without links";
        }
    }
}

void printCrossing(const char* mover, float friction, Floor f, const Crossing& c,
                   const Crossing& chain, const Crossing& off) {
    std::printf("| %-9s | %.1f | %-20s | %.4f | %.4f | %.4f | %d |\n", mover, double(friction),
                name(f), double(c.kick), double(chain.kick), double(off.kick), c.seams);
}

// Static polygon tiles that share edges (equal boxes, boxes of four widths
// and three depths, boxes two deep, boxes meeting chains and segments): a
// box, a wheel and a capsule sliding or rolling across get the largest
// vertical kick of one chain within 0.05 m/s (against metres per second
// without the links), and rise, lift, snag and stall no more than on the
// chain. Prints the table of docs/narrowphase.md ("Tile seams").
TEST(TileSeams, PolygonTilesAreAsSmoothAsOneChain) {
    constexpr float kKickEpsilon = 0.05f;  // m/s
    std::printf("| mover | mu | tiles | kick m/s | one chain | unlinked | seams |\n");
    for (Mover m : kMovers) {
        for (float mu : {0.0f, 0.1f}) {
            const float friction = m == Mover::Wheel && mu == 0.0f ? 0.6f : mu;
            const Crossing chain = cross(Floor::OneChain, m, friction);
            for (Floor f : kPolygonFloors) {
                SCOPED_TRACE(testing::Message()
                             << name(m) << " mu " << friction << " over " << name(f));
                const Crossing c = cross(f, m, friction);
                const Crossing off = cross(f, m, friction, false);
                printCrossing(name(m), friction, f, c, chain, off);
                EXPECT_GE(c.seams, 100);
                EXPECT_LE(c.kick, chain.kick + kKickEpsilon);
                EXPECT_LE(c.rise, chain.rise + kKickEpsilon);
                EXPECT_LE(c.snag, chain.snag + kKickEpsilon);
                EXPECT_LE(c.lift, chain.lift + 1.0e-3f);
                EXPECT_LE(c.stall, chain.stall + 1.0e-3f);
                EXPECT_GT(off.kick, 1.0f) << "without the links the tiles kick";
            }
        }
    }
}

// The character (a capsule moved by collideMover, solvePlanes and
// castMover) walks across the same polygon tile floors as over one chain:
// its largest vertical kick within 0.05 m/s of the chain's, and it is never
// lifted nor slowed more.
TEST(TileSeams, CharacterWalksPolygonTilesAsOneChain) {
    constexpr float kKickEpsilon = 0.05f;  // m/s
    const Crossing chain = walk(Floor::OneChain);
    EXPECT_GE(chain.seams, 100);
    for (Floor f : kPolygonFloors) {
        SCOPED_TRACE(name(f));
        const Crossing c = walk(f);
        const Crossing off = walk(f, false);
        printCrossing("character", 0.6f, f, c, chain, off);
        EXPECT_GE(c.seams, 100);
        EXPECT_LE(c.kick, chain.kick + kKickEpsilon);
        EXPECT_LE(c.rise, chain.rise + kKickEpsilon);
        EXPECT_LE(c.snag, chain.snag + kKickEpsilon);
        EXPECT_LE(c.lift, chain.lift + 1.0e-3f);
    }
}

// What the contact code collides for each inner tile (seamShapeRef, with a
// box above it) is, in world coordinates, bit for bit the segment of the one
// chain over the same points, ghosts included: a seam is an inner vertex.
TEST(TileSeams, SeamIsAnInnerChainVertex) {
    World one;
    buildFloor(one, Floor::OneChain, 0.6f);
    const auto& chainShapes = internals(one).shapes;
    for (Floor f : kTileFloors) {
        World w;
        const std::vector<BodyId> bodies = buildFloor(w, f, 0.6f);
        const detail::WorldImpl& im = internals(w);
        int compared = 0;
        for (size_t si = 0; si < im.shapes.size(); ++si) {
            const detail::Shape& s = im.shapes[si];
            if (!s.alive) continue;
            const Transform xf = im.bodies[size_t(s.body)].xf;
            const Vec2 mid =
                s.type == ShapeType::Segment
                    ? transformPoint(xf, lerp(s.geom.segment.point1, s.geom.segment.point2, 0.5f))
                    : lerp(s.geom.chainSegment.segment.point1, s.geom.chainSegment.segment.point2,
                           0.5f);
            const int tile = int(std::floor(mid.x / kTile));
            if (tile <= 0 || tile >= kTiles - 1) continue;  // the floor's own ends stay open
            ChainSegment storage;
            const detail::ShapeRef ref =
                detail::seamLinked(s)
                    ? detail::seamShapeRef(s, invTransformPoint(xf, mid + Vec2{0.0f, 1.0f}),
                                           ShapeType::Polygon, storage)
                    : internals(w).shapeRef(s);
            ASSERT_EQ(ref.type, ShapeType::ChainSegment) << name(f) << " tile " << tile;
            const ChainSegment got = *static_cast<const ChainSegment*>(ref.geometry);
            // The one chain runs right to left: tile i is its segment kTiles - 1 - i.
            const ChainSegment want = chainShapes[size_t(kTiles - 1 - tile)].geom.chainSegment;
            auto expectSame = [&](Vec2 local, Vec2 world, const char* what) {
                const Vec2 p = transformPoint(xf, local);
                EXPECT_TRUE(p.x == world.x && p.y == world.y)
                    << name(f) << " tile " << tile << " " << what;
            };
            expectSame(got.segment.point1, want.segment.point1, "point1");
            expectSame(got.segment.point2, want.segment.point2, "point2");
            expectSame(got.ghost1, want.ghost1, "ghost1");
            expectSame(got.ghost2, want.ghost2, "ghost2");
            ++compared;
        }
        EXPECT_EQ(compared, kTiles - 2) << name(f);
        EXPECT_EQ(bodies.empty(), false);
    }
}

// A wheel rolling fast over 100 seams of each kind never leaves the ground:
// its centre never rises above the resting height and it never moves up.
TEST(TileSeams, WheelNeverHops) {
    for (Floor f : kTileFloors) {
        for (bool join : {true, false}) {
            WorldDef def;
            def.joinTileSeams = join;
            World w(def);
            buildFloor(w, f, 0.6f);
            BodyId wheel = addMover(w, Mover::Wheel, 0.6f);
            for (int i = 0; i < 30; ++i) w.step(kDt);
            const float rest = w.position(wheel).y;
            launch(w, wheel, Mover::Wheel, 20.0f);
            float top = rest, up = -1.0f;
            for (int i = 0; i < 600 && w.position(wheel).x < 53.1f; ++i) {
                w.step(kDt);
                top = std::max(top, w.position(wheel).y);
                up = std::max(up, w.linearVelocity(wheel).y);
            }
            if (join) {
                EXPECT_GE(w.position(wheel).x, 53.1f) << name(f);
                EXPECT_LE(top, rest + 1.0e-5f) << name(f);
                EXPECT_LE(up, 0.0f) << name(f);
            } else {  // the hops the links remove
                EXPECT_GT(top, rest + 0.01f) << name(f) << " without links";
                EXPECT_GT(up, 1.0f) << name(f) << " without links";
            }
        }
    }
}

// ---- links against brute force ------------------------------------------

struct End {
    int shape = -1;
    int k = 0;
    int group = -1;
    Vec2 point{};  // world frame when static, else body frame
    Vec2 far{};    // body frame
    bool chain = false;
    BodyId body{};
};

// Every open end, from the public API (geometry, transform, type).
std::vector<End> openEnds(const World& w) {
    std::vector<End> out;
    const auto& shapes = internals(w).shapes;
    for (size_t i = 0; i < shapes.size(); ++i) {
        if (!shapes[i].alive) continue;
        const ShapeId id = internals(w).shapeId(int(i));
        if (w.isSensor(id)) continue;
        const BodyId b = w.shapeBody(id);
        if (!w.isEnabled(b)) continue;  // a disabled body's ends join when it is enabled
        const bool isStatic = w.bodyType(b) == BodyType::Static;
        const ShapeGeometry g = w.geometry(id);
        for (int k = 0; k < 2; ++k) {
            End e;
            e.shape = int(i);
            e.k = k;
            e.body = b;
            e.group = isStatic ? -1 : b.index;
            if (const Segment* s = std::get_if<Segment>(&g)) {
                e.point = k == 0 ? s->point1 : s->point2;
                e.far = k == 0 ? s->point2 : s->point1;
            } else if (const ChainSegment* c = std::get_if<ChainSegment>(&g)) {
                e.point = k == 0 ? c->segment.point1 : c->segment.point2;
                e.far = k == 0 ? c->segment.point2 : c->segment.point1;
                const Vec2 ghost = k == 0 ? c->ghost1 : c->ghost2;
                if (ghost.x != e.point.x || ghost.y != e.point.y) continue;
                e.chain = true;
            } else {
                continue;
            }
            if (isStatic) e.point = transformPoint(w.transform(b), e.point);
            out.push_back(e);
        }
    }
    return out;
}

// O(n^2): the documented rule, end by end, against the world's links.
void expectLinksMatchBruteForce(const World& w, const char* when) {
    const std::vector<End> ends = openEnds(w);
    const float tol2 = detail::kSeamTolerance * detail::kSeamTolerance;
    auto near = [&](size_t e, size_t& other) {
        int count = 0;
        for (size_t f = 0; f < ends.size(); ++f) {
            if (ends[f].shape == ends[e].shape || ends[f].group != ends[e].group) continue;
            if (distanceSquared(ends[e].point, ends[f].point) <= tol2) {
                ++count;
                other = f;
            }
        }
        return count;
    };
    int linked = 0, checked = 0;
    for (size_t e = 0; e < ends.size(); ++e) {
        size_t f = 0, back = 0;
        int expectShape = -1;
        Vec2 expectGhost{};
        if (near(e, f) == 1 && near(f, back) == 1 &&
            !(ends[e].chain && ends[f].chain && ends[e].k == ends[f].k)) {
            expectShape = ends[f].shape;
            expectGhost = ends[f].far;
            if (ends[e].group < 0)
                expectGhost =
                    invTransformPoint(w.transform(ends[e].body),
                                      transformPoint(w.transform(ends[f].body), expectGhost));
        }
        const detail::Shape& s = internals(w).shapes[size_t(ends[e].shape)];
        ++checked;
        // An end that meets no other end may continue into a polygon tile's
        // exposed edge (TileSeams.PolygonTile* check those links).
        const int got = s.seamShape[ends[e].k];
        if (expectShape < 0 && ends[e].group < 0 && near(e, f) == 0 && got >= 0 &&
            internals(w).shapes[size_t(got)].type == ShapeType::Polygon) {
            ++linked;
            continue;
        }
        EXPECT_EQ(s.seamShape[ends[e].k], expectShape)
            << when << ": shape " << ends[e].shape << " end " << ends[e].k;
        if (expectShape >= 0) {
            ++linked;
            EXPECT_EQ(s.seamGhost[ends[e].k].x, expectGhost.x) << when;
            EXPECT_EQ(s.seamGhost[ends[e].k].y, expectGhost.y) << when;
        }
    }
    // Ends that are not open (inner chain ends, polygons) are never linked.
    const auto& shapes = internals(w).shapes;
    int links = 0;
    for (const auto& s : shapes)
        if (s.alive) links += (s.seamShape[0] >= 0) + (s.seamShape[1] >= 0);
    EXPECT_EQ(links, linked) << when;
    EXPECT_GT(checked, 0) << when;
}

// Random layouts: tiles (segments on static bodies with random frames,
// 2- and 3-point chains either way round, tiles on one kinematic body, a few
// sensors and boxes) between shared nodes, some ends moved within the
// tolerance, some just outside, many 3- and 4-way junctions. Then random
// destruction, static moves, new geometry and type changes, each followed by
// the brute-force comparison.
TEST(TileSeams, LinksMatchBruteForceOnRandomLayouts) {
    std::mt19937 rng(14);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (int layout = 0; layout < 6; ++layout) {
        World w;
        std::vector<Vec2> nodes;
        for (int i = 0; i < 60; ++i)
            nodes.push_back({8.0f * unit(rng) - 4.0f, 8.0f * unit(rng) - 4.0f});
        auto jitter = [&](Vec2 p) {
            const float r = unit(rng);
            const float tol = detail::kSeamTolerance;
            const float a = 6.2831853f * unit(rng);
            const float d = r < 0.5f   ? 0.0f
                            : r < 0.8f ? 0.9f * tol * unit(rng)
                                       : tol * (1.0f + unit(rng));
            return Vec2{p.x + d * std::cos(a), p.y + d * std::sin(a)};
        };
        auto node = [&] { return nodes[size_t(rng() % nodes.size())]; };
        BodyDef kd;
        kd.type = BodyType::Kinematic;
        kd.position = {1.0f, 2.0f};
        kd.angle = 0.3f;
        const BodyId shared = w.createBody(kd);
        std::vector<BodyId> statics;
        std::vector<ShapeId> segments;
        std::vector<ChainId> chains;
        for (int t = 0; t < 120; ++t) {
            const float kind = unit(rng);
            Vec2 a = jitter(node()), b = jitter(node());
            if (distanceSquared(a, b) < 0.01f) continue;
            if (kind < 0.45f) {  // a segment on its own static body
                BodyDef bd;
                bd.position = {4.0f * unit(rng) - 2.0f, 4.0f * unit(rng) - 2.0f};
                bd.angle = 6.0f * unit(rng);
                const BodyId body = w.createBody(bd);
                statics.push_back(body);
                ShapeDef sd;
                sd.isSensor = unit(rng) < 0.05f;
                const Transform xf = w.transform(body);
                segments.push_back(w.createShape(
                    body, sd, Segment{invTransformPoint(xf, a), invTransformPoint(xf, b)}));
                if (unit(rng) < 0.1f) w.createShape(body, ShapeDef{}, makeBox(0.1f, 0.1f));
            } else if (kind < 0.75f) {  // a chain, sometimes bending at a third node
                ChainDef d;
                d.points = {a, b};
                if (unit(rng) < 0.4f) {
                    const Vec2 c = jitter(node());
                    if (distanceSquared(b, c) > 0.01f && distanceSquared(a, c) > 0.01f)
                        d.points.push_back(c);
                }
                if (unit(rng) < 0.5f) std::reverse(d.points.begin(), d.points.end());
                const BodyId body = w.createBody(BodyDef{});
                statics.push_back(body);
                chains.push_back(w.createChain(body, d));
            } else {  // tiles of one moving body, in its frame
                const Transform xf = w.transform(shared);
                if (unit(rng) < 0.5f) {
                    segments.push_back(
                        w.createShape(shared, ShapeDef{},
                                      Segment{invTransformPoint(xf, a), invTransformPoint(xf, b)}));
                } else {
                    ChainDef d;
                    d.points = {invTransformPoint(xf, a), invTransformPoint(xf, b)};
                    chains.push_back(w.createChain(shared, d));
                }
            }
        }
        expectLinksMatchBruteForce(w, "after creation");
        if (HasFailure()) return;
        for (int op = 0; op < 60; ++op) {
            const float r = unit(rng);
            if (r < 0.25f && !segments.empty()) {
                const size_t i = rng() % segments.size();
                if (w.isValid(segments[i])) w.destroyShape(segments[i]);
                segments.erase(segments.begin() + long(i));
            } else if (r < 0.4f && !chains.empty()) {
                const size_t i = rng() % chains.size();
                if (w.isValid(chains[i])) w.destroyChain(chains[i]);
                chains.erase(chains.begin() + long(i));
            } else if (r < 0.65f && !statics.empty()) {
                // Move a static body so that one of its ends lands on a node.
                const BodyId body = statics[rng() % statics.size()];
                if (!w.isValid(body)) continue;
                const Transform xf = w.transform(body);
                const float angle = 6.0f * unit(rng);
                w.setTransform(body, xf.p + (jitter(node()) - node()), angle);
            } else if (r < 0.85f && !segments.empty()) {
                const ShapeId id = segments[rng() % segments.size()];
                if (!w.isValid(id)) continue;
                const Transform xf = w.transform(w.shapeBody(id));
                const Vec2 a = jitter(node()), b = jitter(node());
                if (distanceSquared(a, b) < 0.01f) continue;
                w.setGeometry(id, Segment{invTransformPoint(xf, a), invTransformPoint(xf, b)});
            } else if (!statics.empty()) {
                const BodyId body = statics[rng() % statics.size()];
                if (!w.isValid(body)) continue;
                w.setBodyType(body, w.bodyType(body) == BodyType::Static ? BodyType::Kinematic
                                                                         : BodyType::Static);
            }
            expectLinksMatchBruteForce(w, "after an edit");
            if (HasFailure()) return;
        }
    }
}

// Ends added to one point one by one (its bucket crowding) and taken away
// again (thinning out), with ends in the same bucket, just inside and just
// outside the tolerance around it: the links equal the brute-force rule at
// every count.
TEST(TileSeams, CrowdingAndThinningEndsFollowTheRule) {
    World w;
    const float tol = detail::kSeamTolerance;
    const BodyId body = w.createBody(BodyDef{});
    w.createShape(body, ShapeDef{}, Segment{{0.9f * tol, 0.0f}, {1.0f, 1.0f}});
    w.createShape(body, ShapeDef{}, Segment{{-1.1f * tol, 0.0f}, {-1.0f, 1.0f}});
    w.createShape(body, ShapeDef{}, Segment{{0.0f, 1.9f * tol}, {0.0f, 1.0f}});
    std::vector<ShapeId> pile;
    for (int i = 0; i < 7; ++i) {
        const float a = 0.7f * float(i) - 2.0f;
        const Vec2 at = i == 3 ? Vec2{0.4f * tol, 0.2f * tol}
                               : Vec2{0.0f, 0.0f};  // one in the bucket, off the point
        pile.push_back(w.createShape(body, ShapeDef{}, Segment{at, {std::cos(a), std::sin(a)}}));
        expectLinksMatchBruteForce(w, "adding");
        if (HasFailure()) return;
    }
    for (size_t i : {size_t(2), size_t(5), size_t(0), size_t(6), size_t(3), size_t(1), size_t(4)}) {
        w.destroyShape(pile[i]);
        expectLinksMatchBruteForce(w, "removing");
        if (HasFailure()) return;
    }
}

// Segments on static bodies of 4000 shapes each (a scene file's body holds
// at most 4096); the bodies.
std::vector<BodyId> addStaticSegments(World& w, const std::vector<Segment>& segments) {
    std::vector<BodyId> bodies;
    for (size_t i = 0; i < segments.size(); ++i) {
        if (i % 4000 == 0) bodies.push_back(w.createBody(BodyDef{}));
        w.createShape(bodies.back(), ShapeDef{}, segments[i]);
    }
    return bodies;
}

int linkedEnds(const World& w) {
    int n = 0;
    for (const auto& s : internals(w).shapes)
        n += s.alive ? (s.seamShape[0] >= 0) + (s.seamShape[1] >= 0) : 0;
    return n;
}

constexpr int kPile = 100000;
// Ends and buckets an update may visit per end, with room: a heap of ends
// whose every update visited the whole heap would reach n^2/2 = 5e9.
constexpr uint64_t kVisitsPerEnd = 100;

// Linking took time cubic in the number of ends at one point (4096
// identical segments did not load in 90 s). 100 000 copies of one segment
// from (-5000, 0) to (5000, 0), and 100 000 segments from one end point to
// a ring of points 0.6 mm apart (a crowd of distinct points): every end
// meets many others, so nothing links, and the work stays linear while they
// are created and destroyed. The last two of each heap link as the rule says.
TEST(TileSeams, HeapsOfAHundredThousandEndsLinkInLinearWork) {
    for (const bool identical : {true, false}) {
        const char* layout = identical ? "identical segments" : "segments sharing one end point";
        World w;
        std::vector<Segment> segments;
        segments.reserve(kPile);
        for (int i = 0; i < kPile; ++i) {
            const float a = 6.2831853f * float(i) / float(kPile);
            segments.push_back(
                identical ? Segment{{-5000.0f, 0.0f}, {5000.0f, 0.0f}}
                          : Segment{{0.0f, 0.0f}, {10.0f * std::cos(a), 10.0f * std::sin(a)}});
        }
        const std::vector<BodyId> bodies = addStaticSegments(w, segments);
        EXPECT_EQ(linkedEnds(w), 0) << layout;
        EXPECT_LE(internals(w).seams.visits, kVisitsPerEnd * 2 * kPile) << layout;
        for (size_t b = 1; b < bodies.size(); ++b) w.destroyBody(bodies[b]);
        const std::vector<ShapeId> left = w.shapes(bodies[0]);
        for (size_t i = 2; i < left.size(); ++i) w.destroyShape(left[i]);
        EXPECT_LE(internals(w).seams.visits, kVisitsPerEnd * 4 * kPile) << layout;
        // Two identical segments meet at both ends; the two first of the
        // ring share the centre, and their far ends are 0.6 mm apart.
        EXPECT_EQ(linkedEnds(w), 4) << layout;
        expectLinksMatchBruteForce(w, layout);
    }
}

// A row of 100 000 tiles 0.5 m long, end to end: every inner end links to
// its neighbour's, with the neighbour's far point for a ghost, and the two
// ends of the row stay free, in linear work.
TEST(TileSeams, RowOfAHundredThousandTilesLinksEverySeam) {
    World w;
    std::vector<Segment> segments;
    segments.reserve(kPile);
    auto x = [](int i) { return 0.5f * float(i); };
    for (int i = 0; i < kPile; ++i) segments.push_back({{x(i), 0.0f}, {x(i + 1), 0.0f}});
    const std::vector<BodyId> bodies = addStaticSegments(w, segments);
    EXPECT_LE(internals(w).seams.visits, kVisitsPerEnd * 2 * kPile);
    std::vector<int> tiles;  // shape slots in row order
    for (BodyId b : bodies)
        for (ShapeId s : w.shapes(b)) tiles.push_back(s.index);
    ASSERT_EQ(int(tiles.size()), kPile);
    int wrong = 0;
    for (int i = 0; i < kPile; ++i) {
        const detail::Shape& s = internals(w).shapes[size_t(tiles[size_t(i)])];
        const int left = i > 0 ? tiles[size_t(i - 1)] : -1,
                  right = i + 1 < kPile ? tiles[size_t(i + 1)] : -1;
        const bool ok = s.seamShape[0] == left && s.seamShape[1] == right &&
                        (left < 0 || (s.seamGhost[0].x == x(i - 1) && s.seamGhost[0].y == 0.0f)) &&
                        (right < 0 || (s.seamGhost[1].x == x(i + 2) && s.seamGhost[1].y == 0.0f));
        if (!ok && ++wrong <= 5)
            ADD_FAILURE() << "tile " << i << ": links " << s.seamShape[0] << ", " << s.seamShape[1];
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(linkedEnds(w), 2 * (kPile - 1));
}

// A snapshot's bytes do not carry the endpoint index: Snapshot::fromBytes
// rebuilds it from the shapes, with the same links, and later edits relink
// as in the world the bytes came from.
TEST(TileSeams, SnapshotBytesRebuildTheLinks) {
    World w;
    const std::vector<BodyId> tiles = buildFloor(w, Floor::Segments, 0.4f);
    for (int i = 0; i < 40; ++i) {  // a row of two-point chains below
        ChainDef d;
        d.points = {{0.5f * float(i + 1), -3.0f}, {0.5f * float(i), -3.0f}};
        w.createChain(w.createBody(BodyDef{}), d);
    }
    const BodyId heap = w.createBody(BodyDef{});
    for (int i = 0; i < 6; ++i)
        w.createShape(heap, ShapeDef{}, Segment{{3.0f, 2.0f}, {3.0f + float(i), 3.0f}});
    World copy;
    copy.restore(Snapshot::fromBytes(w.snapshot().bytes()));
    auto links = [](const World& v) {
        std::vector<float> out;
        for (const auto& s : internals(v).shapes)
            if (s.alive)
                for (int k = 0; k < 2; ++k)
                    out.insert(out.end(),
                               {float(s.seamShape[k]), s.seamGhost[k].x, s.seamGhost[k].y});
        return out;
    };
    EXPECT_GT(linkedEnds(w), 200);
    EXPECT_EQ(links(copy), links(w));
    expectLinksMatchBruteForce(copy, "restored from bytes");
    for (World* v : {&w, &copy}) {
        v->destroyBody(tiles[40]);
        v->destroyShape(v->shapes(heap)[0]);
        v->destroyShape(v->shapes(heap)[0]);
        v->destroyShape(v->shapes(heap)[0]);
    }
    EXPECT_EQ(links(copy), links(w));
    expectLinksMatchBruteForce(copy, "edited after the restore");
}

// World::setGeometry, destroyShape and setTransform keep the seams of a
// floor current: a tile raised 5 cm is a real step (the box sliding into it
// loses most of its speed), and put back the floor is smooth again.
TEST(TileSeams, LinksFollowMovedAndDestroyedTiles) {
    auto slide = [](World& w) {
        BodyId box = addMover(w, Mover::Box, 0.0f);
        launch(w, box, Mover::Box, 3.0f);
        float vxMin = 3.0f;
        for (int i = 0; i < 600 && w.position(box).x < 40.0f; ++i) {
            w.step(kDt);
            vxMin = std::min(vxMin, w.linearVelocity(box).x);
        }
        w.destroyBody(box);
        return vxMin;
    };
    World w;
    std::vector<BodyId> tiles = buildFloor(w, Floor::Segments, 0.0f);
    auto linkOf = [&](int tile, int k) {
        const ShapeId s{
            internals(w).bodies[size_t(tiles[size_t(tile)].index)].shapes[0],
            internals(w)
                .shapes[size_t(internals(w).bodies[size_t(tiles[size_t(tile)].index)].shapes[0])]
                .generation};
        return internals(w).shapes[size_t(s.index)].seamShape[k];
    };
    // Tile i's right end is end 1 for even i (written left to right), end 0 for odd i.
    auto right = [](int i) { return i % 2 == 0 ? 1 : 0; };
    auto left = [](int i) { return 1 - (i % 2 == 0 ? 1 : 0); };
    EXPECT_GE(linkOf(49, right(49)), 0);
    EXPECT_GE(linkOf(50, left(50)), 0);
    EXPECT_GT(slide(w), 2.99f);

    w.setTransform(tiles[50], w.position(tiles[50]) + Vec2{0.0f, 0.05f}, 0.0f);
    EXPECT_EQ(linkOf(49, right(49)), -1);
    EXPECT_EQ(linkOf(50, left(50)), -1);
    EXPECT_EQ(linkOf(50, right(50)), -1);
    EXPECT_EQ(linkOf(51, left(51)), -1);
    EXPECT_LT(slide(w), 2.0f);  // the box hits the step
    expectLinksMatchBruteForce(w, "raised");

    w.setTransform(tiles[50], w.position(tiles[50]) - Vec2{0.0f, 0.05f}, 0.0f);
    expectLinksMatchBruteForce(w, "put back");
    EXPECT_GE(linkOf(49, right(49)), 0);
    EXPECT_GT(slide(w), 2.99f);

    // New geometry: tile 50 shortened by 2 cm leaves a gap at its right end.
    const ShapeId t50{internals(w).bodies[size_t(tiles[50].index)].shapes[0],
                      internals(w)
                          .shapes[size_t(internals(w).bodies[size_t(tiles[50].index)].shapes[0])]
                          .generation};
    w.setGeometry(t50, Segment{{-0.25f, 0.0f}, {0.23f, 0.0f}});
    EXPECT_EQ(linkOf(51, left(51)), -1);
    EXPECT_GE(linkOf(49, right(49)), 0);
    expectLinksMatchBruteForce(w, "shortened");

    // Destroyed: both neighbours get a free end, the rest stays linked.
    w.destroyBody(tiles[50]);
    EXPECT_EQ(linkOf(49, right(49)), -1);
    EXPECT_GE(linkOf(49, left(49)), 0);
    EXPECT_EQ(linkOf(51, left(51)), -1);
    EXPECT_GE(linkOf(51, right(51)), 0);
    expectLinksMatchBruteForce(w, "destroyed");
}

// The exposed pieces of every polygon tile, per shape, in world coordinates,
// with their ghosts: what the tile index holds, for comparing two worlds.
std::vector<float> tileRecords(const World& w) {
    const detail::WorldImpl& im = internals(w);
    std::vector<float> out;
    for (size_t i = 0; i < im.shapes.size(); ++i) {
        const detail::Shape& s = im.shapes[i];
        if (!s.alive || s.seamTile < 0) continue;
        out.insert(out.end(), {float(i), float(s.seamTileLinked)});
        for (const detail::SeamPiece& p : im.seams.tiles[size_t(s.seamTile)].pieces)
            out.insert(out.end(), {float(p.edgeIndex), p.p1.x, p.p1.y, p.p2.x, p.p2.y,
                                   p.edge.ghost1.x, p.edge.ghost1.y, p.edge.ghost2.x,
                                   p.edge.ghost2.y, float(p.free), float(p.concave)});
    }
    return out;
}

// Brute force: every static, enabled polygon tile edge sampled at 16 points;
// a sample is internal when an edge of another tile runs the other way along
// the same line past it. The index must hold a piece over exactly the other
// samples. Returns how many samples were internal.
int expectTilePiecesMatchBruteForce(const World& w, const char* when) {
    const detail::WorldImpl& im = internals(w);
    struct Edge {
        int shape;
        Vec2 a, b;
    };
    std::vector<Edge> edges;
    for (size_t i = 0; i < im.shapes.size(); ++i) {
        const detail::Shape& s = im.shapes[i];
        const detail::Body& b = im.bodies[size_t(s.body)];
        if (!s.alive || s.type != ShapeType::Polygon || s.isSensor || b.type != BodyType::Static ||
            !b.enabled) {
            EXPECT_LT(s.seamTile, 0) << when;
            continue;
        }
        EXPECT_GE(s.seamTile, 0) << when << ": shape " << i;
        const detail::PolygonParts g = detail::polygonParts(im.shapeRef(s));
        for (int k = 0; k < g.count; ++k)
            edges.push_back({int(i), transformPoint(b.xf, g.vertices[k]),
                             transformPoint(b.xf, g.vertices[(k + 1) % g.count])});
    }
    const float tol = detail::kSeamTolerance;
    auto onLine = [&](Vec2 a, Vec2 b, Vec2 p) {
        return std::fabs(cross(b - a, p - a)) <= tol * length(b - a);
    };
    int internalSamples = 0;
    for (const Edge& e : edges) {
        const detail::Shape& s = im.shapes[size_t(e.shape)];
        const detail::PolygonParts g = detail::polygonParts(im.shapeRef(s));
        int index = 0;
        for (const Edge& f : edges) {
            if (f.shape != e.shape) continue;
            if (&f == &e) break;
            ++index;
        }
        const Vec2 d = e.b - e.a;
        for (int k = 0; k < 16; ++k) {
            const Vec2 p = e.a + ((float(k) + 0.5f) / 16.0f) * d;
            bool covered = false;
            for (const Edge& f : edges) {
                if (f.shape == e.shape || !(dot(f.b - f.a, d) < 0.0f) || !onLine(e.a, e.b, f.a) ||
                    !onLine(e.a, e.b, f.b))
                    continue;
                const float t = dot(p - f.a, f.b - f.a);
                covered = covered || (t > 0.0f && t < dot(f.b - f.a, f.b - f.a));
            }
            bool inPiece = false;
            for (const detail::SeamPiece& piece : im.seams.tiles[size_t(s.seamTile)].pieces) {
                if (piece.edgeIndex != index) continue;
                const float t1 = dot(piece.p1 - e.a, d), t2 = dot(piece.p2 - e.a, d),
                            t = dot(p - e.a, d);
                inPiece = inPiece || (t1 <= t && t <= t2);
            }
            EXPECT_NE(covered, inPiece)
                << when << ": shape " << e.shape << " edge " << index << " sample " << k;
            internalSamples += covered;
        }
        (void)g;
    }
    return internalSamples;
}

// Random sets of box tiles on a 0.25 m grid (sizes 0.25 to 1 m, some
// overlapping, some sensors or dynamic, some segments), edited by creating, destroying,
// moving, disabling and enabling tiles and changing their geometry: the
// internal edges always equal a brute-force search, and the pieces and their
// ghosts equal those of a world rebuilt from the snapshot bytes (the index
// does not depend on the order of the edits).
TEST(TileSeams, PolygonTileEdgesMatchBruteForceAndFollowEdits) {
    std::mt19937 rng(30);
    auto grid = [&](int n) { return 0.25f * float(int(rng() % uint32_t(n)) - n / 2); };
    auto size = [&] { return 0.125f * float(1 + rng() % 4); };  // half extents
    int internalSamples = 0;
    for (int layout = 0; layout < 4; ++layout) {
        World w;
        std::vector<BodyId> tiles;
        auto addTile = [&] {
            BodyDef bd;
            const float hx = size(), hy = size();
            // Centres on the grid shifted so that the box edges lie on it.
            bd.position = {grid(24) + hx, grid(16) + hy};
            if (rng() % 20 == 0) bd.type = BodyType::Dynamic;
            const BodyId b = w.createBody(bd);
            ShapeDef sd;
            sd.isSensor = rng() % 25 == 0;
            if (rng() % 6 == 0)  // a segment tile along the grid, meeting box corners
                w.createShape(b, sd, Segment{{-hx, hy}, {hx, hy}});
            else
                w.createShape(b, sd, makeBox(hx, hy));
            tiles.push_back(b);
        };
        for (int i = 0; i < 120; ++i) addTile();
        internalSamples += expectTilePiecesMatchBruteForce(w, "created");
        for (int op = 0; op < 80; ++op) {
            const BodyId b = tiles[rng() % tiles.size()];
            const int kind = int(rng() % 6);
            if (!w.isValid(b)) continue;
            if (kind == 0) {
                w.destroyBody(b);
            } else if (kind == 1) {
                w.setTransform(b,
                               w.position(b) + Vec2{0.25f * float(int(rng() % 3) - 1),
                                                    0.25f * float(int(rng() % 3) - 1)},
                               0.0f);
            } else if (kind == 2) {
                if (w.isEnabled(b))
                    w.disableBody(b);
                else
                    w.enableBody(b);
            } else if (kind == 3) {
                if (w.shapeType(w.shapes(b)[0]) == ShapeType::Polygon)
                    w.setGeometry(w.shapes(b)[0], makeBox(size(), size()));
            } else {
                addTile();
            }
            if (op % 10 == 9) {
                internalSamples += expectTilePiecesMatchBruteForce(w, "edited");
                World copy;
                copy.restore(Snapshot::fromBytes(w.snapshot().bytes()));
                EXPECT_EQ(tileRecords(copy), tileRecords(w)) << "op " << op;
                expectLinksMatchBruteForce(w, "edited");
            }
            if (HasFailure()) return;
        }
    }
    EXPECT_GT(internalSamples, 1000);
}

// Faces that are truly exposed still collide: a tile raised 5 cm is a step
// (the box sliding into it loses most of its speed) and put back the floor is
// smooth again; a tile 1 m tall is a wall that stops it; a 2 cm gap (wider
// than the slop) leaves both side faces exposed; a tile destroyed or
// disabled leaves its neighbours' faces exposed, enabled again it joins them.
TEST(TileSeams, PolygonTilesKeepExposedFaces) {
    auto slide = [](World& w, float& xEnd) {
        BodyId box = addMover(w, Mover::Box, 0.0f);
        launch(w, box, Mover::Box, 3.0f);
        float vxMin = 3.0f;
        for (int i = 0; i < 600 && w.position(box).x < 40.0f; ++i) {
            w.step(kDt);
            vxMin = std::min(vxMin, w.linearVelocity(box).x);
        }
        xEnd = w.position(box).x;
        w.destroyBody(box);
        return vxMin;
    };
    World w;
    const std::vector<BodyId> tiles = buildFloor(w, Floor::BoxRow, 0.0f);
    const detail::WorldImpl& im = internals(w);
    auto pieces = [&](int tile) {
        const detail::Shape& s =
            im.shapes[size_t(im.bodies[size_t(tiles[size_t(tile)].index)].shapes[0])];
        return s.seamTile < 0 ? -1 : int(im.seams.tiles[size_t(s.seamTile)].pieces.size());
    };
    float x = 0.0f;
    EXPECT_EQ(pieces(50), 2);  // top and bottom: both sides are internal
    EXPECT_GT(slide(w, x), 2.99f);

    const Vec2 at = w.position(tiles[50]);
    w.setTransform(tiles[50], at + Vec2{0.0f, 0.05f}, 0.0f);
    EXPECT_EQ(pieces(50), 4);      // its sides stick out 5 cm
    EXPECT_EQ(pieces(49), 3);      // the side it faces is covered only in part
    EXPECT_LT(slide(w, x), 2.0f);  // the box hits the step
    w.setTransform(tiles[50], at, 0.0f);
    EXPECT_EQ(pieces(50), 2);
    EXPECT_GT(slide(w, x), 2.99f);

    w.setTransform(tiles[50], at + Vec2{0.0f, 1.0f}, 0.0f);
    w.setGeometry(w.shapes(tiles[50])[0], makeBox(0.25f, 1.25f));  // a wall 2 m above the floor
    EXPECT_LT(slide(w, x), 0.1f);
    EXPECT_LT(x, 25.0f);  // stopped at the wall
    w.setGeometry(w.shapes(tiles[50])[0], makeBox(0.24f, 0.25f));
    w.setTransform(tiles[50], at + Vec2{0.01f, 0.0f}, 0.0f);  // a 2 cm gap on its left
    EXPECT_EQ(pieces(49), 3);
    EXPECT_EQ(pieces(50), 3);
    EXPECT_EQ(pieces(51), 2);
    w.setGeometry(w.shapes(tiles[50])[0], makeBox(0.25f, 0.25f));
    w.setTransform(tiles[50], at, 0.0f);
    w.disableBody(tiles[50]);
    EXPECT_EQ(pieces(49), 3);
    EXPECT_EQ(pieces(50), -1);
    w.enableBody(tiles[50]);
    EXPECT_EQ(pieces(49), 2);
    EXPECT_EQ(pieces(50), 2);
    w.destroyBody(tiles[50]);
    EXPECT_EQ(pieces(49), 3);
    EXPECT_EQ(pieces(51), 3);
    expectTilePiecesMatchBruteForce(w, "destroyed");
}

// joinTileSeams = false: nothing is indexed or linked, tiles keep corners.
TEST(TileSeams, SwitchOffKeepsEveryTileCorner) {
    EXPECT_TRUE(WorldDef{}.joinTileSeams);
    WorldDef def;
    def.joinTileSeams = false;
    World w(def);
    buildFloor(w, Floor::Segments, 0.0f);
    buildFloor(w, Floor::TwoPointChains, 0.0f);
    EXPECT_TRUE(internals(w).seams.cells.empty());
    for (const auto& s : internals(w).shapes) EXPECT_FALSE(s.alive && detail::seamLinked(s));
}

// A level of mixed tiles (segments, chains, box tiles of several sizes) with
// boxes, wheels and capsules crossing it: the same state hash at 1, 2 and 4
// workers and with both broadphases, and a warmed-up step allocates nothing.
TEST(TileSeams, DeterministicAndAllocationFree) {
    auto level = [](int workers, BroadphaseType bp, bool countAllocations) {
        WorldDef def;
        def.workerCount = workers;
        def.broadphase = bp;
        World w(def);
        buildFloor(w, Floor::Segments, 0.4f);
        // A second, stepped row of two-point chains and a ramp of segments.
        for (int i = 0; i < 40; ++i) {
            ChainDef d;
            d.points = {{0.5f * float(i + 1), -3.0f + 0.02f * float(i + 1)},
                        {0.5f * float(i), -3.0f + 0.02f * float(i)}};
            w.createChain(w.createBody(BodyDef{}), d);
        }
        // A third row of box tiles of four widths and three depths, meeting
        // a chain and segment tiles.
        const float widths[] = {0.5f, 1.0f, 0.25f, 0.75f}, depths[] = {0.5f, 0.3f, 0.8f};
        float left = 0.0f;
        for (int i = 0; i < 40; ++i) {
            BodyDef bd;
            bd.position = {left + 0.5f * widths[i % 4], -6.0f - 0.5f * depths[i % 3]};
            const BodyId b = w.createBody(bd);
            if (i % 9 == 8)
                w.createShape(b, ShapeDef{},
                              Segment{{-0.5f * widths[i % 4], 0.5f * depths[i % 3]},
                                      {0.5f * widths[i % 4], 0.5f * depths[i % 3]}});
            else
                w.createShape(b, ShapeDef{}, makeBox(0.5f * widths[i % 4], 0.5f * depths[i % 3]));
            left += widths[i % 4];
        }
        ChainDef ramp;
        ramp.points = {{left + 3.0f, -5.5f}, {left + 1.0f, -6.0f}, {left, -6.0f}};
        w.createChain(w.createBody(BodyDef{}), ramp);
        for (int i = 0; i < 12; ++i) {
            BodyId b = addMover(w, kMovers[i % 3], 0.4f);
            w.setTransform(b, {1.0f + 3.5f * float(i), i % 2 == 0 ? 0.3f : -2.6f}, 0.1f * float(i));
            launch(w, b, kMovers[i % 3], 2.0f + 0.5f * float(i));
        }
        for (int i = 0; i < 3; ++i) {
            BodyId b = addMover(w, kMovers[i], 0.4f);
            w.setTransform(b, {2.0f + 9.0f * float(i), -5.6f}, 0.0f);
            launch(w, b, kMovers[i], 3.0f);
        }
        for (int i = 0; i < 240; ++i) w.step(kDt);
        long long allocations = 0;
        if (countAllocations) {
            const long long before = test::allocationCount();
            for (int i = 0; i < 10; ++i) w.step(kDt);
            allocations = test::allocationCount() - before;
        } else {
            for (int i = 0; i < 10; ++i) w.step(kDt);
        }
        return std::pair<uint64_t, long long>{w.stateHash(), allocations};
    };
    const auto reference = level(1, BroadphaseType::Tree, true);
    EXPECT_EQ(reference.second, 0);
    EXPECT_EQ(level(2, BroadphaseType::Tree, false).first, reference.first);
    EXPECT_EQ(level(4, BroadphaseType::Tree, false).first, reference.first);
    EXPECT_EQ(level(4, BroadphaseType::SortAndSweep, false).first, reference.first);
    EXPECT_EQ(level(1, BroadphaseType::SortAndSweep, false).first, reference.first);
    EXPECT_EQ(level(2, BroadphaseType::SortAndSweep, false).first, reference.first);
}

}  // namespace
}  // namespace carom
