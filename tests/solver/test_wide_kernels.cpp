// The wide contact kernels (solver/wide_contact.hpp): scalar, SSE2 and AVX2
// give the same bits on random constraints that exercise every branch
// (speculative and touching points, one- and two-point manifolds, the block
// solver's cases, static sides, kinematic sides, friction limits, rolling
// resistance, restitution, padding lanes).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "solver/contact_record.hpp"
#include "solver/wide_contact.hpp"

namespace carom::detail {
namespace {

struct Problem {
    std::vector<BodyState> states;
    std::vector<ContactConstraint> constraints;
};

// count constraints over disjoint body pairs (one colour), some sides static.
Problem makeProblem(uint32_t seed, int count) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Problem p;
    p.states.resize(size_t(2 * count));
    for (BodyState& s : p.states) {
        s.v = {2.0f * u(rng), 2.0f * u(rng)};
        s.w = 3.0f * u(rng);
        s.dp = {0.01f * u(rng), 0.01f * u(rng)};
        const float a = 0.05f * u(rng);
        s.dq = {std::cos(a), std::sin(a)};
    }
    for (int i = 0; i < count; ++i) {
        ContactConstraint c;
        c.contact = i;
        const int kind = i % 5;  // 0: static A, 1: kinematic A, else dynamic pair
        c.indexA = kind == 0 ? -1 : 2 * i;
        c.indexB = 2 * i + 1;
        c.invMassA = kind <= 1 ? 0.0f : 1.0f + u(rng) * 0.5f;
        c.invIA = kind <= 1 ? 0.0f : 2.0f + u(rng);
        c.invMassB = 1.0f + u(rng) * 0.5f;
        c.invIB = 2.0f + u(rng);
        // Motion locks (infinite mass along one axis) on some lanes.
        c.invMassAy = i % 7 == 2 ? 0.0f : c.invMassA;
        c.invMassBy = c.invMassB;
        if (i % 7 == 3) c.invMassB = 0.0f;
        const float angle = 3.14159f * u(rng);
        c.normal = {std::cos(angle), std::sin(angle)};
        c.friction = 0.6f + 0.4f * u(rng);
        c.restitution = i % 3 == 0 ? 0.0f : 0.5f + 0.5f * u(rng);
        c.rollingResistance = i % 4 == 0 ? 0.1f : 0.0f;
        c.tangentSpeed = i % 6 == 1 ? 0.5f - u(rng) : 0.0f;  // conveyors
        c.rollingMass = 1.0f / (c.invIA + c.invIB);
        c.rollingImpulse = 0.01f * u(rng);
        c.softness = makeSoft(30.0f, 10.0f, 1.0f / 240.0f);
        c.pointCount = i % 7 == 0 ? 1 : 2;
        const Vec2 n = c.normal, t = rightPerp(n);
        for (int k = 0; k < c.pointCount; ++k) {
            ContactConstraintPoint& cp = c.points[k];
            cp.rA = {0.5f * u(rng), 0.5f * u(rng)};
            cp.rB = {0.5f * u(rng), 0.5f * u(rng)};
            cp.baseSeparation = 0.02f * u(rng);  // both speculative and touching
            cp.relativeVelocity = 3.0f * u(rng);
            cp.normalImpulse = std::max(0.0f, 0.5f * u(rng));
            cp.tangentImpulse = 0.2f * u(rng);
            cp.totalNormalImpulse = 0.0f;
            const float rnA = cross(cp.rA, n), rnB = cross(cp.rB, n);
            cp.normalMass =
                1.0f / (c.invMassA + c.invMassB + c.invIA * rnA * rnA + c.invIB * rnB * rnB);
            const float rtA = cross(cp.rA, t), rtB = cross(cp.rB, t);
            cp.tangentMass =
                1.0f / (c.invMassA + c.invMassB + c.invIA * rtA * rtA + c.invIB * rtB * rtB);
        }
        if (c.pointCount == 2) {
            const auto& p1 = c.points[0];
            const auto& p2 = c.points[1];
            const float rn1A = cross(p1.rA, n), rn1B = cross(p1.rB, n);
            const float rn2A = cross(p2.rA, n), rn2B = cross(p2.rB, n);
            const float m = c.invMassA + c.invMassB;
            c.k11 = m + c.invIA * rn1A * rn1A + c.invIB * rn1B * rn1B;
            c.k22 = m + c.invIA * rn2A * rn2A + c.invIB * rn2B * rn2B;
            c.k12 = m + c.invIA * rn1A * rn2A + c.invIB * rn1B * rn2B;
            const float det = c.k11 * c.k22 - c.k12 * c.k12;
            if (c.k11 * c.k11 < 1000.0f * det) {
                const float inv = 1.0f / det;
                c.m11 = inv * c.k22, c.m12 = -inv * c.k12, c.m22 = inv * c.k11;
                c.blockSolve = true;
            }
        }
        p.constraints.push_back(c);
    }
    return p;
}

struct Result {
    std::vector<BodyState> states;
    ContactBlockSet blocks;
};

// Whether two block sets hold the same bits, array by array.
template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    // An empty array's data() may be null, which memcmp may not be given.
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
bool sameBits(const ContactBlockSet& a, const ContactBlockSet& b) {
    return sameBits(a.core, b.core) && sameBits(a.rows, b.rows) && sameBits(a.masses, b.masses) &&
           sameBits(a.cold, b.cold) && sameBits(a.relax, b.relax);
}

Result run(const Problem& prob, const ContactKernels& k) {
    Result r;
    r.states = prob.states;
    const std::vector<int> colorStarts{0, int(prob.constraints.size())};
    std::vector<int> blockStarts;
    layoutContactBlocks(colorStarts, blockStarts, r.blocks);
    const BlockSpan blocks = r.blocks.span();
    packContactBlocks(prob.constraints, blocks, 0, int(r.blocks.size()));
    WideArgs a;
    a.states = reinterpret_cast<float*>(r.states.data());
    a.inv_h = 240.0f;
    a.contactPushMaxSpeed = 3.0f;
    a.restitutionThreshold = 1.0f;
    const int n = int(r.blocks.size());
    for (int sub = 0; sub < 4; ++sub) {
        k.warmStart(blocks, 0, n, a);
        k.solve(blocks, 0, n, a, true);
        k.solve(blocks, 0, n, a, false);
    }
    k.restitution(blocks, 0, n, a);
    return r;
}

std::vector<const ContactKernels*> kernelSets() {
    std::vector<const ContactKernels*> k{&kScalarKernels, &fourLaneKernels()};
#if CAROM_SIMD_SSE2
    if (cpuHasAvx2()) k.push_back(&kAvx2Kernels);
#endif
    return k;
}

// Each SIMD target builds its four-lane kernels, and SSE2/AVX2 requests
// reach them (the comparisons below would otherwise compare scalar with
// itself).
TEST(WideKernels, TheTargetsFourLaneKernelsAreBuiltAndChosen) {
#if CAROM_SIMD_SSE2 || CAROM_SIMD_NEON || CAROM_SIMD_WASM128
    EXPECT_EQ(fourLaneKernels().lanes, 4);
    EXPECT_EQ(&contactKernels(SimdWidth::SSE2), &fourLaneKernels());
#if CAROM_SIMD_SSE2
    EXPECT_STREQ(fourLaneKernels().name, "sse2");
    EXPECT_EQ(contactKernels(SimdWidth::AVX2).lanes, cpuHasAvx2() ? 8 : 4);
#elif CAROM_SIMD_NEON
    EXPECT_STREQ(fourLaneKernels().name, "neon");
    EXPECT_EQ(&contactKernels(SimdWidth::AVX2), &fourLaneKernels());
#else
    EXPECT_STREQ(fourLaneKernels().name, "simd128");
    EXPECT_EQ(&contactKernels(SimdWidth::AVX2), &fourLaneKernels());
#endif
#else
    EXPECT_EQ(&contactKernels(SimdWidth::SSE2), &kScalarKernels);
#endif
    EXPECT_EQ(&contactKernels(SimdWidth::Scalar), &kScalarKernels);
}

TEST(WideKernels, EveryWidthGivesTheSameBits) {
    for (uint32_t seed : {1u, 2u, 3u}) {
        const Problem prob = makeProblem(seed, 8 * 40 + 5);  // a padded last block
        const Result ref = run(prob, kScalarKernels);
        // Something happened: velocities changed, impulses were clamped.
        EXPECT_NE(std::memcmp(ref.states.data(), prob.states.data(),
                              prob.states.size() * sizeof(BodyState)),
                  0);
        for (const ContactKernels* k : kernelSets()) {
            const Result r = run(prob, *k);
            EXPECT_EQ(std::memcmp(r.states.data(), ref.states.data(),
                                  ref.states.size() * sizeof(BodyState)),
                      0)
                << k->name << " seed " << seed;
            EXPECT_TRUE(sameBits(r.blocks, ref.blocks)) << k->name << " seed " << seed;
        }
    }
}

TEST(WideKernels, ReadOnlySidesAreNeverWritten) {
    const Problem prob = makeProblem(7u, 8 * 10);
    for (const ContactKernels* k : kernelSets()) {
        const Result r = run(prob, *k);
        for (size_t i = 0; i < prob.constraints.size(); ++i) {
            const ContactConstraint& c = prob.constraints[i];
            if (c.indexA >= 0 && c.invMassA == 0.0f) {  // kinematic: read, never written
                EXPECT_EQ(std::memcmp(&r.states[size_t(c.indexA)], &prob.states[size_t(c.indexA)],
                                      sizeof(BodyState)),
                          0)
                    << k->name;
            }
        }
    }
}

TEST(WideKernels, PaddingLanesAreInert) {
    const Problem prob = makeProblem(9u, 3);
    ContactBlockSet blocks;
    std::vector<int> blockStarts;
    layoutContactBlocks({0, 3}, blockStarts, blocks);
    ASSERT_EQ(blocks.size(), 1u);
    EXPECT_EQ(blockStarts, (std::vector<int>{0, 1}));
    for (int l = 0; l < kBlockLanes; ++l) EXPECT_EQ(blocks.cold[0].constraint[l], l < 3 ? l : -1);
    // The layout already marks padding as bodiless, which is how the kernels
    // and prepare's derive tell it (live()).
    for (int l = 3; l < kBlockLanes; ++l)
        EXPECT_TRUE(blocks.core[0].indexA[l] == -1 && blocks.core[0].indexB[l] == -1);
    // The three constraints alone give what they give inside a bigger run.
    const Problem big = makeProblem(9u, 40);
    Problem small = big;
    small.constraints.resize(3);
    small.states.resize(6);
    for (const ContactKernels* k : kernelSets()) {
        const Result a = run(small, *k), b = run(big, *k);
        EXPECT_EQ(std::memcmp(a.states.data(), b.states.data(), 6 * sizeof(BodyState)), 0)
            << k->name;
    }
}

// The step's prepare (prepareContactBlocks: plain fields per lane, then the
// kernels' derive on whole blocks) from contact records and gathered bodies:
// the same bits for every width, and the masses, softness and two-point
// block of the equations (contact_solver.hpp), computed here in double, for
// one- and two-point manifolds, static and motion-locked sides, nearly
// redundant points (no block solve) and a padded last block.
TEST(WideKernels, PrepareEveryWidthGivesTheSameBitsAndTheEquations) {
    std::mt19937 rng(5u);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const int count = 8 * 12 + 3;
    std::vector<Contact> contacts(static_cast<size_t>(count));
    std::vector<PrepBody> prepBodies(static_cast<size_t>(2 * count));
    std::vector<ContactBodies> bodies(static_cast<size_t>(count));
    std::vector<int> order(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        order[size_t(i)] =
            count - 1 - i;  // lanes read the records out of order, as in colour order
        PrepBody& a = prepBodies[size_t(2 * i)];
        PrepBody& b = prepBodies[size_t(2 * i + 1)];
        const bool staticA = i % 5 == 0;
        a.solverIndex = staticA ? -1 : 2 * i;
        b.solverIndex = 2 * i + 1;
        if (!staticA) {
            a.params.invMass = a.params.invMassX = a.params.invMassY = 1.0f + 0.5f * u(rng);
            a.params.invInertia = 2.0f + u(rng);
            if (i % 7 == 2) a.params.invMassY = 0.0f;  // a motion lock
        }
        b.params.invMass = b.params.invMassX = b.params.invMassY = 1.0f + 0.5f * u(rng);
        b.params.invInertia = i % 9 == 4 ? 0.0f : 2.0f + u(rng);  // rotation locked on some
        for (PrepBody* p : {&a, &b}) {
            p->offset = {0.1f * u(rng), 0.1f * u(rng)};
            p->v = {2.0f * u(rng), 2.0f * u(rng)};
            p->w = 3.0f * u(rng);
        }
        bodies[size_t(i)] = {2 * i, 2 * i + 1};
        Contact& c = contacts[size_t(i)];
        c.friction = 0.6f;
        c.restitution = 0.3f;
        c.rollingResistance = i % 4 == 0 ? 0.1f : 0.0f;
        c.tangentSpeed = i % 6 == 1 ? 0.5f : 0.0f;
        const float angle = 3.14159f * u(rng);
        c.manifold.normal = {std::cos(angle), std::sin(angle)};
        c.manifold.rollingImpulse = 0.01f * u(rng);
        c.manifold.pointCount = i % 7 == 0 ? 1 : 2;
        for (int k = 0; k < c.manifold.pointCount; ++k) {
            ManifoldPoint& mp = c.manifold.points[k];
            mp.anchorA = {0.5f * u(rng), 0.5f * u(rng)};
            // Every eleventh: the two points nearly coincide (K ill-conditioned).
            mp.anchorB = k == 1 && i % 11 == 3 ? c.manifold.points[0].anchorB
                                               : Vec2{0.5f * u(rng), 0.5f * u(rng)};
            if (k == 1 && i % 11 == 3) mp.anchorA = c.manifold.points[0].anchorA;
            mp.separation = 0.02f * u(rng);
            mp.normalImpulse = 0.5f + 0.5f * u(rng);
            mp.tangentImpulse = 0.2f * u(rng);
        }
    }
    StepContext ctx;
    ctx.contactSoftness = makeSoft(58.0f, 10.0f, 1.0f / 240.0f);
    ctx.staticSoftness = makeSoft(60.0f, 10.0f, 1.0f / 240.0f);
    ctx.enableWarmStarting = true;
    const ContactPrepInput in{contacts, order, bodies, prepBodies};
    auto prepare = [&](const ContactKernels& k) {
        ContactBlockSet blocks;
        std::vector<int> blockStarts;
        layoutContactBlocks({0, count}, blockStarts, blocks);
        prepareContactBlocks(in, blocks.span(), 0, int(blocks.size()), ctx, k);
        return blocks;
    };
    const ContactBlockSet ref = prepare(kScalarKernels);
    for (const ContactKernels* k : kernelSets()) EXPECT_TRUE(sameBits(prepare(*k), ref)) << k->name;
    // The equations, in double.
    int blockSolved = 0, notBlockSolved = 0;
    for (int slot = 0; slot < count; ++slot) {
        const ContactBlock& b = ref.core[size_t(slot / kBlockLanes)];
        const ContactRows& rw = ref.rows[size_t(slot / kBlockLanes)];
        const ContactMasses& cm = ref.masses[size_t(slot / kBlockLanes)];
        const DerivedMasses& dm = cm.d;
        const ContactCold& cold = ref.cold[size_t(slot / kBlockLanes)];
        const int l = slot % kBlockLanes;
        const Contact& c = contacts[size_t(order[size_t(slot)])];
        const int ci = order[size_t(slot)];
        const PrepBody& a = prepBodies[size_t(bodies[size_t(ci)].a)];
        const PrepBody& pb = prepBodies[size_t(bodies[size_t(ci)].b)];
        const double nx = c.manifold.normal.x, ny = c.manifold.normal.y;
        auto linear = [](const BodyParams& p, double dx, double dy) {
            return double(p.invMassX) * dx * dx + double(p.invMassY) * dy * dy;
        };
        const double mAn = linear(a.params, nx, ny), mBn = linear(pb.params, nx, ny);
        const double mAt = linear(a.params, ny, -nx), mBt = linear(pb.params, ny, -nx);
        const double iA = a.params.invInertia, iB = pb.params.invInertia;
        const Softness& soft = mAn == 0.0 || mBn == 0.0 ? ctx.staticSoftness : ctx.contactSoftness;
        EXPECT_EQ(cm.biasRate[l], soft.biasRate);
        EXPECT_EQ(cm.massScale[l], soft.massScale);
        EXPECT_EQ(cm.impulseScale[l], soft.impulseScale);
        EXPECT_NEAR(dm.rollingMass[l], iA + iB > 0.0 ? 1.0 / (iA + iB) : 0.0, 1e-5);
        double rn[2][2] = {};
        for (int k = 0; k < 2; ++k) {
            const ContactBlock::Point& p = b.p[k];
            const ContactRows::Point& rp = rw.p[k];
            const DerivedMasses::Point& mp2 = dm.p[k];
            if (k >= c.manifold.pointCount) {
                EXPECT_EQ(mp2.normalMass[l], 0.0f);
                EXPECT_EQ(mp2.tangentMass[l], 0.0f);
                continue;
            }
            const ManifoldPoint& mp = c.manifold.points[k];
            const double rAx = double(mp.anchorA.x) + a.offset.x,
                         rAy = double(mp.anchorA.y) + a.offset.y;
            const double rBx = double(mp.anchorB.x) + pb.offset.x,
                         rBy = double(mp.anchorB.y) + pb.offset.y;
            rn[k][0] = rAx * ny - rAy * nx, rn[k][1] = rBx * ny - rBy * nx;
            const double kN = mAn + mBn + iA * rn[k][0] * rn[k][0] + iB * rn[k][1] * rn[k][1];
            const double rtA = rAx * -nx - rAy * ny, rtB = rBx * -nx - rBy * ny;
            const double kT = mAt + mBt + iA * rtA * rtA + iB * rtB * rtB;
            EXPECT_NEAR(mp2.normalMass[l], 1.0 / kN, 1e-4 / kN);
            EXPECT_NEAR(mp2.tangentMass[l], 1.0 / kT, 1e-4 / kT);
            EXPECT_NEAR(rp.baseSeparation[l], mp.separation - ((rBx - rAx) * nx + (rBy - rAy) * ny),
                        1e-6);
            const double vAx = a.v.x - a.w * rAy, vAy = a.v.y + a.w * rAx;
            const double vBx = pb.v.x - pb.w * rBy, vBy = pb.v.y + pb.w * rBx;
            EXPECT_NEAR(cold.p[k].relativeVelocity[l], nx * (vBx - vAx) + ny * (vBy - vAy), 1e-5);
            EXPECT_EQ(p.normalImpulse[l], mp.normalImpulse);
        }
        if (c.manifold.pointCount == 2) {
            const double m = mAn + mBn;
            const double k11 = m + iA * rn[0][0] * rn[0][0] + iB * rn[0][1] * rn[0][1];
            const double k22 = m + iA * rn[1][0] * rn[1][0] + iB * rn[1][1] * rn[1][1];
            const double k12 = m + iA * rn[0][0] * rn[1][0] + iB * rn[0][1] * rn[1][1];
            const double det = k11 * k22 - k12 * k12;
            if (k11 * k11 < 900.0 * det) {  // clearly conditioned: solved as a block
                ++blockSolved;
                ASSERT_EQ(dm.block[l], 1.0f) << slot;
                EXPECT_NEAR(dm.m11[l] * dm.k11[l] + dm.m12[l] * dm.k12[l], 1.0, 1e-3);
                EXPECT_NEAR(dm.m11[l] * dm.k12[l] + dm.m12[l] * dm.k22[l], 0.0, 1e-3 * k11);
            } else if (k11 * k11 > 1100.0 * det) {
                ++notBlockSolved;
                EXPECT_EQ(dm.block[l], 0.0f) << slot;
                EXPECT_EQ(dm.m11[l], 0.0f);
            }
        } else {
            EXPECT_EQ(dm.block[l], 0.0f);
        }
    }
    EXPECT_GT(blockSolved, 50);
    EXPECT_GT(notBlockSolved, 3);
    // Padding lanes: no bodies, never written.
    const ContactBlock& last = ref.core.back();
    for (int l = count % kBlockLanes; l < kBlockLanes; ++l) {
        EXPECT_EQ(last.indexA[l], -1);
        EXPECT_EQ(last.indexB[l], -1);
        EXPECT_EQ(ref.masses.back().d.p[0].normalMass[l], 0.0f);
    }
}

}  // namespace
}  // namespace carom::detail
