// Tests of carom-compare's pieces against truth (no timing anywhere):
//   - summarize() against brute-force order statistics on seeded random data;
//   - each engine adapter against analytic motion on tiny scenes: free fall,
//     a box and a capsule at rest on the ground, a motor-driven wheel, a ball
//     kept inside a chain loop written in the same order as spinner.json.
// If an adapter got a sign, an orientation or a unit wrong, the engines
// would disagree with the analytic answer here before they disagree in a
// benchmark table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "adapter.hpp"
#include "stats.hpp"

namespace carom::compare {
namespace {

// ---- statistics -------------------------------------------------------------

TEST(CompareStats, MatchesBruteForceOrderStatistics) {
    std::mt19937 rng(12345);
    for (int trial = 0; trial < 200; ++trial) {
        std::size_t n = 1 + rng() % 101;
        std::vector<double> v(n);
        std::uniform_real_distribution<double> dist(0.0, 10.0);
        for (double& x : v) x = std::floor(dist(rng) * 4.0) / 4.0;  // ties on purpose
        Summary s = summarize(v);

        // Median: at least half the samples on each side (mean of the two middle ones when even).
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        EXPECT_DOUBLE_EQ(s.median, median);

        // p95, nearest rank: the smallest sample with at least 95 % of samples <= it.
        double p95 = 0.0;
        for (double candidate : sorted) {
            std::size_t atMost = static_cast<std::size_t>(
                std::count_if(v.begin(), v.end(), [&](double x) { return x <= candidate; }));
            if (100 * atMost >= 95 * n) {
                p95 = candidate;
                break;
            }
        }
        EXPECT_DOUBLE_EQ(s.p95, p95);

        double sum = 0.0;
        for (double x : v) sum += x;
        EXPECT_NEAR(s.mean, sum / static_cast<double>(n), 1e-12);
        EXPECT_EQ(s.min, sorted.front());
        EXPECT_EQ(s.max, sorted.back());
        EXPECT_EQ(s.count, n);
    }
}

TEST(CompareStats, EmptyGivesZeros) {
    Summary s = summarize({});
    EXPECT_EQ(s.count, 0u);
    EXPECT_EQ(s.median, 0.0);
}

// ---- adapters -----------------------------------------------------------------

using Factory = std::unique_ptr<Adapter> (*)(const scene::SceneDesc&);

struct Engine {
    const char* name;
    Factory make;
};

const Engine kEngines[] = {
    {"carom", makeCaromAdapter}, {"box2d", makeBox2dAdapter}, {"chipmunk", makeChipmunkAdapter}};

Sanity run(const Engine& e, const std::string& json, int steps) {
    scene::SceneDesc desc = scene::loadString(json, "test.json");
    std::unique_ptr<Adapter> a = e.make(desc);
    for (int i = 0; i < steps; ++i) a->step();
    return a->sanity();
}

TEST(CompareAdapters, FreeFallMatchesAnalytic) {
    // y(1 s) = 10 - g/2 = 5; semi-implicit Euler lands within 0.1 m of it at 60 Hz.
    const std::string scene = R"({"carom":1,"world":{"sleep":false},"bodies":[
        {"position":[0,10],"shapes":[{"type":"box","half_extents":[0.5,0.5]}]}]})";
    for (const Engine& e : kEngines) {
        Sanity s = run(e, scene, 60);
        EXPECT_EQ(s.dynamicBodies, 1) << e.name;
        EXPECT_NEAR(s.meanY, 5.0, 0.1) << e.name;
        EXPECT_NEAR(s.meanSpeed, 10.0, 0.2) << e.name;
    }
}

TEST(CompareAdapters, BoxAndCapsuleRestOnTheGround) {
    // Ground top at y = 0. The box's centre rests at 0.5 and the capsule's
    // (lying flat, radius 0.25) at 0.25, give or take the engines' slop and
    // Box2D's 0.01 m polygon skin.
    const std::string scene = R"({"carom":1,"bodies":[
        {"type":"static","position":[0,-1],"shapes":[{"type":"box","half_extents":[20,1]}]},
        {"position":[-3,0.6],"shapes":[{"type":"box","half_extents":[0.5,0.5]}]},
        {"position":[3,0.35],"shapes":[{"type":"capsule","p1":[-0.5,0],"p2":[0.5,0],"radius":0.25}]}]})";
    for (const Engine& e : kEngines) {
        Sanity s = run(e, scene, 120);
        EXPECT_EQ(s.dynamicBodies, 2) << e.name;
        EXPECT_NEAR(s.meanY, (0.5 + 0.25) / 2.0, 0.03) << e.name;
        EXPECT_LT(s.meanSpeed, 0.05) << e.name;
    }
}

TEST(CompareAdapters, RevoluteMotorTurnsCounterClockwise) {
    // A wheel pinned to the ground with a strong motor at +2 rad/s spins at +2 rad/s.
    const std::string scene = R"({"carom":1,"world":{"gravity":[0,0],"sleep":false},"bodies":[
        {"name":"ground","type":"static","shapes":[]},
        {"name":"wheel","position":[0,5],"shapes":[{"type":"circle","radius":1}]}],
        "joints":[{"type":"revolute","a":"ground","b":"wheel","anchor":[0,5],
                   "motor":{"speed":2,"max_torque":1000}}]})";
    for (const Engine& e : kEngines) {
        Sanity s = run(e, scene, 60);
        EXPECT_NEAR(s.meanAngularVelocity, 2.0, 0.02) << e.name;
        EXPECT_NEAR(s.meanY, 5.0, 0.01) << e.name;
    }
}

TEST(CompareAdapters, ChainLoopInSpinnerOrderHoldsABall) {
    // A loop of radius 5 around (0, 5) written clockwise, as spinner.json
    // writes its container: solid on the inside for Carom and Box2D. A ball
    // dropped inside comes to rest on the bottom (y = 0.5), not below it.
    std::ostringstream points;
    for (int i = 0; i < 36; ++i) {
        double a = -2.0 * 3.14159265358979 * i / 36.0;
        points << (i ? "," : "") << "[" << 5.0 * std::cos(a) << "," << 5.0 + 5.0 * std::sin(a)
               << "]";
    }
    const std::string scene = R"({"carom":1,"bodies":[
        {"type":"static","shapes":[{"type":"chain","loop":true,"points":[)" +
                              points.str() + R"(]}]},
        {"position":[0,5],"shapes":[{"type":"circle","radius":0.5}]}]})";
    for (const Engine& e : kEngines) {
        Sanity s = run(e, scene, 180);
        EXPECT_NEAR(s.meanY, 0.5, 0.1) << e.name;
    }
}

}  // namespace
}  // namespace carom::compare
