// Greedy colouring of the contact constraints (see graph_color.hpp).
#include "solver/graph_color.hpp"

#include <bit>
#include <cstdint>

#include "engine/world/world_impl.hpp"

namespace carom::detail {

static_assert(kGraphColors <= 32, "colour masks are 32-bit");

namespace {

// A side that can move: awake, with finite mass or inertia.
int movableIndex(const WorldImpl& w, int body) {
    const int i = w.bodies[size_t(body)].solverIndex;
    if (i < 0) return -1;
    const BodyParams& p = w.scratch.params[size_t(i)];
    return p.invMass > 0.0f || p.invInertia > 0.0f ? i : -1;
}

}  // namespace

void colorContacts(WorldImpl& w, std::vector<int>& constraints, std::vector<int>& colorStarts) {
    StepScratch& S = w.scratch;
    auto& used = S.bodyColors;
    used.assign(S.states.size(), 0u);
    auto& color = S.constraintColors;
    color.resize(constraints.size());
    colorStarts.assign(size_t(kGraphColors) + 2, 0);

    for (size_t i = 0; i < constraints.size(); ++i) {
        const Contact& c = w.contacts[size_t(constraints[i])];
        const int indexA = movableIndex(w, c.bodyA), indexB = movableIndex(w, c.bodyB);
        const bool movableA = indexA >= 0, movableB = indexB >= 0;
        uint32_t taken = 0;
        if (movableA) taken |= used[size_t(indexA)];
        if (movableB) taken |= used[size_t(indexB)];
        const uint32_t free = ~taken & ((1u << kGraphColors) - 1u);
        int k = kGraphColors;  // overflow
        if (free != 0) {
            k = std::countr_zero(free);
            if (movableA) used[size_t(indexA)] |= 1u << k;
            if (movableB) used[size_t(indexB)] |= 1u << k;
        }
        color[i] = uint8_t(k);
        ++colorStarts[size_t(k) + 1];
    }
    for (size_t k = 1; k < colorStarts.size(); ++k) colorStarts[k] += colorStarts[k - 1];

    // Stable scatter into the colour runs.
    auto& sorted = S.coloredContacts;
    sorted.resize(constraints.size());
    auto& next = S.colorCursor;
    next.assign(colorStarts.begin(), colorStarts.end() - 1);
    for (size_t i = 0; i < constraints.size(); ++i) sorted[size_t(next[color[i]]++)] = constraints[i];
    constraints.swap(sorted);
}

}  // namespace carom::detail
