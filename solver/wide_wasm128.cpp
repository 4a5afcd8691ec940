// The contact kernels four lanes at a time with WebAssembly SIMD128 (built
// when the target has it: -msimd128). The arithmetic is wide_kernel.inl; this
// file supplies the lane type and the body gather/scatter (4×4 transposes of
// the 32-byte BodyState). Bit for bit the scalar kernels' results: IEEE
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

inline V load(const float* p) { return V{wasm_v128_load(p)}; }
inline void store(float* p, V a) { wasm_v128_store(p, a.v); }
inline V splat(float x) { return V{wasm_f32x4_splat(x)}; }
inline V operator+(V a, V b) { return V{wasm_f32x4_add(a.v, b.v)}; }
inline V operator-(V a, V b) { return V{wasm_f32x4_sub(a.v, b.v)}; }
inline V operator*(V a, V b) { return V{wasm_f32x4_mul(a.v, b.v)}; }
inline V operator/(V a, V b) { return V{wasm_f32x4_div(a.v, b.v)}; }
inline V operator-(V a) { return V{wasm_f32x4_neg(a.v)}; }
inline V vmin(V a, V b) { return V{wasm_v128_bitselect(a.v, b.v, wasm_f32x4_lt(a.v, b.v))}; }
inline V vmax(V a, V b) { return V{wasm_v128_bitselect(a.v, b.v, wasm_f32x4_gt(a.v, b.v))}; }
inline M gt(V a, V b) { return M{wasm_f32x4_gt(a.v, b.v)}; }
inline M ge(V a, V b) { return M{wasm_f32x4_ge(a.v, b.v)}; }
inline M ne(V a, V b) { return M{wasm_f32x4_ne(a.v, b.v)}; }
inline M mand(M a, M b) { return M{wasm_v128_and(a.m, b.m)}; }
inline M mor(M a, M b) { return M{wasm_v128_or(a.m, b.m)}; }
inline M mnot(M a) { return M{wasm_v128_not(a.m)}; }
inline V sel(M m, V a, V b) { return V{wasm_v128_bitselect(a.v, b.v, m.m)}; }
inline bool any(M m) { return wasm_v128_any_true(m.m); }
inline bool all(M m) { return wasm_i32x4_all_true(m.m); }

struct Bodies {
    V vx, vy, w, flags, dpx, dpy, dqc, dqs;
};

// Rows r0..r3 become columns: r_i[j] ends up in out_j[i].
inline void transpose(v128_t& r0, v128_t& r1, v128_t& r2, v128_t& r3) {
    const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);  // a0 b0 a1 b1
    const v128_t t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);  // a2 b2 a3 b3
    const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);  // c0 d0 c1 d1
    const v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);  // c2 d2 c3 d3
    r0 = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
    r1 = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
    r2 = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
    r3 = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

// BodyState: [v.x v.y w flags] [dp.x dp.y dq.c dq.s]; -1 reads a body at rest,
// below -1 a read-only body.
inline Bodies gather(const float* states, const int* index) {
    const v128_t restA = wasm_f32x4_splat(0.0f);
    const v128_t restB = wasm_f32x4_make(0.0f, 0.0f, 1.0f, 0.0f);
    v128_t a[4], b[4];
    for (int i = 0; i < 4; ++i) {
        const int k = index[i] < 0 ? -2 - index[i] : index[i];
        a[i] = index[i] == -1 ? restA : wasm_v128_load(states + 8 * k);
        b[i] = index[i] == -1 ? restB : wasm_v128_load(states + 8 * k + 4);
    }
    transpose(a[0], a[1], a[2], a[3]);
    transpose(b[0], b[1], b[2], b[3]);
    return Bodies{{a[0]}, {a[1]}, {a[2]}, {a[3]}, {b[0]}, {b[1]}, {b[2]}, {b[3]}};
}

// Writes [v.x v.y w flags] back for the lanes whose body can move.
inline void scatter(float* states, const int* index, const Bodies& bd) {
    v128_t r0 = bd.vx.v, r1 = bd.vy.v, r2 = bd.w.v, r3 = bd.flags.v;
    transpose(r0, r1, r2, r3);
    if (index[0] >= 0) wasm_v128_store(states + 8 * index[0], r0);
    if (index[1] >= 0) wasm_v128_store(states + 8 * index[1], r1);
    if (index[2] >= 0) wasm_v128_store(states + 8 * index[2], r2);
    if (index[3] >= 0) wasm_v128_store(states + 8 * index[3], r3);
}

#include "solver/wide_kernel.inl"

}  // namespace wide_wasm128

const ContactKernels kWasm128Kernels{"simd128", 4, &wide_wasm128::warmStartBlocks, &wide_wasm128::solveBlocks,
                                      &wide_wasm128::restitutionBlocks, &wide_wasm128::deriveBlock};

}  // namespace carom::detail
