// libFuzzer target for the narrowphase: arbitrary shapes and transforms into
// distance (GJK + EPA), manifolds, time of impact and shape casts.
//
// The bytes are decoded into two shapes of any kind, two transforms, two
// sweeps and a cast translation. Most numbers are drawn from a bounded range
// with a random scale (so that shapes are valid often enough to reach the
// algorithms), some are raw floats (so that validation sees NaN, infinities
// and huge values). The public API may refuse an input with carom::Error;
// whatever it accepts must come back finite, within its documented ranges,
// and in bounded time (every loop has an iteration cap; libFuzzer's -timeout
// reports a hang).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <carom/collision.hpp>
#include <carom/error.hpp>
#include <carom/geometry.hpp>

#include "narrowphase/narrowphase.hpp"

namespace {

using namespace carom;

class Reader {
   public:
    Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
    float raw() {
        uint32_t bits = 0;
        for (int i = 0; i < 4; ++i) bits = bits << 8 | byte();
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }
    // Mostly a bounded value at one of several scales, sometimes raw bits.
    float number() {
        uint8_t mode = byte();
        if (mode < 16) return raw();
        int16_t v = static_cast<int16_t>(byte() << 8 | byte());
        static const float scales[] = {1e-6f, 1e-4f, 1e-3f, 1e-2f, 0.1f, 1.0f, 10.0f, 1000.0f};
        return static_cast<float>(v) / 32768.0f * 4.0f * scales[mode % 8];
    }
    Vec2 vec() {
        float x = number();
        return {x, number()};
    }
    float positive() { return std::fabs(number()) + (byte() & 1 ? 0.0f : 1e-3f); }

   private:
    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0;
};

ShapeGeometry decodeShape(Reader& in) {
    switch (in.byte() % 6) {
        case 0:
            return Circle{in.vec(), in.positive()};
        case 1: {
            Vec2 a = in.vec();
            return Capsule{a, a + in.vec(), in.positive()};
        }
        case 2: {
            Vec2 a = in.vec();
            return Segment{a, a + in.vec()};
        }
        case 3: {
            ChainSegment c;
            c.segment.point1 = in.vec();
            c.segment.point2 = c.segment.point1 + in.vec();
            c.ghost1 = c.segment.point1 + in.vec();
            c.ghost2 = c.segment.point2 + in.vec();
            return c;
        }
        case 4: {
            Vec2 h = in.vec();
            return makeOffsetBox(std::fabs(h.x) + 0.01f, std::fabs(h.y) + 0.01f, in.vec(),
                                 in.number(), std::fabs(in.number()));
        }
        default: {
            int n = 3 + in.byte() % 62;
            std::vector<Vec2> pts;
            for (int i = 0; i < n; ++i) pts.push_back(in.vec());
            return makePolygon(pts, in.byte() & 1 ? std::fabs(in.number()) : 0.0f);
        }
    }
}

Transform decodeTransform(Reader& in) {
    return {in.vec(), makeRot(in.number())};
}

Sweep decodeSweep(Reader& in) {
    Sweep s;
    s.localCenter = in.vec();
    s.c1 = in.vec();
    s.c2 = s.c1 + in.vec();
    s.q1 = makeRot(in.number());
    s.q2 = makeRot(in.number());
    return s;
}

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "narrowphase fuzz: %s\n", what);
    std::abort();
}

void check(bool ok, const char* what) {
    if (!ok) fail(what);
}

void checkDistance(const DistanceResult& r) {
    check(std::isfinite(r.distance) && r.distance >= 0.0f, "distance");
    check(std::isfinite(r.depth) && r.depth >= 0.0f, "depth");
    check(isFinite(r.normal) && std::fabs(length(r.normal) - 1.0f) < 1e-3f, "distance normal");
    check(isFinite(r.pointA) && isFinite(r.pointB), "witness points");
    check(r.iterations >= 0 && r.iterations < 1000, "distance iterations");
}

void checkManifold(const Manifold& m) {
    check(m.pointCount >= 0 && m.pointCount <= 2, "point count");
    if (m.pointCount == 0) return;
    check(isFinite(m.normal) && std::fabs(length(m.normal) - 1.0f) < 1e-3f, "manifold normal");
    for (int i = 0; i < m.pointCount; ++i) {
        const ManifoldPoint& p = m.points[i];
        check(isFinite(p.point) && isFinite(p.anchorA) && isFinite(p.anchorB), "manifold point");
        check(std::isfinite(p.separation) && p.separation <= kSpeculativeDistance * 1.01f,
              "manifold separation");
        check(p.normalImpulse == 0.0f && p.tangentImpulse == 0.0f, "solver state touched");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Reader in(data, size);
    try {
        ShapeGeometry a = decodeShape(in);
        ShapeGeometry b = decodeShape(in);
        Transform xfA = decodeTransform(in);
        Transform xfB = decodeTransform(in);

        SimplexCache cache;
        try {
            DistanceResult d = shapeDistance(a, xfA, b, xfB, &cache);
            checkDistance(d);
            // Warm-started again, and with the cache reused across kinds.
            checkDistance(shapeDistance(a, xfA, b, xfB, &cache));
            checkDistance(shapeDistance(b, xfB, a, xfA, &cache));
            checkManifold(collide(a, xfA, b, xfB, &cache));
            checkManifold(collide(b, xfB, a, xfA, &cache));
        } catch (const Error&) {
        }

        Sweep sa = decodeSweep(in);
        Sweep sb = decodeSweep(in);
        float tMax = std::fabs(in.number());
        float target = std::fabs(in.number());
        try {
            ToiResult r = timeOfImpact(a, sa, b, sb, tMax > 1.0f ? 1.0f : tMax, target);
            check(std::isfinite(r.t) && r.t >= 0.0f && r.t <= 1.0f, "toi time");
            check(r.state != ToiState::Unknown, "toi state");
            check(r.iterations >= 0 && r.iterations <= 1000, "toi iterations");
        } catch (const Error&) {
        }

        Vec2 translation = in.vec();
        try {
            CastOutput c = shapeCast(a, xfA, b, xfB, translation, std::fabs(in.number()));
            check(std::isfinite(c.fraction) && c.fraction >= 0.0f, "cast fraction");
            check(isFinite(c.normal) && isFinite(c.point), "cast output");
        } catch (const Error&) {
        }
    } catch (const Error&) {
        // The shapes themselves were refused (makePolygon, makeOffsetBox).
    }
    return 0;
}
