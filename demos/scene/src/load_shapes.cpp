// Materials and shapes of scene files (scene-format.md, "Materials", "Shapes").
#include <algorithm>
#include <limits>

#include <carom/error.hpp>
#include <carom/geometry.hpp>
#include <carom/validate.hpp>

#include "loader.hpp"

namespace carom::scene::detail {

namespace {

constexpr std::string_view kShapeTypes[] = {"circle",  "capsule", "box",
                                            "polygon", "segment", "chain"};

std::vector<std::string_view> shapeKeys(ShapeKind kind) {
    std::vector<std::string_view> keys = {"type",       "material",        "density",
                                          "friction",   "restitution",     "rolling_resistance",
                                          "sensor",     "filter",          "one_way",
                                          "wind",       "contact_events",  "sensor_events",
                                          "hit_events", "pre_solve_events"};
    switch (kind) {
        case ShapeKind::Circle:
            keys.insert(keys.end(), {"radius", "center"});
            break;
        case ShapeKind::Capsule:
            keys.insert(keys.end(), {"p1", "p2", "radius"});
            break;
        case ShapeKind::Box:
            keys.insert(keys.end(), {"half_extents", "center", "angle", "radius"});
            break;
        case ShapeKind::Polygon:
            keys.insert(keys.end(), {"vertices", "radius"});
            break;
        case ShapeKind::Segment:
            keys.insert(keys.end(), {"p1", "p2"});
            break;
        case ShapeKind::Chain:
            keys.insert(keys.end(), {"points", "loop"});
            break;
    }
    // Per-shape settings a chain (ChainDef) does not have.
    if (kind != ShapeKind::Chain) keys.insert(keys.end(), {"tangent_speed", "material_id"});
    return keys;
}

// Reads a list of [x, y] points with a count range.
std::vector<Vec2> readPoints(const Obj& o, std::string_view key, std::size_t minCount,
                             std::size_t maxCount, const char* what) {
    const Node& n = o.required(key);
    std::string path = o.path(key);
    const std::vector<Node>& items = asArray(o.reader(), n, path);
    if (items.size() < minCount) {
        o.reader().fail(n, path,
                        std::string("expected ") + std::to_string(minCount) + " or more " + what +
                            ", got " + std::to_string(items.size()));
    }
    if (items.size() > maxCount) {
        o.reader().fail(n, path,
                        std::string("expected at most ") + std::to_string(maxCount) + " " + what +
                            ", got " + std::to_string(items.size()));
    }
    std::vector<Vec2> points;
    points.reserve(items.size());
    for (std::size_t k = 0; k < items.size(); ++k)
        points.push_back(asVec2(o.reader(), items[k], indexPath(path, k)));
    return points;
}

Filter parseFilter(const Reader& r, const Node& n, const std::string& path) {
    Obj o(r, n, path, {"category", "mask", "group"});
    Filter f{};
    if (const Node* c = o.get("category")) f.categoryBits = asBits(r, *c, o.path("category"));
    if (const Node* m = o.get("mask")) f.maskBits = asBits(r, *m, o.path("mask"));
    f.groupIndex = static_cast<int32_t>(o.integer("group", 0, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
    return f;
}

}  // namespace

MaterialMap parseMaterials(const Reader& r, const Node& node, const std::string& path) {
    requireObject(r, node, path);
    MaterialMap out;
    for (const Node::Member& m : node.members) {
        Material mat;
        // Each material on its own; one that fails is kept with the defaults
        // so that the shapes naming it are checked as usual (no cascade).
        const bool ok = r.attempt([&] {
            Obj o(r, m.value, childPath(path, m.key),
                  {"density", "friction", "restitution", "rolling_resistance"});
            mat.density = o.nonNegative("density", mat.density);
            mat.friction = o.nonNegative("friction", mat.friction);
            mat.restitution = o.nonNegative("restitution", mat.restitution);
            mat.rollingResistance = o.nonNegative("rolling_resistance", mat.rollingResistance);
            // The engine's ranges for a material (density within [1e-6, 1e6] or 0, ...).
            ShapeDef def;
            def.density = mat.density;
            def.friction = mat.friction;
            def.restitution = mat.restitution;
            def.rollingResistance = mat.rollingResistance;
            o.engineRule([&] { validate(def); });
        });
        out.emplace(m.key, ok ? mat : Material{});
    }
    return out;
}

ShapeDesc parseShape(const Reader& r, const Node& node, const std::string& path,
                     const MaterialMap* materials) {
    requireObject(r, node, path);
    const Node* typeNode = node.find("type");
    if (!typeNode) r.fail(node, path, "missing required key \"type\"");
    const std::string& type = asString(r, *typeNode, childPath(path, "type"));
    auto it = std::find(std::begin(kShapeTypes), std::end(kShapeTypes), type);
    if (it == std::end(kShapeTypes) || (!materials && type == "chain")) {
        std::string message = "expected \"circle\", \"capsule\", \"box\", \"polygon\", \"segment\"";
        message += materials ? " or \"chain\"" : " (chains are not supported in queries)";
        message += ", got \"" + type + "\"";
        std::string near = nearestKey(type, {std::begin(kShapeTypes), std::end(kShapeTypes)});
        if (!near.empty() && near != type) message += ", did you mean \"" + near + "\"?";
        r.fail(*typeNode, childPath(path, "type"), message);
    }
    ShapeDesc s;
    s.kind = static_cast<ShapeKind>(it - std::begin(kShapeTypes));
    Obj o(r, node, path, shapeKeys(s.kind));
    s.loc = o.loc();

    // Material: the named material, then per-shape overrides.
    Material mat;
    if (const Node* m = o.get("material")) {
        const std::string& name = asString(r, *m, o.path("material"));
        if (materials) {
            auto found = materials->find(name);
            if (found == materials->end()) {
                if (r.failed("materials"))
                    throw Cascade{};  // the section failed: its names are unknown
                std::vector<std::string_view> names;
                for (const auto& [k, v] : *materials) names.push_back(k);
                std::string message = "unknown material \"" + name + "\"";
                std::string near = nearestKey(name, names);
                if (!near.empty())
                    message += ", did you mean \"" + near + "\"?";
                else if (names.empty())
                    message += " (the file has no materials)";
                r.fail(*m, o.path("material"), message);
            }
            mat = found->second;
            s.material = name;
        }
    }
    mat.density = o.nonNegative("density", mat.density);
    mat.friction = o.nonNegative("friction", mat.friction);
    mat.restitution = o.nonNegative("restitution", mat.restitution);
    mat.rollingResistance = o.nonNegative("rolling_resistance", mat.rollingResistance);
    s.def.density = mat.density;
    s.def.friction = mat.friction;
    s.def.restitution = mat.restitution;
    s.def.rollingResistance = mat.rollingResistance;
    s.def.isSensor = o.flag("sensor", false);
    if (const Node* f = o.get("filter")) s.def.filter = parseFilter(r, *f, o.path("filter"));
    s.oneWay = o.flag("one_way", false);
    if (const Node* n = o.get("wind")) {
        Obj wo(r, *n, o.path("wind"), {"velocity", "drag", "lift", "density"});
        Wind wind;
        wind.velocity = wo.vec2("velocity", wind.velocity);
        wind.drag = wo.number("drag", wind.drag);
        wind.lift = wo.number("lift", wind.lift);
        wind.density = wo.number("density", wind.density);
        if (s.kind == ShapeKind::Chain)
            o.fail("wind", "a chain takes no wind; give the body another shape for it");
        wo.engineRule([&] { validate(wind); });
        s.wind = wind;
    }
    // Event switches (additions); a chain's segments report sensor overlaps
    // only when asked (ChainDef's default) and have no other switches.
    s.def.enableContactEvents = o.flag("contact_events", true);
    s.def.enableSensorEvents = o.flag("sensor_events", s.kind != ShapeKind::Chain);
    s.def.enableHitEvents = o.flag("hit_events", false);
    s.def.enablePreSolveEvents = o.flag("pre_solve_events", false) || s.oneWay;
    if (s.kind == ShapeKind::Chain) {
        for (std::string_view key : {"contact_events", "hit_events", "pre_solve_events"}) {
            if (o.has(key)) o.fail(key, "a chain has only the switch sensor_events");
        }
    }
    s.def.tangentSpeed = o.number("tangent_speed", 0.0f);
    if (const Node* id = o.get("material_id"))
        s.def.userMaterialId = asBits(r, *id, o.path("material_id"));
    // A shape's own material keys; the named material was checked with the materials.
    if (type != "chain")
        o.engineRule([&] { validate(s.def); }, {{"isSensor", "sensor"}}, "material");

    switch (s.kind) {
        case ShapeKind::Circle: {
            Circle c;
            o.required("radius");
            c.radius = o.positive("radius", 0.0f);
            c.center = o.vec2("center", {0.0f, 0.0f});
            o.engineRule([&] { validate(c); });
            s.geometry = c;
            break;
        }
        case ShapeKind::Capsule: {
            Capsule c;
            c.center1 = asVec2(r, o.required("p1"), o.path("p1"));
            c.center2 = asVec2(r, o.required("p2"), o.path("p2"));
            o.required("radius");
            c.radius = o.positive("radius", 0.0f);
            if (c.center1 == c.center2) o.fail("p2", "must differ from p1, got the same point");
            o.engineRule([&] { validate(c); }, {{"center1", "p1"}, {"center2", "p2"}});
            s.geometry = c;
            break;
        }
        case ShapeKind::Segment: {
            Segment g;
            g.point1 = asVec2(r, o.required("p1"), o.path("p1"));
            g.point2 = asVec2(r, o.required("p2"), o.path("p2"));
            if (g.point1 == g.point2) o.fail("p2", "must differ from p1, got the same point");
            o.engineRule([&] { validate(g); }, {{"point1", "p1"}, {"point2", "p2"}});
            s.geometry = g;
            break;
        }
        case ShapeKind::Box: {
            Vec2 h = asVec2(r, o.required("half_extents"), o.path("half_extents"));
            if (!(h.x > 0.0f) || !(h.y > 0.0f)) {
                o.fail("half_extents", "both half extents must be > 0, got [" +
                                           describe(o.get("half_extents")->items[0]) + ", " +
                                           describe(o.get("half_extents")->items[1]) + "]");
            }
            Vec2 center = o.vec2("center", {0.0f, 0.0f});
            float angle = o.number("angle", 0.0f);
            float radius = o.nonNegative("radius", 0.0f);
            s.box = BoxParams{h, center, angle, radius};
            const std::initializer_list<FieldKey> boxKeys = {{"hx", "half_extents"},
                                                             {"hy", "half_extents"},
                                                             {"vertices", "half_extents"},
                                                             {"centroid", "center"}};
            o.engineRule([&] { s.geometry = makeOffsetBox(h.x, h.y, center, angle, radius); },
                         boxKeys);
            o.engineRule([&] { validate(s.geometry); }, boxKeys);
            break;
        }
        case ShapeKind::Polygon: {
            std::vector<Vec2> points = readPoints(
                o, "vertices", 3, static_cast<std::size_t>(kMaxPolygonVertices), "vertices");
            float radius = o.nonNegative("radius", 0.0f);
            try {
                s.geometry = makePolygon(points, radius);
            } catch (const carom::Error& e) {
                if (e.field() == "radius") o.failEngine(e, {}, {});
                o.fail("vertices",
                       std::string("expected points whose convex hull has a positive area: ") +
                           e.what());
            }
            o.engineRule([&] { validate(s.geometry); },
                         {{"points", "vertices"}, {"centroid", "vertices"}});
            break;
        }
        case ShapeKind::Chain: {
            bool loop = o.flag("loop", false);
            s.chainPoints = readPoints(o, "points", loop ? 3 : 2,
                                       static_cast<std::size_t>(kMaxChainPoints), "points");
            s.chainLoop = loop;
            const std::vector<Node>& items = o.get("points")->items;
            for (std::size_t k = 1; k < s.chainPoints.size(); ++k) {
                if (s.chainPoints[k] == s.chainPoints[k - 1]) {
                    r.fail(items[k], indexPath(o.path("points"), k),
                           "must differ from the previous point, got the same point");
                }
            }
            if (loop && s.chainPoints.front() == s.chainPoints.back()) {
                r.fail(items.back(), indexPath(o.path("points"), items.size() - 1),
                       "a loop closes itself: the last point must differ from the first");
            }
            if (s.def.isSensor) o.fail("sensor", "a chain cannot be a sensor, got true");
            if (s.oneWay)
                o.fail("one_way", "a chain is one-sided already; one_way is for other shapes");
            const ChainDef cd = chainDefOf(s);
            o.engineRule([&] { validate(cd); }, {{"isLoop", "loop"}});
            break;
        }
    }
    return s;
}

Transform parseTransform(const Reader& r, const Node& node, const std::string& path) {
    Obj o(r, node, path, {"position", "angle"});
    return makeTransform(o.point("position", {0.0f, 0.0f}), o.number("angle", 0.0f));
}

}  // namespace carom::scene::detail

namespace carom::scene {

ChainDef chainDefOf(const ShapeDesc& shape) {
    ChainDef cd;
    cd.points = shape.chainPoints;
    cd.isLoop = shape.chainLoop;
    cd.friction = shape.def.friction;
    cd.restitution = shape.def.restitution;
    cd.rollingResistance = shape.def.rollingResistance;
    cd.filter = shape.def.filter;
    cd.enableSensorEvents = shape.def.enableSensorEvents;
    return cd;
}

}  // namespace carom::scene
