// Continuous collision: time of impact for fast bodies (Box2D v3 solver.c,
// b2SolveContinuous).
//
// The discrete solver only sees contacts that exist at the start of the step,
// so a body that crosses a thin wall within one step never meets it. A body
// the solver flagged as fast (it moved at least half its thinnest extent) is
// swept from its pose at the step start to its pose at the end:
//
//   fraction = 1
//   for each shape of the body, for each shape whose box meets the sweep box:
//       skip: same body, sensors, filtered pairs, non-static bodies (unless
//             the fast body is a bullet; bullets never test bullets), chain
//             segments the body started behind or ends in front of
//       t = timeOfImpact(other sweep, fast sweep, tMax = fraction)
//       if 0 < t < fraction: fraction = t
//       if t == 0 (touching already at the start): retry with a small core
//             circle at the shape centroid, so a body resting on a floor can
//             still be stopped by a wall it speeds into
//   if fraction < 1: move the body back to the pose at `fraction`
//
// The velocity is kept: at the start of the next step the contact exists,
// with a speculative point, and the solver stops the body there. Non-bullets
// run first; bullets then test against the final poses of everything else.
#include <algorithm>

#include "engine/src/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom::detail {

namespace {

Vec2 shapeCentroid(const WorldImpl& w, const Shape& s) {
    switch (s.type) {
        case ShapeType::Circle: return s.geom.circle.center;
        case ShapeType::Capsule: return 0.5f * (s.geom.capsule.center1 + s.geom.capsule.center2);
        case ShapeType::Segment: return 0.5f * (s.geom.segment.point1 + s.geom.segment.point2);
        case ShapeType::ChainSegment:
            return 0.5f * (s.geom.chainSegment.segment.point1 + s.geom.chainSegment.segment.point2);
        case ShapeType::Polygon: return polygonParts(w.shapeRef(s)).centroid;
        default: return {0.0f, 0.0f};
    }
}

Sweep bodySweep(const Body& b) {
    // Bodies outside this step's solver (static, asleep) did not move.
    if (b.solverIndex < 0) return {b.localCenter, b.center, b.center, b.xf.q, b.xf.q};
    return {b.localCenter, b.center0, b.center, b.q0, b.xf.q};
}

struct FastShape {
    const Shape* shape = nullptr;
    int shapeIndex = -1;
    ShapeRef ref{};
    Vec2 centroid1{0.0f, 0.0f}, centroid2{0.0f, 0.0f};
    float coreRadius = 0.0f;
};

// One candidate pair; returns the (possibly lowered) fraction.
float testShape(WorldImpl& w, const Body& fast, const Sweep& sweep, const FastShape& fs, int otherIndex,
                float fraction) {
    const Shape& other = w.shapes[size_t(otherIndex)];
    if (other.body == fs.shape->body || other.isSensor) return fraction;
    const Body& ob = w.bodies[size_t(other.body)];
    if (ob.type != BodyType::Static) {
        if (!fast.isBullet || ob.isBullet) return fraction;
    }
    if (!filtersCollide(fs.shape->filter, other.filter)) return fraction;
    if (w.customFilter && !w.customFilter(w.shapeId(fs.shapeIndex), w.shapeId(otherIndex))) return fraction;

    if (other.type == ShapeType::ChainSegment) {
        // One-sided: only a body whose centroid starts on the colliding
        // (right) side and ends beyond the segment's line is stopped.
        const Vec2 p1 = transformPoint(ob.xf, other.geom.chainSegment.segment.point1);
        const Vec2 p2 = transformPoint(ob.xf, other.geom.chainSegment.segment.point2);
        const Vec2 e = p2 - p1;
        const float offset1 = cross(fs.centroid1 - p1, e);
        const float offset2 = cross(fs.centroid2 - p1, e);
        if (offset1 < 0.0f || offset2 > 0.0f || offset1 == offset2) return fraction;
    }

    const Sweep otherSweep = bodySweep(ob);
    const ShapeRef otherRef = w.shapeRef(other);
    ToiResult r = timeOfImpact(otherRef, otherSweep, fs.ref, sweep, fraction, kLinearSlop);
    float hit = fraction;
    if (0.0f < r.t && r.t < fraction) {
        hit = r.t;
    } else if (r.t == 0.0f && fs.coreRadius > 0.0f) {
        const Circle core{shapeCentroid(w, *fs.shape), fs.coreRadius};
        r = timeOfImpact(otherRef, otherSweep, ShapeRef{ShapeType::Circle, &core}, sweep, fraction, kLinearSlop);
        if (0.0f < r.t && r.t < fraction) hit = r.t;
    }
    if (hit < fraction && w.preSolve && (fs.shape->enablePreSolveEvents || other.enablePreSolveEvents)) {
        // Let a one-way platform veto the hit, with the contact at the hit pose.
        const Transform xfF = sweepTransform(sweep, hit);
        const Transform xfO = sweepTransform(otherSweep, hit);
        Contact probe;
        probe.shapeA = otherIndex;
        probe.shapeB = fs.shapeIndex;
        probe.manifold = collideShapes(otherRef, xfO, fs.ref, xfF, nullptr);
        if (probe.manifold.pointCount > 0 &&
            !w.preSolve(w.shapeId(otherIndex), w.shapeId(fs.shapeIndex), makeContactData(w, probe)))
            return fraction;
    }
    return hit;
}

void solveBody(WorldImpl& w, int bi) {
    Body& b = w.bodies[size_t(bi)];
    const Sweep sweep = bodySweep(b);
    const Transform xf1{b.center0 - rotate(b.q0, b.localCenter), b.q0};
    const Transform xf2 = b.xf;
    float fraction = 1.0f;
    for (int si : b.shapes) {
        const Shape& s = w.shapes[size_t(si)];
        if (s.isSensor) continue;
        FastShape fs;
        fs.shape = &s;
        fs.shapeIndex = si;
        fs.ref = w.shapeRef(s);
        const Vec2 c = shapeCentroid(w, s);
        fs.centroid1 = transformPoint(xf1, c);
        fs.centroid2 = transformPoint(xf2, c);
        fs.coreRadius = 0.25f * b.minExtent;
        const AABB box = aabbUnion(w.computeShapeAABB(s, xf1), w.computeShapeAABB(s, xf2));
        // Candidates in shape order: the tree and sort-and-sweep visit in
        // different orders, and the running fraction must not depend on it.
        auto& candidates = w.scratch.candidates;
        candidates.clear();
        auto collect = [&](int other) {
            candidates.push_back(other);
            return true;
        };
        if (b.isBullet) w.broadphase.query(box, ~0ull, collect);
        else w.broadphase.queryStatic(box, ~0ull, collect);
        std::sort(candidates.begin(), candidates.end());
        for (int other : candidates) fraction = testShape(w, b, sweep, fs, other, fraction);
    }
    if (fraction < 1.0f) {
        const Rot q = nlerpRot(sweep.q1, sweep.q2, fraction);
        const Vec2 c = lerp(sweep.c1, sweep.c2, fraction);
        b.center = c;
        b.xf = {c - rotate(q, b.localCenter), q};
    }
}

}  // namespace

void solveContinuous(WorldImpl& w, float dt) {
    (void)dt;
    // Order is part of the result: non-bullets (against static geometry only,
    // so they are independent of one another), then bullets in solver order.
    for (int bi : w.scratch.fastBodies) solveBody(w, bi);
    for (int bi : w.scratch.bulletBodies) solveBody(w, bi);
}

}  // namespace carom::detail
