// The contact kernels one lane at a time: the overflow colour (whose
// constraints may share bodies, so each lane's velocities are written before
// the next lane reads them), and the reference the wide kernels must match
// bit for bit. min/max mirror minps/maxps (see wide_contact.hpp).
#include "engine/core/platform.hpp"
#include "solver/wide_block.hpp"

namespace carom::detail {
namespace wide_scalar {

constexpr int W = 1;
using V = float;
using M = bool;

inline V load(const float* p) {
    return *p;
}
inline void store(float* p, V v) {
    *p = v;
}
inline V splat(float x) {
    return x;
}
inline V vmin(V a, V b) {
    return a < b ? a : b;
}
inline V vmax(V a, V b) {
    return a > b ? a : b;
}
inline M gt(V a, V b) {
    return a > b;
}
inline M ge(V a, V b) {
    return a >= b;
}
inline M ne(V a, V b) {
    return a != b;
}
inline M mand(M a, M b) {
    return a && b;
}
inline M mor(M a, M b) {
    return a || b;
}
inline M mnot(M a) {
    return !a;
}
inline V sel(M m, V a, V b) {
    return m ? a : b;
}
inline bool any(M m) {
    return m;
}
inline bool all(M m) {
    return m;
}

struct Bodies {
    V vx, vy, w, dpx, dpy, dqc, dqs;
};

// BodyState: v.x v.y w flags dp.x dp.y dq.c dq.s; -1 reads a body at rest,
// below -1 a read-only body.
inline Bodies gather(const float* states, const int* index) {
    if (*index == -1) return Bodies{0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
    const float* s = states + 8 * (*index < 0 ? -2 - *index : *index);
    return Bodies{s[0], s[1], s[2], s[4], s[5], s[6], s[7]};
}

inline void scatter(float* states, const int* index, const Bodies& b) {
    if (*index < 0) return;
    float* s = states + 8 * *index;
    s[0] = b.vx, s[1] = b.vy, s[2] = b.w;
}

#include "solver/wide_kernel.inl"

}  // namespace wide_scalar

const ContactKernels kScalarKernels{"scalar",
                                    1,
                                    &wide_scalar::warmStartBlocks,
                                    &wide_scalar::solveBlocks,
                                    &wide_scalar::restitutionBlocks,
                                    &wide_scalar::deriveBlock};

}  // namespace carom::detail
