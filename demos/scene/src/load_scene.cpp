// The top level of a scene file: version, settings, bodies, joints, events,
// view (scene-format.md), and the checks that need the whole script: names
// unique among the bodies alive at once, joints and events naming bodies
// that are alive when they apply.
#include <algorithm>
#include <set>
#include <tuple>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <numeric>
#include <sstream>

#include <carom/json_writer.hpp>
#include <carom/validate.hpp>

#include "loader.hpp"

namespace carom::scene {

SceneError::SceneError(std::string file_, int line_, int column_, std::string path_,
                       std::string message_)
    : SceneError(Kind::Invalid, file_, line_, column_, path_, message_,
                 file_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) +
                     ": error: " + path_ + ": " + message_) {}

SceneError::SceneError(Kind kind_, std::string file_, int line_, int column_, std::string path_,
                       std::string message_, std::string what)
    : std::runtime_error(what),
      kind(kind_),
      file(std::move(file_)),
      line(line_),
      column(column_),
      path(std::move(path_)),
      message(std::move(message_)) {}

SceneError SceneError::io(std::string file_, std::string message_) {
    std::string what = file_ + ": error: " + message_;
    return SceneError(Kind::Io, std::move(file_), 0, 0, std::string(), std::move(message_),
                      std::move(what));
}

std::string SceneError::report() const {
    if (errors.empty()) return std::string(what()) + "\n";
    std::string out;
    for (const SceneError& e : errors) {
        out += e.what();
        out += '\n';
    }
    if (moreErrors > 0)
        out += file + ": error: and " + std::to_string(moreErrors) + " more error" +
               (moreErrors == 1 ? "" : "s") + " (the first " + std::to_string(errors.size()) +
               " are listed)\n";
    return out;
}

SceneError SceneError::unsavable(std::string file_, std::string message_) {
    std::string what = file_ + ": error: cannot save: " + message_;
    return SceneError(Kind::Unsavable, std::move(file_), 0, 0, std::string(), std::move(message_),
                      std::move(what));
}

WorldDef WorldSettings::worldDef() const {
    WorldDef def;
    def.gravity = gravity;
    def.substeps = substeps;
    def.broadphase = broadphase;
    def.enableSleep = sleep;
    def.enableContinuous = continuous;
    def.workerCount = threads;
    def.contactHertz = contactHertz;
    def.contactDampingRatio = contactDampingRatio;
    def.contactPushMaxSpeed = contactPushMaxSpeed;
    def.jointHertz = jointHertz;
    def.jointDampingRatio = jointDampingRatio;
    def.restitutionThreshold = restitutionThreshold;
    def.hitEventThreshold = hitEventThreshold;
    def.maxLinearSpeed = maxLinearSpeed;
    def.enableWarmStarting = warmStarting;
    def.frictionMixing = frictionMixing;
    def.restitutionMixing = restitutionMixing;
    def.joinTileSeams = tileSeams;
    def.maxContacts = maxContacts;
    def.contactReuseDistance = contactReuseDistance;
    def.tuning = tuning;
    return def;
}

namespace detail {

void NameSet::add(const Reader& r, const std::string& name, const Node& at, const std::string& path,
                  const char* what) {
    auto [it, inserted] = alive_.emplace(name, at.line);
    if (!inserted) {
        r.fail(at, path,
               std::string(what) + " \"" + name +
                   "\" is already used by a body alive at the same time (line " +
                   std::to_string(it->second) + "); names must be unique");
    }
}

std::string NameSet::nearest(std::string_view name) const {
    std::vector<std::string_view> names;
    names.reserve(alive_.size());
    for (const auto& [k, v] : alive_) names.push_back(k);
    return nearestKey(name, names);
}

std::string readFileText(const std::string& path) {
    // "-" is standard input. Anything that is not a regular file (a pipe,
    // /dev/stdin, a terminal) has no size to ask for, so every source is read
    // the same way: in chunks, stopping one byte past the limit.
    bool stdinput = path == "-";
    std::ifstream file;
    if (!stdinput) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
            throw SceneError::io(path, "cannot open the file: it is a directory");
        }
        file.open(path, std::ios::binary);
        if (!file)
            throw SceneError::io(path,
                                 std::string("cannot open the file: ") + std::strerror(errno));
    }
    std::istream& in = stdinput ? std::cin : static_cast<std::istream&>(file);
    std::string text;
    char chunk[1 << 16];
    while (in) {
        in.read(chunk, sizeof chunk);
        std::streamsize got = in.gcount();
        if (got <= 0) break;
        if (text.size() + static_cast<std::size_t>(got) > kMaxFileBytes) {
            throw SceneError(path, 1, 1, "(root)",
                             "the file is larger than " + std::to_string(kMaxFileBytes) +
                                 " bytes; larger files are refused");
        }
        text.append(chunk, static_cast<std::size_t>(got));
    }
    if (in.bad())
        throw SceneError::io(path, std::string("cannot read the file: ") + std::strerror(errno));
    return text;
}

Node parseTree(std::string_view text, const std::string& fileName) {
    if (text.size() > kMaxFileBytes) {
        throw SceneError(fileName, 1, 1, "(root)",
                         "the text is " + std::to_string(text.size()) +
                             " bytes; larger than the limit of " + std::to_string(kMaxFileBytes));
    }
    // JSON has no raw NUL byte (inside strings it must be escaped as \u0000),
    // and the parser would take one for the end of the text and ignore the
    // rest: refuse it where it is.
    if (std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
        int line = 1, column = 1;
        for (std::size_t k = 0; k < nul; ++k) {
            unsigned char c = static_cast<unsigned char>(text[k]);
            if (c == '\n') {
                ++line;
                column = 1;
            } else if ((c & 0xC0) != 0x80) {
                ++column;
            }
        }
        throw SceneError(fileName, line, column, "(root)",
                         "malformed JSON: a NUL byte (character 0) at byte " + std::to_string(nul) +
                             "; JSON text cannot contain one");
    }
    Node root;
    ParseFailure failure;
    if (!parseJson(text, kMaxNestingDepth, root, failure)) {
        throw SceneError(fileName, failure.line, failure.column,
                         failure.path.empty() ? "(root)" : failure.path, failure.message);
    }
    return root;
}

namespace {

constexpr std::string_view kFrictionMixingNames[] = {"geometric_mean", "min", "max", "average"};
constexpr std::string_view kRestitutionMixingNames[] = {"max", "min", "geometric_mean", "average"};

// A mixing rule by its file name (the enumerators' order).
template <class Rule, std::size_t N>
Rule parseMixing(const Obj& o, std::string_view key, const std::string_view (&names)[N],
                 Rule fallback) {
    if (!o.has(key)) return fallback;
    const std::string name = o.string(key, "");
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == name) return static_cast<Rule>(i);
    o.fail(key,
           "expected \"geometric_mean\", \"min\", \"max\" or \"average\", got \"" + name + "\"");
}

// A `world` key whose WorldDef switch was removed, and what every world
// now does in its place.
struct RemovedKey {
    std::string_view key;
    const char* now;
};
constexpr RemovedKey kRemovedWorldKeys[] = {
    {"friction_in_relax_only",
     "friction and rolling resistance always run in both the solve and the relax pass"},
    {"relax_shock_scaled_masses",
     "the shock-scaled relax pass (relax_shock_scale) always uses the scaled bodies' masses"},
    {"contact_push_holds_load", "contact_push_max_speed always bounds the whole push-out speed"},
};

WorldSettings parseWorld(const Reader& r, const Node& n) {
    Obj o(r, n, "world",
          {"gravity",
           "timestep",
           "substeps",
           "broadphase",
           "sleep",
           "continuous",
           "threads",
           "contact_hertz",
           "contact_damping_ratio",
           "contact_push_max_speed",
           "joint_hertz",
           "joint_damping_ratio",
           "restitution_threshold",
           "hit_event_threshold",
           "max_linear_speed",
           "warm_starting",
           "friction_mixing",
           "restitution_mixing",
           "tile_seams",
           "max_contacts",
           "contact_reuse_distance",
           "friction_in_relax_only",
           "contact_relax_passes",
           "joint_direct_solve",
           "relax_shock_scale",
           "relax_shock_scaled_masses",
           "contact_push_holds_load",
           "contact_leak_scale"});
    WorldSettings w;
    w.gravity = o.vec2("gravity", w.gravity);
    if (const Node* t = o.get("timestep")) {
        // The float rule like every number (1e39 is refused at the number);
        // the value is kept in double for the clock (scene-format.md).
        asFloat(r, *t, "world.timestep");
        w.timestep = t->number;
        if (!(w.timestep > 0.0) || !(static_cast<float>(w.timestep) > 0.0f)) {
            r.fail(*t, "world.timestep", "must be > 0, got " + describe(*t));
        }
    }
    w.substeps = static_cast<int>(o.integer("substeps", w.substeps, 1, kMaxSubsteps));
    std::string bp = o.string("broadphase", "tree");
    if (bp == "tree")
        w.broadphase = BroadphaseType::Tree;
    else if (bp == "sap")
        w.broadphase = BroadphaseType::SortAndSweep;
    else
        o.fail("broadphase", "expected \"tree\" or \"sap\", got \"" + bp + "\"");
    w.sleep = o.flag("sleep", w.sleep);
    w.continuous = o.flag("continuous", w.continuous);
    w.threads = static_cast<int>(o.integer("threads", w.threads, 1, kMaxThreads));
    w.tileSeams = o.flag("tile_seams", w.tileSeams);
    w.contactHertz = o.number("contact_hertz", w.contactHertz);
    w.contactDampingRatio = o.number("contact_damping_ratio", w.contactDampingRatio);
    w.contactPushMaxSpeed = o.number("contact_push_max_speed", w.contactPushMaxSpeed);
    w.jointHertz = o.number("joint_hertz", w.jointHertz);
    w.jointDampingRatio = o.number("joint_damping_ratio", w.jointDampingRatio);
    w.restitutionThreshold = o.number("restitution_threshold", w.restitutionThreshold);
    w.hitEventThreshold = o.number("hit_event_threshold", w.hitEventThreshold);
    w.maxLinearSpeed = o.number("max_linear_speed", w.maxLinearSpeed);
    w.warmStarting = o.flag("warm_starting", w.warmStarting);
    w.tuning.enableJointDirectSolve = o.flag("joint_direct_solve", w.tuning.enableJointDirectSolve);
    w.frictionMixing = parseMixing(o, "friction_mixing", kFrictionMixingNames, w.frictionMixing);
    w.restitutionMixing =
        parseMixing(o, "restitution_mixing", kRestitutionMixingNames, w.restitutionMixing);
    w.maxContacts = static_cast<int>(
        o.integer("max_contacts", w.maxContacts, 0, std::numeric_limits<int>::max()));
    w.contactReuseDistance = o.number("contact_reuse_distance", w.contactReuseDistance);
    w.tuning.contactRelaxPasses = static_cast<int>(
        o.integer("contact_relax_passes", w.tuning.contactRelaxPasses, 1, kMaxContactRelaxPasses));
    w.tuning.relaxShockScale = o.number("relax_shock_scale", w.tuning.relaxShockScale);
    w.tuning.contactLeakScale = o.number("contact_leak_scale", w.tuning.contactLeakScale);
    // Keys of solver switches that were removed: each is an error that says
    // what every world now does, rather than an unknown key.
    for (const RemovedKey& k : kRemovedWorldKeys)
        if (o.has(k.key))
            o.fail(k.key, std::string("is no longer a setting: ") + k.now + "; remove the key");
    // The engine's rules for the world the runner builds, and for its step.
    const WorldDef def = w.worldDef();
    o.engineRule([&] { validate(def); }, {{"workerCount", "threads"},
                                          {"enableSleep", "sleep"},
                                          {"enableContinuous", "continuous"},
                                          {"contactHertz", "contact_hertz"},
                                          {"contactDampingRatio", "contact_damping_ratio"},
                                          {"jointHertz", "joint_hertz"},
                                          {"jointDampingRatio", "joint_damping_ratio"},
                                          {"contactPushMaxSpeed", "contact_push_max_speed"},
                                          {"restitutionThreshold", "restitution_threshold"},
                                          {"hitEventThreshold", "hit_event_threshold"},
                                          {"maxLinearSpeed", "max_linear_speed"},
                                          {"maxContacts", "max_contacts"},
                                          {"contactReuseDistance", "contact_reuse_distance"},
                                          {"tuning.contactRelaxPasses", "contact_relax_passes"},
                                          {"tuning.relaxShockScale", "relax_shock_scale"},
                                          {"tuning.contactLeakScale", "contact_leak_scale"}});
    o.engineRule([&] { validateStep(static_cast<float>(w.timestep), w.substeps); },
                 {{"timeStep", "timestep"}});
    return w;
}

View parseView(const Reader& r, const Node& n) {
    Obj o(r, n, "view", {"center", "height"});
    View v;
    v.center = asVec2(r, o.required("center"), o.path("center"));
    o.required("height");
    v.height = o.positive("height", v.height);
    return v;
}

struct EventEntry {
    const Node* node = nullptr;
    std::string path;
    double time = 0.0;
};

const std::vector<std::string_view> kActions = {"impulse", "set_velocity", "spawn",
                                                "destroy", "gravity",      "explode"};

// Requires that the string node n names a body alive now.
std::string aliveBody(const Reader& r, const Node& n, const std::string& path, const NameSet& names,
                      double time) {
    const std::string& name = asString(r, n, path);
    if (!names.has(name)) {
        if (failedBodyName(r, name)) throw Cascade{};  // its entry's error is reported
        std::string message = "no body named \"" + name + "\" is alive";
        if (time > 0.0) {
            std::ostringstream t;
            t << time;
            message += " at t=" + t.str();
        }
        std::string near = names.nearest(name);
        if (!near.empty()) message += ", did you mean \"" + near + "\"?";
        r.fail(n, path, message);
    }
    return name;
}

std::string aliveBody(const Reader& r, const Obj& o, std::string_view key, const NameSet& names,
                      double time) {
    return aliveBody(r, o.required(key), o.path(key), names, time);
}

void parseJointList(const Reader& r, const Node& n, const std::string& path, const NameSet& names,
                    double time, std::vector<JointDesc>& out) {
    const std::vector<Node>& items = asArray(r, n, path);
    const std::size_t first = out.size();  // this list's joints: the ones a gear may name
    out.reserve(out.size() + items.size());
    std::set<std::string, std::less<>> failed;  // names of this list's joints that failed
    for (std::size_t k = 0; k < items.size(); ++k) {
        // Each joint on its own; a gear naming one that failed is skipped (Cascade).
        const bool ok = r.attempt([&] {
            std::string jp = indexPath(path, k);
            JointDesc j = parseJoint(r, items[k], jp);
            auto named = [&](const std::string& name) {
                for (std::size_t i = first; i < out.size(); ++i)
                    if (out[i].name && *out[i].name == name) return &out[i];
                return static_cast<JointDesc*>(nullptr);
            };
            if (j.name && named(*j.name))
                r.fail(*items[k].find("name"), childPath(jp, "name"),
                       "joint name \"" + *j.name + "\" is already used in this list");
            if (j.type == JointType::Gear) {
                // A gear names joints listed before it; its bodies are theirs (the b of each).
                for (auto [key, name, body] : {std::tuple{"joint_a", &j.jointA, &j.a},
                                               std::tuple{"joint_b", &j.jointB, &j.b}}) {
                    const JointDesc* g = named(*name);
                    const Node& node = *items[k].find(key);
                    if (!g && failed.count(*name)) throw Cascade{};
                    if (!g)
                        r.fail(node, childPath(jp, key),
                               "no joint named \"" + *name + "\" is listed before this gear");
                    if (g->type != JointType::Revolute && g->type != JointType::Prismatic)
                        r.fail(node, childPath(jp, key),
                               "joint \"" + *name + "\" must be a revolute or prismatic joint");
                    *body = g->b;
                }
                if (j.a == j.b)
                    r.fail(*items[k].find("joint_b"), childPath(jp, "joint_b"),
                           "the two joints move the same body \"" + j.b +
                               "\"; a gear needs two different bodies");
                out.push_back(std::move(j));
                return;
            }
            aliveBody(r, *items[k].find("a"), childPath(jp, "a"), names, time);
            aliveBody(r, *items[k].find("b"), childPath(jp, "b"), names, time);
            out.push_back(std::move(j));
        });
        if (ok || items[k].kind != Node::Kind::Object) continue;
        if (const Node* name = items[k].find("name"); name && name->kind == Node::Kind::String)
            failed.insert(name->text);
    }
}

EventDesc parseEvent(const Reader& r, const Node& n, const std::string& path, double time,
                     const MaterialMap& materials, int64_t& budget, NameSet& names) {
    const std::string& action = asString(r, *n.find("action"), childPath(path, "action"));
    EventDesc e;
    e.time = time;
    if (action == "impulse") {
        Obj o(r, n, path, {"time", "action", "body", "impulse", "point"});
        e.action = EventAction::Impulse;
        e.body = aliveBody(r, o, "body", names, time);
        o.required("impulse");
        // World::applyLinearImpulse's range (kMaxForce per component).
        e.impulse = asVec2(r, *o.get("impulse"), o.path("impulse"));
        if (std::fabs(e.impulse.x) > kMaxForce || std::fabs(e.impulse.y) > kMaxForce) {
            o.fail("impulse", "must be within +-1e25 N s per component, got " +
                                  describeVec2(*o.get("impulse")));
        }
        if (o.has("point")) e.point = o.point("point", {0.0f, 0.0f});
    } else if (action == "set_velocity") {
        Obj o(r, n, path, {"time", "action", "body", "linear_velocity", "angular_velocity"});
        e.action = EventAction::SetVelocity;
        e.body = aliveBody(r, o, "body", names, time);
        e.linearVelocity = o.optVec2("linear_velocity");
        e.angularVelocity = o.optNumber("angular_velocity");
        if (!e.linearVelocity && !e.angularVelocity) {
            r.fail(n, path, "missing key \"linear_velocity\" or \"angular_velocity\"");
        }
        // The engine's rule for a velocity, as setLinearVelocity applies it.
        BodyDef velocity;
        velocity.type = BodyType::Dynamic;
        velocity.linearVelocity = e.linearVelocity.value_or(Vec2{0.0f, 0.0f});
        velocity.angularVelocity = e.angularVelocity.value_or(0.0f);
        o.engineRule([&] { validate(velocity); });
    } else if (action == "spawn") {
        Obj o(r, n, path, {"time", "action", "bodies", "joints"});
        e.action = EventAction::Spawn;
        parseBodyList(r, o.required("bodies"), o.path("bodies"), materials, budget, names,
                      e.bodies);
        if (const Node* j = o.get("joints"))
            parseJointList(r, *j, o.path("joints"), names, time, e.joints);
    } else if (action == "destroy") {
        Obj o(r, n, path, {"time", "action", "body"});
        e.action = EventAction::Destroy;
        e.body = aliveBody(r, o, "body", names, time);
        names.remove(e.body);
    } else if (action == "gravity") {
        Obj o(r, n, path, {"time", "action", "gravity"});
        e.action = EventAction::Gravity;
        e.gravity = asVec2(r, o.required("gravity"), o.path("gravity"));
        WorldDef gravity;
        gravity.gravity = e.gravity;
        o.engineRule([&] { validate(gravity); });
    } else if (action == "explode") {
        // Project action: World::explode with an ExplosionDef.
        Obj o(r, n, path, {"time", "action", "position", "radius", "falloff", "impulse", "mask"});
        e.action = EventAction::Explode;
        o.required("position");
        e.explosion.position = o.point("position", e.explosion.position);
        e.explosion.radius = o.nonNegative("radius", e.explosion.radius);
        e.explosion.falloff = o.nonNegative("falloff", e.explosion.falloff);
        e.explosion.impulsePerLength = asFloat(r, o.required("impulse"), o.path("impulse"));
        if (const Node* m = o.get("mask")) e.explosion.maskBits = asBits(r, *m, o.path("mask"));
        // World::explode's ranges: distances within a world's width, the impulse within the force
        // bound.
        if (e.explosion.radius > kMaxDistance) o.fail("radius", "must be <= 2e6 m");
        if (e.explosion.falloff > kMaxDistance) o.fail("falloff", "must be <= 2e6 m");
        if (!(std::fabs(e.explosion.impulsePerLength) <= kMaxForce))
            o.fail("impulse", "must be within +-1e25 N s/m");
    } else {
        std::string message =
            "expected \"impulse\", \"set_velocity\", \"spawn\", \"destroy\", \"gravity\" or "
            "\"explode\", got \"" +
            action + "\"";
        std::string near = nearestKey(action, kActions);
        if (!near.empty()) message += ", did you mean \"" + near + "\"?";
        r.fail(*n.find("action"), childPath(path, "action"), message);
    }
    e.loc = r.loc(n, path);
    return e;
}

const std::vector<std::string_view> kFigures = {"drift",      "sag",         "rise",
                                                "peak_speed", "joint_error", "stretch"};

BodyPoint parseBodyPoint(const Reader& r, const Node& n, const std::string& path,
                         const NameSet& names) {
    Obj o(r, n, path, {"body", "local"});
    BodyPoint p;
    p.body = aliveBody(r, o, "body", names, 0.0);
    p.local = o.vec2("local", p.local);
    return p;
}

// Project key `stability` (docs/stability.md). Body names are checked against
// the bodies of the file, which exist from the first step.
StabilitySpec parseStability(const Reader& r, const Node& n, double duration,
                             const NameSet& names) {
    Obj o(r, n, "stability",
          {"figure", "bodies", "settle", "every", "collapse", "goal", "level", "from", "to"});
    StabilitySpec s;
    const std::string& figure = asString(r, o.required("figure"), o.path("figure"));
    auto it = std::find(kFigures.begin(), kFigures.end(), figure);
    if (it == kFigures.end()) {
        std::string message =
            "expected one of \"drift\", \"sag\", \"rise\", \"peak_speed\", \"joint_error\", "
            "\"stretch\", got \"" +
            figure + "\"";
        std::string near = nearestKey(figure, kFigures);
        if (!near.empty()) message += ", did you mean \"" + near + "\"?";
        o.fail("figure", message);
    }
    s.figure = static_cast<StabilityFigure>(it - kFigures.begin());
    if (const Node* b = o.get("bodies")) {
        const std::vector<Node>& items = asArray(r, *b, o.path("bodies"));
        for (std::size_t k = 0; k < items.size(); ++k) {
            std::string bp = indexPath(o.path("bodies"), k);
            const std::string& name = asString(r, items[k], bp);
            if (!name.empty() && name.back() == '*') {
                if (!names.hasPrefix(std::string_view(name).substr(0, name.size() - 1))) {
                    if (r.hasErrors())
                        throw Cascade{};  // the bodies may be in an entry that failed
                    r.fail(items[k], bp,
                           "no body of the file has a name starting with \"" +
                               name.substr(0, name.size() - 1) + "\"");
                }
            } else {
                aliveBody(r, items[k], bp, names, 0.0);
            }
            s.bodies.push_back(name);
        }
    }
    s.settle = o.number64("settle", 0.0);
    if (!(s.settle >= 0.0) || !(s.settle < duration)) {
        o.fail("settle",
               "must be >= 0 and below the duration (" + std::to_string(duration) + " s)");
    }
    s.every = o.integer("every", 1, 1, 1 << 20);
    s.collapse = o.optNonNegative("collapse");
    s.goal = o.optNonNegative("goal");
    s.level = o.optNumber("level");
    if (const Node* p = o.get("from")) s.from = parseBodyPoint(r, *p, o.path("from"), names);
    if (const Node* p = o.get("to")) s.to = parseBodyPoint(r, *p, o.path("to"), names);
    if (s.figure == StabilityFigure::Stretch && (!s.from || !s.to)) {
        r.fail(n, "stability",
               "the figure \"stretch\" needs \"from\" and \"to\" ({\"body\", \"local\"})");
    }
    s.loc = r.loc(n, "stability");
    return s;
}

// An event that failed: the bodies a spawn would have made are marked as
// failed, and a destroy still takes its body away (at its time, when the
// event got that far: names), so that later events are checked as written.
void markEventFailed(const Reader& r, const Node& n, NameSet* names) {
    if (n.kind != Node::Kind::Object) return;
    const Node* action = n.find("action");
    if (!action || action->kind != Node::Kind::String) return;
    if (action->text == "spawn") {
        if (const Node* bodies = n.find("bodies"); bodies && bodies->kind == Node::Kind::Array)
            for (const Node& entry : bodies->items) markBodyEntryFailed(r, entry);
    } else if (action->text == "destroy") {
        const Node* body = n.find("body");
        if (!body || body->kind != Node::Kind::String) return;
        r.markFailed("body " + body->text);
        if (names) names->remove(body->text);
    }
}

// The scene in json: see loadString.
SceneDesc loadScene(const Reader& r, std::string_view json, const std::string& fileName) {
    // Malformed JSON, another version or an unknown top-level key (a
    // misspelt section, most likely: what refers to it would all fail) stop
    // the load at once. After them, each section, body, shape, joint and
    // event is checked on its own and every error is reported (finish).
    Node root = parseTree(json, fileName);
    if (root.kind != Node::Kind::Object)
        r.fail(root, "", "expected a scene object {\"carom\": 1, ...}, got " + describe(root));

    // The version first: a newer file should say so, not fail on its new keys.
    const Node* version = root.find("carom");
    if (!version) r.fail(root, "", "missing required key \"carom\" (the format version, 1)");
    if (version->kind == Node::Kind::String || asInteger(r, *version, "carom") != kFormatVersion) {
        r.fail(*version, "carom",
               "unsupported format version: expected 1, got " + describe(*version));
    }
    Obj top(r, root, "",
            {"carom", "name", "description", "duration", "world", "materials", "bodies", "joints",
             "events", "view", "stability", "warm"});

    SceneDesc d;
    d.file = fileName;
    std::size_t slash = fileName.find_last_of("/\\");
    std::string base = slash == std::string::npos ? fileName : fileName.substr(slash + 1);
    if (std::size_t dot = base.rfind('.'); dot != std::string::npos && dot > 0)
        base = base.substr(0, dot);
    d.name = base;
    r.attempt([&] { d.name = top.string("name", base); });
    r.attempt([&] { d.description = top.string("description", ""); });
    const bool durationOk = r.attempt([&] {
        if (const Node* n = top.get("duration")) {
            asFloat(r, *n, "duration");
            d.duration = n->number;
            if (!(d.duration > 0.0)) r.fail(*n, "duration", "must be > 0, got " + describe(*n));
        }
    });
    const bool worldOk = r.attempt([&] {
        if (const Node* n = top.get("world")) d.world = parseWorld(r, *n);
    });
    // A run must be able to finish: the default run (the duration) is
    // bounded by kMaxSteps steps of the file's timestep (both read well).
    if (durationOk && worldOk)
        r.attempt([&] {
            if (double steps = std::round(d.duration / d.world.timestep);
                steps > static_cast<double>(kMaxSteps)) {
                const Node* n = top.get("duration");
                const Node* t = top.get("world") ? top.get("world")->find("timestep") : nullptr;
                std::string count = formatDouble(steps);
                if (std::size_t e = count.find("e+"); e != std::string::npos) count.erase(e + 1, 1);
                std::string m =
                    "a run of " +
                    (n ? describe(*n) + " s" : std::string("10 s (the default duration)")) +
                    " takes " + count + " steps of " + (t ? describe(*t) : std::string("1/60")) +
                    " s; at most " + std::to_string(kMaxSteps) + " steps are allowed";
                if (n) r.fail(*n, "duration", m);
                r.fail(*t, "world.timestep", m);
            }
        });
    if (const Node* n = top.get("materials"))
        if (!r.attempt([&] { d.materials = parseMaterials(r, *n, "materials"); }))
            r.markFailed("materials");
    if (const Node* n = top.get("view")) r.attempt([&] { d.view = parseView(r, *n); });

    NameSet names;
    int64_t budget = kMaxBodies;
    if (const Node* n = top.get("bodies"))
        if (!r.attempt(
                [&] { parseBodyList(r, *n, "bodies", d.materials, budget, names, d.bodies); }))
            r.markFailed("bodies");  // not a list: every name is unknown
    if (const Node* n = top.get("joints"))
        r.attempt([&] { parseJointList(r, *n, "joints", names, 0.0, d.joints); });
    if (const Node* n = top.get("stability"))
        if (durationOk) r.attempt([&] { d.stability = parseStability(r, *n, d.duration, names); });

    if (const Node* n = top.get("events"))
        r.attempt([&] {
            // Events apply in time order (file order among equal times); names are
            // checked in that order, since spawn and destroy change who is alive.
            const std::vector<Node>& items = asArray(r, *n, "events");
            std::vector<EventEntry> entries;
            entries.reserve(items.size());
            for (std::size_t k = 0; k < items.size(); ++k) {
                const bool ok = r.attempt([&] {
                    EventEntry e{&items[k], indexPath("events", k), 0.0};
                    requireObject(r, items[k], e.path);
                    const Node* t = items[k].find("time");
                    if (!t) r.fail(items[k], e.path, "missing required key \"time\"");
                    asFloat(
                        r, *t,
                        childPath(e.path, "time"));  // the float rule; kept in double for the clock
                    e.time = t->number;
                    if (!(e.time >= 0.0))
                        r.fail(*t, childPath(e.path, "time"), "must be >= 0, got " + describe(*t));
                    if (!items[k].find("action"))
                        r.fail(items[k], e.path, "missing required key \"action\"");
                    entries.push_back(std::move(e));
                });
                if (!ok) markEventFailed(r, items[k], nullptr);
            }
            std::stable_sort(
                entries.begin(), entries.end(),
                [](const EventEntry& a, const EventEntry& b) { return a.time < b.time; });
            d.events.reserve(entries.size());
            for (const EventEntry& e : entries) {
                if (!r.attempt([&] {
                        d.events.push_back(
                            parseEvent(r, *e.node, e.path, e.time, d.materials, budget, names));
                    }))
                    markEventFailed(r, *e.node, &names);
            }
        });
    d.totalBodies = kMaxBodies - budget;
    // The warm state is checked against the whole scene: only a scene
    // without errors (else what it names may be missing).
    if (const Node* n = top.get("warm"))
        if (!r.hasErrors()) r.attempt([&] { d.warm = parseWarm(r, *n, d); });
    r.finish();
    return d;
}

}  // namespace
}  // namespace detail

SceneDesc loadString(std::string_view json, const std::string& fileName) {
    detail::Reader r(fileName);
    try {
        return detail::loadScene(r, json, fileName);
    } catch (const SceneError& e) {
        // An error that stops the load (malformed JSON, say) joins those found before it.
        if (e.kind != SceneError::Kind::Invalid || !e.errors.empty()) throw;
        r.record(e);
    }
    r.finish();
    return SceneDesc{};  // not reached: finish throws what was recorded
}

SceneDesc loadFile(const std::string& path) {
    std::string text = detail::readFileText(path);
    return loadString(text, path);
}

}  // namespace carom::scene
