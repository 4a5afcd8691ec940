// Debug drawing: shapes, joints, boxes, and the solver's view of the world
// (contact points, normals and impulses, islands, broadphase nodes and the
// sweeps of bodies that used continuous collision in the last step).
#include "engine/world/world_impl.hpp"

namespace carom {
namespace detail {

uint32_t bodyColor(const Body& b) {
    if (b.type == BodyType::Static) return colors::kStatic;
    if (b.type == BodyType::Kinematic) return colors::kKinematic;
    if (!b.awake) return colors::kSleeping;
    if (b.isBullet) return colors::kBullet;
    return colors::kDynamic;
}

void drawShape(const WorldImpl& w, const Shape& s, const Transform& xf, uint32_t color,
               DebugDraw& dd) {
    switch (s.type) {
        case ShapeType::Circle: {
            Transform t{transformPoint(xf, s.geom.circle.center), xf.q};
            dd.drawSolidCircle(t, s.geom.circle.radius, color);
            break;
        }
        case ShapeType::Capsule:
            dd.drawSolidCapsule(transformPoint(xf, s.geom.capsule.center1),
                                transformPoint(xf, s.geom.capsule.center2), s.geom.capsule.radius,
                                color);
            break;
        case ShapeType::Segment:
            dd.drawSegment(transformPoint(xf, s.geom.segment.point1),
                           transformPoint(xf, s.geom.segment.point2), color);
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
            const detail::PolygonParts p = detail::polygonParts(w.shapeRef(s));
            dd.drawSolidPolygon(xf, std::span<const Vec2>(p.vertices, size_t(p.count)), p.radius,
                                color);
            break;
        }
        default:
            break;
    }
}

void drawBox(DebugDraw& dd, const AABB& box, uint32_t color) {
    Vec2 vs[4] = {box.lower, {box.upper.x, box.lower.y}, box.upper, {box.lower.x, box.upper.y}};
    dd.drawPolygon(vs, color);
}

// Contact points: new points bright, persisted points dimmer, speculative
// points (not yet touching) grey. Normals and impulses as short segments.
void drawContacts(const WorldImpl& w, DebugDraw& dd, const DebugDrawFlags& flags) {
    constexpr float kNormalLength = 0.3f;
    constexpr float kImpulseScale = 0.1f;
    for (const Contact& c : w.contacts) {
        if (!c.alive) continue;
        const Manifold& m = c.manifold;
        for (int i = 0; i < m.pointCount; ++i) {
            const ManifoldPoint& mp = m.points[i];
            if (flags.contactPoints) {
                const uint32_t color = mp.separation > kLinearSlop ? 0x999999u
                                       : mp.persisted              ? 0x4c4ce5u
                                                                   : colors::kContact;
                dd.drawPoint(mp.point, 5.0f, color);
            }
            if (flags.contactNormals)
                dd.drawSegment(mp.point, mp.point + kNormalLength * m.normal, colors::kNormal);
            if (flags.contactImpulses && mp.normalImpulse > 0.0f)
                dd.drawSegment(mp.point, mp.point + kImpulseScale * mp.normalImpulse * m.normal,
                               0xe5e5e5u);
        }
    }
}

void drawIslands(const WorldImpl& w, DebugDraw& dd) {
    for (const Island& isl : w.islands) {
        if (!isl.alive || isl.bodies.empty()) continue;
        bool any = false;
        AABB box{};
        for (int bi : isl.bodies)
            for (int s : w.bodies[size_t(bi)].shapes) {
                box = any ? aabbUnion(box, w.shapes[size_t(s)].aabb) : w.shapes[size_t(s)].aabb;
                any = true;
            }
        if (any) drawBox(dd, box, isl.awake ? colors::kIsland : colors::kSleeping);
    }
}

void drawBroadphase(const WorldImpl& w, DebugDraw& dd) {
    static constexpr uint32_t kDepthColors[] = {0xe54c4c, 0xe5994c, 0xe5e54c, 0x4ce54c,
                                                0x4ce5e5, 0x4c4ce5, 0xe54ce5};
    w.broadphase.forEachNode([&](const AABB& box, int depth, bool leaf) {
        drawBox(dd, box, leaf ? colors::kAabb : kDepthColors[size_t(depth) % 7]);
    });
}

// Sweeps of the bodies that were fast in the last step: the path of the
// centre from the step start to where the solver took it, the pose the time
// of impact kept, and a mark at the start.
void drawContinuous(const WorldImpl& w, DebugDraw& dd) {
    for (const Body& b : w.bodies) {
        if (!b.alive || !b.isFast) continue;
        dd.drawSegment(b.center0, b.ccdEnd, colors::kBullet);
        dd.drawPoint(b.center0, 4.0f, colors::kBullet);
        if (distanceSquared(b.ccdEnd, b.center) > 0.0f)
            dd.drawPoint(b.center, 6.0f, colors::kContact);
    }
}

}  // namespace detail

void World::draw(DebugDraw& dd, const DebugDrawFlags& flags) const {
    const auto& w = live();
    const detail::CallbackLock lock(w);  // the drawer's calls must not change the world
    if (flags.shapes) {
        for (const auto& b : w.bodies) {
            if (!b.alive || !b.enabled) continue;  // a disabled body is out of the world
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
            Vec2 pA = transformPoint(
                a.xf, std::visit([](const auto& d) { return d.localAnchorA; }, j.def));
            Vec2 pB = transformPoint(
                b.xf, std::visit([](const auto& d) { return d.localAnchorB; }, j.def));
            // Gear: a line between the two geared bodies. Pulley: the two rope
            // segments over the ground anchors and the top between them. Rope:
            // the rope, dimmed while slack.
            if (std::holds_alternative<GearJointDef>(j.def)) {
                dd.drawSegment(a.xf.p, b.xf.p, colors::kJoint);
                dd.drawPoint(a.xf.p, 4.0f, colors::kJoint);
                dd.drawPoint(b.xf.p, 4.0f, colors::kJoint);
                continue;
            }
            if (const auto* p = std::get_if<PulleyJointDef>(&j.def)) {
                dd.drawSegment(p->groundAnchorA, pA, colors::kJoint);
                dd.drawSegment(p->groundAnchorB, pB, colors::kJoint);
                dd.drawSegment(p->groundAnchorA, p->groundAnchorB, colors::kJoint);
                dd.drawPoint(p->groundAnchorA, 6.0f, colors::kJoint);
                dd.drawPoint(p->groundAnchorB, 6.0f, colors::kJoint);
                continue;
            }
            if (const auto* r = std::get_if<RopeJointDef>(&j.def)) {
                const bool taut = distance(pA, pB) >= r->maxLength - kLinearSlop;
                dd.drawSegment(pA, pB, taut ? colors::kJoint : colors::kSleeping);
                dd.drawPoint(pA, 4.0f, colors::kJoint);
                dd.drawPoint(pB, 4.0f, colors::kJoint);
                continue;
            }
            // Filter: a thin link between the bodies, dimmed (no constraint).
            if (std::holds_alternative<FilterJointDef>(j.def)) {
                dd.drawSegment(a.xf.p, b.xf.p, colors::kSleeping);
                continue;
            }
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
            detail::drawBox(dd, s.proxy >= 0 ? w.broadphase.fatAABB(s.proxy) : s.aabb,
                            colors::kAabb);
        }
    }
    if (flags.broadphase) detail::drawBroadphase(w, dd);
    if (flags.contactPoints || flags.contactNormals || flags.contactImpulses)
        detail::drawContacts(w, dd, flags);
    if (flags.islands) detail::drawIslands(w, dd);
    if (flags.continuous) detail::drawContinuous(w, dd);
    if (flags.centersOfMass) {
        for (const auto& b : w.bodies) {
            if (!b.alive || b.type == BodyType::Static) continue;
            dd.drawTransform({b.center, b.xf.q});
        }
    }
}

}  // namespace carom
