// carom::Character (<carom/character.hpp>, docs/manual/characters.md):
// walking, jumping, slopes, ledges, one-way surfaces, platforms, pushing,
// events, snapshot and restore, determinism and the refusals, on small
// levels built here and on seeded random levels that mix chains, segments
// and box tiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <carom/carom.hpp>
#include <carom/collision.hpp>

#include "tests/support/alloc_counter.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/rng.hpp"

namespace carom {
namespace {

using test::kDt;

constexpr float kHalfHeight = 0.7f;  // CharacterDef's default height / 2

// A world with its character and the one-way shapes the character is told of.
struct Level {
    std::unique_ptr<World> world;
    std::unique_ptr<Character> hero;
    std::vector<ShapeId> oneWay;

    explicit Level(const WorldDef& def = WorldDef{}) : world(std::make_unique<World>(def)) {}

    BodyId staticBody() { return world->createBody(BodyDef{}); }
    ShapeId box(BodyId b, float hx, float hy, Vec2 center, float angle = 0.0f) {
        return world->createShape(b, ShapeDef{}, makeOffsetBox(hx, hy, center, angle));
    }
    ShapeId oneWayBox(BodyId b, float hx, float hy, Vec2 center) {
        const ShapeId s = box(b, hx, hy, center);
        oneWay.push_back(s);
        if (hero) hero->setOneWayShapes(oneWay);
        return s;
    }
    Character& addHero(Vec2 position, CharacterDef def = {}) {
        def.position = position;
        hero = std::make_unique<Character>(*world, def);
        hero->setOneWayShapes(oneWay);
        return *hero;
    }
    Vec2 pos() const { return world->position(hero->body()); }
    float feet() const { return pos().y - 0.5f * hero->def().height; }

    void step(const CharacterInput& in) {
        hero->beginStep();
        world->step(kDt);
        hero->update(in, kDt);
    }
    // Steps with the input, checking after each that the hero is nowhere
    // inside a static or kinematic shape (one-way shapes aside: it rises
    // through them by design).
    void run(int steps, CharacterInput in, const std::function<void()>& each = nullptr) {
        for (int i = 0; i < steps; ++i) {
            step(in);
            std::string who;
            ASSERT_GE(clearance(&who), -1.5f * kLinearSlop)
                << "inside " << who << " at " << pos().x << ", " << pos().y;
            if (each) each();
        }
    }
    // The deepest the capsule goes into any static or kinematic shape but
    // its own and the one-way ones, by distance queries; negative inside.
    float clearance(std::string* who = nullptr) const {
        const World& w = *world;
        const ShapeGeometry capsule = w.geometry(hero->shape());
        float least = 1.0e9f;
        for (BodyId b : w.bodies()) {
            if (b == hero->body() || w.bodyType(b) == BodyType::Dynamic) continue;
            for (ShapeId s : w.shapes(b)) {
                if (hero->isOneWay(s)) continue;
                const DistanceResult d = shapeDistance(capsule, w.transform(hero->body()),
                                                       w.geometry(s), w.transform(b));
                const float gap = d.overlap ? -d.depth : d.distance;
                if (gap < least && who) *who = "shape " + std::to_string(s.index);
                least = std::min(least, gap);
            }
        }
        return least;
    }
};

// A floor with its top at y = 0 from x = -20 to 20.
BodyId addFloor(Level& l) {
    const BodyId floor = l.staticBody();
    l.box(floor, 20.0f, 0.5f, {0.0f, -0.5f});
    return floor;
}

// ---- walking, ledges, slopes --------------------------------------------------

TEST(Character, StandsOnTheFloorAndRunsAtItsSpeed) {
    Level l;
    const BodyId floor = addFloor(l);
    l.addHero({0.0f, kHalfHeight + 0.01f});
    l.run(30, {});
    EXPECT_TRUE(l.hero->grounded());
    EXPECT_EQ(l.hero->ground(), floor);
    EXPECT_NEAR(l.feet(), 0.0f, 2.0f * kLinearSlop);
    const float x = l.pos().x;
    l.run(60, {1.0f, false}, [&] { ASSERT_NEAR(l.feet(), 0.0f, 2.0f * kLinearSlop); });
    EXPECT_NEAR(l.pos().x - x, 6.0f, 0.11f);
}

// A ledge lower than stepHeight is walked up; one taller stops the run.
TEST(Character, StepsUpLedgesUpToItsStepHeightAndNotAbove) {
    for (float ledge : {0.1f, 0.28f, 0.33f, 0.45f}) {
        Level l;
        const BodyId floor = addFloor(l);
        l.box(floor, 5.0f, 0.5f * ledge, {5.0f, 0.5f * ledge});
        CharacterDef def;
        def.stepHeight = 0.3f;
        l.addHero({-3.0f, kHalfHeight + 0.01f}, def);
        l.run(90, {1.0f, false});
        if (ledge < def.stepHeight) {
            EXPECT_GT(l.pos().x, 3.0f) << "ledge " << ledge;
            EXPECT_NEAR(l.feet(), ledge, 2.0f * kLinearSlop) << "ledge " << ledge;
            EXPECT_TRUE(l.hero->grounded());
        } else {
            EXPECT_LT(l.pos().x, -0.29f) << "ledge " << ledge;
            EXPECT_NEAR(l.feet(), 0.0f, 2.0f * kLinearSlop) << "ledge " << ledge;
        }
    }
}

// A floor, a ramp at `degrees` from x = 0 for 5 m, then a plateau: a chain
// listed right to left, so its one-sided edges face up.
void addRamp(Level& l, float degrees) {
    const float rise = 5.0f * std::tan(degrees * 3.14159265f / 180.0f);
    ChainDef chain;
    chain.points = {{20.0f, rise}, {5.0f, rise}, {0.0f, 0.0f}, {-20.0f, 0.0f}};
    l.world->createChain(l.staticBody(), chain);
}

TEST(Character, WalksUpSlopesUpToMaxSlope) {
    Level l;
    addRamp(l, 30.0f);
    l.addHero({-3.0f, kHalfHeight + 0.01f});
    l.run(150, {1.0f, false});
    EXPECT_GT(l.pos().x, 6.0f);
    EXPECT_NEAR(l.feet(), 5.0f * std::tan(30.0f * 3.14159265f / 180.0f), 2.0f * kLinearSlop);
    EXPECT_TRUE(l.hero->grounded());
}

// Standing still on a walkable slope it stays put: it presses into the
// ground along the ground's normal, not straight down (which the plane
// solver turned into a slide down the slope every step).
TEST(Character, StandsStillOnASlopeWithoutCreeping) {
    for (float degrees : {10.0f, 23.0f, 45.0f}) {
        Level l;
        addRamp(l, degrees);
        const float tan = std::tan(degrees * 3.14159265f / 180.0f);
        l.addHero({2.5f, 2.5f * tan + kHalfHeight + 0.3f});
        l.run(30, {});
        ASSERT_TRUE(l.hero->grounded()) << degrees;
        const Vec2 at = l.pos();
        l.run(120, {});
        EXPECT_NEAR(l.pos().x, at.x, kLinearSlop) << degrees;
        EXPECT_NEAR(l.pos().y, at.y, kLinearSlop) << degrees;
        EXPECT_TRUE(l.hero->grounded()) << degrees;
    }
}

// Steeper than maxSlope is not walkable: held into it, the character gets
// no higher than the rounded foot of the ramp, whether the ramp is steep
// (60° against the default 50°) or maxSlope is set low (30° against 20°).
TEST(Character, SlopesSteeperThanMaxSlopeAreNotWalkable) {
    struct Case {
        float ramp, maxSlope;
    };
    for (const Case c : {Case{60.0f, 0.872664626f}, Case{30.0f, 0.34906585f}}) {
        Level l;
        addRamp(l, c.ramp);
        CharacterDef def;
        def.maxSlope = c.maxSlope;
        l.addHero({-3.0f, kHalfHeight + 0.01f}, def);
        float highest = l.feet();
        l.run(150, {1.0f, false}, [&] { highest = std::max(highest, l.feet()); });
        EXPECT_LT(highest, 0.1f) << "ramp " << c.ramp;
        EXPECT_LT(l.pos().x, 0.3f) << "ramp " << c.ramp;
    }
}

// ---- one-way surfaces, ceilings, events --------------------------------------------

// Under a one-way board (top at y = 1.5), a jump goes up through it and the
// character lands on top and stays there walking along it. The same board
// solid is a ceiling: the jump stops under it.
TEST(Character, OneWaySurfacesPassFromBelowAndHoldFromAbove) {
    Level l;
    addFloor(l);
    const BodyId board = l.staticBody();
    l.oneWayBox(board, 3.0f, 0.1f, {0.0f, 1.4f});
    l.addHero({0.0f, kHalfHeight + 0.01f});
    l.run(5, {});
    l.run(1, {0.0f, true});
    l.run(80, {});
    EXPECT_TRUE(l.hero->grounded());
    EXPECT_EQ(l.hero->ground(), board);
    EXPECT_NEAR(l.feet(), 1.5f, 2.0f * kLinearSlop);
    l.run(30, {0.5f, false}, [&] { ASSERT_NEAR(l.feet(), 1.5f, 2.0f * kLinearSlop); });
}

TEST(Character, OneWaySurfacesHoldACharacterFallingOntoThem) {
    Level l;
    addFloor(l);
    const BodyId board = l.staticBody();
    l.oneWayBox(board, 3.0f, 0.1f, {0.0f, 1.4f});
    l.addHero({0.0f, 4.0f});
    int landings = 0;
    l.run(120, {}, [&] { landings += l.hero->events().landed ? 1 : 0; });
    EXPECT_EQ(landings, 1);
    EXPECT_EQ(l.hero->ground(), board);
    EXPECT_NEAR(l.feet(), 1.5f, 2.0f * kLinearSlop);
}

TEST(Character, EventsForJumpLandingAndCeiling) {
    Level l;
    const BodyId floor = addFloor(l);
    const BodyId roof = l.staticBody();
    l.box(roof, 1.0f, 0.1f, {4.0f, 2.1f});  // bottom at 2.0: 0.6 m over the head
    l.addHero({0.0f, 3.0f});
    // Falling onto the floor: one landing, on the step it touches.
    int landed = 0;
    l.run(90, {}, [&] {
        const CharacterEvents& e = l.hero->events();
        EXPECT_FALSE(e.jumped || e.leftGround || e.hitCeiling);
        landed += e.landed ? 1 : 0;
    });
    EXPECT_EQ(landed, 1);
    // A jump in the open: jumped and left the ground, no ceiling.
    l.step({0.0f, true});
    EXPECT_TRUE(l.hero->events().jumped);
    EXPECT_TRUE(l.hero->events().leftGround);
    EXPECT_FALSE(l.hero->events().landed);
    bool ceiling = false;
    landed = 0;
    l.run(90, {}, [&] {
        ceiling = ceiling || l.hero->events().hitCeiling;
        landed += l.hero->events().landed ? 1 : 0;
    });
    EXPECT_FALSE(ceiling);
    EXPECT_EQ(landed, 1);
    EXPECT_EQ(l.hero->ground(), floor);
    // Under the roof: the jump hits it, names it, and goes no higher.
    l.run(40, {1.0f, false});  // to x = 4
    l.run(1, {});
    float top = 0.0f;
    l.step({0.0f, true});
    l.run(40, {}, [&] {
        top = std::max(top, l.pos().y + kHalfHeight);
        if (l.hero->events().hitCeiling) {
            ceiling = true;
            EXPECT_EQ(l.hero->events().ceiling, roof);
        }
    });
    EXPECT_TRUE(ceiling);
    EXPECT_LT(top, 2.0f);
}

// ---- platforms ------------------------------------------------------------------

BodyId addPlatform(Level& l, Vec2 at, float halfWidth) {
    BodyDef d;
    d.type = BodyType::Kinematic;
    d.position = at;
    const BodyId p = l.world->createBody(d);
    l.box(p, halfWidth, 0.15f, {0.0f, 0.0f});
    return p;
}

// On a kinematic platform moving sideways and up and down, the character's
// displacement each step is the platform's.
TEST(Character, MovingPlatformsCarryIt) {
    Level l;
    const BodyId p = addPlatform(l, {0.0f, 2.0f}, 1.5f);
    l.addHero({0.5f, 2.15f + kHalfHeight + 0.01f});
    l.run(10, {});
    ASSERT_EQ(l.hero->ground(), p);
    for (int phase = 0; phase < 4; ++phase) {
        const Vec2 v = phase == 0   ? Vec2{2.0f, 0.0f}
                       : phase == 1 ? Vec2{-1.0f, 1.5f}
                       : phase == 2 ? Vec2{0.5f, -1.5f}
                                    : Vec2{-3.0f, -0.5f};
        l.world->setLinearVelocity(p, v);
        for (int i = 0; i < 60; ++i) {
            const Vec2 heroFrom = l.pos(), platformFrom = l.world->position(p);
            l.run(1, {});
            const Vec2 carried = l.pos() - heroFrom;
            const Vec2 moved = l.world->position(p) - platformFrom;
            ASSERT_NEAR(carried.x, moved.x, 1.0e-3f) << "phase " << phase << " step " << i;
            ASSERT_NEAR(carried.y, moved.y, 3.0f * kLinearSlop)
                << "phase " << phase << " step " << i;
            ASSERT_EQ(l.hero->ground(), p);
        }
    }
}

// On a turning platform the character is carried by the motion of the
// point it stands on: each step it moves as that point of the platform
// moved, and it keeps its place on the platform as it turns there and back.
TEST(Character, RotatingPlatformsCarryIt) {
    Level l;
    const BodyId p = addPlatform(l, {0.0f, 2.0f}, 3.0f);
    l.addHero({1.5f, 2.15f + kHalfHeight + 0.01f});
    l.run(10, {});
    const Vec2 start = l.world->localPoint(p, l.pos());
    float worst = 0.0f;
    for (float w : {1.0f, -1.0f}) {
        l.world->setAngularVelocity(p, w);
        for (int i = 0; i < 24; ++i) {
            l.hero->beginStep();
            ASSERT_EQ(l.hero->ground(), p);
            const Vec2 touched = l.hero->state().groundLocal;
            const Vec2 from = l.pos(), pointFrom = l.world->worldPoint(p, touched);
            l.world->step(kDt);
            l.hero->update({}, kDt);
            const Vec2 expected = l.world->worldPoint(p, touched) - pointFrom;
            worst = std::max(worst, length(l.pos() - from - expected));
        }
    }
    // A point 1.5 m out moves 2.5 cm a step: left behind, the character
    // would be off by that much.
    EXPECT_LT(worst, 0.001f);
    const Vec2 end = l.world->localPoint(p, l.pos());
    EXPECT_NEAR(end.x, start.x, 0.02f);
    EXPECT_NEAR(end.y, start.y, 0.02f);
}

// ---- pushing ------------------------------------------------------------------

// Without gravity a crate floating in the character's way (not turning,
// so its speed is that of the point pushed) gains at most pushForce × dt of
// momentum per step, gets moving, and is not pushed beyond the run speed.
TEST(Character, PushesDynamicBodiesWithABoundedForce) {
    for (float force : {5.0f, 400.0f}) {
        Level l(test::noGravity());
        BodyDef cd;
        cd.type = BodyType::Dynamic;
        cd.position = {1.5f, 0.0f};
        cd.fixedRotation = true;
        const BodyId crate = l.world->createBody(cd);
        l.box(crate, 0.5f, 0.5f, {0.0f, 0.0f});
        CharacterDef def;
        def.gravity = 0.0f;
        def.pushForce = force;
        l.addHero({0.0f, 0.0f}, def);
        const float mass = l.world->mass(crate);
        float fastest = 0.0f;
        for (int i = 0; i < 120; ++i) {
            const float before = l.world->linearVelocity(crate).x;
            l.step({1.0f, false});
            const float gained = mass * (l.world->linearVelocity(crate).x - before);
            ASSERT_LE(gained, force * kDt * 1.0001f + 1.0e-6f)
                << "force " << force << " step " << i;
            fastest = std::max(fastest, l.world->linearVelocity(crate).x);
        }
        EXPECT_GT(fastest, force > 100.0f ? 5.0f : 0.5f) << "force " << force;
        EXPECT_LE(fastest, def.runSpeed * 1.01f);
    }
}

// ---- random levels -------------------------------------------------------------

// A level 40 m wide from the seed: a ground of chain runs, segments and box
// tiles (single boxes and rows of equal tiles) at varying heights and gentle
// slopes, raised blocks and one-way boards above, walls at both ends.
void buildRandomLevel(Level& l, std::uint32_t seed) {
    test::Rng rng(seed);
    const BodyId ground = l.staticBody();
    float x = -20.0f, y = 0.0f;
    while (x < 20.0f) {
        const float w = rng.uniform(1.5f, 4.0f);
        switch (rng.below(3)) {
            case 0: {  // a chain run with a few gentle bends
                ChainDef chain;
                chain.points.push_back({x, y});
                const int bends = rng.integer(1, 3);
                for (int k = 1; k <= bends; ++k) {
                    const float nx = x + w * float(k) / float(bends);
                    const float ny =
                        std::clamp(y + rng.uniform(-0.5f, 0.5f) * w / float(bends), -2.0f, 2.0f);
                    chain.points.push_back({nx, ny});
                }
                x = chain.points.back().x;
                y = chain.points.back().y;
                // Right to left, so the one-sided edges face up.
                std::reverse(chain.points.begin(), chain.points.end());
                l.world->createChain(ground, chain);
                break;
            }
            case 1: {  // a segment, flat or sloped
                const float ny = std::clamp(y + rng.uniform(-0.4f, 0.4f) * w, -2.0f, 2.0f);
                l.world->createShape(ground, ShapeDef{}, Segment{{x, y}, {x + w, ny}});
                x += w;
                y = ny;
                break;
            }
            default: {  // a row of box tiles, each its own body, maybe a step up or down
                y += rng.chance(0.5f) ? rng.uniform(-0.25f, 0.25f) : 0.0f;
                const float tile = rng.chance(0.5f) ? 0.5f : 1.0f;
                const int n = std::max(1, int(w / tile));
                for (int k = 0; k < n; ++k) {
                    const BodyId t = l.staticBody();
                    l.box(t, 0.5f * tile, 0.5f * tile,
                          {x + (float(k) + 0.5f) * tile, y - 0.5f * tile});
                }
                x += float(n) * tile;
                break;
            }
        }
        // Now and then a block to jump or step onto, or a one-way board.
        if (rng.chance(0.35f)) {
            const float h = rng.uniform(0.1f, 1.0f);
            l.box(ground, 0.4f, 0.5f * h, {x - 0.6f, y + 0.5f * h});
        } else if (rng.chance(0.3f)) {
            l.oneWayBox(ground, rng.uniform(0.8f, 2.0f), 0.1f,
                        {x - 1.0f, y + rng.uniform(1.5f, 2.6f)});
        }
    }
    l.box(ground, 0.5f, 10.0f, {-20.5f, 0.0f});
    l.box(ground, 0.5f, 10.0f, {x + 0.5f, 0.0f});
}

// A seeded script of run, turn and jump inputs.
CharacterInput scripted(test::Rng& rng) {
    return CharacterInput{rng.uniform(-1.0f, 1.0f) < -0.3f ? -1.0f : rng.uniform(0.0f, 1.0f),
                          rng.chance(0.3f)};
}

TEST(Character, RandomLevelsNeverPutItInsideGeometry) {
    for (std::uint32_t seed = 1; seed <= 8; ++seed) {
        Level l;
        buildRandomLevel(l, seed);
        l.addHero({-18.0f, 4.0f});
        test::Rng rng(seed * 7919u);
        int grounded = 0;
        float left = l.pos().x, right = l.pos().x;
        for (int phase = 0; phase < 40; ++phase) {
            l.run(rng.integer(20, 60), scripted(rng), [&] {
                grounded += l.hero->grounded();
                left = std::min(left, l.pos().x);
                right = std::max(right, l.pos().x);
            });
            if (::testing::Test::HasFatalFailure()) {
                ADD_FAILURE() << "seed " << seed << " phase " << phase;
                return;
            }
        }
        EXPECT_GT(right - left, 8.0f) << "seed " << seed;  // it went places
        EXPECT_GT(grounded, 200) << "seed " << seed;       // it stood somewhere, not fell forever
        EXPECT_GT(l.pos().y, -3.0f) << "seed " << seed;
    }
}

// A random level with a moving platform and a crate, scripted input: the
// same bits with 1 and 4 workers, and after a World snapshot plus the
// character's state (through its byte form) restored.
struct Recorded {
    std::vector<std::uint64_t> hashes;
    std::vector<CharacterStateBytes> states;
};

void buildBusyLevel(Level& l) {
    buildRandomLevel(l, 3);
    const BodyId p = addPlatform(l, {-12.0f, 3.5f}, 1.5f);
    l.world->setLinearVelocity(p, {0.8f, 0.0f});
    l.world->setAngularVelocity(p, 0.2f);
    BodyDef cd;
    cd.type = BodyType::Dynamic;
    cd.position = {-14.0f, 4.0f};
    l.box(l.world->createBody(cd), 0.4f, 0.4f, {0.0f, 0.0f});
    l.addHero({-17.0f, 4.0f});
}

void record(Level& l, test::Rng& rng, int phases, Recorded& out) {
    for (int phase = 0; phase < phases; ++phase) {
        const CharacterInput in = scripted(rng);
        for (int i = 0; i < 30; ++i) {
            l.step(in);
            out.hashes.push_back(l.world->stateHash());
            out.states.push_back(characterStateToBytes(l.hero->state()));
        }
    }
}

TEST(Character, SameBitsWithOneAndFourWorkersAndAnySimdWidth) {
    struct Setup {
        int workers;
        SimdWidth simd;
    };
    const Setup setups[] = {
        {1, SimdWidth::Scalar}, {4, SimdWidth::Scalar}, {1, SimdWidth::Auto}, {4, SimdWidth::Auto}};
    Recorded runs[4];
    for (int k = 0; k < 4; ++k) {
        WorldDef def;
        def.workerCount = setups[k].workers;
        def.simdWidth = setups[k].simd;
        Level l(def);
        buildBusyLevel(l);
        test::Rng rng(42);
        record(l, rng, 20, runs[k]);
    }
    for (int k = 1; k < 4; ++k) {
        EXPECT_EQ(runs[k].hashes, runs[0].hashes) << "setup " << k;
        EXPECT_EQ(runs[k].states, runs[0].states) << "setup " << k;
    }
}

TEST(Character, SnapshotAndStateRestoredGiveTheSameBits) {
    Level l;
    buildBusyLevel(l);
    test::Rng rng(5);
    Recorded warmup, first, second;
    record(l, rng, 8, warmup);
    const Snapshot snap = l.world->snapshot();
    const CharacterStateBytes saved = characterStateToBytes(l.hero->state());
    const test::Rng rngAtSnapshot = rng;
    record(l, rng, 12, first);
    l.world->restore(Snapshot::fromBytes(snap.bytes()));
    l.hero->restore(characterStateFromBytes(saved));
    test::Rng again = rngAtSnapshot;
    record(l, again, 12, second);
    EXPECT_EQ(first.hashes, second.hashes);
    EXPECT_EQ(first.states, second.states);
}

TEST(Character, DamagedStateBytesAreRefused) {
    Level l;
    addFloor(l);
    l.addHero({0.0f, 2.0f});
    l.run(30, {1.0f, false});
    const CharacterStateBytes good = characterStateToBytes(l.hero->state());
    const CharacterState back = characterStateFromBytes(good);
    EXPECT_EQ(characterStateToBytes(back), good);
    for (std::size_t at :
         {std::size_t(0), std::size_t(9), std::size_t(20), kCharacterStateBytes - 1}) {
        CharacterStateBytes bad = good;
        bad[at] ^= 0x10;
        try {
            (void)characterStateFromBytes(bad);
            ADD_FAILURE() << "byte " << at << " damaged, accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), "bytes");
        }
    }
    EXPECT_THROW((void)characterStateFromBytes(std::span(good.data(), good.size() - 1)), Error);
}

// ---- allocation and refusals -------------------------------------------------------

TEST(Character, WarmedUpUpdatesAllocateNothing) {
    Level l;
    buildBusyLevel(l);
    test::Rng rng(9);
    Recorded warm;
    record(l, rng, 10, warm);
    long long during = 0;
    for (int phase = 0; phase < 10; ++phase) {
        const CharacterInput in = scripted(rng);
        for (int i = 0; i < 30; ++i) {
            const long long a = test::allocationCount();
            l.hero->beginStep();
            during += test::allocationCount() - a;
            l.world->step(kDt);
            const long long b = test::allocationCount();
            l.hero->update(in, kDt);
            during += test::allocationCount() - b;
        }
    }
    EXPECT_EQ(during, 0);
}

// Each bad def member is refused with its name, and the world is untouched.
TEST(Character, RefusesABadDefByNameAndLeavesTheWorldAlone) {
    World w;
    const BodyId dynamic = w.createBody(BodyDef{BodyType::Dynamic});
    BodyDef gone;
    gone.type = BodyType::Kinematic;
    const BodyId stale = w.createBody(gone);
    w.destroyBody(stale);
    const std::uint64_t hash = w.stateHash();
    const std::size_t bodies = w.bodies().size();
    struct Bad {
        const char* field;
        std::function<void(CharacterDef&)> spoil;
    };
    const Bad cases[] = {
        {"position", [](CharacterDef& d) { d.position.x = NAN; }},
        {"radius", [](CharacterDef& d) { d.radius = 0.01f; }},
        {"height", [](CharacterDef& d) { d.height = 0.6f; }},
        {"height", [](CharacterDef& d) { d.height = INFINITY; }},
        {"runSpeed", [](CharacterDef& d) { d.runSpeed = -1.0f; }},
        {"jumpSpeed", [](CharacterDef& d) { d.jumpSpeed = NAN; }},
        {"gravity", [](CharacterDef& d) { d.gravity = 2000.0f; }},
        {"maxSlope", [](CharacterDef& d) { d.maxSlope = 1.6f; }},
        {"stepHeight", [](CharacterDef& d) { d.stepHeight = 2.0f; }},
        {"pushForce", [](CharacterDef& d) { d.pushForce = -5.0f; }},
        {"velocity",
         [](CharacterDef& d) {
             d.velocity = {0.0f, 2.0e5f};
         }},
        {"body", [&](CharacterDef& d) { d.body = dynamic; }},
        {"body", [&](CharacterDef& d) { d.body = stale; }},
    };
    for (const Bad& c : cases) {
        CharacterDef def;
        c.spoil(def);
        try {
            Character hero(w, def);
            ADD_FAILURE() << c.field << ": accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), c.field) << e.what();
        }
        EXPECT_EQ(w.bodies().size(), bodies) << c.field;
        EXPECT_EQ(w.stateHash(), hash) << c.field;
    }
}

// Its body destroyed, a Character does nothing (and throws nothing).
TEST(Character, IsInertOnceItsBodyIsDestroyed) {
    Level l;
    addFloor(l);
    l.addHero({0.0f, 2.0f});
    l.run(10, {1.0f, true});
    l.world->destroyBody(l.hero->body());
    const std::uint64_t hash = l.world->stateHash();
    for (int i = 0; i < 5; ++i) l.step({1.0f, true});
    EXPECT_EQ(l.hero->work(), 0);
    l.world->step(kDt);
    EXPECT_EQ(l.world->stateHash(), hash);
}

TEST(Character, RefusesBadInputAndStateAndChangesNothing) {
    Level l;
    addFloor(l);
    l.addHero({0.0f, 2.0f});
    l.run(20, {1.0f, false});
    const CharacterStateBytes before = characterStateToBytes(l.hero->state());
    const std::uint64_t hash = l.world->stateHash();
    auto refused = [&](const char* field, const std::function<void()>& call) {
        try {
            call();
            ADD_FAILURE() << field << ": accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), field) << e.what();
        }
        EXPECT_EQ(characterStateToBytes(l.hero->state()), before) << field;
        EXPECT_EQ(l.world->stateHash(), hash) << field;
    };
    refused("input.move", [&] { l.hero->update({1.5f, false}, kDt); });
    refused("input.move", [&] { l.hero->update({NAN, true}, kDt); });
    refused("dt", [&] { l.hero->update({}, -kDt); });
    refused("dt", [&] { l.hero->update({}, 2.0f); });
    CharacterState s = l.hero->state();
    s.velocity.x = NAN;
    refused("velocity", [&] { l.hero->restore(s); });
    s = l.hero->state();
    s.ground = BodyId{7, 3};
    refused("ground", [&] { l.hero->restore(s); });
}

}  // namespace
}  // namespace carom
