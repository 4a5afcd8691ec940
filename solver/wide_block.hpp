// The data the wide contact kernels work on (see wide_contact.hpp): plain
// structs only, and no include but platform.hpp's macros, so the AVX2
// translation unit that includes it compiles no inline function another
// unit could share.
#pragma once

#include "engine/core/platform.hpp"

namespace carom::detail {

inline constexpr int kBlockLanes = 8;

/// Eight contact constraints, one field per array (see contact_solver.hpp
/// for the meaning of each), split by which passes read each field (a
/// hot/cold split). The passes stream whole arrays of blocks that do not
/// fit in L2 in a large scene, and the hardware prefetchers fetch every line
/// of a block whether a pass reads it or not, so unread bytes in a block
/// cost memory bandwidth in every pass. So each pass walks only the arrays
/// it reads:
///
///   ContactBlock   every pass (warm start, solve, relax, restitution)
///   ContactRows    solve and relax
///   ContactMasses  solve, and relax with the true masses (restitution too)
///   ContactCold    prepare, restitution and store only
///   RelaxBlock     the shock-scaled relax pass only (WorldDef::tuning.relaxShockScale),
///                  which reads it instead of ContactMasses
///
/// Block k of each array holds the same eight lanes.
struct alignas(32) ContactBlock {
    /// A lane's sides: the body's solver index when its velocity is written
    /// back (it can move), -2 - index when the body is only read (a
    /// kinematic side, which lanes of one colour may share), -1 for none (a
    /// static or sleeping side, read as a body at rest). A padding lane has
    /// -1 on both sides; a live lane has at least one body in the step.
    int indexA[kBlockLanes];
    int indexB[kBlockLanes];
    float nx[kBlockLanes], ny[kBlockLanes];
    float invMassA[kBlockLanes], invIA[kBlockLanes];
    float invMassB[kBlockLanes], invIB[kBlockLanes];
    float invMassAy[kBlockLanes], invMassBy[kBlockLanes];  ///< along y (invMassA/B: along x)
    float rollingImpulse[kBlockLanes];
    struct Point {
        float rAx[kBlockLanes], rAy[kBlockLanes];
        float rBx[kBlockLanes], rBy[kBlockLanes];
        float normalImpulse[kBlockLanes];
        float tangentImpulse[kBlockLanes];
    } p[2];
};

/// What the solve and relax passes both read besides the ContactBlock: the
/// separation, the total normal impulse and the material.
struct alignas(32) ContactRows {
    struct Point {
        float baseSeparation[kBlockLanes];
        float totalNormalImpulse[kBlockLanes];
    } p[2];
    float friction[kBlockLanes];
    float tangentSpeed[kBlockLanes];
    float rollingResistance[kBlockLanes];
};

/// What prepare derives from a lane's inverse masses: each point's normal
/// and tangent mass, the rolling mass and the two-point normal block. Held
/// twice: for the true masses (ContactMasses) and, for the shock-scaled
/// relax pass, for the scaled ones (RelaxBlock); the solve kernel reads
/// either.
struct alignas(32) DerivedMasses {
    struct Point {
        float normalMass[kBlockLanes];
        float tangentMass[kBlockLanes];
    } p[2];
    float rollingMass[kBlockLanes];
    // Two-point normal block (1 where used; else K = I and its inverse 0).
    float block[kBlockLanes];
    float k11[kBlockLanes], k12[kBlockLanes], k22[kBlockLanes];
    float m11[kBlockLanes], m12[kBlockLanes], m22[kBlockLanes];
};

/// The rows' softness and the masses derived from the true inverse masses:
/// the solve pass, and the relax passes that solve with the true masses.
struct alignas(32) ContactMasses {
    float biasRate[kBlockLanes], massScale[kBlockLanes], impulseScale[kBlockLanes];
    DerivedMasses d;
};

/// Read once per step: by prepare, the restitution pass and the store.
struct alignas(32) ContactCold {
    int constraint[kBlockLanes];  ///< index in the constraint array, -1: padding
    float restitution[kBlockLanes];
    struct Point {
        float relativeVelocity[kBlockLanes];
    } p[2];
};

/// WorldDef::tuning.relaxShockScale: what only the shock-scaled relax pass
/// reads, in an array parallel to the blocks (allocated only with the shock
/// on). relaxScaleA/B: A's and B's inverse masses and inertias times these
/// (1: the true masses; the lower body of a stacking contact gets the
/// setting), and d the derived masses of the scaled bodies, both written by
/// the step's prepare (once per step, beside the true ones).
struct alignas(32) RelaxBlock {
    float relaxScaleA[kBlockLanes], relaxScaleB[kBlockLanes];
    DerivedMasses d;
};

/// The step's blocks: four parallel arrays (relax null when the shock-scaled
/// relax pass is off).
struct BlockSpan {
    ContactBlock* core = nullptr;
    ContactRows* rows = nullptr;
    ContactMasses* masses = nullptr;
    ContactCold* cold = nullptr;
    RelaxBlock* relax = nullptr;
};

/// What the kernels read besides the blocks; states is the dense body state
/// array (BodyState, 8 floats each).
struct WideArgs {
    float* states = nullptr;
    float inv_h = 0.0f;
    float contactPushMaxSpeed = 0.0f;
    float restitutionThreshold = 0.0f;
    /// WorldDef::tuning.relaxShockScale below 1: in the relax pass (not
    /// useBias) each lane's bodies respond with their inverse masses scaled
    /// by relaxScaleA/B, and the rows solve with the derived masses of the
    /// block's RelaxBlock.
    bool relaxShock = false;
};

/// Prepare's two softness choices (Softness, solver_types.hpp): contacts
/// with a side of zero mass along the normal take `rigid`.
struct BlockSoftness {
    struct Soft {
        float biasRate, massScale, impulseScale;
    } contact, rigid;
};

/// One kernel set: each runs blocks [begin, end) of a span; derive fills a
/// block's computed fields after prepare wrote its plain ones.
struct ContactKernels {
    const char* name;
    int lanes;
    void (*warmStart)(const BlockSpan& blocks, int begin, int end, const WideArgs& a);
    void (*solve)(const BlockSpan& blocks, int begin, int end, const WideArgs& a, bool useBias);
    void (*restitution)(const BlockSpan& blocks, int begin, int end, const WideArgs& a);
    /// relax: null, or where the block's shock-scaled masses go (its
    /// relaxScaleA/B already written).
    void (*derive)(const ContactBlock& block, ContactMasses& masses, const float* twoPoints,
                   const BlockSoftness& s, RelaxBlock* relax);
};

/// The kernel sets: scalar everywhere (wide_scalar.cpp); four lanes with the
/// target's SIMD (wide_sse2.cpp on x86-64, wide_neon.cpp on ARM64,
/// wide_wasm128.cpp on WebAssembly with SIMD128); eight lanes with AVX2 on
/// x86-64 (wide_avx2.cpp), which may be called only when cpuHasAvx2(). Each
/// is declared only where it is built (CAROM_SIMD_* in platform.hpp).
extern const ContactKernels kScalarKernels;
#if CAROM_SIMD_SSE2
extern const ContactKernels kSse2Kernels;
extern const ContactKernels kAvx2Kernels;
#endif
#if CAROM_SIMD_NEON
extern const ContactKernels kNeonKernels;
#endif
#if CAROM_SIMD_WASM128
extern const ContactKernels kWasm128Kernels;
#endif
/// The four-lane kernels of this target (the scalar ones where it has no
/// SIMD the engine uses).
const ContactKernels& fourLaneKernels();

}  // namespace carom::detail
