#include "stability_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace carom::cli {

namespace {

using scene::StabilityFigure;

Vec2d toWorld(const PoseSample& p, Vec2d local) {
    double c = std::cos(p.angle), s = std::sin(p.angle);
    return {p.x + c * local.x - s * local.y, p.y + s * local.x + c * local.y};
}

Vec2d toLocal(const PoseSample& p, Vec2 world) {
    double c = std::cos(p.angle), s = std::sin(p.angle);
    double dx = double(world.x) - p.x, dy = double(world.y) - p.y;
    return {c * dx + s * dy, -s * dx + c * dy};
}

Vec2d rotateToLocal(const PoseSample& p, Vec2 v) {
    double c = std::cos(p.angle), s = std::sin(p.angle);
    return {c * double(v.x) + s * double(v.y), -s * double(v.x) + c * double(v.y)};
}

double length(Vec2d a, Vec2d b) {
    return std::hypot(b.x - a.x, b.y - a.y);
}

bool finite(const PoseSample& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.angle) &&
           std::isfinite(p.vx) && std::isfinite(p.vy);
}

bool matches(const std::string& pattern, const std::string& name) {
    if (!pattern.empty() && pattern.back() == '*') {
        return name.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0 &&
               name.size() >= pattern.size() - 1;
    }
    return name == pattern;
}

std::size_t indexOf(const std::vector<MeterBody>& bodies, const std::string& name) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        if (bodies[i].name == name) return i;
    }
    return bodies.size();
}

}  // namespace

StabilityMeter::StabilityMeter(const scene::StabilitySpec& spec, std::vector<MeterBody> bodies,
                               std::vector<MeterJoint> joints, std::int64_t settleStep)
    : spec_(spec),
      bodies_(std::move(bodies)),
      joints_(std::move(joints)),
      settleStep_(settleStep),
      every_(spec.every) {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        bool take = false;
        if (spec_.bodies.empty()) {
            take = bodies_[i].dynamic;
        } else {
            for (const std::string& p : spec_.bodies)
                take = take || (!bodies_[i].name.empty() && matches(p, bodies_[i].name));
        }
        if (take) selected_.push_back(i);
    }
    if (!joints_.empty()) r_.jointError = 0.0;
}

void StabilityMeter::resolveFrames(const std::vector<PoseSample>& poses) {
    frames_.clear();
    for (const MeterJoint& j : joints_) {
        Frame f;
        const PoseSample& a = poses[j.a];
        const PoseSample& b = poses[j.b];
        f.la = j.localA ? Vec2d{j.localA->x, j.localA->y} : toLocal(a, j.anchorA);
        f.lb = j.localB ? Vec2d{j.localB->x, j.localB->y} : toLocal(b, j.anchorB);
        if (j.localAxis) {
            f.axis = {j.localAxis->x, j.localAxis->y};
        } else {
            f.axis = rotateToLocal(a, j.axis);
        }
        double n = std::hypot(f.axis.x, f.axis.y);
        if (n > 0.0) f.axis = {f.axis.x / n, f.axis.y / n};
        f.length = j.length ? double(*j.length) : length(toWorld(a, f.la), toWorld(b, f.lb));
        frames_.push_back(f);
    }
}

double StabilityMeter::jointError(std::size_t k, const std::vector<PoseSample>& poses) const {
    const MeterJoint& j = joints_[k];
    const Frame& f = frames_[k];
    Vec2d wa = toWorld(poses[j.a], f.la);
    Vec2d wb = toWorld(poses[j.b], f.lb);
    switch (j.type) {
        case JointType::Revolute:
        case JointType::Weld:
            return length(wa, wb);
        case JointType::Distance: {
            double d = length(wa, wb);
            if (j.rigid) return std::abs(d - f.length);
            double lo = j.minLength ? double(*j.minLength) : 0.0;
            double hi = j.maxLength ? double(*j.maxLength) : 1e6;
            return std::max({0.0, lo - d, d - hi});
        }
        case JointType::Prismatic:
        case JointType::Wheel: {
            // Distance of B's anchor from the line along A's axis through A's anchor.
            const PoseSample& a = poses[j.a];
            double c = std::cos(a.angle), s = std::sin(a.angle);
            Vec2d axis{c * f.axis.x - s * f.axis.y, s * f.axis.x + c * f.axis.y};
            return std::abs((wb.x - wa.x) * -axis.y + (wb.y - wa.y) * axis.x);
        }
        case JointType::Rope: {
            // Only stretching is an error: a slack rope is at rest.
            double hi = j.maxLength ? double(*j.maxLength) : f.length;
            return std::max(0.0, length(wa, wb) - hi);
        }
        case JointType::Motor:
        case JointType::Mouse:
        case JointType::Gear:    // couples coordinates, no anchors to measure
        case JointType::Pulley:  // two ropes over fixed points, not an anchor pair
        case JointType::Filter:  // no constraint
            return 0.0;
    }
    return 0.0;
}

bool StabilityMeter::sample(std::int64_t step, const std::vector<PoseSample>& poses) {
    if (stopped_) return false;
    for (const PoseSample& p : poses) {
        if (!finite(p)) {
            r_.finite = false;
            r_.nonfiniteStep = step;
            r_.value.reset();
            stopped_ = true;
            return false;
        }
    }
    if (!started_) {
        start_ = poses;
        resolveFrames(poses);
        started_ = true;
    }
    ++r_.samples;
    r_.lastStep = step;
    last_ = poses;
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        if (bodies_[i].dynamic)
            r_.peakSpeed = std::max(r_.peakSpeed, std::hypot(poses[i].vx, poses[i].vy));
    }
    for (std::size_t k = 0; k < joints_.size(); ++k)
        r_.jointError = std::max(*r_.jointError, jointError(k, poses));

    std::size_t from = spec_.from ? indexOf(bodies_, spec_.from->body) : bodies_.size();
    std::size_t to = spec_.to ? indexOf(bodies_, spec_.to->body) : bodies_.size();
    auto stretchLength = [&](const std::vector<PoseSample>& at) {
        if (from == bodies_.size() || to == bodies_.size()) return 0.0;
        return length(toWorld(at[from], {spec_.from->local.x, spec_.from->local.y}),
                      toWorld(at[to], {spec_.to->local.x, spec_.to->local.y}));
    };
    if (!inWindow_ && step >= settleStep_) {
        inWindow_ = true;
        ref_ = poses;
        r_.windowStart = step;
        stretchRef_ = stretchLength(poses);
    }
    if (!inWindow_) return true;

    double v = -HUGE_VAL;
    switch (spec_.figure) {
        case StabilityFigure::Drift:
            for (std::size_t i : selected_)
                v = std::max(v, std::hypot(poses[i].x - ref_[i].x, poses[i].y - ref_[i].y));
            break;
        case StabilityFigure::Sag:
            for (std::size_t i : selected_) {
                v = std::max(v, (spec_.level ? double(*spec_.level) : ref_[i].y) - poses[i].y);
            }
            break;
        case StabilityFigure::Rise:
            for (std::size_t i : selected_)
                v = std::max(v, poses[i].y - (spec_.level ? double(*spec_.level) : ref_[i].y));
            break;
        case StabilityFigure::PeakSpeed:
            for (std::size_t i : selected_) v = std::max(v, std::hypot(poses[i].vx, poses[i].vy));
            break;
        case StabilityFigure::JointError:
            v = 0.0;
            for (std::size_t k = 0; k < joints_.size(); ++k) v = std::max(v, jointError(k, poses));
            break;
        case StabilityFigure::Stretch:
            v = std::abs(stretchLength(poses) - stretchRef_);
            break;
    }
    if (v != -HUGE_VAL) r_.value = r_.value ? std::max(*r_.value, v) : v;
    return true;
}

StabilityResult StabilityMeter::result() const {
    StabilityResult r = r_;
    if (started_) {
        for (std::size_t i : selected_) {
            r.displacement = std::max(
                r.displacement, std::hypot(last_[i].x - start_[i].x, last_[i].y - start_[i].y));
            r.slide = std::max(r.slide, std::abs(last_[i].x - start_[i].x));
        }
        if (spec_.collapse && r.finite) r.stands = r.displacement <= double(*spec_.collapse);
    }
    if (!r.finite) r.stands = spec_.collapse ? std::optional<bool>(false) : std::nullopt;
    return r;
}

std::vector<MeterBody> meterBodies(const scene::SceneRunner& runner) {
    std::vector<MeterBody> out;
    for (const scene::SceneRunner::BodyRecord& b : runner.bodies()) {
        out.push_back(
            {b.name.value_or(std::string()), runner.world().bodyType(b.id) == BodyType::Dynamic});
    }
    return out;
}

std::vector<MeterJoint> meterJoints(const scene::SceneRunner& runner) {
    std::vector<MeterBody> bodies = meterBodies(runner);
    std::vector<MeterJoint> out;
    for (const scene::JointDesc& d : runner.desc().joints) {
        MeterJoint j;
        j.type = d.type;
        j.a = indexOf(bodies, d.a);
        j.b = indexOf(bodies, d.b);
        if (j.a == bodies.size() || j.b == bodies.size())
            continue;  // destroyed before the meter started
        bool two = d.type == JointType::Distance || d.type == JointType::Rope ||
                   d.type == JointType::Pulley;
        j.anchorA = two ? d.anchorA : d.anchor;
        j.anchorB = two ? d.anchorB : d.anchor;
        j.localA = d.localAnchorA;
        j.localB = d.localAnchorB;
        j.axis = d.axis;
        j.localAxis = d.localAxisA;
        j.rigid = !(d.spring && d.spring->hertz > 0.0f);
        j.length = d.length;
        j.minLength = d.minLength;
        j.maxLength = d.maxLength;
        out.push_back(j);
    }
    return out;
}

std::vector<PoseSample> meterPoses(const scene::SceneRunner& runner) {
    const World& w = runner.world();
    std::vector<PoseSample> out;
    out.reserve(runner.bodies().size());
    for (const scene::SceneRunner::BodyRecord& b : runner.bodies()) {
        Vec2 p = w.position(b.id);
        Vec2 v = w.linearVelocity(b.id);
        out.push_back({p.x, p.y, scene::bodyAngle(w, b.id), v.x, v.y});
    }
    return out;
}

}  // namespace carom::cli
