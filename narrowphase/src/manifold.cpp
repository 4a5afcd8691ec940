// Manifold dispatch: a table of functions indexed by the two shape kinds.
//
// Each entry receives the shapes and their transforms and returns a world
// manifold. Entries exist for the "canonical" order of each pair of kinds
// (the kind whose routine takes the lead comes first); the other order is
// the same routine called with the shapes swapped, then flipped: normal
// negated, anchors recomputed relative to each body, feature id halves
// swapped so that ids still read (feature of A, feature of B).
#include "narrowphase/src/manifold_internal.hpp"

namespace carom::detail {
namespace {

using CollideFn = Manifold (*)(ShapeRef, const Transform&, ShapeRef, const Transform&,
                               SimplexCache*);

Vec2 circleCenterIn(ShapeRef s, const Transform& xf) {
    return transformPoint(xf, static_cast<const Circle*>(s.geometry)->center);
}
float circleRadius(ShapeRef s) {
    return static_cast<const Circle*>(s.geometry)->radius;
}

Manifold circleCircle(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                      SimplexCache*) {
    Transform xf = invMulTransforms(xfA, xfB);
    const auto& ca = *static_cast<const Circle*>(a.geometry);
    Manifold local =
        collideCirclesLocal(ca.center, ca.radius, circleCenterIn(b, xf), circleRadius(b));
    return toWorld(local, xfA, xfB);
}

// Polygon-like A (capsule, segment, polygon) against a circle.
Manifold polyCircle(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                    SimplexCache*) {
    Transform xf = invMulTransforms(xfA, xfB);
    PolyBuffer bufA;
    PolyView va = polyView(a, Transform{}, true, bufA);
    Manifold local = va.count == 2
                         ? collideCapsuleCircleLocal(va.v[0], va.v[1], va.radius,
                                                     circleCenterIn(b, xf), circleRadius(b))
                         : collidePolyCircleLocal(va, circleCenterIn(b, xf), circleRadius(b));
    return toWorld(local, xfA, xfB);
}

Manifold polyPoly(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                  SimplexCache*) {
    Transform xf = invMulTransforms(xfA, xfB);
    PolyBuffer bufA;
    PolyBuffer bufB;
    PolyView va = polyView(a, Transform{}, true, bufA);
    PolyView vb = polyView(b, xf, false, bufB);
    if (va.count == 2 && vb.count == 2) {
        return toWorld(
            collideCapsulesLocal(va.v[0], va.v[1], va.radius, vb.v[0], vb.v[1], vb.radius), xfA,
            xfB);
    }
    return toWorld(collidePolygonsLocal(va, vb), xfA, xfB);
}

Manifold chainCircle(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                     SimplexCache*) {
    Transform xf = invMulTransforms(xfA, xfB);
    const auto& chain = *static_cast<const ChainSegment*>(a.geometry);
    return toWorld(collideChainCircleLocal(chain, circleCenterIn(b, xf), circleRadius(b)), xfA,
                   xfB);
}

Manifold chainPoly(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                   SimplexCache* cache) {
    Transform xf = invMulTransforms(xfA, xfB);
    const auto& chain = *static_cast<const ChainSegment*>(a.geometry);
    PolyBuffer bufB;
    PolyView vb = polyView(b, xf, false, bufB);
    return toWorld(collideChainPolyLocal(chain, vb, cache), xfA, xfB);
}

Manifold nothing(ShapeRef, const Transform&, ShapeRef, const Transform&, SimplexCache*) {
    return Manifold{};
}

template <CollideFn F>
Manifold flipped(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                 SimplexCache* cache) {
    Manifold m = F(b, xfB, a, xfA, cache);
    m.normal = -m.normal;
    for (int i = 0; i < m.pointCount; ++i) {
        ManifoldPoint& p = m.points[i];
        Vec2 anchorOfB = p.anchorA;  // relative to b's origin
        p.anchorA = p.anchorB;
        p.anchorB = anchorOfB;
        p.id = static_cast<uint16_t>((p.id >> 8) | ((p.id & 0xffu) << 8));
    }
    return m;
}

// Rows: A's kind; columns: B's kind. Order: Circle, Capsule, Segment,
// Polygon, ChainSegment.
constexpr int kKinds = static_cast<int>(ShapeType::Count);
const CollideFn kTable[kKinds][kKinds] = {
    {circleCircle, flipped<polyCircle>, flipped<polyCircle>, flipped<polyCircle>,
     flipped<chainCircle>},
    {polyCircle, polyPoly, polyPoly, polyPoly, flipped<chainPoly>},
    {polyCircle, polyPoly, polyPoly, polyPoly, flipped<chainPoly>},
    {polyCircle, polyPoly, polyPoly, polyPoly, flipped<chainPoly>},
    {chainCircle, chainPoly, chainPoly, chainPoly, nothing},
};

}  // namespace

Manifold collideShapes(ShapeRef a, const Transform& xfA, ShapeRef b, const Transform& xfB,
                       SimplexCache* cache) {
    int ia = static_cast<int>(a.type);
    int ib = static_cast<int>(b.type);
    if (ia < 0 || ia >= kKinds || ib < 0 || ib >= kKinds || a.geometry == nullptr ||
        b.geometry == nullptr) {
        return Manifold{};
    }
    return kTable[ia][ib](a, xfA, b, xfB, cache);
}

}  // namespace carom::detail
