// Test-only access to a world's internal state (engine/world/world_impl.hpp),
// for tests that check what the public API does not show: contacts' mixed
// values, seam links, visit counters, list capacities.
#pragma once

#include <carom/world.hpp>

#include "engine/world/world_impl.hpp"

namespace carom {
namespace detail {
struct WorldAccess {
    static WorldImpl& of(World& world) { return world.live(); }
    static const WorldImpl& of(const World& world) { return world.live(); }
};
}  // namespace detail

inline detail::WorldImpl& internals(World& world) {
    return detail::WorldAccess::of(world);
}
inline const detail::WorldImpl& internals(const World& world) {
    return detail::WorldAccess::of(world);
}
}  // namespace carom
