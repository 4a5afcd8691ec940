// Project keys for games (scene-format.md, "Additions"): a body's
// `character` (a platformer character moved by the character mover) and
// `path` (a kinematic platform moving along waypoints), and the geometry the
// loader, the runner and save share for them.
#include <cmath>

#include <carom/geometry.hpp>
#include <carom/limits.hpp>

#include "loader.hpp"

namespace carom::scene {

Capsule characterCapsule(const CharacterDesc& c) {
    return carom::characterCapsule(c.radius, c.height);
}

namespace {

float pathLength(const PathDesc& p) {
    float length = 0.0f;
    for (std::size_t k = 1; k < p.points.size(); ++k)
        length += distance(p.points[k - 1], p.points[k]);
    return length;
}

}  // namespace

float pathCycle(const PathDesc& p) {
    const float open = pathLength(p);
    return p.loop ? open + distance(p.points.back(), p.points.front()) : 2.0f * open;
}

// Walks the cycle: forwards along the points, then back along them (or on
// from the last point to the first, for a loop).
Vec2 pathPoint(const PathDesc& p, float s) {
    const float cycle = pathCycle(p);
    if (!(cycle > 0.0f)) return p.points.front();
    s = std::fmod(s, cycle);
    if (s < 0.0f) s += cycle;
    const float open = pathLength(p);
    if (s > open) {
        if (p.loop) return lerp(p.points.back(), p.points.front(), (s - open) / (cycle - open));
        s = cycle - s;  // on the way back: the same point as this far out
    }
    for (std::size_t k = 1; k < p.points.size(); ++k) {
        const float leg = distance(p.points[k - 1], p.points[k]);
        if (s <= leg) return lerp(p.points[k - 1], p.points[k], s / leg);
        s -= leg;
    }
    return p.points.back();
}

}  // namespace carom::scene

namespace carom::scene::detail {

namespace {

float inRange(const Obj& o, std::string_view key, float fallback, float lo, float hi,
              const std::string& rule) {
    const Node* n = o.get(key);
    if (!n) return fallback;
    const float v = asFloat(o.reader(), *n, o.path(key));
    if (!(v >= lo && v <= hi)) o.fail(key, "must be " + rule + ", got " + describe(*n));
    return v;
}

}  // namespace

CharacterDesc parseCharacter(const Reader& r, const Node& node, const std::string& path) {
    Obj o(r, node, path,
          {"radius", "height", "run_speed", "jump_speed", "gravity", "max_slope", "step_height",
           "push_force", "velocity"});
    CharacterDesc c;
    c.loc = o.loc();
    // CharacterDef's ranges (<carom/character.hpp>).
    c.radius = inRange(o, "radius", c.radius, kCharacterMinRadius, kCharacterMaxRadius,
                       "in [0.0101, 100] m (a mover's radius is more than 0.01 m)");
    c.height = inRange(o, "height", std::max(c.height, 2.5f * c.radius), 0.0f, kCharacterMaxHeight,
                       "in [0, 1000] m");
    if (!(c.height > 2.0f * c.radius + kLinearSlop)) {
        o.fail(o.has("height") ? "height" : "radius",
               "the height must be more than twice the radius (plus 0.005 m): the capsule needs a "
               "core");
    }
    c.runSpeed = inRange(o, "run_speed", c.runSpeed, 0.0f, kCharacterMaxSpeed, "in [0, 1000] m/s");
    c.jumpSpeed =
        inRange(o, "jump_speed", c.jumpSpeed, 0.0f, kCharacterMaxSpeed, "in [0, 1000] m/s");
    c.gravity = inRange(o, "gravity", c.gravity, 0.0f, kCharacterMaxGravity, "in [0, 1000] m/s^2");
    c.maxSlope =
        inRange(o, "max_slope", c.maxSlope, 0.0f, kCharacterMaxSlope, "in [0, 1.5] radians");
    c.stepHeight = inRange(o, "step_height", c.stepHeight, 0.0f, c.height, "in [0, height] m");
    c.pushForce = inRange(o, "push_force", c.pushForce, 0.0f, kMaxForce, "in [0, 1e25] N");
    c.velocity = o.vec2("velocity", c.velocity);
    if (!(std::fabs(c.velocity.x) <= kMaxLinearSpeed &&
          std::fabs(c.velocity.y) <= kMaxLinearSpeed)) {
        o.fail("velocity",
               "must be within +-1e5 m/s per component, got " + describeVec2(*o.get("velocity")));
    }
    return c;
}

PathDesc parsePath(const Reader& r, const Node& node, const std::string& path) {
    Obj o(r, node, path, {"points", "speed", "loop", "at"});
    PathDesc p;
    p.loc = o.loc();
    const Node& pointsNode = o.required("points");
    const std::vector<Node>& items = asArray(r, pointsNode, o.path("points"));
    if (items.size() < 2 || items.size() > 1000) {
        r.fail(pointsNode, o.path("points"),
               "expected 2 to 1000 waypoints, got " + std::to_string(items.size()));
    }
    for (std::size_t k = 0; k < items.size(); ++k) {
        const std::string pp = indexPath(o.path("points"), k);
        const Vec2 v = asPosition(r, items[k], pp);
        if (!p.points.empty() && distance(p.points.back(), v) <= kLinearSlop) {
            r.fail(items[k], pp, "waypoints must be more than 0.005 m from the one before");
        }
        p.points.push_back(v);
    }
    p.loop = o.flag("loop", false);
    if (p.loop && distance(p.points.back(), p.points.front()) <= kLinearSlop) {
        o.fail("loop",
               "the last waypoint of a loop must differ from the first (the loop closes itself)");
    }
    // At most the engine's speed; one step must not jump over a whole cycle.
    p.speed = inRange(o, "speed", p.speed, 0.0f, kMaxLinearSpeed, "in [0, 1e5] m/s");
    p.at = inRange(o, "at", 0.0f, 0.0f, pathCycle(p), "in [0, the cycle's length] m");
    return p;
}

}  // namespace carom::scene::detail
