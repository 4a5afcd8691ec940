// Soft contact constraints: prepare and store. The equations are in
// contact_solver.hpp; the passes that solve them are the wide kernels
// (wide_contact.hpp, wide_kernel.inl).
#include "engine/core/platform.hpp"
#include "solver/contact_solver.hpp"

#include <algorithm>
#include <cmath>

#include "solver/contact_record.hpp"
#include "solver/wide_contact.hpp"

namespace carom::detail {

namespace {

// WorldDef::tuning.relaxShockScale: in a stacking contact (stackingLowerSide) the
// lower body responds less in the relax pass. Between two movable bodies
// only: a static, kinematic or sleeping side already has infinite mass.
// Leaning cards (normals near horizontal) stay equals.
//
// Every lane of a prepared block, padding (from lane `live` on) included:
// the kernels read whole groups. Into the block's RelaxBlock, which exists
// only with the shock on. Before derive, which derives the scaled bodies'
// masses from them.
void markLowerBodies(const ContactBlock& b, RelaxBlock& x, int live, const StepContext& ctx) {
    for (int l = 0; l < kBlockLanes; ++l) {
        x.relaxScaleA[l] = x.relaxScaleB[l] = 1.0f;
        if (l >= live || !(b.indexA[l] >= 0 && b.indexB[l] >= 0)) continue;  // both can move
        const int lower = stackingLowerSide(b.nx[l], b.ny[l], ctx.up);
        if (lower > 0)
            x.relaxScaleA[l] = ctx.relaxShockScale;
        else if (lower < 0)
            x.relaxScaleB[l] = ctx.relaxShockScale;
    }
}

// The lanes' contact records of the block kAhead places on, asked for before
// they are needed: colour order scatters them over the contact array, and
// prepare and store would both miss on the first load of each. The two hot
// lines of the record (its solver part) and,
// for prepare, the lane's ContactBodies. Always inlined: GCC drops calls to a
// function that only prefetches (it counts as pure).
constexpr int kAhead = 2;
CAROM_FORCE_INLINE void prefetchLanes(const ContactCold* blocks, int bi, int end,
                                      std::span<const int> order, const Contact* contacts,
                                      const ContactBodies* bodies) {
    if (bi + kAhead >= end) return;
    const ContactCold& ahead = blocks[bi + kAhead];
    for (int l = 0; l < kBlockLanes && ahead.constraint[l] >= 0; ++l) {
        const int ci = order[size_t(ahead.constraint[l])];
        const char* rec = reinterpret_cast<const char*>(&contacts[size_t(ci)]);
        prefetchRead(rec);
        prefetchRead(rec + 64);
        if (bodies != nullptr) prefetchRead(&bodies[size_t(ci)]);
    }
}

}  // namespace

namespace {

// Once per step, lane l of a block from its contact and bodies: anchors
// relative to the centres at the step start, masses, material and the
// impulses carried in the manifold, written straight into the block (a
// ContactConstraint per contact, then copied in, would be a second pass over
// every contact). What takes a division (the masses along the normal and
// tangent, the rolling mass, the two-point block) and the softness, the
// kernels' derive computes for the whole block (wide_kernel.inl).
//
// Conveyors: a shape's surface runs at its tangentSpeed s along
// rightPerp(outward normal). A's outward normal is n and B's is -n, so along
// t = rightPerp(n) the surfaces add -(sA + sB) to B's sliding velocity over
// A; friction drives dot(vB - vA, t) - (sA + sB) to zero. Both are mixed
// into the contact by updateContactMaterial (contact.cpp), again whenever a
// setter changes a shape's value: a setter acts at once.
CAROM_FORCE_INLINE void packPlainLane(ContactBlock& b, ContactRows& rw, ContactCold& cold, int l,
                                      const Contact& c, const PrepBody& a, const PrepBody& pb,
                                      const StepContext& ctx, float& twoPoints) {
    const BodyParams& ma = a.params;
    const BodyParams& mb = pb.params;
    b.indexA[l] = laneIndex(a.solverIndex,
                            writesSide(a.solverIndex, ma.invMassX, ma.invMassY, ma.invInertia));
    b.indexB[l] = laneIndex(pb.solverIndex,
                            writesSide(pb.solverIndex, mb.invMassX, mb.invMassY, mb.invInertia));
    const Vec2 n = c.manifold.normal;
    b.nx[l] = n.x, b.ny[l] = n.y;
    b.invMassA[l] = ma.invMassX, b.invIA[l] = ma.invInertia, b.invMassAy[l] = ma.invMassY;
    b.invMassB[l] = mb.invMassX, b.invIB[l] = mb.invInertia, b.invMassBy[l] = mb.invMassY;
    rw.friction[l] = c.friction;
    cold.restitution[l] = c.restitution;
    rw.tangentSpeed[l] = c.tangentSpeed;
    rw.rollingResistance[l] = c.rollingResistance;
    b.rollingImpulse[l] = ctx.enableWarmStarting ? c.manifold.rollingImpulse : 0.0f;
    const int count = c.manifold.pointCount;
    twoPoints = count == 2 ? 1.0f : 0.0f;
    for (int i = 0; i < 2; ++i) {
        ContactBlock::Point& p = b.p[i];
        ContactRows::Point& rp = rw.p[i];
        if (i >= count) {
            p.rAx[l] = p.rAy[l] = p.rBx[l] = p.rBy[l] = 0.0f;
            rp.baseSeparation[l] = cold.p[i].relativeVelocity[l] = 0.0f;
            p.normalImpulse[l] = p.tangentImpulse[l] = rp.totalNormalImpulse[l] = 0.0f;
            continue;
        }
        const ManifoldPoint& mp = c.manifold.points[i];
        const Vec2 rA = mp.anchorA + a.offset;
        const Vec2 rB = mp.anchorB + pb.offset;
        p.rAx[l] = rA.x, p.rAy[l] = rA.y;
        p.rBx[l] = rB.x, p.rBy[l] = rB.y;
        p.normalImpulse[l] = ctx.enableWarmStarting ? mp.normalImpulse : 0.0f;
        p.tangentImpulse[l] = ctx.enableWarmStarting ? mp.tangentImpulse : 0.0f;
        rp.totalNormalImpulse[l] = 0.0f;
        rp.baseSeparation[l] = mp.separation - dot(rB - rA, n);
        cold.p[i].relativeVelocity[l] = pointNormalVelocity(n, a.v, a.w, rA, pb.v, pb.w, rB);
    }
}

}  // namespace

void prepareContactBlocks(const ContactPrepInput& in, const BlockSpan& blocks, int begin, int end,
                          const StepContext& ctx, const ContactKernels& kernels) {
    const BlockSoftness soft{{ctx.contactSoftness.biasRate, ctx.contactSoftness.massScale,
                              ctx.contactSoftness.impulseScale},
                             {ctx.staticSoftness.biasRate, ctx.staticSoftness.massScale,
                              ctx.staticSoftness.impulseScale}};
    alignas(32) float twoPoints[kBlockLanes];
    for (int bi = begin; bi < end; ++bi) {
        prefetchLanes(blocks.cold, bi, end, in.order, in.contacts.data(), in.bodies.data());
        ContactBlock& b = blocks.core[bi];
        ContactRows& rw = blocks.rows[bi];
        int live = 0;
        const ContactCold& cold = blocks.cold[bi];
        for (; live < kBlockLanes && cold.constraint[live] >= 0; ++live) {
            const int ci = in.order[size_t(cold.constraint[live])];
            const ContactBodies& bodies = in.bodies[size_t(ci)];
            packPlainLane(b, rw, blocks.cold[bi], live, in.contacts[size_t(ci)],
                          in.prepBodies[size_t(bodies.a)], in.prepBodies[size_t(bodies.b)], ctx,
                          twoPoints[live]);
        }
        // Padding lanes come last in a block (layoutContactBlocks); derive
        // skips groups that start with one and its values in the others are
        // overwritten here.
        for (int l = live; l < kBlockLanes; ++l) twoPoints[l] = 0.0f;
        if (blocks.relax != nullptr) markLowerBodies(b, blocks.relax[bi], live, ctx);
        kernels.derive(b, blocks.masses[bi], twoPoints, soft,
                       blocks.relax != nullptr ? &blocks.relax[bi] : nullptr);
        for (int l = live; l < kBlockLanes; ++l) packPaddingLane(blocks, bi, l);
    }
}

void storeContactBlocks(std::span<Contact> contacts, std::span<const int> order,
                        const BlockSpan& blocks, int begin, int end, float hitThreshold,
                        std::span<int8_t> hitPoints) {
    for (int bi = begin; bi < end; ++bi) {
        prefetchLanes(blocks.cold, bi, end, order, contacts.data(), nullptr);
        const ContactBlock& b = blocks.core[bi];
        const ContactRows& rw = blocks.rows[bi];
        const ContactCold& cold = blocks.cold[bi];
        for (int l = 0; l < kBlockLanes && cold.constraint[l] >= 0; ++l) {
            Manifold& m = contacts[size_t(order[size_t(cold.constraint[l])])].manifold;
            m.rollingImpulse = b.rollingImpulse[l];
            int8_t hit = -1;
            float fastest = hitThreshold;
            for (int i = 0; i < m.pointCount; ++i) {
                ManifoldPoint& mp = m.points[i];
                mp.normalImpulse = b.p[i].normalImpulse[l];
                mp.tangentImpulse = b.p[i].tangentImpulse[l];
                mp.totalNormalImpulse = rw.p[i].totalNormalImpulse[l];
                mp.normalVelocity = cold.p[i].relativeVelocity[l];
                const float approach = -mp.normalVelocity;
                if (approach > fastest && mp.totalNormalImpulse > 0.0f) {
                    fastest = approach;
                    hit = int8_t(i);
                }
            }
            hitPoints[size_t(cold.constraint[l])] = hit;
        }
    }
}

LaneRestart laneRestart(const ContactBlock& b, int block, int lane) {
    LaneRestart r;
    r.block = block;
    r.lane = lane;
    for (int i = 0; i < 2; ++i) {
        r.normalImpulse[i] = b.p[i].normalImpulse[lane];
        r.tangentImpulse[i] = b.p[i].tangentImpulse[lane];
    }
    r.rollingImpulse = b.rollingImpulse[lane];
    return r;
}

void collectLaneRestarts(const BlockSpan& blocks, std::span<const int> colorStarts,
                         std::span<const int> blockStarts, std::span<const int> order,
                         std::span<const uint8_t> restart, std::vector<LaneRestart>& out) {
    out.clear();
    for (size_t k = 0; k + 1 < colorStarts.size(); ++k) {
        for (int c = colorStarts[k]; c < colorStarts[k + 1]; ++c) {
            if (restart[size_t(order[size_t(c)])] == 0) continue;
            // layoutContactBlocks: the colour's constraints in order, 8 to a block.
            const int block = blockStarts[k] + (c - colorStarts[k]) / kBlockLanes;
            out.push_back(
                laneRestart(blocks.core[block], block, (c - colorStarts[k]) % kBlockLanes));
        }
    }
}

void restartLanes(const BlockSpan& blocks, std::span<const LaneRestart> lanes) {
    for (const LaneRestart& r : lanes) {
        ContactBlock& b = blocks.core[r.block];
        for (int i = 0; i < 2; ++i) {
            b.p[i].normalImpulse[r.lane] = r.normalImpulse[i];
            b.p[i].tangentImpulse[r.lane] = r.tangentImpulse[i];
        }
        b.rollingImpulse[r.lane] = r.rollingImpulse;
    }
}

}  // namespace carom::detail
