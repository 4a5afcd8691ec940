// The contact kernels four lanes at a time with NEON (Advanced SIMD, part of
// every ARMv8-A CPU). The arithmetic is wide_kernel.inl and the body
// gather/scatter wide_lanes4.inl; this file supplies the lane type and the
// row operations. Bit for bit the scalar kernels' results: IEEE add, subtract,
// multiply and divide (FDIV, never a reciprocal estimate), no fused
// multiply-add (-ffp-contract=off, and no vfmaq), and min/max written as
// the scalar compare-and-select, which is what x86's minps/maxps do (NEON's
// own vminq/vmaxq differ for NaN and for -0 against +0).
#include <arm_neon.h>

#include "engine/core/platform.hpp"
#include "solver/wide_block.hpp"

namespace carom::detail {
namespace wide_neon {

constexpr int W = 4;
struct V {
    float32x4_t v;
};
struct M {
    uint32x4_t m;
};

inline V load(const float* p) {
    return V{vld1q_f32(p)};
}
inline void store(float* p, V a) {
    vst1q_f32(p, a.v);
}
inline V splat(float x) {
    return V{vdupq_n_f32(x)};
}
inline V operator+(V a, V b) {
    return V{vaddq_f32(a.v, b.v)};
}
inline V operator-(V a, V b) {
    return V{vsubq_f32(a.v, b.v)};
}
inline V operator*(V a, V b) {
    return V{vmulq_f32(a.v, b.v)};
}
inline V operator/(V a, V b) {
    return V{vdivq_f32(a.v, b.v)};
}
inline V operator-(V a) {
    return V{vnegq_f32(a.v)};
}
inline V vmin(V a, V b) {
    return V{vbslq_f32(vcltq_f32(a.v, b.v), a.v, b.v)};
}
inline V vmax(V a, V b) {
    return V{vbslq_f32(vcgtq_f32(a.v, b.v), a.v, b.v)};
}
inline M gt(V a, V b) {
    return M{vcgtq_f32(a.v, b.v)};
}
inline M ge(V a, V b) {
    return M{vcgeq_f32(a.v, b.v)};
}
inline M ne(V a, V b) {
    return M{vmvnq_u32(vceqq_f32(a.v, b.v))};
}
inline M mand(M a, M b) {
    return M{vandq_u32(a.m, b.m)};
}
inline M mor(M a, M b) {
    return M{vorrq_u32(a.m, b.m)};
}
inline M mnot(M a) {
    return M{vmvnq_u32(a.m)};
}
inline V sel(M m, V a, V b) {
    return V{vbslq_f32(m.m, a.v, b.v)};
}
inline bool any(M m) {
    return vmaxvq_u32(m.m) != 0;
}
inline bool all(M m) {
    return vminvq_u32(m.m) == 0xFFFFFFFFu;
}

using Reg = float32x4_t;
inline Reg loadRow(const float* p) {
    return vld1q_f32(p);
}
inline void storeRow(float* p, Reg r) {
    vst1q_f32(p, r);
}
inline Reg restRowA() {
    return vdupq_n_f32(0.0f);
}
inline Reg restRowB() {
    return vsetq_lane_f32(1.0f, vdupq_n_f32(0.0f), 2);
}

// Rows r0..r3 become columns: r_i[j] ends up in out_j[i].
inline void transpose(Reg& r0, Reg& r1, Reg& r2, Reg& r3) {
    const float32x4x2_t t01 = vtrnq_f32(r0, r1);  // [a0 b0 a2 b2] [a1 b1 a3 b3]
    const float32x4x2_t t23 = vtrnq_f32(r2, r3);  // [c0 d0 c2 d2] [c1 d1 c3 d3]
    r0 = vcombine_f32(vget_low_f32(t01.val[0]), vget_low_f32(t23.val[0]));
    r1 = vcombine_f32(vget_low_f32(t01.val[1]), vget_low_f32(t23.val[1]));
    r2 = vcombine_f32(vget_high_f32(t01.val[0]), vget_high_f32(t23.val[0]));
    r3 = vcombine_f32(vget_high_f32(t01.val[1]), vget_high_f32(t23.val[1]));
}

#include "solver/wide_lanes4.inl"
#include "solver/wide_kernel.inl"

}  // namespace wide_neon

const ContactKernels kNeonKernels{"neon",
                                  4,
                                  &wide_neon::warmStartBlocks,
                                  &wide_neon::solveBlocks,
                                  &wide_neon::restitutionBlocks,
                                  &wide_neon::deriveBlock};

}  // namespace carom::detail
