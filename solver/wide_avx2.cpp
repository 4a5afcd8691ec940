// The contact kernels eight lanes at a time with AVX2. This translation unit
// alone is compiled with -mavx2 (never -mfma: no contraction), and it is
// entered only through the function pointers that contactKernels() hands out
// after cpuid reported AVX2. It includes nothing but intrinsics, the plain
// structs of wide_block.hpp and platform.hpp (whose helpers have internal
// linkage), so no inline function compiled here for AVX2 can be picked by
// the linker for another translation unit.
#include <immintrin.h>

#include "engine/core/platform.hpp"
#include "solver/wide_block.hpp"

namespace carom::detail {
namespace wide_avx2 {

constexpr int W = 8;
struct V {
    __m256 v;
};
struct M {
    __m256 m;
};

inline V load(const float* p) {
    return V{_mm256_load_ps(p)};
}
inline void store(float* p, V a) {
    _mm256_store_ps(p, a.v);
}
inline V splat(float x) {
    return V{_mm256_set1_ps(x)};
}
inline V operator+(V a, V b) {
    return V{_mm256_add_ps(a.v, b.v)};
}
inline V operator-(V a, V b) {
    return V{_mm256_sub_ps(a.v, b.v)};
}
inline V operator*(V a, V b) {
    return V{_mm256_mul_ps(a.v, b.v)};
}
inline V operator/(V a, V b) {
    return V{_mm256_div_ps(a.v, b.v)};
}
inline V operator-(V a) {
    return V{_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))};
}
inline V vmin(V a, V b) {
    return V{_mm256_min_ps(a.v, b.v)};
}
inline V vmax(V a, V b) {
    return V{_mm256_max_ps(a.v, b.v)};
}
inline M gt(V a, V b) {
    return M{_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)};
}
inline M ge(V a, V b) {
    return M{_mm256_cmp_ps(a.v, b.v, _CMP_GE_OQ)};
}
inline M ne(V a, V b) {
    return M{_mm256_cmp_ps(a.v, b.v, _CMP_NEQ_UQ)};
}
inline M mand(M a, M b) {
    return M{_mm256_and_ps(a.m, b.m)};
}
inline M mor(M a, M b) {
    return M{_mm256_or_ps(a.m, b.m)};
}
inline M mnot(M a) {
    return M{_mm256_xor_ps(a.m, _mm256_castsi256_ps(_mm256_set1_epi32(-1)))};
}
inline V sel(M m, V a, V b) {
    return V{_mm256_blendv_ps(b.v, a.v, m.m)};
}
inline bool any(M m) {
    return _mm256_movemask_ps(m.m) != 0;
}
inline bool all(M m) {
    return _mm256_movemask_ps(m.m) == 0xFF;
}

struct Bodies {
    V vx, vy, w, flags, dpx, dpy, dqc, dqs;
};

// Eight 32-byte BodyStates transposed into eight vectors (Box2D v3's
// b2GatherBodies); -1 reads a body at rest, below -1 a read-only body.
inline Bodies gather(const float* states, const int* index) {
    const __m256 rest = _mm256_setr_ps(0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f);
    __m256 b[8];
    for (int i = 0; i < 8; ++i) {
        const int k = index[i];
        b[i] = k == -1 ? rest : _mm256_loadu_ps(states + 8 * (k < 0 ? -2 - k : k));
    }
    const __m256 t0 = _mm256_unpacklo_ps(b[0], b[1]), t1 = _mm256_unpackhi_ps(b[0], b[1]);
    const __m256 t2 = _mm256_unpacklo_ps(b[2], b[3]), t3 = _mm256_unpackhi_ps(b[2], b[3]);
    const __m256 t4 = _mm256_unpacklo_ps(b[4], b[5]), t5 = _mm256_unpackhi_ps(b[4], b[5]);
    const __m256 t6 = _mm256_unpacklo_ps(b[6], b[7]), t7 = _mm256_unpackhi_ps(b[6], b[7]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    return Bodies{{_mm256_permute2f128_ps(u0, u4, 0x20)}, {_mm256_permute2f128_ps(u1, u5, 0x20)},
                  {_mm256_permute2f128_ps(u2, u6, 0x20)}, {_mm256_permute2f128_ps(u3, u7, 0x20)},
                  {_mm256_permute2f128_ps(u0, u4, 0x31)}, {_mm256_permute2f128_ps(u1, u5, 0x31)},
                  {_mm256_permute2f128_ps(u2, u6, 0x31)}, {_mm256_permute2f128_ps(u3, u7, 0x31)}};
}

// Writes [v.x v.y w flags] back for the lanes whose body can move.
inline void scatter(float* states, const int* index, const Bodies& bd) {
    const __m256 t0 = _mm256_unpacklo_ps(bd.vx.v, bd.vy.v),
                 t1 = _mm256_unpackhi_ps(bd.vx.v, bd.vy.v);
    const __m256 t2 = _mm256_unpacklo_ps(bd.w.v, bd.flags.v),
                 t3 = _mm256_unpackhi_ps(bd.w.v, bd.flags.v);
    // u_k: lane k in the low half, lane k + 4 in the high half.
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    if (index[0] >= 0) _mm_storeu_ps(states + 8 * index[0], _mm256_castps256_ps128(u0));
    if (index[1] >= 0) _mm_storeu_ps(states + 8 * index[1], _mm256_castps256_ps128(u1));
    if (index[2] >= 0) _mm_storeu_ps(states + 8 * index[2], _mm256_castps256_ps128(u2));
    if (index[3] >= 0) _mm_storeu_ps(states + 8 * index[3], _mm256_castps256_ps128(u3));
    if (index[4] >= 0) _mm_storeu_ps(states + 8 * index[4], _mm256_extractf128_ps(u0, 1));
    if (index[5] >= 0) _mm_storeu_ps(states + 8 * index[5], _mm256_extractf128_ps(u1, 1));
    if (index[6] >= 0) _mm_storeu_ps(states + 8 * index[6], _mm256_extractf128_ps(u2, 1));
    if (index[7] >= 0) _mm_storeu_ps(states + 8 * index[7], _mm256_extractf128_ps(u3, 1));
}

#include "solver/wide_kernel.inl"

}  // namespace wide_avx2

const ContactKernels kAvx2Kernels{"avx2",
                                  8,
                                  &wide_avx2::warmStartBlocks,
                                  &wide_avx2::solveBlocks,
                                  &wide_avx2::restitutionBlocks,
                                  &wide_avx2::deriveBlock};

}  // namespace carom::detail
