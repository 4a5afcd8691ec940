// World queries: boxes, points, rays and shape sweeps, through the
// broadphase. The broadphase culls by fat box and by the query's mask against
// each proxy's category; the rest of the filter (the shape's mask against the
// query's category) and the exact geometry test happen here.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "engine/core/rules.hpp"
#include "engine/world/listing.hpp"
#include "engine/world/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom {
namespace {

bool passes(const detail::Shape& s, const QueryFilter& f) {
    return (s.filter.categoryBits & f.maskBits) != 0 && (s.filter.maskBits & f.categoryBits) != 0;
}

}  // namespace

void World::queryAABB(const AABB& box, const QueryFilter& filter,
                      const std::function<bool(ShapeId)>& fn) const {
    detail::requireAABB(box, "box");
    const auto& w = live();
    const detail::CallbackLock lock(w);  // fn must not change the world under the walk
    w.broadphase.query(box, filter.maskBits, [&](int shape) {
        const auto& s = w.shapes[size_t(shape)];
        if (!passes(s, filter)) return true;
        return fn(w.shapeId(shape));
    });
}

namespace {
// The shapes that contain p, through sink(id). The callback captures one
// pointer, so std::function keeps it without allocating.
template <class Sink>
void pointHits(const World& world, Vec2 p, const QueryFilter& filter, Sink& sink) {
    detail::requireFinite(p, "point");
    struct Walk {
        const World& world;
        Vec2 p;
        Sink& sink;
    } walk{world, p, sink};
    world.queryAABB(AABB{p, p}, filter, [w = &walk](ShapeId id) {
        if (w->world.containsPoint(id, w->p)) w->sink(id);
        return true;
    });
}
}  // namespace

std::vector<ShapeId> World::queryPoint(Vec2 p, const QueryFilter& filter) const {
    return detail::listAll<ShapeId>([&](auto& sink) { pointHits(*this, p, filter, sink); });
}
int World::queryPoint(Vec2 p, const QueryFilter& filter, std::span<ShapeId> out) const {
    return detail::listInto(out, [&](auto& sink) { pointHits(*this, p, filter, sink); });
}

// The user's callback returns the new max fraction: 0 stops, the hit's
// fraction clips (closest hit), 1 or more goes on (all hits). The broadphase
// callback has the same meaning, so the value passes straight through; a
// proxy whose shape the ray misses answers "go on" with the current fraction.
void World::castRay(Vec2 origin, Vec2 translation, const QueryFilter& filter,
                    const std::function<float(ShapeId, Vec2, Vec2, float)>& fn) const {
    detail::requireFinite(origin, "origin");
    detail::requireFinite(translation, "translation");
    const auto& w = live();
    const detail::CallbackLock lock(w);  // fn must not change the world under the walk
    const RayCastInput input{origin, translation, 1.0f};
    w.broadphase.rayCast(input, filter.maskBits, [&](const RayCastInput& clipped, int shape) {
        const auto& s = w.shapes[size_t(shape)];
        if (!passes(s, filter)) return clipped.maxFraction;
        const CastOutput out = carom::rayCast(clipped, w.geometry(s), w.bodies[size_t(s.body)].xf);
        if (!out.hit) return clipped.maxFraction;
        return fn(w.shapeId(shape), out.point, out.normal, out.fraction);
    });
}

// Exact overlap: the broadphase's fat boxes give the candidates, the
// narrowphase's distance (GJK, with radii) decides. Shape A is the world's
// shape and B the query, the order of shapeDistance(shape, its transform,
// geometry, xf), so a caller's brute force gets the same bits.
void World::overlapShape(const ShapeGeometry& geometry, const Transform& xf,
                         const QueryFilter& filter, const std::function<bool(ShapeId)>& fn) const {
    validate(geometry);
    detail::requirePose(xf, "xf");
    // Geometry and pose within their bounds keep the box far inside what
    // the broadphase takes.
    const AABB box = computeAABB(geometry, xf);
    const auto& w = live();
    const detail::CallbackLock lock(w);  // fn must not change the world under the walk
    const detail::ShapeRef query = detail::makeRef(geometry);
    w.broadphase.query(box, filter.maskBits, [&](int shape) {
        const auto& s = w.shapes[size_t(shape)];
        if (!passes(s, filter)) return true;
        const detail::ShapeRef target = w.shapeRef(s);
        const DistanceResult d =
            detail::shapeDistance(target, w.bodies[size_t(s.body)].xf, query, xf, nullptr);
        if (!d.overlap && d.distance > 0.0f) return true;
        return fn(w.shapeId(shape));
    });
}

// The fat boxes contain the tight ones, so the broadphase's candidates
// include every shape whose tight box overlaps.
void World::overlapAABB(const AABB& box, const QueryFilter& filter,
                        const std::function<bool(ShapeId)>& fn) const {
    detail::requireAABB(box, "box");
    const auto& w = live();
    const detail::CallbackLock lock(w);  // fn must not change the world under the walk
    w.broadphase.query(box, filter.maskBits, [&](int shape) {
        const auto& s = w.shapes[size_t(shape)];
        if (!passes(s, filter) || !aabbOverlaps(s.aabb, box)) return true;
        return fn(w.shapeId(shape));
    });
}

namespace {
// A cast callback that keeps the closest hit in `best` and clips the cast to
// it. Equal fractions from different structures: the lower id is kept, so
// the answer does not depend on the broadphase's visiting order.
auto keepClosest(RayResult& best) {
    return [&best](ShapeId id, Vec2 p, Vec2 n, float f) {
        if (!best.hit || f < best.fraction || (f == best.fraction && id < best.shape))
            best = {id, p, n, f, true};
        return f;
    };
}
}  // namespace

RayResult World::castRayClosest(Vec2 origin, Vec2 translation, const QueryFilter& filter) const {
    RayResult best;
    castRay(origin, translation, filter, keepClosest(best));
    return best;
}

RayResult World::castShapeClosest(const ShapeGeometry& geometry, const Transform& xf,
                                  Vec2 translation, const QueryFilter& filter) const {
    RayResult best;
    castShape(geometry, xf, translation, filter, keepClosest(best));
    return best;
}

void World::castShape(
    const ShapeGeometry& geometry, const Transform& xf, Vec2 translation, const QueryFilter& filter,
    const std::function<float(ShapeId, Vec2 point, Vec2 normal, float fraction)>& fn) const {
    validate(geometry);
    detail::requirePose(xf, "xf");
    detail::requireCastTranslation(translation, "translation");
    const auto& w = live();
    const detail::CallbackLock lock(w);  // fn must not change the world under the walk
    const detail::ShapeRef mover = detail::makeRef(geometry);
    const AABB box = computeAABB(geometry, xf);
    w.broadphase.shapeCast(
        box, translation, filter.maskBits, [&](const RayCastInput& in, int shape) {
            const auto& s = w.shapes[size_t(shape)];
            if (!passes(s, filter)) return in.maxFraction;
            const detail::ShapeRef target = w.shapeRef(s);
            const CastOutput out = detail::shapeCast(target, w.bodies[size_t(s.body)].xf, mover, xf,
                                                     translation, in.maxFraction);
            if (!out.hit) return in.maxFraction;
            return fn(w.shapeId(shape), out.point, out.normal, out.fraction);
        });
}

}  // namespace carom

namespace carom {
namespace {

void requireMover(const Capsule& mover) {
    validate(ShapeGeometry{mover});
    if (!(mover.radius > 2.0f * kLinearSlop))
        detail::refuse("radius", "more than 2 * kLinearSlop (0.01 m) for a mover",
                       detail::formatFloat(mover.radius));
}

// A chain segment collides from the side its normal points to, the right
// of point1 → point2 (rightPerp, the normal the narrowphase gives bodies,
// manifold_chain.cpp). A mover on the other side, behind it, neither
// collides with it nor is stopped by it, as a body there would not be.
// target is the shape's geometry, or one exposed piece of a polygon tile (a
// chain segment too).
bool behindChain(const detail::ShapeRef& target, const Transform& xf, Vec2 normalTowardsMover) {
    if (target.type != ShapeType::ChainSegment) return false;
    const Segment& seg = static_cast<const ChainSegment*>(target.geometry)->segment;
    const Vec2 e = rotate(xf.q, seg.point2 - seg.point1);
    return dot(rightPerp(e), normalTowardsMover) < 0.0f;
}

// Calls fn(target, piece) with what a mover collides of shape s: its
// geometry (piece null), or for a polygon tile joined to its neighbours
// (engine/world/seams.hpp) each exposed piece as a chain segment (piece, in
// the body frame), so that the faces and corners where tiles meet give no
// planes.
template <class Fn>
void forMoverTargets(const detail::WorldImpl& w, const detail::Shape& s, const Transform& xf,
                     const Capsule& mover, Fn&& fn) {
    if (s.seamTileLinked) {
        const Vec2 centre = invTransformPoint(xf, lerp(mover.center1, mover.center2, 0.5f));
        if (const detail::SeamTile* t = detail::tileToCollide(w, s, centre)) {
            for (const detail::SeamPiece& p : t->pieces) {
                ChainSegment edge;
                if (detail::tilePiece(p, centre, ShapeType::Capsule, edge))
                    fn(detail::makeRef(edge), &edge);
            }
            return;
        }
    }
    fn(w.shapeRef(s), nullptr);
}

}  // namespace

float World::castMover(const Capsule& mover, Vec2 translation, const QueryFilter& filter) const {
    return castMover(mover, translation, filter, nullptr);
}

float World::castMover(const Capsule& mover, Vec2 translation, const QueryFilter& filter,
                       const std::function<bool(ShapeId)>& accept) const {
    requireMover(mover);
    detail::requireCastTranslation(translation, "translation");
    const auto& w = live();
    const detail::CallbackLock lock(w);  // fn must not change the world under the walk
    const detail::ShapeRef ref = detail::makeRef(mover);
    float fraction = 1.0f;
    w.broadphase.shapeCast(
        computeAABB(ShapeGeometry{mover}, Transform{}), translation, filter.maskBits,
        [&](const RayCastInput& in, int shape) {
            const auto& s = w.shapes[size_t(shape)];
            if (s.isSensor || !passes(s, filter)) return in.maxFraction;
            if (accept && !accept(w.shapeId(shape))) return in.maxFraction;
            const Transform& xf = w.bodies[size_t(s.body)].xf;
            // Overlapping at the start: no hit (that surface is a plane of
            // collideMover, and the plane solver pushes the mover out of it). A
            // surface it merely touches still stops it one slop further in, so a
            // slide along a curved surface cannot sink into it.
            float hit = in.maxFraction;
            forMoverTargets(
                w, s, xf, mover, [&](const detail::ShapeRef& target, const ChainSegment*) {
                    const CastOutput out =
                        detail::shapeCast(target, xf, ref, Transform{}, translation, in.maxFraction,
                                          /*canEncroach=*/true);
                    if (out.hit && !behindChain(target, xf, -1.0f * translation))
                        hit = std::min(hit, out.fraction);
                });
            if (!(hit < in.maxFraction)) return in.maxFraction;
            fraction = std::min(fraction, hit);
            return hit;
        });
    return fraction;
}

void World::collideMover(const Capsule& mover, const QueryFilter& filter,
                         const std::function<bool(ShapeId, const PlaneResult&)>& fn) const {
    requireMover(mover);
    const auto& w = live();
    const detail::CallbackLock lock(w);  // fn must not change the world under the walk
    const detail::ShapeRef ref = detail::makeRef(mover);
    AABB box = computeAABB(ShapeGeometry{mover}, Transform{});
    const Vec2 margin{kSpeculativeDistance, kSpeculativeDistance};
    box = {box.lower - margin, box.upper + margin};
    // Collected, then reported in shape order: the planes, and so the motion
    // the game makes from them, must not depend on the broadphase. The first
    // kInlinePlanes are kept on the stack (a character touches a handful of
    // surfaces), so a game's per-step mover update allocates nothing; more
    // spill to the heap.
    using Found = std::pair<int, PlaneResult>;
    constexpr std::size_t kInlinePlanes = 32;
    std::array<Found, kInlinePlanes> inlineFound;
    std::vector<Found> spilled;
    std::size_t count = 0;
    w.broadphase.query(box, filter.maskBits, [&](int shape) {
        const auto& s = w.shapes[size_t(shape)];
        if (s.isSensor || !passes(s, filter)) return true;
        const Transform& xf = w.bodies[size_t(s.body)].xf;
        // The nearest surface of the shape (of a tile, of its exposed pieces).
        bool any = false;
        PlaneResult plane{};
        float nearest = 0.0f;
        forMoverTargets(
            w, s, xf, mover, [&](const detail::ShapeRef& target, const ChainSegment* piece) {
                const DistanceResult d =
                    detail::shapeDistance(target, xf, ref, Transform{}, nullptr);
                const float separation = d.overlap ? -d.depth : d.distance;
                if (separation > kSpeculativeDistance || behindChain(target, xf, d.normal)) return;
                if (piece && detail::seamCornerHidden(*piece, invRotate(xf.q, d.normal))) return;
                if (any && !(separation < nearest)) return;
                any = true;
                nearest = separation;
                plane = PlaneResult{Plane{d.normal, -separation}, d.pointA};
            });
        if (!any) return true;
        const Found f{shape, plane};
        if (count < kInlinePlanes) {
            inlineFound[count] = f;
        } else {
            if (spilled.empty()) spilled.assign(inlineFound.begin(), inlineFound.end());
            spilled.push_back(f);
        }
        ++count;
        return true;
    });
    const std::span<Found> found = count <= kInlinePlanes
                                       ? std::span<Found>(inlineFound.data(), count)
                                       : std::span<Found>(spilled);
    std::sort(found.begin(), found.end(),
              [](const Found& a, const Found& b) { return a.first < b.first; });
    for (const auto& [shape, result] : found)
        if (!fn(w.shapeId(shape), result)) return;
}

}  // namespace carom
