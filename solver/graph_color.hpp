// Colouring the contact constraint graph, so one colour can be solved by
// several workers at once (Box2D v3, constraint_graph.c, simplified to a
// per-step greedy colouring).
//
// Two constraints may run at the same time only if they write no common body.
// Bodies that cannot move (static, kinematic) are only read, so they never
// conflict. Every step:
//
//   for each touching contact, in the order the step gathered them:
//       colour = the lowest of kGraphColors colours that neither of its
//                movable bodies has used yet (bit masks per body)
//                — or the overflow colour when all are taken
//   stable counting sort of the contacts by colour
//   (each colour's run is then cut into blocks of 8 lanes, wide_contact.hpp)
//
// Each pass (warm start, solve, relax, restitution) then runs colour after
// colour; inside a colour the constraints are independent, so splitting them
// over any number of workers gives the same bits, and a single worker walks
// exactly the same order. The overflow colour (a body with more than
// kGraphColors contacts, a rare pile-up) runs on the calling thread.
#pragma once

#include <vector>


namespace carom::detail {

struct WorldImpl;

inline constexpr int kGraphColors = 24;

/// Reorders the step's touching contacts (indices into w.contacts) by
/// colour; colorStarts gets kGraphColors + 2 entries: colour c occupies
/// [colorStarts[c], colorStarts[c + 1]), colour kGraphColors being the
/// overflow. Reads the bodies' solver indices and the step's params.
void colorContacts(WorldImpl& w, std::vector<int>& contacts, std::vector<int>& colorStarts);

}  // namespace carom::detail
