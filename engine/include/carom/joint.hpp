// Joint definitions. Anchors are in each body's local frame; fill them from
// world points with World::localPoint, or start from World::makeRevoluteJointDef
// and its siblings (world.hpp), which take world anchors and axes.
#pragma once

#include <cfloat>
#include <cstdint>

#include <carom/id.hpp>
#include <carom/math.hpp>

namespace carom {

enum class JointType : uint8_t { Revolute, Prismatic, Distance, Weld, Wheel, Motor, Mouse };

/// Fields every joint has.
struct JointBase {
    BodyId bodyA{};
    BodyId bodyB{};
    Vec2 localAnchorA{0.0f, 0.0f};  ///< anchor on A, in A's frame, metres
    Vec2 localAnchorB{0.0f, 0.0f};  ///< anchor on B, in B's frame, metres
    bool collideConnected = false;  ///< let A and B still collide
    void* userData = nullptr;
    /// Breakable joints: after a step in which the constraint force on B
    /// (World::jointConstraintForce, its length) is above forceThreshold, or
    /// the constraint torque (its magnitude) above torqueThreshold, the step
    /// reports a JointEvent (World::jointEvents). The joint is not destroyed:
    /// the game decides. Newtons and N·m, >= 0; FLT_MAX (the default) never
    /// reports. Only joints the step solved are checked (at least one body awake).
    float forceThreshold = FLT_MAX;
    float torqueThreshold = FLT_MAX;
};

/// A pin: B turns about the anchor relative to A.
struct RevoluteJointDef : JointBase {
    float referenceAngle = 0.0f;   ///< angleB - angleA at rest, radians
    bool enableLimit = false;
    float lowerAngle = 0.0f;       ///< radians, <= upperAngle
    float upperAngle = 0.0f;       ///< radians
    bool enableMotor = false;
    float motorSpeed = 0.0f;       ///< rad/s
    float maxMotorTorque = 0.0f;   ///< N·m, >= 0
    bool enableSpring = false;     ///< angular spring towards referenceAngle
    float hertz = 0.0f;            ///< spring stiffness, Hz, >= 0
    float dampingRatio = 0.0f;     ///< >= 0
};

/// A slider: B translates along an axis fixed in A, no relative rotation.
struct PrismaticJointDef : JointBase {
    Vec2 localAxisA{1.0f, 0.0f};   ///< unit axis in A's frame
    float referenceAngle = 0.0f;
    bool enableLimit = false;
    float lowerTranslation = 0.0f; ///< metres
    float upperTranslation = 0.0f; ///< metres
    bool enableMotor = false;
    float motorSpeed = 0.0f;       ///< m/s
    float maxMotorForce = 0.0f;    ///< N, >= 0
    bool enableSpring = false;     ///< spring towards translation 0
    float hertz = 0.0f;
    float dampingRatio = 0.0f;
};

/// Keeps the anchors at a distance: rigid, as a spring, or within [min, max].
struct DistanceJointDef : JointBase {
    float length = 1.0f;           ///< rest length, metres, > 0
    bool enableSpring = false;     ///< soft length (rigid when false)
    float hertz = 0.0f;
    float dampingRatio = 0.0f;
    bool enableLimit = false;      ///< clamp to [minLength, maxLength]
    float minLength = 0.0f;
    float maxLength = 1.0e6f;
};

/// Glues B to A, rigidly or as a spring.
struct WeldJointDef : JointBase {
    float referenceAngle = 0.0f;
    float linearHertz = 0.0f;          ///< 0 = rigid
    float angularHertz = 0.0f;         ///< 0 = rigid
    float linearDampingRatio = 0.0f;
    float angularDampingRatio = 0.0f;
};

/// A wheel on a suspension: B slides along an axis of A on a spring and spins freely.
struct WheelJointDef : JointBase {
    Vec2 localAxisA{0.0f, 1.0f};   ///< suspension axis in A's frame
    bool enableSpring = true;
    float hertz = 1.0f;
    float dampingRatio = 0.7f;
    bool enableLimit = false;
    float lowerTranslation = 0.0f;
    float upperTranslation = 0.0f;
    bool enableMotor = false;
    float motorSpeed = 0.0f;       ///< rad/s
    float maxMotorTorque = 0.0f;   ///< N·m
};

/// Drives B towards an offset from A with bounded force and torque.
struct MotorJointDef : JointBase {
    Vec2 linearOffset{0.0f, 0.0f}; ///< target position of B in A's frame
    float angularOffset = 0.0f;    ///< target angleB - angleA
    float maxForce = 1.0f;         ///< N, >= 0
    float maxTorque = 1.0f;        ///< N·m, >= 0
    float correctionFactor = 0.3f; ///< in [0, 1]
};

/// Pulls a point of B towards a world target with a soft spring (mouse dragging).
/// bodyA is a reference body (usually a static ground body); localAnchorB is the grabbed point.
struct MouseJointDef : JointBase {
    Vec2 target{0.0f, 0.0f};       ///< world target, metres
    float hertz = 4.0f;
    float dampingRatio = 1.0f;
    float maxForce = 1.0f;         ///< N, >= 0
};

}  // namespace carom
