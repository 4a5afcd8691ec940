// The top level of a scene file: version, settings, bodies, joints, events,
// view (scene-format.md), and the checks that need the whole script: names
// unique among the bodies alive at once, joints and events naming bodies
// that are alive when they apply.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>

#include "loader.hpp"

namespace carom::scene {

SceneError::SceneError(std::string file_, int line_, int column_, std::string path_, std::string message_)
    : SceneError(Kind::Invalid, file_, line_, column_, path_, message_,
                 file_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) + ": error: " + path_ + ": " +
                     message_) {}

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
    return SceneError(Kind::Io, std::move(file_), 0, 0, std::string(), std::move(message_), std::move(what));
}

namespace detail {

void NameSet::add(const Reader& r, const std::string& name, const Node& at, const std::string& path, const char* what) {
    auto [it, inserted] = alive_.emplace(name, at.line);
    if (!inserted) {
        r.fail(at, path, std::string(what) + " \"" + name + "\" is already used by a body alive at the same time (line " +
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
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SceneError::io(path, std::string("cannot open the file: ") + std::strerror(errno));
    in.seekg(0, std::ios::end);
    std::streamoff size = in.tellg();
    if (size < 0) throw SceneError::io(path, "cannot read the file");
    if (static_cast<uint64_t>(size) > kMaxFileBytes) {
        throw SceneError(path, 1, 1, "(root)",
                         "the file is " + std::to_string(size) + " bytes; files larger than " +
                             std::to_string(kMaxFileBytes) + " bytes are refused");
    }
    in.seekg(0, std::ios::beg);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (size > 0 && !in.read(text.data(), size)) throw SceneError::io(path, "cannot read the file");
    return text;
}

Node parseTree(std::string_view text, const std::string& fileName) {
    if (text.size() > kMaxFileBytes) {
        throw SceneError(fileName, 1, 1, "(root)", "the text is " + std::to_string(text.size()) +
                                                       " bytes; larger than the limit of " +
                                                       std::to_string(kMaxFileBytes));
    }
    Node root;
    ParseFailure failure;
    if (!parseJson(text, kMaxNestingDepth, root, failure)) {
        throw SceneError(fileName, failure.line, failure.column, failure.path.empty() ? "(root)" : failure.path,
                         failure.message);
    }
    return root;
}

namespace {

WorldSettings parseWorld(const Reader& r, const Node& n) {
    Obj o(r, n, "world", {"gravity", "timestep", "substeps", "broadphase", "sleep", "continuous", "threads"});
    WorldSettings w;
    w.gravity = o.vec2("gravity", w.gravity);
    if (const Node* t = o.get("timestep")) {
        w.timestep = asNumber(r, *t, "world.timestep");
        if (!(w.timestep > 0.0) || !(static_cast<float>(w.timestep) > 0.0f)) {
            r.fail(*t, "world.timestep", "must be > 0, got " + describe(*t));
        }
    }
    w.substeps = static_cast<int>(o.integer("substeps", w.substeps, 1, kMaxSubsteps));
    std::string bp = o.string("broadphase", "tree");
    if (bp == "tree") w.broadphase = BroadphaseType::Tree;
    else if (bp == "sap") w.broadphase = BroadphaseType::SortAndSweep;
    else o.fail("broadphase", "expected \"tree\" or \"sap\", got \"" + bp + "\"");
    w.sleep = o.flag("sleep", w.sleep);
    w.continuous = o.flag("continuous", w.continuous);
    w.threads = static_cast<int>(o.integer("threads", w.threads, 1, kMaxThreads));
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

const std::vector<std::string_view> kActions = {"impulse", "set_velocity", "spawn", "destroy", "gravity"};

// Requires that the string node n names a body alive now.
std::string aliveBody(const Reader& r, const Node& n, const std::string& path, const NameSet& names, double time) {
    const std::string& name = asString(r, n, path);
    if (!names.has(name)) {
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

std::string aliveBody(const Reader& r, const Obj& o, std::string_view key, const NameSet& names, double time) {
    return aliveBody(r, o.required(key), o.path(key), names, time);
}

void parseJointList(const Reader& r, const Node& n, const std::string& path, const NameSet& names, double time,
                    std::vector<JointDesc>& out) {
    const std::vector<Node>& items = asArray(r, n, path);
    out.reserve(out.size() + items.size());
    for (std::size_t k = 0; k < items.size(); ++k) {
        std::string jp = indexPath(path, k);
        out.push_back(parseJoint(r, items[k], jp));
        aliveBody(r, *items[k].find("a"), childPath(jp, "a"), names, time);
        aliveBody(r, *items[k].find("b"), childPath(jp, "b"), names, time);
    }
}

EventDesc parseEvent(const Reader& r, const Node& n, const std::string& path, double time, const MaterialMap& materials,
                     int64_t& budget, NameSet& names) {
    const std::string& action = asString(r, *n.find("action"), childPath(path, "action"));
    EventDesc e;
    e.time = time;
    if (action == "impulse") {
        Obj o(r, n, path, {"time", "action", "body", "impulse", "point"});
        e.action = EventAction::Impulse;
        e.body = aliveBody(r, o, "body", names, time);
        e.impulse = asVec2(r, o.required("impulse"), o.path("impulse"));
        e.point = o.optVec2("point");
    } else if (action == "set_velocity") {
        Obj o(r, n, path, {"time", "action", "body", "linear_velocity", "angular_velocity"});
        e.action = EventAction::SetVelocity;
        e.body = aliveBody(r, o, "body", names, time);
        e.linearVelocity = o.optVec2("linear_velocity");
        e.angularVelocity = o.optNumber("angular_velocity");
        if (!e.linearVelocity && !e.angularVelocity) {
            r.fail(n, path, "missing key \"linear_velocity\" or \"angular_velocity\"");
        }
    } else if (action == "spawn") {
        Obj o(r, n, path, {"time", "action", "bodies", "joints"});
        e.action = EventAction::Spawn;
        parseBodyList(r, o.required("bodies"), o.path("bodies"), materials, budget, names, e.bodies);
        if (const Node* j = o.get("joints")) parseJointList(r, *j, o.path("joints"), names, time, e.joints);
    } else if (action == "destroy") {
        Obj o(r, n, path, {"time", "action", "body"});
        e.action = EventAction::Destroy;
        e.body = aliveBody(r, o, "body", names, time);
        names.remove(e.body);
    } else if (action == "gravity") {
        Obj o(r, n, path, {"time", "action", "gravity"});
        e.action = EventAction::Gravity;
        e.gravity = asVec2(r, o.required("gravity"), o.path("gravity"));
    } else {
        std::string message =
            "expected \"impulse\", \"set_velocity\", \"spawn\", \"destroy\" or \"gravity\", got \"" + action + "\"";
        std::string near = nearestKey(action, kActions);
        if (!near.empty()) message += ", did you mean \"" + near + "\"?";
        r.fail(*n.find("action"), childPath(path, "action"), message);
    }
    e.loc = r.loc(n, path);
    return e;
}

const std::vector<std::string_view> kFigures = {"drift", "sag", "rise", "peak_speed", "joint_error", "stretch"};

BodyPoint parseBodyPoint(const Reader& r, const Node& n, const std::string& path, const NameSet& names) {
    Obj o(r, n, path, {"body", "local"});
    BodyPoint p;
    p.body = aliveBody(r, o, "body", names, 0.0);
    p.local = o.vec2("local", p.local);
    return p;
}

// Project key `stability` (docs/stability.md). Body names are checked against
// the bodies of the file, which exist from the first step.
StabilitySpec parseStability(const Reader& r, const Node& n, double duration, const NameSet& names) {
    Obj o(r, n, "stability", {"figure", "bodies", "settle", "every", "collapse", "goal", "level", "from", "to"});
    StabilitySpec s;
    const std::string& figure = asString(r, o.required("figure"), o.path("figure"));
    auto it = std::find(kFigures.begin(), kFigures.end(), figure);
    if (it == kFigures.end()) {
        std::string message = "expected one of \"drift\", \"sag\", \"rise\", \"peak_speed\", \"joint_error\", "
                              "\"stretch\", got \"" + figure + "\"";
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
                    r.fail(items[k], bp, "no body of the file has a name starting with \"" +
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
        o.fail("settle", "must be >= 0 and below the duration (" + std::to_string(duration) + " s)");
    }
    s.every = o.integer("every", 1, 1, 1 << 20);
    s.collapse = o.optNonNegative("collapse");
    s.goal = o.optNonNegative("goal");
    s.level = o.optNumber("level");
    if (const Node* p = o.get("from")) s.from = parseBodyPoint(r, *p, o.path("from"), names);
    if (const Node* p = o.get("to")) s.to = parseBodyPoint(r, *p, o.path("to"), names);
    if (s.figure == StabilityFigure::Stretch && (!s.from || !s.to)) {
        r.fail(n, "stability", "the figure \"stretch\" needs \"from\" and \"to\" ({\"body\", \"local\"})");
    }
    s.loc = r.loc(n, "stability");
    return s;
}

}  // namespace
}  // namespace detail

SceneDesc loadString(std::string_view json, const std::string& fileName) {
    using namespace detail;
    Reader r(fileName);
    Node root = parseTree(json, fileName);
    if (root.kind != Node::Kind::Object) r.fail(root, "", "expected a scene object {\"carom\": 1, ...}, got " + describe(root));

    // The version first: a newer file should say so, not fail on its new keys.
    const Node* version = root.find("carom");
    if (!version) r.fail(root, "", "missing required key \"carom\" (the format version, 1)");
    if (version->kind == Node::Kind::String || asInteger(r, *version, "carom") != kFormatVersion) {
        r.fail(*version, "carom", "unsupported format version: expected 1, got " + describe(*version));
    }
    Obj top(r, root, "", {"carom", "name", "description", "duration", "world", "materials", "bodies", "joints", "events", "view", "stability"});

    SceneDesc d;
    d.file = fileName;
    std::size_t slash = fileName.find_last_of("/\\");
    std::string base = slash == std::string::npos ? fileName : fileName.substr(slash + 1);
    if (std::size_t dot = base.rfind('.'); dot != std::string::npos && dot > 0) base = base.substr(0, dot);
    d.name = top.string("name", base);
    d.description = top.string("description", "");
    if (const Node* n = top.get("duration")) {
        d.duration = asNumber(r, *n, "duration");
        if (!(d.duration > 0.0)) r.fail(*n, "duration", "must be > 0, got " + describe(*n));
    }
    if (const Node* n = top.get("world")) d.world = parseWorld(r, *n);
    if (const Node* n = top.get("materials")) d.materials = parseMaterials(r, *n, "materials");
    if (const Node* n = top.get("view")) d.view = parseView(r, *n);

    NameSet names;
    int64_t budget = kMaxBodies;
    if (const Node* n = top.get("bodies")) parseBodyList(r, *n, "bodies", d.materials, budget, names, d.bodies);
    if (const Node* n = top.get("joints")) parseJointList(r, *n, "joints", names, 0.0, d.joints);
    if (const Node* n = top.get("stability")) d.stability = parseStability(r, *n, d.duration, names);

    if (const Node* n = top.get("events")) {
        // Events apply in time order (file order among equal times); names are
        // checked in that order, since spawn and destroy change who is alive.
        const std::vector<Node>& items = asArray(r, *n, "events");
        std::vector<EventEntry> entries;
        entries.reserve(items.size());
        for (std::size_t k = 0; k < items.size(); ++k) {
            EventEntry e{&items[k], indexPath("events", k), 0.0};
            requireObject(r, items[k], e.path);
            const Node* t = items[k].find("time");
            if (!t) r.fail(items[k], e.path, "missing required key \"time\"");
            e.time = asNumber(r, *t, childPath(e.path, "time"));
            if (!(e.time >= 0.0)) r.fail(*t, childPath(e.path, "time"), "must be >= 0, got " + describe(*t));
            if (!items[k].find("action")) r.fail(items[k], e.path, "missing required key \"action\"");
            entries.push_back(std::move(e));
        }
        std::stable_sort(entries.begin(), entries.end(),
                         [](const EventEntry& a, const EventEntry& b) { return a.time < b.time; });
        d.events.reserve(entries.size());
        for (const EventEntry& e : entries) {
            d.events.push_back(parseEvent(r, *e.node, e.path, e.time, d.materials, budget, names));
        }
    }
    d.totalBodies = kMaxBodies - budget;
    return d;
}

SceneDesc loadFile(const std::string& path) {
    std::string text = detail::readFileText(path);
    return loadString(text, path);
}

}  // namespace carom::scene
