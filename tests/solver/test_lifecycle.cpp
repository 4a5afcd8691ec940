// The solver's bookkeeping under random API churn: contacts, islands, the
// awake array and proxies stay consistent while bodies, shapes and joints
// come and go, change type, teleport, refilter and sleep between steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "tests/support/internals.hpp"
#include "tests/support/fixtures.hpp"

namespace carom {
namespace {

using detail::Body;
using detail::Contact;

// Every cross-reference the solver relies on, checked from both sides.
void checkInvariants(const World& world) {
    const detail::WorldImpl& w = internals(world);
    int alive = 0;
    for (size_t ci = 0; ci < w.contacts.size(); ++ci) {
        const Contact& c = w.contacts[ci];
        if (!c.alive) continue;
        ++alive;
        ASSERT_TRUE(w.shapes[size_t(c.shapeA)].alive);
        ASSERT_TRUE(w.shapes[size_t(c.shapeB)].alive);
        ASSERT_LT(c.shapeA, c.shapeB);
        for (int b : {c.bodyA, c.bodyB}) {
            const auto& list = w.bodies[size_t(b)].contacts;
            ASSERT_EQ(std::count(list.begin(), list.end(), int(ci)), 1);
        }
        ASSERT_EQ(w.bodies[size_t(c.bodyA)].contacts[size_t(c.edgeA)], int(ci));
        ASSERT_EQ(w.bodies[size_t(c.bodyB)].contacts[size_t(c.edgeB)], int(ci));
        ASSERT_EQ(detail::findContact(w, c.shapeB, c.shapeA), int(ci));
        if (c.flags & detail::kContactLinked) {
            ASSERT_EQ(w.bodies[size_t(c.bodyA)].islandId, w.bodies[size_t(c.bodyB)].islandId);
        }
    }
    ASSERT_EQ(alive, w.contactCount);
    ASSERT_EQ(int(w.pairMap.size()), alive);
    for (size_t i = 0; i < w.awakeBodies.size(); ++i)
        ASSERT_EQ(w.bodies[size_t(w.awakeBodies[i])].awakeIndex, int(i));
    for (size_t bi = 0; bi < w.bodies.size(); ++bi) {
        const Body& b = w.bodies[bi];
        if (!b.alive) continue;
        ASSERT_EQ(b.awakeIndex >= 0, b.awake) << "body " << bi;
        if (b.type == BodyType::Static) {
            ASSERT_FALSE(b.awake);
        }
        if (!b.enabled) {
            // Out of the simulation (World::disableBody).
            ASSERT_FALSE(b.awake) << "body " << bi;
            ASSERT_EQ(b.islandId, -1);
            ASSERT_TRUE(b.contacts.empty());
        } else if (b.type == BodyType::Dynamic) {
            ASSERT_GE(b.islandId, 0);
            const detail::Island& isl = w.islands[size_t(b.islandId)];
            ASSERT_TRUE(isl.alive);
            ASSERT_EQ(std::count(isl.bodies.begin(), isl.bodies.end(), int(bi)), 1);
            ASSERT_EQ(isl.awake, b.awake) << "body " << bi;
        } else {
            ASSERT_EQ(b.islandId, -1);
        }
        for (int s : b.shapes) ASSERT_EQ(w.shapes[size_t(s)].proxy >= 0, b.enabled);
    }
    for (const detail::Joint& j : w.joints)
        if (j.alive && j.islandLinked) {
            ASSERT_EQ(w.bodies[size_t(j.bodyA)].islandId, w.bodies[size_t(j.bodyB)].islandId);
            ASSERT_TRUE(w.bodies[size_t(j.bodyA)].enabled && w.bodies[size_t(j.bodyB)].enabled);
        }
}

// Right after a step: the solver's contact list (gatherConstraints, from the
// collide stage's owner walk plus the bodies that stage woke) is exactly the
// touching contacts with a side among the step's bodies, each once (against
// brute force over all contacts). Returns how many step bodies the collide
// stage woke.
size_t checkStepConstraints(const World& world) {
    const detail::WorldImpl& w = internals(world);
    const detail::StepScratch& S = w.scratch;
    std::vector<char> inStep(w.bodies.size(), 0);
    for (int bi : S.stepBodies) inStep[size_t(bi)] = 1;
    std::vector<int> expected;
    for (size_t ci = 0; ci < w.contacts.size(); ++ci) {
        const Contact& c = w.contacts[ci];
        if (c.alive && c.manifold.pointCount > 0 &&
            (inStep[size_t(c.bodyA)] || inStep[size_t(c.bodyB)]))
            expected.push_back(int(ci));
    }
    std::vector<int> got(S.constraints.begin(), S.constraints.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, expected);
    return S.stepBodies.size() - S.collideBodies;
}

TEST(Lifecycle, StepConstraintsAreTheTouchingContactsOfTheStepsBodies) {
    WorldDef def;
    World w(def);
    test::addGround(w, {0.0f, -0.5f}, 30.0f, 0.5f);
    for (int row = 0; row < 6; ++row)
        for (int i = 0; i < 6 - row; ++i)
            test::addBox(w, {float(i) - 0.5f * float(5 - row), 0.5f + float(row)}, 0.5f, 0.5f);
    int steps = 0;
    for (; steps < 600 && !internals(w).awakeBodies.empty(); ++steps) {
        w.step(test::kDt);
        checkStepConstraints(w);
    }
    ASSERT_TRUE(internals(w).awakeBodies.empty()) << "the pyramid sleeps";
    // A box dropped on the sleeping pyramid: the collide stage wakes it when
    // they touch, and the woken bodies' contacts join the step.
    test::addBox(w, {0.0f, 7.0f}, 0.5f, 0.5f);
    size_t woken = 0;
    for (int step = 0; step < 120; ++step) {
        w.step(test::kDt);
        woken += checkStepConstraints(w);
        if (HasFailure()) return;
    }
    EXPECT_GE(woken, 21u) << "the collide stage woke the pyramid";
}

TEST(Lifecycle, RandomChurnKeepsBookkeepingConsistent) {
    for (uint32_t seed : {1u, 2u, 3u}) {
        WorldDef def;
        def.broadphase = seed == 2u ? BroadphaseType::SortAndSweep : BroadphaseType::Tree;
        World w(def);
        test::addGround(w, {0.0f, -0.5f}, 30.0f, 0.5f);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        std::vector<BodyId> bodies;
        std::vector<JointId> joints;
        for (int step = 0; step < 400; ++step) {
            const float r = u(rng);
            if (r < 0.25f || bodies.size() < 4) {
                bodies.push_back(test::addBox(w, {-10.0f + 20.0f * u(rng), 1.0f + 6.0f * u(rng)},
                                              0.3f + 0.3f * u(rng), 0.3f, 3.0f * u(rng)));
            } else {
                BodyId b = bodies[size_t(rng() % bodies.size())];
                const float op = u(rng);
                if (op < 0.1f) {
                    w.destroyBody(b);
                    bodies.erase(std::find(bodies.begin(), bodies.end(), b));
                } else if (op < 0.2f) {
                    const BodyType types[] = {BodyType::Static, BodyType::Kinematic,
                                              BodyType::Dynamic};
                    w.setBodyType(b, types[rng() % 3]);
                } else if (op < 0.3f) {
                    w.setTransform(b, {-10.0f + 20.0f * u(rng), 1.0f + 5.0f * u(rng)}, u(rng));
                } else if (op < 0.4f) {
                    Filter f;
                    f.categoryBits = 1ull << (rng() % 3);
                    f.maskBits = (rng() % 2) ? ~0ull : 1ull;
                    w.setFilter(w.shapes(b)[0], f);
                } else if (op < 0.5f) {
                    w.setAwake(b, u(rng) < 0.5f);
                } else if (op < 0.6f) {
                    BodyId other = bodies[size_t(rng() % bodies.size())];
                    if (other != b) {
                        DistanceJointDef d;
                        d.bodyA = b;
                        d.bodyB = other;
                        d.length = std::max(0.1f, distance(w.position(b), w.position(other)));
                        d.collideConnected = u(rng) < 0.5f;
                        joints.push_back(w.createJoint(d));
                    }
                } else if (op < 0.65f && !joints.empty()) {
                    JointId j = joints[size_t(rng() % joints.size())];
                    if (w.isValid(j)) w.destroyJoint(j);
                } else if (op < 0.7f) {
                    w.createShape(b, ShapeDef{}, Circle{{0.2f, 0.0f}, 0.2f});
                } else if (op < 0.75f) {
                    std::vector<ShapeId> shapes = w.shapes(b);
                    if (shapes.size() > 1) w.destroyShape(shapes.back());
                }
            }
            w.step(test::kDt);
            checkStepConstraints(w);
            checkInvariants(w);
            if (HasFailure()) {
                ADD_FAILURE() << "seed " << seed << " step " << step;
                return;
            }
        }
        // Let everything settle: the world falls asleep and stays consistent.
        test::run(w, 600);
        checkInvariants(w);
        for (BodyId b : w.bodies()) EXPECT_TRUE(isFinite(w.position(b)));
    }
}

// The same churn with bodies leaving and re-entering the simulation
// (disableBody / enableBody) and motion locks changing between steps.
TEST(Lifecycle, RandomChurnWithDisabledBodies) {
    for (uint32_t seed : {4u, 5u}) {
        WorldDef def;
        def.broadphase = seed == 5u ? BroadphaseType::SortAndSweep : BroadphaseType::Tree;
        World w(def);
        test::addGround(w, {0.0f, -0.5f}, 30.0f, 0.5f);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        std::vector<BodyId> bodies;
        int disables = 0, enables = 0;
        for (int step = 0; step < 300; ++step) {
            const float r = u(rng);
            if (r < 0.2f || bodies.size() < 4) {
                bodies.push_back(test::addBox(w, {-10.0f + 20.0f * u(rng), 1.0f + 6.0f * u(rng)},
                                              0.3f, 0.3f, 3.0f * u(rng)));
            } else {
                BodyId b = bodies[size_t(rng() % bodies.size())];
                const float op = u(rng);
                if (op < 0.25f) {
                    disables += w.isEnabled(b);
                    w.disableBody(b);
                } else if (op < 0.5f) {
                    enables += !w.isEnabled(b);
                    w.enableBody(b);
                } else if (op < 0.55f) {
                    w.destroyBody(b);
                    bodies.erase(std::find(bodies.begin(), bodies.end(), b));
                } else if (op < 0.65f) {
                    const BodyType types[] = {BodyType::Static, BodyType::Kinematic,
                                              BodyType::Dynamic};
                    w.setBodyType(b, types[rng() % 3]);
                } else if (op < 0.7f) {
                    w.setTransform(b, {-10.0f + 20.0f * u(rng), 1.0f + 5.0f * u(rng)}, u(rng));
                } else if (op < 0.8f) {
                    BodyId other = bodies[size_t(rng() % bodies.size())];
                    if (other != b) {
                        DistanceJointDef d;
                        d.bodyA = b;
                        d.bodyB = other;
                        d.length = std::max(0.1f, distance(w.position(b), w.position(other)));
                        w.createJoint(d);
                    }
                } else if (op < 0.85f) {
                    std::vector<JointId> js = w.joints(b);
                    if (!js.empty()) w.destroyJoint(js[0]);
                } else if (op < 0.9f) {
                    w.createShape(b, ShapeDef{}, Circle{{0.2f, 0.0f}, 0.2f});
                } else if (op < 0.95f) {
                    w.setMotionLocks(b, MotionLocks{u(rng) < 0.3f, u(rng) < 0.3f, u(rng) < 0.3f});
                } else {
                    w.setAwake(b, u(rng) < 0.5f);
                }
            }
            w.step(test::kDt);
            checkInvariants(w);
            if (HasFatalFailure()) {
                ADD_FAILURE() << "seed " << seed << " step " << step;
                return;
            }
        }
        EXPECT_GT(disables, 10);
        EXPECT_GT(enables, 10);
        for (BodyId b : w.bodies()) w.enableBody(b);
        test::run(w, 600);
        checkInvariants(w);
        for (BodyId b : w.bodies()) EXPECT_TRUE(isFinite(w.position(b)));
    }
}

// Body move events: one per body that took part in the step, with the flag
// set on the step its island fell asleep.
TEST(Lifecycle, MoveEventsReportFallingAsleep) {
    World w;
    test::addGround(w, {0.0f, -0.5f}, 10.0f, 0.5f);
    BodyId box = test::addBox(w, {0.0f, 0.5f}, 0.5f, 0.5f);
    int asleepEvents = 0;
    for (int i = 0; i < 120; ++i) {
        w.step(test::kDt);
        auto events = w.bodyMoveEvents();
        if (w.isAwake(box) || !events.empty()) {
            ASSERT_EQ(events.size(), 1u);
            EXPECT_EQ(events[0].body, box);
            if (events[0].fellAsleep) ++asleepEvents;
        }
    }
    EXPECT_EQ(asleepEvents, 1);
    EXPECT_FALSE(w.isAwake(box));
    EXPECT_TRUE(w.bodyMoveEvents().empty());
}

// A kinematic platform carries a box; a sleeping box wakes when the
// platform starts moving under it.
TEST(Lifecycle, KinematicPlatformCarriesAndWakes) {
    World w;
    BodyDef kd;
    kd.type = BodyType::Kinematic;
    BodyId platform = w.createBody(kd);
    w.createShape(platform, ShapeDef{}, makeBox(3.0f, 0.25f));
    BodyId box = test::addBox(w, {0.0f, 0.75f}, 0.5f, 0.5f);
    test::run(w, 120);
    EXPECT_FALSE(w.isAwake(box));
    w.setLinearVelocity(platform, {1.0f, 0.0f});
    EXPECT_TRUE(w.isAwake(box));
    test::run(w, 60);
    // Friction accelerates the box at μg until it rides along: it lags the
    // platform by v² / (2 μ g) = 1 / 12 m.
    EXPECT_NEAR(w.position(box).x, 1.0f - 1.0f / 12.0f, 0.01f);
    EXPECT_NEAR(w.linearVelocity(box).x, 1.0f, 0.01f);
    EXPECT_NEAR(w.position(box).y, 0.75f, 0.02f);
}

// A kinematic body creeping below the sleep threshold keeps moving, and so
// does the body hanging from it on a joint.
TEST(Lifecycle, SlowKinematicNeverSleepsNorWhatItHolds) {
    World w;
    BodyDef kd;
    kd.type = BodyType::Kinematic;
    kd.linearVelocity = {0.01f, 0.0f};
    BodyId crane = w.createBody(kd);
    w.createShape(crane, ShapeDef{}, makeBox(0.2f, 0.2f));
    BodyId load = test::addBox(w, {0.0f, -1.0f}, 0.2f, 0.2f);
    RevoluteJointDef d;
    d.bodyA = crane;
    d.bodyB = load;
    d.localAnchorA = {0.0f, 0.0f};
    d.localAnchorB = {0.0f, 1.0f};
    w.createJoint(d);
    test::run(w, 300);
    EXPECT_TRUE(w.isAwake(crane));
    EXPECT_TRUE(w.isAwake(load));
    EXPECT_NEAR(w.position(crane).x, 0.05f, 1e-4f);
    EXPECT_NEAR(w.position(load).x, 0.05f, 0.01f);
}

}  // namespace
}  // namespace carom

namespace carom {
namespace {

// The pair map against std::map on random inserts and erases.
TEST(Lifecycle, PairMapMatchesReference) {
    detail::PairMap map;
    std::map<std::pair<int, int>, int> ref;
    std::mt19937 rng(5);
    for (int op = 0; op < 200000; ++op) {
        const int a = int(rng() % 300), b = int(rng() % 300);
        if (a == b) continue;
        const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
        auto it = ref.find(key);
        if (rng() % 3 == 0 && it != ref.end()) {
            map.erase(b, a);
            ref.erase(it);
        } else if (it == ref.end()) {
            map.insert(a, b, op);
            ref[key] = op;
        }
        const int qa = int(rng() % 300), qb = int(rng() % 300);
        auto q = ref.find({std::min(qa, qb), std::max(qa, qb)});
        ASSERT_EQ(map.find(qa, qb), q == ref.end() ? -1 : q->second);
    }
    ASSERT_EQ(map.size(), ref.size());
    for (const auto& [key, value] : ref) ASSERT_EQ(map.find(key.second, key.first), value);
}

}  // namespace
}  // namespace carom
