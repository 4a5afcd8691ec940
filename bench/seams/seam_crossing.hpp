// Movers crossing a floor of tiles (WorldDef::joinTileSeams): the floors,
// the movers and what a crossing measures, shared by the tile-seam tests
// (tests/solver/test_tile_seams.cpp, which assert on them) and
// carom_bench_seams crossings (which prints them for docs/narrowphase.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include <carom/carom.hpp>

namespace carom::seams {

inline constexpr float kCrossingDt = 1.0f / 60.0f;

inline constexpr int kTiles = 110;  // 109 seams: the movers cross at least 100 of them
inline constexpr float kTile = 0.5f;

enum class Floor {
    OneChain,
    Segments,
    TwoPointChains,
    JoinedChains,
    BoxRow,           // polygon tiles: equal boxes in a row
    UnequalBoxes,     // boxes of four widths and three depths, tops level
    BoxGrid,          // equal boxes two deep
    BoxesAndChains,   // runs of boxes between chains
    BoxesAndSegments  // boxes and segment tiles in turn
};
enum class Mover { Box, Wheel, Capsule };

inline const char* name(Floor f) {
    switch (f) {
        case Floor::OneChain:
            return "one chain";
        case Floor::Segments:
            return "110 segments";
        case Floor::TwoPointChains:
            return "110 2-point chains";
        case Floor::JoinedChains:
            return "10 chains end to end";
        case Floor::BoxRow:
            return "110 boxes";
        case Floor::UnequalBoxes:
            return "88 unequal boxes";
        case Floor::BoxGrid:
            return "boxes 2 deep";
        case Floor::BoxesAndChains:
            return "boxes and chains";
        default:
            return "boxes and segments";
    }
}
inline const char* name(Mover m) {
    return m == Mover::Box ? "box" : m == Mover::Wheel ? "wheel" : "capsule";
}

// A flat floor along y = 0 from x = 0 to 55, solid side up. Chains run right
// to left (their right-hand side collides). Segment tiles sit each on its own
// static body, every other one written right to left (two-sided, so either
// way is the same tile). Returns the tile shapes' bodies in x order.
inline std::vector<BodyId> buildFloor(World& w, Floor f, float friction) {
    std::vector<BodyId> bodies;
    auto x = [](int i) { return kTile * float(i); };
    if (f == Floor::OneChain || f == Floor::JoinedChains) {
        const int per = f == Floor::OneChain ? kTiles : 11;
        for (int c = 0; c < kTiles / per; ++c) {
            ChainDef d;
            d.friction = friction;
            for (int i = (c + 1) * per; i >= c * per; --i) d.points.push_back({x(i), 0.0f});
            BodyId b = w.createBody(BodyDef{});
            w.createChain(b, d);
            bodies.push_back(b);
        }
    } else if (f == Floor::TwoPointChains) {
        for (int i = 0; i < kTiles; ++i) {
            ChainDef d;
            d.friction = friction;
            d.points = {{x(i + 1), 0.0f}, {x(i), 0.0f}};
            BodyId b = w.createBody(BodyDef{});
            w.createChain(b, d);
            bodies.push_back(b);
        }
    } else if (f == Floor::BoxRow || f == Floor::BoxGrid) {
        // Box tiles 0.5 m square, their tops along y = 0.
        for (int row = 0; row < (f == Floor::BoxGrid ? 2 : 1); ++row) {
            for (int i = 0; i < kTiles; ++i) {
                BodyDef bd;
                bd.position = {x(i) + 0.5f * kTile, -0.5f * kTile - kTile * float(row)};
                BodyId b = w.createBody(bd);
                ShapeDef sd;
                sd.friction = friction;
                w.createShape(b, sd, makeBox(0.5f * kTile, 0.5f * kTile));
                if (row == 0) bodies.push_back(b);
            }
        }
    } else if (f == Floor::UnequalBoxes) {
        const float widths[] = {0.5f, 1.0f, 0.25f, 0.75f};
        const float depths[] = {0.5f, 0.3f, 0.8f};
        float left = 0.0f;
        for (int i = 0; left < x(kTiles) - 1.0e-3f; ++i) {
            const float wd = widths[i % 4], dp = depths[i % 3];
            BodyDef bd;
            bd.position = {left + 0.5f * wd, -0.5f * dp};
            BodyId b = w.createBody(bd);
            ShapeDef sd;
            sd.friction = friction;
            w.createShape(b, sd, makeBox(0.5f * wd, 0.5f * dp));
            bodies.push_back(b);
            left += wd;
        }
    } else if (f == Floor::BoxesAndChains) {
        // 5 boxes, then a chain over the next 6 tiles, and so on.
        for (int i = 0; i < kTiles; i += 11) {
            for (int j = i; j < i + 5; ++j) {
                BodyDef bd;
                bd.position = {x(j) + 0.5f * kTile, -0.5f * kTile};
                BodyId b = w.createBody(bd);
                ShapeDef sd;
                sd.friction = friction;
                w.createShape(b, sd, makeBox(0.5f * kTile, 0.5f * kTile));
                bodies.push_back(b);
            }
            ChainDef d;
            d.friction = friction;
            for (int j = i + 11; j >= i + 5; --j) d.points.push_back({x(j), 0.0f});
            BodyId b = w.createBody(BodyDef{});
            w.createChain(b, d);
            bodies.push_back(b);
        }
    } else if (f == Floor::BoxesAndSegments) {
        for (int i = 0; i < kTiles; ++i) {
            BodyDef bd;
            ShapeDef sd;
            sd.friction = friction;
            if (i % 2 == 0) {
                bd.position = {x(i) + 0.5f * kTile, -0.5f * kTile};
                BodyId b = w.createBody(bd);
                w.createShape(b, sd, makeBox(0.5f * kTile, 0.5f * kTile));
                bodies.push_back(b);
            } else {
                bd.position = {x(i) + 0.5f * kTile, 0.0f};
                BodyId b = w.createBody(bd);
                w.createShape(b, sd, Segment{{-0.5f * kTile, 0.0f}, {0.5f * kTile, 0.0f}});
                bodies.push_back(b);
            }
        }
    } else {
        for (int i = 0; i < kTiles; ++i) {
            BodyDef bd;
            bd.position = {x(i) + 0.5f * kTile, 0.0f};
            BodyId b = w.createBody(bd);
            ShapeDef sd;
            sd.friction = friction;
            const Vec2 l{-0.5f * kTile, 0.0f}, r{0.5f * kTile, 0.0f};
            w.createShape(b, sd, i % 2 == 0 ? Segment{l, r} : Segment{r, l});
            bodies.push_back(b);
        }
    }
    return bodies;
}

// A mover resting on the floor at x = 0.6 (give it its speed with launch).
inline BodyId addMover(World& w, Mover m, float friction) {
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    ShapeDef sd;
    sd.friction = friction;
    bd.position = {0.6f, m == Mover::Capsule ? 0.15f : 0.25f};
    bd.enableSleep = false;  // settled, not asleep, when launched
    BodyId b = w.createBody(bd);
    if (m == Mover::Box)
        w.createShape(b, sd, makeBox(0.25f, 0.25f));
    else if (m == Mover::Wheel)
        w.createShape(b, sd, Circle{{0.0f, 0.0f}, 0.25f});
    else
        w.createShape(b, sd, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.15f});
    return b;
}

// Sets the mover going along +x (a wheel rolling).
inline void launch(World& w, BodyId b, Mover m, float speed) {
    w.setLinearVelocity(b, {speed, w.linearVelocity(b).y});
    if (m == Mover::Wheel) w.setAngularVelocity(b, -speed / 0.25f);
}

struct Crossing {
    float kick = 0.0f;  // largest change of vertical speed in one step, m/s
    float rise = 0.0f;  // largest upward speed, m/s
    float snag = 0.0f;  // largest drop of horizontal speed in one step beyond friction's, m/s
    float lift = 0.0f;  // largest height above the settled height, m
    float stall =
        0.0f;       // largest step shortfall v dt - dx (continuous collision stopping it early), m
    int seams = 0;  // seams the centre passed while measured (x = 0.5 i)
};

// Lets a mover settle on the floor for 30 steps at x = 0.6, launches it at
// 13 m/s and slides (or rolls) it until it passes x = 53.1 or for 600 steps.
// The 10 steps after the launch are not measured: a body set going at
// 13 m/s loses its resting contact for a step or two on any floor (one
// chain included). Friction decelerates a sliding box or capsule by mu g;
// the wheel rolls (no loss).
inline Crossing cross(Floor f, Mover m, float friction, bool join = true) {
    WorldDef def;
    def.joinTileSeams = join;
    World w(def);
    buildFloor(w, f, friction);
    BodyId b = addMover(w, m, friction);
    for (int i = 0; i < 30; ++i) w.step(kCrossingDt);
    const float rest = w.position(b).y;
    launch(w, b, m, 13.0f);  // m/s: with mu = 0.1 the box and the capsule still cross 100 seams
    for (int i = 0; i < 10; ++i) w.step(kCrossingDt);
    const float x0 = w.position(b).x;
    const float frictionDrop = m == Mover::Wheel ? 0.0f : friction * 10.0f * kCrossingDt;
    Crossing c;
    Vec2 v0 = w.linearVelocity(b);
    for (int i = 0; i < 600 && w.position(b).x < 53.1f; ++i) {
        const float x = w.position(b).x;
        w.step(kCrossingDt);
        const Vec2 v = w.linearVelocity(b);
        c.stall = std::max(c.stall, v.x * kCrossingDt - (w.position(b).x - x));
        c.kick = std::max(c.kick, std::fabs(v.y - v0.y));
        c.rise = std::max(c.rise, v.y);
        c.snag = std::max(c.snag, v0.x - v.x - frictionDrop);
        c.lift = std::max(c.lift, w.position(b).y - rest);
        v0 = v;
    }
    for (int i = 1; i < kTiles; ++i)
        c.seams += x0 < kTile * float(i) && kTile * float(i) <= w.position(b).x;
    return c;
}

// A kinematic character (an upright capsule moved by the mover calls,
// docs/mover.md) walking across the floor at 6 m/s under gravity: settles at
// x = 0.6 for 30 steps, walks 10 steps unmeasured, then until x = 53.1 or for
// 600 steps. The kick is the largest change of its vertical speed (from its
// motion) in one step, snag the largest drop of its horizontal velocity.
inline Crossing walk(Floor f, bool join = true) {
    WorldDef def;
    def.joinTileSeams = join;
    World w(def);
    buildFloor(w, f, 0.6f);
    constexpr float kHalf = 0.3f, kRadius = 0.2f, kSpeed = 6.0f;
    auto capsuleAt = [](Vec2 p) {
        return Capsule{p + Vec2{0.0f, -kHalf}, p + Vec2{0.0f, kHalf}, kRadius};
    };
    Vec2 pos{0.6f, kHalf + kRadius + 0.05f};
    Vec2 vel{0.0f, 0.0f};
    const QueryFilter filter{};
    std::vector<CollisionPlane> planes;
    auto move = [&] {
        vel.y -= 10.0f * kCrossingDt;
        const Vec2 target = pos + kCrossingDt * vel;
        for (int i = 0; i < 5; ++i) {
            planes.clear();
            w.collideMover(capsuleAt(pos), filter, [&](ShapeId, const PlaneResult& r) {
                planes.push_back({r.plane});
                return true;
            });
            const Vec2 delta = solvePlanes(target - pos, planes).delta;
            const float fr = w.castMover(capsuleAt(pos), delta, filter);
            pos = pos + fr * delta;
            if (lengthSquared(target - pos) < kLinearSlop * kLinearSlop) break;
        }
        vel = clipVector(vel, planes);
    };
    for (int i = 0; i < 30; ++i) move();
    const float rest = pos.y;
    vel.x = kSpeed;
    for (int i = 0; i < 10; ++i) move();
    const float x0 = pos.x;
    Crossing c;
    float vy0 = 0.0f, vx0 = vel.x;
    for (int i = 0; i < 600 && pos.x < 53.1f; ++i) {
        const Vec2 before = pos;
        move();
        const float vy = (pos.y - before.y) / kCrossingDt;
        c.kick = std::max(c.kick, std::fabs(vy - vy0));
        c.rise = std::max(c.rise, vy);
        c.snag = std::max(c.snag, vx0 - vel.x);
        c.lift = std::max(c.lift, pos.y - rest);
        c.stall = std::max(c.stall, vel.x * kCrossingDt - (pos.x - before.x));
        vy0 = vy;
        vx0 = vel.x;
        vel.x = kSpeed;  // the game keeps walking
    }
    for (int i = 1; i < kTiles; ++i) c.seams += x0 < kTile * float(i) && kTile * float(i) <= pos.x;
    return c;
}

inline constexpr Floor kFloors[] = {Floor::OneChain, Floor::Segments, Floor::TwoPointChains,
                                    Floor::JoinedChains};
inline constexpr Floor kTileFloors[] = {Floor::Segments, Floor::TwoPointChains,
                                        Floor::JoinedChains};
inline constexpr Floor kPolygonFloors[] = {Floor::BoxRow, Floor::UnequalBoxes, Floor::BoxGrid,
                                           Floor::BoxesAndChains, Floor::BoxesAndSegments};
inline constexpr Floor kAllFloors[] = {
    Floor::OneChain,     Floor::Segments,       Floor::TwoPointChains,
    Floor::JoinedChains, Floor::BoxRow,         Floor::UnequalBoxes,
    Floor::BoxGrid,      Floor::BoxesAndChains, Floor::BoxesAndSegments};
inline constexpr Mover kMovers[] = {Mover::Box, Mover::Wheel, Mover::Capsule};

}  // namespace carom::seams
