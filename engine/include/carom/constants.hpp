// Engine-wide tolerances. Lengths are in metres and tuned for objects from a
// few centimetres to tens of metres, the range games use with 1 unit = 1 m.
#pragma once

namespace carom {

/// Most vertices a polygon may have.
inline constexpr int kMaxPolygonVertices = 64;

/// Collision and constraint tolerance, metres. Contacts are kept this close;
/// a time of impact stops this far short of touching.
inline constexpr float kLinearSlop = 0.005f;

/// Distance below which shapes get speculative contact points, metres.
inline constexpr float kSpeculativeDistance = 4.0f * kLinearSlop;

/// Fat-box margin of a broadphase proxy, metres.
inline constexpr float kAabbMargin = 0.1f;

/// Points closer than this are welded when building a hull, metres.
inline constexpr float kWeldTolerance = 0.5f * kLinearSlop;

/// Largest coordinate the API accepts, metres: far enough for any game world,
/// near enough that float spacing (~0.06 m at 1e6) still resolves contacts.
inline constexpr float kHuge = 1.0e6f;

}  // namespace carom
