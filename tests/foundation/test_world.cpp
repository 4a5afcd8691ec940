// The world API: free fall, validation (every refused call leaves the world
// as it was), stale ids, mass from shapes.
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

using namespace carom;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

struct Snapshot {
    uint64_t hash;
    int bodies, shapes, joints;
    std::vector<float> masses;
    bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const World& w) {
    Counters c = w.counters();
    Snapshot s{w.stateHash(), c.bodies, c.shapes, c.joints, {}};
    for (BodyId b : w.bodies()) s.masses.push_back(w.mass(b));
    return s;
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

// Runs `call`, expects carom::Error with `code`, and an unchanged world.
void expectRefused(World& w, ErrorCode code, const std::function<void()>& call) {
    Snapshot before = snapshot(w);
    try {
        call();
        ADD_FAILURE() << "call was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), code) << e.what();
        EXPECT_NE(std::string(e.what()), "");
    }
    EXPECT_TRUE(snapshot(w) == before) << "a refused call changed the world";
}

}  // namespace

TEST(World, FreeFallMatchesSemiImplicitEuler) {
    World world;
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {0.0f, 100.0f};
    BodyId b = world.createBody(bd);
    world.createShape(b, ShapeDef{}, Circle{{0, 0}, 0.5f});
    const float dt = 1.0f / 60.0f;
    const int substeps = world.def().substeps;
    const float h = dt / float(substeps);
    // The reference: the same semi-implicit Euler recurrence in double.
    double v = 0.0, y = 100.0;
    for (int i = 0; i < 120; ++i) {
        world.step(dt);
        for (int k = 0; k < substeps; ++k) {
            v += double(h) * -10.0;
            y += double(h) * v;
        }
    }
    EXPECT_NEAR(world.linearVelocity(b).y, -10.0f * 2.0f, 1e-5f * 20.0f);
    EXPECT_NEAR(world.linearVelocity(b).y, float(v), 1e-4f);
    EXPECT_NEAR(world.position(b).y, float(y), 1e-3f);
    EXPECT_NEAR(world.position(b).x, 0.0f, 0.0f);
}

TEST(World, DampingAndGravityScale) {
    World world;
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.gravityScale = 0.0f;
    bd.linearVelocity = {10.0f, 0.0f};
    bd.linearDamping = 1.0f;
    BodyId b = world.createBody(bd);
    world.createShape(b, ShapeDef{}, Circle{{0, 0}, 0.5f});
    for (int i = 0; i < 60; ++i) world.step(1.0f / 60.0f);
    // dv/dt = -c v  →  v(1) ≈ 10 e^-1 (the implicit factor is within 1 %).
    EXPECT_NEAR(world.linearVelocity(b).x, 10.0f * std::exp(-1.0f), 0.05f);
    EXPECT_EQ(world.linearVelocity(b).y, 0.0f);
}

TEST(World, BodyMassComesFromShapes) {
    World world;
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    BodyId b = world.createBody(bd);
    ShapeDef sd;
    sd.density = 2.0f;
    world.createShape(b, sd, makeOffsetBox(1.0f, 1.0f, {1.0f, 0.0f}, 0.0f));
    world.createShape(b, sd, makeOffsetBox(1.0f, 1.0f, {-1.0f, 0.0f}, 0.0f));
    EXPECT_NEAR(world.mass(b), 16.0f, 1e-4f);
    // Two 2×2 boxes side by side are one 4×2 box: I = m (w² + h²) / 12.
    EXPECT_NEAR(world.rotationalInertia(b), 16.0f * (16.0f + 4.0f) / 12.0f, 1e-3f);
    EXPECT_NEAR(world.localCenterOfMass(b).x, 0.0f, 1e-6f);
    ShapeId extra = world.createShape(b, sd, Circle{{4.0f, 0.0f}, 1.0f});
    EXPECT_NEAR(world.mass(b), 16.0f + 2.0f * kPi, 1e-3f);
    EXPECT_GT(world.localCenterOfMass(b).x, 0.5f);
    world.destroyShape(extra);
    EXPECT_NEAR(world.mass(b), 16.0f, 1e-4f);
}

TEST(World, IdsGoStale) {
    Fixture f;
    World& w = f.world;
    EXPECT_TRUE(w.isValid(f.box));
    w.destroyBody(f.box);
    EXPECT_FALSE(w.isValid(f.box));
    EXPECT_FALSE(w.isValid(f.boxShape));  // shapes die with their body
    EXPECT_FALSE(w.isValid(f.joint));     // and so do joints
    // The slot is reused by the next body, yet the old id stays stale.
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    BodyId fresh = w.createBody(bd);
    EXPECT_EQ(fresh.index, f.box.index);
    EXPECT_NE(fresh.generation, f.box.generation);
    EXPECT_FALSE(w.isValid(f.box));
    expectRefused(w, ErrorCode::StaleId, [&] { w.position(f.box); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.setLinearVelocity(f.box, {1, 0}); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.destroyBody(f.box); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.destroyShape(f.boxShape); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.destroyJoint(f.joint); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.createShape(f.box, ShapeDef{}, Circle{}); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.position(BodyId{}); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.position(BodyId{12345, 1}); });
}

TEST(Validation, BodyDefs) {
    Fixture f;
    World& w = f.world;
    auto bad = [&](auto mutate) {
        BodyDef d;
        d.type = BodyType::Dynamic;
        mutate(d);
        expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createBody(d); });
    };
    bad([](BodyDef& d) { d.position = {kNaN, 0}; });
    bad([](BodyDef& d) { d.position = {0, kInf}; });
    bad([](BodyDef& d) { d.position = {2e6f, 0}; });
    bad([](BodyDef& d) { d.angle = kNaN; });
    bad([](BodyDef& d) { d.linearVelocity = {0, kNaN}; });
    bad([](BodyDef& d) { d.angularVelocity = kInf; });
    bad([](BodyDef& d) { d.linearDamping = -1; });
    bad([](BodyDef& d) { d.angularDamping = kNaN; });
    bad([](BodyDef& d) { d.gravityScale = kNaN; });
    bad([](BodyDef& d) { d.sleepThreshold = -0.1f; });
    bad([](BodyDef& d) { d.type = static_cast<BodyType>(7); });
}

TEST(Validation, ShapeDefsAndGeometry) {
    Fixture f;
    World& w = f.world;
    auto badDef = [&](auto mutate) {
        ShapeDef d;
        mutate(d);
        expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createShape(f.box, d, Circle{}); });
    };
    badDef([](ShapeDef& d) { d.density = -1; });
    badDef([](ShapeDef& d) { d.density = kNaN; });
    badDef([](ShapeDef& d) { d.friction = -0.1f; });
    badDef([](ShapeDef& d) { d.restitution = kInf; });
    badDef([](ShapeDef& d) { d.rollingResistance = -1; });
    auto badGeom = [&](const ShapeGeometry& g, ErrorCode code = ErrorCode::InvalidArgument) {
        expectRefused(w, code, [&] { w.createShape(f.box, ShapeDef{}, g); });
    };
    badGeom(Circle{{0, 0}, 0.0f});
    badGeom(Circle{{0, 0}, -1.0f});
    badGeom(Circle{{kNaN, 0}, 1.0f});
    badGeom(Capsule{{0, 0}, {0, 0}, 0.5f});
    badGeom(Capsule{{0, 0}, {1, 0}, 0.0f});
    badGeom(Segment{{1, 1}, {1, 1}});
    badGeom(Segment{{1, kInf}, {1, 1}});
    Polygon noArea;  // count 0
    badGeom(noArea, ErrorCode::LimitExceeded);
    Polygon nonConvex = makeBox(1, 1);
    std::swap(nonConvex.vertices[0], nonConvex.vertices[1]);
    badGeom(nonConvex);
    Polygon nanPoly = makeBox(1, 1);
    nanPoly.vertices[2].x = kNaN;
    badGeom(nanPoly);
    Polygon negativeRadius = makeBox(1, 1);
    negativeRadius.radius = -0.5f;
    badGeom(negativeRadius);
    badGeom(ChainSegment{});  // chain segments only through createChain
}

TEST(Validation, Chains) {
    Fixture f;
    World& w = f.world;
    auto bad = [&](ChainDef d) {
        expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createChain(f.ground, d); });
    };
    ChainDef one;
    one.points = {{0, 0}};
    bad(one);
    ChainDef loop2;
    loop2.points = {{0, 0}, {1, 0}};
    loop2.isLoop = true;
    bad(loop2);
    ChainDef dup;
    dup.points = {{0, 0}, {0, 0}, {1, 0}};
    bad(dup);
    ChainDef nan;
    nan.points = {{0, 0}, {kNaN, 0}};
    bad(nan);
    ChainDef friction;
    friction.points = {{0, 0}, {1, 0}};
    friction.friction = -1.0f;
    bad(friction);
    ChainDef ok;
    ok.points = {{3, 0}, {1, 0}, {-1, 0}, {-3, 0}};
    ChainId c = w.createChain(f.ground, ok);
    EXPECT_EQ(w.chainSegments(c).size(), 3u);
    auto g = std::get<ChainSegment>(w.geometry(w.chainSegments(c)[1]));
    EXPECT_EQ(g.ghost1.x, 3.0f);
    EXPECT_EQ(g.ghost2.x, -3.0f);
    w.destroyChain(c);
    EXPECT_FALSE(w.isValid(c));
}

TEST(Validation, JointDefs) {
    Fixture f;
    World& w = f.world;
    RevoluteJointDef same;
    same.bodyA = f.box;
    same.bodyB = f.box;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(same); });
    RevoluteJointDef limits;
    limits.bodyA = f.ground;
    limits.bodyB = f.box;
    limits.lowerAngle = 1.0f;
    limits.upperAngle = -1.0f;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(limits); });
    limits.lowerAngle = -4.0f;  // beyond -π: the joint angle never gets there
    limits.upperAngle = 0.5f;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(limits); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setJointLimits(f.joint, -0.5f, 3.5f); });
    RevoluteJointDef nanAnchor;
    nanAnchor.bodyA = f.ground;
    nanAnchor.bodyB = f.box;
    nanAnchor.localAnchorA = {kNaN, 0};
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(nanAnchor); });
    PrismaticJointDef zeroAxis;
    zeroAxis.bodyA = f.ground;
    zeroAxis.bodyB = f.box;
    zeroAxis.localAxisA = {0, 0};
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(zeroAxis); });
    DistanceJointDef zeroLength;
    zeroLength.bodyA = f.ground;
    zeroLength.bodyB = f.box;
    zeroLength.length = 0.0f;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(zeroLength); });
    DistanceJointDef minMax;
    minMax.bodyA = f.ground;
    minMax.bodyB = f.box;
    minMax.minLength = 3;
    minMax.maxLength = 2;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(minMax); });
    MotorJointDef factor;
    factor.bodyA = f.ground;
    factor.bodyB = f.box;
    factor.correctionFactor = 2.0f;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(factor); });
    WheelJointDef spring;
    spring.bodyA = f.ground;
    spring.bodyB = f.box;
    spring.hertz = -1.0f;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(spring); });
    MouseJointDef force;
    force.bodyA = f.ground;
    force.bodyB = f.box;
    force.maxForce = kNaN;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(force); });
    // Setters refuse the wrong joint type and bad values, keeping the def.
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setMouseTarget(f.joint, {1, 1}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setJointLimits(f.joint, 2, 1); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setJointMotorSpeed(f.joint, kNaN); });
    w.setJointLimits(f.joint, -0.5f, 0.25f);
    EXPECT_EQ(w.revoluteJointDef(f.joint).upperAngle, 0.25f);
    // Joints between two static bodies are accepted.
    BodyId other = w.createBody(BodyDef{});
    WeldJointDef statics;
    statics.bodyA = f.ground;
    statics.bodyB = other;
    EXPECT_NO_THROW(w.createJoint(statics));
}

TEST(Validation, StateChangingCalls) {
    Fixture f;
    World& w = f.world;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setTransform(f.box, {kNaN, 0}, 0); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setTransform(f.box, {0, 0}, kInf); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setLinearVelocity(f.box, {kNaN, 0}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setAngularVelocity(f.box, kNaN); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.applyForce(f.box, {kInf, 0}, {0, 0}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.applyLinearImpulse(f.box, {1, 0}, {kNaN, 0}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.applyTorque(f.box, kNaN); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setMassData(f.box, MassData{-1.0f, {0, 0}, 1.0f}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setGravity({kNaN, 0}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setDensity(f.boxShape, -2.0f); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setFriction(f.boxShape, kNaN); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setGeometry(f.boxShape, Circle{{0, 0}, -1}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.step(kNaN); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.step(-1.0f); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.step(1.0f / 60.0f, 0); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.queryPoint({kNaN, 0}); });
    WorldDef bad;
    bad.substeps = 0;
    EXPECT_THROW(World{bad}, Error);
    bad = WorldDef{};
    bad.gravity = {0, kNaN};
    EXPECT_THROW(World{bad}, Error);
    // After all of that the world still steps normally.
    for (int i = 0; i < 10; ++i) w.step(1.0f / 60.0f);
    EXPECT_TRUE(isFinite(w.position(f.box)));
}

TEST(World, CreationOrderAndHashAreStable) {
    World a, b;
    for (World* w : {&a, &b}) {
        for (int i = 0; i < 5; ++i) {
            BodyDef bd;
            bd.type = BodyType::Dynamic;
            bd.position = {float(i), 0.0f};
            bd.angularVelocity = 0.1f * float(i);
            w->createShape(w->createBody(bd), ShapeDef{}, makeBox(0.5f, 0.5f));
        }
        w->destroyBody(w->bodies()[1]);
        BodyDef bd;
        bd.type = BodyType::Dynamic;
        bd.position = {9.0f, 0.0f};
        BodyId last = w->createBody(bd);
        EXPECT_EQ(w->bodies().back(), last);  // reused slot, still last in creation order
        for (int i = 0; i < 30; ++i) w->step(1.0f / 60.0f);
    }
    EXPECT_EQ(a.stateHash(), b.stateHash());
    a.step(1.0f / 60.0f);
    EXPECT_NE(a.stateHash(), b.stateHash());
}

TEST(JointDefs, WorldAnchorHelpersStartAtRest) {
    World w;
    BodyDef bd;
    bd.type = BodyType::Dynamic;
    bd.position = {1.0f, 2.0f};
    bd.angle = 0.4f;
    BodyId a = w.createBody(bd);
    bd.position = {3.0f, -1.0f};
    bd.angle = -0.3f;
    BodyId b = w.createBody(bd);
    const Vec2 anchor{2.0f, 0.5f};
    RevoluteJointDef rd = w.makeRevoluteJointDef(a, b, anchor);
    Vec2 pa = w.worldPoint(a, rd.localAnchorA), pb = w.worldPoint(b, rd.localAnchorB);
    EXPECT_NEAR(pa.x, anchor.x, 1e-5f);
    EXPECT_NEAR(pb.y, anchor.y, 1e-5f);
    JointId r = w.createJoint(rd);
    EXPECT_NEAR(w.revoluteAngle(r), 0.0f, 1e-6f);
    PrismaticJointDef pd = w.makePrismaticJointDef(a, b, anchor, {0.0f, 2.0f});
    Vec2 axis = w.worldVector(a, pd.localAxisA);
    EXPECT_NEAR(axis.x, 0.0f, 1e-6f);
    EXPECT_NEAR(axis.y, 1.0f, 1e-6f);
    EXPECT_NEAR(w.jointTranslation(w.createJoint(pd)), 0.0f, 1e-5f);
    DistanceJointDef dd = w.makeDistanceJointDef(a, b, {1, 2}, {3, -1});
    EXPECT_NEAR(dd.length, std::sqrt(13.0f), 1e-5f);
    MotorJointDef md = w.makeMotorJointDef(a, b);
    EXPECT_NEAR(md.angularOffset, -0.7f, 1e-5f);
    EXPECT_THROW(w.makeWheelJointDef(a, b, anchor, {0, 0}), Error);
    EXPECT_THROW(w.makeWeldJointDef(a, BodyId{}, anchor), Error);
}
