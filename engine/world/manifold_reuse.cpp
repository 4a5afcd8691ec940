// Manifold reuse: see manifold_reuse.hpp for the rule and why it is safe.
#include "engine/world/manifold_reuse.hpp"

#include <algorithm>
#include <cmath>

#include "engine/world/world_impl.hpp"

namespace carom::detail {

namespace {

// Box2D v3's B2_CONTACT_RECYCLE_COS_ANGLE: each body within ~11.5° of the
// rotation it had when the manifold was computed.
constexpr float kReuseCosAngle = 0.98f;

// The reference body of a pair: a static body if there is one, else the one
// with the larger maxExtent (A on a tie). Manifold points lie within the
// other (smaller) body's extent of its centre, so its extent bounds the
// lever arm of a relative rotation.
bool referenceIsB(const Body& a, const Body& b) {
    if (a.type == BodyType::Static) return false;
    if (b.type == BodyType::Static) return true;
    return b.maxExtent > a.maxExtent;
}

// The pair's relative pose: the other body's origin in the reference body's
// frame and its relative rotation. Origins, not centres of mass: the
// manifold is a function of the origin frames, and a mass change moves the
// centre without moving a shape.
void relativePose(const Body& ref, const Body& other, Vec2& origin, Rot& rotation) {
    origin = invRotate(ref.xf.q, other.xf.p - ref.xf.p);
    rotation = invMulRot(ref.xf.q, other.xf.q);
}

bool reusable(const Body& b) {
    return !b.isFast && !b.isBullet && b.enableContactReuse;
}

}  // namespace

bool tryReuseManifold(const WorldImpl& w, Contact& c) {
    const float reuseDistance = w.def.contactReuseDistance;
    ManifoldReuseCache& r = c.reuse;
    if (!(reuseDistance > 0.0f) || r.valid == 0 || int(r.pointCount) != c.manifold.pointCount)
        return false;
    const Body& a = w.bodies[size_t(c.bodyA)];
    const Body& b = w.bodies[size_t(c.bodyB)];
    if (!reusable(a) || !reusable(b)) return false;
    // Shapes linked at tile seams since the record (a neighbour was added).
    if (seamLinked(w.shapes[size_t(c.shapeA)]) || seamLinked(w.shapes[size_t(c.shapeB)]))
        return false;
    if (dot(Vec2{a.xf.q.c, a.xf.q.s}, Vec2{r.qA.c, r.qA.s}) <= kReuseCosAngle ||
        dot(Vec2{b.xf.q.c, b.xf.q.s}, Vec2{r.qB.c, r.qB.s}) <= kReuseCosAngle)
        return false;

    const Body& ref = r.referenceIsB ? b : a;
    const Body& other = r.referenceIsB ? a : b;
    Vec2 center;
    Rot rotation;
    relativePose(ref, other, center, rotation);
    const Rot dq = invMulRot(r.relativeRotation, rotation);
    // Chord of the relative rotation, bounded without a square root.
    const float chord = std::fabs(dq.s) + (1.0f - dq.c);
    // maxExtent is about the centre of mass; about the origin it is at most
    // |localCenter| more.
    const float reach = other.maxExtent + length(other.localCenter) + kSpeculativeDistance;
    const float moved = length(center - r.relativeCenter) + reach * chord;
    const bool touching = c.manifold.pointCount > 0;
    const float tolerance =
        touching ? reuseDistance : std::min(reuseDistance, kSpeculativeDistance);
    if (!(moved < tolerance)) return false;

    // Kept: points, ids, impulses, rolling impulse. Moved with the bodies.
    // Everything is computed in locals and stored once: written as
    // `mp.point = ...; mp.anchorA = mp.point - a.xf.p`, the point went out
    // as two float stores and came back as one 8-byte load (a failed
    // store-to-load forwarding), and the poses were reloaded after each
    // store (they might alias the manifold), which dominated this
    // function's time on a large pile. The same operations on the same values.
    const Transform xfA = a.xf, xfB = b.xf;
    const Vec2 normal = rotate(ref.xf.q, r.localNormal);
    Manifold& m = c.manifold;
    m.normal = normal;
    for (int i = 0; i < m.pointCount; ++i) {
        const Vec2 pA = transformPoint(xfA, r.localPointA[i]);
        const Vec2 pB = transformPoint(xfB, r.localPointB[i]);
        const Vec2 point = 0.5f * (pA + pB);
        ManifoldPoint& mp = m.points[i];
        mp.separation = r.baseSeparation[i] + dot(pB - pA, normal);
        mp.point = point;
        mp.anchorA = point - xfA.p;
        mp.anchorB = point - xfB.p;
        mp.persisted = true;
    }
    return true;
}

void recordManifoldForReuse(const WorldImpl& w, Contact& c) {
    ManifoldReuseCache& r = c.reuse;
    const Shape& sa = w.shapes[size_t(c.shapeA)];
    const Shape& sb = w.shapes[size_t(c.shapeB)];
    if (!(w.def.contactReuseDistance > 0.0f) || seamLinked(sa) || seamLinked(sb)) {
        r.valid = 0;
        return;
    }
    const Body& a = w.bodies[size_t(c.bodyA)];
    const Body& b = w.bodies[size_t(c.bodyB)];
    const bool refIsB = referenceIsB(a, b);
    const Body& ref = refIsB ? b : a;
    const Body& other = refIsB ? a : b;
    const Manifold& m = c.manifold;
    r.qA = a.xf.q;
    r.qB = b.xf.q;
    relativePose(ref, other, r.relativeCenter, r.relativeRotation);
    r.localNormal = invRotate(ref.xf.q, m.normal);
    for (int i = 0; i < m.pointCount; ++i) {
        r.localPointA[i] = invTransformPoint(a.xf, m.points[i].point);
        r.localPointB[i] = invTransformPoint(b.xf, m.points[i].point);
        // Less the round-off of the frame round trip, so that the pose of the
        // record gives back the computed separation.
        const Vec2 pA = transformPoint(a.xf, r.localPointA[i]);
        const Vec2 pB = transformPoint(b.xf, r.localPointB[i]);
        r.baseSeparation[i] =
            m.points[i].separation - dot(pB - pA, rotate(ref.xf.q, r.localNormal));
    }
    r.pointCount = uint8_t(m.pointCount);
    r.referenceIsB = refIsB ? 1 : 0;
    r.valid = 1;
}

}  // namespace carom::detail
