// Scene helpers shared by every test folder that steps a World (solver,
// joints, robustness, ...): one place for the small bodies the tests build.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

namespace carom::test {

inline constexpr float kDt = 1.0f / 60.0f;

/// A world with default settings except sleep: equilibrium tests must not
/// freeze a body that is still settling within the sleep threshold.
inline World makeWorld(bool enableSleep = false) {
    WorldDef def;
    def.enableSleep = enableSleep;
    return World(def);
}

/// Default settings without gravity (bodies keep the velocities they are given).
inline WorldDef noGravity() {
    WorldDef def;
    def.gravity = {0.0f, 0.0f};
    return def;
}

/// A static body without shapes (a joint anchor).
inline BodyId addStatic(World& w, Vec2 p = {0.0f, 0.0f}) {
    BodyDef d;
    d.position = p;
    return w.createBody(d);
}

/// A static box of half widths (hx, hy) centred at `center`, rotated by angle.
inline BodyId addGround(World& w, Vec2 center, float hx, float hy, float angle = 0.0f,
                        float friction = 0.6f, float restitution = 0.0f) {
    BodyDef bd;
    bd.position = center;
    bd.angle = angle;
    BodyId g = w.createBody(bd);
    ShapeDef sd;
    sd.friction = friction;
    sd.restitution = restitution;
    w.createShape(g, sd, makeBox(hx, hy));
    return g;
}

inline BodyId addBox(World& w, Vec2 p, float hx, float hy, float angle = 0.0f, float density = 1.0f,
                     float friction = 0.6f, Vec2 v = {0.0f, 0.0f}) {
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = p;
    bd.angle = angle;
    bd.linearVelocity = v;
    BodyId b = w.createBody(bd);
    ShapeDef sd;
    sd.density = density;
    sd.friction = friction;
    w.createShape(b, sd, makeBox(hx, hy));
    return b;
}

/// A WorldDef switch that changes the physics travels with a snapshot, and
/// a world built with another setting refuses it, naming `field`
/// ("snapshot.def.NAME"), and is left exactly as it was.
inline void expectRestoreRefused(World& other, const Snapshot& snap, const std::string& field) {
    const uint64_t before = other.stateHash();
    try {
        other.restore(snap);
        ADD_FAILURE() << "restore accepted a snapshot with another " << field;
    } catch (const Error& e) {
        EXPECT_EQ(e.field(), field);
    }
    EXPECT_EQ(other.stateHash(), before);
}

/// A WorldDef for the solver switches' tests: `workers` workers, sleep off
/// (a sleeping body would hold trivially).
inline WorldDef awakeDef(int workers = 1) {
    WorldDef def;
    def.workerCount = workers;
    def.enableSleep = false;
    return def;
}

/// A column of `count` unit boxes resting on a static ground box (its top at
/// y = 0, `groundHalfWidth` wide each side), bottom box first.
inline std::vector<BodyId> boxColumn(World& w, int count, float groundHalfWidth = 20.0f) {
    addGround(w, {0.0f, -0.5f}, groundHalfWidth, 0.5f);
    std::vector<BodyId> boxes;
    for (int i = 0; i < count; ++i) boxes.push_back(addBox(w, {0.0f, 0.5f + float(i)}, 0.5f, 0.5f));
    return boxes;
}

/// awakeDef(workers) with one solver tuning value set, e.g.
/// awakeDefWith(&SolverTuning::contactLeakScale, 0.5f).
template <class T>
WorldDef awakeDefWith(T SolverTuning::*field, T value, int workers = 1) {
    WorldDef def = awakeDef(workers);
    def.tuning.*field = value;
    return def;
}

/// A 10-row pyramid of unit boxes on a 80 m ground box (the solver switches'
/// tests run it with and without their switch).
inline World tenRowPyramid(const WorldDef& def) {
    World w(def);
    addGround(w, {0.0f, -0.5f}, 40.0f, 0.5f);
    for (int row = 0; row < 10; ++row)
        for (int i = 0; i < 10 - row; ++i)
            addBox(w, {float(i) - 0.5f * float(9 - row), 0.5f + float(row)}, 0.5f, 0.5f);
    return w;
}

inline BodyId addBall(World& w, Vec2 p, float r, float restitution = 0.0f, Vec2 v = {0.0f, 0.0f},
                      float friction = 0.6f) {
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = p;
    bd.linearVelocity = v;
    BodyId b = w.createBody(bd);
    ShapeDef sd;
    sd.restitution = restitution;
    sd.friction = friction;
    w.createShape(b, sd, Circle{{0.0f, 0.0f}, r});
    return b;
}

/// A chain of `links` 1 m boxes hanging from a static anchor at `start`,
/// joined end to end by revolute joints along +x.
inline void addLinkChain(World& w, Vec2 start, int links) {
    BodyId prev = w.createBody(BodyDef{});
    for (int i = 0; i < links; ++i) {
        const Vec2 pin{start.x + float(i), start.y};
        BodyId link = addBox(w, {pin.x + 0.5f, pin.y}, 0.5f, 0.1f);
        RevoluteJointDef d;
        d.bodyA = prev;
        d.bodyB = link;
        d.localAnchorA = w.localPoint(prev, pin);
        d.localAnchorB = w.localPoint(link, pin);
        w.createJoint(d);
        prev = link;
    }
}

/// World position of a joint's anchor on A and on B.
inline Vec2 anchorA(const World& w, JointId j) {
    return w.worldPoint(w.jointBodyA(j), w.jointLocalAnchorA(j));
}
inline Vec2 anchorB(const World& w, JointId j) {
    return w.worldPoint(w.jointBodyB(j), w.jointLocalAnchorB(j));
}

inline void run(World& w, int steps, float dt = kDt) {
    for (int i = 0; i < steps; ++i) w.step(dt);
}

/// A WorldDef switch's validation: a World built with each bad value (the
/// def from makeDef(value)) is refused naming `field`; each good one builds.
template <class MakeDef>
void expectSwitchValidated(MakeDef makeDef, std::initializer_list<float> bad,
                           std::initializer_list<float> good, const std::string& field) {
    for (float value : bad) {
        try {
            World w(makeDef(value));
            ADD_FAILURE() << "accepted " << field << " " << value;
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), field);
        }
    }
    for (float value : good) EXPECT_NO_THROW(World w(makeDef(value))) << field << " " << value;
}

/// The determinism contract for a solver switch: the world `build` fills,
/// with the def makeDef(workers), gives one state hash after `steps` steps at
/// every SIMD width and at 1 and 2 workers.
template <class MakeDef, class Build>
void expectOneHashEverywhere(MakeDef makeDef, Build build, int steps) {
    uint64_t first = 0;
    for (SimdWidth simd : {SimdWidth::Scalar, SimdWidth::SSE2, SimdWidth::AVX2}) {
        for (int workers : {1, 2}) {
            WorldDef def = makeDef(workers);
            def.simdWidth = simd;
            World w(def);
            build(w);
            run(w, steps);
            if (first == 0) first = w.stateHash();
            EXPECT_EQ(w.stateHash(), first) << "workers " << workers << ", simd " << int(simd);
        }
    }
}

/// A solver switch travels with a snapshot: a world with `def` (filled by
/// `build`, 30 steps on) restored into another with `def` runs on bit for
/// bit; one built with `otherDef` refuses it naming `field`
/// ("snapshot.def.NAME") and is left as it was.
template <class Build>
void expectSnapshotKeepsSwitch(const WorldDef& def, const WorldDef& otherDef, Build build,
                               const std::string& field) {
    World a(def);
    build(a);
    run(a, 30);
    const Snapshot snap = a.snapshot();
    World same(def);
    same.restore(Snapshot::fromBytes(snap.bytes()));
    run(a, 30);
    run(same, 30);
    EXPECT_EQ(same.stateHash(), a.stateHash());
    World other(otherDef);
    expectRestoreRefused(other, snap, field);
}

}  // namespace carom::test
