// The contact kernels four lanes at a time with WebAssembly SIMD128 (built
// when the target has it: -msimd128). The arithmetic is wide_kernel.inl and
// the body gather/scatter wide_lanes4.inl; this file supplies the lane type
// and the row operations. Bit for bit the scalar kernels' results: IEEE
// f32x4 add, subtract, multiply and divide, no fused multiply-add (SIMD128
// has none), and min/max written as the scalar compare-and-select, which is
// what x86's minps/maxps do (f32x4.min/max and pmin/pmax differ for NaN or
// for -0 against +0).
#include <wasm_simd128.h>

#include "engine/core/platform.hpp"
#include "solver/wide_block.hpp"

namespace carom::detail {
namespace wide_wasm128 {

constexpr int W = 4;
struct V {
    v128_t v;
};
struct M {
    v128_t m;
};

inline V load(const float* p) {
    return V{wasm_v128_load(p)};
}
inline void store(float* p, V a) {
    wasm_v128_store(p, a.v);
}
inline V splat(float x) {
    return V{wasm_f32x4_splat(x)};
}
inline V operator+(V a, V b) {
    return V{wasm_f32x4_add(a.v, b.v)};
}
inline V operator-(V a, V b) {
    return V{wasm_f32x4_sub(a.v, b.v)};
}
inline V operator*(V a, V b) {
    return V{wasm_f32x4_mul(a.v, b.v)};
}
inline V operator/(V a, V b) {
    return V{wasm_f32x4_div(a.v, b.v)};
}
inline V operator-(V a) {
    return V{wasm_f32x4_neg(a.v)};
}
inline V vmin(V a, V b) {
    return V{wasm_v128_bitselect(a.v, b.v, wasm_f32x4_lt(a.v, b.v))};
}
inline V vmax(V a, V b) {
    return V{wasm_v128_bitselect(a.v, b.v, wasm_f32x4_gt(a.v, b.v))};
}
inline M gt(V a, V b) {
    return M{wasm_f32x4_gt(a.v, b.v)};
}
inline M ge(V a, V b) {
    return M{wasm_f32x4_ge(a.v, b.v)};
}
inline M ne(V a, V b) {
    return M{wasm_f32x4_ne(a.v, b.v)};
}
inline M mand(M a, M b) {
    return M{wasm_v128_and(a.m, b.m)};
}
inline M mor(M a, M b) {
    return M{wasm_v128_or(a.m, b.m)};
}
inline M mnot(M a) {
    return M{wasm_v128_not(a.m)};
}
inline V sel(M m, V a, V b) {
    return V{wasm_v128_bitselect(a.v, b.v, m.m)};
}
inline bool any(M m) {
    return wasm_v128_any_true(m.m);
}
inline bool all(M m) {
    return wasm_i32x4_all_true(m.m);
}

using Reg = v128_t;
inline Reg loadRow(const float* p) {
    return wasm_v128_load(p);
}
inline void storeRow(float* p, Reg r) {
    wasm_v128_store(p, r);
}
inline Reg restRowA() {
    return wasm_f32x4_splat(0.0f);
}
inline Reg restRowB() {
    return wasm_f32x4_make(0.0f, 0.0f, 1.0f, 0.0f);
}

// Rows r0..r3 become columns: r_i[j] ends up in out_j[i].
inline void transpose(Reg& r0, Reg& r1, Reg& r2, Reg& r3) {
    const Reg t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);  // a0 b0 a1 b1
    const Reg t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);  // a2 b2 a3 b3
    const Reg t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);  // c0 d0 c1 d1
    const Reg t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);  // c2 d2 c3 d3
    r0 = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
    r1 = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
    r2 = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
    r3 = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

#include "solver/wide_lanes4.inl"
#include "solver/wide_kernel.inl"

}  // namespace wide_wasm128

const ContactKernels kWasm128Kernels{"simd128",
                                     4,
                                     &wide_wasm128::warmStartBlocks,
                                     &wide_wasm128::solveBlocks,
                                     &wide_wasm128::restitutionBlocks,
                                     &wide_wasm128::deriveBlock};

}  // namespace carom::detail
