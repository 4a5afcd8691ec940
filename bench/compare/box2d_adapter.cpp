// Box2D 2.4.1 (the Debian package) behind the Adapter interface.
//
// Settings: b2World::Step(dt, 8, 3), Box2D's documented defaults for
// velocity and position iterations; sleeping and continuous collision as the
// scene says. Box2D 2.4.1 has no substeps, so the scene's substep count does
// not apply.
//
// Shape mapping (every approximation is recorded with note()):
//   circle            -> b2CircleShape (exact)
//   box, polygon      -> b2PolygonShape; Box2D adds its 0.01 m polygon skin
//                        (b2_polygonRadius) to every polygon, as it always does
//   polygon > 8 verts -> a fan of b2PolygonShapes with <= 8 vertices each
//                        (same outline and mass; b2_maxPolygonVertices is 8)
//   rounded polygon   -> the chamfered outline: each corner v becomes
//                        v + r*n_prev and v + r*n_next (a box becomes an
//                        octagon), split as above when over 8 vertices
//   capsule           -> an 8-gon on the capsule's outline (4 points on each
//                        half circle); Box2D 2.4.1 has no capsule
//   segment           -> two-sided b2EdgeShape (exact)
//   chain             -> b2ChainShape: CreateLoop, or CreateChain with ghost
//                        points continuing the first and last edges straight.
//                        Box2D 2.4.1 and Carom both collide on the right of
//                        each edge (p1 -> p2), so the points go in unchanged.
//   filter            -> the low 16 bits of category and mask, group clamped
//                        to int16 (Box2D 2.4.1 filters are 16-bit)
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <box2d/box2d.h>

#include "adapter.hpp"

namespace carom::compare {

namespace {

b2Vec2 toB2(Vec2 v) {
    return b2Vec2(v.x, v.y);
}

// The capsule's outline as 8 points, counter-clockwise: 4 on the half circle
// around center2 (at -90, -30, 30, 90 degrees from the axis) and 4 around
// center1 (at 90, 150, 210, 270 degrees).
std::vector<Vec2> capsuleOutline(const Capsule& c) {
    Vec2 d = normalizeOrZero(c.center2 - c.center1);
    Vec2 n = leftPerp(d);
    std::vector<Vec2> out;
    const float deg = kPi / 180.0f;
    for (float a : {-90.0f, -30.0f, 30.0f, 90.0f}) {
        out.push_back(c.center2 + c.radius * (std::cos(a * deg) * d + std::sin(a * deg) * n));
    }
    for (float a : {90.0f, 150.0f, 210.0f, 270.0f}) {
        out.push_back(c.center1 + c.radius * (std::cos(a * deg) * d + std::sin(a * deg) * n));
    }
    return out;
}

// The polygon's outline, counter-clockwise. A rounded polygon is chamfered:
// the rounding around corner i (from edge normal i-1 to edge normal i) is
// replaced by its chord, which keeps every straight side exact.
std::vector<Vec2> polygonOutline(const Polygon& p) {
    std::vector<Vec2> out;
    for (int i = 0; i < p.count; ++i) {
        if (p.radius > 0.0f) {
            Vec2 prev = p.normals[static_cast<std::size_t>((i + p.count - 1) % p.count)];
            Vec2 next = p.normals[static_cast<std::size_t>(i)];
            Vec2 v = p.vertices[static_cast<std::size_t>(i)];
            out.push_back(v + p.radius * prev);
            out.push_back(v + p.radius * next);
        } else {
            out.push_back(p.vertices[static_cast<std::size_t>(i)]);
        }
    }
    return out;
}

class Box2dAdapter final : public Adapter {
   public:
    explicit Box2dAdapter(const scene::SceneDesc& desc)
        : world_(toB2(desc.world.gravity)), dt_(static_cast<float>(desc.world.timestep)) {
        world_.SetAllowSleeping(desc.world.sleep);
        world_.SetContinuousPhysics(desc.world.continuous);
        sleep_ = desc.world.sleep;
        continuous_ = desc.world.continuous;
        for (const scene::BodyDesc& b : desc.bodies) createBody(b);
        for (const scene::JointDesc& j : desc.joints) createJoint(j);
        if (!desc.events.empty()) {
            note("timed events not applied", static_cast<std::int64_t>(desc.events.size()));
        }
    }

    void step() override { world_.Step(dt_, kVelocityIterations, kPositionIterations); }

    int bodyCount() const override { return world_.GetBodyCount(); }

    Sanity sanity() const override {
        Sanity s;
        double sumY = 0.0;
        double sumV = 0.0;
        double sumW = 0.0;
        for (const b2Body* b = world_.GetBodyList(); b != nullptr; b = b->GetNext()) {
            if (b->GetType() != b2_dynamicBody) continue;
            sumY += static_cast<double>(b->GetPosition().y);
            b2Vec2 v = b->GetLinearVelocity();
            sumV += std::hypot(static_cast<double>(v.x), static_cast<double>(v.y));
            sumW += static_cast<double>(b->GetAngularVelocity());
            ++s.dynamicBodies;
        }
        if (s.dynamicBodies > 0) {
            s.meanY = sumY / s.dynamicBodies;
            s.meanSpeed = sumV / s.dynamicBodies;
            s.meanAngularVelocity = sumW / s.dynamicBodies;
        }
        return s;
    }

    std::string settings() const override {
        return "velocity iterations " + std::to_string(kVelocityIterations) +
               ", position iterations " + std::to_string(kPositionIterations) + ", sleep " +
               (sleep_ ? "on" : "off") + ", continuous " + (continuous_ ? "on" : "off");
    }

   private:
    static constexpr int kVelocityIterations = 8;
    static constexpr int kPositionIterations = 3;

    void createBody(const scene::BodyDesc& desc) {
        const BodyDef& d = desc.def;
        b2BodyDef bd;
        switch (d.type) {
            case BodyType::Static:
                bd.type = b2_staticBody;
                break;
            case BodyType::Kinematic:
                bd.type = b2_kinematicBody;
                break;
            case BodyType::Dynamic:
                bd.type = b2_dynamicBody;
                break;
        }
        bd.position = toB2(d.position);
        bd.angle = desc.rotation ? std::atan2(desc.rotation->s, desc.rotation->c) : d.angle;
        bd.linearVelocity = toB2(d.linearVelocity);
        bd.angularVelocity = d.angularVelocity;
        bd.linearDamping = d.linearDamping;
        bd.angularDamping = d.angularDamping;
        bd.gravityScale = d.gravityScale;
        bd.fixedRotation = d.fixedRotation;
        bd.bullet = d.isBullet;
        bd.awake = d.isAwake;
        bd.allowSleep = d.enableSleep;
        if (d.sleepThreshold != BodyDef{}.sleepThreshold)
            note("per-body sleep threshold not applied");
        b2Body* body = world_.CreateBody(&bd);
        for (const scene::ShapeDesc& s : desc.shapes) createShape(body, s);
        if (desc.name) byName_.emplace(*desc.name, body);
    }

    b2FixtureDef fixtureDef(const scene::ShapeDesc& s) {
        const ShapeDef& d = s.def;
        b2FixtureDef fd;
        fd.density = d.density;
        fd.friction = d.friction;
        fd.restitution = d.restitution;
        fd.isSensor = d.isSensor;
        fd.filter.categoryBits = static_cast<uint16>(d.filter.categoryBits & 0xFFFFu);
        fd.filter.maskBits = static_cast<uint16>(d.filter.maskBits & 0xFFFFu);
        fd.filter.groupIndex = static_cast<int16>(std::clamp(d.filter.groupIndex, -32768, 32767));
        if ((d.filter.categoryBits >> 16) != 0) note("filter category bits above 16 dropped");
        if (d.rollingResistance != 0.0f)
            note("rolling resistance not applied (Box2D 2.4.1 has none)");
        if (s.oneWay) note("one_way shape made two-sided");
        return fd;
    }

    // A convex outline as one polygon fixture, or as a fan of polygons with at
    // most b2_maxPolygonVertices vertices each: piece k is
    // (p0, p_i, ..., p_j) with j = min(i + 6, n - 1), the next starting at j.
    void addConvex(b2Body* body, const std::vector<Vec2>& pts, b2FixtureDef fd) {
        const int n = static_cast<int>(pts.size());
        if (n <= b2_maxPolygonVertices) {
            addPolygon(body, pts, fd);
            return;
        }
        note("polygon over 8 vertices split into a fan of polygons");
        for (int i = 1; i < n - 1;) {
            int j = std::min(i + b2_maxPolygonVertices - 2, n - 1);
            std::vector<Vec2> piece{pts[0]};
            for (int k = i; k <= j; ++k) piece.push_back(pts[static_cast<std::size_t>(k)]);
            addPolygon(body, piece, fd);
            i = j;
        }
    }

    void addPolygon(b2Body* body, const std::vector<Vec2>& pts, b2FixtureDef fd) {
        b2Vec2 v[b2_maxPolygonVertices];
        for (std::size_t k = 0; k < pts.size(); ++k) v[k] = toB2(pts[k]);
        b2PolygonShape shape;
        shape.Set(v, static_cast<int32>(pts.size()));
        if (!shape.Validate()) throw std::runtime_error("box2d: polygon hull failed");
        fd.shape = &shape;
        body->CreateFixture(&fd);
    }

    void createShape(b2Body* body, const scene::ShapeDesc& s) {
        b2FixtureDef fd = fixtureDef(s);
        switch (s.kind) {
            case scene::ShapeKind::Circle: {
                const auto& c = std::get<Circle>(s.geometry);
                b2CircleShape shape;
                shape.m_p = toB2(c.center);
                shape.m_radius = c.radius;
                fd.shape = &shape;
                body->CreateFixture(&fd);
                break;
            }
            case scene::ShapeKind::Capsule:
                note("capsule approximated by an 8-gon");
                addConvex(body, capsuleOutline(std::get<Capsule>(s.geometry)), fd);
                break;
            case scene::ShapeKind::Box:
            case scene::ShapeKind::Polygon: {
                const auto& p = std::get<Polygon>(s.geometry);
                if (p.radius > 0.0f) note("rounded polygon approximated by its chamfered outline");
                addConvex(body, polygonOutline(p), fd);
                break;
            }
            case scene::ShapeKind::Segment: {
                const auto& g = std::get<Segment>(s.geometry);
                b2EdgeShape shape;
                shape.SetTwoSided(toB2(g.point1), toB2(g.point2));
                fd.shape = &shape;
                body->CreateFixture(&fd);
                break;
            }
            case scene::ShapeKind::Chain:
                createChain(body, s, fd);
                break;
        }
    }

    void createChain(b2Body* body, const scene::ShapeDesc& s, b2FixtureDef fd) {
        std::vector<b2Vec2> v;
        v.reserve(s.chainPoints.size());
        for (Vec2 p : s.chainPoints) v.push_back(toB2(p));
        const int32 n = static_cast<int32>(v.size());
        b2ChainShape shape;
        if (s.chainLoop) {
            shape.CreateLoop(v.data(), n);
        } else {
            b2Vec2 prev = v[0] + (v[0] - v[1]);
            b2Vec2 next = v[static_cast<std::size_t>(n - 1)] +
                          (v[static_cast<std::size_t>(n - 1)] - v[static_cast<std::size_t>(n - 2)]);
            shape.CreateChain(v.data(), n, prev, next);
            note("open chain ends: straight ghost points");
        }
        fd.shape = &shape;
        fd.density = 0.0f;
        body->CreateFixture(&fd);
    }

    b2Body* bodyNamed(const std::string& name) const {
        auto it = byName_.find(name);
        if (it == byName_.end())
            throw std::runtime_error("box2d: joint names unknown body " + name);
        return it->second;
    }

    void createJoint(const scene::JointDesc& j) {
        b2Body* a = bodyNamed(j.a);
        b2Body* b = bodyNamed(j.b);
        // Anchors given in the bodies' frames (a saved scene) override the world anchors.
        auto locals = [&](b2JointDef& base, b2Vec2& la, b2Vec2& lb) {
            base.collideConnected = j.collideConnected;
            if (j.localAnchorA) la = toB2(*j.localAnchorA);
            if (j.localAnchorB) lb = toB2(*j.localAnchorB);
        };
        switch (j.type) {
            case JointType::Revolute: {
                b2RevoluteJointDef d;
                d.Initialize(a, b, toB2(j.anchor));
                locals(d, d.localAnchorA, d.localAnchorB);
                if (j.referenceAngle) d.referenceAngle = *j.referenceAngle;
                if (j.limit) {
                    d.enableLimit = true;
                    d.lowerAngle = j.limit->lower;
                    d.upperAngle = j.limit->upper;
                }
                if (j.motor) {
                    d.enableMotor = true;
                    d.motorSpeed = j.motor->speed;
                    d.maxMotorTorque = j.motor->maxForce;
                }
                if (j.spring) note("revolute spring not applied (Box2D 2.4.1 has none)");
                world_.CreateJoint(&d);
                break;
            }
            case JointType::Prismatic: {
                b2PrismaticJointDef d;
                d.Initialize(a, b, toB2(j.anchor), toB2(j.axis));
                locals(d, d.localAnchorA, d.localAnchorB);
                if (j.localAxisA) d.localAxisA = toB2(*j.localAxisA);
                if (j.referenceAngle) d.referenceAngle = *j.referenceAngle;
                if (j.limit) {
                    d.enableLimit = true;
                    d.lowerTranslation = j.limit->lower;
                    d.upperTranslation = j.limit->upper;
                }
                if (j.motor) {
                    d.enableMotor = true;
                    d.motorSpeed = j.motor->speed;
                    d.maxMotorForce = j.motor->maxForce;
                }
                if (j.spring) note("prismatic spring not applied (Box2D 2.4.1 has none)");
                world_.CreateJoint(&d);
                break;
            }
            case JointType::Distance: {
                b2DistanceJointDef d;
                d.Initialize(a, b, toB2(j.anchorA), toB2(j.anchorB));
                locals(d, d.localAnchorA, d.localAnchorB);
                if (j.length) d.length = *j.length;
                // Box2D 2.4.1 is rigid when minLength == maxLength; Carom is
                // rigid unless sprung (its limits then bound the spring).
                if (j.spring) {
                    b2LinearStiffness(d.stiffness, d.damping, j.spring->hertz,
                                      j.spring->dampingRatio, a, b);
                    d.minLength = j.minLength.value_or(0.0f);
                    d.maxLength = j.maxLength.value_or(FLT_MAX);
                } else {
                    d.minLength = d.length;
                    d.maxLength = d.length;
                }
                world_.CreateJoint(&d);
                break;
            }
            case JointType::Weld: {
                b2WeldJointDef d;
                d.Initialize(a, b, toB2(j.anchor));
                locals(d, d.localAnchorA, d.localAnchorB);
                if (j.referenceAngle) d.referenceAngle = *j.referenceAngle;
                if (j.angularHertz > 0.0f) {
                    b2AngularStiffness(d.stiffness, d.damping, j.angularHertz,
                                       j.angularDampingRatio, a, b);
                }
                if (j.linearHertz > 0.0f)
                    note("weld linear spring not applied (Box2D 2.4.1 has none)");
                world_.CreateJoint(&d);
                break;
            }
            case JointType::Wheel: {
                b2WheelJointDef d;
                d.Initialize(a, b, toB2(j.anchor), toB2(j.axis));
                locals(d, d.localAnchorA, d.localAnchorB);
                if (j.localAxisA) d.localAxisA = toB2(*j.localAxisA);
                // Carom's wheel joint is sprung by default (1 Hz, 0.7), like the scene loader's.
                scene::JointSpring spring = j.spring.value_or(scene::JointSpring{1.0f, 0.7f});
                b2LinearStiffness(d.stiffness, d.damping, spring.hertz, spring.dampingRatio, a, b);
                if (j.limit) {
                    d.enableLimit = true;
                    d.lowerTranslation = j.limit->lower;
                    d.upperTranslation = j.limit->upper;
                }
                if (j.motor) {
                    d.enableMotor = true;
                    d.motorSpeed = j.motor->speed;
                    d.maxMotorTorque = j.motor->maxForce;
                }
                world_.CreateJoint(&d);
                break;
            }
            case JointType::Motor: {
                b2MotorJointDef d;
                d.Initialize(a, b);
                d.collideConnected = j.collideConnected;
                if (j.linearOffset) d.linearOffset = toB2(*j.linearOffset);
                if (j.angularOffset) d.angularOffset = *j.angularOffset;
                d.maxForce = j.maxForce;
                d.maxTorque = j.maxTorque;
                d.correctionFactor = j.correctionFactor;
                world_.CreateJoint(&d);
                break;
            }
            case JointType::Mouse:
                note("mouse joint skipped");
                break;
            case JointType::Gear:
                note("gear joint skipped");
                break;
            case JointType::Pulley:
                note("pulley joint skipped");
                break;
            case JointType::Rope:
                note("rope joint skipped");
                break;
            case JointType::Filter:
                note("filter joint skipped");
                break;
        }
    }

    b2World world_;
    float dt_;
    bool sleep_ = true;
    bool continuous_ = true;
    std::map<std::string, b2Body*, std::less<>> byName_;
};

}  // namespace

std::unique_ptr<Adapter> makeBox2dAdapter(const scene::SceneDesc& desc) {
    return std::make_unique<Box2dAdapter>(desc);
}

// The package's version (CMake's box2d_VERSION): Box2D 2.4.1's own
// b2_version still says 2.4.0.
std::string box2dVersion() {
#ifdef CAROM_COMPARE_BOX2D_VERSION
    return CAROM_COMPARE_BOX2D_VERSION;
#else
    return std::to_string(b2_version.major) + "." + std::to_string(b2_version.minor) + "." +
           std::to_string(b2_version.revision);
#endif
}

}  // namespace carom::compare
