// The world's invariants, and the validation build that checks them between
// the stages of every step.
//
// The public calls validate their input once, at the edge (validate.hpp);
// what they and the step's stages leave behind must then hold together: the
// awake set, the islands, the contact and joint graphs, the broadphase's
// proxies and a finite state. findBrokenInvariant checks all of that in one
// pass over the world's tables and names the first invariant that does not
// hold. It is always compiled (the tests call it in every build); a build
// with the CMake option CAROM_VALIDATE (on in Debug builds and in the
// sanitizer run of scripts/test.sh) also calls it after each stage of the
// step through CAROM_VALIDATE_STAGE, and a broken invariant stops the
// program with its name, the stage and the object. Off, the macro expands to
// nothing: no call, no cost.
//
// The invariants, by name:
//   finite-state       every body's pose, centre and velocities are finite
//   body-shapes        a body's shape list and each shape's body agree
//   awake-set          awakeBodies holds exactly the awake, enabled,
//                      non-static bodies, and awakeIndex / awakeSlot point
//                      back into it
//   island-membership  every enabled dynamic body is in exactly one live
//                      island, whose list holds it; no other body is in one
//   island-sleep       an island's bodies share its awake state
//   contact-graph      a contact's shapes and bodies agree, both bodies'
//                      lists hold it where its edges say, the pair map finds
//                      it, its dense copy (contactEnds) matches, its touching
//                      flag matches its manifold
//   contact-islands    a touching contact between two enabled dynamic
//                      bodies is an island link, and a link joins one island
//   joint-graph        a joint's bodies exist and list it; it is an island
//                      link exactly when both bodies are enabled and dynamic,
//                      and a link joins one island
//   broadphase-proxies every shape of an enabled body has a proxy of its
//                      body's type that names it back (and no other shape
//                      has one); where the boxes are current (before the
//                      step and after its last stage) the proxy's fat box
//                      holds the shape's box
#pragma once

#include <string>
#include <vector>

namespace carom::detail {

struct WorldImpl;

/// The first invariant that does not hold, or none (name == nullptr).
struct BrokenInvariant {
    const char* name = nullptr;  ///< one of the names above
    std::string detail;          ///< the object it failed on, in words
    explicit operator bool() const { return name != nullptr; }
};

/// Checks every invariant above. boxesCurrent: also check that each fat box
/// holds its shape's box (false between the solver, which moves bodies, and
/// the finalize stage, which moves their proxies). marks: scratch, grown to
/// the body count (a warm world allocates nothing).
BrokenInvariant findBrokenInvariant(const WorldImpl& w, bool boxesCurrent, std::vector<int>& marks);

/// The validation build's check after a stage: on a broken invariant, prints
/// "carom: invariant NAME broken after STAGE: DETAIL" and aborts.
void validateStage(WorldImpl& w, const char* stage, bool boxesCurrent);

}  // namespace carom::detail

#if defined(CAROM_VALIDATE) && CAROM_VALIDATE
#define CAROM_VALIDATE_STAGE(world, stage, boxesCurrent) \
    ::carom::detail::validateStage(world, stage, boxesCurrent)
#else
#define CAROM_VALIDATE_STAGE(world, stage, boxesCurrent) ((void)0)
#endif
