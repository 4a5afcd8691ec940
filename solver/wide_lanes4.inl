// The body gather and scatter of a four-lane kernel, included inside the
// kernel's namespace (wide_sse2.cpp, wide_neon.cpp, wide_wasm128.cpp) after
// it defines V, its register type Reg, and:
//   Reg loadRow(const float* p);            four floats, unaligned
//   void storeRow(float* p, Reg r);
//   Reg restRowA(); Reg restRowB();         [0 0 0 0] and [0 0 1 0]
//   void transpose(Reg&, Reg&, Reg&, Reg&); rows become columns
// BodyState is [v.x v.y w flags] [dp.x dp.y dq.c dq.s]: two rows per body,
// transposed into a lane per body. An index of -1 reads a body at rest,
// below -1 a read-only body.

struct Bodies {
    V vx, vy, w, flags, dpx, dpy, dqc, dqs;
};

inline Bodies gather(const float* states, const int* index) {
    Reg a[4], b[4];
    for (int i = 0; i < 4; ++i) {
        const int k = index[i] < 0 ? -2 - index[i] : index[i];
        a[i] = index[i] == -1 ? restRowA() : loadRow(states + 8 * k);
        b[i] = index[i] == -1 ? restRowB() : loadRow(states + 8 * k + 4);
    }
    transpose(a[0], a[1], a[2], a[3]);
    transpose(b[0], b[1], b[2], b[3]);
    return Bodies{{a[0]}, {a[1]}, {a[2]}, {a[3]}, {b[0]}, {b[1]}, {b[2]}, {b[3]}};
}

// Writes [v.x v.y w flags] back for the lanes whose body can move.
inline void scatter(float* states, const int* index, const Bodies& bd) {
    Reg r0 = bd.vx.v, r1 = bd.vy.v, r2 = bd.w.v, r3 = bd.flags.v;
    transpose(r0, r1, r2, r3);
    if (index[0] >= 0) storeRow(states + 8 * index[0], r0);
    if (index[1] >= 0) storeRow(states + 8 * index[1], r1);
    if (index[2] >= 0) storeRow(states + 8 * index[2], r2);
    if (index[3] >= 0) storeRow(states + 8 * index[3], r3);
}
