// Chipmunk 7 (the Debian package) behind the Adapter interface.
//
// Settings: one cpSpaceStep per scene timestep, 10 solver iterations
// (Chipmunk's default, set explicitly), the default spatial index (a
// bounding-box tree, cpBBTree; the spatial hash is not used), no continuous
// collision (Chipmunk has none). Chipmunk is tuned for pixel units: its
// default collision slop of 0.1 would let metre-sized boxes sink 10 cm into
// each other, so the slop is set to Carom's and Box2D's linear slop, 0.005 m.
// When the scene sleeps, bodies fall asleep after 0.5 s (Box2D's
// b2_timeToSleep) below 0.05 m/s (Carom's default sleep threshold).
//
// Materials: Chipmunk mixes friction and restitution by multiplying the two
// shapes' coefficients; Carom and Box2D take the geometric mean of friction
// and the larger restitution. Giving Chipmunk the square roots makes the
// product the geometric mean: exact for friction, and for restitution exact
// between equal materials (against a restitution-0 ground Chipmunk does not
// bounce where the others use the larger value).
//
// Shape mapping: circle -> cpCircleShape, capsule -> cpSegmentShape with the
// radius, box and polygon -> cpPolyShape with the rounding radius (all exact),
// segment -> cpSegmentShape, chain -> one cpSegmentShape per edge with its
// neighbours set (smooth across vertices; Chipmunk segments are two-sided).
// Joints, the closest equivalents:
//   revolute  -> cpPivotJoint (+ cpRotaryLimitJoint, cpSimpleMotor, cpDampedRotarySpring)
//   prismatic -> cpGrooveJoint along the axis (the limits, or +-1000 m) + cpGearJoint (no rotation)
//   distance  -> cpPinJoint (rigid) or cpDampedSpring (+ cpSlideJoint for limits)
//   weld      -> cpPivotJoint + cpGearJoint (rigid)
//   wheel     -> cpGrooveJoint + cpDampedSpring along the axis (+ cpSimpleMotor)
//   motor     -> cpPivotJoint and cpGearJoint with bounded forces
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <chipmunk/chipmunk.h>

#include "adapter.hpp"

namespace carom::compare {

namespace {

cpVect toCp(Vec2 v) {
    return cpv(static_cast<cpFloat>(v.x), static_cast<cpFloat>(v.y));
}

constexpr cpFloat kCollisionSlop = 0.005;
constexpr cpFloat kSleepTime = 0.5;
constexpr cpFloat kIdleSpeed = 0.05;
constexpr int kIterations = 10;
constexpr cpFloat kGrooveHalfLength = 1000.0;
constexpr cpFloat kTwoPi = 6.283185307179586;

// A Chipmunk library built without NDEBUG prints a banner on stdout the
// first time a space is created ("Initializing cpSpace ... (Debug Enabled)")
// and keeps its internal assertions on. The first space is therefore created
// here with stdout captured: the banner stays out of --json output, and the
// report can say whether Chipmunk ran with its debug checks.
bool chipmunkDebugBuild() {
    static const bool debug = [] {
        std::fflush(stdout);
        std::FILE* capture = std::tmpfile();
        int saved = dup(STDOUT_FILENO);
        if (capture == nullptr || saved < 0) {
            cpSpaceFree(cpSpaceNew());
            if (capture != nullptr) std::fclose(capture);
            if (saved >= 0) close(saved);
            return false;
        }
        dup2(fileno(capture), STDOUT_FILENO);
        cpSpaceFree(cpSpaceNew());
        std::fflush(stdout);
        dup2(saved, STDOUT_FILENO);
        close(saved);
        std::rewind(capture);
        std::string text;
        char buf[256];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, capture)) > 0;) text.append(buf, n);
        std::fclose(capture);
        return text.find("Debug Enabled") != std::string::npos;
    }();
    return debug;
}

class ChipmunkAdapter final : public Adapter {
   public:
    explicit ChipmunkAdapter(const scene::SceneDesc& desc)
        : space_((chipmunkDebugBuild(), cpSpaceNew())),
          dt_(static_cast<cpFloat>(static_cast<float>(desc.world.timestep))) {
        sleep_ = desc.world.sleep;
        cpSpaceSetIterations(space_, kIterations);
        cpSpaceSetGravity(space_, toCp(desc.world.gravity));
        cpSpaceSetCollisionSlop(space_, kCollisionSlop);
        if (sleep_) {
            cpSpaceSetSleepTimeThreshold(space_, kSleepTime);
            cpSpaceSetIdleSpeedThreshold(space_, kIdleSpeed);
        }
        std::vector<cpBody*> asleep;
        for (const scene::BodyDesc& b : desc.bodies) {
            cpBody* body = createBody(b);
            if (!b.def.isAwake && b.def.type == BodyType::Dynamic) asleep.push_back(body);
        }
        for (const scene::JointDesc& j : desc.joints) createJoint(j);
        // Bodies that start asleep are put to sleep once everything is in the space.
        if (sleep_) {
            for (cpBody* body : asleep) cpBodySleep(body);
        } else if (!asleep.empty()) {
            note("bodies starting asleep start awake (sleeping off)",
                 static_cast<std::int64_t>(asleep.size()));
        }
        if (!desc.events.empty()) {
            note("timed events not applied", static_cast<std::int64_t>(desc.events.size()));
        }
    }

    ~ChipmunkAdapter() override {
        // A sleeping body keeps a private copy of its contacts that only
        // waking it frees (cpSpaceFree wakes bodies with the space locked and
        // leaks those copies), so every body is woken first. cpSpaceFree
        // still touches the bodies it holds: they are freed after it.
        for (cpBody* b : bodies_) {
            if (cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC) cpBodyActivate(b);
        }
        cpSpaceFree(space_);
        for (cpConstraint* c : constraints_) cpConstraintFree(c);
        for (cpShape* s : shapes_) cpShapeFree(s);
        for (cpBody* b : bodies_) cpBodyFree(b);
    }

    void step() override { cpSpaceStep(space_, dt_); }

    int bodyCount() const override { return static_cast<int>(bodies_.size()); }

    Sanity sanity() const override {
        Sanity s;
        double sumY = 0.0;
        double sumV = 0.0;
        double sumW = 0.0;
        for (cpBody* b : bodies_) {
            if (cpBodyGetType(b) != CP_BODY_TYPE_DYNAMIC) continue;
            sumY += cpBodyGetPosition(b).y;
            sumV += cpvlength(cpBodyGetVelocity(b));
            sumW += cpBodyGetAngularVelocity(b);
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
        return "iterations " + std::to_string(kIterations) +
               ", index BBTree, collision slop 0.005 m, sleep " +
               (sleep_ ? "on (0.5 s below 0.05 m/s)" : "off") + ", no continuous collision" +
               (chipmunkDebugBuild() ? ", library built with debug checks (no NDEBUG)" : "");
    }

   private:
    cpBody* createBody(const scene::BodyDesc& desc) {
        const BodyDef& d = desc.def;
        cpBody* body = nullptr;
        switch (d.type) {
            case BodyType::Static:
                body = cpBodyNewStatic();
                break;
            case BodyType::Kinematic:
                body = cpBodyNewKinematic();
                break;
            case BodyType::Dynamic:
                body = cpBodyNew(0.0, 0.0);
                break;
        }
        bodies_.push_back(body);
        cpBodySetPosition(body, toCp(d.position));
        cpBodySetAngle(body,
                       desc.rotation ? std::atan2(desc.rotation->s, desc.rotation->c) : d.angle);
        cpSpaceAddBody(space_, body);
        for (const scene::ShapeDesc& s : desc.shapes) createShape(body, s);
        if (d.type == BodyType::Dynamic) {
            // Box2D's rule for a dynamic body without mass: 1 kg.
            if (!(cpBodyGetMass(body) > 0.0)) {
                cpBodySetMass(body, 1.0);
                cpBodySetMoment(body, 1.0);
            }
            if (d.fixedRotation) cpBodySetMoment(body, INFINITY);
        }
        if (d.type != BodyType::Static) {
            cpBodySetVelocity(body, toCp(d.linearVelocity));
            cpBodySetAngularVelocity(body, d.angularVelocity);
        }
        if (d.gravityScale != 1.0f) note("gravity scale not applied (Chipmunk has none per body)");
        if (d.linearDamping != 0.0f || d.angularDamping != 0.0f)
            note("per-body damping not applied");
        if (!d.enableSleep && sleep_ && d.type == BodyType::Dynamic) {
            note("allow_sleep=false not applied (Chipmunk has no per-body flag)");
        }
        if (d.isBullet) note("bullet flag not applied (no continuous collision)");
        if (desc.name) byName_.emplace(*desc.name, body);
        return body;
    }

    void addShape(cpShape* shape, const scene::ShapeDesc& s) {
        const ShapeDef& d = s.def;
        shapes_.push_back(shape);
        cpShapeSetFriction(shape, std::sqrt(static_cast<cpFloat>(d.friction)));
        cpShapeSetElasticity(shape, std::sqrt(static_cast<cpFloat>(d.restitution)));
        cpShapeSetSensor(shape, d.isSensor ? cpTrue : cpFalse);
        cpGroup group = CP_NO_GROUP;
        if (d.filter.groupIndex < 0)
            group = static_cast<cpGroup>(-static_cast<std::int64_t>(d.filter.groupIndex));
        if (d.filter.groupIndex > 0) note("positive collision group not applied");
        cpShapeSetFilter(
            shape,
            cpShapeFilterNew(group, static_cast<cpBitmask>(d.filter.categoryBits & 0xFFFFFFFFu),
                             static_cast<cpBitmask>(d.filter.maskBits & 0xFFFFFFFFu)));
        if ((d.filter.categoryBits >> 32) != 0) note("filter category bits above 32 dropped");
        if (d.rollingResistance != 0.0f) note("rolling resistance not applied (Chipmunk has none)");
        if (s.oneWay) note("one_way shape made two-sided");
        // Density last: the body's mass is accumulated from its shapes as they change.
        cpSpaceAddShape(space_, shape);
        if (s.kind != scene::ShapeKind::Segment && s.kind != scene::ShapeKind::Chain &&
            cpBodyGetType(cpShapeGetBody(shape)) == CP_BODY_TYPE_DYNAMIC && d.density > 0.0f) {
            cpShapeSetDensity(shape, d.density);
        }
    }

    void createShape(cpBody* body, const scene::ShapeDesc& s) {
        switch (s.kind) {
            case scene::ShapeKind::Circle: {
                const auto& c = std::get<Circle>(s.geometry);
                addShape(cpCircleShapeNew(body, c.radius, toCp(c.center)), s);
                break;
            }
            case scene::ShapeKind::Capsule: {
                const auto& c = std::get<Capsule>(s.geometry);
                addShape(cpSegmentShapeNew(body, toCp(c.center1), toCp(c.center2), c.radius), s);
                break;
            }
            case scene::ShapeKind::Box:
            case scene::ShapeKind::Polygon: {
                const auto& p = std::get<Polygon>(s.geometry);
                std::vector<cpVect> v;
                for (int i = 0; i < p.count; ++i)
                    v.push_back(toCp(p.vertices[static_cast<std::size_t>(i)]));
                addShape(cpPolyShapeNew(body, p.count, v.data(), cpTransformIdentity, p.radius), s);
                break;
            }
            case scene::ShapeKind::Segment: {
                const auto& g = std::get<Segment>(s.geometry);
                addShape(cpSegmentShapeNew(body, toCp(g.point1), toCp(g.point2), 0.0), s);
                break;
            }
            case scene::ShapeKind::Chain:
                createChain(body, s);
                break;
        }
    }

    // One segment per edge. The neighbours let Chipmunk ignore contacts on a
    // vertex that a neighbouring edge covers (no snagging on a flat chain);
    // an open chain's end keeps its own point (a zero tangent: no filtering).
    void createChain(cpBody* body, const scene::ShapeDesc& s) {
        const std::vector<Vec2>& p = s.chainPoints;
        const long n = static_cast<long>(p.size());
        const long edges = s.chainLoop ? n : n - 1;
        auto at = [&](long i) {
            return toCp(p[static_cast<std::size_t>(s.chainLoop ? (i % n + n) % n : i)]);
        };
        for (long i = 0; i < edges; ++i) {
            cpShape* seg = cpSegmentShapeNew(body, at(i), at(i + 1), 0.0);
            cpVect prev = (s.chainLoop || i > 0) ? at(i - 1) : at(i);
            cpVect next = (s.chainLoop || i + 2 < n) ? at(i + 2) : at(i + 1);
            cpSegmentShapeSetNeighbors(seg, prev, next);
            addShape(seg, s);
        }
        note("chain edges made two-sided segments", edges);
    }

    cpBody* bodyNamed(const std::string& name) const {
        auto it = byName_.find(name);
        if (it == byName_.end())
            throw std::runtime_error("chipmunk: joint names unknown body " + name);
        return it->second;
    }

    cpConstraint* add(cpConstraint* c, bool collide) {
        cpConstraintSetCollideBodies(c, collide ? cpTrue : cpFalse);
        cpSpaceAddConstraint(space_, c);
        constraints_.push_back(c);
        return c;
    }

    static cpFloat invMass(cpBody* b) {
        return cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC ? 1.0 / cpBodyGetMass(b) : 0.0;
    }
    static cpFloat invMoment(cpBody* b) {
        return cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC ? 1.0 / cpBodyGetMoment(b) : 0.0;
    }
    // A spring of `hertz` and `ratio` on an effective mass m: k = m w^2, c = 2 m ratio w.
    static void springCoefficients(cpFloat invSum, float hertz, float ratio, cpFloat& k,
                                   cpFloat& c) {
        cpFloat m = invSum > 0.0 ? 1.0 / invSum : 0.0;
        cpFloat w = kTwoPi * hertz;
        k = m * w * w;
        c = 2.0 * m * ratio * w;
    }

    void createJoint(const scene::JointDesc& j) {
        cpBody* a = bodyNamed(j.a);
        cpBody* b = bodyNamed(j.b);
        // Between two bodies of infinite mass a joint does nothing, and
        // Chipmunk aborts on its singular mass matrix: leave it out.
        if (cpBodyGetType(a) != CP_BODY_TYPE_DYNAMIC && cpBodyGetType(b) != CP_BODY_TYPE_DYNAMIC) {
            note(
                "joint between two non-dynamic bodies left out (no effect; Chipmunk aborts on it)");
            return;
        }
        const bool cc = j.collideConnected;
        auto local = [&](cpBody* body, std::optional<Vec2> given, Vec2 world) {
            return given ? toCp(*given) : cpBodyWorldToLocal(body, toCp(world));
        };
        const cpFloat ref = j.referenceAngle ? static_cast<cpFloat>(*j.referenceAngle)
                                             : cpBodyGetAngle(b) - cpBodyGetAngle(a);
        switch (j.type) {
            case JointType::Revolute: {
                add(cpPivotJointNew2(a, b, local(a, j.localAnchorA, j.anchor),
                                     local(b, j.localAnchorB, j.anchor)),
                    cc);
                if (j.limit)
                    add(cpRotaryLimitJointNew(a, b, ref + j.limit->lower, ref + j.limit->upper),
                        cc);
                if (j.motor) {
                    // cpSimpleMotor drives wB - wA to -rate.
                    cpConstraint* m =
                        add(cpSimpleMotorNew(a, b, -static_cast<cpFloat>(j.motor->speed)), cc);
                    cpConstraintSetMaxForce(m, j.motor->maxForce);
                }
                if (j.spring) {
                    cpFloat k = 0.0, c = 0.0;
                    springCoefficients(invMoment(a) + invMoment(b), j.spring->hertz,
                                       j.spring->dampingRatio, k, c);
                    add(cpDampedRotarySpringNew(a, b, ref, k, c), cc);
                }
                break;
            }
            case JointType::Prismatic: {
                cpVect la = local(a, j.localAnchorA, j.anchor);
                cpVect axis = j.localAxisA
                                  ? toCp(*j.localAxisA)
                                  : cpvnormalize(cpvunrotate(toCp(j.axis), cpBodyGetRotation(a)));
                cpFloat lo = j.limit ? j.limit->lower : -kGrooveHalfLength;
                cpFloat hi = j.limit ? j.limit->upper : kGrooveHalfLength;
                add(cpGrooveJointNew(a, b, la + axis * lo, la + axis * hi,
                                     local(b, j.localAnchorB, j.anchor)),
                    cc);
                add(cpGearJointNew(a, b, ref, 1.0), cc);
                if (j.motor) note("prismatic motor not applied");
                if (j.spring) note("prismatic spring not applied");
                break;
            }
            case JointType::Distance: {
                cpVect la = local(a, j.localAnchorA, j.anchorA);
                cpVect lb = local(b, j.localAnchorB, j.anchorB);
                cpFloat length = j.length ? *j.length : cpvdist(toCp(j.anchorA), toCp(j.anchorB));
                if (j.spring) {
                    cpFloat k = 0.0, c = 0.0;
                    springCoefficients(invMass(a) + invMass(b), j.spring->hertz,
                                       j.spring->dampingRatio, k, c);
                    add(cpDampedSpringNew(a, b, la, lb, length, k, c), cc);
                    if (j.minLength || j.maxLength) {
                        add(cpSlideJointNew(a, b, la, lb, j.minLength.value_or(0.0f),
                                            j.maxLength.value_or(kHuge)),
                            cc);
                    }
                } else {
                    cpConstraint* pin = add(cpPinJointNew(a, b, la, lb), cc);
                    cpPinJointSetDist(pin, length);
                }
                break;
            }
            case JointType::Weld: {
                add(cpPivotJointNew2(a, b, local(a, j.localAnchorA, j.anchor),
                                     local(b, j.localAnchorB, j.anchor)),
                    cc);
                add(cpGearJointNew(a, b, ref, 1.0), cc);
                if (j.linearHertz > 0.0f || j.angularHertz > 0.0f)
                    note("weld springs not applied (rigid weld)");
                break;
            }
            case JointType::Wheel: {
                cpVect la = local(a, j.localAnchorA, j.anchor);
                cpVect lb = local(b, j.localAnchorB, j.anchor);
                cpVect axis = j.localAxisA
                                  ? toCp(*j.localAxisA)
                                  : cpvnormalize(cpvunrotate(toCp(j.axis), cpBodyGetRotation(a)));
                cpFloat lo = j.limit ? j.limit->lower : -kGrooveHalfLength;
                cpFloat hi = j.limit ? j.limit->upper : kGrooveHalfLength;
                add(cpGrooveJointNew(a, b, la + axis * lo, la + axis * hi, lb), cc);
                scene::JointSpring spring = j.spring.value_or(scene::JointSpring{1.0f, 0.7f});
                cpFloat k = 0.0, c = 0.0;
                springCoefficients(invMass(a) + invMass(b), spring.hertz, spring.dampingRatio, k,
                                   c);
                add(cpDampedSpringNew(a, b, la, lb, 0.0, k, c), cc);
                if (j.motor) {
                    cpConstraint* m =
                        add(cpSimpleMotorNew(a, b, -static_cast<cpFloat>(j.motor->speed)), cc);
                    cpConstraintSetMaxForce(m, j.motor->maxForce);
                }
                break;
            }
            case JointType::Motor: {
                cpVect offset = j.linearOffset ? toCp(*j.linearOffset)
                                               : cpBodyWorldToLocal(a, cpBodyGetPosition(b));
                cpFloat angle = j.angularOffset ? static_cast<cpFloat>(*j.angularOffset) : ref;
                cpConstraint* pivot = add(cpPivotJointNew2(a, b, offset, cpvzero), cc);
                cpConstraintSetMaxForce(pivot, j.maxForce);
                cpConstraint* gear = add(cpGearJointNew(a, b, angle, 1.0), cc);
                cpConstraintSetMaxForce(gear, j.maxTorque);
                note("motor joint as force-limited pivot + gear");
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

    cpSpace* space_;
    cpFloat dt_;
    bool sleep_ = true;
    std::vector<cpBody*> bodies_;
    std::vector<cpShape*> shapes_;
    std::vector<cpConstraint*> constraints_;
    std::map<std::string, cpBody*, std::less<>> byName_;
};

}  // namespace

std::unique_ptr<Adapter> makeChipmunkAdapter(const scene::SceneDesc& desc) {
    return std::make_unique<ChipmunkAdapter>(desc);
}

std::string chipmunkVersion() {
    return std::string(cpVersionString) + (chipmunkDebugBuild() ? " (debug build)" : "");
}

}  // namespace carom::compare
