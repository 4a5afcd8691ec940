// Persistent contacts between pairs of shapes.
//
// Life of a contact
// -----------------
// A contact exists while the fat boxes of two shapes overlap and the pair
// passes the filter (see shouldCollide). It is created when the broadphase
// first reports the pair (pairs arrive sorted by shape index, so contacts are
// created in a canonical order whatever broadphase structure is used) and
// destroyed when the fat boxes stop overlapping, when either shape is
// destroyed or refiltered, or when a body changes type. Between those two
// moments its manifold is recomputed every step while at least one of its
// bodies is awake; a contact is "touching" while its manifold has points
// (speculative points included, exactly as Box2D v3 counts them).
//
// Storage essay
// -------------
// Contacts live in a slot vector with a free list, like every other world
// object. Each body keeps the list of its contacts (appended on creation,
// swap-removed on destruction through the contact's stored list positions,
// so a ground body with thousands of contacts loses one in O(1), and the
// order depends on nothing but the sequence of events),
// which is what the step walks: a contact is visited from its "owner", the
// awake body of the pair that comes first in the awake-body array. Sleeping
// bodies therefore cost nothing, and the walk order is a pure function of the
// event history, never of hashing or pointer values. "Does this pair already
// have a contact?" (asked for every pair the broadphase reports) is answered
// by an open-addressing PairMap (pair_map.hpp), looked up and never iterated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <carom/collision.hpp>
#include <carom/types.hpp>
#include <carom/world.hpp>

#include "solver/contact_record.hpp"

namespace carom::detail {

struct WorldImpl;
struct Shape;

/// The contact slot of a shape pair (either order), or -1.
int findContact(const WorldImpl& w, int shapeA, int shapeB);

/// The shape filter of types.hpp: a shared non-zero group decides alone,
/// otherwise each category must be in the other's mask.
bool filtersCollide(const Filter& a, const Filter& b);
/// The broadphase pair mask of a shape (BroadPhase::createProxy): the
/// categories it may collide with, a necessary condition of filtersCollide
/// that the pair search tests inside the tree query. All bits for a positive
/// group index (the group overrides the masks), none for a sensor (sensors
/// make no contacts).
uint64_t pairMaskOf(const Shape& s);

/// The test the world applies to a new pair: different bodies, at least one
/// dynamic body, no sensors, filters, no joint with collideConnected ==
/// false between the bodies. (The custom filter is asked separately, only
/// for pairs that pass this and have no contact yet.)
bool shouldCollide(const WorldImpl& w, int shapeA, int shapeB);

/// Creates the contact for a pair accepted by the broadphase. wakeSleeping:
/// wake a sleeping body paired with a static one (see contact.cpp); false
/// when a saved state is restored as it was (World::setWarmState).
void createContact(WorldImpl& w, int shapeA, int shapeB, bool wakeSleeping = true);
/// The contact's friction and restitution, mixed from its shapes' by the
/// world's rule or callback (and its surface, updateContactSurface): at
/// creation (the step or setWarmState holds the callback lock).
void updateContactMaterial(WorldImpl& w, Contact& c);
/// updateContactMaterial again after a setter changed what contacts are
/// mixed from: every live contact (shapeIndex < 0) or the shape's. Every
/// value is mixed, under the callback lock, before any is written, so a
/// callback that throws changes no contact (see setMixInput).
void remixContacts(WorldImpl& w, int shapeIndex);
/// Sets a mixing input (a rule, a callback, a shape's friction or
/// restitution) and re-mixes the contacts it feeds; a callback that throws
/// gets the old input put back before the exception leaves, so the world is
/// as it was (the setters' strong guarantee).
template <class T>
void setMixInput(WorldImpl& w, T& input, T value, int shapeIndex) {
    using std::swap;
    swap(input, value);
    try {
        remixContacts(w, shapeIndex);
    } catch (...) {
        swap(input, value);
        throw;
    }
}
/// The contact's tangent speed and rolling resistance from its shapes' (no
/// user callback): what the solver's prepare reads instead of the shapes.
void updateContactSurface(WorldImpl& w, Contact& c);
/// updateContactSurface for every contact of a shape (its tangent speed or
/// rolling resistance changed).
void refreshShapeContactSurfaces(WorldImpl& w, int shapeIndex);
/// The contact's event flags from its shapes' (no user callback).
void updateContactFlags(WorldImpl& w, Contact& c);
/// updateContactFlags for every contact of a shape (an event flag changed).
void refreshShapeContactFlags(WorldImpl& w, int shapeIndex);
/// Destroys a contact: an end event if its begin event was sent,
/// an island unlink, and optionally wakes both bodies.
void destroyContact(WorldImpl& w, int contactIndex, bool wakeBodies);
/// Destroys every contact of a shape (shape removed, refiltered, reshaped).
void destroyShapeContacts(WorldImpl& w, int shapeIndex, bool wakeBodies);

/// The owner rule: the awake bodies visit their contacts, and a contact with
/// two awake bodies is visited from the one earlier in the awake array only.
bool isContactOwner(const WorldImpl& w, int bodyIndex, const Contact& c);

/// The collide stage: recompute the manifold of every contact with an awake
/// body (in parallel when workers are available), then, in contact order,
/// destroy disjoint contacts, run pre-solve, emit begin/end events and link
/// or unlink islands.
void updateContacts(WorldImpl& w);

/// The public view of a contact.
ContactData makeContactData(const WorldImpl& w, const Contact& c);
/// The id of the contact in slot `index` (its current generation).
ContactId contactId(const WorldImpl& w, int index);
/// The touching contact an id names, or nullptr when it is stale.
const Contact* findTouchingContact(const WorldImpl& w, ContactId id);

}  // namespace carom::detail
