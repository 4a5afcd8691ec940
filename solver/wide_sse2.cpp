// The contact kernels four lanes at a time with SSE2 (the x86-64 baseline).
// The arithmetic is wide_kernel.inl and the body gather/scatter
// wide_lanes4.inl; this file supplies the lane type and the row operations.
#include <emmintrin.h>

#include "engine/core/platform.hpp"
#include "solver/wide_block.hpp"

namespace carom::detail {
namespace wide_sse2 {

constexpr int W = 4;
struct V {
    __m128 v;
};
struct M {
    __m128 m;
};

inline V load(const float* p) {
    return V{_mm_load_ps(p)};
}
inline void store(float* p, V a) {
    _mm_store_ps(p, a.v);
}
inline V splat(float x) {
    return V{_mm_set1_ps(x)};
}
inline V operator+(V a, V b) {
    return V{_mm_add_ps(a.v, b.v)};
}
inline V operator-(V a, V b) {
    return V{_mm_sub_ps(a.v, b.v)};
}
inline V operator*(V a, V b) {
    return V{_mm_mul_ps(a.v, b.v)};
}
inline V operator/(V a, V b) {
    return V{_mm_div_ps(a.v, b.v)};
}
inline V operator-(V a) {
    return V{_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))};
}
inline V vmin(V a, V b) {
    return V{_mm_min_ps(a.v, b.v)};
}
inline V vmax(V a, V b) {
    return V{_mm_max_ps(a.v, b.v)};
}
inline M gt(V a, V b) {
    return M{_mm_cmpgt_ps(a.v, b.v)};
}
inline M ge(V a, V b) {
    return M{_mm_cmpge_ps(a.v, b.v)};
}
inline M ne(V a, V b) {
    return M{_mm_cmpneq_ps(a.v, b.v)};
}
inline M mand(M a, M b) {
    return M{_mm_and_ps(a.m, b.m)};
}
inline M mor(M a, M b) {
    return M{_mm_or_ps(a.m, b.m)};
}
inline M mnot(M a) {
    return M{_mm_xor_ps(a.m, _mm_castsi128_ps(_mm_set1_epi32(-1)))};
}
inline V sel(M m, V a, V b) {
    return V{_mm_or_ps(_mm_and_ps(m.m, a.v), _mm_andnot_ps(m.m, b.v))};
}
inline bool any(M m) {
    return _mm_movemask_ps(m.m) != 0;
}
inline bool all(M m) {
    return _mm_movemask_ps(m.m) == 0xF;
}

using Reg = __m128;
inline Reg loadRow(const float* p) {
    return _mm_loadu_ps(p);
}
inline void storeRow(float* p, Reg r) {
    _mm_storeu_ps(p, r);
}
inline Reg restRowA() {
    return _mm_setzero_ps();
}
inline Reg restRowB() {
    return _mm_setr_ps(0.0f, 0.0f, 1.0f, 0.0f);
}
inline void transpose(Reg& r0, Reg& r1, Reg& r2, Reg& r3) {
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
}

#include "solver/wide_lanes4.inl"
#include "solver/wide_kernel.inl"

}  // namespace wide_sse2

const ContactKernels kSse2Kernels{"sse2",
                                  4,
                                  &wide_sse2::warmStartBlocks,
                                  &wide_sse2::solveBlocks,
                                  &wide_sse2::restitutionBlocks,
                                  &wide_sse2::deriveBlock};

}  // namespace carom::detail
