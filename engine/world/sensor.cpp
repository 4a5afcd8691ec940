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
//
// The budget (WorldDef::maxSensorOverlaps) bounds what the lists hold in
// all, as maxContacts bounds contacts: thousands of sensors over thousands
// of shapes at one point would otherwise keep every pair, step after step.
// Sensors are updated in table order; the one whose overlaps would pass the
// budget keeps its lowest shape ids (its list is sorted, so the choice does
// not depend on the broadphase), and the sensors after it are not queried
// at all that step: their lists are empty (end events for what they held).
// Each is counted in sensorsOverBudget. The step's sensor work is then
// bounded too: the queries stop where the budget is reached.
#include <algorithm>

#include "engine/world/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom::detail {

void updateSensors(WorldImpl& w) {
    int64_t room = w.def.maxSensorOverlaps;  // what the lists may still hold this step
    int overBudget = 0;
    std::vector<ShapeId>& found = w.scratch.sensorOverlaps;
    for (Sensor& sn : w.sensors) {
        if (sn.shape < 0) continue;
        const Shape& ss = w.shapes[size_t(sn.shape)];
        const Body& sb = w.bodies[size_t(ss.body)];
        std::swap(sn.previous, sn.overlaps);
        sn.overlaps.clear();
        found.clear();
        const bool skipped = room == 0;  // the budget is spent: not queried
        if (skipped) {
            ++overBudget;
        } else {
            const ShapeRef sref = w.shapeRef(ss);
            w.broadphase.query(w.broadphase.fatAABB(ss.proxy), ~0ull, [&](int other) {
                const Shape& os = w.shapes[size_t(other)];
                if (os.body == ss.body || os.isSensor || !os.enableSensorEvents) return true;
                if (!filtersCollide(ss.filter, os.filter)) return true;
                if (!aabbOverlaps(ss.aabb, os.aabb)) return true;
                const DistanceResult d = shapeDistance(sref, sb.xf, w.shapeRef(os),
                                                       w.bodies[size_t(os.body)].xf, nullptr);
                if (d.distance <= 0.0f) found.push_back(w.shapeId(other));
                return true;
            });
            std::sort(found.begin(), found.end());
            if (int64_t(found.size()) > room) {
                found.resize(size_t(room));
                ++overBudget;
            }
            room -= int64_t(found.size());
            // Copied from the scratch list: a sensor's own list grows to what
            // it keeps, not to everything it overlaps.
            sn.overlaps.assign(found.begin(), found.end());
        }
        const ShapeId sensorId = w.shapeId(sn.shape);
        size_t i = 0, j = 0;
        while (i < sn.overlaps.size() || j < sn.previous.size()) {
            if (j == sn.previous.size() ||
                (i < sn.overlaps.size() && sn.overlaps[i] < sn.previous[j])) {
                w.sensorBeginEvents.push_back({sensorId, sn.overlaps[i++]});
            } else if (i == sn.overlaps.size() || sn.previous[j] < sn.overlaps[i]) {
                w.sensorEndEvents.push_back({sensorId, sn.previous[j++]});
            } else {
                ++i, ++j;
            }
        }
        if (skipped) {  // its lists give their memory back while it is left out
            std::vector<ShapeId>().swap(sn.previous);
            std::vector<ShapeId>().swap(sn.overlaps);
        }
    }
    w.sensorsOverBudget = overBudget;
    if (overBudget > 0) w.sensorBudgetExceeded = true;
}

}  // namespace carom::detail
