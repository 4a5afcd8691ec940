// `carom query`: distance (GJK/EPA), contact manifolds, ray casts and time
// of impact on shapes described as in scene files. The whole file is
// validated before the first answer is computed.
#include <algorithm>
#include <cmath>
#include <string>

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
    Transform xfA{};  // at_a, or from_a
    Transform xfB{};  // at_b, or from_b
    Transform toA{};
    Transform toB{};
    Vec2 origin{0.0f, 0.0f};
    Vec2 translation{0.0f, 0.0f};
    // toi: the angles as written (a Rot pair alone cannot say "turn 4 rad").
    float fromAngleA = 0.0f, toAngleA = 0.0f, fromAngleB = 0.0f, toAngleB = 0.0f;
    int pieces = 1;
    SourceLoc loc;
};

// A sweep's rotation goes the short way from q1 to q2, so one sweep turns at
// most π. A toi query turns each shape linearly from its `from` angle to its
// `to` angle as written, so a larger turn is split into pieces of at most
// 0.9π, asked in order. Bounded so a query stays a bounded amount of work.
constexpr float kMaxPieceTurn = 0.9f * kPi;
constexpr int kMaxToiPieces = 64;

const std::vector<std::string_view> kKinds = {"distance", "contact", "raycast", "toi"};

ShapeGeometry shapeOf(const Obj& o, std::string_view key) {
    return parseShape(o.reader(), o.required(key), o.path(key), nullptr).geometry;
}

Transform transformOf(const Obj& o, std::string_view key) {
    const Node* n = o.get(key);
    return n ? parseTransform(o.reader(), *n, o.path(key)) : Transform{};
}

float angleOf(const Obj& o, std::string_view key) {
    const Node* n = o.get(key);
    return n ? Obj(o.reader(), *n, o.path(key), {"position", "angle"}).number("angle", 0.0f) : 0.0f;
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
        q.translation = o.translation("translation", {0.0f, 0.0f});
    } else if (kind == "toi") {
        Obj o(r, n, path, {"kind", "a", "from_a", "to_a", "b", "from_b", "to_b"});
        q.kind = Kind::Toi;
        q.a = shapeOf(o, "a");
        q.xfA = transformOf(o, "from_a");
        q.toA = transformOf(o, "to_a");
        q.b = shapeOf(o, "b");
        q.xfB = transformOf(o, "from_b");
        q.toB = transformOf(o, "to_b");
        q.fromAngleA = angleOf(o, "from_a");
        q.toAngleA = angleOf(o, "to_a");
        q.fromAngleB = angleOf(o, "from_b");
        q.toAngleB = angleOf(o, "to_b");
        const double turn = std::max(std::fabs(double(q.toAngleA) - q.fromAngleA),
                                     std::fabs(double(q.toAngleB) - q.fromAngleB));
        const double pieces = std::ceil(turn / kMaxPieceTurn);
        if (pieces > kMaxToiPieces) {
            const bool onA = std::fabs(double(q.toAngleA) - q.fromAngleA) >=
                             std::fabs(double(q.toAngleB) - q.fromAngleB);
            o.fail(onA ? "to_a" : "to_b", "a toi shape may turn at most " +
                                              std::to_string(int(kMaxToiPieces * kMaxPieceTurn)) +
                                              " rad from its from angle, got " +
                                              std::to_string(turn));
        }
        q.pieces = std::max(1, int(pieces));
    } else {
        std::string message =
            "expected \"distance\", \"contact\", \"raycast\" or \"toi\", got \"" + kind + "\"";
        std::string near = nearestKey(kind, kKinds);
        if (!near.empty()) message += ", did you mean \"" + near + "\"?";
        r.fail(*kindNode, childPath(path, "kind"), message);
    }
    q.loc = r.loc(n, path);
    return q;
}

const char* toiStateName(ToiState s) {
    switch (s) {
        case ToiState::Hit:
            return "hit";
        case ToiState::Separated:
            return "separated";
        case ToiState::Overlapped:
            return "overlapped";
        case ToiState::Failed:
        case ToiState::Unknown:
            return "failed";
    }
    return "failed";
}

void answer(JsonWriter& j, const Query& q) {
    j.beginObject();
    switch (q.kind) {
        case Kind::Distance: {
            DistanceResult d = shapeDistance(q.a, q.xfA, q.b, q.xfB);
            j.key("kind").value("distance");
            j.key("distance")
                .value(d.distance)
                .key("overlap")
                .value(d.overlap)
                .key("depth")
                .value(d.depth);
            j.key("normal").value(d.normal).key("point_a").value(d.pointA).key("point_b").value(
                d.pointB);
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
                j.key("fraction")
                    .value(out.fraction)
                    .key("point")
                    .value(out.point)
                    .key("normal")
                    .value(out.normal);
            } else {
                j.key("fraction").value(1.0f).key("point").value(q.origin + q.translation);
                j.key("normal").value(Vec2{0.0f, 0.0f});
            }
            break;
        }
        case Kind::Toi: {
            // Piece k covers [k/n, (k+1)/n] of the motion; the first piece
            // that is not "separated" decides.
            const int n = q.pieces;
            auto at = [&](Vec2 p0, Vec2 p1, float a0, float a1, int k) {
                const float f = float(k) / float(n);
                return Transform{lerp(p0, p1, f), makeRot(a0 + f * (a1 - a0))};
            };
            ToiResult t;
            int iterations = 0;
            float time = 1.0f;
            for (int k = 0; k < n; ++k) {
                Transform a1 = n == 1 ? q.xfA : at(q.xfA.p, q.toA.p, q.fromAngleA, q.toAngleA, k);
                Transform a2 =
                    n == 1 ? q.toA : at(q.xfA.p, q.toA.p, q.fromAngleA, q.toAngleA, k + 1);
                Transform b1 = n == 1 ? q.xfB : at(q.xfB.p, q.toB.p, q.fromAngleB, q.toAngleB, k);
                Transform b2 =
                    n == 1 ? q.toB : at(q.xfB.p, q.toB.p, q.fromAngleB, q.toAngleB, k + 1);
                Sweep sa{{0.0f, 0.0f}, a1.p, a2.p, a1.q, a2.q};
                Sweep sb{{0.0f, 0.0f}, b1.p, b2.p, b1.q, b2.q};
                t = timeOfImpact(q.a, sa, q.b, sb);
                iterations += t.iterations;
                if (t.state != ToiState::Separated) {
                    // Touching at the start of a later piece is a hit then.
                    if (k > 0 && t.state == ToiState::Overlapped) t.state = ToiState::Hit;
                    time = (float(k) + t.t) / float(n);
                    break;
                }
            }
            if (t.state == ToiState::Separated) time = 1.0f;
            j.key("kind")
                .value("toi")
                .key("state")
                .value(toiStateName(t.state))
                .key("t")
                .value(time);
            j.key("iterations").value(iterations);
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
    // Each query on its own: every bad one is reported (Reader::finish), none is answered.
    for (std::size_t k = 0; k < items.size(); ++k)
        r.attempt([&] { queries.push_back(parseQuery(r, items[k], indexPath("queries", k))); });
    r.finish();

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
