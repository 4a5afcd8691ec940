// Kernel choice, and packing contact constraints into 8-lane blocks and back
// (see wide_contact.hpp).
#include "solver/wide_contact.hpp"

#include <cstdlib>
#include <cstring>

namespace carom::detail {

static_assert(sizeof(BodyState) == 32 && offsetof(BodyState, v) == 0 &&
                  offsetof(BodyState, w) == 8 && offsetof(BodyState, dp) == 16 &&
                  offsetof(BodyState, dq) == 24,
              "the kernels read BodyState as [v.x v.y w flags dp.x dp.y dq.c dq.s]");
static_assert(sizeof(ContactBlock) % 32 == 0 && sizeof(ContactRows) % 32 == 0 &&
              sizeof(ContactMasses) % 32 == 0 && sizeof(ContactCold) % 32 == 0 &&
              sizeof(RelaxBlock) % 32 == 0);

namespace {

SimdWidth widthFromEnvironment() {
    const char* s = std::getenv("CAROM_SIMD");
    if (s == nullptr) return SimdWidth::Auto;
    if (std::strcmp(s, "scalar") == 0) return SimdWidth::Scalar;
    // Four lanes: the names of each target's four-lane kernel all choose it.
    if (std::strcmp(s, "sse2") == 0 || std::strcmp(s, "neon") == 0 ||
        std::strcmp(s, "simd128") == 0)
        return SimdWidth::SSE2;
    if (std::strcmp(s, "avx2") == 0) return SimdWidth::AVX2;
    return SimdWidth::Auto;
}

}  // namespace

const ContactKernels& fourLaneKernels() {
#if CAROM_SIMD_SSE2
    return kSse2Kernels;
#elif CAROM_SIMD_NEON
    return kNeonKernels;
#elif CAROM_SIMD_WASM128
    return kWasm128Kernels;
#else
    return kScalarKernels;
#endif
}

const ContactKernels& contactKernels(SimdWidth requested) {
    // The environment is read once: a step never calls getenv.
    static const SimdWidth fromEnvironment = widthFromEnvironment();
    SimdWidth w = requested == SimdWidth::Auto ? fromEnvironment : requested;
    if (w == SimdWidth::Auto) w = SimdWidth::AVX2;
    switch (w) {
        case SimdWidth::Scalar:
            return kScalarKernels;
#if CAROM_SIMD_SSE2
        case SimdWidth::AVX2:
            return cpuHasAvx2() ? kAvx2Kernels : kSse2Kernels;
#endif
        case SimdWidth::SSE2:
        default:
            return fourLaneKernels();
    }
}

void layoutContactBlocks(const std::vector<int>& colorStarts, std::vector<int>& blockStarts,
                         ContactBlockSet& blocks, bool withRelax) {
    blockStarts.resize(colorStarts.size());
    blockStarts[0] = 0;
    for (size_t k = 0; k + 1 < colorStarts.size(); ++k) {
        const int count = colorStarts[k + 1] - colorStarts[k];
        blockStarts[k + 1] = blockStarts[k] + (count + kBlockLanes - 1) / kBlockLanes;
    }
    const size_t n = size_t(blockStarts.back());
    blocks.core.resize(n);
    blocks.rows.resize(n);
    blocks.masses.resize(n);
    blocks.cold.resize(n);
    blocks.relax.resize(withRelax ? n : 0);
    for (size_t k = 0; k + 1 < colorStarts.size(); ++k) {
        int c = colorStarts[k];
        for (int b = blockStarts[k]; b < blockStarts[k + 1]; ++b)
            for (int lane = 0; lane < kBlockLanes; ++lane, ++c) {
                const bool padding = c >= colorStarts[k + 1];
                blocks.cold[size_t(b)].constraint[lane] = padding ? -1 : c;
                // No body on either side: the kernels' (and derive's) live()
                // skips a group that starts with padding.
                if (padding)
                    blocks.core[size_t(b)].indexA[lane] = blocks.core[size_t(b)].indexB[lane] = -1;
            }
    }
}

namespace {

// A missing second point, or a padding lane's: zero mass, it never pushes.
void clearPoint(const BlockSpan& s, int k, int i, int l) {
    ContactBlock::Point& p = s.core[k].p[i];
    ContactRows::Point& r = s.rows[k].p[i];
    DerivedMasses::Point& m = s.masses[k].d.p[i];
    p.rAx[l] = p.rAy[l] = p.rBx[l] = p.rBy[l] = 0.0f;
    p.normalImpulse[l] = p.tangentImpulse[l] = 0.0f;
    r.baseSeparation[l] = r.totalNormalImpulse[l] = 0.0f;
    m.normalMass[l] = m.tangentMass[l] = 0.0f;
    s.cold[k].p[i].relativeVelocity[l] = 0.0f;
}

// K = I and its inverse 0: the two-point block unused.
void clearTwoPointBlock(DerivedMasses& d, int l) {
    d.block[l] = 0.0f;
    d.k11[l] = 1.0f, d.k12[l] = 0.0f, d.k22[l] = 1.0f;
    d.m11[l] = d.m12[l] = d.m22[l] = 0.0f;
}

// A padding lane's derived masses: none.
void clearDerived(DerivedMasses& d, int l) {
    for (DerivedMasses::Point& p : d.p) p.normalMass[l] = p.tangentMass[l] = 0.0f;
    d.rollingMass[l] = 0.0f;
    clearTwoPointBlock(d, l);
}

}  // namespace

void packPaddingLane(const BlockSpan& s, int k, int l) {
    // Padding: no bodies, nothing moves, no division by zero.
    ContactBlock& b = s.core[k];
    ContactRows& r = s.rows[k];
    ContactMasses& m = s.masses[k];
    b.indexA[l] = b.indexB[l] = -1;
    b.nx[l] = 0.0f, b.ny[l] = 1.0f;
    b.invMassA[l] = b.invIA[l] = b.invMassB[l] = b.invIB[l] = 0.0f;
    b.invMassAy[l] = b.invMassBy[l] = 0.0f;
    b.rollingImpulse[l] = 0.0f;
    r.friction[l] = r.rollingResistance[l] = 0.0f;
    r.tangentSpeed[l] = 0.0f;
    m.biasRate[l] = 0.0f, m.massScale[l] = 1.0f, m.impulseScale[l] = 0.0f;
    s.cold[k].restitution[l] = 0.0f;
    for (int i = 0; i < 2; ++i) clearPoint(s, k, i, l);
    clearDerived(m.d, l);
    if (s.relax != nullptr) {
        // The shock-scaled masses of a padding lane, and scales of 1.
        RelaxBlock& x = s.relax[k];
        x.relaxScaleA[l] = x.relaxScaleB[l] = 1.0f;
        clearDerived(x.d, l);
    }
}

void packLane(const BlockSpan& s, int k, int l, const ContactConstraint& c) {
    ContactBlock& b = s.core[k];
    ContactRows& r = s.rows[k];
    ContactMasses& m = s.masses[k];
    // Only sides that can move are written back: a kinematic body is
    // shared by constraints of one colour and stays read-only.
    b.indexA[l] = laneIndex(c.indexA, writesSide(c.indexA, c.invMassA, c.invMassAy, c.invIA));
    b.indexB[l] = laneIndex(c.indexB, writesSide(c.indexB, c.invMassB, c.invMassBy, c.invIB));
    b.nx[l] = c.normal.x, b.ny[l] = c.normal.y;
    b.invMassA[l] = c.invMassA, b.invIA[l] = c.invIA;
    b.invMassB[l] = c.invMassB, b.invIB[l] = c.invIB;
    b.invMassAy[l] = c.invMassAy, b.invMassBy[l] = c.invMassBy;
    b.rollingImpulse[l] = c.rollingImpulse;
    r.friction[l] = c.friction;
    r.tangentSpeed[l] = c.tangentSpeed;
    r.rollingResistance[l] = c.rollingResistance;
    m.d.rollingMass[l] = c.rollingMass;
    m.biasRate[l] = c.softness.biasRate;
    m.massScale[l] = c.softness.massScale;
    m.impulseScale[l] = c.softness.impulseScale;
    s.cold[k].restitution[l] = c.restitution;
    for (int i = 0; i < 2; ++i) {
        if (i >= c.pointCount) {
            clearPoint(s, k, i, l);
            continue;
        }
        const ContactConstraintPoint& cp = c.points[i];
        ContactBlock::Point& p = b.p[i];
        ContactRows::Point& rp = r.p[i];
        p.rAx[l] = cp.rA.x, p.rAy[l] = cp.rA.y;
        p.rBx[l] = cp.rB.x, p.rBy[l] = cp.rB.y;
        p.normalImpulse[l] = cp.normalImpulse;
        p.tangentImpulse[l] = cp.tangentImpulse;
        rp.baseSeparation[l] = cp.baseSeparation;
        rp.totalNormalImpulse[l] = cp.totalNormalImpulse;
        m.d.p[i].normalMass[l] = cp.normalMass;
        m.d.p[i].tangentMass[l] = cp.tangentMass;
        s.cold[k].p[i].relativeVelocity[l] = cp.relativeVelocity;
    }
    if (c.blockSolve) {
        m.d.block[l] = 1.0f;
        m.d.k11[l] = c.k11, m.d.k12[l] = c.k12, m.d.k22[l] = c.k22;
        m.d.m11[l] = c.m11, m.d.m12[l] = c.m12, m.d.m22[l] = c.m22;
    } else {
        clearTwoPointBlock(m.d, l);
    }
}

void packContactBlocks(std::span<const ContactConstraint> constraints, const BlockSpan& blocks,
                       int begin, int end) {
    for (int k = begin; k < end; ++k)
        for (int l = 0; l < kBlockLanes; ++l) {
            const int c = blocks.cold[k].constraint[l];
            if (c < 0)
                packPaddingLane(blocks, k, l);
            else
                packLane(blocks, k, l, constraints[size_t(c)]);
        }
}

}  // namespace carom::detail
