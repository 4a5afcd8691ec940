// PairMap: shape pair → contact slot, for "does this pair have a contact?".
//
// The broadphase reports every overlapping pair that involves a moved proxy,
// most of which already have their contact, so this question is asked far
// more often than contacts are created. An open-addressing table with linear
// probing answers it with one or two probes into one flat array, and unlike
// std::unordered_map it allocates only when it grows (never once the scene's
// contact count has been reached). Deletion shifts the following entries of
// the cluster back (Knuth 6.4, algorithm R), so there are no tombstones and
// probe lengths stay short however long the world runs.
//
// The table is only ever looked up, never iterated, so its layout cannot leak
// into the simulation's order of operations.
#pragma once

#include "engine/core/platform.hpp"
#include <cstdint>
#include <vector>

namespace carom::detail {

class PairMap {
   public:
    /// The contact of (a, b) in either order, or -1.
    int find(int a, int b) const {
        if (slots_.empty()) return -1;
        const uint64_t key = keyOf(a, b);
        for (size_t i = indexOf(key);; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.value < 0) return -1;
            if (s.key == key) return s.value;
        }
    }

    /// Adds (a, b) → value; the pair must not be present.
    /// Asks for the slot where find(a, b) starts (a batch of lookups
    /// overlaps its cache misses). Always inlined: GCC drops calls to a
    /// function that only prefetches.
    CAROM_FORCE_INLINE void prefetch(int a, int b) const {
        if (!slots_.empty()) prefetchRead(&slots_[indexOf(keyOf(a, b))]);
    }

    void insert(int a, int b, int value) {
        if (2 * (count_ + 1) > slots_.size()) grow();
        const uint64_t key = keyOf(a, b);
        size_t i = indexOf(key);
        while (slots_[i].value >= 0) i = (i + 1) & mask_;
        slots_[i] = {key, value};
        ++count_;
    }

    /// Removes (a, b) if present.
    void erase(int a, int b) {
        if (slots_.empty()) return;
        const uint64_t key = keyOf(a, b);
        size_t i = indexOf(key);
        while (slots_[i].value >= 0 && slots_[i].key != key) i = (i + 1) & mask_;
        if (slots_[i].value < 0) return;
        // Backward-shift: pull later entries of the cluster into the hole
        // unless their home slot lies cyclically in (hole, j].
        size_t hole = i;
        for (size_t j = (i + 1) & mask_; slots_[j].value >= 0; j = (j + 1) & mask_) {
            const size_t home = indexOf(slots_[j].key);
            const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (stays) continue;
            slots_[hole] = slots_[j];
            hole = j;
        }
        slots_[hole] = Slot{};
        --count_;
    }

    size_t size() const { return count_; }

   private:
    friend struct SnapshotCodec;  // World::snapshot's byte form (engine/world/snapshot.cpp)
    struct Slot {
        uint64_t key = 0;
        int value = -1;  ///< -1: empty
    };

    static uint64_t keyOf(int a, int b) {
        const uint32_t lo = uint32_t(a < b ? a : b), hi = uint32_t(a < b ? b : a);
        return (uint64_t(hi) << 32) | lo;
    }
    size_t indexOf(uint64_t key) const {
        // A 64-bit mix (splitmix64 finaliser) so that neighbouring shape
        // indices spread over the table.
        uint64_t x = key;
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebull;
        x ^= x >> 31;
        return size_t(x) & mask_;
    }
    void grow() {
        std::vector<Slot> old;
        old.swap(slots_);
        const size_t capacity = old.empty() ? 64 : 2 * old.size();
        slots_.assign(capacity, Slot{});
        mask_ = capacity - 1;
        count_ = 0;
        for (const Slot& s : old)
            if (s.value >= 0) {
                size_t i = indexOf(s.key);
                while (slots_[i].value >= 0) i = (i + 1) & mask_;
                slots_[i] = s;
                ++count_;
            }
    }

    std::vector<Slot> slots_;
    size_t mask_ = 0;
    size_t count_ = 0;
};

}  // namespace carom::detail
