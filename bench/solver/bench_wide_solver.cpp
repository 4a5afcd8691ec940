// The wide contact kernels against the scalar one (docs/solver.md, Figures):
// one colour of N contact constraints between disjoint random body pairs (a
// pyramid-like mix: two-point manifolds through the block solver, a fifth of
// them against a static body), bodies in shuffled order as the awake array
// leaves them. Each kernel set runs the passes of one substep (warm start,
// solve, relax) over the same data; restitution once.
//   build/bin/carom_bench_solver
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "solver/wide_contact.hpp"

namespace carom::detail {
namespace {

struct Problem {
    std::vector<BodyState> states;
    ContactBlockSet blocks;
};

Problem makeProblem(int count) {
    std::mt19937 rng(42u);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Problem p;
    p.states.resize(size_t(2 * count));
    for (BodyState& s : p.states) {
        s.v = {0.1f * u(rng), 0.1f * u(rng) - 0.04f};
        s.w = 0.1f * u(rng);
        s.dq = Rot{};
    }
    std::vector<int> order(size_t(2 * count));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<ContactConstraint> constraints;
    for (int i = 0; i < count; ++i) {
        ContactConstraint c;
        c.indexA = i % 5 == 0 ? -1 : order[size_t(2 * i)];
        c.indexB = order[size_t(2 * i + 1)];
        c.invMassA = c.indexA < 0 ? 0.0f : 1.0f;
        c.invIA = c.indexA < 0 ? 0.0f : 6.0f;
        c.invMassB = 1.0f, c.invIB = 6.0f;
        c.invMassAy = c.invMassA, c.invMassBy = c.invMassB;
        c.normal = {0.0f, 1.0f};
        c.friction = 0.6f;
        c.softness = makeSoft(30.0f, 10.0f, 1.0f / 240.0f);
        c.pointCount = 2;
        for (int k = 0; k < 2; ++k) {
            ContactConstraintPoint& cp = c.points[k];
            cp.rA = {k == 0 ? -0.5f : 0.5f, 0.5f};
            cp.rB = {k == 0 ? -0.5f : 0.5f, -0.5f};
            cp.baseSeparation = -0.005f + 0.001f * u(rng);
            cp.normalImpulse = 0.02f;
            cp.normalMass = 0.1f;
            cp.tangentMass = 0.2f;
        }
        const auto& p1 = c.points[0];
        const auto& p2 = c.points[1];
        const float m = c.invMassA + c.invMassB;
        c.k11 = m + c.invIA * p1.rA.x * p1.rA.x + c.invIB * p1.rB.x * p1.rB.x;
        c.k22 = m + c.invIA * p2.rA.x * p2.rA.x + c.invIB * p2.rB.x * p2.rB.x;
        c.k12 = m + c.invIA * p1.rA.x * p2.rA.x + c.invIB * p1.rB.x * p2.rB.x;
        const float inv = 1.0f / (c.k11 * c.k22 - c.k12 * c.k12);
        c.m11 = inv * c.k22, c.m12 = -inv * c.k12, c.m22 = inv * c.k11;
        c.blockSolve = true;
        constraints.push_back(c);
    }
    std::vector<int> blockStarts;
    layoutContactBlocks({0, count}, blockStarts, p.blocks);
    packContactBlocks(constraints, p.blocks.span(), 0, int(p.blocks.size()));
    return p;
}

const ContactKernels* kernelsOf(int64_t width) {
    if (width == 8) return cpuHasAvx2() ? &kAvx2Kernels : nullptr;
    return width == 4 ? &kSse2Kernels : &kScalarKernels;
}

// One substep's contact passes: warm start, solve, relax.
void BM_Substep(benchmark::State& state) {
    const ContactKernels* k = kernelsOf(state.range(0));
    if (k == nullptr) {
        state.SkipWithError("no AVX2 on this CPU");
        return;
    }
    const int count = int(state.range(1));
    Problem p = makeProblem(count);
    WideArgs a;
    a.states = reinterpret_cast<float*>(p.states.data());
    a.inv_h = 240.0f;
    a.contactPushMaxSpeed = 3.0f;
    a.restitutionThreshold = 1.0f;
    const int n = int(p.blocks.size());
    for (auto _ : state) {
        k->warmStart(p.blocks.span(), 0, n, a);
        k->solve(p.blocks.span(), 0, n, a, true);
        k->solve(p.blocks.span(), 0, n, a, false);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * count);
    state.SetLabel(k->name);
}

void BM_Solve(benchmark::State& state) {
    const ContactKernels* k = kernelsOf(state.range(0));
    if (k == nullptr) {
        state.SkipWithError("no AVX2 on this CPU");
        return;
    }
    const int count = int(state.range(1));
    Problem p = makeProblem(count);
    WideArgs a;
    a.states = reinterpret_cast<float*>(p.states.data());
    a.inv_h = 240.0f;
    a.contactPushMaxSpeed = 3.0f;
    const int n = int(p.blocks.size());
    for (auto _ : state) {
        k->solve(p.blocks.span(), 0, n, a, true);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * count);
    state.SetLabel(k->name);
}

BENCHMARK(BM_Substep)->ArgsProduct({{1, 4, 8}, {1024, 16384}})->ArgNames({"lanes", "contacts"});
BENCHMARK(BM_Solve)->ArgsProduct({{1, 4, 8}, {1024, 16384}})->ArgNames({"lanes", "contacts"});

}  // namespace
}  // namespace carom::detail

BENCHMARK_MAIN();
