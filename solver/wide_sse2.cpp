// The contact kernels four lanes at a time with SSE2 (the x86-64 baseline).
// The arithmetic is wide_kernel.inl; this file supplies the lane type and the
// body gather/scatter (two 4×4 transposes of the 32-byte BodyState).
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

inline V load(const float* p) { return V{_mm_load_ps(p)}; }
inline void store(float* p, V a) { _mm_store_ps(p, a.v); }
inline V splat(float x) { return V{_mm_set1_ps(x)}; }
inline V operator+(V a, V b) { return V{_mm_add_ps(a.v, b.v)}; }
inline V operator-(V a, V b) { return V{_mm_sub_ps(a.v, b.v)}; }
inline V operator*(V a, V b) { return V{_mm_mul_ps(a.v, b.v)}; }
inline V operator/(V a, V b) { return V{_mm_div_ps(a.v, b.v)}; }
inline V operator-(V a) { return V{_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))}; }
inline V vmin(V a, V b) { return V{_mm_min_ps(a.v, b.v)}; }
inline V vmax(V a, V b) { return V{_mm_max_ps(a.v, b.v)}; }
inline M gt(V a, V b) { return M{_mm_cmpgt_ps(a.v, b.v)}; }
inline M ge(V a, V b) { return M{_mm_cmpge_ps(a.v, b.v)}; }
inline M ne(V a, V b) { return M{_mm_cmpneq_ps(a.v, b.v)}; }
inline M mand(M a, M b) { return M{_mm_and_ps(a.m, b.m)}; }
inline M mor(M a, M b) { return M{_mm_or_ps(a.m, b.m)}; }
inline M mnot(M a) { return M{_mm_xor_ps(a.m, _mm_castsi128_ps(_mm_set1_epi32(-1)))}; }
inline V sel(M m, V a, V b) { return V{_mm_or_ps(_mm_and_ps(m.m, a.v), _mm_andnot_ps(m.m, b.v))}; }
inline bool any(M m) { return _mm_movemask_ps(m.m) != 0; }
inline bool all(M m) { return _mm_movemask_ps(m.m) == 0xF; }

struct Bodies {
    V vx, vy, w, flags, dpx, dpy, dqc, dqs;
};

// BodyState: [v.x v.y w flags] [dp.x dp.y dq.c dq.s]; -1 reads a body at rest,
// below -1 a read-only body.
inline Bodies gather(const float* states, const int* index) {
    const __m128 restA = _mm_setzero_ps();
    const __m128 restB = _mm_setr_ps(0.0f, 0.0f, 1.0f, 0.0f);
    __m128 a[4], b[4];
    for (int i = 0; i < 4; ++i) {
        const int k = index[i] < 0 ? -2 - index[i] : index[i];
        a[i] = index[i] == -1 ? restA : _mm_loadu_ps(states + 8 * k);
        b[i] = index[i] == -1 ? restB : _mm_loadu_ps(states + 8 * k + 4);
    }
    _MM_TRANSPOSE4_PS(a[0], a[1], a[2], a[3]);
    _MM_TRANSPOSE4_PS(b[0], b[1], b[2], b[3]);
    return Bodies{{a[0]}, {a[1]}, {a[2]}, {a[3]}, {b[0]}, {b[1]}, {b[2]}, {b[3]}};
}

// Writes [v.x v.y w flags] back for the lanes whose body can move.
inline void scatter(float* states, const int* index, const Bodies& bd) {
    __m128 r0 = bd.vx.v, r1 = bd.vy.v, r2 = bd.w.v, r3 = bd.flags.v;
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    if (index[0] >= 0) _mm_storeu_ps(states + 8 * index[0], r0);
    if (index[1] >= 0) _mm_storeu_ps(states + 8 * index[1], r1);
    if (index[2] >= 0) _mm_storeu_ps(states + 8 * index[2], r2);
    if (index[3] >= 0) _mm_storeu_ps(states + 8 * index[3], r3);
}

#include "solver/wide_kernel.inl"

}  // namespace wide_sse2

const ContactKernels kSse2Kernels{"sse2", 4, &wide_sse2::warmStartBlocks, &wide_sse2::solveBlocks,
                                   &wide_sse2::restitutionBlocks, &wide_sse2::deriveBlock};

}  // namespace carom::detail
