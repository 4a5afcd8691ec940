// SceneRunner: builds a World from a SceneDesc and plays its event script.
//
// Event timing (scene-format.md, "Events"): an event with time t is applied
// before the first step that starts at or after t. Step k starts at
// k * timestep, so the event goes before step k = ceil(t / timestep); the
// division is done in double and a millionth of a step of tolerance keeps
// t = 0.5 with timestep 1/60 at step 30 despite rounding.
#include <algorithm>
#include <cmath>

#include <carom/scene.hpp>

#include "joint_features.hpp"
#include "runner_impl.hpp"

namespace carom::scene {

namespace {

[[noreturn]] void engineRefused(const SceneDesc& d, const SourceLoc& loc, const carom::Error& e) {
    throw SceneError(d.file, loc.line, loc.column, loc.path.empty() ? "(root)" : loc.path,
                     std::string("refused by the engine: ") + e.what());
}

}  // namespace

SceneRunner::SceneRunner(const SceneDesc& desc, const RunOptions& options)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.desc = desc;
    WorldDef def = desc.world.worldDef();
    def.broadphase = options.broadphase.value_or(desc.world.broadphase);
    def.workerCount = options.threads.value_or(desc.world.threads);
    if (options.simd) def.simdWidth = *options.simd;
    try {
        m.world = std::make_unique<World>(def);
    } catch (const carom::Error& e) {
        engineRefused(desc, {1, 1, "world"}, e);
    }
    m.dt = static_cast<float>(desc.world.timestep);
    m.eventSteps.reserve(desc.events.size());
    for (const EventDesc& e : desc.events) {
        double k = std::ceil(e.time / desc.world.timestep - 1.0e-6);
        // Far-future events (beyond any run) are clamped rather than overflow.
        m.eventSteps.push_back(
            k < 0.0 ? 0 : (k > 9.0e15 ? static_cast<int64_t>(9.0e15) : static_cast<int64_t>(k)));
    }
    m.records.reserve(static_cast<std::size_t>(desc.totalBodies));
    for (const BodyDesc& b : desc.bodies) m.createBody(b);
    m.jointByName.clear();
    for (const JointDesc& j : desc.joints) m.createJoint(j);
    m.putSleepersToSleep();
    if (desc.warm) m.applyWarm(*desc.warm);
    m.installPreSolve();
    m.view = desc.view ? *desc.view : fitView();
}

SceneRunner::~SceneRunner() = default;
SceneRunner::SceneRunner(SceneRunner&&) noexcept = default;
SceneRunner& SceneRunner::operator=(SceneRunner&&) noexcept = default;

World& SceneRunner::world() {
    return *impl_->world;
}
const World& SceneRunner::world() const {
    return *impl_->world;
}
const SceneDesc& SceneRunner::desc() const {
    return impl_->desc;
}
std::int64_t SceneRunner::steps() const {
    return impl_->steps;
}
double SceneRunner::time() const {
    return static_cast<double>(impl_->steps) * impl_->desc.world.timestep;
}
float SceneRunner::timestep() const {
    return impl_->dt;
}
int SceneRunner::substeps() const {
    return impl_->desc.world.substeps;
}
const std::vector<SceneRunner::BodyRecord>& SceneRunner::bodies() const {
    return impl_->records;
}
std::size_t SceneRunner::pendingEvents() const {
    return impl_->desc.events.size() - impl_->nextEvent;
}
View SceneRunner::view() const {
    return impl_->view;
}

std::int64_t SceneRunner::stepsFor(double seconds) const {
    double n = std::round(seconds / impl_->desc.world.timestep);
    if (!(n > 0.0)) return 0;
    return n > 9.0e15 ? static_cast<std::int64_t>(9.0e15) : static_cast<std::int64_t>(n);
}

void SceneRunner::step() {
    Impl& m = *impl_;
    while (m.nextEvent < m.desc.events.size() && m.eventSteps[m.nextEvent] <= m.steps) {
        m.applyEvent(m.desc.events[m.nextEvent]);
        ++m.nextEvent;
    }
    // Shapes with the key `wind` get its force for this step, in creation
    // order, limited over this step's length (Wind::timeStep).
    for (const auto& [shape, wind] : m.winds) {
        Wind blow = wind;
        blow.timeStep = m.dt;
        m.world->applyWind(shape, blow);
    }
    // Platforms get this step's velocities; characters note what they stand
    // on, then move against the world as it is after the step.
    m.drivePlatforms();  // throws SceneError at a path the engine refuses to follow
    m.probeGround();
    m.world->step(m.dt, m.desc.world.substeps);
    m.moveCharacters();
    ++m.steps;
}

void SceneRunner::run(std::int64_t n) {
    for (std::int64_t k = 0; k < n; ++k) step();
}

BodyId SceneRunner::findBody(std::string_view name) const {
    auto it = impl_->byName.find(name);
    return it == impl_->byName.end() ? BodyId{} : it->second;
}

std::optional<std::string> SceneRunner::jointName(JointId id) const {
    auto it = impl_->jointNameById.find(id);
    if (it == impl_->jointNameById.end() || !impl_->world->isValid(id)) return std::nullopt;
    return it->second;
}

std::optional<std::string> SceneRunner::nameOf(BodyId id) const {
    auto it = impl_->nameById.find(id);
    if (it == impl_->nameById.end()) return std::nullopt;
    return it->second;
}

bool SceneRunner::isOneWay(ShapeId id) const {
    return std::binary_search(impl_->oneWay.begin(), impl_->oneWay.end(), id);
}

std::optional<Wind> SceneRunner::windOf(ShapeId id) const {
    for (const auto& [shape, wind] : impl_->winds)
        if (shape == id) return wind;
    return std::nullopt;
}

const BoxParams* SceneRunner::boxOf(ShapeId id) const {
    auto it = impl_->boxes.find(id);
    return it == impl_->boxes.end() ? nullptr : &it->second;
}

View SceneRunner::fitView() const {
    const World& w = *impl_->world;
    bool any = false;
    AABB box{};
    for (BodyId b : w.bodies()) {
        for (ShapeId s : w.shapes(b)) {
            AABB a = w.shapeAABB(s);
            box = any ? aabbUnion(box, a) : a;
            any = true;
        }
    }
    View v;
    if (!any) return v;
    Vec2 ext = aabbExtents(box);
    v.center = aabbCenter(box);
    // Fit a 16:9 window with a tenth of margin; never closer than 2 m.
    float h = std::max(2.0f * ext.y, 2.0f * ext.x * 9.0f / 16.0f) * 1.1f;
    v.height = std::max(h, 2.0f);
    return v;
}

// ---- Impl -----------------------------------------------------------------------

// The `warm` section names bodies, shapes and joints by their positions in
// the file (WarmSection); here they become this world's ids. The world was
// just built from the same file, so World::bodies() and World::joints() are
// in file order and each body's shapes in its file order.
void SceneRunner::Impl::applyWarm(const WarmSection& section) {
    World& w = *world;
    auto fail = [&](const std::string& message) -> void {
        throw SceneError(desc.file, section.loc.line, section.loc.column, "warm", message);
    };
    const std::vector<BodyId> bodyIds = w.bodies();
    const std::vector<JointId> jointIds = w.joints();
    std::vector<std::vector<ShapeId>> shapeIds(bodyIds.size());
    auto body = [&](BodyId fileRef) {
        if (fileRef.index < 0 || static_cast<std::size_t>(fileRef.index) >= bodyIds.size()) {
            fail("body " + std::to_string(fileRef.index) + " is not a body of the file");
        }
        return bodyIds[static_cast<std::size_t>(fileRef.index)];
    };
    auto shape = [&](ShapeId fileRef) {
        BodyId b = body(BodyId{static_cast<int32_t>(fileRef.generation), 0});
        auto& list = shapeIds[static_cast<std::size_t>(fileRef.generation)];
        if (list.empty()) list = w.shapes(b);
        if (fileRef.index < 0 || static_cast<std::size_t>(fileRef.index) >= list.size()) {
            fail("body " + std::to_string(fileRef.generation) + " has no shape " +
                 std::to_string(fileRef.index));
        }
        return list[static_cast<std::size_t>(fileRef.index)];
    };
    WarmState s = section.state;
    for (BodyId& id : s.awakeBodies) id = body(id);
    for (std::size_t k = 0; k < s.bodies.size(); ++k) {
        WarmBody& b = s.bodies[k];
        b.body = body(b.body);
        // A centre the file left out: the body's as built (WarmSection).
        if (k >= section.centerGiven.size() || !section.centerGiven[k])
            b.center = w.worldCenterOfMass(b.body);
    }
    for (WarmShape& sh : s.shapes) sh.shape = shape(sh.shape);
    for (WarmContact& c : s.contacts) {
        c.shapeA = shape(c.shapeA);
        c.shapeB = shape(c.shapeB);
    }
    for (WarmJoint& j : s.joints) {
        if (j.joint.index < 0 || static_cast<std::size_t>(j.joint.index) >= jointIds.size()) {
            fail("joint " + std::to_string(j.joint.index) + " is not a joint of the file");
        }
        j.joint = jointIds[static_cast<std::size_t>(j.joint.index)];
    }
    for (WarmSensor& sn : s.sensors) {
        sn.sensor = shape(sn.sensor);
        for (ShapeId& v : sn.overlaps) v = shape(v);
        // The engine keeps them sorted by id, which need not be the file's order.
        std::sort(sn.overlaps.begin(), sn.overlaps.end());
    }
    for (WarmIsland& isl : s.islands) {
        for (BodyId& id : isl.bodies) id = body(id);
    }
    try {
        w.setWarmState(s);
    } catch (const carom::Error& e) {
        fail(std::string("refused by the engine: ") + e.what());
    }
}

void SceneRunner::Impl::createBody(const BodyDesc& b) {
    World& w = *world;
    BodyId id{};
    bool addedOneWay = false;
    try {
        BodyDef def = b.def;
        if (b.name) def.name = *b.name;  // the World knows its bodies' names too
        id = w.createBody(def);
    } catch (const carom::Error& e) {
        engineRefused(desc, b.loc, e);
    }
    for (const ShapeDesc& s : b.shapes) {
        try {
            if (s.kind == ShapeKind::Chain) {
                const ChainDef cd = chainDefOf(s);
                w.createChain(id, cd);
            } else {
                ShapeId sid = w.createShape(id, s.def, s.geometry);
                if (s.oneWay) {
                    oneWay.insert(std::upper_bound(oneWay.begin(), oneWay.end(), sid), sid);
                    addedOneWay = true;
                }
                if (s.kind == ShapeKind::Box) boxes[sid] = s.box;
                if (s.wind) winds.emplace_back(sid, *s.wind);
            }
        } catch (const carom::Error& e) {
            engineRefused(desc, s.loc, e);
        }
    }
    try {
        if (b.mass) w.setMassData(id, *b.mass);
        if (b.rotation) setExactRotation(id, *b.rotation);
        // The engine keeps the velocity of the centre of mass and shifts it
        // when shapes move the centre; the file's velocities are those the
        // state reports, so they are set again once the shapes are in place.
        if (b.def.type != BodyType::Static) {
            if (w.linearVelocity(id) != b.def.linearVelocity)
                w.setLinearVelocity(id, b.def.linearVelocity);
            if (w.angularVelocity(id) != b.def.angularVelocity)
                w.setAngularVelocity(id, b.def.angularVelocity);
        }
    } catch (const carom::Error& e) {
        engineRefused(desc, b.loc, e);
    }
    if (addedOneWay) shareOneWay();
    if (b.character || b.path) {
        try {
            addGameplay(b, id);
        } catch (const carom::Error& e) {
            engineRefused(desc, b.character ? b.character->loc : b.path->loc, e);
        }
    }
    if (!b.def.isAwake && b.def.enableSleep && b.def.type != BodyType::Static)
        sleepers.push_back(id);
    records.push_back({id, b.name});
    if (b.name) {
        byName[*b.name] = id;
        nameById[id] = *b.name;
    }
}

void SceneRunner::Impl::createJoint(const JointDesc& j) {
    World& w = *world;
    BodyId a = byName.at(j.a);
    BodyId b = byName.at(j.b);
    // What every joint type takes from the file the same way.
    auto common = [&](JointBase& d) {
        d.collideConnected = j.collideConnected;
        d.forceThreshold = j.forceThreshold;
        d.torqueThreshold = j.torqueThreshold;
    };
    auto base = [&](JointBase& d, Vec2 worldA, Vec2 worldB) {
        d.bodyA = a;
        d.bodyB = b;
        d.localAnchorA = j.localAnchorA.value_or(w.localPoint(a, worldA));
        d.localAnchorB = j.localAnchorB.value_or(w.localPoint(b, worldB));
        common(d);
    };
    float relative = j.referenceAngle.value_or(relativeAngle(w.rotation(a), w.rotation(b)));
    JointId created{};
    try {
        switch (j.type) {
            case JointType::Revolute: {
                RevoluteJointDef d;
                base(d, j.anchor, j.anchor);
                d.referenceAngle = relative;
                detail::applyFeatures(d, j);
                created = w.createJoint(d);
                break;
            }
            case JointType::Prismatic: {
                PrismaticJointDef d;
                base(d, j.anchor, j.anchor);
                d.localAxisA = j.localAxisA.value_or(normalizeOrZero(w.localVector(a, j.axis)));
                d.referenceAngle = relative;
                detail::applyFeatures(d, j);
                created = w.createJoint(d);
                break;
            }
            case JointType::Distance: {
                DistanceJointDef d;
                base(d, j.anchorA, j.anchorB);
                d.length = j.length.value_or(distance(j.anchorA, j.anchorB));
                detail::applyFeatures(d, j);
                created = w.createJoint(d);
                break;
            }
            case JointType::Weld: {
                WeldJointDef d;
                base(d, j.anchor, j.anchor);
                d.referenceAngle = relative;
                d.linearHertz = j.linearHertz;
                d.angularHertz = j.angularHertz;
                d.linearDampingRatio = j.linearDampingRatio;
                d.angularDampingRatio = j.angularDampingRatio;
                created = w.createJoint(d);
                break;
            }
            case JointType::Wheel: {
                WheelJointDef d;
                base(d, j.anchor, j.anchor);
                d.localAxisA = j.localAxisA.value_or(normalizeOrZero(w.localVector(a, j.axis)));
                detail::applyFeatures(d, j);
                created = w.createJoint(d);
                break;
            }
            case JointType::Motor: {
                MotorJointDef d;
                d.bodyA = a;
                d.bodyB = b;
                common(d);
                d.linearOffset = j.linearOffset.value_or(w.localPoint(a, w.position(b)));
                d.angularOffset = j.angularOffset.value_or(relative);
                d.maxForce = j.maxForce;
                d.maxTorque = j.maxTorque;
                d.correctionFactor = j.correctionFactor;
                created = w.createJoint(d);
                break;
            }
            case JointType::Mouse: {
                MouseJointDef d;
                base(d, j.target, j.target);
                d.target = j.target;
                d.maxForce = j.maxForce;
                d.hertz = j.hertz;
                d.dampingRatio = j.dampingRatio;
                created = w.createJoint(d);
                break;
            }
            case JointType::Gear: {
                GearJointDef d;
                d.jointA = jointByName.at(j.jointA);
                d.jointB = jointByName.at(j.jointB);
                d.ratio = j.ratio;
                common(d);
                created = w.createJoint(d);
                break;
            }
            case JointType::Pulley: {
                PulleyJointDef d;
                base(d, j.anchorA, j.anchorB);
                d.groundAnchorA = j.groundAnchorA;
                d.groundAnchorB = j.groundAnchorB;
                d.lengthA = j.lengthA.value_or(distance(j.anchorA, j.groundAnchorA));
                d.lengthB = j.lengthB.value_or(distance(j.anchorB, j.groundAnchorB));
                d.ratio = j.ratio;
                created = w.createJoint(d);
                break;
            }
            case JointType::Rope: {
                RopeJointDef d;
                base(d, j.anchorA, j.anchorB);
                d.maxLength =
                    j.maxLength.value_or(std::max(distance(j.anchorA, j.anchorB), kLinearSlop));
                created = w.createJoint(d);
                break;
            }
            case JointType::Filter: {
                FilterJointDef d;
                base(d, w.position(a), w.position(b));
                created = w.createJoint(d);
                break;
            }
        }
        if (j.name && !created.isNull()) {
            jointByName[*j.name] = created;
            jointNameById[created] = *j.name;
        }
    } catch (const carom::Error& e) {
        engineRefused(desc, j.loc, e);
    }
}

void SceneRunner::Impl::applyEvent(const EventDesc& e) {
    World& w = *world;
    try {
        switch (e.action) {
            case EventAction::Impulse: {
                BodyId id = byName.at(e.body);
                if (e.point)
                    w.applyLinearImpulse(id, e.impulse, *e.point, true);
                else
                    w.applyLinearImpulseToCenter(id, e.impulse, true);
                break;
            }
            case EventAction::SetVelocity: {
                BodyId id = byName.at(e.body);
                if (e.linearVelocity) w.setLinearVelocity(id, *e.linearVelocity);
                if (e.angularVelocity) w.setAngularVelocity(id, *e.angularVelocity);
                if (w.bodyType(id) != BodyType::Static) w.setAwake(id, true);
                break;
            }
            case EventAction::Spawn:
                for (const BodyDesc& b : e.bodies) createBody(b);
                jointByName.clear();
                for (const JointDesc& j : e.joints) createJoint(j);
                putSleepersToSleep();
                break;
            case EventAction::Destroy: {
                BodyId id = byName.at(e.body);
                for (ShapeId s : w.shapes(id)) boxes.erase(s);
                forgetGameplay(id);
                w.destroyBody(id);
                byName.erase(e.body);
                nameById.erase(id);
                auto rec = std::find_if(records.begin(), records.end(),
                                        [&](const BodyRecord& r) { return r.id == id; });
                if (rec != records.end()) records.erase(rec);
                oneWay.erase(std::remove_if(oneWay.begin(), oneWay.end(),
                                            [&](ShapeId s) { return !w.isValid(s); }),
                             oneWay.end());
                winds.erase(std::remove_if(winds.begin(), winds.end(),
                                           [&](const auto& sw) { return !w.isValid(sw.first); }),
                            winds.end());
                shareOneWay();
                break;
            }
            case EventAction::Gravity:
                w.setGravity(e.gravity);
                break;
            case EventAction::Explode:
                w.explode(e.explosion);
                break;
        }
    } catch (const carom::Error& err) {
        engineRefused(desc, e.loc, err);
    }
}

// One-way platforms (project key `one_way`): a contact with a one-way shape
// is kept only while the other shape lies on the platform's +y side, that
// is while the contact normal, pointing away from the platform, is within
// about 18 degrees of the platform body's +y axis (Box2D's sample uses the
// same test). Anything rising through from below passes.
void SceneRunner::Impl::installPreSolve() {
    if (oneWay.empty() && !anyOneWayLater()) return;
    World* w = world.get();
    const std::vector<ShapeId>* platforms = &oneWay;
    w->setPreSolveCallback([w, platforms](ShapeId a, ShapeId b, const ContactData& c) {
        float sign = 0.0f;
        ShapeId platform{};
        if (std::binary_search(platforms->begin(), platforms->end(), a)) {
            sign = 1.0f;
            platform = a;
        } else if (std::binary_search(platforms->begin(), platforms->end(), b)) {
            sign = -1.0f;
            platform = b;
        } else {
            return true;
        }
        Rot q = w->rotation(w->shapeBody(platform));
        Vec2 up{-q.s, q.c};
        return sign * dot(c.normal, up) > 0.95f;
    });
}

// The saved `rotation` [c, s] is restored exactly: an angle would go through
// cos/sin again and could differ in the last bit from the saved state.
void SceneRunner::Impl::setExactRotation(BodyId id, Rot q) {
    World& w = *world;
    w.setTransform(id, Transform{w.position(id), q});
}

// Bodies the file says are asleep go to sleep once their shapes, velocities
// and joints exist (creating those may wake them). A saved island is asleep
// as a whole, so putting each such body's island to sleep restores it.
void SceneRunner::Impl::putSleepersToSleep() {
    for (BodyId id : sleepers) {
        if (world->isValid(id) && world->isAwake(id)) world->setAwake(id, false);
    }
    sleepers.clear();
}

bool SceneRunner::Impl::anyOneWayLater() const {
    for (const EventDesc& e : desc.events) {
        for (const BodyDesc& b : e.bodies) {
            for (const ShapeDesc& s : b.shapes) {
                if (s.oneWay) return true;
            }
        }
    }
    return false;
}

}  // namespace carom::scene
