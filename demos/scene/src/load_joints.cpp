// Joints of scene files (scene-format.md, "Joints").
#include <algorithm>
#include <cmath>

#include "loader.hpp"

namespace carom::scene::detail {

namespace {

constexpr std::string_view kJointTypes[] = {"revolute", "prismatic", "distance", "weld", "wheel", "motor"};

std::vector<std::string_view> jointKeys(JointType type) {
    std::vector<std::string_view> keys = {"type", "a", "b", "collide_connected", "local_anchor_a", "local_anchor_b"};
    switch (type) {
        case JointType::Revolute:
            keys.insert(keys.end(), {"anchor", "limit", "motor", "spring", "reference_angle"});
            break;
        case JointType::Prismatic:
            keys.insert(keys.end(), {"anchor", "axis", "limit", "motor", "spring", "reference_angle", "local_axis_a"});
            break;
        case JointType::Distance:
            keys.insert(keys.end(), {"anchor_a", "anchor_b", "length", "min_length", "max_length", "spring"});
            break;
        case JointType::Weld:
            keys.insert(keys.end(), {"anchor", "linear_hertz", "angular_hertz", "linear_damping_ratio",
                                     "angular_damping_ratio", "reference_angle"});
            break;
        case JointType::Wheel:
            keys.insert(keys.end(), {"anchor", "axis", "spring", "motor", "limit", "local_axis_a"});
            break;
        case JointType::Motor:
            keys.insert(keys.end(), {"linear_offset", "angular_offset", "max_force", "max_torque", "correction_factor"});
            break;
        case JointType::Mouse: break;
    }
    return keys;
}

JointLimit parseLimit(const Reader& r, const Node& n, const std::string& path) {
    Obj o(r, n, path, {"lower", "upper"});
    JointLimit l;
    l.lower = asFloat(r, o.required("lower"), o.path("lower"));
    l.upper = asFloat(r, o.required("upper"), o.path("upper"));
    if (l.lower > l.upper) o.fail("upper", "must be >= lower (" + describe(*o.get("lower")) + "), got " + describe(*o.get("upper")));
    return l;
}

JointMotor parseMotor(const Reader& r, const Node& n, const std::string& path, std::string_view maxKey) {
    Obj o(r, n, path, {"speed", maxKey});
    JointMotor m;
    m.speed = o.number("speed", 0.0f);
    o.required(maxKey);
    m.maxForce = o.nonNegative(maxKey, 0.0f);
    return m;
}

JointSpring parseSpring(const Reader& r, const Node& n, const std::string& path) {
    Obj o(r, n, path, {"hertz", "damping_ratio"});
    JointSpring s;
    o.required("hertz");
    s.hertz = o.nonNegative("hertz", 0.0f);
    s.dampingRatio = o.nonNegative("damping_ratio", 0.0f);
    return s;
}

Vec2 unitAxis(const Obj& o, std::string_view key, Vec2 fallback) {
    Vec2 axis = o.vec2(key, fallback);
    float len = std::sqrt(axis.x * axis.x + axis.y * axis.y);
    if (!(len > 1.0e-6f)) {
        // A default axis is never zero, so the key is there: quote the user's value.
        o.fail(key, "expected a non-zero axis (length above 1e-6), got " + describeVec2(*o.get(key)));
    }
    return {axis.x / len, axis.y / len};
}

}  // namespace

JointDesc parseJoint(const Reader& r, const Node& node, const std::string& path) {
    requireObject(r, node, path);
    const Node* typeNode = node.find("type");
    if (!typeNode) r.fail(node, path, "missing required key \"type\"");
    const std::string& type = asString(r, *typeNode, childPath(path, "type"));
    auto it = std::find(std::begin(kJointTypes), std::end(kJointTypes), type);
    if (it == std::end(kJointTypes)) {
        std::string message = "expected \"revolute\", \"prismatic\", \"distance\", \"weld\", \"wheel\" or \"motor\", got \"" + type + "\"";
        std::string near = nearestKey(type, {std::begin(kJointTypes), std::end(kJointTypes)});
        if (!near.empty()) message += ", did you mean \"" + near + "\"?";
        r.fail(*typeNode, childPath(path, "type"), message);
    }
    JointDesc j;
    j.type = static_cast<JointType>(it - std::begin(kJointTypes));
    Obj o(r, node, path, jointKeys(j.type));
    j.loc = o.loc();
    j.a = asString(r, o.required("a"), o.path("a"));
    j.b = asString(r, o.required("b"), o.path("b"));
    if (j.a == j.b) o.fail("b", "must name a different body than a, got \"" + j.b + "\" twice");
    j.collideConnected = o.flag("collide_connected", false);
    j.localAnchorA = o.optVec2("local_anchor_a");
    j.localAnchorB = o.optVec2("local_anchor_b");
    j.referenceAngle = o.optNumber("reference_angle");
    if (o.has("local_axis_a")) j.localAxisA = unitAxis(o, "local_axis_a", {1.0f, 0.0f});

    bool usesAnchor = j.type != JointType::Distance && j.type != JointType::Motor;
    if (usesAnchor) j.anchor = asVec2(r, o.required("anchor"), o.path("anchor"));
    if (const Node* n = o.get("limit")) j.limit = parseLimit(r, *n, o.path("limit"));
    if (const Node* n = o.get("motor")) {
        j.motor = parseMotor(r, *n, o.path("motor"), j.type == JointType::Prismatic ? "max_force" : "max_torque");
    }
    if (const Node* n = o.get("spring")) j.spring = parseSpring(r, *n, o.path("spring"));

    switch (j.type) {
        case JointType::Prismatic: j.axis = unitAxis(o, "axis", {1.0f, 0.0f}); break;
        case JointType::Wheel: j.axis = unitAxis(o, "axis", {0.0f, 1.0f}); break;
        case JointType::Distance: {
            j.anchorA = asVec2(r, o.required("anchor_a"), o.path("anchor_a"));
            j.anchorB = asVec2(r, o.required("anchor_b"), o.path("anchor_b"));
            if (o.has("length")) {
                j.length = o.positive("length", 1.0f);
            } else if (!(distance(j.anchorA, j.anchorB) >= kLinearSlop)) {
                o.fail("anchor_b", "the anchors coincide, so the default length would be 0; give a length > 0");
            }
            j.minLength = o.optNonNegative("min_length");
            j.maxLength = o.optNonNegative("max_length");
            if (j.minLength && j.maxLength && *j.minLength > *j.maxLength) {
                o.fail("max_length", "must be >= min_length (" + describe(*o.get("min_length")) + "), got " +
                                         describe(*o.get("max_length")));
            }
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
            if (j.correctionFactor > 1.0f) o.fail("correction_factor", "must be <= 1, got " + describe(*o.get("correction_factor")));
            break;
        }
        default: break;
    }
    return j;
}

}  // namespace carom::scene::detail
