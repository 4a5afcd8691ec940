// Saving a World (saveWorld) or a running scene (saveScene) as a scene file.
// One writer: saveScene is saveWorld plus what only the runner knows (the
// scene's name and clock, one-way platforms, box keys, pending events).
// Each object type has its own describe/write pair below (world settings,
// bodies, shapes, joints, events, the warm section).
//
// The file must reload to the same state bit for bit, so besides the keys
// of the format (readable world anchors, angles) it carries the project
// keys that pin the exact values: a body's `rotation` [cos, sin], and a
// joint's `local_anchor_a`, `local_anchor_b`, `local_axis_a` and
// `reference_angle` (after a run the world anchors of A and B have drifted
// apart and the joint has turned, so world anchors alone would not restore
// the joint). Every number is written as the shortest text that reads back
// to the same float.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>
#include <span>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <set>

#include <carom/error.hpp>
#include <carom/geometry.hpp>
#include <carom/json_writer.hpp>
#include <carom/scene.hpp>
#include <carom/validate.hpp>

#include "runner_impl.hpp"

namespace carom::scene {

namespace {

const char* typeName(BodyType t) {
    switch (t) {
        case BodyType::Static:
            return "static";
        case BodyType::Kinematic:
            return "kinematic";
        case BodyType::Dynamic:
            return "dynamic";
    }
    return "dynamic";
}

void writeFilter(JsonWriter& j, const Filter& f) {
    Filter defaults{};
    if (f.categoryBits == defaults.categoryBits && f.maskBits == defaults.maskBits &&
        f.groupIndex == 0)
        return;
    j.key("filter").beginObject();
    j.key("category").value(static_cast<uint64_t>(f.categoryBits));
    j.key("mask").value(static_cast<uint64_t>(f.maskBits));
    j.key("group").value(static_cast<int64_t>(f.groupIndex));
    j.endObject();
}

void writeShape(JsonWriter& j, const ShapeDesc& s) {
    j.beginObject();
    if (s.kind == ShapeKind::Chain) {
        j.key("type").value("chain");
        j.key("points").beginArray();
        for (Vec2 p : s.chainPoints) j.value(p);
        j.endArray();
        if (s.chainLoop) j.key("loop").value(true);
    } else if (const auto* c = std::get_if<Circle>(&s.geometry)) {
        j.key("type").value("circle").key("radius").value(c->radius).key("center").value(c->center);
    } else if (const auto* c = std::get_if<Capsule>(&s.geometry)) {
        j.key("type").value("capsule").key("p1").value(c->center1).key("p2").value(c->center2);
        j.key("radius").value(c->radius);
    } else if (const auto* g = std::get_if<Segment>(&s.geometry)) {
        j.key("type").value("segment").key("p1").value(g->point1).key("p2").value(g->point2);
    } else if (s.kind == ShapeKind::Box) {
        j.key("type").value("box").key("half_extents").value(s.box.halfExtents);
        if (s.box.center != Vec2{0.0f, 0.0f}) j.key("center").value(s.box.center);
        if (s.box.angle != 0.0f) j.key("angle").value(s.box.angle);
        if (s.box.radius > 0.0f) j.key("radius").value(s.box.radius);
    } else if (const auto* p = std::get_if<Polygon>(&s.geometry)) {
        j.key("type").value("polygon").key("vertices").beginArray();
        for (int k = 0; k < p->count; ++k) j.value(p->vertices[static_cast<std::size_t>(k)]);
        j.endArray();
        if (p->radius > 0.0f) j.key("radius").value(p->radius);
    }
    if (s.kind != ShapeKind::Chain) j.key("density").value(s.def.density);
    j.key("friction").value(s.def.friction);
    j.key("restitution").value(s.def.restitution);
    if (s.def.rollingResistance != 0.0f) j.key("rolling_resistance").value(s.def.rollingResistance);
    if (s.def.isSensor) j.key("sensor").value(true);
    if (s.oneWay) j.key("one_way").value(true);
    if (s.wind) {
        const Wind defaults;
        j.key("wind").beginObject().key("velocity").value(s.wind->velocity);
        if (s.wind->drag != defaults.drag) j.key("drag").value(s.wind->drag);
        if (s.wind->lift != defaults.lift) j.key("lift").value(s.wind->lift);
        if (s.wind->density != defaults.density) j.key("density").value(s.wind->density);
        j.endObject();
    }
    writeFilter(j, s.def.filter);
    // Event switches, where they differ from the loader's defaults.
    if (s.kind == ShapeKind::Chain) {
        if (s.def.enableSensorEvents) j.key("sensor_events").value(true);
    } else {
        if (!s.def.enableContactEvents) j.key("contact_events").value(false);
        if (!s.def.enableSensorEvents) j.key("sensor_events").value(false);
        if (s.def.enableHitEvents) j.key("hit_events").value(true);
        if (s.def.enablePreSolveEvents && !s.oneWay) j.key("pre_solve_events").value(true);
        if (s.def.tangentSpeed != 0.0f) j.key("tangent_speed").value(s.def.tangentSpeed);
        if (s.def.userMaterialId != 0)
            j.key("material_id").value(static_cast<uint64_t>(s.def.userMaterialId));
    }
    j.endObject();
}

void writeBody(JsonWriter& j, const BodyDesc& b) {
    j.beginObject();
    if (b.name) j.key("name").value(*b.name);
    j.key("type").value(typeName(b.def.type));
    j.key("position").value(b.def.position);
    j.key("angle").value(b.def.angle);
    if (b.rotation) j.key("rotation").value(Vec2{b.rotation->c, b.rotation->s});
    j.key("linear_velocity").value(b.def.linearVelocity);
    j.key("angular_velocity").value(b.def.angularVelocity);
    if (b.def.linearDamping != 0.0f) j.key("linear_damping").value(b.def.linearDamping);
    if (b.def.angularDamping != 0.0f) j.key("angular_damping").value(b.def.angularDamping);
    if (b.def.gravityScale != 1.0f) j.key("gravity_scale").value(b.def.gravityScale);
    if (b.def.isBullet) j.key("bullet").value(true);
    if (!b.def.enableContactReuse) j.key("contact_reuse").value(false);
    if (b.def.fixedRotation) j.key("fixed_rotation").value(true);
    if (!b.def.isAwake) j.key("awake").value(false);
    if (!b.def.enableSleep) j.key("allow_sleep").value(false);
    if (b.def.sleepThreshold != BodyDef{}.sleepThreshold)
        j.key("sleep_threshold").value(b.def.sleepThreshold);
    if (!b.def.isEnabled) j.key("enabled").value(false);
    if (b.def.motionLocks.linearX || b.def.motionLocks.linearY) {  // angular_z is fixed_rotation
        j.key("motion_locks").beginObject();
        j.key("linear_x")
            .value(b.def.motionLocks.linearX)
            .key("linear_y")
            .value(b.def.motionLocks.linearY);
        j.endObject();
    }
    if (b.mass) {
        j.key("mass")
            .beginObject()
            .key("mass")
            .value(b.mass->mass)
            .key("center")
            .value(b.mass->center);
        j.key("inertia").value(b.mass->rotationalInertia).endObject();
    }
    j.key("shapes").beginArray();
    for (const ShapeDesc& s : b.shapes) writeShape(j, s);
    j.endArray();
    if (const CharacterDesc* c = b.character ? &*b.character : nullptr) {
        j.key("character").beginObject();
        j.key("radius").value(c->radius).key("height").value(c->height);
        j.key("run_speed").value(c->runSpeed).key("jump_speed").value(c->jumpSpeed);
        j.key("gravity").value(c->gravity).key("max_slope").value(c->maxSlope);
        j.key("step_height").value(c->stepHeight).key("push_force").value(c->pushForce);
        j.key("velocity").value(c->velocity);
        j.endObject();
    }
    if (const PathDesc* p = b.path ? &*b.path : nullptr) {
        j.key("path").beginObject().key("points").beginArray();
        for (Vec2 q : p->points) j.value(q);
        j.endArray();
        j.key("speed").value(p->speed);
        if (p->loop) j.key("loop").value(true);
        j.key("at").value(p->at);
        j.endObject();
    }
    j.endObject();
}

const char* jointTypeName(JointType t) {
    switch (t) {
        case JointType::Revolute:
            return "revolute";
        case JointType::Prismatic:
            return "prismatic";
        case JointType::Distance:
            return "distance";
        case JointType::Weld:
            return "weld";
        case JointType::Wheel:
            return "wheel";
        case JointType::Motor:
            return "motor";
        case JointType::Mouse:
            return "mouse";
        case JointType::Gear:
            return "gear";
        case JointType::Pulley:
            return "pulley";
        case JointType::Rope:
            return "rope";
        case JointType::Filter:
            return "filter";
    }
    return "revolute";
}

void writeJoint(JsonWriter& j, const JointDesc& d) {
    j.beginObject();
    j.key("type").value(jointTypeName(d.type));
    if (d.name) j.key("name").value(*d.name);
    auto thresholds = [&] {
        if (d.forceThreshold != FLT_MAX) j.key("force_threshold").value(d.forceThreshold);
        if (d.torqueThreshold != FLT_MAX) j.key("torque_threshold").value(d.torqueThreshold);
    };
    if (d.type == JointType::Gear) {
        j.key("joint_a").value(d.jointA).key("joint_b").value(d.jointB).key("ratio").value(d.ratio);
        if (d.collideConnected) j.key("collide_connected").value(true);
        thresholds();
        j.endObject();
        return;
    }
    j.key("a").value(d.a).key("b").value(d.b);
    if (d.collideConnected) j.key("collide_connected").value(true);
    if (d.type == JointType::Pulley || d.type == JointType::Rope)
        j.key("anchor_a").value(d.anchorA).key("anchor_b").value(d.anchorB);
    if (d.type == JointType::Pulley) {
        j.key("ground_anchor_a")
            .value(d.groundAnchorA)
            .key("ground_anchor_b")
            .value(d.groundAnchorB);
        j.key("ratio").value(d.ratio);
        if (d.lengthA) j.key("length_a").value(*d.lengthA);
        if (d.lengthB) j.key("length_b").value(*d.lengthB);
    }
    if (d.type == JointType::Rope && d.maxLength) j.key("max_length").value(*d.maxLength);
    bool usesAnchor = d.type != JointType::Distance && d.type != JointType::Motor &&
                      d.type != JointType::Mouse && d.type != JointType::Pulley &&
                      d.type != JointType::Rope && d.type != JointType::Filter;
    if (usesAnchor) j.key("anchor").value(d.anchor);
    if (d.type == JointType::Prismatic || d.type == JointType::Wheel) j.key("axis").value(d.axis);
    if (d.type == JointType::Distance) {
        j.key("anchor_a").value(d.anchorA).key("anchor_b").value(d.anchorB);
        if (d.length) j.key("length").value(*d.length);
        if (d.minLength) j.key("min_length").value(*d.minLength);
        if (d.maxLength) j.key("max_length").value(*d.maxLength);
    }
    if (d.limit)
        j.key("limit")
            .beginObject()
            .key("lower")
            .value(d.limit->lower)
            .key("upper")
            .value(d.limit->upper)
            .endObject();
    if (d.motor) {
        j.key("motor").beginObject().key("speed").value(d.motor->speed);
        j.key(d.type == JointType::Prismatic || d.type == JointType::Distance ? "max_force"
                                                                              : "max_torque")
            .value(d.motor->maxForce)
            .endObject();
    }
    if (d.spring) {
        j.key("spring").beginObject().key("hertz").value(d.spring->hertz);
        j.key("damping_ratio").value(d.spring->dampingRatio);
        if (d.spring->target != 0.0f) j.key("target").value(d.spring->target);
        j.endObject();
    }
    if (d.type == JointType::Weld) {
        j.key("linear_hertz").value(d.linearHertz).key("angular_hertz").value(d.angularHertz);
        j.key("linear_damping_ratio").value(d.linearDampingRatio);
        j.key("angular_damping_ratio").value(d.angularDampingRatio);
    }
    if (d.type == JointType::Mouse) {
        j.key("target").value(d.target).key("max_force").value(d.maxForce);
        j.key("hertz").value(d.hertz).key("damping_ratio").value(d.dampingRatio);
    }
    if (d.type == JointType::Motor) {
        if (d.linearOffset) j.key("linear_offset").value(*d.linearOffset);
        if (d.angularOffset) j.key("angular_offset").value(*d.angularOffset);
        j.key("max_force").value(d.maxForce).key("max_torque").value(d.maxTorque);
        j.key("correction_factor").value(d.correctionFactor);
    }
    thresholds();
    if (d.localAnchorA) j.key("local_anchor_a").value(*d.localAnchorA);
    if (d.localAnchorB) j.key("local_anchor_b").value(*d.localAnchorB);
    if (d.localAxisA) j.key("local_axis_a").value(*d.localAxisA);
    if (d.referenceAngle) j.key("reference_angle").value(*d.referenceAngle);
    j.endObject();
}

bool sameBits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}
bool sameBits(Vec2 a, Vec2 b) {
    return sameBits(a.x, b.x) && sameBits(a.y, b.y);
}

// True when makeOffsetBox(box) rebuilds p bit for bit, so that writing the
// box keys reloads exactly this polygon.
bool rebuildsAs(const BoxParams& box, const Polygon& p) {
    if (p.count != 4) return false;
    Polygon q;
    try {
        q = makeOffsetBox(box.halfExtents.x, box.halfExtents.y, box.center, box.angle, box.radius);
    } catch (const carom::Error&) {
        return false;
    }
    if (!sameBits(q.centroid, p.centroid) || !sameBits(q.radius, p.radius)) return false;
    for (std::size_t k = 0; k < 4; ++k) {
        if (!sameBits(q.vertices[k], p.vertices[k]) || !sameBits(q.normals[k], p.normals[k]))
            return false;
    }
    return true;
}

// A polygon made by makeOffsetBox (through the World API, say) written as
// the box it is: its corners may be closer than the hull's weld tolerance
// (a box 2 mm thick), and only the box keys reload it exactly. The box's
// arguments are recovered from its centroid (the centre), its second normal
// (the rotation) and its third corner, then checked by rebuilding it, with
// the last bits of the recovered numbers searched since they went through
// rounding.
std::optional<BoxParams> recogniseBox(const Polygon& p) {
    if (p.count != 4) return std::nullopt;
    Vec2 n0 = p.normals[0];
    Vec2 n1 = p.normals[1];
    // A box's normals are one rotation of (0,-1), (1,0), (0,1), (-1,0).
    if (p.normals[2] != -n0 || p.normals[3] != -n1 || n0 != Vec2{n1.y, -n1.x}) return std::nullopt;
    float angle = computeAtan2(n1.y, n1.x);
    Vec2 corner = p.vertices[2] - p.centroid;
    Vec2 local{n1.x * corner.x + n1.y * corner.y, -n1.y * corner.x + n1.x * corner.y};
    if (!(local.x > 0.0f) || !(local.y > 0.0f)) return std::nullopt;
    auto nudge = [](float v, int ulps) {
        for (; ulps > 0; --ulps) v = std::nextafter(v, std::numeric_limits<float>::infinity());
        for (; ulps < 0; ++ulps) v = std::nextafter(v, -std::numeric_limits<float>::infinity());
        return v;
    };
    for (int da : {0, 1, -1, 2, -2}) {
        for (int dx : {0, 1, -1, 2, -2}) {
            for (int dy : {0, 1, -1, 2, -2}) {
                BoxParams box{{nudge(local.x, dx), nudge(local.y, dy)},
                              p.centroid,
                              nudge(angle, da),
                              p.radius};
                if (box.halfExtents.x > 0.0f && box.halfExtents.y > 0.0f && rebuildsAs(box, p))
                    return box;
            }
        }
    }
    return std::nullopt;
}

// A box made through the World that the search above cannot rebuild bit for
// bit (rotated and offset, its half extents lost in the rounding of its
// corners) and whose corners are too close to reload as a polygon: the box
// nearest to it, whose corners match within float rounding. Loading it back
// beats refusing to save it.
std::optional<BoxParams> nearestBox(const Polygon& p) {
    if (p.count != 4) return std::nullopt;
    Vec2 n0 = p.normals[0];
    Vec2 n1 = p.normals[1];
    if (p.normals[2] != -n0 || p.normals[3] != -n1 || n0 != Vec2{n1.y, -n1.x}) return std::nullopt;
    Vec2 corner = 0.5f * (p.vertices[2] - p.vertices[0]);
    Vec2 local{n1.x * corner.x + n1.y * corner.y, -n1.y * corner.x + n1.x * corner.y};
    if (!(local.x > 0.0f) || !(local.y > 0.0f)) return std::nullopt;
    BoxParams box{local, p.centroid, computeAtan2(n1.y, n1.x), p.radius};
    Polygon q;
    try {
        q = makeOffsetBox(box.halfExtents.x, box.halfExtents.y, box.center, box.angle, box.radius);
    } catch (const carom::Error&) {
        return std::nullopt;
    }
    for (std::size_t k = 0; k < 4; ++k) {
        Vec2 d = q.vertices[k] - p.vertices[k];
        float scale = std::max({1.0f, std::fabs(p.vertices[k].x), std::fabs(p.vertices[k].y)});
        if (std::fabs(d.x) > 1.0e-6f * scale || std::fabs(d.y) > 1.0e-6f * scale)
            return std::nullopt;
    }
    return box;
}

// What the runner knows about a shape or the scene beyond the World; null
// for a World saved alone.
struct RunnerView {
    const SceneRunner* runner = nullptr;
    bool isOneWay(ShapeId s) const { return runner && runner->isOneWay(s); }
    std::optional<Wind> windOf(ShapeId s) const {
        return runner ? runner->windOf(s) : std::nullopt;
    }
    const BoxParams* boxOf(ShapeId s) const { return runner ? runner->boxOf(s) : nullptr; }
    const CharacterDesc* characterOf(BodyId b) const {
        return runner ? runner->characterOf(b) : nullptr;
    }
    const PathDesc* pathOf(BodyId b) const { return runner ? runner->pathOf(b) : nullptr; }
    std::optional<std::string> jointName(JointId j) const {
        return runner ? runner->jointName(j) : std::nullopt;
    }
};

// The shapes of a body in the order the file lists them, which is the order
// the reloaded body has them in: World::shapes order, each chain at the place
// of its first segment. `engine` receives the engine shapes in the reloaded
// order (a chain as its segments), for the warm section's shape positions.
struct ShapeEntry {
    ShapeId shape{};  ///< a shape, or
    ChainId chain{};  ///< a chain
};
std::vector<ShapeEntry> shapeEntries(const World& w, BodyId id, std::vector<ShapeId>* engine) {
    std::map<ShapeId, ChainId> chainOf;
    for (ChainId c : w.chains(id)) {
        for (ShapeId s : w.chainSegments(c)) chainOf[s] = c;
    }
    std::vector<ShapeEntry> out;
    std::set<ChainId> written;
    for (ShapeId s : w.shapes(id)) {
        auto it = chainOf.find(s);
        if (it == chainOf.end()) {
            out.push_back({s, ChainId{}});
            if (engine) engine->push_back(s);
        } else if (written.insert(it->second).second) {
            out.push_back({ShapeId{}, it->second});
            if (engine) {
                for (ShapeId seg : w.chainSegments(it->second)) engine->push_back(seg);
            }
        }
    }
    return out;
}

// The current state of a body as a BodyDesc.
BodyDesc describeBody(const World& w, BodyId id, const std::optional<std::string>& name,
                      const RunnerView& runner) {
    BodyDesc b;
    b.name = name;
    b.def.type = w.bodyType(id);
    b.def.position = w.position(id);
    b.rotation = w.rotation(id);
    b.def.angle = bodyAngle(w, id);
    b.def.linearVelocity = w.linearVelocity(id);
    b.def.angularVelocity = w.angularVelocity(id);
    b.def.linearDamping = w.linearDamping(id);
    b.def.angularDamping = w.angularDamping(id);
    b.def.gravityScale = w.gravityScale(id);
    b.def.isBullet = w.isBullet(id);
    b.def.enableContactReuse = w.isContactReuseEnabled(id);
    b.def.fixedRotation = w.isFixedRotation(id);
    b.def.isAwake = w.isAwake(id);
    b.def.enableSleep = w.isSleepEnabled(id);
    b.def.sleepThreshold = w.sleepThreshold(id);
    b.def.isEnabled = w.isEnabled(id);
    b.def.motionLocks = w.motionLocks(id);  // angular_z is written as fixed_rotation
    if (w.isMassOverridden(id)) b.mass = w.massData(id);
    // A character's capsule is made by the runner from its `character` keys.
    if (const CharacterDesc* c = runner.characterOf(id)) b.character = *c;
    if (const PathDesc* p = runner.pathOf(id)) b.path = *p;
    for (const ShapeEntry& e : shapeEntries(w, id, nullptr)) {
        if (b.character) break;
        if (e.chain) {
            const ChainDef& cd = w.chainDef(e.chain);
            ShapeDesc d;
            d.kind = ShapeKind::Chain;
            d.chainPoints = cd.points;
            d.chainLoop = cd.isLoop;
            d.def.friction = cd.friction;
            d.def.restitution = cd.restitution;
            d.def.rollingResistance = cd.rollingResistance;
            d.def.filter = cd.filter;
            d.def.enableSensorEvents = cd.enableSensorEvents;
            b.shapes.push_back(std::move(d));
            continue;
        }
        const ShapeId s = e.shape;
        ShapeGeometry g = w.geometry(s);
        ShapeDesc d;
        d.geometry = g;
        switch (typeOf(g)) {
            case ShapeType::Circle:
                d.kind = ShapeKind::Circle;
                break;
            case ShapeType::Capsule:
                d.kind = ShapeKind::Capsule;
                break;
            case ShapeType::Segment:
                d.kind = ShapeKind::Segment;
                break;
            default: {
                // Boxes are written as boxes: as the runner created them, or
                // recognised when made through the World.
                const Polygon& poly = std::get<Polygon>(g);
                const BoxParams* made = runner.boxOf(s);
                std::optional<BoxParams> box;
                if (made && rebuildsAs(*made, poly))
                    box = *made;
                else
                    box = recogniseBox(poly);
                if (!box) {
                    // A polygon is written in the order the loader's hull
                    // gives its points, so that saving the reloaded world
                    // writes the same text; one the hull would refuse (points
                    // closer than the weld tolerance) can only be a box.
                    try {
                        Polygon canonical =
                            makePolygon(std::span<const Vec2>(poly.vertices.data(),
                                                              static_cast<std::size_t>(poly.count)),
                                        poly.radius);
                        if (canonical.count == poly.count)
                            d.geometry = canonical;
                        else
                            box = nearestBox(poly);
                    } catch (const carom::Error&) {
                        box = nearestBox(poly);
                    }
                }
                d.kind = box ? ShapeKind::Box : ShapeKind::Polygon;
                if (box) d.box = *box;
                break;
            }
        }
        d.def = w.shapeDef(s);
        d.oneWay = runner.isOneWay(s);
        d.wind = runner.windOf(s);
        b.shapes.push_back(std::move(d));
    }
    return b;
}

template <class Def>
void pinJoint(JointDesc& d, const World& w, const Def& def) {
    d.collideConnected = def.collideConnected;
    d.localAnchorA = def.localAnchorA;
    d.localAnchorB = def.localAnchorB;
    d.anchor = w.worldPoint(def.bodyA, def.localAnchorA);
}

// The current state of a joint as a JointDesc with its exact local frames.
JointDesc describeJoint(const World& w, JointId id) {
    JointDesc d;
    d.type = w.jointType(id);
    auto spring = [](bool on, float hz, float ratio) -> std::optional<JointSpring> {
        if (!on) return std::nullopt;
        return JointSpring{hz, ratio};
    };
    switch (d.type) {
        case JointType::Revolute: {
            RevoluteJointDef def = w.revoluteJointDef(id);
            pinJoint(d, w, def);
            d.referenceAngle = def.referenceAngle;
            if (def.enableLimit) d.limit = JointLimit{def.lowerAngle, def.upperAngle};
            if (def.enableMotor) d.motor = JointMotor{def.motorSpeed, def.maxMotorTorque};
            d.spring = spring(def.enableSpring, def.hertz, def.dampingRatio);
            if (d.spring) d.spring->target = def.targetAngle;
            break;
        }
        case JointType::Prismatic: {
            PrismaticJointDef def = w.prismaticJointDef(id);
            pinJoint(d, w, def);
            d.referenceAngle = def.referenceAngle;
            d.localAxisA = def.localAxisA;
            d.axis = w.worldVector(def.bodyA, def.localAxisA);
            if (def.enableLimit) d.limit = JointLimit{def.lowerTranslation, def.upperTranslation};
            if (def.enableMotor) d.motor = JointMotor{def.motorSpeed, def.maxMotorForce};
            d.spring = spring(def.enableSpring, def.hertz, def.dampingRatio);
            if (d.spring) d.spring->target = def.targetTranslation;
            break;
        }
        case JointType::Distance: {
            DistanceJointDef def = w.distanceJointDef(id);
            pinJoint(d, w, def);
            d.anchorA = d.anchor;
            d.anchorB = w.worldPoint(def.bodyB, def.localAnchorB);
            d.length = def.length;
            if (def.enableLimit) {
                d.minLength = def.minLength;
                d.maxLength = def.maxLength;
            }
            d.spring = spring(def.enableSpring, def.hertz, def.dampingRatio);
            if (def.enableMotor) d.motor = JointMotor{def.motorSpeed, def.maxMotorForce};
            break;
        }
        case JointType::Weld: {
            WeldJointDef def = w.weldJointDef(id);
            pinJoint(d, w, def);
            d.referenceAngle = def.referenceAngle;
            d.linearHertz = def.linearHertz;
            d.angularHertz = def.angularHertz;
            d.linearDampingRatio = def.linearDampingRatio;
            d.angularDampingRatio = def.angularDampingRatio;
            break;
        }
        case JointType::Wheel: {
            WheelJointDef def = w.wheelJointDef(id);
            pinJoint(d, w, def);
            d.localAxisA = def.localAxisA;
            d.axis = w.worldVector(def.bodyA, def.localAxisA);
            if (def.enableLimit) d.limit = JointLimit{def.lowerTranslation, def.upperTranslation};
            if (def.enableMotor) d.motor = JointMotor{def.motorSpeed, def.maxMotorTorque};
            // A wheel without `spring` gets the engine's default spring, so a
            // disabled one is written as a 0 Hz spring, which pushes nothing.
            d.spring = def.enableSpring ? JointSpring{def.hertz, def.dampingRatio}
                                        : JointSpring{0.0f, 0.0f};
            break;
        }
        case JointType::Motor: {
            MotorJointDef def = w.motorJointDef(id);
            d.collideConnected = def.collideConnected;
            d.linearOffset = def.linearOffset;
            d.angularOffset = def.angularOffset;
            d.maxForce = def.maxForce;
            d.maxTorque = def.maxTorque;
            d.correctionFactor = def.correctionFactor;
            break;
        }
        case JointType::Mouse: {
            MouseJointDef def = w.mouseJointDef(id);
            pinJoint(d, w, def);
            d.target = def.target;
            d.maxForce = def.maxForce;
            d.hertz = def.hertz;
            d.dampingRatio = def.dampingRatio;
            break;
        }
        case JointType::Gear: {
            // joint_a / joint_b: writeScene names the geared joints.
            GearJointDef def = w.gearJointDef(id);
            d.collideConnected = def.collideConnected;
            d.ratio = def.ratio;
            break;
        }
        case JointType::Pulley: {
            PulleyJointDef def = w.pulleyJointDef(id);
            pinJoint(d, w, def);
            d.anchorA = d.anchor;
            d.anchorB = w.worldPoint(def.bodyB, def.localAnchorB);
            d.groundAnchorA = def.groundAnchorA;
            d.groundAnchorB = def.groundAnchorB;
            d.lengthA = def.lengthA;
            d.lengthB = def.lengthB;
            d.ratio = def.ratio;
            break;
        }
        case JointType::Rope: {
            RopeJointDef def = w.ropeJointDef(id);
            pinJoint(d, w, def);
            d.anchorA = d.anchor;
            d.anchorB = w.worldPoint(def.bodyB, def.localAnchorB);
            d.maxLength = def.maxLength;
            break;
        }
        case JointType::Filter:
            pinJoint(d, w, w.filterJointDef(id));
            break;
    }
    d.forceThreshold = w.jointForceThreshold(id);
    d.torqueThreshold = w.jointTorqueThreshold(id);
    return d;
}

bool finite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

// A body whose state no scene file can hold is refused here, by name,
// rather than written as a file the loader would refuse (or with null for
// a NaN): positions must be within the loader's +-1e6 m (kHuge, the API's
// own bound), and every number finite.
void requireSavable(const SceneDesc& desc, const BodyDesc& b, std::size_t index) {
    std::string who = (b.name ? "body \"" + *b.name + "\"" : std::string("an unnamed body")) +
                      " (bodies[" + std::to_string(index) + "] of the saved file)";
    // Appended piece by piece: GCC 12 reports a false -Wrestrict on "[" + string
    // once this file's inlining changes.
    auto vec = [](Vec2 v) {
        std::string out = "[";
        out += formatFloat(v.x);
        out += ", ";
        out += formatFloat(v.y);
        out += "]";
        return out;
    };
    if (!finite(b.def.position) || !std::isfinite(b.rotation->c) || !std::isfinite(b.rotation->s) ||
        !finite(b.def.linearVelocity) || !std::isfinite(b.def.angularVelocity)) {
        throw SceneError::unsavable(
            desc.file, who + " has a state that is not finite: position " + vec(b.def.position) +
                           ", linear velocity " + vec(b.def.linearVelocity) +
                           ", angular velocity " + formatFloat(b.def.angularVelocity));
    }
    try {
        validatePosition(b.def.position);  // the loader's rule for a position
    } catch (const carom::Error&) {
        throw SceneError::unsavable(desc.file,
                                    who + " is at " + vec(b.def.position) +
                                        ", beyond the +-1e6 m that a scene file can hold");
    }
}

// ---- world settings ----------------------------------------------------------

const char* frictionMixingName(FrictionMixing m) {
    switch (m) {
        case FrictionMixing::GeometricMean:
            return "geometric_mean";
        case FrictionMixing::Min:
            return "min";
        case FrictionMixing::Max:
            return "max";
        case FrictionMixing::Average:
            return "average";
    }
    return "geometric_mean";
}

const char* restitutionMixingName(RestitutionMixing m) {
    switch (m) {
        case RestitutionMixing::Max:
            return "max";
        case RestitutionMixing::Min:
            return "min";
        case RestitutionMixing::GeometricMean:
            return "geometric_mean";
        case RestitutionMixing::Average:
            return "average";
    }
    return "max";
}

// The `world` object: the format's keys always, the additions where they
// differ from the defaults.
void writeWorldSettings(JsonWriter& j, const World& w, double timestep, int substeps, int threads) {
    const WorldDef& d = w.def();
    const WorldDef defaults{};
    j.key("world").beginObject();
    j.key("gravity").value(w.gravity());
    j.key("timestep").value(timestep);
    j.key("substeps").value(substeps);
    j.key("broadphase").value(w.broadphaseType() == BroadphaseType::SortAndSweep ? "sap" : "tree");
    j.key("sleep").value(d.enableSleep);
    j.key("continuous").value(d.enableContinuous);
    j.key("threads").value(threads);
    auto extra = [&](const char* key, float v, float def) {
        if (v != def) j.key(key).value(v);
    };
    extra("contact_hertz", d.contactHertz, defaults.contactHertz);
    extra("contact_damping_ratio", d.contactDampingRatio, defaults.contactDampingRatio);
    extra("joint_hertz", d.jointHertz, defaults.jointHertz);
    extra("joint_damping_ratio", d.jointDampingRatio, defaults.jointDampingRatio);
    extra("contact_push_max_speed", d.contactPushMaxSpeed, defaults.contactPushMaxSpeed);
    extra("restitution_threshold", d.restitutionThreshold, defaults.restitutionThreshold);
    extra("hit_event_threshold", d.hitEventThreshold, defaults.hitEventThreshold);
    extra("max_linear_speed", d.maxLinearSpeed, defaults.maxLinearSpeed);
    extra("contact_reuse_distance", d.contactReuseDistance, defaults.contactReuseDistance);
    extra("relax_shock_scale", d.tuning.relaxShockScale, defaults.tuning.relaxShockScale);
    extra("contact_leak_scale", d.tuning.contactLeakScale, defaults.tuning.contactLeakScale);
    if (d.frictionMixing != defaults.frictionMixing)
        j.key("friction_mixing").value(frictionMixingName(d.frictionMixing));
    if (d.restitutionMixing != defaults.restitutionMixing)
        j.key("restitution_mixing").value(restitutionMixingName(d.restitutionMixing));
    if (d.maxContacts != defaults.maxContacts) j.key("max_contacts").value(d.maxContacts);
    if (!d.enableWarmStarting) j.key("warm_starting").value(false);
    if (d.tuning.enableJointDirectSolve != defaults.tuning.enableJointDirectSolve)
        j.key("joint_direct_solve").value(d.tuning.enableJointDirectSolve);
    if (!d.joinTileSeams) j.key("tile_seams").value(false);
    if (d.tuning.contactRelaxPasses != defaults.tuning.contactRelaxPasses)
        j.key("contact_relax_passes").value(d.tuning.contactRelaxPasses);
    j.endObject();
}

// ---- names ------------------------------------------------------------------------

// Names for the file: the World's own, made unique (a later body with a name
// already used gets NAME~2, NAME~3, ...: scene names must be unique), plus
// made-up ones (_body0, ...) for unnamed bodies that joints refer to.
std::map<BodyId, std::string> fileNames(const World& w, const std::vector<BodyId>& bodies,
                                        const std::vector<JointId>& joints) {
    std::map<BodyId, std::string> names;
    std::set<std::string, std::less<>> used;
    for (BodyId id : bodies) {
        std::string_view n = w.name(id);
        if (!n.empty()) used.insert(std::string(n));
    }
    std::set<std::string, std::less<>> taken;
    for (BodyId id : bodies) {
        std::string n(w.name(id));
        if (n.empty()) continue;
        if (!taken.insert(n).second) {
            std::string unique;
            int k = 2;
            do {
                unique = n + "~" + std::to_string(k++);
            } while (used.count(unique));
            used.insert(unique);
            taken.insert(unique);
            n = unique;
        }
        names[id] = n;
    }
    int counter = 0;
    for (JointId jid : joints) {
        for (BodyId id : {w.jointBodyA(jid), w.jointBodyB(jid)}) {
            if (names.count(id)) continue;
            std::string n;
            do {
                n = "_body" + std::to_string(counter++);
            } while (used.count(n));
            used.insert(n);
            names[id] = n;
        }
    }
    return names;
}

// ---- events (a runner's pending ones) ---------------------------------------------

void writeEvents(JsonWriter& j, const SceneRunner& runner) {
    j.newline().key("events").beginArray();
    const auto& events = runner.desc().events;
    for (std::size_t k = events.size() - runner.pendingEvents(); k < events.size(); ++k) {
        const EventDesc& e = events[k];
        j.newline().beginObject();
        double t = e.time - runner.time();
        j.key("time").value(t > 0.0 ? t : 0.0);
        switch (e.action) {
            case EventAction::Impulse:
                j.key("action").value("impulse").key("body").value(e.body).key("impulse").value(
                    e.impulse);
                if (e.point) j.key("point").value(*e.point);
                break;
            case EventAction::SetVelocity:
                j.key("action").value("set_velocity").key("body").value(e.body);
                if (e.linearVelocity) j.key("linear_velocity").value(*e.linearVelocity);
                if (e.angularVelocity) j.key("angular_velocity").value(*e.angularVelocity);
                break;
            case EventAction::Spawn:
                j.key("action").value("spawn").key("bodies").beginArray();
                for (const BodyDesc& b : e.bodies) writeBody(j, b);
                j.endArray();
                if (!e.joints.empty()) {
                    j.key("joints").beginArray();
                    for (const JointDesc& jd : e.joints) writeJoint(j, jd);
                    j.endArray();
                }
                break;
            case EventAction::Destroy:
                j.key("action").value("destroy").key("body").value(e.body);
                break;
            case EventAction::Gravity:
                j.key("action").value("gravity").key("gravity").value(e.gravity);
                break;
            case EventAction::Explode:
                j.key("action").value("explode").key("position").value(e.explosion.position);
                j.key("radius").value(e.explosion.radius).key("falloff").value(e.explosion.falloff);
                j.key("impulse").value(e.explosion.impulsePerLength);
                if (e.explosion.maskBits != ~0ull)
                    j.key("mask").value(static_cast<uint64_t>(e.explosion.maskBits));
                break;
        }
        j.endObject();
    }
    j.endArray();
}

// ---- the warm section ------------------------------------------------------------

// A warm value that is not finite (a solver fault of the world: the
// engine's rules for a warm state, World::setWarmState, take finite numbers
// only) is refused by name and key rather than written as null.
void requireFiniteWarm(const std::string& file, const std::string& who, const char* key,
                       std::initializer_list<float> values) {
    for (float v : values) {
        if (std::isfinite(v)) continue;
        throw SceneError::unsavable(
            file, who + " has a " + key + " that is not finite (" +
                      (std::isnan(v) ? "NaN"
                       : v > 0.0f    ? "inf"
                                     : "-inf") +
                      "), which no file can hold; the world can still be saved without "
                      "its warm section");
    }
}

// World::warmState with ids replaced by positions in the file (WarmSection).
void writeWarm(JsonWriter& j, const World& w, const std::string& file,
               const std::vector<BodyId>& bodies, const std::vector<JointId>& joints,
               const std::map<ShapeId, std::pair<int, int>>& shapePos) {
    const WarmState s = w.warmState();
    std::map<BodyId, int> bodyPos;
    for (std::size_t k = 0; k < bodies.size(); ++k) bodyPos[bodies[k]] = static_cast<int>(k);
    std::map<JointId, int> jointPos;
    for (std::size_t k = 0; k < joints.size(); ++k) jointPos[joints[k]] = static_cast<int>(k);
    auto shapeRef = [&](ShapeId id) {
        const auto& p = shapePos.at(id);
        j.beginArray().value(p.first).value(p.second).endArray();
    };
    j.newline().key("warm").beginObject();
    j.newline().key("awake").beginArray();
    for (BodyId id : s.awakeBodies) j.value(bodyPos.at(id));
    j.endArray();
    j.newline().key("bodies").beginArray();
    for (const WarmBody& b : s.bodies) {
        const int pos = bodyPos.at(b.body);
        const std::string who = "the warm state of bodies[" + std::to_string(pos) + "]";
        requireFiniteWarm(file, who, "sleep time", {b.sleepTime});
        requireFiniteWarm(file, who, "force or torque", {b.force.x, b.force.y, b.torque});
        requireFiniteWarm(file, who, "centre of mass", {b.center.x, b.center.y});
        j.newline().beginObject().key("body").value(pos).key("sleep_time").value(b.sleepTime);
        j.key("center").value(b.center);
        if (b.fast) j.key("fast").value(true);
        if (b.force != Vec2{0.0f, 0.0f}) j.key("force").value(b.force);
        if (b.torque != 0.0f) j.key("torque").value(b.torque);
        j.endObject();
    }
    j.endArray();
    j.newline().key("shapes").beginArray();
    for (const WarmShape& sh : s.shapes) {
        requireFiniteWarm(file,
                          "the warm state of a shape of bodies[" +
                              std::to_string(shapePos.at(sh.shape).first) + "]",
                          "broadphase box",
                          {sh.fatAABB.lower.x, sh.fatAABB.lower.y, sh.fatAABB.upper.x,
                           sh.fatAABB.upper.y, sh.margin});
        j.newline().beginObject().key("shape");
        shapeRef(sh.shape);
        j.key("fat_box").beginArray().value(sh.fatAABB.lower).value(sh.fatAABB.upper).endArray();
        j.key("margin").value(sh.margin).endObject();
    }
    j.endArray();
    j.newline().key("contacts").beginArray();
    for (const WarmContact& c : s.contacts) {
        {
            const auto& a = shapePos.at(c.shapeA);
            const auto& b = shapePos.at(c.shapeB);
            const std::string who = "the contact of bodies[" + std::to_string(a.first) +
                                    "] and bodies[" + std::to_string(b.first) + "]";
            requireFiniteWarm(file, who, "normal or rolling impulse",
                              {c.normal.x, c.normal.y, c.rollingImpulse});
            for (int k = 0; k < c.pointCount; ++k) {
                const WarmContactPoint& p = c.points[k];
                requireFiniteWarm(file, who, "point",
                                  {p.normalImpulse, p.tangentImpulse, p.point.x, p.point.y,
                                   p.anchorA.x, p.anchorA.y, p.anchorB.x, p.anchorB.y, p.separation,
                                   p.totalNormalImpulse, p.normalVelocity});
            }
        }
        j.newline().beginObject().key("a");
        shapeRef(c.shapeA);
        j.key("b");
        shapeRef(c.shapeB);
        j.key("order").beginArray().value(c.orderA).value(c.orderB).endArray();
        if (c.pointCount > 0) {
            j.key("normal").value(c.normal);
            j.key("points").beginArray();
            for (int k = 0; k < c.pointCount; ++k) {
                const WarmContactPoint& p = c.points[k];
                j.beginObject().key("id").value(static_cast<int64_t>(p.id));
                j.key("normal_impulse").value(p.normalImpulse);
                j.key("tangent_impulse").value(p.tangentImpulse);
                j.key("point")
                    .value(p.point)
                    .key("anchor_a")
                    .value(p.anchorA)
                    .key("anchor_b")
                    .value(p.anchorB);
                j.key("separation").value(p.separation);
                j.key("total_normal_impulse").value(p.totalNormalImpulse);
                j.key("normal_velocity").value(p.normalVelocity);
                if (p.persisted) j.key("persisted").value(true);
                j.endObject();
            }
            j.endArray();
        }
        if (c.beginEventSent) j.key("begin_sent").value(true);
        if (c.rollingImpulse != 0.0f) j.key("rolling_impulse").value(c.rollingImpulse);
        if (c.cacheCount != 0) {
            j.key("cache").beginArray().value(c.cacheCount).beginArray();
            for (int k = 0; k < 3; ++k) j.value(static_cast<int>(c.cacheIndexA[k]));
            j.endArray().beginArray();
            for (int k = 0; k < 3; ++k) j.value(static_cast<int>(c.cacheIndexB[k]));
            j.endArray().endArray();
        }
        if (c.reuse.valid) {
            // The manifold reuse record (docs/scene-format.md, "Saving"):
            // rotations as [cos, sin], floats like every other warm float.
            const WarmContactReuse& u = c.reuse;
            j.key("reuse").beginObject();
            if (u.referenceIsB) j.key("reference_is_b").value(true);
            j.key("rotation_a").value(Vec2{u.rotationA.c, u.rotationA.s});
            j.key("rotation_b").value(Vec2{u.rotationB.c, u.rotationB.s});
            j.key("relative_center").value(u.relativeCenter);
            j.key("relative_rotation").value(Vec2{u.relativeRotation.c, u.relativeRotation.s});
            j.key("local_normal").value(u.localNormal);
            j.key("points").beginArray();
            for (int k = 0; k < u.pointCount; ++k) {
                j.beginObject()
                    .key("local_a")
                    .value(u.localPointA[k])
                    .key("local_b")
                    .value(u.localPointB[k]);
                j.key("base_separation").value(u.baseSeparation[k]).endObject();
            }
            j.endArray().endObject();
        }
        j.endObject();
    }
    j.endArray();
    j.newline().key("joints").beginArray();
    for (const WarmJoint& wj : s.joints) {
        auto it = jointPos.find(wj.joint);
        if (it == jointPos.end()) continue;
        const std::string who = "the warm state of joints[" + std::to_string(it->second) + "]";
        requireFiniteWarm(file, who, "linear impulse", {wj.linearImpulse.x, wj.linearImpulse.y});
        requireFiniteWarm(file, who, "angular impulse", {wj.angularImpulse});
        requireFiniteWarm(file, who, "perpendicular impulse", {wj.perpImpulse});
        requireFiniteWarm(file, who, "spring impulse", {wj.springImpulse});
        requireFiniteWarm(file, who, "motor impulse", {wj.motorImpulse});
        requireFiniteWarm(file, who, "limit impulse", {wj.lowerImpulse, wj.upperImpulse});
        requireFiniteWarm(file, who, "gear coordinate",
                          {wj.gearCoordinate[0], wj.gearCoordinate[1], wj.gearWrapped[0],
                           wj.gearWrapped[1], wj.gearConstant});
        j.newline().beginObject().key("joint").value(it->second);
        if (wj.linearImpulse != Vec2{0.0f, 0.0f}) j.key("linear_impulse").value(wj.linearImpulse);
        auto scalar = [&](const char* key, float v) {
            if (v != 0.0f) j.key(key).value(v);
        };
        scalar("angular_impulse", wj.angularImpulse);
        scalar("perp_impulse", wj.perpImpulse);
        scalar("spring_impulse", wj.springImpulse);
        scalar("motor_impulse", wj.motorImpulse);
        scalar("lower_impulse", wj.lowerImpulse);
        scalar("upper_impulse", wj.upperImpulse);
        if (wj.gear) {
            // What a gear counts from step to step (WarmJoint::gear).
            j.key("gear").beginObject();
            j.key("coordinates").value(Vec2{wj.gearCoordinate[0], wj.gearCoordinate[1]});
            j.key("wrapped").value(Vec2{wj.gearWrapped[0], wj.gearWrapped[1]});
            j.key("constant").value(wj.gearConstant).endObject();
        }
        j.endObject();
    }
    j.endArray();
    if (!s.sensors.empty()) {
        j.newline().key("sensors").beginArray();
        for (const WarmSensor& sn : s.sensors) {
            j.newline().beginObject().key("sensor");
            shapeRef(sn.sensor);
            j.key("overlaps").beginArray();
            for (ShapeId v : sn.overlaps) shapeRef(v);
            j.endArray().endObject();
        }
        j.endArray();
    }
    j.newline().key("islands").beginArray();
    for (const WarmIsland& isl : s.islands) {
        j.newline().beginObject().key("slot").value(isl.slot).key("awake").value(isl.awake);
        j.key("removed_links").value(isl.constraintRemoveCount).key("bodies").beginArray();
        for (BodyId id : isl.bodies) j.value(bodyPos.at(id));
        j.endArray().endObject();
    }
    j.endArray();
    j.newline().key("island_slots").value(s.islandSlots);
    j.newline().key("free_island_slots").beginArray();
    for (int f : s.freeIslandSlots) j.value(f);
    j.endArray();
    j.endObject();
}

// ---- the file ---------------------------------------------------------------------

// What a scene file holds beyond the World.
struct SceneHeader {
    std::string file;  ///< for messages
    std::string name;
    std::string description;
    double duration = 10.0;
    double timestep = 1.0 / 60.0;
    int substeps = 4;
    int threads = 1;
    std::optional<View> view;
};

// The one writer behind saveWorld and saveScene.
std::string writeScene(const World& w, const SceneHeader& h, const RunnerView& runner,
                       const SaveOptions& options) {
    const bool warm = options.warm;
    std::vector<BodyId> bodies = w.bodies();
    std::vector<JointId> joints;
    for (JointId jid : w.joints()) {
        if (options.mouseJoints || w.jointType(jid) != JointType::Mouse) joints.push_back(jid);
    }
    std::map<BodyId, std::string> names = fileNames(w, bodies, joints);
    auto nameOf = [&](BodyId id) -> std::optional<std::string> {
        auto it = names.find(id);
        if (it == names.end()) return std::nullopt;
        return it->second;
    };

    JsonWriter j;
    j.beginObject();
    j.key("carom").value(kFormatVersion);
    j.newline().key("name").value(h.name);
    if (!h.description.empty()) j.newline().key("description").value(h.description);
    j.newline().key("duration").value(h.duration);
    j.newline();
    writeWorldSettings(j, w, h.timestep, h.substeps, h.threads);
    if (h.view) {
        j.newline().key("view").beginObject().key("center").value(h.view->center);
        j.key("height").value(h.view->height).endObject();
    }

    SceneDesc forMessages;
    forMessages.file = h.file;
    std::map<ShapeId, std::pair<int, int>> shapePos;  // for the warm section
    j.newline().key("bodies").beginArray();
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        BodyDesc b = describeBody(w, bodies[k], nameOf(bodies[k]), runner);
        requireSavable(forMessages, b, k);
        if (warm) {
            std::vector<ShapeId> engine;
            shapeEntries(w, bodies[k], &engine);
            for (std::size_t s = 0; s < engine.size(); ++s)
                shapePos[engine[s]] = {static_cast<int>(k), static_cast<int>(s)};
        }
        j.newline();
        writeBody(j, b);
    }
    j.endArray();

    // Joint names: the scene's own, plus made-up ones for the joints a gear
    // names. A gear is created after its joints, so it is written after them.
    std::map<JointId, std::string> jointNames;
    std::set<std::string, std::less<>> usedJointNames;
    for (JointId jid : joints) {
        if (std::optional<std::string> n = runner.jointName(jid);
            n && usedJointNames.insert(*n).second)
            jointNames[jid] = *n;
    }
    int jointCounter = 0;
    for (JointId jid : joints) {
        if (w.jointType(jid) != JointType::Gear) continue;
        const GearJointDef g = w.gearJointDef(jid);
        for (JointId geared : {g.jointA, g.jointB}) {
            if (jointNames.count(geared)) continue;
            std::string n;
            do {
                n = "_joint" + std::to_string(jointCounter++);
            } while (usedJointNames.count(n));
            usedJointNames.insert(n);
            jointNames[geared] = n;
        }
    }

    j.newline().key("joints").beginArray();
    for (JointId jid : joints) {
        JointDesc d = describeJoint(w, jid);
        if (auto it = jointNames.find(jid); it != jointNames.end()) d.name = it->second;
        if (d.type == JointType::Gear) {
            const GearJointDef g = w.gearJointDef(jid);
            d.jointA = jointNames.at(g.jointA);
            d.jointB = jointNames.at(g.jointB);
        }
        d.a = names.at(w.jointBodyA(jid));
        d.b = names.at(w.jointBodyB(jid));
        j.newline();
        writeJoint(j, d);
    }
    j.endArray();

    if (runner.runner) writeEvents(j, *runner.runner);
    if (warm) writeWarm(j, w, h.file, bodies, joints, shapePos);
    j.endObject();
    std::string out = j.take();
    out += '\n';
    // The promise of save is a file that loads again: check it with the
    // loader itself, so that no rule of the format can be missed here.
    try {
        loadString(out, h.file);
    } catch (const SceneError& e) {
        throw SceneError::unsavable(
            h.file, "the world breaks a rule of scene files at " + e.path + ": " + e.message);
    }
    return out;
}

void writeFile(const std::string& text, const std::string& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw SceneError::io(path, std::string("cannot write the file: ") + std::strerror(errno));
    out << text;
    out.close();
    if (!out) throw SceneError::io(path, "cannot write the file");
}

SceneHeader worldHeader(const World& w, const SaveOptions& o, std::string file) {
    SceneHeader h;
    h.file = std::move(file);
    h.name = o.name.value_or("world");
    h.description = o.description.value_or("");
    h.duration = o.duration.value_or(10.0);
    h.timestep = o.timestep.value_or(1.0 / 60.0);
    h.substeps = w.def().substeps;
    h.threads = w.def().workerCount;
    return h;
}

SceneHeader runnerHeader(const SceneRunner& runner, const SaveOptions& o) {
    const SceneDesc& desc = runner.desc();
    SceneHeader h;
    h.file = desc.file;
    h.name = o.name.value_or(desc.name);
    h.description = o.description.value_or(desc.description);
    h.duration = o.duration.value_or(desc.duration);
    h.timestep = o.timestep.value_or(desc.world.timestep);
    h.substeps = desc.world.substeps;
    h.threads = desc.world.threads;
    h.view = runner.view();
    return h;
}

}  // namespace

std::string worldJson(const World& world, const SaveOptions& options) {
    return writeScene(world, worldHeader(world, options, options.name.value_or("world") + ".json"),
                      RunnerView{}, options);
}

void saveWorld(const World& world, const std::string& path, const SaveOptions& options) {
    writeFile(writeScene(world, worldHeader(world, options, path), RunnerView{}, options), path);
}

std::string sceneJson(const SceneRunner& runner, const SaveOptions& options) {
    return writeScene(runner.world(), runnerHeader(runner, options), RunnerView{&runner}, options);
}

void saveScene(const SceneRunner& runner, const std::string& path, const SaveOptions& options) {
    writeFile(sceneJson(runner, options), path);
}

}  // namespace carom::scene
