// Test helpers for the narrowphase: a seeded generator of random shapes and
// poses, and brute-force references that know nothing about GJK or EPA.
//
// Brute force: every shape is its core (a point, a segment or a convex
// polygon) plus a radius, so its support along a unit direction u is
//   h(u) = max over core vertices of dot(v, u) + radius.
// The gap of B above A along u is  -h_B(-u) - h_A(u), and for convex shapes
// the signed distance (negative: penetration depth) is the largest gap over
// all directions (separating axis theorem). We sample 2048 directions, then
// refine around the best sample by golden-section search, in double.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <carom/collision.hpp>
#include <carom/error.hpp>
#include <carom/geometry.hpp>

#include "tests/support/rng.hpp"

namespace carom::test {

/// Kinds of random shapes the tests draw from.
enum class Kind { Circle, Capsule, Segment, Box, Polygon, RoundedPolygon, Chain, Count };

inline const char* kindName(Kind k) {
    switch (k) {
        case Kind::Circle:
            return "circle";
        case Kind::Capsule:
            return "capsule";
        case Kind::Segment:
            return "segment";
        case Kind::Box:
            return "box";
        case Kind::Polygon:
            return "polygon";
        case Kind::RoundedPolygon:
            return "rounded-polygon";
        case Kind::Chain:
            return "chain-segment";
        default:
            return "?";
    }
}

inline ShapeGeometry randomShape(Rng& rng, Kind kind) {
    switch (kind) {
        case Kind::Circle:
            return Circle{{rng.uniform(-0.3f, 0.3f), rng.uniform(-0.3f, 0.3f)},
                          rng.uniform(0.05f, 1.0f)};
        case Kind::Capsule: {
            Vec2 c1{rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f)};
            Vec2 c2 = c1 + Vec2{rng.uniform(0.1f, 1.5f), rng.uniform(-0.5f, 0.5f)};
            return Capsule{c1, c2, rng.uniform(0.02f, 0.5f)};
        }
        case Kind::Segment: {
            Vec2 p1{rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f)};
            Vec2 p2 = p1 + Vec2{rng.uniform(0.1f, 2.0f), rng.uniform(-1.0f, 1.0f)};
            return Segment{p1, p2};
        }
        case Kind::Box:
            if (rng.chance(0.5f))
                return makeBox(rng.uniform(0.05f, 1.2f), rng.uniform(0.05f, 1.2f));
            return makeOffsetBox(rng.uniform(0.05f, 1.0f), rng.uniform(0.05f, 1.0f),
                                 {rng.uniform(-0.5f, 0.5f), rng.uniform(-0.5f, 0.5f)},
                                 rng.uniform(-3.0f, 3.0f));
        case Kind::Polygon:
        case Kind::RoundedPolygon: {
            for (;;) {
                int n = rng.integer(3, rng.chance(0.2f) ? 64 : 10);
                std::vector<Vec2> pts;
                float sx = rng.uniform(0.2f, 1.2f);
                float sy = rng.uniform(0.2f, 1.2f);
                for (int i = 0; i < n; ++i) {
                    float a = rng.uniform(0.0f, 2.0f * kPi);
                    float r = rng.chance(0.5f) ? 1.0f : rng.uniform(0.3f, 1.0f);
                    pts.push_back({sx * r * std::cos(a), sy * r * std::sin(a)});
                }
                float radius = kind == Kind::RoundedPolygon ? rng.uniform(0.02f, 0.3f) : 0.0f;
                try {
                    return makePolygon(pts, radius);
                } catch (const Error&) {
                    // Degenerate draw (collinear, too many hull points): draw again.
                }
            }
        }
        case Kind::Chain: {
            ChainSegment c;
            c.segment.point1 = {rng.uniform(-1.0f, 1.0f), rng.uniform(-0.3f, 0.3f)};
            c.segment.point2 =
                c.segment.point1 + Vec2{rng.uniform(0.3f, 2.0f), rng.uniform(-0.5f, 0.5f)};
            c.ghost1 = c.segment.point1 + Vec2{rng.uniform(-1.0f, -0.2f), rng.uniform(-0.5f, 0.5f)};
            c.ghost2 = c.segment.point2 + Vec2{rng.uniform(0.2f, 1.0f), rng.uniform(-0.5f, 0.5f)};
            return c;
        }
        default:
            return Circle{};
    }
}

inline Transform randomTransform(Rng& rng, float spread) {
    return makeTransform({rng.uniform(-spread, spread), rng.uniform(-spread, spread)},
                         rng.uniform(-kPi, kPi));
}

/// A shape as world-space core vertices plus a radius (double precision).
struct WorldShape {
    std::vector<double> x, y;
    double radius = 0.0;
};

inline WorldShape toWorld(const ShapeGeometry& g, const Transform& xf) {
    WorldShape w;
    auto add = [&](Vec2 p) {
        double px = p.x, py = p.y;
        double c = xf.q.c, s = xf.q.s;
        w.x.push_back(c * px - s * py + xf.p.x);
        w.y.push_back(s * px + c * py + xf.p.y);
    };
    if (auto* c = std::get_if<Circle>(&g)) {
        add(c->center);
        w.radius = c->radius;
    } else if (auto* k = std::get_if<Capsule>(&g)) {
        add(k->center1);
        add(k->center2);
        w.radius = k->radius;
    } else if (auto* s = std::get_if<Segment>(&g)) {
        add(s->point1);
        add(s->point2);
    } else if (auto* p = std::get_if<Polygon>(&g)) {
        for (int i = 0; i < p->count; ++i) add(p->vertices[i]);
        w.radius = p->radius;
    } else if (auto* ch = std::get_if<ChainSegment>(&g)) {
        add(ch->segment.point1);
        add(ch->segment.point2);
    }
    return w;
}

inline double supportValue(const WorldShape& s, double ux, double uy) {
    double best = -1e300;
    for (size_t i = 0; i < s.x.size(); ++i) best = std::max(best, s.x[i] * ux + s.y[i] * uy);
    return best + s.radius;
}

/// Gap of B above A along the unit direction at angle theta.
inline double gapAlong(const WorldShape& a, const WorldShape& b, double theta) {
    double ux = std::cos(theta), uy = std::sin(theta);
    return -supportValue(b, -ux, -uy) - supportValue(a, ux, uy);
}
inline double gapAlong(const WorldShape& a, const WorldShape& b, Vec2 n) {
    return gapAlong(a, b, std::atan2(static_cast<double>(n.y), static_cast<double>(n.x)));
}

/// Signed distance by dense search over directions; theta receives the best angle.
inline double bruteSignedDistance(const WorldShape& a, const WorldShape& b,
                                  double* theta = nullptr) {
    const int samples = 2048;
    const double twoPi = 6.283185307179586;
    std::vector<double> g(samples);
    double best = -1e300, bestT = 0.0;
    for (int i = 0; i < samples; ++i) {
        g[i] = gapAlong(a, b, twoPi * i / samples);
        if (g[i] > best) {
            best = g[i];
            bestT = twoPi * i / samples;
        }
    }
    // The gap is only piecewise smooth and near-ties between faces are
    // common: refine every sampled local maximum close to the best one.
    double sampledBest = best;
    const double phi = 0.6180339887498949;
    for (int i = 0; i < samples; ++i) {
        double prev = g[(i + samples - 1) % samples], next = g[(i + 1) % samples];
        if (g[i] < prev || g[i] < next || g[i] < sampledBest - 0.02) continue;
        double t = twoPi * i / samples;
        double lo = t - twoPi / samples, hi = t + twoPi / samples;
        for (int it = 0; it < 50; ++it) {
            double m1 = hi - phi * (hi - lo), m2 = lo + phi * (hi - lo);
            if (gapAlong(a, b, m1) < gapAlong(a, b, m2))
                lo = m1;
            else
                hi = m2;
        }
        double refined = gapAlong(a, b, 0.5 * (lo + hi));
        if (refined > best) {
            best = refined;
            bestT = 0.5 * (lo + hi);
        }
    }
    if (theta) *theta = bestT;
    return best;
}

/// Signed distance from a point to a shape's rounded surface (negative inside).
inline double pointSignedDistance(const WorldShape& s, double px, double py) {
    size_t n = s.x.size();
    double minDist = 1e300;
    for (size_t i = 0; i < n; ++i) {
        size_t j = n == 1 ? i : (i + 1) % n;
        double ex = s.x[j] - s.x[i], ey = s.y[j] - s.y[i];
        double ee = ex * ex + ey * ey;
        double t = ee > 0 ? ((px - s.x[i]) * ex + (py - s.y[i]) * ey) / ee : 0.0;
        t = std::clamp(t, 0.0, 1.0);
        double dx = px - (s.x[i] + t * ex), dy = py - (s.y[i] + t * ey);
        minDist = std::min(minDist, std::sqrt(dx * dx + dy * dy));
        if (n == 2 && i == 1) break;
    }
    bool inside = n >= 3;
    for (size_t i = 0; i < n && inside; ++i) {
        size_t j = (i + 1) % n;
        double c = (s.x[j] - s.x[i]) * (py - s.y[i]) - (s.y[j] - s.y[i]) * (px - s.x[i]);
        if (c < 0) inside = false;
    }
    double core = inside ? -minDist : minDist;
    return core - s.radius;
}

inline bool finite(const DistanceResult& r) {
    return std::isfinite(r.distance) && std::isfinite(r.depth) && isFinite(r.normal) &&
           isFinite(r.pointA) && isFinite(r.pointB);
}
inline bool finite(const Manifold& m) {
    if (!isFinite(m.normal)) return false;
    for (int i = 0; i < m.pointCount; ++i) {
        const ManifoldPoint& p = m.points[i];
        if (!isFinite(p.point) || !isFinite(p.anchorA) || !isFinite(p.anchorB) ||
            !std::isfinite(p.separation))
            return false;
    }
    return true;
}

/// Test volume multiplier: the "long" build runs more cases.
#ifndef CAROM_NP_SCALE
#define CAROM_NP_SCALE 1
#endif
inline constexpr int kScale = CAROM_NP_SCALE;

}  // namespace carom::test
