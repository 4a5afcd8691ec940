// The figures of `carom stability` (docs/stability.md), computed from samples
// of body poses only, so that the same figures can be computed from the
// trace of any engine that writes `carom run --trace` rows
// (scripts/stability_compare.py mirrors this file).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <carom/scene.hpp>

namespace carom::cli {

/// One body as the meter sees it: its scene name and whether it is dynamic.
struct MeterBody {
    std::string name;  ///< "" for an unnamed body (never selected by name)
    bool dynamic = true;
};

/// One joint of the file, in the terms of its scene entry: world anchors at
/// creation (turned into body-local anchors with the poses of step 0) unless
/// the file gives local frames.
struct MeterJoint {
    JointType type = JointType::Revolute;
    std::size_t a = 0;  ///< index into the meter's bodies
    std::size_t b = 0;
    Vec2 anchorA{0.0f,
                 0.0f};  ///< world, at creation (revolute, weld, prismatic, wheel: the one anchor)
    Vec2 anchorB{0.0f, 0.0f};
    std::optional<Vec2> localA;
    std::optional<Vec2> localB;
    Vec2 axis{1.0f, 0.0f};  ///< prismatic, wheel: world axis at creation
    std::optional<Vec2> localAxis;
    bool rigid = true;  ///< distance: no spring, so held at `length`
    std::optional<float> length;
    std::optional<float> minLength;
    std::optional<float> maxLength;
};

/// A point or vector in double precision (the figures are computed in double).
struct Vec2d {
    double x = 0.0;
    double y = 0.0;
};

/// A body's pose and velocity at one sample: origin, angle, centre-of-mass velocity.
struct PoseSample {
    double x = 0.0;
    double y = 0.0;
    double angle = 0.0;
    double vx = 0.0;
    double vy = 0.0;
};

struct StabilityResult {
    std::optional<double>
        value;  ///< the scene's figure over the window (none when non-finite or no sample)
    std::optional<bool> stands;  ///< when the spec has `collapse`: displacement <= collapse
    double displacement = 0.0;   ///< largest |p(end) - p(0)| of a selected body
    double slide = 0.0;          ///< largest |x(end) - x(0)| of a selected body (sideways)
    double peakSpeed = 0.0;      ///< largest linear speed of any dynamic body, whole run
    std::optional<double>
        jointError;  ///< largest joint error, whole run (when the file has joints)
    bool finite = true;
    std::int64_t nonfiniteStep = -1;  ///< first sample with a non-finite value
    std::int64_t windowStart = -1;    ///< step of the reference sample
    std::int64_t lastStep = -1;       ///< step of the last sample
    std::int64_t samples = 0;
};

/// Accumulates the figures sample by sample. Samples are taken at step 0 and
/// at every step that is a multiple of spec.every; the window starts at the
/// first sample at or after settleStep, which is also the reference pose of
/// drift, sag, rise and stretch.
class StabilityMeter {
   public:
    StabilityMeter(const scene::StabilitySpec& spec, std::vector<MeterBody> bodies,
                   std::vector<MeterJoint> joints, std::int64_t settleStep);

    /// True when the step is one the meter samples.
    bool wants(std::int64_t step) const { return step % every_ == 0; }
    /// Takes the poses of every body (in the meter's order) at this step.
    /// Returns false once a value is non-finite; later samples are ignored.
    bool sample(std::int64_t step, const std::vector<PoseSample>& poses);
    StabilityResult result() const;

    /// The error of joint j at these poses (metres), with the local frames of step 0.
    double jointError(std::size_t j, const std::vector<PoseSample>& poses) const;
    const std::vector<std::size_t>& selected() const { return selected_; }

   private:
    struct Frame {
        Vec2d la, lb, axis;
        double length = 0.0;
    };
    void resolveFrames(const std::vector<PoseSample>& poses);

    scene::StabilitySpec spec_;
    std::vector<MeterBody> bodies_;
    std::vector<MeterJoint> joints_;
    std::vector<Frame> frames_;
    std::vector<std::size_t> selected_;
    std::int64_t settleStep_ = 0;
    std::int64_t every_ = 1;
    std::vector<PoseSample> start_;  ///< step 0
    std::vector<PoseSample> ref_;    ///< window start
    std::vector<PoseSample> last_;
    double stretchRef_ = 0.0;
    StabilityResult r_;
    bool started_ = false;
    bool inWindow_ = false;
    bool stopped_ = false;
};

/// The meter's bodies and joints for a runner just built from its scene
/// (before any step): the runner's bodies in creation order, the file's joints.
std::vector<MeterBody> meterBodies(const scene::SceneRunner& runner);
std::vector<MeterJoint> meterJoints(const scene::SceneRunner& runner);
/// The poses of the runner's bodies now, in the order of meterBodies.
std::vector<PoseSample> meterPoses(const scene::SceneRunner& runner);

}  // namespace carom::cli
