// The wide contact solver: the contact constraints of one graph colour packed
// into blocks of 8 lanes (structure of arrays), solved 1, 4 or 8 lanes at a
// time (Box2D v3's b2ContactConstraintSIMD, contact_solver.c).
//
//   colour    colorConstraints sorts the step's contacts by graph colour;
//             layoutContactBlocks gives each colour ceil(count / 8) blocks,
//             the last one padded with dummy lanes (no bodies, zero masses)
//             whose results are never written.
//   prepare   prepareContactBlocks: per lane, the plain fields straight
//             into the block; then the kernels' derive computes the masses,
//             softness and two-point block for all lanes at once (the
//             equations of contact_solver.hpp).
//   passes    warm start, solve (with bias), relax (without), restitution:
//             each kernel gathers the two bodies' states of every lane,
//             transposes them into one vector per field, runs the same
//             arithmetic as contact_solver.cpp on all lanes, and scatters
//             the velocities back to the bodies that can move.
//   store     storeContactBlocks: the impulses go back into the manifolds
//             (next step's warm start, hit events, contact data queries).
//
// Three kernel sets, one arithmetic (wide_kernel.inl): scalar (1 lane),
// SSE2 (4 lanes), AVX2 (8 lanes, its own translation unit built with -mavx2,
// used only when cpuid reports AVX2). Every lane does exactly the same
// IEEE operations in the same order whatever the width: no rcp/rsqrt, no
// fused multiply-add, branches as per-lane selects, and the scalar min/max
// mirror minps/maxps (min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b).
// Lanes of one colour share no body that can move, so the order in which
// lanes (or workers) run does not matter: the result is bit-identical for
// any width and any worker count. The overflow colour, whose constraints may
// share bodies, runs through the scalar kernels lane after lane.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <carom/types.hpp>

#include "solver/contact_record.hpp"
#include "solver/contact_solver.hpp"
#include "solver/wide_block.hpp"

namespace carom::detail {

/// The kernels for a requested width: Auto takes the environment variable
/// CAROM_SIMD (scalar, sse2, avx2; neon and simd128 name the four-lane
/// kernels too) when set, else the widest the CPU has. SSE2 means the
/// target's four-lane kernels (NEON on ARM64, SIMD128 on WebAssembly built
/// with it, scalar on a target without either); AVX2 asked where the CPU
/// lacks it gives the four-lane kernels.
const ContactKernels& contactKernels(SimdWidth requested);

/// A lane's side as ContactBlock::indexA/B hold it: the solver index when
/// the side can move (writesSide), -2 - index when it is only read, -1 for
/// no body in the step. (Not in wide_block.hpp: the AVX2 unit includes that
/// one and must compile no inline function another unit could share.)
inline int laneIndex(int solverIndex, bool writes) {
    return solverIndex < 0 ? -1 : writes ? solverIndex : -2 - solverIndex;
}

/// The storage of a step's blocks: the four parallel arrays of wide_block.hpp.
struct ContactBlockSet {
    std::vector<ContactBlock> core;
    std::vector<ContactRows> rows;
    std::vector<ContactMasses> masses;
    std::vector<ContactCold> cold;
    std::vector<RelaxBlock> relax;  ///< empty unless the shock-scaled relax pass is on

    size_t size() const { return core.size(); }
    BlockSpan span() {
        return {core.data(), rows.data(), masses.data(), cold.data(),
                relax.empty() ? nullptr : relax.data()};
    }
};

/// Lays colour runs of constraints out in blocks: colour k's constraints
/// [colorStarts[k], colorStarts[k + 1]) go to blocks [blockStarts[k],
/// blockStarts[k + 1]), in order, the last block of a colour padded. Sets
/// each block's constraint indices, and no bodies on its padding lanes,
/// only; the arrays are resized (relax to
/// the same size with withRelax, else to none), never shrunk.
void layoutContactBlocks(const std::vector<int>& colorStarts, std::vector<int>& blockStarts,
                         ContactBlockSet& blocks, bool withRelax = false);
/// One lane of block k from a prepared constraint; a padding lane (no
/// bodies, zero masses, never written back).
void packLane(const BlockSpan& blocks, int k, int lane, const ContactConstraint& c);
void packPaddingLane(const BlockSpan& blocks, int k, int lane);
/// Fills blocks [begin, end) from their constraints (after layoutContactBlocks).
void packContactBlocks(std::span<const ContactConstraint> constraints, const BlockSpan& blocks,
                       int begin, int end);

/// What the step's prepare reads: the contact records, the contact slots in
/// colour order (lane constraint[l] of a block is contacts[order[constraint[l]]]),
/// per contact slot its two PrepBody indices, and the PrepBody array.
struct ContactPrepInput {
    std::span<const Contact> contacts;
    std::span<const int> order;
    std::span<const ContactBodies> bodies;
    std::span<const PrepBody> prepBodies;
};

/// The step's form of prepare and store. Prepares blocks [begin, end) (reads
/// only), or writes their impulses back into the manifolds (each contact
/// once: blocks may run in parallel). The store also notes, per constraint
/// position, the point that would make a hit event (approach speed above
/// hitThreshold with some normal impulse, the fastest; -1 for none) from the
/// values it writes: the hit events then need no second pass over the
/// contact records (engine/world/solver_step.cpp, emitHitEvents).
/// With blocks.relax (WorldDef::tuning.relaxShockScale below 1) each
/// block's relax scales and its shock-scaled derived masses are written
/// there.
void prepareContactBlocks(const ContactPrepInput& in, const BlockSpan& blocks, int begin, int end,
                          const StepContext& ctx, const ContactKernels& kernels);
void storeContactBlocks(std::span<Contact> contacts, std::span<const int> order,
                        const BlockSpan& blocks, int begin, int end, float hitThreshold,
                        std::span<int8_t> hitPoints);

/// A lane's impulses as prepared (the warm start it was given at the start
/// of the step), to be put back before each later substep's warm start:
/// the contacts of a light support in an impact (engine/world/solver_step.cpp,
/// docs/solver.md "Light supports under heavy loads").
struct LaneRestart {
    int block = 0, lane = 0;
    float normalImpulse[2] = {0.0f, 0.0f};
    float tangentImpulse[2] = {0.0f, 0.0f};
    float rollingImpulse = 0.0f;
};
LaneRestart laneRestart(const ContactBlock& b, int block, int lane);
/// After prepare: the lanes, in block order, of the constraints whose
/// contact slot (order: the contact slots in colour order) is marked in
/// restart, with the colour runs of layoutContactBlocks; into out (cleared
/// first).
void collectLaneRestarts(const BlockSpan& blocks, std::span<const int> colorStarts,
                         std::span<const int> blockStarts, std::span<const int> order,
                         std::span<const uint8_t> restart, std::vector<LaneRestart>& out);
/// Puts each lane's prepared impulses back into its block.
void restartLanes(const BlockSpan& blocks, std::span<const LaneRestart> lanes);

}  // namespace carom::detail
