// Islands: groups of dynamic bodies linked by touching contacts and joints,
// the unit that falls asleep and wakes up.
//
// Persistent islands (Box2D v3, island.c)
// ---------------------------------------
// Every dynamic body belongs to exactly one island from its creation (a
// singleton at first). Static and kinematic bodies never join: they do not
// carry impulses from one body to another, so two boxes resting on the same
// ground are two islands.
//
//   link (contact starts touching, joint created):
//       wake a sleeping side; if the islands differ, merge the smaller into
//       the larger (ties: the lower slot) — an append of a body list.
//   unlink (contact stops touching or dies, joint destroyed):
//       only count it: island.constraintRemoveCount += 1. The island may now
//       be several pieces, but finding out costs a graph walk, so it waits.
//   sleep candidate (every body slow for kTimeToSleep):
//       if constraintRemoveCount > 0, split first: a depth-first walk over
//       touching linked contacts and joints gives the connected pieces, each
//       becoming its own island; then each piece that is still a candidate
//       falls asleep.
//
// Merging is eager and cheap, splitting is lazy and rare: a pile that is
// being knocked about keeps one big island until it settles, which is what
// keeps the bookkeeping off the hot path.
#pragma once

#include <vector>

namespace carom::detail {

struct WorldImpl;

/// Seconds a body must stay below its sleep threshold before its island may sleep.
inline constexpr float kTimeToSleep = 0.5f;

struct Island {
    bool alive = false;
    bool awake = true;
    std::vector<int> bodies;        ///< dynamic bodies, in link order
    int constraintRemoveCount = 0;  ///< links removed since the last split
    unsigned sleepPass = 0;         ///< last sleep pass that examined it
};

/// A fresh singleton island for a dynamic body.
void createIslandForBody(WorldImpl& w, int bodyIndex);
/// Takes a body out of its island (destroyed, or no longer dynamic).
void removeBodyFromIsland(WorldImpl& w, int bodyIndex);
/// Links the islands of two bodies (both dynamic), waking them.
void linkBodies(WorldImpl& w, int bodyA, int bodyB);
/// Records a removed link between two bodies.
void unlinkBodies(WorldImpl& w, int bodyA, int bodyB);

/// Adds a body to the awake array (no-op if already there) / removes it.
void addAwakeBody(WorldImpl& w, int bodyIndex);
void removeAwakeBody(WorldImpl& w, int bodyIndex);

/// Wakes the body's island (or the body alone when it has none). An API
/// change also restarts the body's sleep timer (resetTimer); the solver's own
/// wake-ups (a new touching contact) only wake what sleeps.
void wakeIslandOf(WorldImpl& w, int bodyIndex, bool resetTimer = true);
/// Puts the body's island (or the body alone) to sleep now: velocities zeroed.
void sleepIslandOf(WorldImpl& w, int bodyIndex, bool recordEvents);

/// The sleep stage: islands whose bodies have all been slow for
/// kTimeToSleep are split if needed and put to sleep; lone kinematic bodies
/// likewise. Runs after the solver has updated every body's sleep time.
void updateSleep(WorldImpl& w);

/// Number of live islands and of awake ones.
int islandCount(const WorldImpl& w);
int awakeIslandCount(const WorldImpl& w);

}  // namespace carom::detail
