// What the foundation tests check of a World after a refused call: it is
// exactly as it was (WorldPrint), it still steps and empties.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

namespace carom::test {

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInf = std::numeric_limits<float>::infinity();

// What a refused call must leave as it was: the state hash, the counters,
// and every body's mass, shapes, joints and chains (a refused createShape
// must not leave the shape on its body while the counters lack it).
struct WorldPrint {
    uint64_t hash;
    int bodies, shapes, joints, contacts;
    std::vector<float> masses;
    std::vector<size_t> shapesPerBody, jointsPerBody, chainsPerBody;
    bool operator==(const WorldPrint&) const = default;
};

inline WorldPrint print(const World& w) {
    Counters c = w.counters();
    WorldPrint s{w.stateHash(), c.bodies, c.shapes, c.joints, c.contacts, {}, {}, {}, {}};
    for (BodyId b : w.bodies()) {
        s.masses.push_back(w.mass(b));
        s.shapesPerBody.push_back(w.shapes(b).size());
        s.jointsPerBody.push_back(w.joints(b).size());
        s.chainsPerBody.push_back(w.chains(b).size());
    }
    return s;
}

// After refusals the world still steps, and destroying every body leaves
// nothing behind.
inline void expectStepsAndEmpties(World& w) {
    for (int i = 0; i < 5; ++i) w.step(1.0f / 60.0f);
    for (BodyId b : w.bodies()) w.destroyBody(b);
    const Counters c = w.counters();
    EXPECT_EQ(c.bodies, 0);
    EXPECT_EQ(c.shapes, 0);
    EXPECT_EQ(c.joints, 0);
    EXPECT_EQ(c.contacts, 0);
    EXPECT_TRUE(w.joints().empty());
}

// A small world with a ground, a box, and a joint.
struct Fixture {
    World world;
    BodyId ground, box;
    ShapeId boxShape;
    JointId joint;
    Fixture() {
        BodyDef gd;
        ground = world.createBody(gd);
        world.createShape(ground, ShapeDef{}, makeBox(10.0f, 1.0f));
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {0.0f, 4.0f};
        box = world.createBody(bd);
        boxShape = world.createShape(box, ShapeDef{}, makeBox(1.0f, 1.0f));
        RevoluteJointDef jd;
        jd.bodyA = ground;
        jd.bodyB = box;
        jd.localAnchorA = {0.0f, 5.0f};
        joint = world.createJoint(jd);
    }
};

// Runs `call`, expects carom::Error with `code` (and, when given, naming
// `field` and quoting `value` in its message), and an unchanged world.
inline void expectRefused(World& w, ErrorCode code, const std::function<void()>& call,
                          const char* field = nullptr, const char* value = nullptr) {
    const WorldPrint before = print(w);
    try {
        call();
        ADD_FAILURE() << "call was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), code) << e.what();
        EXPECT_NE(std::string(e.what()), "");
        if (field) {
            EXPECT_EQ(e.field(), field) << e.what();
        }
        if (value) {
            EXPECT_NE(std::string(e.what()).find(value), std::string::npos) << e.what();
        }
    }
    EXPECT_TRUE(print(w) == before) << "a refused call changed the world";
}

}  // namespace carom::test
