// Joints of scene files (scene-format.md, "Joints").
#include <algorithm>
#include <cmath>

#include <carom/validate.hpp>

#include "joint_features.hpp"
#include "loader.hpp"

namespace carom::scene::detail {

namespace {

// The file's joint types and the JointType of each (a mouse joint: a drag
// in progress, written by saveWorld when asked).
constexpr std::string_view kJointTypes[] = {"revolute", "prismatic", "distance", "weld",
                                            "wheel",    "motor",     "gear",     "pulley",
                                            "rope",     "mouse",     "filter"};
constexpr JointType kJointTypeValues[] = {
    JointType::Revolute, JointType::Prismatic, JointType::Distance, JointType::Weld,
    JointType::Wheel,    JointType::Motor,     JointType::Gear,     JointType::Pulley,
    JointType::Rope,     JointType::Mouse,     JointType::Filter};

std::vector<std::string_view> jointKeys(JointType type) {
    // A gear's bodies are its joints' bodies: no a, b or anchors of its own.
    if (type == JointType::Gear)
        return {"type",
                "name",
                "joint_a",
                "joint_b",
                "ratio",
                "collide_connected",
                "force_threshold",
                "torque_threshold"};
    std::vector<std::string_view> keys = {"type",
                                          "name",
                                          "a",
                                          "b",
                                          "collide_connected",
                                          "local_anchor_a",
                                          "local_anchor_b",
                                          "force_threshold",
                                          "torque_threshold"};
    switch (type) {
        case JointType::Revolute:
            keys.insert(keys.end(), {"anchor", "limit", "motor", "spring", "reference_angle"});
            break;
        case JointType::Prismatic:
            keys.insert(keys.end(), {"anchor", "axis", "limit", "motor", "spring",
                                     "reference_angle", "local_axis_a"});
            break;
        case JointType::Distance:
            keys.insert(keys.end(), {"anchor_a", "anchor_b", "length", "min_length", "max_length",
                                     "spring", "motor"});
            break;
        case JointType::Weld:
            keys.insert(keys.end(),
                        {"anchor", "linear_hertz", "angular_hertz", "linear_damping_ratio",
                         "angular_damping_ratio", "reference_angle"});
            break;
        case JointType::Wheel:
            keys.insert(keys.end(), {"anchor", "axis", "spring", "motor", "limit", "local_axis_a"});
            break;
        case JointType::Motor:
            keys.insert(keys.end(), {"linear_offset", "angular_offset", "max_force", "max_torque",
                                     "correction_factor"});
            break;
        case JointType::Mouse:
            keys.insert(keys.end(), {"target", "max_force", "hertz", "damping_ratio"});
            break;
        case JointType::Gear:
            break;
        case JointType::Pulley:
            keys.insert(keys.end(), {"anchor_a", "anchor_b", "ground_anchor_a", "ground_anchor_b",
                                     "ratio", "length_a", "length_b"});
            break;
        case JointType::Rope:
            keys.insert(keys.end(), {"anchor_a", "anchor_b", "max_length"});
            break;
        case JointType::Filter:  // the bodies only
            break;
    }
    return keys;
}

JointLimit parseLimit(const Reader& r, const Node& n, const std::string& path) {
    Obj o(r, n, path, {"lower", "upper"});
    JointLimit l;
    l.lower = asFloat(r, o.required("lower"), o.path("lower"));
    l.upper = asFloat(r, o.required("upper"), o.path("upper"));
    if (l.lower > l.upper)
        o.fail("upper", "must be >= lower (" + describe(*o.get("lower")) + "), got " +
                            describe(*o.get("upper")));
    return l;
}

JointMotor parseMotor(const Reader& r, const Node& n, const std::string& path,
                      std::string_view maxKey) {
    Obj o(r, n, path, {"speed", maxKey});
    JointMotor m;
    m.speed = o.number("speed", 0.0f);
    o.required(maxKey);
    m.maxForce = o.nonNegative(maxKey, 0.0f);
    return m;
}

// A spring; `target` only where the joint has one (revolute, prismatic).
JointSpring parseSpring(const Reader& r, const Node& n, const std::string& path, bool hasTarget) {
    std::vector<std::string_view> keys = {"hertz", "damping_ratio"};
    if (hasTarget) keys.push_back("target");
    Obj o(r, n, path, std::move(keys));
    JointSpring s;
    o.required("hertz");
    s.hertz = o.nonNegative("hertz", 0.0f);
    s.dampingRatio = o.nonNegative("damping_ratio", 0.0f);
    if (hasTarget) s.target = o.number("target", 0.0f);
    return s;
}

Vec2 unitAxis(const Obj& o, std::string_view key, Vec2 fallback) {
    Vec2 axis = o.vec2(key, fallback);
    float len = std::sqrt(axis.x * axis.x + axis.y * axis.y);
    if (!(len > 1.0e-6f)) {
        // A default axis is never zero, so the key is there: quote the user's value.
        o.fail(key,
               "expected a non-zero axis (length above 1e-6), got " + describeVec2(*o.get(key)));
    }
    return {axis.x / len, axis.y / len};
}

// The engine's rules for the joint the runner will create (motor speeds and
// torques, limits, springs, lengths, local frames), checked on a def built
// from the file's values, reported at the file's keys. What depends on the
// bodies' poses (default local anchors and axes, the default length) is
// computed at creation from coordinates within +-1e6 m, inside every range.
void checkWithEngine(const Obj& o, const JointDesc& j) {
    auto base = [&](JointBase& d) {
        d.bodyA.index = 0;  // two distinct ids: which bodies is checked by name
        d.bodyB.index = 1;
        d.localAnchorA = j.localAnchorA.value_or(Vec2{0.0f, 0.0f});
        d.localAnchorB = j.localAnchorB.value_or(Vec2{0.0f, 0.0f});
        d.forceThreshold = j.forceThreshold;
        d.torqueThreshold = j.torqueThreshold;
    };
    const std::initializer_list<FieldKey> keys = {
        {"lowerAngle", "limit.lower"},
        {"upperAngle", "limit.upper"},
        {"lowerTranslation", "limit.lower"},
        {"upperTranslation", "limit.upper"},
        {"motorSpeed", "motor.speed"},
        {"maxMotorTorque", "motor.max_torque"},
        {"maxMotorForce", "motor.max_force"},
        {"hertz", "spring.hertz"},
        {"dampingRatio", "spring.damping_ratio"},
        {"targetAngle", "spring.target"},
        {"targetTranslation", "spring.target"},
        {"localAxisA", j.localAxisA ? "local_axis_a" : "axis"},
        {"bodyB", "b"},
        {"bodyA", "a"},
        {"forceThreshold", "force_threshold"},
        {"torqueThreshold", "torque_threshold"}};
    switch (j.type) {
        case JointType::Revolute: {
            RevoluteJointDef d;
            base(d);
            d.referenceAngle = j.referenceAngle.value_or(0.0f);
            detail::applyFeatures(d, j);
            o.engineRule([&] { validate(d); }, keys);
            break;
        }
        case JointType::Prismatic: {
            PrismaticJointDef d;
            base(d);
            d.localAxisA = j.localAxisA.value_or(j.axis);
            d.referenceAngle = j.referenceAngle.value_or(0.0f);
            detail::applyFeatures(d, j);
            o.engineRule([&] { validate(d); }, keys);
            break;
        }
        case JointType::Distance: {
            DistanceJointDef d;
            base(d);
            d.length = j.length.value_or(std::max(distance(j.anchorA, j.anchorB), kLinearSlop));
            detail::applyFeatures(d, j);
            o.engineRule([&] { validate(d); }, keys);
            break;
        }
        case JointType::Weld: {
            WeldJointDef d;
            base(d);
            d.referenceAngle = j.referenceAngle.value_or(0.0f);
            d.linearHertz = j.linearHertz;
            d.angularHertz = j.angularHertz;
            d.linearDampingRatio = j.linearDampingRatio;
            d.angularDampingRatio = j.angularDampingRatio;
            o.engineRule([&] { validate(d); }, keys);
            break;
        }
        case JointType::Wheel: {
            WheelJointDef d;
            base(d);
            d.localAxisA = j.localAxisA.value_or(j.axis);
            applyFeatures(d, j);
            o.engineRule([&] { validate(d); }, keys);
            break;
        }
        case JointType::Motor: {
            MotorJointDef d;
            d.bodyA.index = 0;
            d.bodyB.index = 1;
            d.linearOffset = j.linearOffset.value_or(Vec2{0.0f, 0.0f});
            d.angularOffset = j.angularOffset.value_or(0.0f);
            d.maxForce = j.maxForce;
            d.maxTorque = j.maxTorque;
            d.correctionFactor = j.correctionFactor;
            d.forceThreshold = j.forceThreshold;
            d.torqueThreshold = j.torqueThreshold;
            o.engineRule([&] { validate(d); }, keys);
            break;
        }
        case JointType::Mouse: {
            MouseJointDef d;
            base(d);
            d.target = j.target;
            d.maxForce = j.maxForce;
            d.hertz = j.hertz;
            d.dampingRatio = j.dampingRatio;
            o.engineRule([&] { validate(d); },
                         {{"hertz", "hertz"}, {"dampingRatio", "damping_ratio"}});
            break;
        }
        case JointType::Gear: {
            GearJointDef d;
            d.jointA = {0, 1};  // which joints is checked by name
            d.jointB = {1, 1};
            d.ratio = j.ratio;
            d.forceThreshold = j.forceThreshold;
            d.torqueThreshold = j.torqueThreshold;
            o.engineRule([&] { validate(d); }, keys);
            break;
        }
        case JointType::Pulley: {
            PulleyJointDef d;
            base(d);
            d.groundAnchorA = j.groundAnchorA;
            d.groundAnchorB = j.groundAnchorB;
            d.lengthA = j.lengthA.value_or(distance(j.anchorA, j.groundAnchorA));
            d.lengthB = j.lengthB.value_or(distance(j.anchorB, j.groundAnchorB));
            d.ratio = j.ratio;
            o.engineRule([&] { validate(d); }, {{"ratio", "ratio"},
                                                {"lengthA", "length_a"},
                                                {"lengthB", "length_b"},
                                                {"groundAnchorA", "ground_anchor_a"},
                                                {"groundAnchorB", "ground_anchor_b"},
                                                {"localAnchorA", "local_anchor_a"},
                                                {"localAnchorB", "local_anchor_b"},
                                                {"bodyB", "b"}});
            break;
        }
        case JointType::Rope: {
            RopeJointDef d;
            base(d);
            d.maxLength =
                j.maxLength.value_or(std::max(distance(j.anchorA, j.anchorB), kLinearSlop));
            o.engineRule([&] { validate(d); }, {{"maxLength", "max_length"},
                                                {"localAnchorA", "local_anchor_a"},
                                                {"localAnchorB", "local_anchor_b"},
                                                {"bodyB", "b"}});
            break;
        }
        case JointType::Filter: {
            FilterJointDef d;
            base(d);
            o.engineRule([&] { validate(d); }, {{"localAnchorA", "local_anchor_a"},
                                                {"localAnchorB", "local_anchor_b"},
                                                {"bodyB", "b"}});
            break;
        }
    }
}

}  // namespace

JointDesc parseJoint(const Reader& r, const Node& node, const std::string& path) {
    requireObject(r, node, path);
    const Node* typeNode = node.find("type");
    if (!typeNode) r.fail(node, path, "missing required key \"type\"");
    const std::string& type = asString(r, *typeNode, childPath(path, "type"));
    auto it = std::find(std::begin(kJointTypes), std::end(kJointTypes), type);
    if (it == std::end(kJointTypes)) {
        std::string message =
            "expected \"revolute\", \"prismatic\", \"distance\", \"weld\", \"wheel\", \"motor\", "
            "\"gear\", \"pulley\", \"rope\" or \"mouse\", got \"" +
            type + "\"";
        std::string near = nearestKey(type, {std::begin(kJointTypes), std::end(kJointTypes)});
        if (!near.empty()) message += ", did you mean \"" + near + "\"?";
        r.fail(*typeNode, childPath(path, "type"), message);
    }
    JointDesc j;
    j.type = kJointTypeValues[it - std::begin(kJointTypes)];
    Obj o(r, node, path, jointKeys(j.type));
    j.loc = o.loc();
    if (o.has("name")) j.name = asString(r, *o.get("name"), o.path("name"));
    if (j.type == JointType::Gear) {
        // The bodies are filled in by parseJointList from the named joints.
        j.jointA = asString(r, o.required("joint_a"), o.path("joint_a"));
        j.jointB = asString(r, o.required("joint_b"), o.path("joint_b"));
        if (j.jointA == j.jointB)
            o.fail("joint_b",
                   "must name a different joint than joint_a, got \"" + j.jointB + "\" twice");
        j.ratio = o.number("ratio", 1.0f);
        j.collideConnected = o.flag("collide_connected", false);
        checkWithEngine(o, j);
        return j;
    }
    j.a = asString(r, o.required("a"), o.path("a"));
    j.b = asString(r, o.required("b"), o.path("b"));
    if (j.a == j.b) o.fail("b", "must name a different body than a, got \"" + j.b + "\" twice");
    j.collideConnected = o.flag("collide_connected", false);
    j.forceThreshold = o.nonNegative("force_threshold", FLT_MAX);
    j.torqueThreshold = o.nonNegative("torque_threshold", FLT_MAX);
    j.localAnchorA = o.optVec2("local_anchor_a");
    j.localAnchorB = o.optVec2("local_anchor_b");
    j.referenceAngle = o.optNumber("reference_angle");
    if (o.has("local_axis_a")) j.localAxisA = unitAxis(o, "local_axis_a", {1.0f, 0.0f});

    bool usesAnchor = j.type != JointType::Distance && j.type != JointType::Motor &&
                      j.type != JointType::Pulley && j.type != JointType::Rope &&
                      j.type != JointType::Mouse && j.type != JointType::Filter;
    if (usesAnchor) j.anchor = asVec2(r, o.required("anchor"), o.path("anchor"));
    if (const Node* n = o.get("limit")) j.limit = parseLimit(r, *n, o.path("limit"));
    if (const Node* n = o.get("motor")) {
        j.motor = parseMotor(r, *n, o.path("motor"),
                             j.type == JointType::Prismatic || j.type == JointType::Distance
                                 ? "max_force"
                                 : "max_torque");
    }
    if (const Node* n = o.get("spring")) {
        j.spring = parseSpring(r, *n, o.path("spring"),
                               j.type == JointType::Revolute || j.type == JointType::Prismatic);
    }

    switch (j.type) {
        case JointType::Prismatic:
            j.axis = unitAxis(o, "axis", {1.0f, 0.0f});
            break;
        case JointType::Wheel:
            j.axis = unitAxis(o, "axis", {0.0f, 1.0f});
            break;
        case JointType::Distance: {
            j.anchorA = asVec2(r, o.required("anchor_a"), o.path("anchor_a"));
            j.anchorB = asVec2(r, o.required("anchor_b"), o.path("anchor_b"));
            if (o.has("length")) {
                j.length = o.positive("length", 1.0f);
            } else if (!(distance(j.anchorA, j.anchorB) >= kLinearSlop)) {
                o.fail("anchor_b",
                       "the anchors coincide, so the default length would be 0; give a length > 0");
            }
            j.minLength = o.optNonNegative("min_length");
            j.maxLength = o.optNonNegative("max_length");
            if (j.minLength && j.maxLength && *j.minLength > *j.maxLength) {
                o.fail("max_length", "must be >= min_length (" + describe(*o.get("min_length")) +
                                         "), got " + describe(*o.get("max_length")));
            }
            break;
        }
        case JointType::Pulley:
        case JointType::Rope: {
            j.anchorA = asVec2(r, o.required("anchor_a"), o.path("anchor_a"));
            j.anchorB = asVec2(r, o.required("anchor_b"), o.path("anchor_b"));
            if (j.type == JointType::Rope) {
                if (o.has("max_length")) {
                    j.maxLength = o.positive("max_length", 1.0f);
                } else if (!(distance(j.anchorA, j.anchorB) >= kLinearSlop)) {
                    o.fail("anchor_b",
                           "the anchors coincide, so the default max_length would be 0; give a "
                           "max_length > 0");
                }
                break;
            }
            j.groundAnchorA = asVec2(r, o.required("ground_anchor_a"), o.path("ground_anchor_a"));
            j.groundAnchorB = asVec2(r, o.required("ground_anchor_b"), o.path("ground_anchor_b"));
            j.ratio = o.positive("ratio", 1.0f);
            j.lengthA = o.optNonNegative("length_a");
            j.lengthB = o.optNonNegative("length_b");
            break;
        }
        case JointType::Weld:
            j.linearHertz = o.nonNegative("linear_hertz", 0.0f);
            j.angularHertz = o.nonNegative("angular_hertz", 0.0f);
            j.linearDampingRatio = o.nonNegative("linear_damping_ratio", 0.0f);
            j.angularDampingRatio = o.nonNegative("angular_damping_ratio", 0.0f);
            break;
        case JointType::Motor: {
            j.linearOffset = o.optVec2("linear_offset");
            j.angularOffset = o.optNumber("angular_offset");
            j.maxForce = o.nonNegative("max_force", 1.0f);
            j.maxTorque = o.nonNegative("max_torque", 1.0f);
            j.correctionFactor = o.nonNegative("correction_factor", 0.3f);
            if (j.correctionFactor > 1.0f)
                o.fail("correction_factor",
                       "must be <= 1, got " + describe(*o.get("correction_factor")));
            break;
        }
        case JointType::Mouse:
            // A drag in progress (addition): B pulled towards `target`.
            j.target = o.point("target", {0.0f, 0.0f});
            o.required("target");
            j.maxForce = o.nonNegative("max_force", 1.0f);
            j.hertz = o.nonNegative("hertz", 4.0f);
            j.dampingRatio = o.nonNegative("damping_ratio", 1.0f);
            break;
        default:
            break;
    }
    // Anchors are points in the world, within the file's +-1e6 m.
    for (std::string_view key :
         {"anchor", "anchor_a", "anchor_b", "ground_anchor_a", "ground_anchor_b"}) {
        if (o.has(key)) o.point(key, {0.0f, 0.0f});
    }
    checkWithEngine(o, j);
    return j;
}

}  // namespace carom::scene::detail
