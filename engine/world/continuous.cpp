// Continuous collision: time of impact for fast bodies (Box2D v3 solver.c,
// b2SolveContinuous).
//
// The discrete solver only sees contacts that exist at the start of the step,
// so a body that crosses a thin wall within one step never meets it. A body
// the solver flagged as fast (it moved at least half its thinnest extent) is
// swept from its pose at the step start to its pose at the end:
//
//   fraction = 1
//   for each shape of the body, for each shape whose box meets the sweep box
//   (both end poses; for a turning body, its extent around the centre's path):
//       skip: same body, sensors, filtered pairs, non-static bodies (unless
//             the fast body is a bullet; bullets never test bullets), chain
//             segments the body started behind or ends in front of
//       t = timeOfImpact(other sweep, fast sweep, tMax = fraction)
//       if 0 < t < fraction: fraction = t
//       if t == 0 (touching already at the start): retry with a small core
//             circle at the shape centroid, so a body resting on a floor can
//             still be stopped by a wall it speeds into
//   if fraction < 1: move the body back to the pose at `fraction`
//       (sweepTransform: the same pose the time of impact was computed for)
//
// The velocity is kept: at the start of the next step the contact exists,
// with a speculative point, and the solver stops the body there. Non-bullets
// run first; bullets then test against the final poses of everything else.
//
// Bullets against bullets (two fast shots crossing inside one step, which
// Box2D, Rapier and Chipmunk let pass through each other) and against fast
// debris: after each bullet has its fraction against static and slow bodies,
// every pair of a bullet and another bullet or fast body whose swept boxes
// meet (the broadphase still holds the boxes of the step's start, metres
// away for such bodies) gets a time of impact with both sweeps, up to the
// smaller of their fractions. These meetings are taken in time order (ties by body
// index): a meeting stops both bullets there when both are still moving at
// that time. A meeting that comes after one of the two already stopped is
// tested again against that bullet's stopped pose, over the time the other
// is still moving. So a bullet fired into another meets it where their paths
// cross, and the result does not depend on the order bullets were listed in.
#include <algorithm>

#include "engine/world/world_impl.hpp"
#include "narrowphase/narrowphase.hpp"

namespace carom::detail {

namespace {

Vec2 shapeCentroid(const WorldImpl& w, const Shape& s) {
    switch (s.type) {
        case ShapeType::Circle:
            return s.geom.circle.center;
        case ShapeType::Capsule:
            return 0.5f * (s.geom.capsule.center1 + s.geom.capsule.center2);
        case ShapeType::Segment:
            return 0.5f * (s.geom.segment.point1 + s.geom.segment.point2);
        case ShapeType::ChainSegment:
            return 0.5f * (s.geom.chainSegment.segment.point1 + s.geom.chainSegment.segment.point2);
        case ShapeType::Polygon:
            return polygonParts(w.shapeRef(s)).centroid;
        default:
            return {0.0f, 0.0f};
    }
}

Sweep bodySweep(const Body& b) {
    // Bodies outside this step's solver (static, asleep) did not move (no
    // body sleeps before the sleep stage, after this).
    if (b.awakeIndex < 0) return {b.localCenter, b.center, b.center, b.xf.q, b.xf.q};
    return {b.localCenter, b.center0, b.center, b.q0, b.xf.q};
}

struct FastShape {
    const Shape* shape = nullptr;
    int shapeIndex = -1;
    ShapeRef ref{};
    Vec2 centroid1{0.0f, 0.0f}, centroid2{0.0f, 0.0f};
    float coreRadius = 0.0f;
};

// Which other bodies a test sees: for a fast body, static ones; for a bullet,
// also the slow moving ones (fast bodies and other bullets meet it in
// meetBullets instead); or, for a meeting, the body the caller names.
enum class Others : uint8_t { Usual, Given };

// One candidate pair; returns the (possibly lowered) fraction. otherSweep
// overrides the other body's sweep (a bullet's stopped pose).
float testShape(WorldImpl& w, const Body& fast, const Sweep& sweep, const FastShape& fs,
                int otherIndex, float fraction, Others others = Others::Usual,
                const Sweep* otherSweepOverride = nullptr) {
    const Shape& other = w.shapes[size_t(otherIndex)];
    if (other.body == fs.shape->body || other.isSensor) return fraction;
    const Body& ob = w.bodies[size_t(other.body)];
    if (others == Others::Usual && ob.type != BodyType::Static) {
        if (!fast.isBullet || ob.isFast) return fraction;
    }
    if (!filtersCollide(fs.shape->filter, other.filter)) return fraction;
    if (w.customFilter && !callGame(w, true, [&] {
            return w.customFilter(w.shapeId(fs.shapeIndex), w.shapeId(otherIndex));
        }))
        return fraction;

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
    if (other.type == ShapeType::Segment && seamLinked(other)) {
        // A tile joined to its neighbours (engine/world/seams.hpp) is part of
        // one surface: like a chain segment it stops only a body whose
        // centroid crosses its line (from either side, it is two-sided), not
        // one sliding along it into the seam with the next tile.
        const Vec2 p1 = transformPoint(ob.xf, other.geom.segment.point1);
        const Vec2 e = transformPoint(ob.xf, other.geom.segment.point2) - p1;
        const float offset1 = cross(fs.centroid1 - p1, e);
        const float offset2 = cross(fs.centroid2 - p1, e);
        if (!((offset1 > 0.0f && offset2 <= 0.0f) || (offset1 < 0.0f && offset2 >= 0.0f)))
            return fraction;
    }

    const Sweep otherSweep = otherSweepOverride != nullptr ? *otherSweepOverride : bodySweep(ob);
    const ShapeRef otherRef = w.shapeRef(other);
    auto impact = [&](ShapeRef target) {
        ToiResult r = timeOfImpact(target, otherSweep, fs.ref, sweep, fraction, kLinearSlop);
        if (0.0f < r.t && r.t < fraction) return r.t;
        if (r.t == 0.0f && fs.coreRadius > 0.0f) {
            const Circle core{shapeCentroid(w, *fs.shape), fs.coreRadius};
            r = timeOfImpact(target, otherSweep, ShapeRef{ShapeType::Circle, &core}, sweep,
                             fraction, kLinearSlop);
            if (0.0f < r.t && r.t < fraction) return r.t;
        }
        return fraction;
    };
    float hit = fraction;
    const SeamTile* tile = other.seamTileLinked
                               ? tileToCollide(w, other, invTransformPoint(ob.xf, fs.centroid1))
                               : nullptr;
    if (tile != nullptr) {
        // A polygon tile joined to its neighbours (engine/world/seams.hpp):
        // its exposed pieces stop a body as chain segments do, only one whose
        // centroid crosses a piece's line from its outer side; the faces
        // where tiles meet stop nothing.
        const Vec2 c1 = invTransformPoint(ob.xf, fs.centroid1);
        const Vec2 c2 = invTransformPoint(ob.xf, fs.centroid2);
        for (const SeamPiece& piece : tile->pieces) {
            ChainSegment edge;
            if (!tilePiece(piece, c1, fs.shape->type, edge)) continue;
            const Vec2 e = edge.segment.point2 - edge.segment.point1;
            const float offset1 = cross(c1 - edge.segment.point1, e);
            const float offset2 = cross(c2 - edge.segment.point1, e);
            if (offset1 < 0.0f || offset2 > 0.0f || offset1 == offset2) continue;
            hit = std::min(hit, impact(makeRef(edge)));
        }
    } else {
        hit = impact(otherRef);
    }
    if (hit < fraction && w.preSolve &&
        (fs.shape->enablePreSolveEvents || other.enablePreSolveEvents)) {
        // Let a one-way platform veto the hit, with the contact at the hit pose.
        const Transform xfF = sweepTransform(sweep, hit);
        const Transform xfO = sweepTransform(otherSweep, hit);
        Contact probe;
        probe.shapeA = otherIndex;
        probe.shapeB = fs.shapeIndex;
        probe.manifold = collideShapes(otherRef, xfO, fs.ref, xfF, nullptr);
        if (probe.manifold.pointCount > 0 && !callGame(w, true, [&] {
                return w.preSolve(w.shapeId(otherIndex), w.shapeId(fs.shapeIndex),
                                  makeContactData(w, probe));
            }))
            return fraction;
    }
    return hit;
}

FastShape makeFastShape(const WorldImpl& w, const Body& b, int si, const Transform& xf1,
                        const Transform& xf2) {
    const Shape& s = w.shapes[size_t(si)];
    FastShape fs;
    fs.shape = &s;
    fs.shapeIndex = si;
    fs.ref = w.shapeRef(s);
    const Vec2 c = shapeCentroid(w, s);
    fs.centroid1 = transformPoint(xf1, c);
    fs.centroid2 = transformPoint(xf2, c);
    fs.coreRadius = 0.25f * b.minExtent;
    return fs;
}

// The box a shape sweeps: both end poses, and for a turning shape its extent
// around the centre's path (a long rod spinning about its centre passes
// through a wall that neither end pose's box reaches: every point stays
// within the shape's extent of the centre of mass, which moves on a segment).
AABB sweptBox(const WorldImpl& w, const Body& b, const Sweep& sweep, const FastShape& fs,
              const Transform& xf1, const Transform& xf2) {
    AABB box = aabbUnion(w.computeShapeAABB(*fs.shape, xf1), w.computeShapeAABB(*fs.shape, xf2));
    if (sweep.q1.c != sweep.q2.c || sweep.q1.s != sweep.q2.s) {
        const float extent = shapeExtent(fs.ref, b.localCenter);
        const Vec2 r{extent, extent};
        box = aabbUnion(box, AABB{minVec(sweep.c1, sweep.c2) - r, maxVec(sweep.c1, sweep.c2) + r});
    }
    return box;
}

Transform startTransform(const Body& b) {
    return {b.center0 - rotate(b.q0, b.localCenter), b.q0};
}

// The box a body's shapes sweep over the step (from its pose at the start to
// where it is now).
AABB bodySweptBox(const WorldImpl& w, const Body& b) {
    const Sweep sweep = bodySweep(b);
    const Transform xf1 = startTransform(b), xf2 = b.xf;
    AABB box{b.center, b.center};
    for (int si : b.shapes)
        if (!w.shapes[size_t(si)].isSensor)
            box =
                aabbUnion(box, sweptBox(w, b, sweep, makeFastShape(w, b, si, xf1, xf2), xf1, xf2));
    return box;
}

// The fraction of its sweep a fast body may travel before it meets a static
// shape (bullets: any shape of a body that is not a bullet). `candidates` is
// the caller's scratch (one per thread when fast bodies run in parallel).
float bodyFraction(WorldImpl& w, int bi, std::vector<int>& candidates) {
    Body& b = w.bodies[size_t(bi)];
    const Sweep sweep = bodySweep(b);
    const Transform xf1 = startTransform(b);
    const Transform xf2 = b.xf;
    float fraction = 1.0f;
    for (int si : b.shapes) {
        if (w.shapes[size_t(si)].isSensor) continue;
        const FastShape fs = makeFastShape(w, b, si, xf1, xf2);
        const AABB box = sweptBox(w, b, sweep, fs, xf1, xf2);
        // Candidates in shape order: the tree and sort-and-sweep visit in
        // different orders, and the running fraction must not depend on it.
        candidates.clear();
        auto collect = [&](int other) {
            candidates.push_back(other);
            return true;
        };
        if (b.isBullet)
            w.broadphase.query(box, ~0ull, collect);
        else
            w.broadphase.queryStatic(box, ~0ull, collect);
        std::sort(candidates.begin(), candidates.end());
        for (int other : candidates) fraction = testShape(w, b, sweep, fs, other, fraction);
    }
    return fraction;
}

// Moves the body back to the pose at `fraction` of its sweep: the pose the
// time of impact was computed for (angle linear in the fraction). A
// normalised lerp of the rotations turns at a different rate: for a long rod
// turning ~2 rad in the step it put the rod 0.35 m short of the wall, or into it.
void applyFraction(WorldImpl& w, int bi, float fraction) {
    if (!(fraction < 1.0f)) return;
    Body& b = w.bodies[size_t(bi)];
    const Sweep sweep = bodySweep(b);
    b.xf = sweepTransform(sweep, fraction);
    b.center = lerp(sweep.c1, sweep.c2, fraction);
}

// The part [t0, t1] of a sweep, as a sweep of its own over [0, 1].
Sweep subSweep(const Sweep& s, float t0, float t1) {
    const Transform a = sweepTransform(s, t0), b = sweepTransform(s, t1);
    return {s.localCenter, lerp(s.c1, s.c2, t0), lerp(s.c1, s.c2, t1), a.q, b.q};
}

// A sweep that stays at the pose of fraction t.
Sweep stoppedSweep(const Sweep& s, float t) {
    const Transform a = sweepTransform(s, t);
    const Vec2 c = lerp(s.c1, s.c2, t);
    return {s.localCenter, c, c, a.q, a.q};
}

// Bullets against bullets and against fast bodies, in time order (see the top
// of the file). Works on S.movers: the bullets, then the fast bodies.
void meetBullets(WorldImpl& w) {
    StepScratch& S = w.scratch;
    const auto& bullets = S.movers;  // bullets, then fast bodies
    auto& fractions = S.moverFractions;
    auto& slots = S.bulletSlots;  // (body index, slot), sorted: body → slot
    auto& events = S.bulletMeetings;
    slots.clear();
    for (size_t i = 0; i < bullets.size(); ++i) slots.push_back({bullets[i], int(i)});
    std::sort(slots.begin(), slots.end());
    auto slotOf = [&](int body) {
        auto it = std::lower_bound(slots.begin(), slots.end(), std::pair<int, int>{body, -1});
        return it != slots.end() && it->first == body ? it->second : -1;
    };
    // The earliest meeting of bullet a's shapes with bullet b's, with b's
    // sweep (or stopped pose) given, up to tMax; tMax when none.
    auto meet = [&](int a, int b, const Sweep& sweepA, const Sweep& sweepB, float tMax) {
        const Body& ba = w.bodies[size_t(bullets[size_t(a)])];
        const Transform xf1 = sweepTransform(sweepA, 0.0f), xf2 = sweepTransform(sweepA, 1.0f);
        float t = tMax;
        for (int si : ba.shapes) {
            if (w.shapes[size_t(si)].isSensor) continue;
            const FastShape fs = makeFastShape(w, ba, si, xf1, xf2);
            for (int sj : w.bodies[size_t(bullets[size_t(b)])].shapes)
                t = testShape(w, ba, sweepA, fs, sj, t, Others::Given, &sweepB);
        }
        return t;
    };

    // Candidate pairs by the boxes the bullets swept (the broadphase holds
    // their start boxes, metres from where they meet): sort and sweep on x.
    auto& boxes = S.bulletBoxes;
    auto& order = S.candidates;
    boxes.clear();
    order.clear();
    for (size_t i = 0; i < bullets.size(); ++i) {
        boxes.push_back(bodySweptBox(w, w.bodies[size_t(bullets[i])]));
        order.push_back(int(i));
    }
    std::sort(order.begin(), order.end(), [&](int x, int y) {
        return boxes[size_t(x)].lower.x < boxes[size_t(y)].lower.x ||
               (boxes[size_t(x)].lower.x == boxes[size_t(y)].lower.x &&
                bullets[size_t(x)] < bullets[size_t(y)]);
    });
    events.clear();
    for (size_t p = 0; p < order.size(); ++p) {
        const int i = order[p];
        for (size_t q = p + 1;
             q < order.size() && boxes[size_t(order[q])].lower.x <= boxes[size_t(i)].upper.x; ++q) {
            const int j = order[q];
            if (!aabbOverlaps(boxes[size_t(i)], boxes[size_t(j)])) continue;
            const Body& bi = w.bodies[size_t(bullets[size_t(i)])];
            const Body& bj = w.bodies[size_t(bullets[size_t(j)])];
            if (!bi.isBullet && !bj.isBullet) continue;  // fast bodies meet only bullets
            const float tMax = std::min(fractions[size_t(i)], fractions[size_t(j)]);
            const float t = meet(i, j, bodySweep(bi), bodySweep(bj), tMax);
            const int lo = std::min(bullets[size_t(i)], bullets[size_t(j)]),
                      hi = std::max(bullets[size_t(i)], bullets[size_t(j)]);
            if (t < tMax) events.push_back({t, lo, hi, -1});
        }
    }
    // Earliest first; ties by body indices, so the order is the world's, not the list's.
    auto later = [](const BulletMeeting& x, const BulletMeeting& y) {
        if (x.t != y.t) return x.t > y.t;
        if (x.bodyA != y.bodyA) return x.bodyA > y.bodyA;
        return x.bodyB > y.bodyB;
    };
    std::make_heap(events.begin(), events.end(), later);
    while (!events.empty()) {
        std::pop_heap(events.begin(), events.end(), later);
        const BulletMeeting e = events.back();
        events.pop_back();
        const int a = slotOf(e.bodyA), b = slotOf(e.bodyB);
        float& fa = fractions[size_t(a)];
        float& fb = fractions[size_t(b)];
        if (e.stopOnly >= 0) {
            // A meeting with a stopped bullet: only the moving one stops.
            float& f = e.stopOnly == e.bodyA ? fa : fb;
            f = std::min(f, e.t);
            continue;
        }
        if (e.t < fa && e.t < fb) {
            fa = fb = e.t;
            continue;
        }
        // One of them stopped before this meeting: test the other, over the
        // time it still moves after that stop, against the stopped pose.
        const bool aStopped = fa <= e.t;
        const int moving = aStopped ? b : a, stopped = aStopped ? a : b;
        const float t0 = fractions[size_t(stopped)], t1 = fractions[size_t(moving)];
        if (!(t0 < t1)) continue;
        const Sweep movingSweep = bodySweep(w.bodies[size_t(bullets[size_t(moving)])]);
        const Sweep rest = stoppedSweep(bodySweep(w.bodies[size_t(bullets[size_t(stopped)])]), t0);
        const float u = meet(moving, stopped, subSweep(movingSweep, t0, t1), rest, 1.0f);
        if (u < 1.0f) {
            events.push_back({t0 + u * (t1 - t0), e.bodyA, e.bodyB, bullets[size_t(moving)]});
            std::push_heap(events.begin(), events.end(), later);
        }
    }
}

}  // namespace

void solveContinuous(WorldImpl& w, float dt) {
    (void)dt;
    // Order is part of the result: non-bullets (against static geometry only,
    // so they are independent of one another) are moved first; bullets then
    // see their final poses, and meet each other and the fast bodies in time order.
    StepScratch& S = w.scratch;
    // A fast non-bullet meets static shapes only, so its fraction depends on
    // nothing another fast body does: they are split among the workers in
    // parts, each with its own candidate list, and moved afterwards in
    // order. Not while a pre-solve or custom filter callback is set, which
    // testShape may call: callbacks run on the calling thread, one at a time.
    const int fast = int(S.fastBodies.size());
    const TaskDispatch dispatch = taskDispatch(w);
    if (!w.preSolve && !w.customFilter && dispatch.workers > 1 && fast >= 16) {
        constexpr int kMaxParts = 32;
        const int parts = std::clamp(fast / 8, 1, kMaxParts);
        if (S.candidateParts.size() < size_t(parts)) S.candidateParts.resize(kMaxParts);
        S.fastFractions.resize(size_t(fast));
        runParts(dispatch, parts, [&](int begin, int end) {
            for (int k = begin; k < end; ++k)
                for (int i = int(int64_t(fast) * k / parts);
                     i < int(int64_t(fast) * (k + 1) / parts); ++i)
                    S.fastFractions[size_t(i)] =
                        bodyFraction(w, S.fastBodies[size_t(i)], S.candidateParts[size_t(k)]);
        });
        for (int i = 0; i < fast; ++i)
            applyFraction(w, S.fastBodies[size_t(i)], S.fastFractions[size_t(i)]);
    } else {
        for (int bi : S.fastBodies) applyFraction(w, bi, bodyFraction(w, bi, S.candidates));
    }
    if (S.bulletBodies.empty()) return;
    S.movers.assign(S.bulletBodies.begin(), S.bulletBodies.end());
    S.movers.insert(S.movers.end(), S.fastBodies.begin(), S.fastBodies.end());
    S.moverFractions.clear();
    for (int bi : S.bulletBodies) S.moverFractions.push_back(bodyFraction(w, bi, S.candidates));
    S.moverFractions.resize(S.movers.size(), 1.0f);
    if (S.movers.size() > 1) meetBullets(w);
    for (size_t i = 0; i < S.movers.size(); ++i) applyFraction(w, S.movers[i], S.moverFractions[i]);
}

}  // namespace carom::detail
