// Debug drawing of shapes and joints. Later stages (contacts, broadphase,
// islands, continuous) add their own drawing in their modules, called from here.
#include "engine/src/world_impl.hpp"

namespace carom {
namespace detail {

uint32_t bodyColor(const Body& b) {
    if (b.type == BodyType::Static) return colors::kStatic;
    if (b.type == BodyType::Kinematic) return colors::kKinematic;
    if (!b.awake) return colors::kSleeping;
    if (b.isBullet) return colors::kBullet;
    return colors::kDynamic;
}

void drawShape(const WorldImpl& w, const Shape& s, const Transform& xf, uint32_t color, DebugDraw& dd) {
    switch (s.type) {
        case ShapeType::Circle: {
            Transform t{transformPoint(xf, s.geom.circle.center), xf.q};
            dd.drawSolidCircle(t, s.geom.circle.radius, color);
            break;
        }
        case ShapeType::Capsule:
            dd.drawSolidCapsule(transformPoint(xf, s.geom.capsule.center1),
                                transformPoint(xf, s.geom.capsule.center2), s.geom.capsule.radius, color);
            break;
        case ShapeType::Segment:
            dd.drawSegment(transformPoint(xf, s.geom.segment.point1), transformPoint(xf, s.geom.segment.point2),
                           color);
            break;
        case ShapeType::ChainSegment: {
            Vec2 p1 = transformPoint(xf, s.geom.chainSegment.segment.point1);
            Vec2 p2 = transformPoint(xf, s.geom.chainSegment.segment.point2);
            dd.drawSegment(p1, p2, color);
            // A short tick on the solid (right-hand) side.
            Vec2 mid = 0.5f * (p1 + p2);
            dd.drawSegment(mid, mid + 0.1f * normalizeOrZero(rightPerp(p2 - p1)), color);
            break;
        }
        case ShapeType::Polygon: {
            const Polygon& p = w.polygons[size_t(s.polygon)];
            dd.drawSolidPolygon(xf, std::span<const Vec2>(p.vertices.data(), size_t(p.count)), p.radius, color);
            break;
        }
        default: break;
    }
}

}  // namespace detail

void World::draw(DebugDraw& dd, const DebugDrawFlags& flags) const {
    const auto& w = *impl_;
    if (flags.shapes) {
        for (const auto& b : w.bodies) {
            if (!b.alive) continue;
            uint32_t color = detail::bodyColor(b);
            for (int s : b.shapes) {
                const auto& sh = w.shapes[size_t(s)];
                detail::drawShape(w, sh, b.xf, sh.isSensor ? colors::kSensor : color, dd);
            }
        }
    }
    if (flags.joints) {
        for (const auto& j : w.joints) {
            if (!j.alive) continue;
            const auto& a = w.bodies[size_t(j.bodyA)];
            const auto& b = w.bodies[size_t(j.bodyB)];
            Vec2 pA = transformPoint(a.xf, std::visit([](const auto& d) { return d.localAnchorA; }, j.def));
            Vec2 pB = transformPoint(b.xf, std::visit([](const auto& d) { return d.localAnchorB; }, j.def));
            if (const auto* m = std::get_if<MouseJointDef>(&j.def)) {
                dd.drawSegment(pB, m->target, colors::kJoint);
                dd.drawPoint(m->target, 6.0f, colors::kJoint);
                continue;
            }
            dd.drawSegment(a.xf.p, pA, colors::kJoint);
            dd.drawSegment(pA, pB, colors::kJoint);
            dd.drawSegment(b.xf.p, pB, colors::kJoint);
            dd.drawPoint(pA, 4.0f, colors::kJoint);
            dd.drawPoint(pB, 4.0f, colors::kJoint);
        }
    }
    if (flags.aabbs) {
        for (const auto& s : w.shapes) {
            if (!s.alive) continue;
            const AABB& box = s.aabb;
            Vec2 vs[4] = {box.lower, {box.upper.x, box.lower.y}, box.upper, {box.lower.x, box.upper.y}};
            dd.drawPolygon(vs, colors::kAabb);
        }
    }
    if (flags.centersOfMass) {
        for (const auto& b : w.bodies) {
            if (!b.alive || b.type == BodyType::Static) continue;
            dd.drawTransform({b.center, b.xf.q});
        }
    }
}

}  // namespace carom
