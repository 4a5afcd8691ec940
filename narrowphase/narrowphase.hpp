// The narrowphase as the World sees it: queries on two shapes given by
// non-owning references, so the contact code never copies a Polygon (a 1 KB
// value type) into a ShapeGeometry variant per pair and per step.
//
// Every function here is total: any finite input gives a finite answer, no
// function throws, allocates or loops without a bound. The public wrappers in
// <carom/collision.hpp> validate their arguments and then call these.
#pragma once

#include <carom/collision.hpp>
#include <carom/geometry.hpp>
#include <carom/math.hpp>
#include <carom/types.hpp>

namespace carom::detail {

/// Vertices a polygon may keep inline in a world's shape (Box2D v3's
/// b2Polygon holds 8): boxes and most hulls then cost no pool access and no
/// 1 KB Polygon read per pair.
inline constexpr int kInlinePolygonVertices = 8;

/// A polygon of up to kInlinePolygonVertices vertices, stored in the shape.
struct InlinePolygon {
    Vec2 vertices[kInlinePolygonVertices];
    Vec2 normals[kInlinePolygonVertices];
    Vec2 centroid;
    float radius;
    int count;
};

/// The same polygon as an InlinePolygon (p.count <= kInlinePolygonVertices).
InlinePolygon makeInlinePolygon(const Polygon& p);
/// And back, for the public API.
Polygon toPolygon(const InlinePolygon& p);

/// A non-owning reference to one shape's geometry: geometry points to a
/// Circle, Capsule, Segment, Polygon or ChainSegment according to type; a
/// Polygon-type reference points to an InlinePolygon when inlinePolygon.
struct ShapeRef {
    ShapeType type = ShapeType::Circle;
    const void* geometry = nullptr;
    bool inlinePolygon = false;
};

/// What the narrowphase reads of a polygon, wherever its arrays live.
struct PolygonParts {
    const Vec2* vertices;
    const Vec2* normals;
    Vec2 centroid;
    float radius;
    int count;
};

/// The parts of a Polygon-type reference.
inline PolygonParts polygonParts(ShapeRef s) {
    if (s.inlinePolygon) {
        const auto& g = *static_cast<const InlinePolygon*>(s.geometry);
        return {g.vertices, g.normals, g.centroid, g.radius, g.count};
    }
    const auto& g = *static_cast<const Polygon*>(s.geometry);
    return {g.vertices.data(), g.normals.data(), g.centroid, g.radius, g.count};
}

/// A reference to the alternative held by g (g must outlive the reference).
ShapeRef makeRef(const ShapeGeometry& g);
inline ShapeRef makeRef(const Circle& g) {
    return {ShapeType::Circle, &g};
}
inline ShapeRef makeRef(const Capsule& g) {
    return {ShapeType::Capsule, &g};
}
inline ShapeRef makeRef(const Segment& g) {
    return {ShapeType::Segment, &g};
}
inline ShapeRef makeRef(const Polygon& g) {
    return {ShapeType::Polygon, &g};
}
inline ShapeRef makeRef(const ChainSegment& g) {
    return {ShapeType::ChainSegment, &g};
}
inline ShapeRef makeRef(const InlinePolygon& g) {
    return {ShapeType::Polygon, &g, true};
}

/// The contact manifold between two shapes in any order of kinds. The normal
/// points from A to B; anchors are relative to each body origin
/// (anchorA = point - xfA.p, anchorB = point - xfB.p); solver fields are zero.
/// ChainSegment against ChainSegment gives an empty manifold.
Manifold collideShapes(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                       SimplexCache* cache);

/// Signed distance between the rounded surfaces (see DistanceResult).
DistanceResult shapeDistance(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                             SimplexCache* cache);

/// Conservative-advancement time of impact (see carom::timeOfImpact).
ToiResult timeOfImpact(ShapeRef a, const Sweep& sa, ShapeRef b, const Sweep& sb, float tMax,
                       float target);

/// Sweeps b along translationB against a (see carom::shapeCast). With
/// canEncroach, shapes that start touching (but whose cores do not overlap)
/// are not a hit at 0: b may come kLinearSlop closer than it starts (never
/// past kLinearSlop of overlap, nor deeper than it starts), then stops
/// (character movers sliding along surfaces, World::castMover).
CastOutput shapeCast(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                     Vec2 translationB, float maxFraction, bool canEncroach = false);

/// Largest distance from localCenter to any point of the shape, radius
/// included: bounds the speed of a shape point of a spinning body.
float shapeExtent(ShapeRef s, Vec2 localCenter);

/// The shape's width across the unit direction dir (world frame) when placed
/// at xf: the length of its shadow on the line perpendicular to dir, radius
/// included (2r for a circle). What a blast front travelling along dir meets.
float shapeWidthAcross(ShapeRef s, const Transform& xf, Vec2 dir);

/// The force and torque (about center) a moving medium puts on a shape.
struct WindLoad {
    Vec2 force{0.0f, 0.0f};
    float torque = 0.0f;
};
/// The body a shape belongs to, as windLoad reads it.
struct WindBody {
    Transform xf{};
    Vec2 center{0.0f, 0.0f};  ///< world centre of mass
    Vec2 v{0.0f, 0.0f};
    float w = 0.0f;
    float invMass = 0.0f, invInertia = 0.0f;
};
/// The load of wind (World::applyWind, carom::Wind) on the shape of body.
/// Each quarter of each face of the core that meets the medium, at the
/// medium's velocity relative to the quarter's midpoint, gets the dynamic
/// pressure ½·density·speed² times its width across the flow (its length
/// times the cosine of the angle of attack), as drag along the flow plus
/// lift across it, at that midpoint; the rounded part (2r across any flow)
/// gets drag at the core's centre. A segment's or capsule's core has two
/// faces, a polygon's its edges, a circle's none. Then Wind::timeStep's
/// limit scales the whole load down where, over that time, it would change
/// the relative flow at a point it pushes by more than that flow, or slow
/// the body's spin by more than the spin.
WindLoad windLoad(ShapeRef s, const WindBody& body, const Wind& wind);

}  // namespace carom::detail
