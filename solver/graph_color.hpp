// Colouring the constraint graph, so one colour can be solved by several
// workers at once (Box2D v3, constraint_graph.c, simplified to a per-step
// greedy colouring).
//
// Two constraints may run at the same time only if they write no common body.
// Bodies that cannot move (static, kinematic) are only read, so they never
// conflict. Every step, joints first and then contacts, each in the order
// the step gathered them:
//
//   colour = the lowest of kGraphColors colours that neither of its
//            movable bodies has used yet (one bit mask per body, shared by
//            joints and contacts) — or the overflow colour when all are
//            taken, or when the constraint asks for it (a gear joint writes
//            up to four bodies)
//   stable counting sort of each kind by colour
//   (each colour's contacts are then cut into blocks of 8 lanes,
//   wide_contact.hpp; its joints into blocks of a few joints)
//
// Each pass (warm start, solve, relax) then runs colour after colour, a
// colour's joints and contacts together; inside a colour the constraints are
// independent, so splitting them over any number of workers gives the same
// bits, and a single worker walks exactly the same order. The overflow
// colour (a body with more than kGraphColors constraints, a rare pile-up,
// and gears) runs on one thread after the colours: its joints, then its
// contacts.
//
// This file knows nothing of the world: it takes spans of body pairs and
// writes spans of colours (solver_step.cpp builds the pairs).
#pragma once

#include <cstdint>
#include <span>

namespace carom::detail {

inline constexpr int kGraphColors = 24;
/// The colour of constraints that found no colour (index kGraphColors).
inline constexpr int kOverflowColor = kGraphColors;
/// Entries of a colour start table: one per colour, the overflow, the end.
inline constexpr int kColorStartCount = kGraphColors + 2;

/// The bodies a constraint writes, as solver indices (indices into the
/// step's body arrays); -1 for a side that cannot move (static, kinematic,
/// asleep, or a joint type that never writes that side).
struct ColorBodies {
    int a = -1, b = -1;
    bool overflow = false;  ///< solve in the overflow colour whatever the bodies
};

/// Gives each constraint a colour, in order (see the top of this file).
/// bodyColors holds one mask per solver index of the colours its
/// constraints took so far (zero at the start of the step) and is updated,
/// so a second call (the contacts after the joints) colours around the
/// first. colors gets one entry per constraint, in [0, kOverflowColor].
void assignColors(std::span<const ColorBodies> constraints, std::span<uint32_t> bodyColors,
                  std::span<uint8_t> colors);

/// Stable counting sort of items by colour: sorted[starts[c] ..
/// starts[c + 1]) are the items of colour c in their original order.
/// starts has kColorStartCount entries; sorted has items.size().
void sortByColor(std::span<const uint8_t> colors, std::span<const int> items, std::span<int> sorted,
                 std::span<int> starts);

}  // namespace carom::detail
