// Proxies and support points; see proxy.hpp for the design.
#include "narrowphase/src/proxy.hpp"

namespace carom::detail {

Proxy makeProxy(ShapeRef s) {
    Proxy p;
    switch (s.type) {
        case ShapeType::Circle: {
            const auto& g = *static_cast<const Circle*>(s.geometry);
            p.local[0] = g.center;
            p.count = 1;
            p.radius = g.radius;
            break;
        }
        case ShapeType::Capsule: {
            const auto& g = *static_cast<const Capsule*>(s.geometry);
            p.local[0] = g.center1;
            p.local[1] = g.center2;
            p.count = 2;
            p.radius = g.radius;
            break;
        }
        case ShapeType::Segment: {
            const auto& g = *static_cast<const Segment*>(s.geometry);
            p.local[0] = g.point1;
            p.local[1] = g.point2;
            p.count = 2;
            break;
        }
        case ShapeType::Polygon: {
            const PolygonParts g = polygonParts(s);
            p.external = g.vertices;
            p.count = g.count;
            p.radius = g.radius;
            break;
        }
        case ShapeType::ChainSegment: {
            const auto& g = *static_cast<const ChainSegment*>(s.geometry);
            p.local[0] = g.segment.point1;
            p.local[1] = g.segment.point2;
            p.count = 2;
            break;
        }
        case ShapeType::Count:
            break;
    }
    if (p.count < 1) {
        // Never reached with validated geometry; a single point keeps every
        // algorithm well defined rather than reading an empty array.
        p.count = 1;
        p.external = nullptr;
    }
    return p;
}

int supportScan(const Vec2* v, int n, Vec2 d) {
    int best = 0;
    float bestValue = dot(v[0], d);
    for (int i = 1; i < n; ++i) {
        float value = dot(v[i], d);
        if (value > bestValue) {
            best = i;
            bestValue = value;
        }
    }
    return best;
}

// Walk the ring of vertices towards increasing dot(v, d):
//   i = start
//   if v[i+1] is better: step = +1, else if v[i-1] is better: step = -1, else return i
//   while v[i+step] is better: i += step
// Strict comparisons stop on a plateau (an edge perpendicular to d), where
// either end is a valid support point. The walk is bounded by n steps even if
// rounding made the sequence non-unimodal.
int supportHillClimb(const Vec2* v, int n, Vec2 d, int start) {
    int i = (start >= 0 && start < n) ? start : 0;
    float value = dot(v[i], d);
    int next = i + 1 == n ? 0 : i + 1;
    int prev = i == 0 ? n - 1 : i - 1;
    float nextValue = dot(v[next], d);
    int step;
    if (nextValue > value) {
        step = 1;
        i = next;
        value = nextValue;
    } else {
        float prevValue = dot(v[prev], d);
        if (prevValue > value) {
            step = -1;
            i = prev;
            value = prevValue;
        } else {
            return i;
        }
    }
    for (int k = 0; k < n; ++k) {
        int j = i + step;
        if (j == n) j = 0;
        if (j < 0) j = n - 1;
        float candidate = dot(v[j], d);
        if (!(candidate > value)) break;
        i = j;
        value = candidate;
    }
    return i;
}

Vec2 proxyCenter(const Proxy& p) {
    const Vec2* v = p.data();
    Vec2 sum{0.0f, 0.0f};
    for (int i = 0; i < p.count; ++i) sum += v[i];
    return sum * (1.0f / static_cast<float>(p.count));
}

}  // namespace carom::detail
