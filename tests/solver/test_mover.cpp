// Character mover: the plane solver against hand-solved cases, sliding along
// a slope at the projected speed, and a mover driven around random levels
// that never ends inside geometry (checked by brute-force distance queries),
// also when wedged between two surfaces closer than its width.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

Capsule capsuleAt(Vec2 p) {
    return Capsule{{p.x, p.y - 0.5f}, {p.x, p.y + 0.5f}, 0.3f};
}

// The update loop of <carom/mover.hpp>: collide, solve, cast, advance.
Vec2 moveMover(const World& w, Vec2 pos, Vec2 wanted, std::vector<CollisionPlane>& planes) {
    const Vec2 target = pos + wanted;
    for (int i = 0; i < 5; ++i) {
        planes.clear();
        w.collideMover(capsuleAt(pos), QueryFilter{}, [&](ShapeId, const PlaneResult& r) {
            planes.push_back(CollisionPlane{r.plane});
            return true;
        });
        const Vec2 delta = solvePlanes(target - pos, planes).delta;
        const float f = w.castMover(capsuleAt(pos), delta);
        pos = pos + f * delta;
        if (lengthSquared(target - pos) < kLinearSlop * kLinearSlop) break;
    }
    return pos;
}

TEST(Mover, SolvePlanesFloorAndCorner) {
    // Floor y = 0 under a mover 0.1 m above it: moving down 1 m stops at the slop.
    std::vector<CollisionPlane> planes{CollisionPlane{Plane{{0.0f, 1.0f}, -0.1f}}};
    PlaneSolverResult r = solvePlanes({0.5f, -1.0f}, planes);
    EXPECT_FLOAT_EQ(r.delta.x, 0.5f);
    EXPECT_NEAR(r.delta.y, -0.1f + kLinearSlop, 1e-6f);
    EXPECT_NEAR(planes[0].push, 0.9f + kLinearSlop, 1e-6f);
    // Into a corner of a floor and a wall x = 0.2: held by both.
    planes.push_back(CollisionPlane{Plane{{-1.0f, 0.0f}, -0.2f}});
    r = solvePlanes({1.0f, -1.0f}, planes);
    EXPECT_NEAR(r.delta.x, 0.2f - kLinearSlop, 1e-5f);
    EXPECT_NEAR(r.delta.y, -0.1f + kLinearSlop, 1e-5f);
    // A soft plane gives way beyond its push limit.
    planes = {CollisionPlane{Plane{{0.0f, 1.0f}, 0.0f}, 0.25f}};
    r = solvePlanes({0.0f, -1.0f}, planes);
    EXPECT_NEAR(r.delta.y, -0.75f, 1e-6f);
    // Moving away: no push, and clipVector keeps the velocity.
    planes = {CollisionPlane{Plane{{0.0f, 1.0f}, 0.0f}}};
    r = solvePlanes({0.0f, 1.0f}, planes);
    EXPECT_EQ(planes[0].push, 0.0f);
    EXPECT_EQ(clipVector({0.0f, -3.0f}, planes).y, -3.0f);
    // Pushed: the velocity into the plane goes, the rest stays.
    (void)solvePlanes({1.0f, -1.0f}, planes);
    const Vec2 v = clipVector({2.0f, -3.0f}, planes);
    EXPECT_EQ(v.x, 2.0f);
    EXPECT_EQ(v.y, 0.0f);
}

// Pushing horizontally into a 30° slope, the mover slides up along it at the
// projected speed v·cos 30° (per frame, the slope's tangent part of the wanted
// move), and never sinks into it.
TEST(Mover, SlidesAlongSlopeAtProjectedSpeed) {
    WorldDef def;
    World w(def);
    const float theta = kPi / 6.0f;
    BodyDef gd;
    gd.angle = theta;
    BodyId slope = w.createBody(gd);
    w.createShape(slope, ShapeDef{}, makeBox(50.0f, 1.0f));
    const Vec2 n{-std::sin(theta), std::cos(theta)};
    const Vec2 t{std::cos(theta), std::sin(theta)};
    // Resting on the slope, 1 cm above it.
    Vec2 pos = (1.0f + 0.3f + 0.01f) * n +
               0.5f * n;  // capsule core half height 0.5 along +y, close enough
    std::vector<CollisionPlane> planes;
    pos = moveMover(w, pos, -1.0f * n, planes);  // settle onto the surface
    const float speed = 3.0f, dt = 1.0f / 60.0f;
    const Vec2 start = pos;
    for (int i = 0; i < 60; ++i) pos = moveMover(w, pos, Vec2{speed * dt, 0.0f}, planes);
    const float along = dot(pos - start, t);
    EXPECT_NEAR(along, speed * std::cos(theta), 0.03f * speed);
    EXPECT_NEAR(dot(pos - start, n), 0.0f, 0.01f);
    const DistanceResult d = shapeDistance(ShapeGeometry{capsuleAt(pos)}, Transform{},
                                           w.geometry(w.shapes(slope)[0]), w.transform(slope));
    EXPECT_GE(d.overlap ? -d.depth : d.distance, 0.0f);
}

// Random levels of boxes, circles, capsules and chain floors; the mover is
// driven towards random targets and must never end a move deeper than one
// linear slop inside anything, however many moves slide it along a surface
// (each cast used to let it sink a little further).
TEST(Mover, NeverEndsDeeperThanTheSlopOnRandomLevels) {
    std::mt19937 rng(20261123);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int level = 0; level < 32; ++level) {
        World w;
        BodyId ground = w.createBody(BodyDef{});
        ChainDef floor;
        for (int i = 0; i <= 40; ++i)
            floor.points.push_back({20.0f - float(i), -8.0f + 0.5f * u(rng)});
        w.createChain(ground, floor);
        for (int k = 0; k < 40; ++k) {
            const Vec2 c{8.0f * u(rng), 5.0f * u(rng)};
            if (lengthSquared(c) < 4.0f) continue;  // keep the start free
            BodyDef bd;
            bd.position = c;
            bd.angle = 3.0f * u(rng);
            BodyId b = w.createBody(bd);
            switch (k % 3) {
                case 0: {
                    // Drawn in a set order (a function's arguments are
                    // evaluated in none), so every compiler builds the same levels.
                    const float hy = 0.2f + 0.5f * std::fabs(u(rng));
                    const float hx = 0.3f + 0.7f * std::fabs(u(rng));
                    w.createShape(b, ShapeDef{}, makeBox(hx, hy));
                    break;
                }
                case 1:
                    w.createShape(b, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.2f + std::fabs(u(rng))});
                    break;
                default:
                    w.createShape(b, ShapeDef{}, Capsule{{-0.6f, 0.0f}, {0.6f, 0.0f}, 0.25f});
                    break;
            }
        }
        std::vector<ShapeId> all;
        for (BodyId b : w.bodies())
            for (ShapeId s : w.shapes(b)) all.push_back(s);
        Vec2 pos{0.0f, 0.0f};
        std::vector<CollisionPlane> planes;
        int blocked = 0;  // moves that met a surface: the test must exercise the solver
        for (int move = 0; move < 400; ++move) {
            const Vec2 wanted{0.6f * u(rng), 0.6f * u(rng)};
            pos = moveMover(w, pos, wanted, planes);
            if (!planes.empty()) ++blocked;
            for (ShapeId s : all) {
                const BodyId b = w.shapeBody(s);
                if (w.shapeType(s) == ShapeType::ChainSegment)
                    continue;  // one-sided: checked below
                const DistanceResult d = shapeDistance(ShapeGeometry{capsuleAt(pos)}, Transform{},
                                                       w.geometry(s), w.transform(b));
                // A mover may rest up to one linear slop into a surface, as
                // contacts do.
                ASSERT_GE(d.overlap ? -d.depth : d.distance, -kLinearSlop)
                    << "level " << level << " move " << move << " inside shape " << s.index;
            }
            ASSERT_GT(pos.y, -8.6f) << "fell through the chain floor";
        }
        EXPECT_GT(blocked, 20) << "level " << level;
    }
}

// castMover's accept callback: a refused shape is not in the way (a one-way
// platform the mover rises through), the others still stop it.
TEST(Mover, CastSkipsShapesTheCallbackRefuses) {
    World w;
    BodyDef bd;
    bd.position = {0.0f, 2.0f};
    BodyId low = w.createBody(bd);
    ShapeId lowShape = w.createShape(low, ShapeDef{}, makeBox(2.0f, 0.1f));
    bd.position = {0.0f, 5.0f};
    BodyId high = w.createBody(bd);
    w.createShape(high, ShapeDef{}, makeBox(2.0f, 0.1f));
    const Capsule mover = capsuleAt({0.0f, 0.0f});  // top at 0.8
    const Vec2 up{0.0f, 10.0f};
    const float blocked = w.castMover(mover, up);
    EXPECT_NEAR(blocked * 10.0f, 1.9f - 0.8f, 2e-3f);  // the low board's underside
    const float through =
        w.castMover(mover, up, QueryFilter{}, [&](ShapeId s) { return s != lowShape; });
    EXPECT_NEAR(through * 10.0f, 4.9f - 0.8f, 2e-3f);  // on to the high one
    EXPECT_EQ(w.castMover(mover, up, QueryFilter{}, [](ShapeId) { return false; }), 1.0f);
}

// A chain collides from the side its normal points to, for the mover as for
// bodies and rays. Listed right to left (the documented order for ground)
// its normal points up: a box dropped on it rests on it, a ray from above
// hits it, and a mover above it is stopped and touches a plane. Listed left
// to right the normal points down: the box falls through, the ray passes,
// and the mover must pass too (not stand on the reversed chain and fall
// through the documented one). From below everything is the other way.
TEST(Mover, SeesChainsFromTheSameSideAsBodiesAndRays) {
    for (const bool documented : {true, false}) {
        SCOPED_TRACE(documented ? "right to left (normal up)" : "left to right (normal down)");
        World w;
        ChainDef chain;
        for (int i = 0; i <= 4; ++i) {
            const float x = 4.0f - 2.0f * float(i);
            chain.points.push_back({documented ? x : -x, 0.0f});
        }
        w.createChain(w.createBody(BodyDef{}), chain);
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {-2.7f, 1.0f};  // clear of the mover at x = 1
        const BodyId box = w.createBody(bd);
        w.createShape(box, ShapeDef{}, makeBox(0.5f, 0.5f));
        for (int i = 0; i < 90; ++i) w.step(1.0f / 60.0f);
        const bool bodyHeld = w.position(box).y > 0.4f;
        EXPECT_EQ(bodyHeld, documented) << "box at y = " << w.position(box).y;

        // From above: the capsule's bottom 0.2 m over the chain, moving down.
        const Vec2 above{1.0f, 1.0f};
        const bool rayHitsFromAbove = w.castRayClosest({1.0f, 1.0f}, {0.0f, -2.0f}).hit;
        const float castDown = w.castMover(capsuleAt(above), {0.0f, -2.0f});
        int planesAbove = 0;
        w.collideMover(capsuleAt({1.0f, 0.8f + kLinearSlop}), QueryFilter{},
                       [&](ShapeId, const PlaneResult& r) {
                           EXPECT_NEAR(r.plane.normal.y, 1.0f, 1e-4f);
                           return ++planesAbove, true;
                       });
        EXPECT_EQ(rayHitsFromAbove, bodyHeld);
        EXPECT_EQ(castDown < 1.0f, bodyHeld) << "castMover fraction " << castDown;
        if (bodyHeld) {
            EXPECT_NEAR(castDown * 2.0f, 0.2f, 2.0f * kLinearSlop);
        }
        EXPECT_EQ(planesAbove == 1, bodyHeld) << planesAbove << " planes";

        // The update loop with a downward target: the mover stands on the
        // chain exactly when the box does.
        std::vector<CollisionPlane> planes;
        const Vec2 end = moveMover(w, above, {0.0f, -2.0f}, planes);
        EXPECT_EQ(end.y > 0.79f, bodyHeld) << "mover at y = " << end.y;

        // From below: the other side.
        const Vec2 below{1.0f, -1.0f};
        EXPECT_EQ(w.castRayClosest({1.0f, -1.0f}, {0.0f, 2.0f}).hit, !bodyHeld);
        EXPECT_EQ(w.castMover(capsuleAt(below), {0.0f, 2.0f}) < 1.0f, !bodyHeld);
        int planesBelow = 0;
        w.collideMover(capsuleAt({1.0f, -0.8f - kLinearSlop}), QueryFilter{},
                       [&](ShapeId, const PlaneResult&) { return ++planesBelow, true; });
        EXPECT_EQ(planesBelow == 1, !bodyHeld);
    }
}

}  // namespace
}  // namespace carom
