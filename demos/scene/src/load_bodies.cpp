// Bodies and generators of scene files (scene-format.md, "Bodies", "Generators").
#include <cmath>

#include <carom/validate.hpp>

#include "loader.hpp"

namespace carom::scene::detail {

namespace {

const std::vector<std::string_view> kBodyKeys = {"name",
                                                 "type",
                                                 "position",
                                                 "angle",
                                                 "linear_velocity",
                                                 "angular_velocity",
                                                 "linear_damping",
                                                 "angular_damping",
                                                 "gravity_scale",
                                                 "bullet",
                                                 "contact_reuse",
                                                 "fixed_rotation",
                                                 "awake",
                                                 "allow_sleep",
                                                 "shapes",
                                                 "rotation",
                                                 "enabled",
                                                 "motion_locks",
                                                 "sleep_threshold",
                                                 "mass",
                                                 "character",
                                                 "path"};

// Project keys `character` and `path`: both make a kinematic body of the
// runner's (a character keeps the type unless one is given).
void parseGameplayKeys(const Obj& o, BodyDesc& b) {
    const Reader& r = o.reader();
    const Node* character = o.get("character");
    const Node* path = o.get("path");
    if (!character && !path) return;
    const std::string_view key = character ? "character" : "path";
    if (character && path)
        o.fail("path", "a body is either a character or a platform on a path, not both");
    if (!o.has("type")) b.def.type = BodyType::Kinematic;
    if (b.def.type != BodyType::Kinematic) {
        o.fail("type", "a body with \"" + std::string(key) + "\" must be \"kinematic\"");
    }
    if (character) {
        b.character = parseCharacter(r, *character, o.path("character"));
        // The runner makes the capsule and moves the body itself.
        if (!b.shapes.empty())
            o.fail("shapes", "a character has no shapes: its capsule comes from radius and height");
        if (b.def.angle != 0.0f || b.def.angularVelocity != 0.0f) {
            o.fail(b.def.angle != 0.0f ? (o.has("rotation") ? "rotation" : "angle")
                                       : "angular_velocity",
                   "a character stays upright: its angle and angular velocity must be 0");
        }
        if (b.def.linearVelocity != Vec2{0.0f, 0.0f}) {
            o.fail("linear_velocity",
                   "a character is moved by its mover: give its velocity as character.velocity");
        }
        b.def.fixedRotation = true;
    } else {
        b.path = parsePath(r, *path, o.path("path"));
        // Without a position the platform starts where it is on its path.
        if (!o.has("position")) b.def.position = pathPoint(*b.path, b.path->at);
    }
}

// The body's own keys (all but its shapes, which parseBody checks one by one).
void parseBodyKeys(const Reader& r, const Node& node, const std::string& path, BodyDesc& b) {
    Obj o(r, node, path, kBodyKeys);
    if (const Node* n = o.get("name")) {
        b.name = asString(r, *n, o.path("name"));
        if (b.name->empty()) r.fail(*n, o.path("name"), "expected a non-empty name, got \"\"");
        // The engine's rule for a name (at most kMaxBodyNameLength bytes, no NUL), at the name.
        BodyDef named;
        named.name = *b.name;
        o.engineRule([&] { validate(named); });
    }
    std::string type = o.string("type", "dynamic");
    if (type == "static")
        b.def.type = BodyType::Static;
    else if (type == "kinematic")
        b.def.type = BodyType::Kinematic;
    else if (type == "dynamic")
        b.def.type = BodyType::Dynamic;
    else
        o.fail("type", "expected \"static\", \"kinematic\" or \"dynamic\", got \"" + type + "\"");
    b.def.position = o.point("position", {0.0f, 0.0f});
    b.def.angle = o.number("angle", 0.0f);
    b.def.linearVelocity = o.vec2("linear_velocity", {0.0f, 0.0f});
    b.def.angularVelocity = o.number("angular_velocity", 0.0f);
    b.def.linearDamping = o.nonNegative("linear_damping", 0.0f);
    b.def.angularDamping = o.nonNegative("angular_damping", 0.0f);
    b.def.gravityScale = o.number("gravity_scale", 1.0f);
    b.def.isBullet = o.flag("bullet", false);
    b.def.enableContactReuse = o.flag("contact_reuse", true);
    b.def.fixedRotation = o.flag("fixed_rotation", false);
    b.def.isAwake = o.flag("awake", true);
    b.def.enableSleep = o.flag("allow_sleep", true);
    b.def.isEnabled = o.flag("enabled", true);
    b.def.sleepThreshold = o.number("sleep_threshold", b.def.sleepThreshold);
    if (const Node* locks = o.get("motion_locks")) {
        Obj l(r, *locks, o.path("motion_locks"), {"linear_x", "linear_y", "angular_z"});
        b.def.motionLocks = {l.flag("linear_x", false), l.flag("linear_y", false),
                             l.flag("angular_z", false)};
    }
    if (const Node* m = o.get("mass")) {
        // Project key: World::setMassData's argument, applied after the shapes.
        Obj mo(r, *m, o.path("mass"), {"mass", "center", "inertia"});
        MassData md;
        mo.required("mass");
        md.mass = mo.positive("mass", 1.0f);
        md.center = mo.vec2("center", {0.0f, 0.0f});
        md.rotationalInertia = mo.nonNegative("inertia", 0.0f);
        mo.engineRule([&] { validate(md); }, {{"massData.mass", "mass"},
                                              {"massData.center", "center"},
                                              {"massData.rotationalInertia", "inertia"}});
        b.mass = md;
    }
    if (std::optional<Vec2> q = o.optVec2("rotation")) {
        o.engineRule([&] { validateRotation(Rot{q->x, q->y}); });
        b.rotation = Rot{q->x, q->y};
        b.def.angle = angleOf(*b.rotation);
    }
    o.engineRule([&] { validate(b.def); },
                 {{"isBullet", "bullet"},
                  {"fixedRotation", "fixed_rotation"},
                  {"isAwake", "awake"},
                  {"enableSleep", "allow_sleep"},
                  {"isEnabled", "enabled"},
                  {"sleepThreshold", "sleep_threshold"}},
                 "rotation");
    parseGameplayKeys(o, b);
}

// One entry of a body list: a body, or a generator and its copies.
void parseBodyEntry(const Reader& r, const Node& entry, const std::string& ep,
                    const MaterialMap& materials, int64_t& bodyBudget, NameSet& names,
                    std::vector<BodyDesc>& out) {
    requireObject(r, entry, ep);
    if (!entry.find("generate")) {
        if (bodyBudget < 1) {
            r.fail(entry, ep,
                   "a scene may create at most " + std::to_string(kMaxBodies) + " bodies");
        }
        out.push_back(parseBody(r, entry, ep, materials));
        if (out.back().name)
            names.add(r, *out.back().name, *entry.find("name"), childPath(ep, "name"), "name");
        --bodyBudget;
        return;
    }

    // A generator entry.
    const Node& kindNode = *entry.find("generate");
    const std::string& kind = asString(r, kindNode, childPath(ep, "generate"));
    bool grid = kind == "grid";
    if (!grid && kind != "pyramid") {
        r.fail(kindNode, childPath(ep, "generate"),
               "expected \"grid\" or \"pyramid\", got \"" + kind + "\"");
    }
    Obj o(r, entry, ep,
          grid ? std::vector<std::string_view>{"generate", "rows", "columns", "origin", "step",
                                               "body"}
               : std::vector<std::string_view>{"generate", "rows", "origin", "step", "body"});
    o.required("rows");
    if (grid) o.required("columns");
    int64_t rows = o.integer("rows", 0, 1, kMaxBodies);
    int64_t columns = grid ? o.integer("columns", 0, 1, kMaxBodies) : 0;
    int64_t count = grid ? rows * columns : rows * (rows + 1) / 2;
    // Refused before any copy is made (and before the template is parsed).
    if (count > bodyBudget) {
        r.fail(entry, ep,
               "this generator makes " + std::to_string(count) +
                   " bodies; a scene may create at most " + std::to_string(kMaxBodies) +
                   " bodies in all (" + std::to_string(bodyBudget) + " left)");
    }
    Vec2 origin = o.vec2("origin", {0.0f, 0.0f});
    Vec2 step = asVec2(r, o.required("step"), o.path("step"));
    BodyDesc proto = parseBody(r, o.required("body"), o.path("body"), materials);
    // The copies' names (NAME[index]) obey the rule for names too: the
    // longest is refused at the template's name (a name too long already
    // is refused there by parseBody).
    if (proto.name && proto.name->size() <= kMaxBodyNameLength) {
        const std::string last = *proto.name + "[" + std::to_string(count - 1) + "]";
        if (last.size() > kMaxBodyNameLength)
            r.fail(*o.get("body")->find("name"), childPath(o.path("body"), "name"),
                   "the name of copy " + std::to_string(count - 1) + ", \"" + last +
                       "\", would be " + std::to_string(last.size()) +
                       " bytes; a name has at most " + std::to_string(kMaxBodyNameLength) +
                       " bytes");
    }
    bodyBudget -= count;

    out.reserve(out.size() + static_cast<std::size_t>(count));
    int64_t index = 0;
    auto emit = [&](float ox, float oy) {
        BodyDesc copy = proto;
        copy.def.position = {proto.def.position.x + ox, proto.def.position.y + oy};
        try {
            validatePosition(copy.def.position);
        } catch (const carom::Error&) {
            r.fail(entry, ep, "copy " + std::to_string(index) + " lies beyond +-1e6 m");
        }
        if (proto.name) {
            copy.name = *proto.name + "[" + std::to_string(index) + "]";
            const Node& nameNode = *o.get("body")->find("name");
            names.add(r, *copy.name, nameNode, childPath(o.path("body"), "name"), "generated name");
        }
        copy.loc = o.loc();
        out.push_back(std::move(copy));
        ++index;
    };
    if (grid) {
        for (int64_t row = 0; row < rows; ++row) {
            for (int64_t c = 0; c < columns; ++c) {
                emit(origin.x + static_cast<float>(c) * step.x,
                     origin.y + static_cast<float>(row) * step.y);
            }
        }
    } else {
        for (int64_t row = 0; row < rows; ++row) {
            for (int64_t c = 0; c < rows - row; ++c) {
                float shift = static_cast<float>(c) + 0.5f * static_cast<float>(row);
                emit(origin.x + shift * step.x, origin.y + static_cast<float>(row) * step.y);
            }
        }
    }
}

}  // namespace

BodyDesc parseBody(const Reader& r, const Node& node, const std::string& path,
                   const MaterialMap& materials) {
    requireObject(r, node, path);
    BodyDesc b;
    b.loc = r.loc(node, path);
    // The name as written, kept even when a value of the body is wrong, so
    // that what names the body is checked as usual (no cascade).
    if (const Node* n = node.find("name"); n && n->kind == Node::Kind::String) b.name = n->text;
    // Each shape is checked on its own (its errors are recorded, the body goes on).
    if (const Node* shapes = node.find("shapes")) {
        r.attempt([&] {
            std::string sp = childPath(path, "shapes");
            const std::vector<Node>& items = asArray(r, *shapes, sp);
            if (static_cast<int64_t>(items.size()) > kMaxShapesPerBody) {
                r.fail(*shapes, sp,
                       "expected at most " + std::to_string(kMaxShapesPerBody) + " shapes, got " +
                           std::to_string(items.size()));
            }
            b.shapes.reserve(items.size());
            for (std::size_t k = 0; k < items.size(); ++k) {
                r.attempt([&] {
                    b.shapes.push_back(parseShape(r, items[k], indexPath(sp, k), &materials));
                });
            }
        });
    }
    r.attempt([&] { parseBodyKeys(r, node, path, b); });
    return b;
}

void markBodyEntryFailed(const Reader& r, const Node& entry) {
    if (entry.kind != Node::Kind::Object) return;
    const Node* generator = entry.find("generate");
    const Node* body = generator ? entry.find("body") : &entry;
    const Node* name = body && body->kind == Node::Kind::Object ? body->find("name") : nullptr;
    if (name && name->kind == Node::Kind::String)
        r.markFailed((generator ? "generated " : "body ") + name->text);
}

bool failedBodyName(const Reader& r, std::string_view name) {
    if (r.failed("bodies") || r.failed(std::string("body ").append(name))) return true;
    // A copy of a generator that failed: NAME[index].
    const std::size_t open = name.rfind('[');
    if (open == std::string_view::npos || name.size() < open + 3 || name.back() != ']')
        return false;
    for (char c : name.substr(open + 1, name.size() - open - 2))
        if (c < '0' || c > '9') return false;
    return r.failed(std::string("generated ").append(name.substr(0, open)));
}

void parseBodyList(const Reader& r, const Node& node, const std::string& path,
                   const MaterialMap& materials, int64_t& bodyBudget, NameSet& names,
                   std::vector<BodyDesc>& out) {
    const std::vector<Node>& items = asArray(r, node, path);
    for (std::size_t k = 0; k < items.size(); ++k) {
        // Each entry on its own: one that fails leaves its names marked, so
        // that what names them later is skipped rather than reported.
        if (!r.attempt([&] {
                parseBodyEntry(r, items[k], indexPath(path, k), materials, bodyBudget, names, out);
            }))
            markBodyEntryFailed(r, items[k]);
    }
}

}  // namespace carom::scene::detail
