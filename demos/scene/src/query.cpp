// `carom query`: distance (GJK/EPA), contact manifolds, ray casts and time
// of impact on shapes described as in scene files. The whole file is
// validated before the first answer is computed.
#include <carom/collision.hpp>
#include <carom/error.hpp>
#include <carom/json_writer.hpp>
#include <carom/scene.hpp>
#include <carom/scene_query.hpp>

#include "loader.hpp"

namespace carom::scene {

namespace {

using namespace detail;

enum class Kind { Distance, Contact, Raycast, Toi };

struct Query {
    Kind kind = Kind::Distance;
    ShapeGeometry a = Circle{};
    ShapeGeometry b = Circle{};
    Transform xfA{};   // at_a, or from_a
    Transform xfB{};   // at_b, or from_b
    Transform toA{};
    Transform toB{};
    Vec2 origin{0.0f, 0.0f};
    Vec2 translation{0.0f, 0.0f};
    SourceLoc loc;
};

const std::vector<std::string_view> kKinds = {"distance", "contact", "raycast", "toi"};

ShapeGeometry shapeOf(const Obj& o, std::string_view key) {
    return parseShape(o.reader(), o.required(key), o.path(key), nullptr).geometry;
}

Transform transformOf(const Obj& o, std::string_view key) {
    const Node* n = o.get(key);
    return n ? parseTransform(o.reader(), *n, o.path(key)) : Transform{};
}

Query parseQuery(const Reader& r, const Node& n, const std::string& path) {
    requireObject(r, n, path);
    const Node* kindNode = n.find("kind");
    if (!kindNode) r.fail(n, path, "missing required key \"kind\"");
    const std::string& kind = asString(r, *kindNode, childPath(path, "kind"));
    Query q;
    if (kind == "distance" || kind == "contact") {
        Obj o(r, n, path, {"kind", "a", "at_a", "b", "at_b"});
        q.kind = kind == "distance" ? Kind::Distance : Kind::Contact;
        q.a = shapeOf(o, "a");
        q.xfA = transformOf(o, "at_a");
        q.b = shapeOf(o, "b");
        q.xfB = transformOf(o, "at_b");
    } else if (kind == "raycast") {
        Obj o(r, n, path, {"kind", "shape", "at", "origin", "translation"});
        q.kind = Kind::Raycast;
        q.a = shapeOf(o, "shape");
        q.xfA = transformOf(o, "at");
        o.required("origin");
        o.required("translation");
        // A ray spans at most the +-1e6 m where shapes may be.
        q.origin = o.point("origin", {0.0f, 0.0f});
        q.translation = o.point("translation", {0.0f, 0.0f}, 2.0f * kHuge);
    } else if (kind == "toi") {
        Obj o(r, n, path, {"kind", "a", "from_a", "to_a", "b", "from_b", "to_b"});
        q.kind = Kind::Toi;
        q.a = shapeOf(o, "a");
        q.xfA = transformOf(o, "from_a");
        q.toA = transformOf(o, "to_a");
        q.b = shapeOf(o, "b");
        q.xfB = transformOf(o, "from_b");
        q.toB = transformOf(o, "to_b");
    } else {
        std::string message = "expected \"distance\", \"contact\", \"raycast\" or \"toi\", got \"" + kind + "\"";
        std::string near = nearestKey(kind, kKinds);
        if (!near.empty()) message += ", did you mean \"" + near + "\"?";
        r.fail(*kindNode, childPath(path, "kind"), message);
    }
    q.loc = r.loc(n, path);
    return q;
}

const char* toiStateName(ToiState s) {
    switch (s) {
        case ToiState::Hit: return "hit";
        case ToiState::Separated: return "separated";
        case ToiState::Overlapped: return "overlapped";
        case ToiState::Failed:
        case ToiState::Unknown: return "failed";
    }
    return "failed";
}

void answer(JsonWriter& j, const Query& q) {
    j.beginObject();
    switch (q.kind) {
        case Kind::Distance: {
            DistanceResult d = shapeDistance(q.a, q.xfA, q.b, q.xfB);
            j.key("kind").value("distance");
            j.key("distance").value(d.distance).key("overlap").value(d.overlap).key("depth").value(d.depth);
            j.key("normal").value(d.normal).key("point_a").value(d.pointA).key("point_b").value(d.pointB);
            j.key("iterations").value(d.iterations);
            break;
        }
        case Kind::Contact: {
            Manifold m = collide(q.a, q.xfA, q.b, q.xfB);
            j.key("kind").value("contact").key("normal").value(m.normal).key("points").beginArray();
            for (int k = 0; k < m.pointCount && k < 2; ++k) {
                const ManifoldPoint& p = m.points[k];
                j.beginObject().key("point").value(p.point).key("separation").value(p.separation);
                j.key("id").value(static_cast<int64_t>(p.id)).endObject();
            }
            j.endArray();
            break;
        }
        case Kind::Raycast: {
            RayCastInput in;
            in.origin = q.origin;
            in.translation = q.translation;
            in.maxFraction = 1.0f;
            CastOutput out = rayCast(in, q.a, q.xfA);
            j.key("kind").value("raycast").key("hit").value(out.hit);
            if (out.hit) {
                j.key("fraction").value(out.fraction).key("point").value(out.point).key("normal").value(out.normal);
            } else {
                j.key("fraction").value(1.0f).key("point").value(q.origin + q.translation);
                j.key("normal").value(Vec2{0.0f, 0.0f});
            }
            break;
        }
        case Kind::Toi: {
            Sweep sa{{0.0f, 0.0f}, q.xfA.p, q.toA.p, q.xfA.q, q.toA.q};
            Sweep sb{{0.0f, 0.0f}, q.xfB.p, q.toB.p, q.xfB.q, q.toB.q};
            ToiResult t = timeOfImpact(q.a, sa, q.b, sb);
            j.key("kind").value("toi").key("state").value(toiStateName(t.state)).key("t").value(t.t);
            j.key("iterations").value(t.iterations);
            break;
        }
    }
    j.endObject();
}

}  // namespace

std::string answerQueries(std::string_view json, const std::string& fileName) {
    Reader r(fileName);
    Node root = parseTree(json, fileName);
    Obj top(r, root, "", {"queries"});
    const std::vector<Node>& items = asArray(r, top.required("queries"), "queries");
    std::vector<Query> queries;
    queries.reserve(items.size());
    for (std::size_t k = 0; k < items.size(); ++k) queries.push_back(parseQuery(r, items[k], indexPath("queries", k)));

    JsonWriter j;
    j.beginArray();
    for (const Query& q : queries) {
        j.newline();
        try {
            answer(j, q);
        } catch (const carom::Error& e) {
            // The file's rules are meant to keep the engine from refusing; if
            // it does, the refusal still names the query that caused it.
            r.failAt(q.loc, std::string("refused by the engine: ") + e.what());
        }
    }
    j.endArray();
    std::string out = j.take();
    out += '\n';
    return out;
}

std::string answerQueryFile(const std::string& path) {
    std::string text = readFileText(path);
    return answerQueries(text, path);
}

}  // namespace carom::scene
