// Manifold reuse for pairs that hardly moved (Box2D v3's
// "contact recycling", physics_world.c b2CollideTask).
//
// A resting pile spends most of its collide stage recomputing manifolds that
// come out the same as last step's. When the narrowphase runs, the contact
// notes the pose it ran at and each point as a material point of either body;
// the next steps, while the pair has moved less than
// WorldDef::contactReuseDistance relative to that pose, the manifold is kept
// (same points, ids and warm-start impulses) and only moved with the bodies:
//
//   pA' = xfA' · localPointA,  pB' = xfB' · localPointB,  n' = qRef' · localNormal
//   separation' = baseSeparation + dot(pB' − pA', n')
//   point = ½ (pA' + pB'),  anchorA = point − xfA'.p,  anchorB = point − xfB'.p
//
// Why that is safe: a manifold is a function of the relative pose of the two
// shapes alone (collideShapes(a, xfA, b, xfB) depends on inv(xfA)·xfB), and
// all its points lie within R = maxExtent + |localCenter| + the speculative
// distance of the smaller body's origin. Measured in the frame of the larger
// body ("reference": static bodies always are), the material points of that
// region have moved at most  |Δt| + R · chord(Δθ)  where t is the small
// body's origin in the reference frame, Δθ the change of relative angle and
// chord(θ) = 2|sin(θ/2)| <= |sin θ| + (1 − cos θ). Each kept point moves with
// its own body, so its separation changes exactly as the two surfaces did at
// that point; what can be missed is a feature that came within range while
// the pair moved (a corner further than the speculative distance at the
// cached pose): it is at most the reuse distance off, and the next
// recomputation, at most that far away, catches it. A pair that was not
// touching reuses only below min(reuse distance, kSpeculativeDistance): no
// point was within the speculative distance, so none can have come into
// contact. Each body's own rotation must also stay within acos(0.98) (11.5°)
// of the cached one, as in Box2D v3, which bounds the drift of the normal.
//
// Never reused: fast bodies and bullets (continuous collision, large
// motions); bodies whose BodyDef::enableContactReuse is false; shapes linked at tile seams (the
// seam geometry depends on which side of the tile the other shape is, engine/world/seams.hpp); a
// manifold whose point count is not the cached one (a pre-solve callback emptied it, setWarmState
// replaced it). The decision reads only the contact and its two bodies and writes only the contact:
// deterministic for any worker count.
#pragma once

#include "solver/contact_record.hpp"

namespace carom::detail {

struct WorldImpl;

/// Keeps c's manifold, moved with the bodies, when the pair hardly moved
/// since the manifold was computed (see above); returns false (changing
/// nothing) when the narrowphase must run. Call after the box tests.
bool tryReuseManifold(const WorldImpl& w, Contact& c);

/// Records the pose and points of c's freshly computed manifold.
void recordManifoldForReuse(const WorldImpl& w, Contact& c);

}  // namespace carom::detail
