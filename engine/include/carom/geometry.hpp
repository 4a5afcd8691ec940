// Shape geometry: plain value types, and what can be computed on one shape
// alone: mass properties, bounding boxes, point tests and ray casts.
//
// Geometry is always in a body's local frame. Round shapes carry a radius:
// a capsule is a segment rounded by its radius, and a polygon may have one
// too (rounded corners). The narrowphase treats the radius as a rounding of
// the core shape, so rounded shapes collide exactly.
#pragma once

#include <array>
#include <span>
#include <variant>

#include <carom/constants.hpp>
#include <carom/math.hpp>

namespace carom {

enum class ShapeType : uint8_t { Circle, Capsule, Segment, Polygon, ChainSegment, Count };

/// A solid disc.
struct Circle {
    Vec2 center{0.0f, 0.0f};  ///< centre in the body frame, metres
    float radius = 0.5f;      ///< metres, > 0
};

/// A segment rounded by a radius (a stadium).
struct Capsule {
    Vec2 center1{0.0f, 0.0f};  ///< first end centre, metres
    Vec2 center2{1.0f, 0.0f};  ///< second end centre, metres; distinct from center1
    float radius = 0.5f;       ///< metres, > 0
};

/// A two-sided line segment with no area (and so no mass).
struct Segment {
    Vec2 point1{0.0f, 0.0f};
    Vec2 point2{1.0f, 0.0f};
};

/// One edge of a chain: one-sided, it collides from the side its normal
/// points to, the right of point1 → point2 (rightPerp(point2 - point1)).
/// The ghost vertices are the neighbouring chain points; they let the
/// narrowphase collide smoothly across vertices (no snagging on inner
/// vertices of a flat chain).
struct ChainSegment {
    Vec2 ghost1{0.0f, 0.0f};  ///< the chain point before point1
    Segment segment{};        ///< the edge itself
    Vec2 ghost2{0.0f, 0.0f};  ///< the chain point after point2
    int chainIndex = -1;      ///< the chain this edge belongs to (world-internal)
};

/// A convex polygon, counter-clockwise, optionally rounded. Build one with
/// makePolygon (any point set: the convex hull is taken) or the box helpers;
/// the fields are kept consistent by those functions.
struct Polygon {
    int count = 0;              ///< number of vertices, 3..kMaxPolygonVertices
    float radius = 0.0f;        ///< rounding radius, metres, >= 0
    Vec2 centroid{0.0f, 0.0f};  ///< area centroid of the core polygon
    std::array<Vec2, kMaxPolygonVertices> vertices{};  ///< counter-clockwise
    std::array<Vec2, kMaxPolygonVertices> normals{};   ///< outward unit normal of edge i → i+1
};

/// Any one shape's geometry, for APIs that take a shape of any kind.
/// The alternative index equals the ShapeType value.
using ShapeGeometry = std::variant<Circle, Capsule, Segment, Polygon, ChainSegment>;

inline ShapeType typeOf(const ShapeGeometry& g) {
    return static_cast<ShapeType>(g.index());
}

/// Mass properties of a shape or a body.
struct MassData {
    float mass = 0.0f;               ///< kilograms
    Vec2 center{0.0f, 0.0f};         ///< centre of mass in the local frame
    float rotationalInertia = 0.0f;  ///< about the centre of mass, kg·m²
};

// ---- construction (throw carom::Error on invalid input) -------------------

/// The convex hull of points as a polygon. Refuses non-finite points, fewer
/// than 3 distinct points, collinear points (no area), more than
/// kMaxPolygonVertices hull vertices, and a negative or non-finite radius.
Polygon makePolygon(std::span<const Vec2> points, float radius = 0.0f);
/// A box centred on the origin with half widths hx, hy (> 0).
Polygon makeBox(float hx, float hy);
/// A square with half width h.
Polygon makeSquare(float h);
/// A box with rounded corners; the total half widths are hx + radius, hy + radius.
Polygon makeRoundedBox(float hx, float hy, float radius);
/// A box with its centre at `center` and rotated by `angle`, in the body frame.
Polygon makeOffsetBox(float hx, float hy, Vec2 center, float angle, float radius = 0.0f);

/// Throws carom::Error when the geometry breaks its documented rules.
void validate(const Circle& g);
void validate(const Capsule& g);
void validate(const Segment& g);
void validate(const Polygon& g);
void validate(const ChainSegment& g);
void validate(const ShapeGeometry& g);

// ---- mass ----------------------------------------------------------------

/// Mass properties for a density in kg/m² (segments and chains have none).
[[nodiscard]] MassData computeMass(const Circle& g, float density);
[[nodiscard]] MassData computeMass(const Capsule& g, float density);
[[nodiscard]] MassData computeMass(const Polygon& g, float density);
[[nodiscard]] MassData computeMass(const ShapeGeometry& g, float density);

// ---- bounds ----------------------------------------------------------------

[[nodiscard]] AABB computeAABB(const Circle& g, const Transform& xf);
[[nodiscard]] AABB computeAABB(const Capsule& g, const Transform& xf);
[[nodiscard]] AABB computeAABB(const Segment& g, const Transform& xf);
[[nodiscard]] AABB computeAABB(const Polygon& g, const Transform& xf);
[[nodiscard]] AABB computeAABB(const ChainSegment& g, const Transform& xf);
[[nodiscard]] AABB computeAABB(const ShapeGeometry& g, const Transform& xf);

// ---- point tests (local frame; segments and chains contain no point) ------

[[nodiscard]] bool containsPoint(const Circle& g, Vec2 p);
[[nodiscard]] bool containsPoint(const Capsule& g, Vec2 p);
[[nodiscard]] bool containsPoint(const Polygon& g, Vec2 p);
[[nodiscard]] bool containsPoint(const ShapeGeometry& g, Vec2 p);

// ---- ray casts -------------------------------------------------------------

/// A ray from origin along translation, clipped at maxFraction.
struct RayCastInput {
    Vec2 origin{0.0f, 0.0f};
    Vec2 translation{0.0f, 0.0f};
    float maxFraction = 1.0f;
};

/// The result of a ray or shape cast.
struct CastOutput {
    Vec2 normal{0.0f, 0.0f};  ///< surface normal at the hit
    Vec2 point{0.0f, 0.0f};   ///< hit point
    float fraction = 0.0f;    ///< hit = origin + fraction * translation
    int iterations = 0;       ///< iterations used (shape casts)
    bool hit = false;
};

/// Ray casts in the shape's local frame. A ray that starts inside a solid
/// shape does not hit it; a chain segment is hit only from the side its
/// normal points to (the right of point1 → point2).
[[nodiscard]] CastOutput rayCast(const RayCastInput& in, const Circle& g);
[[nodiscard]] CastOutput rayCast(const RayCastInput& in, const Capsule& g);
[[nodiscard]] CastOutput rayCast(const RayCastInput& in, const Segment& g);
[[nodiscard]] CastOutput rayCast(const RayCastInput& in, const Polygon& g);
[[nodiscard]] CastOutput rayCast(const RayCastInput& in, const ChainSegment& g);
[[nodiscard]] CastOutput rayCast(const RayCastInput& in, const ShapeGeometry& g);
/// A ray cast with the shape placed at xf; input and output in world frame.
[[nodiscard]] CastOutput rayCast(const RayCastInput& worldRay, const ShapeGeometry& g,
                                 const Transform& xf);

}  // namespace carom
