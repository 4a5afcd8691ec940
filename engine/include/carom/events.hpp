// Events produced by World::step, read after it as arrays.
//
// How long a span stays valid. The spans returned by World::contactEvents,
// sensorEvents, bodyMoveEvents and jointEvents point into arrays the world
// owns, which only step() writes: it clears them when it starts and fills
// them as it goes. Between two steps nothing else touches them: the end
// events that a call between steps causes (destroying a touching shape or a
// sensor) wait in separate arrays and join the next step's events, and
// restore() leaves these arrays as they were (a snapshot does not hold them).
// So a span stays valid, with the same contents, until the next step() on
// that world, or until the World is destroyed or assigned to.
//
// What may be done while reading them. Any World call except step(): in
// particular destroying the bodies, shapes and joints the events name (a
// game removing what a bullet hit, or a joint that broke) does not change or
// invalidate the span being read. Ids in an event may be stale by the time
// they are read (a shape destroyed by the game while it walks the events,
// or, for end events, the shapes whose destruction caused them): check
// World::isValid before using them with the world.
#pragma once

#include <cstdint>
#include <span>

#include <carom/id.hpp>
#include <carom/math.hpp>

namespace carom {

/// A contact manifold as a value: what two touching shapes share.
struct ContactManifold {
    Vec2 normal{0.0f, 0.0f};  ///< from A to B
    int pointCount = 0;       ///< 1 or 2 for a touching contact
    struct Point {
        Vec2 point{0.0f, 0.0f};   ///< world point, midway between the surfaces
        float separation = 0.0f;  ///< negative when overlapping, metres
        uint32_t id = 0;          ///< feature id, stable while the same features touch
    } points[2];
};

/// Two shapes started touching (their manifold got a point).
struct ContactBeginEvent {
    ShapeId shapeA{};
    ShapeId shapeB{};
    /// The contact, valid until the shapes stop touching (World::contactData).
    ContactId contact{};
    /// The manifold at the moment of touching: the one the step solved, the
    /// same points World::contactData gives after this step.
    ContactManifold manifold{};
};

/// Two shapes stopped touching, or one of them was destroyed.
struct ContactEndEvent {
    ShapeId shapeA{};
    ShapeId shapeB{};
    /// The id the begin event gave; stale now (for matching the two events).
    ContactId contact{};
};

/// Two shapes hit with an approach speed above WorldDef::hitEventThreshold
/// (shapes need ShapeDef::enableHitEvents).
struct ContactHitEvent {
    ShapeId shapeA{};
    ShapeId shapeB{};
    Vec2 point{0.0f, 0.0f};      ///< world point of the hit
    Vec2 normal{0.0f, 0.0f};     ///< from A to B
    float approachSpeed = 0.0f;  ///< m/s, > 0
    ContactId contact{};         ///< the touching contact
};

struct ContactEvents {
    std::span<const ContactBeginEvent> begin;
    std::span<const ContactEndEvent> end;
    std::span<const ContactHitEvent> hit;
};

/// A shape started or stopped overlapping a sensor shape.
struct SensorBeginEvent {
    ShapeId sensorShape{};
    ShapeId visitorShape{};
};
struct SensorEndEvent {
    ShapeId sensorShape{};
    ShapeId visitorShape{};
};
struct SensorEvents {
    std::span<const SensorBeginEvent> begin;
    std::span<const SensorEndEvent> end;
};

/// A body moved during the step (for syncing game objects).
struct BodyMoveEvent {
    BodyId body{};
    Transform transform{};
    void* userData = nullptr;
    bool fellAsleep = false;
};

/// A joint whose constraint force or torque over the step exceeded the
/// threshold set on it (JointBase::forceThreshold / torqueThreshold): a
/// breakable joint asking to break. The engine does not destroy it; the game
/// decides (World::destroyJoint while reading the events is allowed).
struct JointEvent {
    JointId jointId{};
    void* userData = nullptr;  ///< the joint's user data
};

}  // namespace carom
