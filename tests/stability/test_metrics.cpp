// The figures of `carom stability` (demos/cli/stability_metrics.cpp) on
// samples whose answers are known by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "stability_metrics.hpp"

namespace carom::cli {
namespace {

using scene::StabilityFigure;
using scene::StabilitySpec;

StabilitySpec specOf(StabilityFigure f) {
    StabilitySpec s;
    s.figure = f;
    return s;
}

// ground (static), a, b (dynamic).
std::vector<MeterBody> threeBodies() {
    return {{"ground", false}, {"a", true}, {"b", true}};
}

PoseSample at(double x, double y, double angle = 0.0, double vx = 0.0, double vy = 0.0) {
    return {x, y, angle, vx, vy};
}

TEST(StabilityMetrics, DriftIsTheLargestDisplacementFromTheWindowStart) {
    StabilitySpec spec = specOf(StabilityFigure::Drift);
    spec.collapse = 2.0f;
    StabilityMeter m(spec, threeBodies(), {}, /*settleStep=*/2);
    PoseSample g = at(0, 0), b = at(10, 0);
    m.sample(0, {g, at(0, 0), b});
    m.sample(1, {g, at(5, 0, 0, 3, 4), b});  // before the window: counts for the peak speed only
    m.sample(2, {g, at(1, 1), b});           // the reference
    m.sample(3, {g, at(4, 5), b});           // (3, 4) away: 5
    m.sample(4, {g, at(1, 2), b});           // 1 away
    StabilityResult r = m.result();
    ASSERT_TRUE(r.value);
    EXPECT_DOUBLE_EQ(*r.value, 5.0);
    EXPECT_EQ(r.windowStart, 2);
    EXPECT_EQ(r.lastStep, 4);
    EXPECT_EQ(r.samples, 5);
    EXPECT_DOUBLE_EQ(r.peakSpeed, 5.0);
    EXPECT_DOUBLE_EQ(r.displacement, std::sqrt(5.0));  // a ends (1, 2) from its start
    EXPECT_DOUBLE_EQ(r.slide, 1.0);                    // of which 1 sideways
    ASSERT_TRUE(r.stands);
    EXPECT_FALSE(*r.stands);  // sqrt(5) > 2
    EXPECT_FALSE(r.jointError);
    EXPECT_TRUE(r.finite);

    spec.collapse = 3.0f;
    StabilityMeter standing(spec, threeBodies(), {}, 0);
    standing.sample(0, {g, at(0, 0), b});
    standing.sample(1, {g, at(1, 2), b});
    EXPECT_TRUE(*standing.result().stands);
}

TEST(StabilityMetrics, SagAndRise) {
    StabilitySpec sag = specOf(StabilityFigure::Sag);
    sag.bodies = {"a"};
    StabilityMeter m(sag, threeBodies(), {}, 0);
    PoseSample g = at(0, 0);
    m.sample(0, {g, at(0, 10), at(0, 0)});
    m.sample(1, {g, at(0, 9.25), at(0, -50)});  // b is not selected
    m.sample(2, {g, at(0, 10.5), at(0, 0)});
    EXPECT_DOUBLE_EQ(*m.result().value, 0.75);

    StabilitySpec rise = specOf(StabilityFigure::Rise);
    rise.bodies = {"a"};
    rise.level = 9.5f;
    StabilityMeter r(rise, threeBodies(), {}, 0);
    r.sample(0, {g, at(0, 7.25), at(0, 0)});
    r.sample(1, {g, at(0, 10.5), at(0, 0)});
    r.sample(2, {g, at(0, 9.5), at(0, 0)});
    EXPECT_DOUBLE_EQ(*r.result().value, 1.0);

    rise.level.reset();  // from each body's height at the window start
    StabilityMeter own(rise, threeBodies(), {}, 0);
    own.sample(0, {g, at(0, 7.25), at(0, 0)});
    own.sample(1, {g, at(0, 10.5), at(0, 0)});
    EXPECT_DOUBLE_EQ(*own.result().value, 3.25);

    // Sag below a level: the depth under it, whatever the start (a body
    // dropped onto its resting place, measured once it has landed).
    sag.level = 1.0f;
    StabilityMeter sink(sag, threeBodies(), {}, /*settleStep=*/1);
    sink.sample(0, {g, at(0, 16), at(0, 0)});  // before the window: the fall is not counted
    sink.sample(1, {g, at(0, 0.875), at(0, 0)});
    sink.sample(2, {g, at(0, 0.96875), at(0, 0)});
    EXPECT_DOUBLE_EQ(*sink.result().value, 0.125);
}

// The slide is how far a selected body ends sideways from its start,
// whatever it did in between and however far it fell.
TEST(StabilityMetrics, SlideIsTheLargestSidewaysEndDisplacement) {
    StabilitySpec spec = specOf(StabilityFigure::Sag);
    StabilityMeter m(spec, threeBodies(), {}, 0);
    PoseSample g = at(0, 0);
    m.sample(0, {g, at(0, 26), at(5, 0)});
    m.sample(1, {g, at(3, 11), at(5, 0)});
    m.sample(2, {g, at(-0.25, 11), at(4.5, 0)});
    StabilityResult r = m.result();
    EXPECT_DOUBLE_EQ(r.slide, 0.5);  // b: 0.5; a ends 0.25 from its start (3 m on the way)
    EXPECT_DOUBLE_EQ(r.displacement, std::hypot(0.25, 15.0));
}

TEST(StabilityMetrics, PeakSpeedOfTheSelectedBodiesAndOfAllDynamicBodies) {
    StabilitySpec spec = specOf(StabilityFigure::PeakSpeed);
    spec.bodies = {"a"};
    StabilityMeter m(spec, threeBodies(), {}, 0);
    m.sample(0, {at(0, 0, 0, 100, 0), at(0, 0, 0, 0, -2),
                 at(0, 0, 0, 7, 0)});  // ground's velocity is ignored
    m.sample(1, {at(0, 0), at(0, 0, 0, 6, 8), at(0, 0)});
    StabilityResult r = m.result();
    EXPECT_DOUBLE_EQ(*r.value, 10.0);
    EXPECT_DOUBLE_EQ(r.peakSpeed, 10.0);
    StabilitySpec all = specOf(StabilityFigure::PeakSpeed);
    StabilityMeter n(all, threeBodies(), {}, 0);
    n.sample(0, {at(0, 0, 0, 100, 0), at(0, 0, 0, 0, -2), at(0, 0, 0, 7, 0)});
    EXPECT_DOUBLE_EQ(*n.result().value, 7.0);
}

TEST(StabilityMetrics, JointErrorsFromTheFramesOfStepZero) {
    MeterJoint rev;
    rev.type = JointType::Revolute;
    rev.a = 0;
    rev.b = 1;
    rev.anchorA = rev.anchorB = Vec2{0.5f, 0.0f};
    MeterJoint dist;
    dist.type = JointType::Distance;
    dist.a = 1;
    dist.b = 2;
    dist.anchorA = Vec2{1.0f, 0.0f};
    dist.anchorB = Vec2{3.0f, 0.0f};  // length: 2, the distance at creation
    MeterJoint rope = dist;
    rope.rigid = false;
    rope.maxLength = 2.25f;
    MeterJoint slider;
    slider.type = JointType::Prismatic;
    slider.a = 1;
    slider.b = 2;
    slider.anchorA = slider.anchorB = Vec2{2.0f, 0.0f};
    slider.axis = Vec2{1.0f, 0.0f};

    StabilityMeter m(specOf(StabilityFigure::JointError), threeBodies(), {rev, dist, rope, slider},
                     0);
    std::vector<PoseSample> start = {at(0, 0), at(1, 0), at(3, 0)};
    m.sample(0, start);
    for (std::size_t k = 0; k < 4; ++k) EXPECT_NEAR(m.jointError(k, start), 0.0, 1e-12) << k;

    // a turns a quarter: its anchor (-0.5, 0) goes to (1, -0.5), 0.5*sqrt(2) from the ground's
    // (0.5, 0). b moves 0.5 along x and 0.25 along y: the rigid length is off by |hypot(...) - 2|.
    double pi = std::acos(-1.0);
    std::vector<PoseSample> later = {at(0, 0), at(1, 0, pi / 2), at(3.5, 0.25)};
    EXPECT_NEAR(m.jointError(0, later), 0.5 * std::sqrt(2.0), 1e-12);
    // a's anchor for the distance joint is (0, 0) local: now at (1, 0). b's is (0, 0) too.
    EXPECT_NEAR(m.jointError(1, later), std::abs(std::hypot(2.5, 0.25) - 2.0), 1e-12);
    EXPECT_NEAR(m.jointError(2, later), std::hypot(2.5, 0.25) - 2.25, 1e-7);
    // The slider's axis turned with a to +y through a's anchor, now (1, 1); b's
    // anchor (-1, 0) local is at (2.5, 0.25): 1.5 off that line.
    EXPECT_NEAR(m.jointError(3, later), 1.5, 1e-12);
    m.sample(1, later);
    StabilityResult r = m.result();
    ASSERT_TRUE(r.jointError);
    EXPECT_NEAR(*r.jointError, 1.5, 1e-12);
    EXPECT_NEAR(*r.value, 1.5, 1e-12);
}

TEST(StabilityMetrics, StretchBetweenTwoBodyPoints) {
    StabilitySpec spec = specOf(StabilityFigure::Stretch);
    spec.from = scene::BodyPoint{"ground", {0.0f, 0.0f}};
    spec.to = scene::BodyPoint{"a", {0.0f, 0.5f}};
    StabilityMeter m(spec, threeBodies(), {}, 0);
    m.sample(0, {at(0, 0), at(0, -10), at(0, 0)});  // 9.5 m
    m.sample(1, {at(0, 0), at(0, -10.4), at(0, 0)});
    m.sample(2, {at(0, 0), at(0, -9.8), at(0, 0)});
    EXPECT_NEAR(*m.result().value, 0.4, 1e-12);
    // Turned upside down, a's point is 1 m lower.
    m.sample(3, {at(0, 0), at(0, -10, std::acos(-1.0)), at(0, 0)});
    EXPECT_NEAR(*m.result().value, 1.0, 1e-12);
}

TEST(StabilityMetrics, NonFiniteStopsTheMeter) {
    StabilitySpec spec = specOf(StabilityFigure::Drift);
    spec.collapse = 1.0f;
    StabilityMeter m(spec, threeBodies(), {}, 0);
    EXPECT_TRUE(m.sample(0, {at(0, 0), at(0, 0), at(0, 0)}));
    EXPECT_TRUE(m.sample(1, {at(0, 0), at(0.1, 0), at(0, 0)}));
    double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(m.sample(2, {at(0, 0), at(0, 0, 0, nan, 0), at(0, 0)}));
    EXPECT_FALSE(m.sample(3, {at(0, 0), at(0, 0), at(0, 0)}));
    StabilityResult r = m.result();
    EXPECT_FALSE(r.finite);
    EXPECT_EQ(r.nonfiniteStep, 2);
    EXPECT_FALSE(r.value);
    ASSERT_TRUE(r.stands);
    EXPECT_FALSE(*r.stands);
    EXPECT_EQ(r.samples, 2);
}

TEST(StabilityMetrics, SamplesEveryKStepsAndTheWindowStartsAtTheFirstSampleAfterSettling) {
    StabilitySpec spec = specOf(StabilityFigure::Drift);
    spec.every = 5;
    StabilityMeter m(spec, threeBodies(), {}, /*settleStep=*/7);
    EXPECT_TRUE(m.wants(0));
    EXPECT_FALSE(m.wants(7));
    EXPECT_TRUE(m.wants(10));
    m.sample(0, {at(0, 0), at(0, 0), at(0, 0)});
    m.sample(5, {at(0, 0), at(3, 0), at(0, 0)});
    m.sample(10, {at(0, 0), at(1, 0), at(0, 0)});
    m.sample(15, {at(0, 0), at(1.5, 0), at(0, 0)});
    StabilityResult r = m.result();
    EXPECT_EQ(r.windowStart, 10);
    EXPECT_DOUBLE_EQ(*r.value, 0.5);
}

TEST(StabilityMetrics, NamesAndPrefixesSelectBodies) {
    StabilitySpec spec = specOf(StabilityFigure::Drift);
    spec.bodies = {"box[*", "lid"};
    std::vector<MeterBody> bodies = {{"ground", false}, {"box[0]", true}, {"boxer", true},
                                     {"box[1]", true},  {"lid", true},    {"", true}};
    StabilityMeter m(spec, bodies, {}, 0);
    EXPECT_EQ(m.selected(), (std::vector<std::size_t>{1, 3, 4}));
    StabilityMeter all(specOf(StabilityFigure::Drift), bodies, {}, 0);
    EXPECT_EQ(all.selected(), (std::vector<std::size_t>{1, 2, 3, 4, 5}));  // every dynamic body
}

}  // namespace
}  // namespace carom::cli
