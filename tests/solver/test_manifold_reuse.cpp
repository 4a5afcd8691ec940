// Manifold reuse (WorldDef::contactReuseDistance, engine/world/manifold_reuse.hpp):
// a resting stack reuses, moving pairs stop reusing past the tolerance, the
// reused separation matches the narrowphase for small motions, and the
// result is bit-identical for any worker count and both broadphases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using test::kDt;

constexpr float kReuse = 0.05f;  // Box2D v3's default (10 linear slops)

World makeReuseWorld(float reuse, bool sleep = false, int workers = 1,
                     BroadphaseType bp = BroadphaseType::Tree) {
    WorldDef def;
    def.enableSleep = sleep;
    def.contactReuseDistance = reuse;
    def.workerCount = workers;
    def.broadphase = bp;
    return World(def);
}

void buildStack(World& w, int boxes) {
    test::addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f);
    for (int i = 0; i < boxes; ++i) test::addBox(w, {0.0f, 0.5f + 1.0f * float(i)}, 0.5f, 0.5f);
}

TEST(ManifoldReuse, RestingStackReusesAndStaysPut) {
    World on = makeReuseWorld(kReuse);
    World off = makeReuseWorld(0.0f);
    buildStack(on, 8);
    buildStack(off, 8);
    int reusedLate = 0, touchingLate = 0;
    for (int k = 0; k < 240; ++k) {
        on.step(kDt);
        off.step(kDt);
        EXPECT_EQ(off.counters().reusedManifolds, 0);
        EXPECT_EQ(on.profile().reusedManifolds, on.counters().reusedManifolds);
        if (k >= 120) {
            reusedLate += on.counters().reusedManifolds;
            touchingLate += on.counters().touchingContacts;
        }
    }
    // Once settled nearly every touching contact keeps its manifold.
    EXPECT_GT(reusedLate, touchingLate * 9 / 10);
    // And the stack stands where it stands without reuse.
    for (const BodyId b : on.bodies()) {
        if (on.bodyType(b) != BodyType::Dynamic) continue;
        const Vec2 p = on.position(b);
        EXPECT_NEAR(p.x, 0.0f, 0.01f);
        EXPECT_LT(std::fabs(on.angle(b)), 0.01f);
    }
    const std::vector<BodyId> a = on.bodies(), b = off.bodies();
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
        EXPECT_NEAR(on.position(a[i]).y, off.position(b[i]).y, 0.01f);
}

// A frictionless box sliding at speed v moves v·dt a step: a manifold can be
// kept for k steps while k·v·dt < kReuse, then the narrowphase must run.
TEST(ManifoldReuse, SlidingPairStopsReusingBeyondTheTolerance) {
    for (const float v : {0.45f, 1.7f, 4.0f}) {
        World w = makeReuseWorld(kReuse);
        test::addGround(w, {0.0f, -0.5f}, 100.0f, 0.5f, 0.0f, 0.0f);
        test::addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f, 0.0f, 1.0f, 0.0f, {v, 0.0f});
        test::run(w, 10);  // settled on the ground
        int run = 0, longest = 0, total = 0;
        for (int k = 0; k < 120; ++k) {
            w.step(kDt);
            const int r = w.counters().reusedManifolds;
            ASSERT_LE(r, 1);
            total += r;
            run = r == 1 ? run + 1 : 0;
            longest = std::max(longest, run);
        }
        const int allowed = int(kReuse / (v * kDt));  // largest k with k·v·dt < kReuse (6, 1, 0)
        EXPECT_LE(longest, allowed) << "v " << v;
        if (allowed >= 1)
            EXPECT_GT(total, 0) << "v " << v;
        else
            EXPECT_EQ(total, 0) << "v " << v;
    }
}

// A box turning on a spot (its centre held by motion locks, spun by the
// test): the lever arm of the box's extent makes reuse stop after a turn of
// about kReuse / (extent + speculative distance).
TEST(ManifoldReuse, TurningPairStopsReusing) {
    World w = makeReuseWorld(kReuse);
    test::addGround(w, {0.0f, -0.5f}, 20.0f, 0.5f, 0.0f, 0.0f);
    const BodyId box = test::addBox(w, {0.0f, 0.099f}, 0.1f, 0.1f, 0.0f, 1.0f, 0.0f);
    w.setGravity({0.0f, 0.0f});
    test::run(w, 2);
    int reused = 0, computed = 0;
    float angle = 0.0f;
    for (int k = 0; k < 60; ++k) {
        angle += 0.01f;
        w.setTransform(box, {0.0f, 0.099f}, angle);
        w.setLinearVelocity(box, {0.0f, 0.0f});
        w.setAngularVelocity(box, 0.0f);
        w.step(0.0f);  // contacts only
        if (w.counters().reusedManifolds > 0)
            ++reused;
        else
            ++computed;
    }
    // Extent of a 0.2 m box ≈ 0.141 m (+0.02 speculative): 0.01 rad a step
    // moves its corners ~1.6 mm, which would allow ~30 steps; the body's own
    // turn (cos > 0.98, ~0.2 rad) stops reuse after ~20 steps.
    EXPECT_GT(reused, 40);
    EXPECT_GE(computed, 2);
}

// Sorted separations of the world's manifold between two bodies' shapes.
std::vector<float> worldSeparations(const World& w) {
    std::vector<float> s;
    for (const ContactData& c : w.contacts())
        for (int i = 0; i < c.pointCount; ++i) s.push_back(c.points[i].separation);
    std::sort(s.begin(), s.end());
    return s;
}

// Against the real narrowphase: a box resting on a box (and on a circle
// cap) is moved by random small motions from the pose its manifold was
// computed at; the reused separations must match collide() there.
//
// Tolerance: a kept point is a pair of material points, pA on A and pB on
// B, midway between the surfaces at the recorded pose (|pB − pA| = 0 then,
// each |sep0|/2 from its surface along n). After a relative motion of at
// most `moved` (translation δ, rotation Δθ) the fresh point is the same
// feature's vertex, offset from the material point by at most |sep0|/2 along
// a normal that turned by at most Δθ, and the reused normal turns with the
// reference body, within Δθ of the fresh one; so
//   |sep_reused − sep_fresh| <= (|sep0| + moved)·(1 − cos Δθ) + moved·|sin Δθ| + ε,
// ε = 1e-5 m for float round-off at these coordinates.
TEST(ManifoldReuse, ReusedSeparationMatchesTheNarrowphase) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    struct Case {
        ShapeGeometry lower;
        ShapeGeometry upper;
        float restY;
    };
    const Case cases[] = {
        {makeBox(1.0f, 0.5f), makeBox(0.4f, 0.3f), 0.798f},
        {makeBox(1.0f, 0.5f), Circle{{0.0f, 0.0f}, 0.3f}, 0.799f},
        {makeBox(1.0f, 0.5f), Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.2f}, 0.697f},
    };
    int compared = 0;
    for (const Case& cs : cases) {
        World w = makeReuseWorld(kReuse);
        w.setGravity({0.0f, 0.0f});
        BodyDef ld;
        ld.type = BodyType::Dynamic;
        const BodyId lower = w.createBody(ld);
        w.createShape(lower, ShapeDef{}, cs.lower);
        BodyDef ud = ld;
        ud.position = {0.1f, cs.restY};
        const BodyId upper = w.createBody(ud);
        w.createShape(upper, ShapeDef{}, cs.upper);
        w.step(0.0f);  // computed and recorded at the rest pose
        ASSERT_EQ(w.counters().reusedManifolds, 0);
        const std::vector<float> base = worldSeparations(w);
        ASSERT_FALSE(base.empty());
        for (int trial = 0; trial < 200; ++trial) {
            const Vec2 delta{0.02f * u(rng), 0.01f * u(rng)};
            const float dTheta = 0.03f * u(rng);
            w.setTransform(upper, Vec2{0.1f, cs.restY} + delta, dTheta);
            w.step(0.0f);
            const float moved = length(delta) + (0.5f + kSpeculativeDistance) * std::fabs(dTheta);
            const std::vector<float> reused = worldSeparations(w);
            const Manifold fresh =
                collide(cs.lower, w.transform(lower), cs.upper, w.transform(upper));
            std::vector<float> expect;
            for (int i = 0; i < fresh.pointCount; ++i) expect.push_back(fresh.points[i].separation);
            std::sort(expect.begin(), expect.end());
            if (w.counters().reusedManifolds == 0 || expect.size() != reused.size()) continue;
            const float tol = (std::fabs(base.front()) + moved) * (1.0f - std::cos(dTheta)) +
                              moved * std::fabs(std::sin(dTheta)) + 1.0e-5f;
            for (size_t i = 0; i < reused.size(); ++i)
                EXPECT_NEAR(reused[i], expect[i], tol) << "trial " << trial << " point " << i;
            ++compared;
            // Back to the recorded pose: the recorded separations exactly.
            w.setTransform(upper, {0.1f, cs.restY}, 0.0f);
            w.step(0.0f);
            ASSERT_EQ(w.counters().reusedManifolds, 1);
            const std::vector<float> again = worldSeparations(w);
            ASSERT_EQ(again.size(), base.size());
            for (size_t i = 0; i < base.size(); ++i) EXPECT_NEAR(again[i], base[i], 1.0e-6f);
        }
    }
    EXPECT_GT(compared, 300);
}

// Further than the tolerance from the recorded pose: recomputed, equal to
// the narrowphase bit for bit.
TEST(ManifoldReuse, BeyondTheToleranceTheNarrowphaseRuns) {
    World w = makeReuseWorld(kReuse);
    w.setGravity({0.0f, 0.0f});
    const BodyId g = test::addGround(w, {0.0f, -0.5f}, 5.0f, 0.5f);
    const BodyId b = test::addBox(w, {0.0f, 0.499f}, 0.5f, 0.5f);
    w.step(0.0f);
    w.setTransform(b, {0.06f, 0.499f}, 0.0f);
    w.step(0.0f);
    EXPECT_EQ(w.counters().reusedManifolds, 0);
    const Manifold fresh =
        collide(makeBox(5.0f, 0.5f), w.transform(g), makeBox(0.5f, 0.5f), w.transform(b));
    const std::vector<ContactData> cs = w.contacts();
    ASSERT_EQ(cs.size(), 1u);
    ASSERT_EQ(cs[0].pointCount, fresh.pointCount);
    for (int i = 0; i < fresh.pointCount; ++i)
        EXPECT_EQ(cs[0].points[i].separation, fresh.points[i].separation);
}

// Fast bodies and bullets never reuse.
TEST(ManifoldReuse, BulletsNeverReuse) {
    World w = makeReuseWorld(kReuse);
    buildStack(w, 1);
    const BodyId top = test::addBox(w, {0.0f, 1.5f}, 0.5f, 0.5f);
    w.setBullet(top, true);
    test::run(w, 120);
    // Ground–box reuses, the bullet's contact does not.
    EXPECT_EQ(w.counters().reusedManifolds, 1);
}

// A pile with reuse on: the same bits at 1 and 2 workers, tree and
// sort-and-sweep, and after a snapshot's byte form.
TEST(ManifoldReuse, DeterministicAcrossWorkersAndBroadphases) {
    auto build = [](World& w) {
        test::addGround(w, {0.0f, -0.5f}, 40.0f, 0.5f);
        for (int row = 0; row < 12; ++row)
            for (int i = 0; i < 12 - row; ++i)
                test::addBox(w, {(float(i) - 0.5f * float(11 - row)) * 1.05f, 0.5f + float(row)},
                             0.5f, 0.5f);
        for (int i = 0; i < 20; ++i)
            test::addBall(w, {-8.0f + 0.8f * float(i), 15.0f + 0.3f * float(i % 3)}, 0.3f);
    };
    World a = makeReuseWorld(kReuse, true, 1, BroadphaseType::Tree);
    World b = makeReuseWorld(kReuse, true, 2, BroadphaseType::Tree);
    World c = makeReuseWorld(kReuse, true, 2, BroadphaseType::SortAndSweep);
    build(a);
    build(b);
    build(c);
    int reused = 0;
    for (int k = 0; k < 200; ++k) {
        a.step(kDt);
        b.step(kDt);
        c.step(kDt);
        reused += a.counters().reusedManifolds;
        ASSERT_EQ(a.counters().reusedManifolds, b.counters().reusedManifolds) << k;
        ASSERT_EQ(a.stateHash(), b.stateHash()) << k;
        ASSERT_EQ(a.stateHash(), c.stateHash()) << k;
    }
    EXPECT_GT(reused, 1000);
    // The reuse records travel in snapshots: a restored copy steps on to the same bits.
    const std::vector<uint8_t> bytes = a.snapshot().bytes();
    World d = makeReuseWorld(kReuse, true);
    d.restore(Snapshot::fromBytes(bytes));
    for (int k = 0; k < 30; ++k) {
        a.step(kDt);
        d.step(kDt);
        ASSERT_EQ(a.stateHash(), d.stateHash()) << k;
    }
}

TEST(ManifoldReuse, SettingFollowsItsRule) {
    World w = makeReuseWorld(0.0f);
    EXPECT_EQ(w.contactReuseDistance(), 0.0f);
    w.setContactReuseDistance(0.05f);
    EXPECT_EQ(w.contactReuseDistance(), 0.05f);
    EXPECT_EQ(w.def().contactReuseDistance, 0.05f);
    for (const float bad : {-0.01f, std::nanf(""), kMaxContactReuseDistance * 2.0f}) {
        EXPECT_THROW(w.setContactReuseDistance(bad), Error);
        EXPECT_EQ(w.contactReuseDistance(), 0.05f);
        WorldDef def;
        def.contactReuseDistance = bad;
        try {
            validate(def);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), "contactReuseDistance");
        }
    }
    // Turned off live: nothing is reused from the next step on.
    buildStack(w, 3);
    test::run(w, 60);
    EXPECT_GT(w.counters().reusedManifolds, 0);
    w.setContactReuseDistance(0.0f);
    w.step(kDt);
    EXPECT_EQ(w.counters().reusedManifolds, 0);
}

}  // namespace
}  // namespace carom
