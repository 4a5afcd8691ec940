// The pure validation functions (validate.hpp): each rule names the refused
// field as written in the C++ API and quotes the value as given, and the
// bounds of limits.hpp are accepted while the first value past them is not.
// (The World runs these same functions; test_world.cpp checks that a refusal
// there leaves the world unchanged.)
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include <carom/carom.hpp>

using namespace carom;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The error `call` throws (fails the test when it throws none).
Error refusal(const std::function<void()>& call) {
    try {
        call();
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "accepted";
    return Error(ErrorCode::InvalidArgument, "");
}

void expectField(const std::function<void()>& call, const std::string& field,
                 const std::string& quoted = "") {
    Error e = refusal(call);
    EXPECT_EQ(e.field(), field) << e.what();
    if (!quoted.empty()) {
        EXPECT_NE(std::string(e.what()).find(quoted), std::string::npos) << e.what();
    }
}

float above(float x) {
    return std::nextafter(x, std::numeric_limits<float>::infinity());
}

}  // namespace

TEST(Validate, ErrorKeepsOldConstructorAndNamesField) {
    Error plain(ErrorCode::StaleId, "stale");
    EXPECT_EQ(plain.field(), "");
    Error named(ErrorCode::InvalidArgument, "density must be ...", "density");
    EXPECT_EQ(named.field(), "density");
    EXPECT_EQ(named.code(), ErrorCode::InvalidArgument);
}

TEST(Validate, ValuesAreQuotedAsGiven) {
    // A tiny axis must not print as [0, 0], and a float reads back exactly.
    PrismaticJointDef d;
    d.bodyA = BodyId{0, 1};
    d.bodyB = BodyId{1, 1};
    d.localAxisA = {1e-13f, 0.0f};
    expectField([&] { validate(d); }, "localAxisA", "[1e-13, 0]");
    Circle c{{0.1f, 0.0f}, 1.00000012f};
    c.center = {0.1f, 2e6f};
    expectField([&] { validate(c); }, "center", "[0.1, 2e+06]");
    expectField([&] { validate(Circle{{0, 0}, above(kMaxShapeRadius)}); }, "radius", "1000000.06");
}

TEST(Validate, GeometryFields) {
    expectField([] { validate(Circle{{0, 0}, 1e20f}); }, "radius", "1e+20");
    expectField([] { validate(Capsule{{0, 0}, {kNaN, 0}, 1.0f}); }, "center2", "[nan, 0]");
    expectField([] { validate(Capsule{{0, 0}, {0, 0.001f}, 1.0f}); }, "center2");
    expectField([] { validate(Segment{{3e6f, 0}, {0, 0}}); }, "point1");
    ChainSegment cs;
    cs.segment = {{0, 0}, {1, 0}};
    cs.ghost2 = {kNaN, 0};
    expectField([&] { validate(cs); }, "ghost2");
    Polygon p = makeBox(1, 1);
    p.normals[1] = {0.5f, 0.0f};
    expectField([&] { validate(p); }, "normals");
    p = makeBox(1, 1);
    p.centroid = {kNaN, 0};
    expectField([&] { validate(p); }, "centroid");
    EXPECT_NO_THROW(validate(Circle{{kMaxCoordinate, -kMaxCoordinate}, kMaxShapeRadius}));
    EXPECT_NO_THROW(validate(Circle{{0, 0}, kMinShapeRadius}));
    // Construction helpers name their own arguments.
    expectField([] { makeBox(0.0f, 1.0f); }, "hx", "got 0");
    expectField([] { makeOffsetBox(1.0f, 1.0f, {2e6f, 0}, 0.0f); }, "center");
    expectField([] { makeOffsetBox(1.0f, 1.0f, {0, 0}, kNaN); }, "angle");
    expectField([] { makeRoundedBox(1.0f, 1.0f, -1.0f); }, "radius");
    const Vec2 pts[] = {{0, 0}, {1, 0}, {0, 2e6f}};
    expectField([&] { makePolygon(pts); }, "points", "points[2]");
    const Vec2 line[] = {{0, 0}, {1, 0}, {2, 0}};
    expectField([&] { makePolygon(line); }, "points");
}

TEST(Validate, DefFields) {
    ShapeDef sd;
    EXPECT_NO_THROW(validate(sd));
    sd.density = 0.0f;
    EXPECT_NO_THROW(validate(sd));
    sd.density = kMaxDensity;
    EXPECT_NO_THROW(validate(sd));
    sd.density = above(kMaxDensity);
    expectField([&] { validate(sd); }, "density");
    sd.density = kMinDensity * 0.5f;
    expectField([&] { validate(sd); }, "density");
    sd = ShapeDef{};
    sd.friction = above(kMaxMaterialCoefficient);
    expectField([&] { validate(sd); }, "friction");

    MassData m{1.0f, {0, 0}, 0.0f};
    EXPECT_NO_THROW(validate(m));  // 0 inertia: the body does not rotate
    m.rotationalInertia = kMaxRotationalInertia;
    EXPECT_NO_THROW(validate(m));
    m.mass = above(kMaxMass);
    expectField([&] { validate(m); }, "massData.mass");
    m = MassData{kMinMass, {kMaxCoordinate, 0}, kMinRotationalInertia};
    EXPECT_NO_THROW(validate(m));

    ChainDef cd;
    cd.points = {{0, 0}, {1, 0}};
    EXPECT_NO_THROW(validate(cd));
    cd.isLoop = true;
    expectField([&] { validate(cd); }, "points", "2 points");
    cd.isLoop = false;
    cd.points = {{0, 0}, {1, 0}, {1.001f, 0}};
    expectField([&] { validate(cd); }, "points", "points[2]");

    WorldDef wd;
    EXPECT_NO_THROW(validate(wd));
    wd.frictionMixing = static_cast<FrictionMixing>(99);
    expectField([&] { validate(wd); }, "frictionMixing", "99");
    wd = WorldDef{};
    wd.workerCount = kMaxWorkers + 1;
    expectField([&] { validate(wd); }, "workerCount");
    wd = WorldDef{};
    wd.hitEventThreshold = kNaN;
    expectField([&] { validate(wd); }, "hitEventThreshold");
}

TEST(Validate, JointFields) {
    const BodyId a{0, 1}, b{1, 1};
    RevoluteJointDef r;
    r.bodyA = a;
    r.bodyB = b;
    EXPECT_NO_THROW(validate(r));
    r.lowerAngle = 0.5f;
    expectField([&] { validate(r); }, "lowerAngle", "0.5 > 0");
    r.lowerAngle = 0.0f;
    r.maxMotorTorque = -1.0f;
    expectField([&] { validate(r); }, "maxMotorTorque");
    r.maxMotorTorque = 0.0f;
    r.targetAngle = 3.5f;  // beyond π: the joint angle never gets there
    expectField([&] { validate(r); }, "targetAngle", "3.5");
    r.targetAngle = kNaN;
    expectField([&] { validate(r); }, "targetAngle");
    r.targetAngle = 0.0f;
    r.localAnchorB = {0, 2.0f * kMaxJointLength};
    expectField([&] { validate(r); }, "localAnchorB");

    PrismaticJointDef p;
    p.bodyA = a;
    p.bodyB = b;
    p.motorSpeed = above(kMaxLinearSpeed);
    expectField([&] { validate(p); }, "motorSpeed");
    p.motorSpeed = 0.0f;
    p.upperTranslation = -1.0f;
    expectField([&] { validate(p); }, "lowerTranslation");
    p.upperTranslation = 0.0f;
    p.targetTranslation = 2.0f * kMaxJointLength;
    expectField([&] { validate(p); }, "targetTranslation");

    DistanceJointDef dj;
    dj.bodyA = a;
    dj.bodyB = b;
    dj.length = -1.0f;
    expectField([&] { validate(dj); }, "length");
    dj.length = 1.0f;
    dj.minLength = -1.0f;
    expectField([&] { validate(dj); }, "minLength");
    dj.minLength = 0.0f;
    dj.maxMotorForce = -1.0f;
    expectField([&] { validate(dj); }, "maxMotorForce");
    dj.maxMotorForce = 0.0f;
    dj.motorSpeed = kNaN;
    expectField([&] { validate(dj); }, "motorSpeed");

    WeldJointDef wj;
    wj.bodyA = a;
    wj.bodyB = a;
    expectField([&] { validate(wj); }, "bodyB");
    wj.bodyB = b;
    wj.angularHertz = above(kMaxHertz);
    expectField([&] { validate(wj); }, "angularHertz");

    WheelJointDef wh;
    wh.bodyA = a;
    wh.bodyB = b;
    wh.motorSpeed = -3e38f;
    expectField([&] { validate(wh); }, "motorSpeed", "-3e+38");

    MotorJointDef mj;
    mj.bodyA = a;
    mj.bodyB = b;
    mj.correctionFactor = 1.5f;
    expectField([&] { validate(mj); }, "correctionFactor", "1.5");

    MouseJointDef mo;
    mo.bodyA = a;
    mo.bodyB = b;
    mo.target = {kNaN, 0};
    expectField([&] { validate(mo); }, "target");
}

TEST(Validate, Step) {
    EXPECT_NO_THROW(validateStep(0.0f, 1));
    EXPECT_NO_THROW(validateStep(kMaxTimeStep, kMaxSubsteps));
    expectField([] { validateStep(above(kMaxTimeStep), 4); }, "timeStep");
    expectField([] { validateStep(kNaN, 4); }, "timeStep", "nan");
    expectField([] { validateStep(-1.0f, 4); }, "timeStep", "-1");
    expectField([] { validateStep(0.01f, 0); }, "substeps", "got 0");
    expectField([] { validateStep(0.01f, kMaxSubsteps + 1); }, "substeps");
}
