// Tile seams: separate segments and open chain ends that meet end to end
// collide as one smooth surface (WorldDef::joinTileSeams).
//
// A level built from tiles (one segment or one short chain per tile) has a
// vertex at every seam that no chain knows about: the end's ghost vertex is
// the end itself, so a box sliding across sees the neighbour's corner and a
// sideways normal (a bump or a snag). The world therefore keeps every open
// end (both ends of a Segment, the open ends of an open chain) in a small
// hash of cells, and links two ends that meet: each gets the neighbour's far
// point as its ghost vertex, and the manifold code treats the seam exactly
// as an inner chain vertex. See docs/narrowphase.md, "Tile seams".
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <carom/geometry.hpp>

#include "narrowphase/narrowphase.hpp"

namespace carom::detail {

struct WorldImpl;
struct Shape;

/// Ends closer than this are one seam (world frame for static bodies, body
/// frame for ends of one body).
inline constexpr float kSeamTolerance = kLinearSlop;

/// Open ends by cell of side 4 kSeamTolerance. Changed only by API calls
/// (shape and chain creation, destruction, geometry, static body moves and
/// type changes), never by a step: a step only reads the links in Shape.
struct SeamIndex {
    std::unordered_map<uint64_t, std::vector<int>> cells;  ///< cell key -> ends (shape * 2 + k)
};

/// Indexes the shape's open ends (if it has any and the world joins seams)
/// and relinks every end near them.
void seamAddShape(WorldImpl& w, int shapeIndex);
/// Removes the shape's ends and relinks the ends that were near them.
void seamRemoveShape(WorldImpl& w, int shapeIndex);
/// Re-indexes every shape of the body (after it moved while static, or
/// changed type).
void seamRemoveBody(WorldImpl& w, int bodyIndex);
void seamAddBody(WorldImpl& w, int bodyIndex);

/// The geometry the narrowphase should collide for a linked shape s: a chain
/// segment with the neighbours' far points as ghosts. A two-sided Segment is
/// oriented so that otherCentroid (in s's body frame) is on its collision
/// side, and its free ends stay true ends (for the other shape's kind,
/// otherType); a chain segment keeps its orientation. storage holds the result.
ShapeRef seamShapeRef(const Shape& s, Vec2 otherCentroid, ShapeType otherType, ChainSegment& storage);

/// The centroid of a shape's geometry in its body frame.
Vec2 refCentroid(ShapeRef r);

}  // namespace carom::detail
