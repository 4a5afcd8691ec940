// Shapes and chains: creation, destruction, geometry and material.
#include <algorithm>
#include <string>

#include <carom/validate.hpp>

#include "engine/core/assert.hpp"
#include "engine/core/rules.hpp"
#include "engine/world/listing.hpp"
#include "engine/world/world_impl.hpp"

namespace carom {
namespace detail {

Shape& WorldImpl::shape(ShapeId id, const char* field) {
    return const_cast<Shape&>(static_cast<const WorldImpl*>(this)->shape(id, field));
}
const Shape& WorldImpl::shape(ShapeId id, const char* field) const {
    if (id.index < 0 || size_t(id.index) >= shapes.size() || !shapes[size_t(id.index)].alive ||
        shapes[size_t(id.index)].generation != id.generation)
        refuseStale(field, "shape");
    return shapes[size_t(id.index)];
}
Chain& WorldImpl::chain(ChainId id, const char* field) {
    return const_cast<Chain&>(static_cast<const WorldImpl*>(this)->chain(id, field));
}
const Chain& WorldImpl::chain(ChainId id, const char* field) const {
    if (id.index < 0 || size_t(id.index) >= chains.size() || !chains[size_t(id.index)].alive ||
        chains[size_t(id.index)].generation != id.generation)
        refuseStale(field, "chain");
    return chains[size_t(id.index)];
}

ShapeRef WorldImpl::shapeRef(const Shape& s) const {
    switch (s.type) {
        case ShapeType::Circle:
            return makeRef(s.geom.circle);
        case ShapeType::Capsule:
            return makeRef(s.geom.capsule);
        case ShapeType::Segment:
            return makeRef(s.geom.segment);
        case ShapeType::Polygon:
            return s.polygon >= 0 ? makeRef(polygons[size_t(s.polygon)]) : makeRef(s.geom.polygon);
        case ShapeType::ChainSegment:
            return makeRef(s.geom.chainSegment);
        default:
            return {};
    }
}

ShapeGeometry WorldImpl::geometry(const Shape& s) const {
    switch (s.type) {
        case ShapeType::Circle:
            return s.geom.circle;
        case ShapeType::Capsule:
            return s.geom.capsule;
        case ShapeType::Segment:
            return s.geom.segment;
        case ShapeType::Polygon:
            return s.polygon >= 0 ? polygons[size_t(s.polygon)] : toPolygon(s.geom.polygon);
        case ShapeType::ChainSegment:
            return s.geom.chainSegment;
        default:
            return Circle{};
    }
}

AABB WorldImpl::computeShapeAABB(const Shape& s, const Transform& xf) const {
    switch (s.type) {
        case ShapeType::Circle:
            return computeAABB(s.geom.circle, xf);
        case ShapeType::Capsule:
            return computeAABB(s.geom.capsule, xf);
        case ShapeType::Segment:
            return computeAABB(s.geom.segment, xf);
        case ShapeType::Polygon: {
            if (s.polygon >= 0) return computeAABB(polygons[size_t(s.polygon)], xf);
            // As computeAABB(Polygon): the same arithmetic over the inline vertices.
            const InlinePolygon& p = s.geom.polygon;
            Vec2 lo = transformPoint(xf, p.vertices[0]), hi = lo;
            for (int i = 1; i < p.count; ++i) {
                const Vec2 v = transformPoint(xf, p.vertices[i]);
                lo = minVec(lo, v);
                hi = maxVec(hi, v);
            }
            const Vec2 r{p.radius, p.radius};
            return {lo - r, hi + r};
        }
        case ShapeType::ChainSegment:
            return computeAABB(s.geom.chainSegment, xf);
        default:
            return {};
    }
}

// Stores geometry g in shape slot s (validated by the caller).
static void storeGeometry(WorldImpl& w, Shape& s, const ShapeGeometry& g) {
    s.type = typeOf(g);
    const bool pooled =
        s.type == ShapeType::Polygon && std::get<Polygon>(g).count > kInlinePolygonVertices;
    if (!pooled && s.polygon >= 0) {
        w.freePolygons.push_back(s.polygon);
        s.polygon = -1;
    }
    switch (s.type) {
        case ShapeType::Circle:
            s.geom.circle = std::get<Circle>(g);
            break;
        case ShapeType::Capsule:
            s.geom.capsule = std::get<Capsule>(g);
            break;
        case ShapeType::Segment:
            s.geom.segment = std::get<Segment>(g);
            break;
        case ShapeType::ChainSegment:
            s.geom.chainSegment = std::get<ChainSegment>(g);
            break;
        case ShapeType::Polygon:
            if (!pooled) {
                s.geom.polygon = makeInlinePolygon(std::get<Polygon>(g));
                break;
            }
            if (s.polygon < 0) s.polygon = allocateSlot(w.polygons, w.freePolygons);
            w.polygons[size_t(s.polygon)] = std::get<Polygon>(g);
            break;
        default:
            break;
    }
}

int WorldImpl::addShape(int bodyIndex, const ShapeDef& d, const ShapeGeometry& g, int chainIndex) {
    int index = allocateSlot(shapes, freeShapes);
    // allocateSlot may have grown `shapes`: take references only now.
    Shape& s = shapes[size_t(index)];
    s.alive = true;
    s.body = bodyIndex;
    s.chain = chainIndex;
    storeGeometry(*this, s, g);
    s.density = d.density;
    s.friction = d.friction;
    s.restitution = d.restitution;
    s.rollingResistance = d.rollingResistance;
    s.isSensor = d.isSensor;
    s.enableContactEvents = d.enableContactEvents;
    s.enableSensorEvents = d.enableSensorEvents;
    s.enableHitEvents = d.enableHitEvents;
    s.enablePreSolveEvents = d.enablePreSolveEvents;
    s.tangentSpeed = d.tangentSpeed;
    s.userMaterialId = d.userMaterialId;
    s.filter = d.filter;
    s.userData = d.userData;
    auto& list = bodies[size_t(bodyIndex)].shapes;
    s.bodySlot = int(list.size());
    list.push_back(index);
    // A disabled body's shapes join the broadphase when it is enabled.
    if (bodies[size_t(bodyIndex)].enabled) createShapeProxy(*this, index);
    seamAddShape(*this, index);
    ++shapeCount;
    if (d.updateBodyMass) {
        addShapeMass(bodyIndex, index);
    } else {
        bodies[size_t(bodyIndex)].massSumsValid = false;  // the list has a shape the sums lack
        markExtentsDirty(bodyIndex);
    }
    return index;
}

void WorldImpl::removeShape(int shapeIndex, bool updateMass) {
    seamRemoveShape(*this, shapeIndex);
    destroyShapeContacts(*this, shapeIndex, true);
    destroyShapeProxy(*this, shapeIndex);
    Shape& s = shapes[size_t(shapeIndex)];
    int bodyIndex = s.body;
    if (s.polygon >= 0) freePolygons.push_back(s.polygon);  // pool slots carry no generation
    // O(1): the last shape of the list takes this one's place.
    auto& list = bodies[size_t(bodyIndex)].shapes;
    const int slot = s.bodySlot;
    CAROM_ASSERT(slot >= 0 && size_t(slot) < list.size() && list[size_t(slot)] == shapeIndex);
    list[size_t(slot)] = list.back();
    shapes[size_t(list[size_t(slot)])].bodySlot = slot;
    list.pop_back();
    releaseSlot(shapes, freeShapes, shapeIndex);
    --shapeCount;
    bodies[size_t(bodyIndex)].massSumsValid = false;
    if (updateMass)
        updateBodyMass(bodyIndex);
    else
        markExtentsDirty(bodyIndex);
    wakeBody(bodyIndex);
}

}  // namespace detail

using detail::Shape;

ShapeId World::createShape(BodyId body, const ShapeDef& def, const ShapeGeometry& g) {
    auto& w = live();
    w.checkUnlocked();
    w.body(body, "body");
    validate(def);
    if (typeOf(g) == ShapeType::ChainSegment)
        detail::refuseWhy("geometry", "chain segments are created with createChain");
    validate(g);
    // Adding a shape does not wake the body: a body made asleep (BodyDef::
    // isAwake = false) gets its shapes after creation and must stay asleep.
    // Contacts the new shape makes with awake or static bodies wake it.
    int index = w.addShape(body.index, def, g, -1);
    return w.shapeId(index);
}
ShapeId World::createShape(BodyId b, const ShapeDef& d, const Circle& g) {
    return createShape(b, d, ShapeGeometry{g});
}
ShapeId World::createShape(BodyId b, const ShapeDef& d, const Capsule& g) {
    return createShape(b, d, ShapeGeometry{g});
}
ShapeId World::createShape(BodyId b, const ShapeDef& d, const Segment& g) {
    return createShape(b, d, ShapeGeometry{g});
}
ShapeId World::createShape(BodyId b, const ShapeDef& d, const Polygon& g) {
    return createShape(b, d, ShapeGeometry{g});
}

void World::destroyShape(ShapeId id, bool updateBodyMass) {
    auto& w = live();
    w.checkUnlocked();
    const Shape& s = w.shape(id);
    if (s.chain >= 0) detail::refuseWhy("id", "chain segments are destroyed with destroyChain");
    w.removeShape(id.index, updateBodyMass);
}

bool World::isValid(ShapeId id) const {
    return id.index >= 0 && size_t(id.index) < live().shapes.size() &&
           live().shapes[size_t(id.index)].alive &&
           live().shapes[size_t(id.index)].generation == id.generation;
}

ChainId World::createChain(BodyId body, const ChainDef& d) {
    auto& w = live();
    w.checkUnlocked();
    w.body(body, "body");
    validate(d);
    const size_t n = d.points.size();
    ShapeDef sd;
    sd.density = 0.0f;
    sd.friction = d.friction;
    sd.restitution = d.restitution;
    sd.rollingResistance = d.rollingResistance;
    sd.filter = d.filter;
    sd.enableSensorEvents = d.enableSensorEvents;
    sd.userData = d.userData;
    sd.updateBodyMass = false;

    int chainIndex = detail::allocateSlot(w.chains, w.freeChains);
    w.chains[size_t(chainIndex)].alive = true;
    w.chains[size_t(chainIndex)].body = body.index;
    w.chains[size_t(chainIndex)].def = d;
    // One segment per edge; the ghost vertices are the neighbours along the
    // chain (for an open chain the end edges use their own end points).
    const size_t edges = d.isLoop ? n : n - 1;
    auto pt = [&](long i) {
        if (d.isLoop) return d.points[size_t((i % long(n) + long(n)) % long(n))];
        return d.points[size_t(std::clamp(i, 0L, long(n) - 1))];
    };
    for (size_t i = 0; i < edges; ++i) {
        ChainSegment cs;
        cs.segment = {pt(long(i)), pt(long(i) + 1)};
        cs.ghost1 = (d.isLoop || i > 0) ? pt(long(i) - 1) : cs.segment.point1;
        cs.ghost2 = (d.isLoop || i + 2 < n) ? pt(long(i) + 2) : cs.segment.point2;
        cs.chainIndex = chainIndex;
        int s = w.addShape(body.index, sd, cs, chainIndex);
        w.chains[size_t(chainIndex)].shapes.push_back(s);
    }
    w.bodies[size_t(body.index)].chains.push_back(chainIndex);
    return w.chainId(chainIndex);
}

void World::destroyChain(ChainId id) {
    auto& w = live();
    w.checkUnlocked();
    w.chain(id);
    std::vector<int> segs = w.chains[size_t(id.index)].shapes;
    int bodyIndex = w.chains[size_t(id.index)].body;
    for (int s : segs) w.removeShape(s, false);
    auto& list = w.bodies[size_t(bodyIndex)].chains;
    list.erase(std::find(list.begin(), list.end(), id.index));
    detail::releaseSlot(w.chains, w.freeChains, id.index);
}

bool World::isValid(ChainId id) const {
    return id.index >= 0 && size_t(id.index) < live().chains.size() &&
           live().chains[size_t(id.index)].alive &&
           live().chains[size_t(id.index)].generation == id.generation;
}
const ChainDef& World::chainDef(ChainId id) const {
    return live().chain(id).def;
}
namespace {
auto chainShapes(const detail::WorldImpl& w, ChainId id) {
    return [&w, &chain = w.chain(id)](auto& sink) {
        for (int s : chain.shapes) sink(w.shapeId(s));
    };
}
}  // namespace

std::vector<ShapeId> World::chainSegments(ChainId id) const {
    return detail::listAll<ShapeId>(chainShapes(live(), id));
}
int World::chainSegments(ChainId id, std::span<ShapeId> out) const {
    return detail::listInto(out, chainShapes(live(), id));
}

ShapeType World::shapeType(ShapeId id) const {
    return live().shape(id).type;
}
BodyId World::shapeBody(ShapeId id) const {
    return live().bodyId(live().shape(id).body);
}
ShapeGeometry World::geometry(ShapeId id) const {
    return live().geometry(live().shape(id));
}

void World::setGeometry(ShapeId id, const ShapeGeometry& g) {
    auto& w = live();
    w.checkUnlocked();
    Shape& s = w.shape(id);
    if (s.chain >= 0 || typeOf(g) == ShapeType::ChainSegment)
        detail::refuseWhy("geometry", "chain segment geometry cannot be replaced");
    validate(g);
    // New geometry, new proxy: old manifolds and fat box mean nothing now.
    detail::destroyShapeContacts(w, id.index, true);
    detail::destroyShapeProxy(w, id.index);
    detail::seamRemoveShape(w, id.index);
    detail::storeGeometry(w, s, g);
    if (w.bodies[size_t(s.body)].enabled)
        detail::createShapeProxy(w, id.index);
    else
        s.aabb = w.computeShapeAABB(s, w.bodies[size_t(s.body)].xf);
    detail::seamAddShape(w, id.index);
    w.updateBodyMass(s.body);
    w.wakeBody(s.body);
}

ShapeDef World::shapeDef(ShapeId id) const {
    const Shape& s = live().shape(id);
    ShapeDef d;
    d.density = s.density;
    d.friction = s.friction;
    d.restitution = s.restitution;
    d.rollingResistance = s.rollingResistance;
    d.isSensor = s.isSensor;
    d.filter = s.filter;
    d.enableContactEvents = s.enableContactEvents;
    d.enableSensorEvents = s.enableSensorEvents;
    d.enableHitEvents = s.enableHitEvents;
    d.enablePreSolveEvents = s.enablePreSolveEvents;
    d.tangentSpeed = s.tangentSpeed;
    d.userMaterialId = s.userMaterialId;
    d.userData = s.userData;
    return d;
}

bool World::isSensor(ShapeId id) const {
    return live().shape(id).isSensor;
}

void World::setDensity(ShapeId id, float density, bool updateBodyMass) {
    live().checkUnlocked();
    Shape& s = live().shape(id);
    detail::requireDensity(density, "density");
    s.density = density;
    live().bodies[size_t(s.body)].massSumsValid = false;
    if (updateBodyMass) live().updateBodyMass(s.body);
}
void World::setFriction(ShapeId id, float v) {
    live().checkUnlocked();
    Shape& s = live().shape(id);
    detail::requireCoefficient(v, "friction");
    detail::setMixInput(live(), s.friction, v, id.index);  // contacts keep a mixed copy
}
void World::setRestitution(ShapeId id, float v) {
    live().checkUnlocked();
    Shape& s = live().shape(id);
    detail::requireCoefficient(v, "restitution");
    detail::setMixInput(live(), s.restitution, v, id.index);  // contacts keep a mixed copy
}
void World::setRollingResistance(ShapeId id, float v) {
    live().checkUnlocked();
    Shape& s = live().shape(id);
    detail::requireCoefficient(v, "resistance");
    s.rollingResistance = v;
    detail::refreshShapeContactSurfaces(live(),
                                        id.index);  // contacts keep the product with the radius
}
void World::setFilter(ShapeId id, const Filter& f) {
    live().checkUnlocked();
    Shape& s = live().shape(id);
    // Refiltering drops the shape's contacts and searches its pairs again.
    detail::destroyShapeContacts(live(), id.index, true);
    s.filter = f;
    if (s.proxy >= 0) {
        live().broadphase.setCategoryBits(s.proxy, f.categoryBits);
        live().broadphase.setPairMask(s.proxy, detail::pairMaskOf(s));
        live().broadphase.touchProxy(s.proxy);
    }
    live().wakeBody(s.body);
}
// Event flags: the shape's contacts take the new flags at once; what they
// gate happens in the next step (see world.hpp for the pairing rule).
namespace {
template <class Member>
void setShapeFlag(detail::WorldImpl& w, ShapeId id, Member member, bool flag) {
    w.checkUnlocked();
    Shape& s = w.shape(id);
    s.*member = flag;
    detail::refreshShapeContactFlags(w, id.index);
}
}  // namespace

bool World::areContactEventsEnabled(ShapeId id) const {
    return live().shape(id).enableContactEvents;
}
void World::enableContactEvents(ShapeId id, bool flag) {
    setShapeFlag(live(), id, &Shape::enableContactEvents, flag);
}
bool World::areSensorEventsEnabled(ShapeId id) const {
    return live().shape(id).enableSensorEvents;
}
void World::enableSensorEvents(ShapeId id, bool flag) {
    setShapeFlag(live(), id, &Shape::enableSensorEvents, flag);
}
bool World::areHitEventsEnabled(ShapeId id) const {
    return live().shape(id).enableHitEvents;
}
void World::enableHitEvents(ShapeId id, bool flag) {
    setShapeFlag(live(), id, &Shape::enableHitEvents, flag);
}
bool World::arePreSolveEventsEnabled(ShapeId id) const {
    return live().shape(id).enablePreSolveEvents;
}
void World::enablePreSolveEvents(ShapeId id, bool flag) {
    setShapeFlag(live(), id, &Shape::enablePreSolveEvents, flag);
}

float World::tangentSpeed(ShapeId id) const {
    return live().shape(id).tangentSpeed;
}
void World::setTangentSpeed(ShapeId id, float speed) {
    live().checkUnlocked();
    Shape& s = live().shape(id);
    detail::requireTangentSpeed(speed, "speed");
    s.tangentSpeed = speed;
    detail::refreshShapeContactSurfaces(live(), id.index);  // contacts keep the sum
    // A belt that starts moving must carry what sleeps on it.
    if (speed != 0.0f) live().wakeBody(s.body);
    for (int ci : live().bodies[size_t(s.body)].contacts) {
        const auto& c = live().contacts[size_t(ci)];
        if (c.shapeA == id.index || c.shapeB == id.index) {
            live().wakeBody(c.bodyA);
            live().wakeBody(c.bodyB);
        }
    }
}
uint64_t World::userMaterialId(ShapeId id) const {
    return live().shape(id).userMaterialId;
}

void* World::userData(ShapeId id) const {
    return live().shape(id).userData;
}
void World::setUserData(ShapeId id, void* data) {
    live().shape(id).userData = data;
}
AABB World::shapeAABB(ShapeId id) const {
    return live().shape(id).aabb;
}

bool World::containsPoint(ShapeId id, Vec2 p) const {
    const Shape& s = live().shape(id);
    if (!isFinite(p)) detail::refuse("worldPoint", "finite", detail::formatVec(p));
    Vec2 local = invTransformPoint(live().bodies[size_t(s.body)].xf, p);
    return carom::containsPoint(live().geometry(s), local);
}

CastOutput World::rayCast(ShapeId id, Vec2 origin, Vec2 translation) const {
    const Shape& s = live().shape(id);
    if (!isFinite(origin)) detail::refuse("origin", "finite", detail::formatVec(origin));
    if (!isFinite(translation))
        detail::refuse("translation", "finite", detail::formatVec(translation));
    return carom::rayCast(RayCastInput{origin, translation, 1.0f}, live().geometry(s),
                          live().bodies[size_t(s.body)].xf);
}

}  // namespace carom
