// Soft contact constraints: prepare and store. The equations are in
// contact_solver.hpp; the passes that solve them are the wide kernels
// (wide_contact.hpp, wide_kernel.inl).
#include "solver/contact_solver.hpp"

#include <algorithm>
#include <cmath>

#include "solver/contact_record.hpp"
#include "solver/wide_contact.hpp"

namespace carom::detail {

// Once per step: anchors relative to the centres at the step start, masses,
// softness and material, and the impulses carried in the manifold.
void prepareContact(const Contact& c, const PrepBody& a, const PrepBody& b, ContactConstraint& cc,
                    const StepContext& ctx) {
    cc.indexA = a.solverIndex;
    cc.indexB = b.solverIndex;
    const BodyParams& pa = a.params;
    const BodyParams& pb = b.params;
    cc.invMassA = pa.invMassX, cc.invIA = pa.invInertia, cc.invMassAy = pa.invMassY;
    cc.invMassB = pb.invMassX, cc.invIB = pb.invInertia, cc.invMassBy = pb.invMassY;
    cc.normal = c.manifold.normal;
    cc.friction = c.friction;
    cc.restitution = c.restitution;
    // Conveyors: a shape's surface runs at its tangentSpeed s along
    // rightPerp(outward normal). A's outward normal is n and B's is -n, so
    // along t = rightPerp(n) the surfaces add -(sA + sB) to B's sliding
    // velocity over A; friction drives dot(vB - vA, t) - (sA + sB) to zero.
    // Both mixed into the contact by updateContactMaterial (contact.cpp),
    // again whenever a setter changes a shape's value: a setter acts at once.
    cc.tangentSpeed = c.tangentSpeed;
    cc.rollingResistance = c.rollingResistance;
    const float kRoll = cc.invIA + cc.invIB;
    cc.rollingMass = kRoll > 0.0f ? 1.0f / kRoll : 0.0f;
    cc.rollingImpulse = ctx.enableWarmStarting ? c.manifold.rollingImpulse : 0.0f;
    // Linear inverse masses along the normal and the tangent (mA itself
    // without motion locks).
    const Vec2 n = cc.normal;
    const Vec2 t = rightPerp(n);
    const float mAn = linearInvMass(cc.invMassA, cc.invMassAy, n), mBn = linearInvMass(cc.invMassB, cc.invMassBy, n);
    const float mAt = linearInvMass(cc.invMassA, cc.invMassAy, t), mBt = linearInvMass(cc.invMassB, cc.invMassBy, t);
    const bool rigidSide = mAn == 0.0f || mBn == 0.0f;
    cc.softness = rigidSide ? ctx.staticSoftness : ctx.contactSoftness;
    cc.pointCount = c.manifold.pointCount;
    // Manifold anchors are relative to the body origins; the solver wants
    // them relative to the centres of mass.
    const Vec2 offA = a.offset;
    const Vec2 offB = b.offset;
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
        const float kN = mAn + mBn + cc.invIA * rnA * rnA + cc.invIB * rnB * rnB;
        cp.normalMass = kN > 0.0f ? 1.0f / kN : 0.0f;
        const float rtA = cross(cp.rA, t), rtB = cross(cp.rB, t);
        const float kT = mAt + mBt + cc.invIA * rtA * rtA + cc.invIB * rtB * rtB;
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
        const float m = mAn + mBn;
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

namespace {

// WorldDef::relaxShockScale: a contact is a stacking contact when its normal
// is within 45 degrees of up (against gravity); its lower body (A when the
// normal, A to B, points up) responds less in the relax pass. Between two
// movable bodies only: a static, kinematic or sleeping side already has
// infinite mass. Measured with 0.5 and 0.9 as the cosine too (the form that
// recomputed the derived masses, docs/stability.md): the suite's figures
// barely move. Leaning cards (normals near horizontal) stay equals.
constexpr float kShockCos = 0.70710678f;

// Every lane of a prepared block, padding included (the kernels read whole
// groups); the fields are left unwritten with the switch off.
void markLowerBodies(ContactBlock& b, const StepContext& ctx) {
    for (int l = 0; l < kBlockLanes; ++l) {
        b.relaxScaleA[l] = b.relaxScaleB[l] = 1.0f;
        if (!(b.writeA[l] && b.writeB[l])) continue;
        const float up = b.nx[l] * ctx.up.x + b.ny[l] * ctx.up.y;
        if (up > kShockCos) b.relaxScaleA[l] = ctx.relaxShockScale;
        else if (up < -kShockCos) b.relaxScaleB[l] = ctx.relaxShockScale;
    }
}

// The lanes' contact records of the block kAhead places on, asked for before
// they are needed: colour order scatters them over the contact array, and
// prepare and store both missed on the first load of each (store: -30 to
// -40 % of its perf samples on many_pyramids; prepare: many_pyramids 18.74
// -> 17.74 ms/step). The two hot lines of the record (its solver part) and,
// for prepare, the lane's ContactBodies. Always inlined: GCC drops calls to a
// function that only prefetches (it counts as pure).
constexpr int kAhead = 2;
[[gnu::always_inline]] inline void prefetchLanes(const ContactBlock* blocks, int bi, int end,
                                                 std::span<const int> order, const Contact* contacts,
                                                 const ContactBodies* bodies) {
    if (bi + kAhead >= end) return;
    const ContactBlock& ahead = blocks[bi + kAhead];
    for (int l = 0; l < kBlockLanes && ahead.constraint[l] >= 0; ++l) {
        const int ci = order[size_t(ahead.constraint[l])];
        const char* rec = reinterpret_cast<const char*>(&contacts[size_t(ci)]);
        __builtin_prefetch(rec);
        __builtin_prefetch(rec + 64);
        if (bodies != nullptr) __builtin_prefetch(&bodies[size_t(ci)]);
    }
}

}  // namespace

void prepareContactBlocks(const ContactPrepInput& in, ContactBlock* blocks, int begin, int end,
                          const StepContext& ctx) {
    // One constraint reused for every lane: prepareContact writes every field
    // packLane reads (the points below pointCount, the K blocks when it sets
    // blockSolve), and a fresh one per lane was a 200-byte zeroing (rep stos)
    // before each contact.
    ContactConstraint cc;
    for (int bi = begin; bi < end; ++bi) {
        prefetchLanes(blocks, bi, end, in.order, in.contacts.data(), in.bodies.data());
        ContactBlock& b = blocks[bi];
        for (int l = 0; l < kBlockLanes; ++l) {
            if (b.constraint[l] < 0) {
                packPaddingLane(b, l);
                continue;
            }
            cc.contact = in.order[size_t(b.constraint[l])];
            const ContactBodies& bodies = in.bodies[size_t(cc.contact)];
            prepareContact(in.contacts[size_t(cc.contact)], in.prepBodies[size_t(bodies.a)],
                           in.prepBodies[size_t(bodies.b)], cc, ctx);
            packLane(b, l, cc);
        }
        if (ctx.relaxShockScale < 1.0f) markLowerBodies(b, ctx);
    }
}

void storeContactBlocks(std::span<Contact> contacts, std::span<const int> order, const ContactBlock* blocks, int begin,
                        int end, float hitThreshold, std::span<int8_t> hitPoints) {
    for (int bi = begin; bi < end; ++bi) {
        prefetchLanes(blocks, bi, end, order, contacts.data(), nullptr);
        const ContactBlock& b = blocks[bi];
        for (int l = 0; l < kBlockLanes && b.constraint[l] >= 0; ++l) {
            Manifold& m = contacts[size_t(order[size_t(b.constraint[l])])].manifold;
            m.rollingImpulse = b.rollingImpulse[l];
            int8_t hit = -1;
            float fastest = hitThreshold;
            for (int i = 0; i < m.pointCount; ++i) {
                ManifoldPoint& mp = m.points[i];
                mp.normalImpulse = b.p[i].normalImpulse[l];
                mp.tangentImpulse = b.p[i].tangentImpulse[l];
                mp.totalNormalImpulse = b.p[i].totalNormalImpulse[l];
                mp.normalVelocity = b.p[i].relativeVelocity[l];
                const float approach = -mp.normalVelocity;
                if (approach > fastest && mp.totalNormalImpulse > 0.0f) {
                    fastest = approach;
                    hit = int8_t(i);
                }
            }
            hitPoints[size_t(b.constraint[l])] = hit;
        }
    }
}

}  // namespace carom::detail
