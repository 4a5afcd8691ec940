// One rule per concept: every entry point that takes a rotation, a position
// or an id judges it by the same rule (engine/core/rules.hpp, exposed as
// validateRotation and validatePosition), so each refuses the same bad values,
// naming its own field, and accepts the same good ones. The entry points:
// the World's setters and queries, <carom/collision.hpp>, the warm state and
// the scene loader, which is why these tables live with the scene tests.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <carom/carom.hpp>
#include <carom/collision.hpp>
#include <carom/scene.hpp>
#include <carom/validate.hpp>

#include "scene_test_util.hpp"

namespace carom::scene {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// One entry point of a rule: the field it names and a call that hands it
/// the value. JSON cannot write NaN or infinity, so the scene loader's entries
/// are only given finite values (finiteOnly).
template <class T>
struct EntryPoint {
    std::string name;
    std::string field;
    std::function<void(const T&)> call;
    bool finiteOnly = false;
};

bool isFiniteValue(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}
bool isFiniteValue(Rot q) {
    return std::isfinite(q.c) && std::isfinite(q.s);
}

std::string describe(Vec2 v) {
    return "[" + std::to_string(v.x) + ", " + std::to_string(v.y) + "]";
}
std::string describe(Rot q) {
    return describe(Vec2{q.c, q.s});
}

/// Every entry point refuses every bad value with InvalidArgument naming its
/// field (the Error's field() and message, or the scene error's path), and
/// takes every good value.
template <class T>
void expectOneRule(const std::vector<EntryPoint<T>>& entries, const std::vector<T>& bad,
                   const std::vector<T>& good) {
    for (const EntryPoint<T>& e : entries) {
        for (const T& value : bad) {
            if (e.finiteOnly && !isFiniteValue(value)) continue;
            SCOPED_TRACE(e.name + " given " + describe(value));
            try {
                e.call(value);
                ADD_FAILURE() << "accepted";
            } catch (const carom::Error& error) {
                EXPECT_EQ(error.code(), ErrorCode::InvalidArgument);
                EXPECT_EQ(error.field(), e.field);
                EXPECT_NE(std::string(error.what()).find(e.field), std::string::npos)
                    << error.what();
            } catch (const SceneError& error) {
                EXPECT_EQ(error.path, e.field) << error.what();
            }
        }
        for (const T& value : good) {
            SCOPED_TRACE(e.name + " given " + describe(value));
            EXPECT_NO_THROW(e.call(value));
        }
    }
}

/// A world with one dynamic body carrying a circle.
struct OneBody {
    World world;
    BodyId body;
    OneBody() {
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        body = world.createBody(bd);
        world.createShape(body, ShapeDef{}, Circle{{0.0f, 0.0f}, 0.5f});
    }
};

const ShapeGeometry kCircle = Circle{{0.0f, 0.0f}, 0.5f};
const auto kAny = [](ShapeId) { return true; };
const auto kAll = [](ShapeId, Vec2, Vec2, float) { return 1.0f; };

std::string number(float x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", double(x));
    return buf;
}

std::string sceneWith(const std::string& bodyKey, Vec2 v) {
    return R"({"carom": 1, "bodies": [{")" + bodyKey + R"(": [)" + number(v.x) + ", " +
           number(v.y) + "]}]}";
}

/// A resting box whose contact has a manifold reuse record, exported as a
/// cold file and a warm state (the warm state's entry points).
struct WarmPile {
    std::string cold;
    WarmState state;
    size_t contact = 0;
    WarmPile() {
        SceneRunner runner(loadString(R"({"carom": 1, "bodies": [
            {"type": "static", "shapes": [{"type": "box", "half_extents": [5, 0.5]}], "position": [0, -0.5]},
            {"type": "dynamic", "position": [0, 0.5], "shapes": [{"type": "box", "half_extents": [0.5, 0.5]}]}]})",
                                      "pile.json"));
        runner.run(30);
        state = runner.world().warmState();
        while (contact < state.contacts.size() && !state.contacts[contact].reuse.valid) ++contact;
        cold = worldJson(runner.world());
    }
    void setWarm(const WarmState& s) const {
        SceneRunner fresh(loadString(cold, "cold.json"));
        fresh.world().setWarmState(s);
    }
};

// A unit (cos, sin) pair: within 1e-4 of unit length, whichever entry point
// takes it, and every rotation makeRot returns is one. The queries and
// <carom/collision.hpp> took pairs up to 1e-3 off in the square, (1.0004, 0)
// among them, and World::castShape any finite pair.
TEST(OneRule, EveryEntryPointJudgesARotationAlike) {
    const WarmPile pile;
    ASSERT_LT(pile.contact, pile.state.contacts.size()) << "no contact with a reuse record";
    const std::string reuse = "contacts[" + std::to_string(pile.contact) + "].reuse";
    auto pose = [](Rot q) { return Transform{{0.0f, 0.0f}, q}; };
    auto sweep = [](Rot q1, Rot q2) {
        return Sweep{{0.0f, 0.0f}, {0.0f, 0.0f}, {1.0f, 0.0f}, q1, q2};
    };
    const Sweep still = sweep(Rot{}, Rot{});
    const std::vector<EntryPoint<Rot>> entries = {
        {"validateRotation", "rotation", [](Rot q) { validateRotation(q); }},
        {"World::setTransform", "transform.q",
         [&](Rot q) {
             OneBody s;
             s.world.setTransform(s.body, pose(q));
         }},
        {"World::setTargetTransform", "target.q",
         [&](Rot q) {
             OneBody s;
             s.world.setTargetTransform(s.body, pose(q), 1.0f / 60.0f);
         }},
        {"World::overlapShape", "xf.q",
         [&](Rot q) {
             OneBody s;
             s.world.overlapShape(kCircle, pose(q), {}, kAny);
         }},
        {"World::castShape", "xf.q",
         [&](Rot q) {
             OneBody s;
             s.world.castShape(kCircle, pose(q), {1.0f, 0.0f}, {}, kAll);
         }},
        {"collide", "xfA.q", [&](Rot q) { (void)collide(kCircle, pose(q), kCircle, Transform{}); }},
        {"shapeDistance", "xfB.q",
         [&](Rot q) { (void)shapeDistance(kCircle, Transform{}, kCircle, pose(q)); }},
        {"shapeCast", "xfA.q",
         [&](Rot q) {
             (void)shapeCast(kCircle, pose(q), kCircle, Transform{}, {1.0f, 0.0f});
         }},
        {"timeOfImpact", "sweepA.q1",
         [&](Rot q) { (void)timeOfImpact(kCircle, sweep(q, Rot{}), kCircle, still); }},
        {"timeOfImpact", "sweepB.q2",
         [&](Rot q) { (void)timeOfImpact(kCircle, still, kCircle, sweep(Rot{}, q)); }},
        {"World::setWarmState", reuse + ".rotationA",
         [&](Rot q) {
             WarmState s = pile.state;
             s.contacts[pile.contact].reuse.rotationA = q;
             pile.setWarm(s);
         }},
        {"World::setWarmState", reuse + ".relativeRotation",
         [&](Rot q) {
             WarmState s = pile.state;
             s.contacts[pile.contact].reuse.relativeRotation = q;
             pile.setWarm(s);
         }},
        {"scene body", "bodies[0].rotation",
         [](Rot q) {
             loadString(sceneWith("rotation", {q.c, q.s}), "rotation.json");
         },
         true},
    };
    const std::vector<Rot> bad = {
        {kNaN, 0.0f},    {kInf, 0.0f},     {0.0f, 0.0f},     {2.0f, 0.0f},   {1.0004f, 0.0f},
        {1.0002f, 0.0f}, {0.707f, 0.707f}, {0.0f, -0.9998f}, {3e38f, 3e38f}, {-3e38f, 0.0f}};
    std::vector<Rot> good = {{0.6f, 0.8f}, {0.99995f, 0.0f}, {0.0f, -1.00009f}};
    for (float angle : {0.0f, 0.5f, 1.0f, 2.0f, 3.0f, -2.5f, 100.0f, 1.0e4f, 1.0e5f})
        good.push_back(makeRot(angle));
    expectOneRule(entries, bad, good);
}

// A position: finite and within ±kMaxCoordinate, whichever entry point
// takes it. The scene loader said "coordinates must be within +-1e6 m" and
// the collision API "within kHuge", each by its own comparison.
// (World::setTargetTransform's target.p has this rule too, but a target far
// from the body is also refused as beyond the largest speed.)
TEST(OneRule, EveryEntryPointJudgesAPositionAlike) {
    auto at = [](Vec2 p) { return Transform{p, Rot{}}; };
    const std::vector<EntryPoint<Vec2>> entries = {
        {"validatePosition", "position", [](Vec2 p) { validatePosition(p); }},
        {"World::createBody", "position",
         [](Vec2 p) {
             World w;
             BodyDef d;
             d.position = p;
             w.createBody(d);
         }},
        {"World::setTransform(position, angle)", "position",
         [](Vec2 p) {
             OneBody s;
             s.world.setTransform(s.body, p, 0.0f);
         }},
        {"World::setTransform", "transform.p",
         [&](Vec2 p) {
             OneBody s;
             s.world.setTransform(s.body, at(p));
         }},
        {"World::overlapShape", "xf.p",
         [&](Vec2 p) {
             OneBody s;
             s.world.overlapShape(kCircle, at(p), {}, kAny);
         }},
        {"World::castShape", "xf.p",
         [&](Vec2 p) {
             OneBody s;
             s.world.castShape(kCircle, at(p), {1.0f, 0.0f}, {}, kAll);
         }},
        {"World::explode", "position",
         [](Vec2 p) {
             OneBody s;
             s.world.explode(ExplosionDef{p, 1.0f, 0.0f, 1.0f, ~0ull});
         }},
        {"collide", "xfB.p", [&](Vec2 p) { (void)collide(kCircle, Transform{}, kCircle, at(p)); }},
        {"shapeDistance", "xfA.p",
         [&](Vec2 p) { (void)shapeDistance(kCircle, at(p), kCircle, Transform{}); }},
        {"shapeCast", "xfB.p",
         [&](Vec2 p) {
             (void)shapeCast(kCircle, Transform{}, kCircle, at(p), {1.0f, 0.0f});
         }},
        {"timeOfImpact", "sweepA.c1",
         [](Vec2 p) {
             const Sweep a{{0.0f, 0.0f}, p, {0.0f, 0.0f}, Rot{}, Rot{}};
             const Sweep b{{0.0f, 0.0f}, {5.0f, 0.0f}, {5.0f, 0.0f}, Rot{}, Rot{}};
             (void)timeOfImpact(kCircle, a, kCircle, b);
         }},
        {"scene body", "bodies[0].position",
         [](Vec2 p) { loadString(sceneWith("position", p), "position.json"); }, true},
    };
    const std::vector<Vec2> bad = {{1000001.0f, 0.0f}, {0.0f, -2.0e6f}, {kNaN, 0.0f},
                                   {0.0f, kInf},       {3e38f, 3e38f},  {-kInf, -kInf}};
    const std::vector<Vec2> good = {{0.0f, 0.0f}, {1.0e6f, -1.0e6f}, {-999999.9f, 5.0f}};
    expectOneRule(entries, bad, good);
}

// A stale or null id is refused with StaleId naming the argument that holds
// it, whichever call it is given to (it used to be "stale or null body id"
// with no field, and makeRevoluteJointDef's b reported as "id").
TEST(OneRule, EveryEntryPointNamesAStaleId) {
    enum class Id { Null, Destroyed, Live };
    World w;
    BodyDef dynamic;
    dynamic.type = BodyType::Dynamic;
    const BodyId other = w.createBody(BodyDef{});
    BodyId live = w.createBody(dynamic);
    const BodyId gone = w.createBody(dynamic);
    w.destroyBody(gone);
    auto revolute = [&](BodyId a, BodyId b) {
        RevoluteJointDef d;
        d.bodyA = a;
        d.bodyB = b;
        return w.createJoint(d);
    };
    const JointId liveJoint = revolute(other, live);
    const JointId secondJoint = revolute(other, w.createBody(dynamic));
    const JointId goneJoint = revolute(other, w.createBody(dynamic));
    w.destroyJoint(goneJoint);
    auto body = [&](Id id) {
        return id == Id::Null ? BodyId{} : id == Id::Destroyed ? gone : live;
    };
    auto joint = [&](Id id) {
        return id == Id::Null ? JointId{} : id == Id::Destroyed ? goneJoint : liveJoint;
    };
    struct Entry {
        std::string name, field;
        std::function<void(Id)> call;
    };
    const std::vector<Entry> entries = {
        {"World::setLinearVelocity", "id",
         [&](Id id) {
             w.setLinearVelocity(body(id), {1.0f, 0.0f});
         }},
        {"World::position", "id", [&](Id id) { (void)w.position(body(id)); }},
        {"World::createShape", "body",
         [&](Id id) { w.createShape(body(id), ShapeDef{}, kCircle); }},
        {"World::createJoint", "bodyA", [&](Id id) { revolute(body(id), other); }},
        {"World::createJoint", "bodyB", [&](Id id) { revolute(other, body(id)); }},
        {"World::makeRevoluteJointDef", "a",
         [&](Id id) {
             (void)w.makeRevoluteJointDef(body(id), other, {0.0f, 0.0f});
         }},
        {"World::makeRevoluteJointDef", "b",
         [&](Id id) {
             (void)w.makeRevoluteJointDef(other, body(id), {0.0f, 0.0f});
         }},
        {"World::jointType", "id", [&](Id id) { (void)w.jointType(joint(id)); }},
        {"World::makeGearJointDef", "jointA",
         [&](Id id) { (void)w.makeGearJointDef(joint(id), secondJoint, 1.0f); }},
        {"World::makeGearJointDef", "jointB",
         [&](Id id) { (void)w.makeGearJointDef(secondJoint, joint(id), 1.0f); }},
    };
    for (const Entry& e : entries) {
        for (Id id : {Id::Null, Id::Destroyed}) {
            SCOPED_TRACE(e.name + (id == Id::Null ? " given a null id" : " given a destroyed id"));
            try {
                e.call(id);
                ADD_FAILURE() << "accepted";
            } catch (const carom::Error& error) {
                EXPECT_EQ(error.code(), ErrorCode::StaleId);
                EXPECT_EQ(error.field(), e.field);
                EXPECT_EQ(std::string(error.what()).rfind(e.field + " is a stale or null", 0), 0u)
                    << error.what();
            }
        }
        SCOPED_TRACE(e.name + " given a live id");
        EXPECT_NO_THROW(e.call(Id::Live));
    }
}

}  // namespace
}  // namespace carom::scene
