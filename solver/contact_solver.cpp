// Soft contact constraints: prepare, warm start, solve/relax, restitution,
// store. The equations are in contact_solver.hpp.
#include "solver/contact_solver.hpp"

#include <algorithm>
#include <cmath>

#include "engine/src/world_impl.hpp"

namespace carom::detail {

namespace {

float mixFriction(FrictionMixing m, float a, float b) {
    switch (m) {
        case FrictionMixing::Min: return std::min(a, b);
        case FrictionMixing::Max: return std::max(a, b);
        case FrictionMixing::Average: return 0.5f * (a + b);
        case FrictionMixing::GeometricMean:
        default: return std::sqrt(a * b);
    }
}

float mixRestitution(RestitutionMixing m, float a, float b) {
    switch (m) {
        case RestitutionMixing::Min: return std::min(a, b);
        case RestitutionMixing::GeometricMean: return std::sqrt(a * b);
        case RestitutionMixing::Average: return 0.5f * (a + b);
        case RestitutionMixing::Max:
        default: return std::max(a, b);
    }
}

float shapeRadius(const Shape& s, const WorldImpl& w) {
    switch (s.type) {
        case ShapeType::Circle: return s.geom.circle.radius;
        case ShapeType::Capsule: return s.geom.capsule.radius;
        case ShapeType::Polygon: return polygonParts(w.shapeRef(s)).radius;
        default: return 0.0f;
    }
}

// Velocities of the two bodies of a constraint, copied out of the states so
// that the shared zero state of a static body is never written.
struct Pair {
    Vec2 vA, vB;
    float wA, wB;
    Vec2 dpA, dpB;
    Rot dqA, dqB;
};

// A static or sleeping side reads as at rest.
const BodyState kRest{};

Pair load(const ContactConstraint& c, const StepContext& ctx) {
    const BodyState& a = c.indexA >= 0 ? ctx.states[size_t(c.indexA)] : kRest;
    const BodyState& b = c.indexB >= 0 ? ctx.states[size_t(c.indexB)] : kRest;
    return Pair{a.v, b.v, a.w, b.w, a.dp, b.dp, a.dq, b.dq};
}

// Only sides that can move are written back: a kinematic body (infinite
// mass) is shared by constraints of one colour and must stay read-only.
void storeVelocities(const ContactConstraint& c, const StepContext& ctx, const Pair& p) {
    if (c.indexA >= 0 && (c.invMassA > 0.0f || c.invIA > 0.0f)) {
        BodyState& a = ctx.states[size_t(c.indexA)];
        a.v = p.vA, a.w = p.wA;
    }
    if (c.indexB >= 0 && (c.invMassB > 0.0f || c.invIB > 0.0f)) {
        BodyState& b = ctx.states[size_t(c.indexB)];
        b.v = p.vB, b.w = p.wB;
    }
}

}  // namespace

// Once per step: anchors relative to the centres at the step start, masses,
// softness and material, and the impulses carried in the manifold.
void prepareContacts(const WorldImpl& w, std::span<ContactConstraint> constraints, const StepContext& ctx) {
    for (ContactConstraint& cc : constraints) {
        const Contact& c = w.contacts[size_t(cc.contact)];
        const Body& a = w.bodies[size_t(c.bodyA)];
        const Body& b = w.bodies[size_t(c.bodyB)];
        const Shape& sa = w.shapes[size_t(c.shapeA)];
        const Shape& sb = w.shapes[size_t(c.shapeB)];
        cc.indexA = a.solverIndex;
        cc.indexB = b.solverIndex;
        const BodyParams pa = ctx.paramsOf(cc.indexA);
        const BodyParams pb = ctx.paramsOf(cc.indexB);
        cc.invMassA = pa.invMass, cc.invIA = pa.invInertia;
        cc.invMassB = pb.invMass, cc.invIB = pb.invInertia;
        cc.normal = c.manifold.normal;
        cc.friction = mixFriction(w.def.frictionMixing, sa.friction, sb.friction);
        cc.restitution = mixRestitution(w.def.restitutionMixing, sa.restitution, sb.restitution);
        cc.rollingResistance = std::max(sa.rollingResistance, sb.rollingResistance) *
                               std::max(shapeRadius(sa, w), shapeRadius(sb, w));
        const float kRoll = cc.invIA + cc.invIB;
        cc.rollingMass = kRoll > 0.0f ? 1.0f / kRoll : 0.0f;
        cc.rollingImpulse = ctx.enableWarmStarting ? c.manifold.rollingImpulse : 0.0f;
        const bool rigidSide = cc.invMassA == 0.0f || cc.invMassB == 0.0f;
        cc.softness = rigidSide ? ctx.staticSoftness : ctx.contactSoftness;
        cc.pointCount = c.manifold.pointCount;

        const Vec2 n = cc.normal;
        const Vec2 t = rightPerp(n);
        // Manifold anchors are relative to the body origins; the solver wants
        // them relative to the centres of mass.
        const Vec2 offA = a.xf.p - a.center;
        const Vec2 offB = b.xf.p - b.center;
        for (int i = 0; i < cc.pointCount; ++i) {
            const ManifoldPoint& mp = c.manifold.points[i];
            ContactConstraintPoint& cp = cc.points[i];
            cp.rA = mp.anchorA + offA;
            cp.rB = mp.anchorB + offB;
            cp.normalImpulse = ctx.enableWarmStarting ? mp.normalImpulse : 0.0f;
            cp.tangentImpulse = ctx.enableWarmStarting ? mp.tangentImpulse : 0.0f;
            cp.totalNormalImpulse = 0.0f;
            cp.baseSeparation = mp.separation - dot(cp.rB - cp.rA, n);
            const float rnA = cross(cp.rA, n), rnB = cross(cp.rB, n);
            const float kN = cc.invMassA + cc.invMassB + cc.invIA * rnA * rnA + cc.invIB * rnB * rnB;
            cp.normalMass = kN > 0.0f ? 1.0f / kN : 0.0f;
            const float rtA = cross(cp.rA, t), rtB = cross(cp.rB, t);
            const float kT = cc.invMassA + cc.invMassB + cc.invIA * rtA * rtA + cc.invIB * rtB * rtB;
            cp.tangentMass = kT > 0.0f ? 1.0f / kT : 0.0f;
            const Vec2 vA = a.v + crossSV(a.w, cp.rA);
            const Vec2 vB = b.v + crossSV(b.w, cp.rB);
            cp.relativeVelocity = dot(n, vB - vA);
        }
        cc.blockSolve = false;
        if (cc.pointCount == 2) {
            const ContactConstraintPoint& p1 = cc.points[0];
            const ContactConstraintPoint& p2 = cc.points[1];
            const float rn1A = cross(p1.rA, n), rn1B = cross(p1.rB, n);
            const float rn2A = cross(p2.rA, n), rn2B = cross(p2.rB, n);
            const float m = cc.invMassA + cc.invMassB;
            cc.k11 = m + cc.invIA * rn1A * rn1A + cc.invIB * rn1B * rn1B;
            cc.k22 = m + cc.invIA * rn2A * rn2A + cc.invIB * rn2B * rn2B;
            cc.k12 = m + cc.invIA * rn1A * rn2A + cc.invIB * rn1B * rn2B;
            // Only when K is well conditioned (the points are not redundant).
            constexpr float kMaxCondition = 1000.0f;
            const float det = cc.k11 * cc.k22 - cc.k12 * cc.k12;
            if (cc.k11 * cc.k11 < kMaxCondition * det) {
                const float inv = 1.0f / det;
                cc.m11 = inv * cc.k22, cc.m12 = -inv * cc.k12, cc.m22 = inv * cc.k11;
                cc.blockSolve = true;
            }
        }
    }
}

void warmStartContacts(std::span<ContactConstraint> constraints, const StepContext& ctx) {
    for (ContactConstraint& cc : constraints) {
        Pair p = load(cc, ctx);
        const Vec2 n = cc.normal, t = rightPerp(n);
        for (int i = 0; i < cc.pointCount; ++i) {
            const ContactConstraintPoint& cp = cc.points[i];
            const Vec2 P = cp.normalImpulse * n + cp.tangentImpulse * t;
            p.wA -= cc.invIA * cross(cp.rA, P);
            p.vA -= cc.invMassA * P;
            p.wB += cc.invIB * cross(cp.rB, P);
            p.vB += cc.invMassB * P;
        }
        p.wA -= cc.invIA * cc.rollingImpulse;
        p.wB += cc.invIB * cc.rollingImpulse;
        storeVelocities(cc, ctx, p);
    }
}

namespace {

// The two normal rows of a two-point manifold solved together.
//   relax (rigid): the exact 2×2 LCP, λ ≥ 0, vn ≥ 0, λ·vn = 0, by trying
//       both points active, only the first, only the second, neither
//       (Box2D v2.4's block solver);
//   soft: the coupled soft update, kept only when both impulses stay ≥ 0.
// Returns false to let the one-row Gauss-Seidel sweep handle the contact.
bool solveNormalBlock(ContactConstraint& cc, Pair& p, const StepContext& ctx, bool useBias,
                      float& total) {
    ContactConstraintPoint& c1 = cc.points[0];
    ContactConstraintPoint& c2 = cc.points[1];
    const Vec2 n = cc.normal;
    const Vec2 dp = p.dpB - p.dpA;
    // Per row: bias, mass scale and impulse scale as in the one-point rule.
    float bias[2], ms[2], is[2];
    for (int i = 0; i < 2; ++i) {
        const ContactConstraintPoint& cp = cc.points[i];
        const Vec2 d = dp + (rotate(p.dqB, cp.rB) - rotate(p.dqA, cp.rA));
        const float s = dot(d, n) + cp.baseSeparation;
        bias[i] = 0.0f, ms[i] = 1.0f, is[i] = 0.0f;
        if (s > 0.0f) {
            bias[i] = s * ctx.inv_h;
        } else if (useBias) {
            bias[i] = std::max(cc.softness.biasRate * s, -ctx.contactPushMaxSpeed);
            ms[i] = cc.softness.massScale;
            is[i] = cc.softness.impulseScale;
        }
    }
    const float vn1 = dot((p.vB + crossSV(p.wB, c1.rB)) - (p.vA + crossSV(p.wA, c1.rA)), n) + bias[0];
    const float vn2 = dot((p.vB + crossSV(p.wB, c2.rB)) - (p.vA + crossSV(p.wA, c2.rA)), n) + bias[1];
    const float a1 = c1.normalImpulse, a2 = c2.normalImpulse;
    float x1, x2;
    if (useBias) {
        // Soft rows: the joint update Δλ = -ms K⁻¹ (vn + bias) - is λ; taken
        // only when it keeps both impulses pushing, else Gauss-Seidel decides.
        x1 = a1 - ms[0] * (cc.m11 * vn1 + cc.m12 * vn2) - is[0] * a1;
        x2 = a2 - ms[1] * (cc.m12 * vn1 + cc.m22 * vn2) - is[1] * a2;
        if (!(x1 >= 0.0f && x2 >= 0.0f)) return false;
    } else {
        const float b1 = vn1 - (cc.k11 * a1 + cc.k12 * a2);
        const float b2 = vn2 - (cc.k12 * a1 + cc.k22 * a2);
        x1 = -(cc.m11 * b1 + cc.m12 * b2);
        x2 = -(cc.m12 * b1 + cc.m22 * b2);
        if (!(x1 >= 0.0f && x2 >= 0.0f)) {
            x1 = -b1 / cc.k11, x2 = 0.0f;
            if (!(x1 >= 0.0f && cc.k12 * x1 + b2 >= 0.0f)) {
                x1 = 0.0f, x2 = -b2 / cc.k22;
                if (!(x2 >= 0.0f && cc.k12 * x2 + b1 >= 0.0f)) {
                    x1 = 0.0f, x2 = 0.0f;
                    if (!(b1 >= 0.0f && b2 >= 0.0f)) return false;  // round-off: Gauss-Seidel
                }
            }
        }
    }
    const Vec2 P1 = (x1 - a1) * n, P2 = (x2 - a2) * n;
    p.vA -= cc.invMassA * (P1 + P2);
    p.wA -= cc.invIA * (cross(c1.rA, P1) + cross(c2.rA, P2));
    p.vB += cc.invMassB * (P1 + P2);
    p.wB += cc.invIB * (cross(c1.rB, P1) + cross(c2.rB, P2));
    c1.normalImpulse = x1, c2.normalImpulse = x2;
    c1.totalNormalImpulse += x1, c2.totalNormalImpulse += x2;
    total = x1 + x2;
    return true;
}

}  // namespace

// One pass: normal rows (soft when useBias; the exact two-point block in the
// relax pass), then friction, then rolling resistance.
void solveContacts(std::span<ContactConstraint> constraints, const StepContext& ctx, bool useBias) {
    const float inv_h = ctx.inv_h;
    const float pushMax = ctx.contactPushMaxSpeed;
    for (ContactConstraint& cc : constraints) {
        Pair p = load(cc, ctx);
        const Vec2 n = cc.normal, t = rightPerp(n);
        const Vec2 dp = p.dpB - p.dpA;
        float totalNormalImpulse = 0.0f;
        const bool block = cc.blockSolve && solveNormalBlock(cc, p, ctx, useBias, totalNormalImpulse);
        for (int i = 0; i < (block ? 0 : cc.pointCount); ++i) {
            ContactConstraintPoint& cp = cc.points[i];
            // Current separation from the substep displacements.
            const Vec2 d = dp + (rotate(p.dqB, cp.rB) - rotate(p.dqA, cp.rA));
            const float s = dot(d, n) + cp.baseSeparation;
            float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
            if (s > 0.0f) {
                bias = s * inv_h;  // speculative: may close the gap, no more
            } else if (useBias) {
                bias = std::max(cc.softness.biasRate * s, -pushMax);
                massScale = cc.softness.massScale;
                impulseScale = cc.softness.impulseScale;
            }
            const Vec2 dv = (p.vB + crossSV(p.wB, cp.rB)) - (p.vA + crossSV(p.wA, cp.rA));
            const float vn = dot(dv, n);
            float impulse = -cp.normalMass * massScale * (vn + bias) - impulseScale * cp.normalImpulse;
            const float newImpulse = std::max(cp.normalImpulse + impulse, 0.0f);
            impulse = newImpulse - cp.normalImpulse;
            cp.normalImpulse = newImpulse;
            cp.totalNormalImpulse += newImpulse;
            totalNormalImpulse += newImpulse;
            const Vec2 P = impulse * n;
            p.vA -= cc.invMassA * P;
            p.wA -= cc.invIA * cross(cp.rA, P);
            p.vB += cc.invMassB * P;
            p.wB += cc.invIB * cross(cp.rB, P);
        }
        for (int i = 0; i < cc.pointCount; ++i) {
            ContactConstraintPoint& cp = cc.points[i];
            const Vec2 dv = (p.vB + crossSV(p.wB, cp.rB)) - (p.vA + crossSV(p.wA, cp.rA));
            const float vt = dot(dv, t);
            float impulse = -cp.tangentMass * vt;
            const float maxFriction = cc.friction * cp.normalImpulse;
            const float newImpulse = std::clamp(cp.tangentImpulse + impulse, -maxFriction, maxFriction);
            impulse = newImpulse - cp.tangentImpulse;
            cp.tangentImpulse = newImpulse;
            const Vec2 P = impulse * t;
            p.vA -= cc.invMassA * P;
            p.wA -= cc.invIA * cross(cp.rA, P);
            p.vB += cc.invMassB * P;
            p.wB += cc.invIB * cross(cp.rB, P);
        }
        if (cc.rollingResistance > 0.0f) {
            const float maxLambda = cc.rollingResistance * totalNormalImpulse;
            const float old = cc.rollingImpulse;
            cc.rollingImpulse = std::clamp(old - cc.rollingMass * (p.wB - p.wA), -maxLambda, maxLambda);
            const float delta = cc.rollingImpulse - old;
            p.wA -= cc.invIA * delta;
            p.wB += cc.invIB * delta;
        }
        storeVelocities(cc, ctx, p);
    }
}

// After the substeps: points that approached faster than the threshold and
// actually pushed get their normal velocity set to -e times the approach.
void applyRestitution(std::span<ContactConstraint> constraints, const StepContext& ctx) {
    const float threshold = ctx.restitutionThreshold;
    for (ContactConstraint& cc : constraints) {
        if (cc.restitution == 0.0f) continue;
        Pair p = load(cc, ctx);
        const Vec2 n = cc.normal;
        for (int i = 0; i < cc.pointCount; ++i) {
            ContactConstraintPoint& cp = cc.points[i];
            if (cp.relativeVelocity > -threshold || cp.totalNormalImpulse == 0.0f) continue;
            const Vec2 dv = (p.vB + crossSV(p.wB, cp.rB)) - (p.vA + crossSV(p.wA, cp.rA));
            const float vn = dot(dv, n);
            float impulse = -cp.normalMass * (vn + cc.restitution * cp.relativeVelocity);
            const float newImpulse = std::max(cp.normalImpulse + impulse, 0.0f);
            impulse = newImpulse - cp.normalImpulse;
            cp.normalImpulse = newImpulse;
            cp.totalNormalImpulse += impulse;
            const Vec2 P = impulse * n;
            p.vA -= cc.invMassA * P;
            p.wA -= cc.invIA * cross(cp.rA, P);
            p.vB += cc.invMassB * P;
            p.wB += cc.invIB * cross(cp.rB, P);
        }
        storeVelocities(cc, ctx, p);
    }
}

void storeContactImpulses(WorldImpl& w, const std::vector<ContactConstraint>& constraints) {
    for (const ContactConstraint& cc : constraints) {
        Manifold& m = w.contacts[size_t(cc.contact)].manifold;
        m.rollingImpulse = cc.rollingImpulse;
        for (int i = 0; i < cc.pointCount; ++i) {
            ManifoldPoint& mp = m.points[i];
            mp.normalImpulse = cc.points[i].normalImpulse;
            mp.tangentImpulse = cc.points[i].tangentImpulse;
            mp.totalNormalImpulse = cc.points[i].totalNormalImpulse;
            mp.normalVelocity = cc.points[i].relativeVelocity;
        }
    }
}

}  // namespace carom::detail
