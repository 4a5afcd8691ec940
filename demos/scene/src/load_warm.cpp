// The project key `warm` (scene-format.md, "Saving"): the solver state a
// saved world carries so that its reload steps to the same bits. Parsed here
// into a WarmSection by file positions; positions are checked against the
// scene, and the engine's own rules (World::setWarmState) when the runner
// applies it.
#include <limits>

#include "loader.hpp"

namespace carom::scene::detail {

namespace {

// Engine shapes per body of the file: a chain counts as its segments, and a
// `character` as the capsule the runner gives it (after the body's shapes,
// of which a character has none).
std::vector<int> engineShapeCounts(const SceneDesc& scene) {
    std::vector<int> counts;
    counts.reserve(scene.bodies.size());
    for (const BodyDesc& b : scene.bodies) {
        int n = b.character ? 1 : 0;
        for (const ShapeDesc& s : b.shapes) {
            if (s.kind != ShapeKind::Chain)
                ++n;
            else
                n += static_cast<int>(s.chainPoints.size()) - (s.chainLoop ? 0 : 1);
        }
        counts.push_back(n);
    }
    return counts;
}

struct Refs {
    const Reader& r;
    const SceneDesc& scene;
    std::vector<int> shapeCounts;

    int64_t index(const Node& n, const std::string& path, std::size_t count,
                  const char* what) const {
        int64_t k = asInteger(r, n, path);
        if (k < 0 || static_cast<std::size_t>(k) >= count) {
            r.fail(n, path,
                   std::string("expected the position of a ") + what + " of the file, in [0, " +
                       std::to_string(count) + "), got " + describe(n));
        }
        return k;
    }
    BodyId body(const Node& n, const std::string& path) const {
        return BodyId{static_cast<int32_t>(index(n, path, scene.bodies.size(), "body")), 0};
    }
    // [body, shape]: the shape's position among its body's engine shapes.
    ShapeId shape(const Node& n, const std::string& path) const {
        const std::vector<Node>& pair = asArray(r, n, path);
        if (pair.size() != 2) r.fail(n, path, "expected [body, shape], got " + describe(n));
        BodyId b = body(pair[0], indexPath(path, 0));
        int64_t k = index(pair[1], indexPath(path, 1),
                          static_cast<std::size_t>(shapeCounts[static_cast<std::size_t>(b.index)]),
                          "shape of the body");
        return ShapeId{static_cast<int32_t>(k), static_cast<uint32_t>(b.index)};
    }
};

std::vector<int> intList(const Reader& r, const Node& n, const std::string& path, int64_t lo,
                         int64_t hi) {
    std::vector<int> out;
    const std::vector<Node>& items = asArray(r, n, path);
    out.reserve(items.size());
    for (std::size_t k = 0; k < items.size(); ++k) {
        int64_t v = asInteger(r, items[k], indexPath(path, k));
        if (v < lo || v > hi) {
            r.fail(items[k], indexPath(path, k),
                   "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                       "], got " + describe(items[k]));
        }
        out.push_back(static_cast<int>(v));
    }
    return out;
}

}  // namespace

WarmSection parseWarm(const Reader& r, const Node& node, const SceneDesc& scene) {
    Obj o(r, node, "warm",
          {"awake", "bodies", "shapes", "contacts", "joints", "sensors", "islands", "island_slots",
           "free_island_slots"});
    Refs refs{r, scene, engineShapeCounts(scene)};
    WarmSection section;
    section.loc = o.loc();
    WarmState& s = section.state;
    constexpr int64_t kMaxInt = std::numeric_limits<int32_t>::max();

    if (const Node* n = o.get("awake")) {
        const std::vector<Node>& items = asArray(r, *n, o.path("awake"));
        for (std::size_t k = 0; k < items.size(); ++k)
            s.awakeBodies.push_back(refs.body(items[k], indexPath(o.path("awake"), k)));
    }
    if (const Node* n = o.get("bodies")) {
        const std::vector<Node>& items = asArray(r, *n, o.path("bodies"));
        for (std::size_t k = 0; k < items.size(); ++k) {
            Obj b(r, items[k], indexPath(o.path("bodies"), k),
                  {"body", "sleep_time", "center", "fast", "force", "torque"});
            WarmBody wb;
            wb.body = refs.body(b.required("body"), b.path("body"));
            wb.sleepTime = b.nonNegative("sleep_time", 0.0f);
            wb.force = b.vec2("force", {0.0f, 0.0f});
            wb.torque = b.number("torque", 0.0f);
            // The solver's centre of mass: its rule (within rounding of the
            // body's origin plus its rotated local centre) is the engine's,
            // checked by World::setWarmState.
            section.centerGiven.push_back(b.get("center") != nullptr);
            wb.center = b.vec2("center", {0.0f, 0.0f});
            wb.fast = b.flag("fast", false);
            s.bodies.push_back(wb);
        }
    }
    if (const Node* n = o.get("shapes")) {
        const std::vector<Node>& items = asArray(r, *n, o.path("shapes"));
        for (std::size_t k = 0; k < items.size(); ++k) {
            Obj sh(r, items[k], indexPath(o.path("shapes"), k), {"shape", "fat_box", "margin"});
            WarmShape ws;
            ws.shape = refs.shape(sh.required("shape"), sh.path("shape"));
            const std::vector<Node>& box = asArray(r, sh.required("fat_box"), sh.path("fat_box"));
            if (box.size() != 2)
                r.fail(*sh.get("fat_box"), sh.path("fat_box"),
                       "expected [[lower x, y], [upper x, y]]");
            ws.fatAABB.lower = asVec2(r, box[0], indexPath(sh.path("fat_box"), 0));
            ws.fatAABB.upper = asVec2(r, box[1], indexPath(sh.path("fat_box"), 1));
            sh.required("margin");
            ws.margin = sh.nonNegative("margin", 0.0f);
            s.shapes.push_back(ws);
        }
    }
    if (const Node* n = o.get("contacts")) {
        const std::vector<Node>& items = asArray(r, *n, o.path("contacts"));
        for (std::size_t k = 0; k < items.size(); ++k) {
            Obj c(r, items[k], indexPath(o.path("contacts"), k),
                  {"a", "b", "order", "normal", "points", "begin_sent", "rolling_impulse", "cache",
                   "reuse"});
            WarmContact wc;
            wc.shapeA = refs.shape(c.required("a"), c.path("a"));
            wc.shapeB = refs.shape(c.required("b"), c.path("b"));
            if (const Node* ord = c.get("order")) {
                std::vector<int> v = intList(r, *ord, c.path("order"), 0, kMaxInt);
                if (v.size() != 2)
                    r.fail(*ord, c.path("order"), "expected [position in a's body list, in b's]");
                wc.orderA = v[0];
                wc.orderB = v[1];
            }
            if (const Node* pts = c.get("points")) {
                const std::vector<Node>& list = asArray(r, *pts, c.path("points"));
                if (list.size() > 2) r.fail(*pts, c.path("points"), "expected at most 2 points");
                for (std::size_t p = 0; p < list.size(); ++p) {
                    Obj po(
                        r, list[p], indexPath(c.path("points"), p),
                        {"id", "normal_impulse", "tangent_impulse", "point", "anchor_a", "anchor_b",
                         "separation", "total_normal_impulse", "normal_velocity", "persisted"});
                    po.required("id");
                    WarmContactPoint& wp = wc.points[p];
                    wp.id = static_cast<uint32_t>(po.integer("id", 0, 0, 0xFFFF));
                    wp.normalImpulse = po.nonNegative("normal_impulse", 0.0f);
                    wp.tangentImpulse = po.number("tangent_impulse", 0.0f);
                    wp.point = po.vec2("point", {0.0f, 0.0f});
                    wp.anchorA = po.vec2("anchor_a", {0.0f, 0.0f});
                    wp.anchorB = po.vec2("anchor_b", {0.0f, 0.0f});
                    wp.separation = po.number("separation", 0.0f);
                    wp.totalNormalImpulse = po.number("total_normal_impulse", 0.0f);
                    wp.normalVelocity = po.number("normal_velocity", 0.0f);
                    wp.persisted = po.flag("persisted", false);
                }
                wc.pointCount = static_cast<int>(list.size());
                wc.touching = wc.pointCount > 0;
                if (wc.touching) wc.normal = asVec2(r, c.required("normal"), c.path("normal"));
            }
            wc.beginEventSent = c.flag("begin_sent", false);
            wc.rollingImpulse = c.number("rolling_impulse", 0.0f);
            if (const Node* cache = c.get("cache")) {
                // [count, [indexA x 3], [indexB x 3]]
                const std::vector<Node>& parts = asArray(r, *cache, c.path("cache"));
                if (parts.size() != 3)
                    r.fail(*cache, c.path("cache"), "expected [count, [a, a, a], [b, b, b]]");
                wc.cacheCount =
                    static_cast<int>(asInteger(r, parts[0], indexPath(c.path("cache"), 0)));
                if (wc.cacheCount < 0 || wc.cacheCount > 3)
                    r.fail(parts[0], indexPath(c.path("cache"), 0), "expected 0 to 3");
                std::vector<int> a = intList(r, parts[1], indexPath(c.path("cache"), 1), 0, 255);
                std::vector<int> b = intList(r, parts[2], indexPath(c.path("cache"), 2), 0, 255);
                if (a.size() != 3 || b.size() != 3)
                    r.fail(*cache, c.path("cache"), "expected three indices for each shape");
                for (std::size_t q = 0; q < 3; ++q) {
                    wc.cacheIndexA[q] = static_cast<uint8_t>(a[q]);
                    wc.cacheIndexB[q] = static_cast<uint8_t>(b[q]);
                }
            }
            if (const Node* reuse = c.get("reuse")) {
                // The manifold reuse record; its rules (unit rotations, bounds)
                // are the engine's, checked by World::setWarmState.
                Obj u(r, *reuse, c.path("reuse"),
                      {"reference_is_b", "rotation_a", "rotation_b", "relative_center",
                       "relative_rotation", "local_normal", "points"});
                WarmContactReuse& wr = wc.reuse;
                wr.valid = true;
                wr.referenceIsB = u.flag("reference_is_b", false);
                const Vec2 qa = asVec2(r, u.required("rotation_a"), u.path("rotation_a"));
                const Vec2 qb = asVec2(r, u.required("rotation_b"), u.path("rotation_b"));
                const Vec2 qr =
                    asVec2(r, u.required("relative_rotation"), u.path("relative_rotation"));
                wr.rotationA = Rot{qa.x, qa.y};
                wr.rotationB = Rot{qb.x, qb.y};
                wr.relativeRotation = Rot{qr.x, qr.y};
                wr.relativeCenter =
                    asVec2(r, u.required("relative_center"), u.path("relative_center"));
                wr.localNormal = asVec2(r, u.required("local_normal"), u.path("local_normal"));
                const std::vector<Node>& list = asArray(r, u.required("points"), u.path("points"));
                if (list.size() > 2)
                    r.fail(*u.get("points"), u.path("points"), "expected at most 2 points");
                for (std::size_t p = 0; p < list.size(); ++p) {
                    Obj po(r, list[p], indexPath(u.path("points"), p),
                           {"local_a", "local_b", "base_separation"});
                    wr.localPointA[p] = asVec2(r, po.required("local_a"), po.path("local_a"));
                    wr.localPointB[p] = asVec2(r, po.required("local_b"), po.path("local_b"));
                    wr.baseSeparation[p] =
                        asFloat(r, po.required("base_separation"), po.path("base_separation"));
                }
                wr.pointCount = static_cast<int>(list.size());
            }
            s.contacts.push_back(wc);
        }
    }
    if (const Node* n = o.get("joints")) {
        const std::vector<Node>& items = asArray(r, *n, o.path("joints"));
        for (std::size_t k = 0; k < items.size(); ++k) {
            Obj j(r, items[k], indexPath(o.path("joints"), k),
                  {"joint", "linear_impulse", "angular_impulse", "perp_impulse", "spring_impulse",
                   "motor_impulse", "lower_impulse", "upper_impulse", "gear"});
            WarmJoint wj;
            wj.joint.index = static_cast<int32_t>(
                refs.index(j.required("joint"), j.path("joint"), scene.joints.size(), "joint"));
            wj.linearImpulse = j.vec2("linear_impulse", {0.0f, 0.0f});
            wj.angularImpulse = j.number("angular_impulse", 0.0f);
            wj.perpImpulse = j.number("perp_impulse", 0.0f);
            wj.springImpulse = j.number("spring_impulse", 0.0f);
            wj.motorImpulse = j.number("motor_impulse", 0.0f);
            wj.lowerImpulse = j.number("lower_impulse", 0.0f);
            wj.upperImpulse = j.number("upper_impulse", 0.0f);
            if (const Node* gear = j.get("gear")) {
                // A gear's counted coordinates, last-seen angles and constant
                // (WarmJoint::gear); the engine checks the joint is a gear.
                Obj g(r, *gear, j.path("gear"), {"coordinates", "wrapped", "constant"});
                const Vec2 coordinates =
                    asVec2(r, g.required("coordinates"), g.path("coordinates"));
                const Vec2 wrapped = asVec2(r, g.required("wrapped"), g.path("wrapped"));
                wj.gear = true;
                wj.gearCoordinate[0] = coordinates.x;
                wj.gearCoordinate[1] = coordinates.y;
                wj.gearWrapped[0] = wrapped.x;
                wj.gearWrapped[1] = wrapped.y;
                wj.gearConstant = asFloat(r, g.required("constant"), g.path("constant"));
            }
            s.joints.push_back(wj);
        }
    }
    if (const Node* n = o.get("sensors")) {
        const std::vector<Node>& items = asArray(r, *n, o.path("sensors"));
        for (std::size_t k = 0; k < items.size(); ++k) {
            Obj so(r, items[k], indexPath(o.path("sensors"), k), {"sensor", "overlaps"});
            WarmSensor ws;
            ws.sensor = refs.shape(so.required("sensor"), so.path("sensor"));
            const std::vector<Node>& list =
                asArray(r, so.required("overlaps"), so.path("overlaps"));
            for (std::size_t v = 0; v < list.size(); ++v)
                ws.overlaps.push_back(refs.shape(list[v], indexPath(so.path("overlaps"), v)));
            s.sensors.push_back(std::move(ws));
        }
    }
    s.islandSlots = static_cast<int>(o.integer("island_slots", 0, 0, kMaxInt));
    if (const Node* n = o.get("free_island_slots")) {
        s.freeIslandSlots = intList(r, *n, o.path("free_island_slots"), 0, kMaxInt);
    }
    if (const Node* n = o.get("islands")) {
        const std::vector<Node>& items = asArray(r, *n, o.path("islands"));
        for (std::size_t k = 0; k < items.size(); ++k) {
            Obj i(r, items[k], indexPath(o.path("islands"), k),
                  {"slot", "awake", "removed_links", "bodies"});
            WarmIsland wi;
            i.required("slot");
            wi.slot = static_cast<int>(i.integer("slot", 0, 0, kMaxInt));
            wi.awake = i.flag("awake", true);
            wi.constraintRemoveCount = static_cast<int>(i.integer("removed_links", 0, 0, kMaxInt));
            const std::vector<Node>& bodies = asArray(r, i.required("bodies"), i.path("bodies"));
            for (std::size_t b = 0; b < bodies.size(); ++b)
                wi.bodies.push_back(refs.body(bodies[b], indexPath(i.path("bodies"), b)));
            s.islands.push_back(std::move(wi));
        }
    }
    return section;
}

}  // namespace carom::scene::detail
