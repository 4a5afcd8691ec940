// Narrowphase micro benchmarks (results in docs/narrowphase.md):
//   ns per query of distance, manifold and time of impact per pair of kinds,
//   and support points by scan against hill climbing per vertex count.
//
// Each benchmark cycles through 256 seeded random poses placed near contact
// (so GJK and clipping do real work) and calls the internal interface the
// World uses (ShapeRef, no variants).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include <carom/collision.hpp>
#include <carom/geometry.hpp>

#include "narrowphase/narrowphase.hpp"
#include "narrowphase/src/proxy.hpp"

namespace {

using namespace carom;

constexpr int kPoses = 256;

float uniform(std::mt19937& rng, float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(rng() >> 8) * (1.0f / 16777216.0f);
}

Polygon regular(int n, float r, float radius = 0.0f) {
    std::vector<Vec2> pts;
    for (int i = 0; i < n; ++i) {
        float a = 2.0f * kPi * static_cast<float>(i) / static_cast<float>(n);
        pts.push_back({r * std::cos(a), r * std::sin(a)});
    }
    return makePolygon(pts, radius);
}

// Shapes kept alive for the whole run (ShapeRef does not own).
struct Library {
    Circle circle{{0.0f, 0.0f}, 0.5f};
    Capsule capsule{{-0.4f, 0.0f}, {0.4f, 0.0f}, 0.25f};
    Segment segment{{-0.5f, 0.0f}, {0.5f, 0.0f}};
    Polygon box = makeBox(0.5f, 0.5f);
    Polygon roundedBox = makeRoundedBox(0.4f, 0.4f, 0.1f);
    Polygon octagon = regular(8, 0.5f);
    Polygon poly16 = regular(16, 0.5f);
    Polygon poly32 = regular(32, 0.5f);
    Polygon poly64 = regular(64, 0.5f);
    ChainSegment chain{{2.0f, 0.0f}, {{1.0f, 0.0f}, {-1.0f, 0.0f}}, {-2.0f, 0.0f}, 0};
};
const Library& lib() {
    static Library l;
    return l;
}

enum Pair {
    CircleCircle,
    CircleBox,
    CapsuleCapsule,
    CapsuleBox,
    SegmentBox,
    BoxBox,
    RoundedBoxBox,
    OctagonOctagon,
    Poly16Poly16,
    Poly32Poly32,
    Poly64Poly64,
    ChainBox,
    ChainCircle,
    PairCount
};
const char* const kPairNames[] = {
    "circle/circle", "circle/box",     "capsule/capsule", "capsule/box",   "segment/box",
    "box/box",       "roundedbox/box", "octagon/octagon", "poly16/poly16", "poly32/poly32",
    "poly64/poly64", "chain/box",      "chain/circle"};

void shapesOf(Pair p, detail::ShapeRef& a, detail::ShapeRef& b) {
    const Library& l = lib();
    using detail::makeRef;
    switch (p) {
        case CircleCircle:
            a = makeRef(l.circle);
            b = makeRef(l.circle);
            break;
        case CircleBox:
            a = makeRef(l.circle);
            b = makeRef(l.box);
            break;
        case CapsuleCapsule:
            a = makeRef(l.capsule);
            b = makeRef(l.capsule);
            break;
        case CapsuleBox:
            a = makeRef(l.capsule);
            b = makeRef(l.box);
            break;
        case SegmentBox:
            a = makeRef(l.segment);
            b = makeRef(l.box);
            break;
        case BoxBox:
            a = makeRef(l.box);
            b = makeRef(l.box);
            break;
        case RoundedBoxBox:
            a = makeRef(l.roundedBox);
            b = makeRef(l.box);
            break;
        case OctagonOctagon:
            a = makeRef(l.octagon);
            b = makeRef(l.octagon);
            break;
        case Poly16Poly16:
            a = makeRef(l.poly16);
            b = makeRef(l.poly16);
            break;
        case Poly32Poly32:
            a = makeRef(l.poly32);
            b = makeRef(l.poly32);
            break;
        case Poly64Poly64:
            a = makeRef(l.poly64);
            b = makeRef(l.poly64);
            break;
        case ChainBox:
            a = makeRef(l.chain);
            b = makeRef(l.box);
            break;
        case ChainCircle:
            a = makeRef(l.chain);
            b = makeRef(l.circle);
            break;
        default:
            break;
    }
}

// Poses of B around A at centre distances near contact (about a third
// overlapping, the rest within a few centimetres to a few decimetres).
std::vector<Transform> poses(uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Transform> out;
    for (int i = 0; i < kPoses; ++i) {
        float a = uniform(rng, 0.2f, kPi - 0.2f);  // above A (chains are one-sided)
        float r = uniform(rng, 0.8f, 1.2f);
        out.push_back(makeTransform({r * std::cos(a), r * std::sin(a)}, uniform(rng, -kPi, kPi)));
    }
    return out;
}

void BM_Distance(benchmark::State& state) {
    Pair p = static_cast<Pair>(state.range(0));
    bool warm = state.range(1) != 0;
    detail::ShapeRef a, b;
    shapesOf(p, a, b);
    std::vector<Transform> xfs = poses(1);
    std::vector<SimplexCache> caches(kPoses);
    Transform xfA{};
    int i = 0;
    for (auto _ : state) {
        SimplexCache* cache = warm ? &caches[static_cast<size_t>(i)] : nullptr;
        benchmark::DoNotOptimize(
            detail::shapeDistance(a, xfA, b, xfs[static_cast<size_t>(i)], cache));
        i = (i + 1) & (kPoses - 1);
    }
    state.SetLabel(std::string(kPairNames[p]) + (warm ? " warm" : " cold"));
}

void BM_Manifold(benchmark::State& state) {
    Pair p = static_cast<Pair>(state.range(0));
    detail::ShapeRef a, b;
    shapesOf(p, a, b);
    std::vector<Transform> xfs = poses(2);
    std::vector<SimplexCache> caches(kPoses);
    Transform xfA{};
    int i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(detail::collideShapes(a, xfA, b, xfs[static_cast<size_t>(i)],
                                                       &caches[static_cast<size_t>(i)]));
        i = (i + 1) & (kPoses - 1);
    }
    state.SetLabel(kPairNames[p]);
}

// B flies at A from 3 to 5 m away in one step while both spin.
void BM_TimeOfImpact(benchmark::State& state) {
    Pair p = static_cast<Pair>(state.range(0));
    detail::ShapeRef a, b;
    shapesOf(p, a, b);
    std::mt19937 rng(3);
    std::vector<Sweep> sa(kPoses), sb(kPoses);
    for (int k = 0; k < kPoses; ++k) {
        float angle = uniform(rng, 0.3f, kPi - 0.3f);
        Vec2 dir{std::cos(angle), std::sin(angle)};
        float d = uniform(rng, 3.0f, 5.0f);
        Sweep& s1 = sa[static_cast<size_t>(k)];
        Sweep& s2 = sb[static_cast<size_t>(k)];
        s1.q1 = makeRot(0.0f);
        s1.q2 = makeRot(uniform(rng, -0.5f, 0.5f));
        s2.c1 = d * dir;
        s2.c2 = -0.5f * d * dir + Vec2{uniform(rng, -0.3f, 0.3f), 0.0f};
        s2.q1 = makeRot(uniform(rng, -kPi, kPi));
        s2.q2 = makeRot(angleOf(s2.q1) + uniform(rng, -1.0f, 1.0f));
    }
    int i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(detail::timeOfImpact(
            a, sa[static_cast<size_t>(i)], b, sb[static_cast<size_t>(i)], 1.0f, kLinearSlop));
        i = (i + 1) & (kPoses - 1);
    }
    state.SetLabel(kPairNames[p]);
}

// Support point of an n-gon: range(1) = 0 scan, 1 hill climbing; the
// direction turns by a small step per query (coherent, as in GJK across
// steps) and hill climbing starts from the previous answer.
void BM_Support(benchmark::State& state) {
    int n = static_cast<int>(state.range(0));
    bool hill = state.range(1) != 0;
    bool coherent = state.range(2) != 0;
    Polygon poly = regular(n, 0.5f);
    std::mt19937 rng(4);
    std::vector<Vec2> dirs;
    float angle = 0.0f;
    for (int k = 0; k < 1024; ++k) {
        angle = coherent ? angle + 0.05f : uniform(rng, -kPi, kPi);
        dirs.push_back({std::cos(angle), std::sin(angle)});
    }
    int last = 0;
    int i = 0;
    for (auto _ : state) {
        Vec2 d = dirs[static_cast<size_t>(i)];
        last = hill ? detail::supportHillClimb(poly.vertices.data(), n, d, last)
                    : detail::supportScan(poly.vertices.data(), n, d);
        benchmark::DoNotOptimize(last);
        i = (i + 1) & 1023;
    }
    state.SetLabel(std::string(hill ? "hill" : "scan") + (coherent ? " coherent" : " random"));
}

void pairArgs(benchmark::internal::Benchmark* b) {
    for (int p = 0; p < PairCount; ++p) b->Args({p});
}
void distanceArgs(benchmark::internal::Benchmark* b) {
    for (int p = 0; p < PairCount; ++p) {
        b->Args({p, 0});
        b->Args({p, 1});
    }
}
void supportArgs(benchmark::internal::Benchmark* b) {
    for (int coherent = 0; coherent < 2; ++coherent)
        for (int n : {4, 8, 12, 16, 24, 32, 48, 64})
            for (int hill = 0; hill < 2; ++hill) b->Args({n, hill, coherent});
}

BENCHMARK(BM_Distance)->Apply(distanceArgs);
BENCHMARK(BM_Manifold)->Apply(pairArgs);
BENCHMARK(BM_TimeOfImpact)->Apply(pairArgs);
BENCHMARK(BM_Support)->Apply(supportArgs);

}  // namespace

BENCHMARK_MAIN();
