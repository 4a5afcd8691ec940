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
struct WorldState;
struct Shape;

/// Ends closer than this are one seam (world frame for static bodies, body
/// frame for ends of one body).
inline constexpr float kSeamTolerance = kLinearSlop;

/// Open ends by cell. A bucket is a square of side 0.7 kSeamTolerance (its
/// diagonal is under the tolerance, so every two ends of one bucket meet);
/// a cell, the unit of the hash, holds the non-empty buckets of a 3 x 3
/// block. Per end, the ends of other shapes that meet it. Changed only by
/// API calls (shape and chain creation, destruction, geometry, static body
/// moves and type changes), never by a step: a step only reads the links in
/// Shape.
struct SeamCellKey {
    int64_t x = 0, y = 0;
    int group = -1;  ///< Shape::seamGroup
    bool operator==(const SeamCellKey&) const = default;
};
struct SeamCellHash {
    size_t operator()(const SeamCellKey& k) const {
        return size_t((uint64_t(k.x) * 0x9E3779B97F4A7C15ull) ^
                      (uint64_t(k.y) * 0xC2B2AE3D27D4EB4Full) ^
                      (uint64_t(uint32_t(k.group)) * 0x165667B19E3779F9ull));
    }
};
struct SeamBucket {
    int place = 0;          ///< which of the cell's 3 x 3 buckets: column + 3 row
    int xorEnds = 0;        ///< the XOR of `ends`
    std::vector<int> ends;  ///< end ids (shape * 2 + k), in no particular order
};
struct SeamCell {
    std::vector<SeamBucket> buckets;  ///< the non-empty ones, at most 9
};
/// Per end id: what the link rule needs, kept current by every change.
struct SeamEnd {
    /// Ends of other shapes within kSeamTolerance, or kSeamCrowded for an end
    /// in a bucket of 4 or more ends (it meets at least two: never linked).
    int near = 0;
    int xorNear = 0;  ///< the XOR of those ends' ids: the one end when near == 1
    int link = -1;    ///< the end it is linked to, -1 when none
    int slot = -1;    ///< its place in its bucket's `ends`
};
inline constexpr int kSeamCrowded = -1;
struct SeamIndex {
    std::unordered_map<SeamCellKey, SeamCell, SeamCellHash> cells;
    std::vector<SeamEnd> ends;  ///< by end id; grows with the shapes
    std::vector<int> touched;   ///< scratch: ends whose counts changed in an update
    /// Buckets and ends visited by updates since creation (not state): the
    /// tile-seam tests check that it grows linearly with the ends added.
    uint64_t visits = 0;
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
/// Rebuilds the index and the links from the shapes' indexed ends (seamEnds,
/// seamPoint, seamGroup): a snapshot's bytes do not carry the index.
void seamRebuild(WorldState& w);

/// The geometry the narrowphase should collide for a linked shape s: a chain
/// segment with the neighbours' far points as ghosts. A two-sided Segment is
/// oriented so that otherCentroid (in s's body frame) is on its collision
/// side, and its free ends stay true ends (for the other shape's kind,
/// otherType); a chain segment keeps its orientation. storage holds the result.
ShapeRef seamShapeRef(const Shape& s, Vec2 otherCentroid, ShapeType otherType,
                      ChainSegment& storage);

/// The centroid of a shape's geometry in its body frame.
Vec2 refCentroid(ShapeRef r);

}  // namespace carom::detail
