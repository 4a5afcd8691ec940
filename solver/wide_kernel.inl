// The contact kernels' arithmetic, written once for every width. Included by
// wide_scalar.cpp, wide_sse2.cpp and wide_avx2.cpp, each inside its own
// namespace that first defines:
//   W                       lanes per group (1, 4, 8)
//   V, M                    a group of floats and a group of lane masks
//   load/store/splat        V from/to 8-lane block fields at a lane offset
//   + - * / and unary -     IEEE per lane (unary minus flips the sign bit)
//   vmin/vmax               a < b ? a : b / a > b ? a : b (minps/maxps)
//   gt/ge/ne, mand/mor      comparisons and mask logic
//   sel(m, a, b)            m ? a : b per lane
//   any/all                 reductions of a mask
//   Bodies gather(states, indices), scatter(states, indices, bodies): an index
//                           -1 reads a body at rest, below -1 a body read
//                           only (at -2 - index), which is not written back
// No header other than wide_contact.hpp's plain structs is used here: the
// AVX2 copy must not emit an inline function another translation unit could
// pick up.
//
// The operations mirror contact_solver.cpp term for term (same order of
// additions and products), with each branch turned into computing both sides
// and selecting per lane.

namespace {

// Padding lanes sit at the end of a colour's last block: a group whose first
// lane is padding (no body on either side) has nothing to do.
inline bool live(const ContactBlock& b, int o) {
    return b.indexA[o] != -1 || b.indexB[o] != -1;
}

struct Point {
    V rAx, rAy, rBx, rBy;
};

inline Point loadPoint(const ContactBlock::Point& p, int o) {
    return Point{load(p.rAx + o), load(p.rAy + o), load(p.rBx + o), load(p.rBy + o)};
}

// Relative velocity at a point: (vB + wB × rB) - (vA + wA × rA).
inline void relativeVelocity(const Bodies& A, const Bodies& B, const Point& r, V& dvx, V& dvy) {
    // crossSV(w, r) = (-w r.y, w r.x)
    dvx = (B.vx + (-B.w) * r.rBy) - (A.vx + (-A.w) * r.rAy);
    dvy = (B.vy + B.w * r.rBx) - (A.vy + A.w * r.rAx);
}

// A lane's inverse masses: along x (mA, mB), along y (mAy, mBy; equal to
// the x ones unless a motion lock holds an axis) and rotational.
struct Masses {
    V mA, mAy, iA, mB, mBy, iB;
};

inline Masses loadMasses(const ContactBlock& b, int o) {
    return Masses{load(b.invMassA + o), load(b.invMassAy + o), load(b.invIA + o),
                  load(b.invMassB + o), load(b.invMassBy + o), load(b.invIB + o)};
}

// Applies impulse P at a point: A gets -P, B gets +P.
inline void applyImpulse(Bodies& A, Bodies& B, const Point& r, V Px, V Py, const Masses& m) {
    A.vx = A.vx - m.mA * Px;
    A.vy = A.vy - m.mAy * Py;
    A.w = A.w - m.iA * (r.rAx * Py - r.rAy * Px);
    B.vx = B.vx + m.mB * Px;
    B.vy = B.vy + m.mBy * Py;
    B.w = B.w + m.iB * (r.rBx * Py - r.rBy * Px);
}

// WorldDef::tuning.relaxShockScale (shock propagation in the relax pass):
// A's and B's inverse masses and inertias times the lane's relaxScaleA /
// relaxScaleB (1 but for the lower body of a stacking contact). The pass
// also reads the normal, tangent, block and rolling masses of the scaled
// bodies, which prepare derived once per step into the RelaxBlock beside
// the block (deriveGroup<true>), so the rows do not under-relax where a
// side is scaled; derived there rather than here, per substep, where the
// divisions would cost several times as much (docs/stability.md).
inline Masses relaxShockMasses(const RelaxBlock& x, int o, const Masses& m) {
    const V sA = load(x.relaxScaleA + o), sB = load(x.relaxScaleB + o);
    return Masses{m.mA * sA, m.mAy * sA, m.iA * sA, m.mB * sB, m.mBy * sB, m.iB * sB};
}

void warmStartGroup(ContactBlock& b, int o, const WideArgs& a) {
    Bodies A = gather(a.states, b.indexA + o);
    Bodies B = gather(a.states, b.indexB + o);
    const Masses m = loadMasses(b, o);
    const V nx = load(b.nx + o), ny = load(b.ny + o);
    const V tx = ny, ty = -nx;  // rightPerp(n)
    for (int i = 0; i < 2; ++i) {
        const ContactBlock::Point& cp = b.p[i];
        const Point r = loadPoint(cp, o);
        const V ni = load(cp.normalImpulse + o), ti = load(cp.tangentImpulse + o);
        const V Px = ni * nx + ti * tx, Py = ni * ny + ti * ty;
        // Same order as contact_solver.cpp: wA, vA, wB, vB.
        A.w = A.w - m.iA * (r.rAx * Py - r.rAy * Px);
        A.vx = A.vx - m.mA * Px;
        A.vy = A.vy - m.mAy * Py;
        B.w = B.w + m.iB * (r.rBx * Py - r.rBy * Px);
        B.vx = B.vx + m.mB * Px;
        B.vy = B.vy + m.mBy * Py;
    }
    const V roll = load(b.rollingImpulse + o);
    A.w = A.w - m.iA * roll;
    B.w = B.w + m.iB * roll;
    scatter(a.states, b.indexA + o, A);
    scatter(a.states, b.indexB + o, B);
}

// kShock: the relax pass with WorldDef::tuning.relaxShockScale below 1 (its
// own instantiation: the common one is the code it always was; x is the
// block's RelaxBlock, read only then). cm: the softness (read with useBias
// only). d: the derived masses (normal, tangent, block, rolling) the rows
// solve with, the block's ContactMasses' or, with kShock, its RelaxBlock's.
template <bool kShock>
void solveGroup(ContactBlock& b, ContactRows& rw, const ContactMasses& cm, const RelaxBlock* x,
                int o, const WideArgs& a, bool useBias, const DerivedMasses& d) {
    Bodies A = gather(a.states, b.indexA + o);
    Bodies B = gather(a.states, b.indexB + o);
    Masses m = loadMasses(b, o);
    if constexpr (kShock) m = relaxShockMasses(*x, o, m);
    const V nx = load(b.nx + o), ny = load(b.ny + o);
    const V zero = splat(0.0f), one = splat(1.0f);
    const V inv_h = splat(a.inv_h);
    const V minBias = -splat(a.contactPushMaxSpeed);
    const V dpx = B.dpx - A.dpx, dpy = B.dpy - A.dpy;

    // Per point: current separation → bias, mass scale, impulse scale.
    Point r[2];
    V bias[2], ms[2], is[2];
    for (int i = 0; i < 2; ++i) {
        const ContactBlock::Point& cp = b.p[i];
        r[i] = loadPoint(cp, o);
        // d = dp + (rotate(dqB, rB) - rotate(dqA, rA))
        const V qBx = B.dqc * r[i].rBx - B.dqs * r[i].rBy,
                qBy = B.dqs * r[i].rBx + B.dqc * r[i].rBy;
        const V qAx = A.dqc * r[i].rAx - A.dqs * r[i].rAy,
                qAy = A.dqs * r[i].rAx + A.dqc * r[i].rAy;
        const V dx = dpx + (qBx - qAx), dy = dpy + (qBy - qAy);
        const V s = (dx * nx + dy * ny) + load(rw.p[i].baseSeparation + o);
        const M speculative = gt(s, zero);
        if (useBias) {
            const V soft = vmax(load(cm.biasRate + o) * s, minBias);
            bias[i] = sel(speculative, s * inv_h, soft);
            ms[i] = sel(speculative, one, load(cm.massScale + o));
            is[i] = sel(speculative, zero, load(cm.impulseScale + o));
        } else {
            bias[i] = sel(speculative, s * inv_h, zero);
            ms[i] = one;
            is[i] = zero;
        }
    }

    V n1 = load(b.p[0].normalImpulse + o), n2 = load(b.p[1].normalImpulse + o);
    V tot1 = load(rw.p[0].totalNormalImpulse + o), tot2 = load(rw.p[1].totalNormalImpulse + o);
    V totalNormal = zero;

    // The two-point block (contact_solver.cpp solveNormalBlock) on the lanes
    // that have one; lanes where it gives up take the Gauss-Seidel rows.
    const M hasBlock = ne(load(d.block + o), zero);
    M blockOk = mand(hasBlock, mnot(hasBlock));  // all false
    Bodies bA = A, bB = B;
    V bx1 = zero, bx2 = zero;
    if (any(hasBlock)) {
        V dvx, dvy;
        relativeVelocity(A, B, r[0], dvx, dvy);
        const V vn1 = (dvx * nx + dvy * ny) + bias[0];
        relativeVelocity(A, B, r[1], dvx, dvy);
        const V vn2 = (dvx * nx + dvy * ny) + bias[1];
        const V m11 = load(d.m11 + o), m12 = load(d.m12 + o), m22 = load(d.m22 + o);
        const V a1 = n1, a2 = n2;
        V x1, x2;
        if (useBias) {
            x1 = (a1 - ms[0] * (m11 * vn1 + m12 * vn2)) - is[0] * a1;
            x2 = (a2 - ms[1] * (m12 * vn1 + m22 * vn2)) - is[1] * a2;
            blockOk = mand(hasBlock, mand(ge(x1, zero), ge(x2, zero)));
        } else {
            const V k11 = load(d.k11 + o), k12 = load(d.k12 + o), k22 = load(d.k22 + o);
            const V b1 = vn1 - (k11 * a1 + k12 * a2);
            const V b2 = vn2 - (k12 * a1 + k22 * a2);
            // Both active, first only, second only, neither: the first case
            // that holds wins.
            const V c1x1 = -(m11 * b1 + m12 * b2), c1x2 = -(m12 * b1 + m22 * b2);
            const M ok1 = mand(ge(c1x1, zero), ge(c1x2, zero));
            const V c2x1 = -b1 / k11;
            const M ok2 = mand(ge(c2x1, zero), ge(k12 * c2x1 + b2, zero));
            const V c3x2 = -b2 / k22;
            const M ok3 = mand(ge(c3x2, zero), ge(k12 * c3x2 + b1, zero));
            const M ok4 = mand(ge(b1, zero), ge(b2, zero));
            x1 = sel(ok1, c1x1, sel(ok2, c2x1, zero));
            x2 = sel(ok1, c1x2, sel(ok2, zero, sel(ok3, c3x2, zero)));
            blockOk = mand(hasBlock, mor(mor(ok1, ok2), mor(ok3, ok4)));
        }
        const V d1 = x1 - a1, d2 = x2 - a2;
        const V P1x = d1 * nx, P1y = d1 * ny, P2x = d2 * nx, P2y = d2 * ny;
        bA.vx = A.vx - m.mA * (P1x + P2x);
        bA.vy = A.vy - m.mAy * (P1y + P2y);
        bA.w = A.w - m.iA * ((r[0].rAx * P1y - r[0].rAy * P1x) + (r[1].rAx * P2y - r[1].rAy * P2x));
        bB.vx = B.vx + m.mB * (P1x + P2x);
        bB.vy = B.vy + m.mBy * (P1y + P2y);
        bB.w = B.w + m.iB * ((r[0].rBx * P1y - r[0].rBy * P1x) + (r[1].rBx * P2y - r[1].rBy * P2x));
        bx1 = x1, bx2 = x2;
    }

    if (!all(blockOk)) {
        // Gauss-Seidel over the normal rows.
        V total = zero;
        for (int i = 0; i < 2; ++i) {
            V dvx, dvy;
            relativeVelocity(A, B, r[i], dvx, dvy);
            const V vn = dvx * nx + dvy * ny;
            V& ni = i == 0 ? n1 : n2;
            V& ti = i == 0 ? tot1 : tot2;
            const V impulse0 = (-load(d.p[i].normalMass + o)) * ms[i] * (vn + bias[i]) - is[i] * ni;
            const V newImpulse = vmax(ni + impulse0, zero);
            const V impulse = newImpulse - ni;
            ni = newImpulse;
            ti = ti + newImpulse;
            total = total + newImpulse;
            applyImpulse(A, B, r[i], impulse * nx, impulse * ny, m);
        }
        // Block lanes: their results replace the Gauss-Seidel ones.
        n1 = sel(blockOk, bx1, n1);
        n2 = sel(blockOk, bx2, n2);
        tot1 = sel(blockOk, load(rw.p[0].totalNormalImpulse + o) + bx1, tot1);
        tot2 = sel(blockOk, load(rw.p[1].totalNormalImpulse + o) + bx2, tot2);
        totalNormal = sel(blockOk, bx1 + bx2, total);
        A.vx = sel(blockOk, bA.vx, A.vx), A.vy = sel(blockOk, bA.vy, A.vy),
        A.w = sel(blockOk, bA.w, A.w);
        B.vx = sel(blockOk, bB.vx, B.vx), B.vy = sel(blockOk, bB.vy, B.vy),
        B.w = sel(blockOk, bB.w, B.w);
    } else {
        n1 = bx1, n2 = bx2;
        tot1 = tot1 + bx1, tot2 = tot2 + bx2;
        totalNormal = bx1 + bx2;
        A = bA, B = bB;
    }
    store(b.p[0].normalImpulse + o, n1);
    store(b.p[1].normalImpulse + o, n2);
    store(rw.p[0].totalNormalImpulse + o, tot1);
    store(rw.p[1].totalNormalImpulse + o, tot2);

    // Friction: Coulomb box with the current normal impulse, on the sliding
    // speed past the conveyor speed (x - 0 is x: no conveyor, same bits).
    const V tx = ny, ty = -nx;
    const V friction = load(rw.friction + o);
    const V tangentSpeed = load(rw.tangentSpeed + o);
    for (int i = 0; i < 2; ++i) {
        ContactBlock::Point& cp = b.p[i];
        V dvx, dvy;
        relativeVelocity(A, B, r[i], dvx, dvy);
        const V vt = (dvx * tx + dvy * ty) - tangentSpeed;
        const V old = load(cp.tangentImpulse + o);
        const V maxFriction = friction * (i == 0 ? n1 : n2);
        const V newImpulse =
            vmin(vmax(old + (-load(d.p[i].tangentMass + o)) * vt, -maxFriction), maxFriction);
        const V impulse = newImpulse - old;
        store(cp.tangentImpulse + o, newImpulse);
        applyImpulse(A, B, r[i], impulse * tx, impulse * ty, m);
    }

    // Rolling resistance on the lanes that have it.
    const V rr = load(rw.rollingResistance + o);
    const M rolling = gt(rr, zero);
    if (any(rolling)) {
        const V maxLambda = rr * totalNormal;
        const V old = load(b.rollingImpulse + o);
        const V lambda =
            vmin(vmax(old - load(d.rollingMass + o) * (B.w - A.w), -maxLambda), maxLambda);
        const V delta = lambda - old;
        store(b.rollingImpulse + o, sel(rolling, lambda, old));
        A.w = sel(rolling, A.w - m.iA * delta, A.w);
        B.w = sel(rolling, B.w + m.iB * delta, B.w);
    }
    scatter(a.states, b.indexA + o, A);
    scatter(a.states, b.indexB + o, B);
}

void restitutionGroup(ContactBlock& b, ContactRows& rw, const ContactMasses& cm,
                      const ContactCold& c, int o, const WideArgs& a) {
    const V zero = splat(0.0f);
    const V e = load(c.restitution + o);
    const V minApproach = -splat(a.restitutionThreshold);
    // A point bounces if it approached faster than the threshold and pushed.
    M bounce[2];
    M anyBounce = mand(ne(e, zero), mnot(ne(e, zero)));  // all false
    for (int i = 0; i < 2; ++i) {
        bounce[i] = mand(ne(e, zero), mand(mnot(gt(load(c.p[i].relativeVelocity + o), minApproach)),
                                           ne(load(rw.p[i].totalNormalImpulse + o), zero)));
        anyBounce = mor(anyBounce, bounce[i]);
    }
    if (!any(anyBounce)) return;
    Bodies A = gather(a.states, b.indexA + o);
    Bodies B = gather(a.states, b.indexB + o);
    const Masses m = loadMasses(b, o);
    const V nx = load(b.nx + o), ny = load(b.ny + o);
    for (int i = 0; i < 2; ++i) {
        ContactBlock::Point& cp = b.p[i];
        const Point r = loadPoint(cp, o);
        V dvx, dvy;
        relativeVelocity(A, B, r, dvx, dvy);
        const V vn = dvx * nx + dvy * ny;
        const V ni = load(cp.normalImpulse + o);
        const V impulse0 =
            (-load(cm.d.p[i].normalMass + o)) * (vn + e * load(c.p[i].relativeVelocity + o));
        const V newImpulse = vmax(ni + impulse0, zero);
        const V impulse = newImpulse - ni;
        store(cp.normalImpulse + o, sel(bounce[i], newImpulse, ni));
        const V tot = load(rw.p[i].totalNormalImpulse + o);
        store(rw.p[i].totalNormalImpulse + o, sel(bounce[i], tot + impulse, tot));
        Bodies nA = A, nB = B;
        applyImpulse(nA, nB, r, impulse * nx, impulse * ny, m);
        A.vx = sel(bounce[i], nA.vx, A.vx), A.vy = sel(bounce[i], nA.vy, A.vy),
        A.w = sel(bounce[i], nA.w, A.w);
        B.vx = sel(bounce[i], nB.vx, B.vx), B.vy = sel(bounce[i], nB.vy, B.vy),
        B.w = sel(bounce[i], nB.w, B.w);
    }
    scatter(a.states, b.indexA + o, A);
    scatter(a.states, b.indexB + o, B);
}

// Prepare's arithmetic (the equations in contact_solver.hpp), on lanes whose plain fields
// prepareContactBlocks has written: the softness, the rolling mass, each point's normal and tangent
// mass and the two-point block. twoPoints[lane] is 1 where the lane has a second point. Eight
// divisions at once instead of one after another (prepare's divisions are a large share of a pile's
// step). The derived masses of a group from inverse masses m: per point the normal and tangent
// mass, the rolling mass and the two-point block, into out (the block's ContactMasses', or its
// RelaxBlock's with the shock-scaled masses).
CAROM_FORCE_INLINE void deriveMasses(const ContactBlock& b, int o, const Masses& m, V mAn, V mBn,
                                     M two, DerivedMasses& out) {
    const V nx = load(b.nx + o), ny = load(b.ny + o);
    const V tx = ny, ty = -nx;  // rightPerp(n)
    const V zero = splat(0.0f), one = splat(1.0f);
    auto linear = [](V mx, V my, V dx, V dy) {
        return sel(ne(mx, my), mx * dx * dx + my * dy * dy, mx);
    };
    const V mAt = linear(m.mA, m.mAy, tx, ty), mBt = linear(m.mB, m.mBy, tx, ty);
    const V kRoll = m.iA + m.iB;
    store(out.rollingMass + o, sel(gt(kRoll, zero), one / kRoll, zero));
    V rnA[2], rnB[2];
    for (int i = 0; i < 2; ++i) {
        const Point r = loadPoint(b.p[i], o);
        // A missing second point keeps zero masses: it never pushes.
        const M has = i == 0 ? ne(one, zero) : two;
        rnA[i] = r.rAx * ny - r.rAy * nx, rnB[i] = r.rBx * ny - r.rBy * nx;  // cross(r, n)
        const V kN = mAn + mBn + m.iA * rnA[i] * rnA[i] + m.iB * rnB[i] * rnB[i];
        store(out.p[i].normalMass + o, sel(mand(has, gt(kN, zero)), one / kN, zero));
        const V rtA = r.rAx * ty - r.rAy * tx, rtB = r.rBx * ty - r.rBy * tx;  // cross(r, t)
        const V kT = mAt + mBt + m.iA * rtA * rtA + m.iB * rtB * rtB;
        store(out.p[i].tangentMass + o, sel(mand(has, gt(kT, zero)), one / kT, zero));
    }
    // The two-point block, only where K is well conditioned (max condition
    // 1000); elsewhere K = I and its inverse 0.
    const V mn = mAn + mBn;
    const V k11 = mn + m.iA * rnA[0] * rnA[0] + m.iB * rnB[0] * rnB[0];
    const V k22 = mn + m.iA * rnA[1] * rnA[1] + m.iB * rnB[1] * rnB[1];
    const V k12 = mn + m.iA * rnA[0] * rnA[1] + m.iB * rnB[0] * rnB[1];
    const V det = k11 * k22 - k12 * k12;
    const M solve = mand(two, gt(splat(1000.0f) * det, k11 * k11));
    const V inv = one / det;
    store(out.block + o, sel(solve, one, zero));
    store(out.k11 + o, sel(solve, k11, one));
    store(out.k12 + o, sel(solve, k12, zero));
    store(out.k22 + o, sel(solve, k22, one));
    store(out.m11 + o, sel(solve, inv * k22, zero));
    store(out.m12 + o, sel(solve, (-inv) * k12, zero));
    store(out.m22 + o, sel(solve, inv * k11, zero));
}

// kRelax: WorldDef::tuning.relaxShockScale below 1, the shock-scaled masses
// into relax (its own instantiation: the common one is the code it was).
template <bool kRelax>
void deriveGroup(const ContactBlock& b, ContactMasses& cm, int o, const float* twoPoints,
                 const BlockSoftness& s, RelaxBlock* relax) {
    const Masses m = loadMasses(b, o);
    const V nx = load(b.nx + o), ny = load(b.ny + o);
    const V zero = splat(0.0f);
    // linearInvMass(mx, my, d): mx == my ? mx : mx d.x d.x + my d.y d.y
    auto linear = [](V mx, V my, V dx, V dy) {
        return sel(ne(mx, my), mx * dx * dx + my * dy * dy, mx);
    };
    const V mAn = linear(m.mA, m.mAy, nx, ny), mBn = linear(m.mB, m.mBy, nx, ny);
    const M rigid = mnot(mand(ne(mAn, zero), ne(mBn, zero)));
    store(cm.biasRate + o, sel(rigid, splat(s.rigid.biasRate), splat(s.contact.biasRate)));
    store(cm.massScale + o, sel(rigid, splat(s.rigid.massScale), splat(s.contact.massScale)));
    store(cm.impulseScale + o,
          sel(rigid, splat(s.rigid.impulseScale), splat(s.contact.impulseScale)));
    const M two = ne(load(twoPoints + o), zero);
    deriveMasses(b, o, m, mAn, mBn, two, cm.d);
    if constexpr (kRelax) {
        // The same arithmetic on the shock-scaled masses (a lane with both scales 1 gets the true
        // values bit for bit: x * 1 is x).
        const Masses sm = relaxShockMasses(*relax, o, m);
        const V sAn = linear(sm.mA, sm.mAy, nx, ny), sBn = linear(sm.mB, sm.mBy, nx, ny);
        deriveMasses(b, o, sm, sAn, sBn, two, relax->d);
    }
}

void deriveBlock(const ContactBlock& b, ContactMasses& cm, const float* twoPoints,
                 const BlockSoftness& s, RelaxBlock* relax) {
    if (relax != nullptr) {
        for (int o = 0; o < kBlockLanes; o += W)
            if (live(b, o)) deriveGroup<true>(b, cm, o, twoPoints, s, relax);
        return;
    }
    for (int o = 0; o < kBlockLanes; o += W)
        if (live(b, o)) deriveGroup<false>(b, cm, o, twoPoints, s, nullptr);
}

void warmStartBlocks(const BlockSpan& blocks, int begin, int end, const WideArgs& a) {
    ContactBlock* const core = blocks.core;
    for (int k = begin; k < end; ++k)
        for (int o = 0; o < kBlockLanes; o += W)
            if (live(core[k], o)) warmStartGroup(core[k], o, a);
}

void solveBlocks(const BlockSpan& blocks, int begin, int end, const WideArgs& a, bool useBias) {
    ContactBlock* const core = blocks.core;
    ContactRows* const rows = blocks.rows;
    const ContactMasses* const masses = blocks.masses;
    if (!useBias && a.relaxShock) {
        const RelaxBlock* const relax = blocks.relax;
        for (int k = begin; k < end; ++k)
            for (int o = 0; o < kBlockLanes; o += W)
                if (live(core[k], o))
                    solveGroup<true>(core[k], rows[k], masses[k], &relax[k], o, a, false,
                                     relax[k].d);
        return;
    }
    for (int k = begin; k < end; ++k)
        for (int o = 0; o < kBlockLanes; o += W)
            if (live(core[k], o))
                solveGroup<false>(core[k], rows[k], masses[k], nullptr, o, a, useBias, masses[k].d);
}

void restitutionBlocks(const BlockSpan& blocks, int begin, int end, const WideArgs& a) {
    for (int k = begin; k < end; ++k)
        for (int o = 0; o < kBlockLanes; o += W)
            if (live(blocks.core[k], o))
                restitutionGroup(blocks.core[k], blocks.rows[k], blocks.masses[k], blocks.cold[k],
                                 o, a);
}

}  // namespace
