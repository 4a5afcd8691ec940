// The world's invariants (see invariants.hpp for the list and their names).
#include "engine/world/invariants.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "engine/world/world_impl.hpp"

namespace carom::detail {

namespace {

BrokenInvariant broken(const char* name, const char* what, int index, const char* detail) {
    return {name, std::string(what) + " " + std::to_string(index) + ": " + detail};
}

bool inSimulation(const Body& b) {
    return b.alive && b.enabled;
}

BrokenInvariant checkBodies(const WorldImpl& w) {
    size_t shapesListed = 0;
    for (size_t bi = 0; bi < w.bodies.size(); ++bi) {
        const Body& b = w.bodies[bi];
        if (!b.alive) continue;
        const int i = int(bi);
        if (!isFinite(b.xf.p) || !isFinite(b.xf.q) || !isFinite(b.center) || !isFinite(b.v) ||
            !std::isfinite(b.w))
            return broken("finite-state", "body", i, "pose, centre or velocity not finite");
        for (int k = 0; k < int(b.shapes.size()); ++k) {
            const int si = b.shapes[size_t(k)];
            if (si < 0 || size_t(si) >= w.shapes.size() || !w.shapes[size_t(si)].alive)
                return broken("body-shapes", "body", i, "lists a shape that is not alive");
            const Shape& s = w.shapes[size_t(si)];
            if (s.body != i || s.bodySlot != k)
                return broken("body-shapes", "shape", si, "its body or list slot disagrees");
        }
        shapesListed += b.shapes.size();
    }
    size_t shapesAlive = 0;
    for (const Shape& s : w.shapes) shapesAlive += s.alive ? 1 : 0;
    if (shapesAlive != shapesListed)
        return broken("body-shapes", "shapes alive:", int(shapesAlive),
                      "not the number the bodies list");
    return {};
}

BrokenInvariant checkAwakeSet(const WorldImpl& w) {
    if (w.awakeSlot.size() < w.bodies.size())
        return broken("awake-set", "awakeSlot size", int(w.awakeSlot.size()),
                      "shorter than the body table");
    for (size_t k = 0; k < w.awakeBodies.size(); ++k) {
        const int bi = w.awakeBodies[k];
        if (bi < 0 || size_t(bi) >= w.bodies.size())
            return broken("awake-set", "awake entry", int(k), "not a body slot");
        const Body& b = w.bodies[size_t(bi)];
        if (!inSimulation(b) || b.type == BodyType::Static || !b.awake)
            return broken("awake-set", "body", bi,
                          "in the awake set but static, asleep, disabled or dead");
        if (b.awakeIndex != int(k) || w.awakeSlot[size_t(bi)] != int(k))
            return broken("awake-set", "body", bi, "awakeIndex or awakeSlot not its position");
    }
    size_t expected = 0;
    for (size_t bi = 0; bi < w.bodies.size(); ++bi) {
        const Body& b = w.bodies[bi];
        const bool awake = inSimulation(b) && b.type != BodyType::Static && b.awake;
        expected += awake ? 1 : 0;
        if (!awake && b.alive && (b.awakeIndex != -1 || w.awakeSlot[bi] != -1))
            return broken("awake-set", "body", int(bi), "out of the awake set but has a slot");
    }
    if (expected != w.awakeBodies.size())
        return broken("awake-set", "awake bodies:", int(w.awakeBodies.size()),
                      "an awake body is missing from the set");
    return {};
}

// marks[body] = island + 1 for each listed body: a body listed twice, or by
// two islands, finds its mark already set.
BrokenInvariant checkIslands(const WorldImpl& w, std::vector<int>& marks) {
    marks.assign(w.bodies.size(), 0);
    for (size_t ii = 0; ii < w.islands.size(); ++ii) {
        const Island& isl = w.islands[ii];
        if (!isl.alive) continue;
        if (isl.bodies.empty())
            return broken("island-membership", "island", int(ii), "alive with no body");
        for (int bi : isl.bodies) {
            if (bi < 0 || size_t(bi) >= w.bodies.size())
                return broken("island-membership", "island", int(ii),
                              "lists a body slot out of range");
            const Body& b = w.bodies[size_t(bi)];
            if (!inSimulation(b) || b.type != BodyType::Dynamic)
                return broken("island-membership", "body", bi,
                              "in an island but not an enabled dynamic body");
            if (marks[size_t(bi)] != 0)
                return broken("island-membership", "body", bi, "listed twice");
            marks[size_t(bi)] = int(ii) + 1;
            if (b.islandId != int(ii))
                return broken("island-membership", "body", bi, "its islandId is another island");
            if (b.awake != isl.awake)
                return broken("island-sleep", "body", bi, "awake state differs from its island's");
        }
    }
    for (size_t bi = 0; bi < w.bodies.size(); ++bi) {
        const Body& b = w.bodies[bi];
        if (!b.alive) continue;
        const bool member = inSimulation(b) && b.type == BodyType::Dynamic;
        if (member && marks[bi] == 0)
            return broken("island-membership", "body", int(bi),
                          "an enabled dynamic body in no island");
        if (!member && b.islandId != -1)
            return broken("island-membership", "body", int(bi),
                          "has an island it cannot belong to");
    }
    return {};
}

bool linksIslands(const Body& a, const Body& b) {
    return inSimulation(a) && inSimulation(b) && a.type == BodyType::Dynamic &&
           b.type == BodyType::Dynamic;
}

BrokenInvariant checkContacts(const WorldImpl& w) {
    int alive = 0;
    for (size_t c = 0; c < w.contacts.size(); ++c) {
        const Contact& ct = w.contacts[c];
        if (!ct.alive) continue;
        ++alive;
        const int ci = int(c);
        const auto validShape = [&](int s) {
            return s >= 0 && size_t(s) < w.shapes.size() && w.shapes[size_t(s)].alive;
        };
        if (!validShape(ct.shapeA) || !validShape(ct.shapeB) || ct.shapeA >= ct.shapeB)
            return broken("contact-graph", "contact", ci,
                          "its shapes are not two live shapes in order");
        if (w.shapes[size_t(ct.shapeA)].body != ct.bodyA ||
            w.shapes[size_t(ct.shapeB)].body != ct.bodyB)
            return broken("contact-graph", "contact", ci, "its bodies are not its shapes' bodies");
        const auto listed = [&](int body, int edge) {
            const std::vector<int>& list = w.bodies[size_t(body)].contacts;
            return edge >= 0 && size_t(edge) < list.size() && list[size_t(edge)] == ci;
        };
        if (!listed(ct.bodyA, ct.edgeA) || !listed(ct.bodyB, ct.edgeB))
            return broken("contact-graph", "contact", ci,
                          "not in its bodies' lists where its edges say");
        if (w.pairMap.find(ct.shapeA, ct.shapeB) != ci)
            return broken("contact-graph", "contact", ci, "the pair map does not find it");
        const bool touching = ct.manifold.pointCount > 0;
        if (((ct.flags & kContactTouching) != 0) != touching)
            return broken("contact-graph", "contact", ci,
                          "touching flag disagrees with its manifold");
        const ContactEnds& ends = w.contactEnds[c];
        if (ends.bodyA != ct.bodyA || ends.bodyB != ct.bodyB || ends.touching != int(touching))
            return broken("contact-graph", "contact", ci, "its contactEnds copy is stale");
        const Body& a = w.bodies[size_t(ct.bodyA)];
        const Body& b = w.bodies[size_t(ct.bodyB)];
        const bool linked = (ct.flags & kContactLinked) != 0;
        if (linked != (touching && linksIslands(a, b)))
            return broken("contact-islands", "contact", ci,
                          "island link does not match touching between dynamic bodies");
        if (linked && a.islandId != b.islandId)
            return broken("contact-islands", "contact", ci, "links two different islands");
    }
    size_t edges = 0;
    for (const Body& b : w.bodies) edges += b.alive ? b.contacts.size() : 0;
    if (alive != w.contactCount || edges != 2 * size_t(alive) || w.pairMap.size() != size_t(alive))
        return broken("contact-graph", "contacts alive:", alive,
                      "the count, the bodies' lists and the pair map disagree");
    return {};
}

BrokenInvariant checkJoints(const WorldImpl& w) {
    for (size_t j = 0; j < w.joints.size(); ++j) {
        const Joint& jt = w.joints[j];
        if (!jt.alive) continue;
        const int ji = int(j);
        const auto listed = [&](int body) {
            if (body < 0 || size_t(body) >= w.bodies.size() || !w.bodies[size_t(body)].alive)
                return false;
            const std::vector<int>& list = w.bodies[size_t(body)].joints;
            return std::find(list.begin(), list.end(), ji) != list.end();
        };
        if (!listed(jt.bodyA) || !listed(jt.bodyB))
            return broken("joint-graph", "joint", ji, "a body is dead or does not list it");
        const Body& a = w.bodies[size_t(jt.bodyA)];
        const Body& b = w.bodies[size_t(jt.bodyB)];
        if (jt.islandLinked != linksIslands(a, b))
            return broken("joint-graph", "joint", ji,
                          "island link does not match two enabled dynamic bodies");
        if (jt.islandLinked && a.islandId != b.islandId)
            return broken("joint-graph", "joint", ji, "links two different islands");
    }
    return {};
}

BrokenInvariant checkProxies(const WorldImpl& w, bool boxesCurrent) {
    int proxies = 0;
    for (size_t s = 0; s < w.shapes.size(); ++s) {
        const Shape& sh = w.shapes[s];
        if (!sh.alive) continue;
        const int si = int(s);
        const Body& b = w.bodies[size_t(sh.body)];
        if (!b.enabled) {
            if (sh.proxy != -1)
                return broken("broadphase-proxies", "shape", si, "of a disabled body has a proxy");
            continue;
        }
        if (sh.proxy < 0)
            return broken("broadphase-proxies", "shape", si, "of an enabled body has no proxy");
        ++proxies;
        if (w.broadphase.shapeIndex(sh.proxy) != si)
            return broken("broadphase-proxies", "shape", si, "its proxy names another shape");
        if (w.broadphase.proxyType(sh.proxy) != proxyTypeOf(b.type))
            return broken("broadphase-proxies", "shape", si, "its proxy's type is not its body's");
        if (boxesCurrent && !aabbContains(w.broadphase.fatAABB(sh.proxy), sh.aabb))
            return broken("broadphase-proxies", "shape", si, "its box leaves its proxy's fat box");
    }
    if (proxies != w.broadphase.proxyCount())
        return broken("broadphase-proxies", "proxies:", w.broadphase.proxyCount(),
                      "not one per shape of an enabled body");
    return {};
}

}  // namespace

BrokenInvariant findBrokenInvariant(const WorldImpl& w, bool boxesCurrent,
                                    std::vector<int>& marks) {
    if (BrokenInvariant b = checkBodies(w)) return b;
    if (BrokenInvariant b = checkAwakeSet(w)) return b;
    if (BrokenInvariant b = checkIslands(w, marks)) return b;
    if (BrokenInvariant b = checkContacts(w)) return b;
    if (BrokenInvariant b = checkJoints(w)) return b;
    return checkProxies(w, boxesCurrent);
}

void validateStage(WorldImpl& w, const char* stage, bool boxesCurrent) {
    const BrokenInvariant b = findBrokenInvariant(w, boxesCurrent, w.scratch.invariantMarks);
    if (!b) return;
    std::fprintf(stderr, "carom: invariant %s broken after %s: %s\n", b.name, stage,
                 b.detail.c_str());
    std::fflush(stderr);
    std::abort();
}

}  // namespace carom::detail
