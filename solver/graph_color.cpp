// Greedy colouring of the joint and contact constraints (see graph_color.hpp).
#include "solver/graph_color.hpp"

#include <array>
#include <bit>

namespace carom::detail {

static_assert(kGraphColors <= 32, "colour masks are 32-bit");

void assignColors(std::span<const ColorBodies> constraints, std::span<uint32_t> bodyColors,
                  std::span<uint8_t> colors) {
    constexpr uint32_t kAll = kGraphColors == 32 ? ~0u : (1u << kGraphColors) - 1u;
    for (size_t i = 0; i < constraints.size(); ++i) {
        const ColorBodies& c = constraints[i];
        int k = kOverflowColor;
        if (!c.overflow) {
            uint32_t taken = 0;
            if (c.a >= 0) taken |= bodyColors[size_t(c.a)];
            if (c.b >= 0) taken |= bodyColors[size_t(c.b)];
            const uint32_t free = ~taken & kAll;
            if (free != 0) {
                k = std::countr_zero(free);
                if (c.a >= 0) bodyColors[size_t(c.a)] |= 1u << k;
                if (c.b >= 0) bodyColors[size_t(c.b)] |= 1u << k;
            }
        }
        colors[i] = uint8_t(k);
    }
}

void sortByColor(std::span<const uint8_t> colors, std::span<const int> items, std::span<int> sorted,
                 std::span<int> starts) {
    for (int& s : starts) s = 0;
    for (uint8_t c : colors) ++starts[size_t(c) + 1];
    for (size_t k = 1; k < starts.size(); ++k) starts[k] += starts[k - 1];
    std::array<int, kColorStartCount - 1> next;
    for (size_t k = 0; k < next.size(); ++k) next[k] = starts[k];
    for (size_t i = 0; i < items.size(); ++i) sorted[size_t(next[colors[i]]++)] = items[i];
}

}  // namespace carom::detail
