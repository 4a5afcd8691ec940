// Kernel choice, and packing contact constraints into 8-lane blocks and back
// (see wide_contact.hpp).
#include "solver/wide_contact.hpp"

#include <cstdlib>
#include <cstring>

namespace carom::detail {

static_assert(sizeof(BodyState) == 32 && offsetof(BodyState, v) == 0 && offsetof(BodyState, w) == 8 &&
                  offsetof(BodyState, dp) == 16 && offsetof(BodyState, dq) == 24,
              "the kernels read BodyState as [v.x v.y w flags dp.x dp.y dq.c dq.s]");
static_assert(sizeof(ContactBlock) % 32 == 0);

bool cpuHasAvx2() {
    // libgcc's check covers the OS saving the AVX registers (XGETBV) too.
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return has;
}

namespace {

SimdWidth widthFromEnvironment() {
    const char* s = std::getenv("CAROM_SIMD");
    if (s == nullptr) return SimdWidth::Auto;
    if (std::strcmp(s, "scalar") == 0) return SimdWidth::Scalar;
    if (std::strcmp(s, "sse2") == 0) return SimdWidth::SSE2;
    if (std::strcmp(s, "avx2") == 0) return SimdWidth::AVX2;
    return SimdWidth::Auto;
}

}  // namespace

const ContactKernels& contactKernels(SimdWidth requested) {
    // The environment is read once: a step never calls getenv.
    static const SimdWidth fromEnvironment = widthFromEnvironment();
    SimdWidth w = requested == SimdWidth::Auto ? fromEnvironment : requested;
    if (w == SimdWidth::Auto) w = SimdWidth::AVX2;
    switch (w) {
        case SimdWidth::Scalar: return kScalarKernels;
        case SimdWidth::AVX2: return cpuHasAvx2() ? kAvx2Kernels : kSse2Kernels;
        case SimdWidth::SSE2:
        default: return kSse2Kernels;
    }
}

void layoutContactBlocks(const std::vector<int>& colorStarts, std::vector<int>& blockStarts,
                         std::vector<ContactBlock>& blocks) {
    blockStarts.resize(colorStarts.size());
    blockStarts[0] = 0;
    for (size_t k = 0; k + 1 < colorStarts.size(); ++k) {
        const int count = colorStarts[k + 1] - colorStarts[k];
        blockStarts[k + 1] = blockStarts[k] + (count + kBlockLanes - 1) / kBlockLanes;
    }
    blocks.resize(size_t(blockStarts.back()));
    for (size_t k = 0; k + 1 < colorStarts.size(); ++k) {
        int c = colorStarts[k];
        for (int b = blockStarts[k]; b < blockStarts[k + 1]; ++b)
            for (int lane = 0; lane < kBlockLanes; ++lane, ++c)
                blocks[size_t(b)].constraint[lane] = c < colorStarts[k + 1] ? c : -1;
    }
}

void packPaddingLane(ContactBlock& b, int l) {
    // Padding: no bodies, nothing moves, no division by zero.
    b.indexA[l] = b.indexB[l] = -1;
    b.writeA[l] = b.writeB[l] = 0;
    b.nx[l] = 0.0f, b.ny[l] = 1.0f;
    b.invMassA[l] = b.invIA[l] = b.invMassB[l] = b.invIB[l] = 0.0f;
    b.invMassAy[l] = b.invMassBy[l] = 0.0f;
    b.friction[l] = b.restitution[l] = b.rollingResistance[l] = 0.0f;
    b.tangentSpeed[l] = 0.0f;
    b.rollingMass[l] = b.rollingImpulse[l] = 0.0f;
    b.biasRate[l] = 0.0f, b.massScale[l] = 1.0f, b.impulseScale[l] = 0.0f;
    for (ContactBlock::Point& p : b.p) {
        p.rAx[l] = p.rAy[l] = p.rBx[l] = p.rBy[l] = 0.0f;
        p.baseSeparation[l] = p.relativeVelocity[l] = 0.0f;
        p.normalImpulse[l] = p.tangentImpulse[l] = p.totalNormalImpulse[l] = 0.0f;
        p.normalMass[l] = p.tangentMass[l] = 0.0f;
    }
    b.block[l] = 0.0f;
    b.k11[l] = 1.0f, b.k12[l] = 0.0f, b.k22[l] = 1.0f;
    b.m11[l] = b.m12[l] = b.m22[l] = 0.0f;
}

void packPaddingRelaxLane(RelaxBlock& r, int l) {
    for (RelaxBlock::Point& p : r.p) p.normalMass[l] = p.tangentMass[l] = 0.0f;
    r.rollingMass[l] = 0.0f;
    r.block[l] = 0.0f;
    r.k11[l] = 1.0f, r.k12[l] = 0.0f, r.k22[l] = 1.0f;
    r.m11[l] = r.m12[l] = r.m22[l] = 0.0f;
}

void packLane(ContactBlock& b, int l, const ContactConstraint& c) {
    b.indexA[l] = c.indexA;
    b.indexB[l] = c.indexB;
    // Only sides that can move are written back: a kinematic body is
    // shared by constraints of one colour and stays read-only.
    b.writeA[l] = writesSide(c.indexA, c.invMassA, c.invMassAy, c.invIA);
    b.writeB[l] = writesSide(c.indexB, c.invMassB, c.invMassBy, c.invIB);
    b.nx[l] = c.normal.x, b.ny[l] = c.normal.y;
    b.invMassA[l] = c.invMassA, b.invIA[l] = c.invIA;
    b.invMassB[l] = c.invMassB, b.invIB[l] = c.invIB;
    b.invMassAy[l] = c.invMassAy, b.invMassBy[l] = c.invMassBy;
    b.friction[l] = c.friction;
    b.tangentSpeed[l] = c.tangentSpeed;
    b.restitution[l] = c.restitution;
    b.rollingResistance[l] = c.rollingResistance;
    b.rollingMass[l] = c.rollingMass;
    b.rollingImpulse[l] = c.rollingImpulse;
    b.biasRate[l] = c.softness.biasRate;
    b.massScale[l] = c.softness.massScale;
    b.impulseScale[l] = c.softness.impulseScale;
    for (int i = 0; i < 2; ++i) {
        ContactBlock::Point& p = b.p[i];
        if (i < c.pointCount) {
            const ContactConstraintPoint& cp = c.points[i];
            p.rAx[l] = cp.rA.x, p.rAy[l] = cp.rA.y;
            p.rBx[l] = cp.rB.x, p.rBy[l] = cp.rB.y;
            p.baseSeparation[l] = cp.baseSeparation;
            p.relativeVelocity[l] = cp.relativeVelocity;
            p.normalImpulse[l] = cp.normalImpulse;
            p.tangentImpulse[l] = cp.tangentImpulse;
            p.totalNormalImpulse[l] = cp.totalNormalImpulse;
            p.normalMass[l] = cp.normalMass;
            p.tangentMass[l] = cp.tangentMass;
        } else {
            // A missing second point: zero mass, it never pushes.
            p.rAx[l] = p.rAy[l] = p.rBx[l] = p.rBy[l] = 0.0f;
            p.baseSeparation[l] = p.relativeVelocity[l] = 0.0f;
            p.normalImpulse[l] = p.tangentImpulse[l] = p.totalNormalImpulse[l] = 0.0f;
            p.normalMass[l] = p.tangentMass[l] = 0.0f;
        }
    }
    if (c.blockSolve) {
        b.block[l] = 1.0f;
        b.k11[l] = c.k11, b.k12[l] = c.k12, b.k22[l] = c.k22;
        b.m11[l] = c.m11, b.m12[l] = c.m12, b.m22[l] = c.m22;
    } else {
        b.block[l] = 0.0f;
        b.k11[l] = 1.0f, b.k12[l] = 0.0f, b.k22[l] = 1.0f;
        b.m11[l] = b.m12[l] = b.m22[l] = 0.0f;
    }
}

void packContactBlocks(std::span<const ContactConstraint> constraints, ContactBlock* blocks, int begin, int end) {
    for (int bi = begin; bi < end; ++bi)
        for (int l = 0; l < kBlockLanes; ++l) {
            if (blocks[bi].constraint[l] < 0) packPaddingLane(blocks[bi], l);
            else packLane(blocks[bi], l, constraints[size_t(blocks[bi].constraint[l])]);
        }
}

}  // namespace carom::detail
