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
// as an inner chain vertex. Static polygon tiles are indexed by cells too:
// the parts of their edges that other tiles' edges cover never collide, the
// rest collides as chain segments continuing into the neighbours (SeamTile).
// See docs/narrowphase.md, "Tile seams".
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
/// A static polygon tile (radius 0, not a sensor) of a world that joins
/// seams. Its edges (world frame) are compared with the edges of the other
/// tiles: where opposite-facing, collinear edges of other tiles cover an
/// edge (within kSeamTolerance) it is internal and never collides. Each
/// exposed piece collides as a chain segment whose ghosts continue the
/// surface: the neighbouring exposed piece of another tile, a segment or
/// chain end that meets it, or its own polygon's next edge.
/// An exposed piece of a tile's edge: the whole edge, or the part of it
/// that the other tiles' edges leave uncovered.
struct SeamPiece {
    ChainSegment edge{};   ///< body frame, with the ghosts that continue the surface
    Vec2 p1{}, p2{};       ///< world frame
    int edgeIndex = 0;     ///< the polygon edge (vertex i to i + 1)
    uint8_t atVertex = 0;  ///< bit 0: p1 is the edge's first vertex; bit 1: p2 its second
    /// Bit k: ghost k is a free end (no neighbour and no own edge beyond it),
    /// resolved per contact as a Segment's free end is.
    uint8_t free = 0;
    /// Bit k: ghost k comes from a neighbour and turns into the solid side (a
    /// concave corner). The piece then collides only shapes whose centroid is
    /// on its side of the neighbour's line: under a segment or chain end that
    /// meets the tile's top corner, the tile's side face is exposed, but a
    /// body sliding over the surface (its centroid above the segment) must
    /// not catch on the face's top end (it sinks by up to the slop).
    uint8_t concave = 0;
};
struct SeamTile {
    int shape = -1;
    std::vector<Vec2> vertices;      ///< world frame, the polygon's order
    std::vector<SeamPiece> pieces;   ///< in edge order
    bool covered = false;            ///< some edge is covered in part or whole
    std::vector<SeamCellKey> cells;  ///< the cells it is listed in (empty: big)
};
struct SeamIndex {
    std::unordered_map<SeamCellKey, SeamCell, SeamCellHash> cells;
    /// Polygon tiles: slots, free slots, and the slots listed per cell of
    /// kSeamTileCell metres (a tile whose box spans more cells is in `big`).
    std::vector<SeamTile> tiles;
    std::vector<int> freeTiles;
    std::unordered_map<SeamCellKey, std::vector<int>, SeamCellHash> tileCells;
    std::vector<int> bigTiles;
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

/// For a mover's plane from a tile piece c (a distance query, normal from the
/// piece towards the mover, in the piece's body frame): true when the normal
/// leans past an end of the piece whose ghost continues the surface flat or
/// into a concave corner. That vertex region belongs to the neighbour,
/// which gives its own plane there; the piece's plane would be a bump at the
/// seam.
bool seamCornerHidden(const ChainSegment& c, Vec2 normal);

/// The manifold between a polygon tile ts (its record in the tile index,
/// Shape::seamTile) and another shape: its exposed pieces as chain segments,
/// or the solid polygon when the other shape's centroid is inside it. The
/// normal points from A to B as in collideShapes; tileIsA says which is the
/// tile; otherBox is the other shape's tight box (world frame).
Manifold collideTile(const WorldState& w, const Shape& ts, ShapeRef tileRef, const Transform& xfT,
                     ShapeRef other, const Transform& xfO, const AABB& otherBox, bool tileIsA,
                     SimplexCache* cache);

/// For queries against a polygon tile ts: the tile whose exposed pieces to
/// collide (each as tilePiece gives it), or nullptr when ts collides as its
/// whole polygon (not linked, or the point `inside`, in its body frame, lies
/// inside it).
const SeamTile* tileToCollide(const WorldState& w, const Shape& ts, Vec2 inside);
/// A piece as a chain segment, its free ends resolved for otherType, or
/// false when it does not collide a shape whose centroid is c (body frame):
/// c is beyond the neighbour's line at a concave corner (SeamPiece::concave).
bool tilePiece(const SeamPiece& p, Vec2 c, ShapeType otherType, ChainSegment& out);

/// The centroid of a shape's geometry in its body frame.
Vec2 refCentroid(ShapeRef r);

}  // namespace carom::detail
