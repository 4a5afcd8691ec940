// The API's rules (validate.hpp) and their primitives (rules.hpp): the one
// place where a value is judged. Messages name the field as written in the
// C++ API and quote the value as given, printed so that it reads back as the
// same float (1e-07 stays 1e-07, never 0).
#include <carom/validate.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include <carom/error.hpp>

#include "engine/core/assert.hpp"
#include "engine/core/rules.hpp"

namespace carom {
namespace detail {

void assertFailed(const char* condition, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: Carom internal check failed: %s\n", file, line, condition);
    std::abort();
}

std::string formatFloat(float x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0.0f ? "inf" : "-inf";
    char buf[64];
    for (int precision = 6; precision <= 9; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, double(x));
        if (std::strtof(buf, nullptr) == x) break;
    }
    return buf;
}

std::string formatVec(Vec2 v) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "[" + string.
    std::string out("[");
    out += formatFloat(v.x);
    out += ", ";
    out += formatFloat(v.y);
    out += ']';
    return out;
}

void refuse(const std::string& field, const std::string& rule, const std::string& got,
            ErrorCode code) {
    throw Error(code, field + " must be " + rule + ", got " + got, field);
}

void refuseWhy(const std::string& field, const std::string& message, ErrorCode code) {
    throw Error(code, message, field);
}

namespace {
std::string range(float lo, float hi, const char* unit) {
    return "within [" + formatFloat(lo) + ", " + formatFloat(hi) + "]" + unit;
}
}  // namespace

void requireFinite(float x, const char* field) {
    if (!isFinite(x)) refuse(field, "finite", formatFloat(x));
}

void requireFinite(Vec2 v, const char* field) {
    if (!isFinite(v)) refuse(field, "finite", formatVec(v));
}

void requireNonNegative(float x, const char* field) {
    if (!(x >= 0.0f) || !isFinite(x)) refuse(field, "finite and >= 0", formatFloat(x));
}

void requireRange(float x, float lo, float hi, const char* field, const char* unit) {
    // Written so that NaN fails too.
    if (!(x >= lo && x <= hi)) refuse(field, range(lo, hi, unit), formatFloat(x));
}

void requireZeroOrRange(float x, float lo, float hi, const char* field, const char* unit) {
    if (x == 0.0f) return;
    if (!(x >= lo && x <= hi)) refuse(field, "0 or " + range(lo, hi, unit), formatFloat(x));
}

void requireBox(Vec2 v, float bound, const char* field, const char* unit) {
    if (!(std::fabs(v.x) <= bound && std::fabs(v.y) <= bound))
        refuse(field,
               std::string("finite with both components within ±") + formatFloat(bound) +
                   (*unit ? " " : "") + unit,
               formatVec(v));
}

void requireLinearVelocity(Vec2 v, const char* field) {
    // The speed in double: a finite float pair can overflow float when squared.
    if (!isFinite(v) || !(lengthInDouble(v) <= double(kMaxLinearSpeed)))
        refuse(field, "finite with a speed of at most " + formatFloat(kMaxLinearSpeed) + " m/s",
               formatVec(v));
}

void requireAxis(Vec2 axis, const char* field) {
    requireBox(axis, kMaxCoordinate, field, "");
    if (lengthSquared(normalizeOrZero(axis)) == 0.0f)
        refuse(field, "a non-zero direction", formatVec(axis));
}

bool isUnitVector(Vec2 v) {
    // The length in double: a finite float pair can overflow float when squared.
    return isFinite(v) && std::fabs(lengthInDouble(v) - 1.0) <= kUnitTolerance;
}

void requireRotation(Rot q, const char* field) {
    if (!isUnitRotation(q)) refuse(field, "a unit (cos, sin) pair", formatVec({q.c, q.s}));
}

void requirePose(const Transform& xf, const std::string& field) {
    requireCoordinate(xf.p, (field + ".p").c_str());
    requireRotation(xf.q, (field + ".q").c_str());
}

void requireAABB(const AABB& box, const char* field) {
    if (!carom::isValid(box))
        refuse(field, "finite and ordered (lower <= upper)",
               formatVec(box.lower) + " to " + formatVec(box.upper));
}

void refuseStale(const char* field, const char* kind) {
    refuseWhy(field, std::string(field) + " is a stale or null " + kind + " id",
              ErrorCode::StaleId);
}

void requireDensity(float x, const char* field) {
    requireZeroOrRange(x, kMinDensity, kMaxDensity, field, " kg/m²");
}

void requireCoefficient(float x, const char* field) {
    requireRange(x, 0.0f, kMaxMaterialCoefficient, field);
}

void requireGravity(Vec2 g, const char* field) {
    requireBox(g, kMaxGravity, field, "m/s²");
}

void requireSpring(float hertz, float ratio, const char* hertzField, const char* ratioField) {
    requireRange(hertz, 0.0f, kMaxHertz, hertzField, " Hz");
    requireRange(ratio, 0.0f, kMaxDampingRatio, ratioField);
}

void requireMaxLinearSpeed(float x, const char* field) {
    if (!(x > 0.0f)) refuse(field, "> 0", formatFloat(x));
    requireRange(x, 0.0f, kMaxLinearSpeed, field, " m/s");
}

void requireFrictionMixing(FrictionMixing m, const char* field) {
    if (int(m) > int(FrictionMixing::Average))
        refuse(field, "GeometricMean, Min, Max or Average", std::to_string(int(m)));
}

void requireRestitutionMixing(RestitutionMixing m, const char* field) {
    if (int(m) > int(RestitutionMixing::Average))
        refuse(field, "Max, Min, GeometricMean or Average", std::to_string(int(m)));
}

void requireBodyName(std::string_view name, const char* field) {
    if (name.size() > kMaxBodyNameLength)
        refuse(field, "at most " + std::to_string(kMaxBodyNameLength) + " bytes",
               std::to_string(name.size()) + " bytes", ErrorCode::LimitExceeded);
    if (name.find('\0') != std::string_view::npos)
        refuseWhy(field, std::string(field) + " must not contain a NUL byte");
}

namespace {

void requireRadius(float r, float lo, const char* field) {
    if (lo > 0.0f)
        requireRange(r, lo, kMaxShapeRadius, field, " m");
    else
        requireRange(r, 0.0f, kMaxShapeRadius, field, " m");
}

void requireDistinct(Vec2 a, Vec2 b, const char* field, const char* other) {
    if (distanceSquared(a, b) <= kLinearSlop * kLinearSlop)
        refuseWhy(field, std::string(field) + " must be further than " + formatFloat(kLinearSlop) +
                             " m from " + other + ", got " + formatVec(b) + " and " + formatVec(a));
}

void requireOrdered(float lo, float hi, const char* loField, const char* hiField) {
    if (lo > hi)
        refuseWhy(loField, std::string(loField) + " must be <= " + hiField + ", got " +
                               formatFloat(lo) + " > " + formatFloat(hi));
}

// A joint's max force or torque is a clamp on the impulse: any finite value
// is accepted (3.4e38 is how files say "unlimited"); createJoint stores a
// value above kMaxForce as kMaxForce, which no impulse reaches.
void requireMaxForce(float x, const char* field) {
    requireRange(x, 0.0f, std::numeric_limits<float>::max(), field);
}

// A breakable joint's threshold: >= 0, FLT_MAX ("never", the default) included.
void requireThreshold(float x, const char* field, const char* unit) {
    requireRange(x, 0.0f, std::numeric_limits<float>::max(), field, unit);
}

// A joint's translation along its axis (limits, the spring's target).
void requireJointTranslation(float x, const char* field) {
    requireRange(x, -kMaxJointLength, kMaxJointLength, field, " m");
}

void requireTranslation(float lo, float hi) {
    requireJointTranslation(lo, "lowerTranslation");
    requireJointTranslation(hi, "upperTranslation");
    requireOrdered(lo, hi, "lowerTranslation", "upperTranslation");
}

// A revolute joint angle (limits, the spring's target): the angle is
// measured in (-π, π], so a value outside it could never be reached (or
// would be crossed by wrapping).
void requireJointAngle(float x, const char* field) {
    requireRange(x, -kPi, kPi, field, " rad");
}

void validateBase(const JointBase& d) {
    if (d.bodyA == d.bodyB)
        refuseWhy("bodyB", "a joint needs two different bodies: bodyB is bodyA");
    // Local anchors may reach from one body origin to any point of the world.
    requireBox(d.localAnchorA, kMaxJointLength, "localAnchorA");
    requireBox(d.localAnchorB, kMaxJointLength, "localAnchorB");
    requireThreshold(d.forceThreshold, "forceThreshold", " N");
    requireThreshold(d.torqueThreshold, "torqueThreshold", " N·m");
}

}  // namespace
}  // namespace detail

using namespace detail;

// ---- geometry ------------------------------------------------------------------

void validate(const Circle& g) {
    requireCoordinate(g.center, "center");
    requireRadius(g.radius, kMinShapeRadius, "radius");
}

void validate(const Capsule& g) {
    requireCoordinate(g.center1, "center1");
    requireCoordinate(g.center2, "center2");
    requireRadius(g.radius, kMinShapeRadius, "radius");
    requireDistinct(g.center1, g.center2, "center2", "center1");
}

void validate(const Segment& g) {
    requireCoordinate(g.point1, "point1");
    requireCoordinate(g.point2, "point2");
    requireDistinct(g.point1, g.point2, "point2", "point1");
}

void validate(const ChainSegment& g) {
    requireCoordinate(g.ghost1, "ghost1");
    requireCoordinate(g.segment.point1, "segment.point1");
    requireCoordinate(g.segment.point2, "segment.point2");
    requireCoordinate(g.ghost2, "ghost2");
    requireDistinct(g.segment.point1, g.segment.point2, "segment.point2", "segment.point1");
}

void validate(const Polygon& g) {
    if (g.count < 3 || g.count > kMaxPolygonVertices)
        refuse("count", "within [3, " + std::to_string(kMaxPolygonVertices) + "]",
               std::to_string(g.count), ErrorCode::LimitExceeded);
    requireRadius(g.radius, 0.0f, "radius");
    for (int i = 0; i < g.count; ++i) requireCoordinate(g.vertices[size_t(i)], "vertices");
    requireCoordinate(g.centroid, "centroid");
    // Convex and counter-clockwise with a positive area, with unit normals.
    float area = 0.0f;
    for (int i = 0; i < g.count; ++i) {
        Vec2 a = g.vertices[size_t(i)], b = g.vertices[size_t((i + 1) % g.count)];
        Vec2 c = g.vertices[size_t((i + 2) % g.count)];
        const Vec2 n = g.normals[size_t(i)];
        if (!isUnitVector(n))
            refuseWhy(
                "normals",
                "polygon normals must be unit vectors (build polygons with makePolygon), normals[" +
                    std::to_string(i) + "] is " + formatVec(n));
        if (cross(b - a, c - b) < -1e-6f * (1.0f + lengthSquared(b - a) + lengthSquared(c - b)))
            refuseWhy("vertices",
                      "polygon vertices must be convex and counter-clockwise (build polygons with "
                      "makePolygon), not at vertices[" +
                          std::to_string((i + 1) % g.count) + "] " + formatVec(b));
        area += cross(a - g.vertices[0], b - g.vertices[0]);
    }
    if (!(0.5f * area > kLinearSlop * kLinearSlop))
        refuseWhy("vertices", "polygon vertices must enclose an area above " +
                                  formatFloat(kLinearSlop * kLinearSlop) + " m², got " +
                                  formatFloat(0.5f * area));
}

void validate(const ShapeGeometry& g) {
    std::visit([](const auto& s) { validate(s); }, g);
}

// ---- defs ------------------------------------------------------------------------

namespace {

// A scale of the solver's tuning: within (0, 1] (0 would give a body an
// infinite mass, or a contact no spring; 1 is the unscaled step).
void requireTuningScale(float x, const char* field) {
    if (!(x > 0.0f && x <= 1.0f)) refuse(field, "within (0, 1]", formatFloat(x));
}

// WorldDef::tuning, its fields named "tuning.X".
void validateTuning(const SolverTuning& t) {
    if (t.contactRelaxPasses < 1 || t.contactRelaxPasses > kMaxContactRelaxPasses)
        refuse("tuning.contactRelaxPasses",
               "within [1, " + std::to_string(kMaxContactRelaxPasses) + "]",
               std::to_string(t.contactRelaxPasses));
    requireTuningScale(t.relaxShockScale, "tuning.relaxShockScale");
    requireTuningScale(t.contactLeakScale, "tuning.contactLeakScale");
}

}  // namespace

void validate(const WorldDef& d) {
    requireGravity(d.gravity, "gravity");
    if (d.substeps < 1 || d.substeps > kMaxSubsteps)
        refuse("substeps", "within [1, " + std::to_string(kMaxSubsteps) + "]",
               std::to_string(d.substeps));
    if (d.broadphase != BroadphaseType::Tree && d.broadphase != BroadphaseType::SortAndSweep)
        refuse("broadphase", "Tree or SortAndSweep", std::to_string(int(d.broadphase)));
    requireWorkerCount(d.workerCount, "workerCount");
    requireSpring(d.contactHertz, d.contactDampingRatio, "contactHertz", "contactDampingRatio");
    requireSpring(d.jointHertz, d.jointDampingRatio, "jointHertz", "jointDampingRatio");
    requireSpeedThreshold(d.contactPushMaxSpeed, "contactPushMaxSpeed");
    requireSpeedThreshold(d.restitutionThreshold, "restitutionThreshold");
    requireSpeedThreshold(d.hitEventThreshold, "hitEventThreshold");
    requireMaxLinearSpeed(d.maxLinearSpeed, "maxLinearSpeed");
    requireFrictionMixing(d.frictionMixing, "frictionMixing");
    requireRestitutionMixing(d.restitutionMixing, "restitutionMixing");
    if (int(d.simdWidth) > int(SimdWidth::AVX2))
        refuse("simdWidth", "Auto, Scalar, SSE2 or AVX2", std::to_string(int(d.simdWidth)));
    if (d.maxContacts < 0) refuse("maxContacts", ">= 0", std::to_string(d.maxContacts));
    if (d.maxSensorOverlaps < 0)
        refuse("maxSensorOverlaps", ">= 0", std::to_string(d.maxSensorOverlaps));
    requireContactReuseDistance(d.contactReuseDistance, "contactReuseDistance");
    validateTuning(d.tuning);
    if ((d.enqueueTask == nullptr) != (d.finishTask == nullptr))
        refuseWhy(
            d.enqueueTask == nullptr ? "enqueueTask" : "finishTask",
            "enqueueTask and finishTask must be given together (or neither, for Carom's own pool)");
}

void validate(const BodyDef& d) {
    if (d.type != BodyType::Static && d.type != BodyType::Kinematic && d.type != BodyType::Dynamic)
        refuse("type", "Static, Kinematic or Dynamic", std::to_string(int(d.type)));
    requireCoordinate(d.position, "position");
    requireFinite(d.angle, "angle");
    requireLinearVelocity(d.linearVelocity, "linearVelocity");
    requireAngularVelocity(d.angularVelocity, "angularVelocity");
    requireDamping(d.linearDamping, "linearDamping");
    requireDamping(d.angularDamping, "angularDamping");
    requireGravityScale(d.gravityScale, "gravityScale");
    requireSpeedThreshold(d.sleepThreshold, "sleepThreshold");
    requireBodyName(d.name, "name");
}

void validate(const ShapeDef& d) {
    requireDensity(d.density, "density");
    requireCoefficient(d.friction, "friction");
    requireCoefficient(d.restitution, "restitution");
    requireCoefficient(d.rollingResistance, "rollingResistance");
    requireTangentSpeed(d.tangentSpeed, "tangentSpeed");
}

void validate(const Wind& d) {
    requireLinearVelocity(d.velocity, "velocity");
    requireCoefficient(d.drag, "drag");
    requireRange(d.lift, -kMaxMaterialCoefficient, kMaxMaterialCoefficient, "lift");
    requireDensity(d.density, "density");
    requireRange(d.timeStep, 0.0f, kMaxTimeStep, "timeStep", " s");
}

void validate(const ChainDef& d) {
    const size_t n = d.points.size();
    const size_t least = d.isLoop ? 3 : 2;
    if (n < least || n > kMaxChainPoints)
        refuse("points",
               std::string("within [") + std::to_string(least) + ", " +
                   std::to_string(kMaxChainPoints) + "] points" + (d.isLoop ? " for a loop" : ""),
               std::to_string(n) + " points",
               n > kMaxChainPoints ? ErrorCode::LimitExceeded : ErrorCode::InvalidArgument);
    for (size_t i = 0; i < n; ++i) {
        const Vec2 p = d.points[i];
        if (!(std::fabs(p.x) <= kMaxCoordinate && std::fabs(p.y) <= kMaxCoordinate))
            refuseWhy("points", "points[" + std::to_string(i) +
                                    "] must be finite with both components within ±" +
                                    formatFloat(kMaxCoordinate) + " m, got " + formatVec(p));
    }
    for (size_t i = 0; i + 1 < n + (d.isLoop ? 1 : 0); ++i)
        if (distanceSquared(d.points[i], d.points[(i + 1) % n]) <= kLinearSlop * kLinearSlop)
            refuseWhy("points", "points[" + std::to_string((i + 1) % n) + "] " +
                                    formatVec(d.points[(i + 1) % n]) + " must be further than " +
                                    formatFloat(kLinearSlop) + " m from points[" +
                                    std::to_string(i) + "] " + formatVec(d.points[i]));
    requireCoefficient(d.friction, "friction");
    requireCoefficient(d.restitution, "restitution");
    requireCoefficient(d.rollingResistance, "rollingResistance");
}

void validate(const MassData& m) {
    requireRange(m.mass, kMinMass, kMaxMass, "massData.mass", " kg");
    requireCoordinate(m.center, "massData.center");
    requireZeroOrRange(m.rotationalInertia, kMinRotationalInertia, kMaxRotationalInertia,
                       "massData.rotationalInertia", " kg·m²");
}

// ---- joints ---------------------------------------------------------------------

void validate(const RevoluteJointDef& d) {
    validateBase(d);
    requireFinite(d.referenceAngle, "referenceAngle");
    requireJointAngle(d.lowerAngle, "lowerAngle");
    requireJointAngle(d.upperAngle, "upperAngle");
    requireOrdered(d.lowerAngle, d.upperAngle, "lowerAngle", "upperAngle");
    requireAngularVelocity(d.motorSpeed, "motorSpeed");
    requireMaxForce(d.maxMotorTorque, "maxMotorTorque");
    requireSpring(d.hertz, d.dampingRatio, "hertz", "dampingRatio");
    requireJointAngle(d.targetAngle, "targetAngle");
}

void validate(const PrismaticJointDef& d) {
    validateBase(d);
    requireAxis(d.localAxisA, "localAxisA");
    requireFinite(d.referenceAngle, "referenceAngle");
    requireTranslation(d.lowerTranslation, d.upperTranslation);
    requireRange(d.motorSpeed, -kMaxLinearSpeed, kMaxLinearSpeed, "motorSpeed", " m/s");
    requireMaxForce(d.maxMotorForce, "maxMotorForce");
    requireSpring(d.hertz, d.dampingRatio, "hertz", "dampingRatio");
    requireJointTranslation(d.targetTranslation, "targetTranslation");
}

void validate(const DistanceJointDef& d) {
    validateBase(d);
    if (!(d.length > 0.0f)) refuse("length", "> 0", formatFloat(d.length));
    requireRange(d.length, 0.0f, kMaxJointLength, "length", " m");
    requireRange(d.minLength, 0.0f, kMaxJointLength, "minLength", " m");
    requireRange(d.maxLength, 0.0f, kMaxJointLength, "maxLength", " m");
    requireOrdered(d.minLength, d.maxLength, "minLength", "maxLength");
    requireSpring(d.hertz, d.dampingRatio, "hertz", "dampingRatio");
    requireRange(d.motorSpeed, -kMaxLinearSpeed, kMaxLinearSpeed, "motorSpeed", " m/s");
    requireMaxForce(d.maxMotorForce, "maxMotorForce");
}

void validate(const WeldJointDef& d) {
    validateBase(d);
    requireFinite(d.referenceAngle, "referenceAngle");
    requireSpring(d.linearHertz, d.linearDampingRatio, "linearHertz", "linearDampingRatio");
    requireSpring(d.angularHertz, d.angularDampingRatio, "angularHertz", "angularDampingRatio");
}

void validate(const WheelJointDef& d) {
    validateBase(d);
    requireAxis(d.localAxisA, "localAxisA");
    requireTranslation(d.lowerTranslation, d.upperTranslation);
    requireAngularVelocity(d.motorSpeed, "motorSpeed");
    requireMaxForce(d.maxMotorTorque, "maxMotorTorque");
    requireSpring(d.hertz, d.dampingRatio, "hertz", "dampingRatio");
}

void validate(const MotorJointDef& d) {
    validateBase(d);
    requireBox(d.linearOffset, kMaxJointLength, "linearOffset");
    requireFinite(d.angularOffset, "angularOffset");
    requireMaxForce(d.maxForce, "maxForce");
    requireMaxForce(d.maxTorque, "maxTorque");
    requireRange(d.correctionFactor, 0.0f, 1.0f, "correctionFactor");
}

void validate(const MouseJointDef& d) {
    validateBase(d);
    requireCoordinate(d.target, "target");
    requireSpring(d.hertz, d.dampingRatio, "hertz", "dampingRatio");
    requireMaxForce(d.maxForce, "maxForce");
}

// A gear or pulley ratio: finite, non-zero, neither huge nor tiny (limits.hpp).
static void requireRatio(float ratio, bool allowNegative) {
    const float mag = allowNegative ? std::fabs(ratio) : ratio;
    if (!(mag >= kMinJointRatio && mag <= kMaxJointRatio))
        refuse("ratio",
               std::string(allowNegative ? "finite with |ratio| within [" : "within [") +
                   formatFloat(kMinJointRatio) + ", " + formatFloat(kMaxJointRatio) + "]",
               formatFloat(ratio));
}

void validate(const GearJointDef& d) {
    // The bodies may be left null for World::createJoint to take from the joints.
    if (!d.bodyA.isNull() || !d.bodyB.isNull()) validateBase(d);
    if (d.jointA.isNull()) refuseWhy("jointA", "jointA is a null joint id");
    if (d.jointB.isNull()) refuseWhy("jointB", "jointB is a null joint id");
    if (d.jointA == d.jointB)
        refuseWhy("jointB", "a gear needs two different joints: jointB is jointA");
    requireRatio(d.ratio, true);
}

void validate(const PulleyJointDef& d) {
    validateBase(d);
    requireCoordinate(d.groundAnchorA, "groundAnchorA");
    requireCoordinate(d.groundAnchorB, "groundAnchorB");
    requireRange(d.lengthA, 0.0f, kMaxJointLength, "lengthA", " m");
    requireRange(d.lengthB, 0.0f, kMaxJointLength, "lengthB", " m");
    requireRatio(d.ratio, false);
}

void validate(const FilterJointDef& d) {
    validateBase(d);
}

void validate(const RopeJointDef& d) {
    validateBase(d);
    if (!(d.maxLength > 0.0f)) refuse("maxLength", "> 0", formatFloat(d.maxLength));
    requireRange(d.maxLength, 0.0f, kMaxJointLength, "maxLength", " m");
}

void validatePosition(Vec2 p, const char* field) {
    requireCoordinate(p, field);
}
void validateTranslation(Vec2 v, const char* field) {
    requireCastTranslation(v, field);
}
void validateRotation(Rot q, const char* field) {
    requireRotation(q, field);
}

void validateStep(float timeStep, int substeps) {
    requireRange(timeStep, 0.0f, kMaxTimeStep, "timeStep", " s");
    if (substeps < 1 || substeps > kMaxSubsteps)
        refuse("substeps", "within [1, " + std::to_string(kMaxSubsteps) + "]",
               std::to_string(substeps));
}

}  // namespace carom
