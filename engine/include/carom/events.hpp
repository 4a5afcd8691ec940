// Events produced by World::step, read after it as arrays. They stay valid
// until the next step (or until the world is destroyed).
#pragma once

#include <cstdint>
#include <span>

#include <carom/id.hpp>
#include <carom/math.hpp>

namespace carom {

/// Two shapes started touching (their manifold got a point).
struct ContactBeginEvent {
    ShapeId shapeA{};
    ShapeId shapeB{};
};

/// Two shapes stopped touching, or one of them was destroyed.
struct ContactEndEvent {
    ShapeId shapeA{};
    ShapeId shapeB{};
};

/// Two shapes hit with an approach speed above WorldDef::hitEventThreshold
/// (shapes need ShapeDef::enableHitEvents).
struct ContactHitEvent {
    ShapeId shapeA{};
    ShapeId shapeB{};
    Vec2 point{0.0f, 0.0f};    ///< world point of the hit
    Vec2 normal{0.0f, 0.0f};   ///< from A to B
    float approachSpeed = 0.0f; ///< m/s, > 0
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

}  // namespace carom
