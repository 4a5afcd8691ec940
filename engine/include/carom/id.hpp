// Typed value ids with generation counters.
//
// An id is (index, generation). The world keeps a generation per slot and
// bumps it when the object in the slot is destroyed, so an id kept after its
// object died no longer matches: the world reports it stale (World::isValid,
// or carom::Error from any other call) instead of reading whatever now lives
// in that slot. Ids are trivially copyable values, cheap to store in game
// objects, comparable and hashable. A default-constructed id is null.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace carom {

template <class Tag>
struct Id {
    int32_t index = -1;       ///< slot in the world's table, -1 for null
    uint32_t generation = 0;  ///< slot generation when the id was issued

    constexpr bool isNull() const { return index < 0; }
    explicit constexpr operator bool() const { return index >= 0; }
    friend constexpr bool operator==(Id, Id) = default;
    friend constexpr auto operator<=>(Id, Id) = default;
};

struct BodyTag;
struct ShapeTag;
struct JointTag;
struct ChainTag;
struct ContactTag;

using BodyId = Id<BodyTag>;
using ShapeId = Id<ShapeTag>;
using JointId = Id<JointTag>;
using ChainId = Id<ChainTag>;
/// A touching contact between two shapes: issued when the shapes begin
/// touching (ContactBeginEvent), stale once they stop (or either is destroyed).
using ContactId = Id<ContactTag>;

}  // namespace carom

template <class Tag>
struct std::hash<carom::Id<Tag>> {
    size_t operator()(carom::Id<Tag> id) const noexcept {
        return std::hash<uint64_t>{}((uint64_t(uint32_t(id.index)) << 32) | id.generation);
    }
};
