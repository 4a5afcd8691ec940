// Joint definitions. Anchors are in each body's local frame; fill them from
// world points with World::localPoint, or start from World::makeRevoluteJointDef
// and its siblings (world.hpp), which take world anchors and axes.
#pragma once

#include <cfloat>
#include <cstdint>

#include <carom/id.hpp>
#include <carom/math.hpp>

namespace carom {

enum class JointType : uint8_t {
    Revolute,
    Prismatic,
    Distance,
    Weld,
    Wheel,
    Motor,
    Mouse,
    Gear,
    Pulley,
    Rope,
    Filter
};

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
    float referenceAngle = 0.0f;  ///< angleB - angleA at rest, radians
    bool enableLimit = false;
    float lowerAngle = 0.0f;  ///< radians, <= upperAngle
    float upperAngle = 0.0f;  ///< radians
    bool enableMotor = false;
    float motorSpeed = 0.0f;      ///< rad/s
    float maxMotorTorque = 0.0f;  ///< N·m, >= 0
    bool enableSpring = false;    ///< angular spring towards targetAngle
    float hertz = 0.0f;           ///< spring stiffness, Hz, >= 0
    float dampingRatio = 0.0f;    ///< >= 0
    /// The joint angle (from referenceAngle) the spring drives to, radians
    /// within [-π, π], default 0 (Box2D v3.2's targetAngle). The spring
    /// turns through the joint angle's range, never across ±π.
    float targetAngle = 0.0f;
};

/// A slider: B translates along an axis fixed in A, no relative rotation.
struct PrismaticJointDef : JointBase {
    Vec2 localAxisA{1.0f, 0.0f};  ///< unit axis in A's frame
    float referenceAngle = 0.0f;
    bool enableLimit = false;
    float lowerTranslation = 0.0f;  ///< metres
    float upperTranslation = 0.0f;  ///< metres
    bool enableMotor = false;
    float motorSpeed = 0.0f;     ///< m/s
    float maxMotorForce = 0.0f;  ///< N, >= 0
    bool enableSpring = false;   ///< spring towards targetTranslation
    float hertz = 0.0f;
    float dampingRatio = 0.0f;
    /// The translation the spring drives to, metres within ±kMaxJointLength,
    /// default 0 (Box2D v3.2's targetTranslation).
    float targetTranslation = 0.0f;
};

/// Keeps the anchors at a distance: rigid, as a spring, or within [min, max].
struct DistanceJointDef : JointBase {
    float length = 1.0f;        ///< rest length, metres, > 0
    bool enableSpring = false;  ///< soft length (rigid when false)
    float hertz = 0.0f;
    float dampingRatio = 0.0f;
    bool enableLimit = false;  ///< clamp to [minLength, maxLength]
    float minLength = 0.0f;
    float maxLength = 1.0e6f;
    /// A motor along the line between the anchors (Box2D v3's distance
    /// motor): drives the rate of change of the length to motorSpeed with at
    /// most maxMotorForce. It is solved after the spring and before the
    /// limits, which hold against it; a rigid joint (no spring) holds its
    /// length against it.
    bool enableMotor = false;
    float motorSpeed = 0.0f;     ///< m/s, + lengthens, within ±kMaxLinearSpeed
    float maxMotorForce = 0.0f;  ///< N, >= 0
};

/// Glues B to A, rigidly or as a spring.
struct WeldJointDef : JointBase {
    float referenceAngle = 0.0f;
    float linearHertz = 0.0f;   ///< 0 = rigid
    float angularHertz = 0.0f;  ///< 0 = rigid
    float linearDampingRatio = 0.0f;
    float angularDampingRatio = 0.0f;
};

/// A wheel on a suspension: B slides along an axis of A on a spring and spins freely.
struct WheelJointDef : JointBase {
    Vec2 localAxisA{0.0f, 1.0f};  ///< suspension axis in A's frame
    bool enableSpring = true;
    float hertz = 1.0f;
    float dampingRatio = 0.7f;
    bool enableLimit = false;
    float lowerTranslation = 0.0f;
    float upperTranslation = 0.0f;
    bool enableMotor = false;
    float motorSpeed = 0.0f;      ///< rad/s
    float maxMotorTorque = 0.0f;  ///< N·m
};

/// Drives B towards an offset from A with bounded force and torque.
struct MotorJointDef : JointBase {
    Vec2 linearOffset{0.0f, 0.0f};  ///< target position of B in A's frame
    float angularOffset = 0.0f;     ///< target angleB - angleA
    float maxForce = 1.0f;          ///< N, >= 0
    float maxTorque = 1.0f;         ///< N·m, >= 0
    float correctionFactor = 0.3f;  ///< in [0, 1]
};

/// Pulls a point of B towards a world target with a soft spring (mouse dragging).
/// bodyA is a reference body (usually a static ground body); localAnchorB is the grabbed point.
struct MouseJointDef : JointBase {
    Vec2 target{0.0f, 0.0f};  ///< world target, metres
    float hertz = 4.0f;
    float dampingRatio = 1.0f;
    float maxForce = 1.0f;  ///< N, >= 0
};

/// Couples two revolute or prismatic joints: coordinateA + ratio·coordinateB
/// stays constant (Box2D v2.4's gear joint). A joint's coordinate is its
/// angle in radians (revolute, counted over whole turns) or its translation in
/// metres (prismatic); the constant is taken from the poses at creation.
/// The gear acts on the joints' bodies: bodyA is jointA's bodyB, bodyB is
/// jointB's bodyB (leave them null or set them to those; World::makeGearJointDef
/// fills them). localAnchorA / localAnchorB are unused. Destroying either geared
/// joint (or a body it holds) destroys the gear too.
struct GearJointDef : JointBase {
    JointId jointA{};  ///< a live revolute or prismatic joint
    JointId jointB{};  ///< a live revolute or prismatic joint, not jointA
    float ratio =
        1.0f;  ///< |ratio| within [kMinJointRatio, kMaxJointRatio]; negative turns B the same way
};

/// A rope over two fixed pulleys (Box2D v2.4's pulley joint): A hangs from
/// groundAnchorA, B from groundAnchorB, and lengthA + ratio·lengthB never
/// exceeds lengthA + ratio·lengthB of the def (the rope's constant). The rope
/// only pulls: it goes slack when the bodies come closer to their pulleys, and
/// each side is at most as long as the whole constant allows (lengthA ≤ the
/// constant, lengthB ≤ constant / ratio). World::makePulleyJointDef measures the
/// lengths from the current anchors.
struct PulleyJointDef : JointBase {
    Vec2 groundAnchorA{-1.0f, 1.0f};  ///< world point A's rope runs over, metres
    Vec2 groundAnchorB{1.0f, 1.0f};   ///< world point B's rope runs over, metres
    float lengthA = 1.0f;             ///< rope length on A's side at rest, metres, >= 0
    float lengthB = 1.0f;             ///< rope length on B's side at rest, metres, >= 0
    float ratio = 1.0f;  ///< block and tackle ratio, within [kMinJointRatio, kMaxJointRatio]
};

/// A rope between two anchors: their distance never exceeds maxLength, and
/// the rope only pulls (it goes slack when they come closer). This is the
/// one-sided case of a distance joint with a max-length limit and no spring,
/// under its own name (Box2D v2.2's rope joint, Chipmunk's slide joint
/// without a minimum).
struct RopeJointDef : JointBase {
    float maxLength = 1.0f;  ///< metres, > 0
};

/// Two bodies that must not collide, and nothing else (Box2D v3.2's filter
/// joint): no constraint, no force. Like every joint it keeps its bodies in
/// one island (they sleep and wake together) and goes with either body;
/// collideConnected (false) is what it filters by, so
/// World::setJointCollideConnected(id, true) lets the bodies collide again
/// without destroying it. The anchors are unused; jointConstraintForce is 0.
struct FilterJointDef : JointBase {};

}  // namespace carom
