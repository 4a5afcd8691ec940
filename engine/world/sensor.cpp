// Sensors: overlap reports without collision response.
//
// Sensors make no contacts (shouldCollide refuses them). Instead, after the
// step, each sensor asks the broadphase for the shapes whose boxes meet its
// fat box and keeps those that really overlap it (distance 0 between the
// rounded surfaces). The new set, sorted by shape id, is compared with the
// last step's by a merge walk: shapes only in the new set begin, shapes only
// in the old set end (including shapes destroyed since, whose ids are then
// stale — the events say which shape left, the game decides what that means).
// Sensors never see other sensors, nor shapes with enableSensorEvents off,
// nor shapes of their own body.
#include <algorithm>

#include "engine/world/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom::detail {

void updateSensors(WorldImpl& w) {
    for (Sensor& sn : w.sensors) {
        if (sn.shape < 0) continue;
        const Shape& ss = w.shapes[size_t(sn.shape)];
        const Body& sb = w.bodies[size_t(ss.body)];
        std::swap(sn.previous, sn.overlaps);
        sn.overlaps.clear();
        const ShapeRef sref = w.shapeRef(ss);
        w.broadphase.query(w.broadphase.fatAABB(ss.proxy), ~0ull, [&](int other) {
            const Shape& os = w.shapes[size_t(other)];
            if (os.body == ss.body || os.isSensor || !os.enableSensorEvents) return true;
            if (!filtersCollide(ss.filter, os.filter)) return true;
            if (!aabbOverlaps(ss.aabb, os.aabb)) return true;
            const DistanceResult d = shapeDistance(sref, sb.xf, w.shapeRef(os),
                                                   w.bodies[size_t(os.body)].xf, nullptr);
            if (d.distance <= 0.0f) sn.overlaps.push_back(w.shapeId(other));
            return true;
        });
        std::sort(sn.overlaps.begin(), sn.overlaps.end());
        const ShapeId sensorId = w.shapeId(sn.shape);
        size_t i = 0, j = 0;
        while (i < sn.overlaps.size() || j < sn.previous.size()) {
            if (j == sn.previous.size() || (i < sn.overlaps.size() && sn.overlaps[i] < sn.previous[j])) {
                w.sensorBeginEvents.push_back({sensorId, sn.overlaps[i++]});
            } else if (i == sn.overlaps.size() || sn.previous[j] < sn.overlaps[i]) {
                w.sensorEndEvents.push_back({sensorId, sn.previous[j++]});
            } else {
                ++i, ++j;
            }
        }
    }
}

}  // namespace carom::detail
