// Broadphase micro benchmarks: one step = move every box (moveProxy with its
// tight box and displacement) + updatePairs (new-pair search), for the
// dynamic tree, sort-and-sweep and, at small N, an O(n²) brute force.
//
// Scenes (boxes 1 m × 1 m, time step 1/60 s, walls reflect):
//   sparse: a field of side 4·sqrt(N) m (each box has ~16 m² to itself),
//           speeds up to 5 m/s;
//   dense:  a pile of side 1.1·sqrt(N) m (boxes 0.1 m apart, every box's fat
//           box overlaps its neighbours'), jittering at up to 0.5 m/s.
// The counter ns_per_proxy is the wall time of one step divided by N.
// new_pairs is the number of pairs handed to accept per step: accept refuses
// them all (the world refuses pairs it already has), so a pair is reported
// again whenever one of its proxies is re-inserted.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "broadphase/broadphase.hpp"

namespace {

using carom::AABB;
using carom::BroadphaseType;
using carom::Vec2;
using carom::detail::BroadPhase;
using carom::detail::BroadphasePair;
using carom::detail::ProxyType;

constexpr float kDt = 1.0f / 60.0f;

struct Box {
    Vec2 pos{0.0f, 0.0f};
    Vec2 vel{0.0f, 0.0f};
};

struct Scene {
    std::vector<Box> boxes;
    float side = 0.0f;

    AABB tight(const Box& b) const { return {b.pos - Vec2{0.5f, 0.5f}, b.pos + Vec2{0.5f, 0.5f}}; }

    /// Advances every box; returns the displacement of box i through `disp`.
    void advance(std::vector<Vec2>& disp) {
        for (size_t i = 0; i < boxes.size(); ++i) {
            Box& b = boxes[i];
            Vec2 old = b.pos;
            b.pos += kDt * b.vel;
            for (int a = 0; a < 2; ++a) {
                if (b.pos[a] < 0.5f) {
                    b.pos[a] = 0.5f;
                    b.vel[a] = std::fabs(b.vel[a]);
                } else if (b.pos[a] > side - 0.5f) {
                    b.pos[a] = side - 0.5f;
                    b.vel[a] = -std::fabs(b.vel[a]);
                }
            }
            disp[i] = b.pos - old;
        }
    }
};

Scene makeScene(int n, bool dense, uint32_t seed) {
    std::mt19937 gen(seed);
    auto uni = [&](float lo, float hi) {
        return lo + (hi - lo) * static_cast<float>(gen() / 4294967296.0);
    };
    Scene s;
    s.boxes.resize(static_cast<size_t>(n));
    const int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
    if (dense) {
        s.side = 1.1f * static_cast<float>(cols) + 0.1f;
        for (int i = 0; i < n; ++i) {
            Box& b = s.boxes[i];
            b.pos = {0.6f + 1.1f * static_cast<float>(i % cols),
                     0.6f + 1.1f * static_cast<float>(i / cols)};
            b.vel = {uni(-0.5f, 0.5f), uni(-0.5f, 0.5f)};
        }
    } else {
        s.side = 4.0f * static_cast<float>(cols);
        for (Box& b : s.boxes) {
            b.pos = {uni(0.5f, s.side - 0.5f), uni(0.5f, s.side - 0.5f)};
            b.vel = {uni(-5.0f, 5.0f), uni(-5.0f, 5.0f)};
        }
    }
    return s;
}

void setCounters(benchmark::State& state, int n, long pairs) {
    state.counters["ns_per_proxy"] = benchmark::Counter(
        static_cast<double>(n) * 1e-9,
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["new_pairs"] =
        benchmark::Counter(static_cast<double>(pairs), benchmark::Counter::kAvgIterations);
}

// Arguments: N, dense (0/1), structure (0 tree, 1 sort-and-sweep).
void BM_Step(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const bool dense = state.range(1) != 0;
    const BroadphaseType type =
        state.range(2) == 0 ? BroadphaseType::Tree : BroadphaseType::SortAndSweep;
    Scene scene = makeScene(n, dense, 42);
    BroadPhase bp(type);
    std::vector<int> proxies(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        proxies[i] = bp.createProxy(scene.tight(scene.boxes[i]), ProxyType::Dynamic, i, 1);
    }
    std::vector<BroadphasePair> out;
    std::vector<Vec2> disp(static_cast<size_t>(n), Vec2{0.0f, 0.0f});
    long pairs = 0;
    auto accept = [&pairs](int, int) {
        ++pairs;
        return false;
    };
    // Warm up: the initial batch, then a few steps so capacities settle.
    for (int k = 0; k < 5; ++k) {
        scene.advance(disp);
        for (int i = 0; i < n; ++i) bp.moveProxy(proxies[i], scene.tight(scene.boxes[i]), disp[i]);
        bp.updatePairs(accept, out);
    }
    pairs = 0;
    for (auto _ : state) {
        scene.advance(disp);
        for (int i = 0; i < n; ++i) bp.moveProxy(proxies[i], scene.tight(scene.boxes[i]), disp[i]);
        out.clear();
        bp.updatePairs(accept, out);
        benchmark::DoNotOptimize(out.data());
    }
    setCounters(state, n, pairs);
    state.counters["tree_height"] = bp.height();
}

// The reference: same fat boxes, every pair tested every step.
void BM_StepBruteForce(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const bool dense = state.range(1) != 0;
    Scene scene = makeScene(n, dense, 42);
    std::vector<AABB> fat(static_cast<size_t>(n));
    std::vector<uint8_t> moved(static_cast<size_t>(n), 1);
    const Vec2 margin{carom::kAabbMargin, carom::kAabbMargin};
    for (int i = 0; i < n; ++i) {
        AABB t = scene.tight(scene.boxes[i]);
        fat[i] = {t.lower - margin, t.upper + margin};
    }
    std::vector<Vec2> disp(static_cast<size_t>(n), Vec2{0.0f, 0.0f});
    std::vector<BroadphasePair> out;
    long pairs = 0;
    for (auto _ : state) {
        scene.advance(disp);
        for (int i = 0; i < n; ++i) {
            AABB t = scene.tight(scene.boxes[i]);
            moved[i] = 0;
            if (carom::aabbContains(fat[i], t)) continue;
            fat[i] = {t.lower - margin, t.upper + margin};
            moved[i] = 1;
        }
        out.clear();
        for (int i = 0; i < n; ++i) {
            for (int j = i + 1; j < n; ++j) {
                if ((moved[i] | moved[j]) && carom::aabbOverlaps(fat[i], fat[j])) {
                    out.push_back({i, j});
                }
            }
        }
        pairs += static_cast<long>(out.size());
        benchmark::DoNotOptimize(out.data());
    }
    setCounters(state, n, pairs);
}

// Creating N proxies at once and linking them (the tree's batch rebuild;
// sort-and-sweep's sort). Arguments: N, structure.
void BM_CreateBatch(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const BroadphaseType type =
        state.range(1) == 0 ? BroadphaseType::Tree : BroadphaseType::SortAndSweep;
    Scene scene = makeScene(n, false, 7);
    for (auto _ : state) {
        BroadPhase bp(type);
        for (int i = 0; i < n; ++i)
            bp.createProxy(scene.tight(scene.boxes[i]), ProxyType::Dynamic, i, 1);
        bp.flush();
        benchmark::DoNotOptimize(bp.height());
    }
    state.counters["ns_per_proxy"] = benchmark::Counter(
        static_cast<double>(n) * 1e-9,
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void stepArgs(benchmark::internal::Benchmark* b) {
    for (int structure = 0; structure < 2; ++structure) {
        for (int dense = 0; dense < 2; ++dense) {
            for (int n : {1000, 10000, 100000}) b->Args({n, dense, structure});
        }
    }
    b->ArgNames({"N", "dense", "sap"});
    b->Unit(benchmark::kMicrosecond);
    b->MinTime(0.3);
}

}  // namespace

BENCHMARK(BM_Step)->Apply(stepArgs);
BENCHMARK(BM_StepBruteForce)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({10000, 0})
    ->ArgNames({"N", "dense"})
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.3);
BENCHMARK(BM_CreateBatch)
    ->Args({10000, 0})
    ->Args({100000, 0})
    ->Args({10000, 1})
    ->Args({100000, 1})
    ->ArgNames({"N", "sap"})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.3);

BENCHMARK_MAIN();
