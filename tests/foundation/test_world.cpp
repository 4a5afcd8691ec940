// The world API: free fall, validation (every refused call leaves the world
// as it was), stale ids, mass from shapes.
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

#include "tests/foundation/world_checks.hpp"

using namespace carom;
using namespace carom::test;

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
    expectRefused(w, ErrorCode::StaleId, [&] { w.clearForces(f.box); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.applyMassFromShapes(f.box); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.wakeTouching(f.box); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.setJointCollideConnected(f.joint, true); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.createShape(f.box, ShapeDef{}, Circle{}); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.position(BodyId{}); });
    expectRefused(w, ErrorCode::StaleId, [&] { w.position(BodyId{12345, 1}); });
}

TEST(Validation, BodyDefs) {
    Fixture f;
    World& w = f.world;
    auto bad = [&](const char* field, auto mutate, const char* value = nullptr) {
        BodyDef d;
        d.type = BodyType::Dynamic;
        mutate(d);
        expectRefused(
            w, ErrorCode::InvalidArgument, [&] { w.createBody(d); }, field, value);
        EXPECT_THROW(validate(d), Error);  // the same rule, without a world
    };
    bad(
        "position",
        [](BodyDef& d) {
            d.position = {kNaN, 0};
        },
        "[nan, 0]");
    bad("position", [](BodyDef& d) { d.position = {0, kInf}; });
    bad(
        "position",
        [](BodyDef& d) {
            d.position = {2e6f, 0};
        },
        "[2e+06, 0]");
    bad("angle", [](BodyDef& d) { d.angle = kNaN; });
    bad("linearVelocity", [](BodyDef& d) { d.linearVelocity = {0, kNaN}; });
    bad(
        "linearVelocity",
        [](BodyDef& d) {
            d.linearVelocity = {3e38f, 0};
        },
        "3e+38");
    bad("linearVelocity", [](BodyDef& d) { d.linearVelocity = {kMaxLinearSpeed, 1.0f}; });
    bad("angularVelocity", [](BodyDef& d) { d.angularVelocity = kInf; });
    bad("angularVelocity", [](BodyDef& d) { d.angularVelocity = -2.0f * kMaxAngularSpeed; });
    bad("linearDamping", [](BodyDef& d) { d.linearDamping = -1; });
    bad("angularDamping", [](BodyDef& d) { d.angularDamping = kNaN; });
    bad("gravityScale", [](BodyDef& d) { d.gravityScale = kNaN; });
    bad("gravityScale", [](BodyDef& d) { d.gravityScale = 3e38f; });
    bad("sleepThreshold", [](BodyDef& d) { d.sleepThreshold = -0.1f; });
    bad("type", [](BodyDef& d) { d.type = static_cast<BodyType>(7); });
    // The bounds themselves are accepted.
    BodyDef edge;
    edge.type = BodyType::Kinematic;
    edge.position = {kMaxCoordinate, -kMaxCoordinate};
    edge.linearVelocity = {kMaxLinearSpeed, 0.0f};
    edge.angularVelocity = kMaxAngularSpeed;
    EXPECT_NO_THROW(w.createBody(edge));
    expectStepsAndEmpties(w);
}

TEST(Validation, ShapeDefsAndGeometry) {
    Fixture f;
    World& w = f.world;
    auto badDef = [&](const char* field, auto mutate) {
        ShapeDef d;
        mutate(d);
        expectRefused(
            w, ErrorCode::InvalidArgument, [&] { w.createShape(f.box, d, Circle{}); }, field);
    };
    badDef("density", [](ShapeDef& d) { d.density = -1; });
    badDef("density", [](ShapeDef& d) { d.density = kNaN; });
    badDef("density", [](ShapeDef& d) { d.density = 3e38f; });   // mass and inertia overflow
    badDef("density", [](ShapeDef& d) { d.density = 1e-45f; });  // 1/mass overflows
    badDef("friction", [](ShapeDef& d) { d.friction = -0.1f; });
    badDef("restitution", [](ShapeDef& d) { d.restitution = kInf; });
    badDef("rollingResistance", [](ShapeDef& d) { d.rollingResistance = -1; });
    auto badGeom = [&](const char* field, const ShapeGeometry& g,
                       ErrorCode code = ErrorCode::InvalidArgument) {
        expectRefused(
            w, code, [&] { w.createShape(f.box, ShapeDef{}, g); }, field);
        // setGeometry runs the same rules.
        if (typeOf(g) != ShapeType::ChainSegment)
            expectRefused(
                w, code, [&] { w.setGeometry(f.boxShape, g); }, field);
    };
    badGeom("radius", Circle{{0, 0}, 0.0f});
    badGeom("radius", Circle{{0, 0}, -1.0f});
    badGeom("radius", Circle{{0, 0}, 1e20f});  // the broadphase could not hold it
    badGeom("radius", Circle{{0, 0}, 0.5f * kMinShapeRadius});
    badGeom("center", Circle{{kNaN, 0}, 1.0f});
    badGeom("center", Circle{{2e6f, 0}, 1.0f});
    badGeom("center2", Capsule{{0, 0}, {0, 0}, 0.5f});
    badGeom("center1", Capsule{{-3e6f, 0}, {0, 0}, 0.5f});
    badGeom("radius", Capsule{{0, 0}, {1, 0}, 0.0f});
    badGeom("point2", Segment{{1, 1}, {1, 1}});
    badGeom("point1", Segment{{1, kInf}, {1, 1}});
    Polygon noArea;  // count 0
    badGeom("count", noArea, ErrorCode::LimitExceeded);
    Polygon nonConvex = makeBox(1, 1);
    std::swap(nonConvex.vertices[0], nonConvex.vertices[1]);
    badGeom("vertices", nonConvex);
    Polygon nanPoly = makeBox(1, 1);
    nanPoly.vertices[2].x = kNaN;
    badGeom("vertices", nanPoly);
    Polygon negativeRadius = makeBox(1, 1);
    negativeRadius.radius = -0.5f;
    badGeom("radius", negativeRadius);
    Polygon hugeRadius = makeBox(1, 1);
    hugeRadius.radius = 1e20f;
    badGeom("radius", hugeRadius);
    badGeom("geometry", ChainSegment{});  // chain segments only through createChain
    expectStepsAndEmpties(w);
}

TEST(Validation, Chains) {
    Fixture f;
    World& w = f.world;
    auto bad = [&](ChainDef d) {
        expectRefused(
            w, ErrorCode::InvalidArgument, [&] { w.createChain(f.ground, d); },
            d.friction < 0.0f ? "friction" : "points");
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
    ChainDef far;
    far.points = {{0, 0}, {1, 0}, {1, 2e6f}};
    bad(far);
    ChainDef tooMany;
    tooMany.points.resize(kMaxChainPoints + 1);
    for (size_t i = 0; i < tooMany.points.size(); ++i) tooMany.points[i] = {float(i), 0.0f};
    expectRefused(
        w, ErrorCode::LimitExceeded, [&] { w.createChain(f.ground, tooMany); }, "points");
    ChainDef ok;
    ok.points = {{3, 0}, {1, 0}, {-1, 0}, {-3, 0}};
    ChainId c = w.createChain(f.ground, ok);
    EXPECT_EQ(w.chainSegments(c).size(), 3u);
    auto g = std::get<ChainSegment>(w.geometry(w.chainSegments(c)[1]));
    EXPECT_EQ(g.ghost1.x, 3.0f);
    EXPECT_EQ(g.ghost2.x, -3.0f);
    w.destroyChain(c);
    EXPECT_FALSE(w.isValid(c));
    expectStepsAndEmpties(w);
}

TEST(Validation, JointDefs) {
    Fixture f;
    World& w = f.world;
    RevoluteJointDef same;
    same.bodyA = f.box;
    same.bodyB = f.box;
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.createJoint(same); }, "bodyB");
    RevoluteJointDef stale;
    stale.bodyA = f.ground;
    stale.bodyB = BodyId{};
    expectRefused(
        w, ErrorCode::StaleId, [&] { w.createJoint(stale); }, "bodyB");
    RevoluteJointDef motor;
    motor.bodyA = f.ground;
    motor.bodyB = f.box;
    motor.motorSpeed = 3e38f;  // made the step throw before
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.createJoint(motor); }, "motorSpeed", "3e+38");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setJointMotorSpeed(f.joint, 3e38f); }, "motorSpeed");
    PrismaticJointDef tinyAxis;
    tinyAxis.bodyA = f.ground;
    tinyAxis.bodyB = f.box;
    tinyAxis.localAxisA = {1e-7f, 0.0f};  // a direction, however short
    EXPECT_EQ(w.prismaticJointDef(w.createJoint(tinyAxis)).localAxisA.x, 1.0f);
    tinyAxis.localAxisA = {1e30f, 0.0f};
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.createJoint(tinyAxis); }, "localAxisA",
        "[1e+30, 0]");
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
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setJointSpringTarget(f.joint, kNaN); },
        "targetAngle");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setJointSpringTarget(f.joint, -3.5f); },
        "targetAngle");
    EXPECT_EQ(w.revoluteJointDef(f.joint).targetAngle, 0.0f);  // the refused value not kept
    RevoluteJointDef nanAnchor;
    nanAnchor.bodyA = f.ground;
    nanAnchor.bodyB = f.box;
    nanAnchor.localAnchorA = {kNaN, 0};
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.createJoint(nanAnchor); });
    PrismaticJointDef zeroAxis;
    zeroAxis.bodyA = f.ground;
    zeroAxis.bodyB = f.box;
    zeroAxis.localAxisA = {0, 0};
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.createJoint(zeroAxis); }, "localAxisA", "[0, 0]");
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
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.createJoint(force); }, "maxForce");
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
    expectStepsAndEmpties(w);
}

TEST(Validation, StateChangingCalls) {
    Fixture f;
    World& w = f.world;
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setTransform(f.box, {kNaN, 0}, 0); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setTransform(f.box, {0, 0}, kInf); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setLinearVelocity(f.box, {kNaN, 0}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setAngularVelocity(f.box, kNaN); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.applyForce(f.box, {kInf, 0}, {0, 0}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] {
        w.applyLinearImpulse(f.box, {1, 0}, {kNaN, 0});
    });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.applyTorque(f.box, kNaN); });
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.setMassData(f.box, MassData{-1.0f, {0, 0}, 1.0f});
        },
        "massData.mass");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.setMassData(f.box, MassData{1.0f, {1e30f, 0}, 1.0f});
        },
        "massData.center", "[1e+30, 0]");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.setMassData(f.box, MassData{1.0f, {0, 0}, 1e-45f});
        },
        "massData.rotationalInertia");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.setLinearVelocity(f.box, {0, 3e38f});
        },
        "v");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setDensity(f.boxShape, 3e38f); }, "density");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.setGravity({0, 3e38f});
        },
        "gravity");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setWorkerCount(0); }, "count");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.step(1e30f); }, "timeStep", "1e+30");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.setTransform(f.box, Transform{{0, 0}, Rot{0.5f, 0.5f}});
        },
        "transform.q");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.setTransform(f.box, {0, -3e6f}, 0);
        },
        "position");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setAngularVelocity(f.box, 3e38f); }, "w");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.applyAngularImpulse(f.box, kInf); }, "impulse");
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.applyForce(f.box, {3e38f, 0}, {0, 0});
        },
        "force");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setGravityScale(f.box, 3e38f); }, "scale");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setLinearDamping(f.box, -1.0f); }, "damping");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setBodyType(f.box, static_cast<BodyType>(9)); },
        "type");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setRestitution(f.boxShape, 2e3f); }, "restitution");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setRollingResistance(f.boxShape, kNaN); },
        "resistance");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setJointSpring(f.joint, 3e38f, 1.0f); }, "hertz");
    expectRefused(
        w, ErrorCode::InvalidArgument, [&] { w.setDistanceJointLength(f.joint, 1.0f); }, "id");
    expectRefused(w, ErrorCode::StaleId, [&] { w.createChain(BodyId{}, ChainDef{}); });
    expectRefused(
        w, ErrorCode::InvalidArgument,
        [&] {
            w.setGeometry(f.boxShape, Circle{{0, 0}, 1e20f});
        },
        "radius");
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setGravity({kNaN, 0}); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setDensity(f.boxShape, -2.0f); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.setFriction(f.boxShape, kNaN); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] {
        w.setGeometry(f.boxShape, Circle{{0, 0}, -1});
    });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.step(kNaN); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.step(-1.0f); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { w.step(1.0f / 60.0f, 0); });
    expectRefused(w, ErrorCode::InvalidArgument, [&] { (void)w.queryPoint({kNaN, 0}); });
    auto badWorld = [](const char* field, auto mutate) {
        WorldDef d;
        mutate(d);
        try {
            World refused{d};
            ADD_FAILURE() << field << " was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.field(), field) << e.what();
        }
    };
    badWorld("substeps", [](WorldDef& d) { d.substeps = 0; });
    badWorld("substeps", [](WorldDef& d) { d.substeps = kMaxSubsteps + 1; });
    badWorld("gravity", [](WorldDef& d) { d.gravity = {0, kNaN}; });
    badWorld("workerCount", [](WorldDef& d) { d.workerCount = 0; });
    badWorld("frictionMixing",
             [](WorldDef& d) { d.frictionMixing = static_cast<FrictionMixing>(99); });
    badWorld("restitutionMixing",
             [](WorldDef& d) { d.restitutionMixing = static_cast<RestitutionMixing>(4); });
    badWorld("broadphase", [](WorldDef& d) { d.broadphase = static_cast<BroadphaseType>(2); });
    badWorld("contactHertz", [](WorldDef& d) { d.contactHertz = 3e38f; });
    badWorld("jointDampingRatio", [](WorldDef& d) { d.jointDampingRatio = -1.0f; });
    badWorld("maxLinearSpeed", [](WorldDef& d) { d.maxLinearSpeed = 0.0f; });
    badWorld("maxLinearSpeed", [](WorldDef& d) { d.maxLinearSpeed = 2.0f * kMaxLinearSpeed; });
    // After all of that the world still steps normally.
    for (int i = 0; i < 10; ++i) w.step(1.0f / 60.0f);
    EXPECT_TRUE(isFinite(w.position(f.box)));
    expectStepsAndEmpties(w);
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
    EXPECT_THROW((void)w.makeWheelJointDef(a, b, anchor, {0, 0}), Error);
    EXPECT_THROW((void)w.makeWeldJointDef(a, BodyId{}, anchor), Error);
}
