// Time of impact by conservative advancement, and linear shape casts.
//
// Conservative advancement (Mirtich, "Impulse-based dynamic simulation of
// rigid body systems", 1996, ch. 5; Catto, "Continuous Collision", GDC 2013):
// if two convex shapes are a distance d apart with normal n (A to B), the gap
// along the fixed axis n cannot shrink faster than
//
//   bound = -dot(n, vB - vA) + |wA| * extentA + |wB| * extentB
//
// where v are the linear velocities of the centres of mass, w the angular
// velocities and extent the largest distance of a shape point from its
// centre of mass. The shapes cannot touch before d / bound, and they cannot
// come within `target` before (d - target) / bound. Repeating
//
//   t = 0
//   loop: d, n = distance at t
//         if d < target + tolerance: hit at t
//         if bound <= 0: separated (the gap along n never closes)
//         t += (d - target) / bound
//         if t >= tMax: separated
//
// never steps past the time at which the shapes come within `target`, so the
// reported time is never later than first contact and the shapes are then
// apart by target (minus rounding) to target + tolerance. Velocities are per
// unit of sweep time: the sweep moves the centre linearly and the angle
// linearly, so both are constant over the sweep.
//
// A shape cast is the purely linear special case, where bound is exactly the
// approach speed along n: the same loop converges in one step for a face
// and in a few for a vertex (it is GJK ray casting in disguise, van den
// Bergen 2004).
#include <algorithm>
#include <cmath>

#include "narrowphase/src/gjk.hpp"
#include "narrowphase/src/proxy.hpp"

namespace carom {

Transform sweepTransform(const Sweep& sweep, float t) {
    float da = relativeAngle(sweep.q1, sweep.q2);
    Rot q = mulRot(sweep.q1, makeRot(t * da));
    Vec2 c = lerp(sweep.c1, sweep.c2, t);
    return {c - rotate(q, sweep.localCenter), q};
}

namespace detail {
namespace {

constexpr int kMaxToiIterations = 64;
constexpr int kMaxCastIterations = 32;
// Bisection steps when an advancement lands on contact (see timeOfImpact).
constexpr int kMaxBackOffIterations = 24;
constexpr float kToiTolerance = 0.25f * kLinearSlop;
constexpr float kCastTolerance = 0.1f * kLinearSlop;

// Signed distance of the rounded shapes at two world transforms, with the
// normal in world frame. Overlapping cores give a negative value without
// running EPA (the advancement only needs to know it is not positive).
struct Gap {
    float separation = 0.0f;
    Vec2 normal{1.0f, 0.0f};
    Vec2 pointA{0.0f, 0.0f};
    Vec2 pointB{0.0f, 0.0f};
    bool coresOverlap = false;
};

Gap gapAt(const Proxy& a, const Transform& xfA, const Proxy& b, const Transform& xfB,
          SimplexCache* cache) {
    Transform xf = invMulTransforms(xfA, xfB);
    GjkOutput g = gjkDistance(a, b, xf, cache);
    Gap gap;
    gap.coresOverlap = g.overlap;
    if (g.overlap) {
        gap.separation = -(a.radius + b.radius);
        return gap;
    }
    gap.separation = g.distance - a.radius - b.radius;
    gap.normal = rotate(xfA.q, g.normal);
    gap.pointA = transformPoint(xfA, g.pointA + a.radius * g.normal);
    gap.pointB = transformPoint(xfA, g.pointB - b.radius * g.normal);
    return gap;
}

}  // namespace

ToiResult timeOfImpact(ShapeRef a, const Sweep& sa, ShapeRef b, const Sweep& sb, float tMax,
                       float target) {
    ToiResult result;
    if (!(tMax > 0.0f)) tMax = 0.0f;
    if (tMax > 1.0f) tMax = 1.0f;
    if (!(target >= 0.0f)) target = 0.0f;

    Proxy pa = makeProxy(a);
    Proxy pb = makeProxy(b);
    float angleA = std::fabs(relativeAngle(sa.q1, sa.q2));
    float angleB = std::fabs(relativeAngle(sb.q1, sb.q2));
    float angularBound =
        angleA * shapeExtent(a, sa.localCenter) + angleB * shapeExtent(b, sb.localCenter);
    Vec2 dv = (sb.c2 - sb.c1) - (sa.c2 - sa.c1);

    SimplexCache cache;
    auto gapAtTime = [&](float time) {
        return gapAt(pa, sweepTransform(sa, time), pb, sweepTransform(sb, time), &cache);
    };
    float t = 0.0f;
    float tSafe = 0.0f;  // the last time known to be at least target + tolerance apart
    for (int iter = 0; iter < kMaxToiIterations; ++iter) {
        Gap gap = gapAtTime(t);
        result.iterations = iter + 1;

        if (gap.coresOverlap || gap.separation <= 0.0f) {
            if (t == 0.0f) {
                result.state = ToiState::Overlapped;
                result.t = 0.0f;
                return result;
            }
            // Each advancement stops `target` short of contact, so touching
            // at t > 0 means rounding (or a GJK distance that stopped a hair
            // long) carried the last step past it. A hit must mean "within
            // target + tolerance and not touching": bisect back between the
            // last safe time and t for such a time.
            float lo = tSafe, hi = t;
            for (int k = 0; k < kMaxBackOffIterations; ++k) {
                float mid = 0.5f * (lo + hi);
                if (!(mid > lo && mid < hi)) break;
                Gap g = gapAtTime(mid);
                ++result.iterations;
                if (g.coresOverlap || g.separation <= 0.0f) {
                    hi = mid;
                } else if (g.separation < target + kToiTolerance) {
                    result.state = ToiState::Hit;
                    result.t = mid;
                    return result;
                } else {
                    lo = mid;
                }
            }
            // No time in the window found: report the safe time as what it is.
            result.state = ToiState::Failed;
            result.t = lo;
            return result;
        }
        if (gap.separation < target + kToiTolerance) {
            result.state = ToiState::Hit;
            result.t = t;
            return result;
        }
        tSafe = t;
        float bound = -dot(gap.normal, dv) + angularBound;
        if (!(bound > 1.0e-9f)) {
            result.state = ToiState::Separated;
            result.t = tMax;
            return result;
        }
        float dt = (gap.separation - target) / bound;
        if (!(t + dt < tMax)) {
            result.state = ToiState::Separated;
            result.t = tMax;
            return result;
        }
        t += dt;
    }
    // The iteration cap: t is still a safe (pre-contact) time.
    result.state = ToiState::Failed;
    result.t = t;
    return result;
}

CastOutput shapeCast(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                     Vec2 translationB, float maxFraction, bool canEncroach) {
    CastOutput out;
    Proxy pa = makeProxy(a);
    Proxy pb = makeProxy(b);
    if (!(maxFraction >= 0.0f)) maxFraction = 0.0f;
    // Stop `target` apart; a separation under `hitBelow` is contact.
    float target = 0.5f * kCastTolerance;
    float hitBelow = kCastTolerance;

    SimplexCache cache;
    float t = 0.0f;
    for (int iter = 0; iter < kMaxCastIterations; ++iter) {
        Transform xf = {xfB.p + t * translationB, xfB.q};
        Gap gap = gapAt(pa, xfA, pb, xf, &cache);
        out.iterations = iter + 1;
        if (iter == 0 && canEncroach) {
            // Cores overlapping at the start: not in the way (the caller, a
            // mover, is pushed out of it by its plane solver).
            if (gap.coresOverlap) return out;
            if (gap.separation < hitBelow) {
                // Already touching: the mover may come one linear slop
                // closer, but never deeper than one slop of overlap; the cast
                // stops short of that depth (as it stops short of contact
                // otherwise), so repeated casts cannot sink it step by step.
                // A shape at that depth stops a move into it at once and
                // lets a move along or away from it go.
                const float deepest = std::max(gap.separation - kLinearSlop, -kLinearSlop);
                hitBelow = deepest + kCastTolerance;
                target = deepest + 0.5f * kCastTolerance;
            }
        }
        if (gap.coresOverlap || gap.separation < hitBelow) {
            // Touching (or overlapping at the start): report the contact.
            if (gap.coresOverlap) {
                Transform rel = invMulTransforms(xfA, xf);
                DistanceResult d = distanceLocal(pa, pb, rel, nullptr);
                gap.normal = rotate(xfA.q, d.normal);
                gap.pointA = transformPoint(xfA, d.pointA);
            }
            out.hit = true;
            out.fraction = t;
            out.normal = gap.normal;
            out.point = gap.pointA;
            return out;
        }
        float approach = -dot(gap.normal, translationB);
        if (!(approach > 1.0e-12f)) return out;
        t += (gap.separation - target) / approach;
        if (!(t <= maxFraction)) return out;
    }
    return out;
}

}  // namespace detail
}  // namespace carom
