// Snapshots: the whole simulation state of a world as a value, for rollback
// netcode, replays and "undo".
//
//   carom::Snapshot s = world.snapshot();   // everything the next step reads
//   ... world.step() any number of times, create and destroy objects ...
//   world.restore(s);                       // back, bit for bit
//
// restore followed by N steps gives exactly the bits the original N steps
// gave, in the same world or in another world made with the same WorldDef,
// whatever the worker count. A Snapshot is immutable: copies share the state
// and are cheap; bytes() / fromBytes() give a self-checking byte form for
// files and the network. See docs/snapshot.md for what is and is not in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace carom {

namespace detail {
struct WorldState;
}

class Snapshot {
   public:
    /// An empty snapshot: World::restore and bytes() refuse it.
    Snapshot() = default;

    bool empty() const noexcept { return !state_; }

    /// The snapshot as bytes: a versioned header (magic "CAROMSNP", format
    /// version, a layout signature of this build, payload size, 64-bit
    /// checksum) and the state. User data pointers are not written (they
    /// read back as null). Throws carom::Error (InvalidArgument) when empty.
    std::vector<uint8_t> bytes() const;
    /// The snapshot written by bytes(). Throws carom::Error
    /// (InvalidArgument) for a buffer that is truncated, too long, of
    /// another format version or build layout, or whose checksum does not
    /// match; it never reads outside the buffer.
    static Snapshot fromBytes(std::span<const uint8_t> bytes);

   private:
    friend class World;
    explicit Snapshot(std::shared_ptr<const detail::WorldState> state) : state_(std::move(state)) {}
    std::shared_ptr<const detail::WorldState> state_;
};

}  // namespace carom
