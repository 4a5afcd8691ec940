// Keeping the broadphase, contacts and islands in step with the object
// lifecycle (shape and body changes made through the World API).
#include <algorithm>
#include <cmath>

#include "engine/world/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom::detail {

ProxyType proxyTypeOf(BodyType t) {
    switch (t) {
        case BodyType::Static:
            return ProxyType::Static;
        case BodyType::Kinematic:
            return ProxyType::Kinematic;
        default:
            return ProxyType::Dynamic;
    }
}

namespace {

// Half the thinnest dimension of a shape seen from its centroid: how far the
// body may move in a step before it could skip over something.
float shapeMinExtent(const WorldImpl& w, const Shape& s) {
    switch (s.type) {
        case ShapeType::Circle:
            return s.geom.circle.radius;
        case ShapeType::Capsule:
            return s.geom.capsule.radius;
        case ShapeType::Polygon: {
            const PolygonParts p = polygonParts(w.shapeRef(s));
            float m = 3.4e38f;
            for (int i = 0; i < p.count; ++i)
                m = std::min(m, dot(p.normals[i], p.vertices[i] - p.centroid));
            return m + p.radius;
        }
        default:
            return 0.0f;
    }
}

}  // namespace

void updateBodyExtents(WorldImpl& w, int bodyIndex) {
    Body& b = w.bodies[size_t(bodyIndex)];
    float minExtent = 3.4e38f, maxExtent = 0.0f;
    for (int si : b.shapes) {
        const Shape& s = w.shapes[size_t(si)];
        minExtent = std::min(minExtent, shapeMinExtent(w, s));
        maxExtent = std::max(maxExtent, shapeExtent(w.shapeRef(s), b.localCenter));
    }
    b.minExtent = b.shapes.empty() ? 0.0f : minExtent;
    b.maxExtent = maxExtent;
}

void createShapeProxy(WorldImpl& w, int shapeIndex) {
    Shape& s = w.shapes[size_t(shapeIndex)];
    const Body& b = w.bodies[size_t(s.body)];
    s.aabb = w.computeShapeAABB(s, b.xf);
    s.proxy = w.broadphase.createProxy(s.aabb, proxyTypeOf(b.type), shapeIndex,
                                       s.filter.categoryBits, pairMaskOf(s));
    if (s.isSensor && s.sensorIndex < 0) {
        int index;
        if (!w.freeSensors.empty()) {
            index = w.freeSensors.back();
            w.freeSensors.pop_back();
        } else {
            w.sensors.emplace_back();
            index = int(w.sensors.size()) - 1;
        }
        w.sensors[size_t(index)].shape = shapeIndex;
        w.sensors[size_t(index)].overlaps.clear();
        w.sensors[size_t(index)].previous.clear();
        s.sensorIndex = index;
    }
}

void destroyShapeProxy(WorldImpl& w, int shapeIndex) {
    Shape& s = w.shapes[size_t(shapeIndex)];
    if (s.proxy >= 0) w.broadphase.destroyProxy(s.proxy);
    s.proxy = -1;
    if (s.sensorIndex >= 0) {
        Sensor& sn = w.sensors[size_t(s.sensorIndex)];
        for (ShapeId v : sn.overlaps) {
            SensorEndEvent e{w.shapeId(shapeIndex), v};
            if (w.stepping)
                w.sensorEndEvents.push_back(e);
            else
                w.pendingSensorEndEvents.push_back(e);
        }
        sn.shape = -1;
        sn.overlaps.clear();
        sn.previous.clear();
        w.freeSensors.push_back(s.sensorIndex);
        s.sensorIndex = -1;
    }
}

void resyncBodyProxies(WorldImpl& w, int bodyIndex) {
    Body& b = w.bodies[size_t(bodyIndex)];
    for (int si : b.shapes) {
        Shape& s = w.shapes[size_t(si)];
        s.aabb = w.computeShapeAABB(s, b.xf);
        if (s.proxy < 0) continue;
        w.broadphase.moveProxy(s.proxy, s.aabb, {0.0f, 0.0f});
        w.broadphase.touchProxy(s.proxy);
    }
    // Bodies resting on a teleported body must notice it is gone.
    for (size_t k = 0; k < b.contacts.size(); ++k) {
        const Contact& c = w.contacts[size_t(b.contacts[k])];
        w.wakeBody(c.bodyA == bodyIndex ? c.bodyB : c.bodyA);
    }
}

}  // namespace carom::detail
