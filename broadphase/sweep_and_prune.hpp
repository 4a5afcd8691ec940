// Sort-and-sweep ("sweep and prune") over one axis.
//
// Why this structure
// ------------------
// Project every fat box on one axis: two boxes can only overlap if their
// intervals [lo, hi] on that axis do. Keep the intervals sorted by their lower
// end point; then all partners of interval i are the intervals after it whose
// lower end point is <= hi_i, found by one forward scan, and each candidate
// is confirmed with the other axis. One sweep over the sorted list finds every
// overlapping pair in O(n + k_axis), k_axis being the pairs overlapping on the
// sweep axis (Baraff 1992, "Dynamic simulation of non-penetrating rigid
// bodies", ch. 6; Terdiman, "Sweep-and-prune" / box pruning notes).
//
// Coherence makes it cheap: from one step to the next the order barely
// changes, so insertion sort (linear on almost-sorted input) restores it.
// When it does not (teleports, big batches) the insertion sort runs out of a
// budget of ~8n shifts and std::sort takes over, so a step is never quadratic.
//
// The axis matters: sweeping along the axis where the boxes are spread out
// keeps k_axis small. flush() computes the variance of box centres along x and
// y and switches to the other axis when its variance is 25% larger (the
// hysteresis stops flip-flopping); a switch re-sorts everything.
//
// Static and movable proxies live in two separate sorted lists. Pairs within
// the movable list come from the usual sweep; movable-vs-static pairs from a
// merged sweep of both lists; static-vs-static pairs are never looked at.
//
// Entries store both intervals (sweep axis and other axis) and the proxy id,
// 20 bytes, so the sweep reads memory in order. Removed entries are marked
// dead and compacted at flush(); moved entries are rewritten in place and
// mark their list unsorted. Queries on an unsorted list scan it linearly;
// queries on a sorted list binary-search the start of their range, using the
// longest interval so far (maxLength) to know how far back to start.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <carom/math.hpp>

#include "broadphase/box_math.hpp"

namespace carom::detail {

class SweepAndPrune {
   public:
    struct Entry {
        float lo = 0.0f;  ///< interval on the sweep axis
        float hi = 0.0f;
        float olo = 0.0f;  ///< interval on the other axis
        float ohi = 0.0f;
        int proxy = -1;  ///< -1: removed, waiting for compaction
    };

    void insert(int proxy, const AABB& box, bool isStatic);
    void remove(int proxy);
    void update(int proxy, const AABB& box);
    /// Moves a proxy between the static and the movable list.
    void setStatic(int proxy, bool isStatic);

    /// Compacts, re-chooses the axis and sorts. Call before findPairsPart.
    void flush();
    /// Like flush() but sorts both lists from scratch.
    void rebuild();

    /// The sweep axis, 0 = x, 1 = y.
    int axis() const { return axis_; }
    bool isStatic(int proxy) const { return slots_[proxy].set == kStatic; }
    AABB box(int proxy) const { return toBox(lists_[slots_[proxy].set][slots_[proxy].index]); }
    int count() const { return live_; }
    /// Removed entries not yet compacted (flush compacts them).
    int deadCount() const { return dead_[0] + dead_[1]; }
    /// Rewrites every live entry of the static (isStatic) or movable list
    /// from boxOf(proxy) and marks the list unsorted: the tree kind of
    /// broadphase updates its sweep lists this way, only before a step that
    /// sweeps, instead of on every re-fit.
    template <class BoxOf>
    void refreshList(bool isStatic, BoxOf&& boxOf);

    /// Part `part` of `parts`: emit(proxyA, proxyB) for pairs of overlapping
    /// boxes that are not both static; the parts together emit every such
    /// pair exactly once (one part: all of them), so a search can be split
    /// among threads. Requires a flushed state.
    template <class Emit>
    void findPairsPart(int part, int parts, Emit&& emit) const;

    /// fn(proxy) -> bool (false stops) for proxies whose box overlaps `box`.
    template <class Fn>
    bool query(const AABB& box, Fn&& fn) const;
    /// The same over one list only.
    template <class Fn>
    bool queryMovable(const AABB& box, Fn&& fn) const;
    template <class Fn>
    bool queryStatic(const AABB& box, Fn&& fn) const;

    /// Proxies hit by `mover` swept along translation (see sweptBoxHits);
    /// fn(proxy, maxFraction) -> float with the ray cast convention.
    template <class Fn>
    bool cast(const AABB& mover, Vec2 translation, float& maxFraction, Fn&& fn) const;

    /// fn(box) for every live entry.
    template <class Fn>
    void forEachBox(Fn&& fn) const;

    /// Throws std::logic_error naming the first broken invariant.
    void validate() const;

   private:
    friend struct SnapshotCodec;  // World::snapshot's byte form (engine/world/snapshot.cpp)
    static constexpr int kStatic = 0;
    static constexpr int kMovable = 1;
    struct Slot {
        int set = -1;
        int index = -1;
    };

    Entry toEntry(const AABB& b, int proxy) const;
    AABB toBox(const Entry& e) const;
    void noteLength(int set, const Entry& e);
    void sortList(int set, bool fromScratch);
    void chooseAxis();

    template <class Fn>
    bool queryList(int set, float lo, float hi, Fn&& fn) const;

    std::vector<Entry> lists_[2];
    bool sorted_[2] = {true, true};
    int dead_[2] = {0, 0};
    float maxLength_[2] = {0.0f, 0.0f};  ///< >= every interval length on the sweep axis
    std::vector<Slot> slots_;            ///< by proxy id
    int axis_ = 0;
    int live_ = 0;
};

// ---- templates -------------------------------------------------------------

template <class BoxOf>
void SweepAndPrune::refreshList(bool isStatic, BoxOf&& boxOf) {
    const int set = isStatic ? kStatic : kMovable;
    maxLength_[set] = 0.0f;
    for (Entry& e : lists_[set]) {
        if (e.proxy < 0) continue;
        e = toEntry(boxOf(e.proxy), e.proxy);
        noteLength(set, e);
    }
    sorted_[set] = false;
}

template <class Emit>
void SweepAndPrune::findPairsPart(int part, int parts, Emit&& emit) const {
    // Movable vs movable: a forward scan from each interval. Movable vs
    // static, each pair from one side only: a movable interval a meets the
    // statics from the first with lo >= a.lo (ties go to the movable list),
    // a static interval b the movables from the first with lo > b.lo. The
    // movable list and the static list are each cut into `parts` ranges of
    // indices; part k takes range k of both.
    const std::vector<Entry>& m = lists_[kMovable];
    const std::vector<Entry>& s = lists_[kStatic];
    const int mc = static_cast<int>(m.size());
    const int sc = static_cast<int>(s.size());
    const int m0 = int(int64_t(mc) * part / parts), m1 = int(int64_t(mc) * (part + 1) / parts);
    const int s0 = int(int64_t(sc) * part / parts), s1 = int(int64_t(sc) * (part + 1) / parts);
    // Both lists are sorted, so the start in the other list only moves
    // forward: one binary search per part, then a merge-like walk.
    int k0 = m0 < m1 ? int(std::lower_bound(s.begin(), s.end(), m[m0].lo,
                                            [](const Entry& e, float lo) { return e.lo < lo; }) -
                           s.begin())
                     : sc;
    // The test on the other axis is close to a coin toss in a dense pile
    // (a mispredicted branch for most entries the scan passes). So
    // each scan writes every entry's proxy and advances by the test's
    // result, without a branch, and the hits go out in order from a small
    // buffer (the same pairs in the same order as testing one by one).
    constexpr int kHits = 32;
    int hits[kHits];
    auto scan = [&](const std::vector<Entry>& list, int from, int count, const Entry& a,
                    bool aFirst) {
        int n = 0;
        for (int k = from; k < count && list[k].lo <= a.hi; ++k) {
            const Entry& b = list[k];
            hits[n] = b.proxy;
            n += int(b.olo <= a.ohi) & int(a.olo <= b.ohi);
            if (n == kHits) {
                for (int h = 0; h < n; ++h)
                    aFirst ? emit(a.proxy, hits[h]) : emit(hits[h], a.proxy);
                n = 0;
            }
        }
        for (int h = 0; h < n; ++h) aFirst ? emit(a.proxy, hits[h]) : emit(hits[h], a.proxy);
    };
    for (int i = m0; i < m1; ++i) {
        const Entry& a = m[i];
        scan(m, i + 1, mc, a, true);
        while (k0 < sc && s[k0].lo < a.lo) ++k0;
        scan(s, k0, sc, a, true);
    }
    int q0 = s0 < s1 ? int(std::upper_bound(m.begin(), m.end(), s[s0].lo,
                                            [](float lo, const Entry& e) { return lo < e.lo; }) -
                           m.begin())
                     : mc;
    for (int j = s0; j < s1; ++j) {
        const Entry& a = s[j];
        while (q0 < mc && m[q0].lo <= a.lo) ++q0;
        scan(m, q0, mc, a, false);
    }
}

template <class Fn>
bool SweepAndPrune::queryList(int set, float lo, float hi, Fn&& fn) const {
    // fn(const Entry&) -> bool; visits every live entry whose sweep-axis
    // interval may meet [lo, hi] (a superset; fn does the exact test).
    const std::vector<Entry>& list = lists_[set];
    const int n = static_cast<int>(list.size());
    int begin = 0;
    if (sorted_[set]) {
        // An interval reaching lo starts at or after lo - maxLength; step one
        // float further down so rounding of the subtraction cannot cut it off.
        float start = std::nextafter(lo - maxLength_[set], -std::numeric_limits<float>::infinity());
        int first = 0;
        int last = n;
        while (first < last) {
            int mid = first + (last - first) / 2;
            if (list[mid].lo < start) {
                first = mid + 1;
            } else {
                last = mid;
            }
        }
        begin = first;
    }
    for (int i = begin; i < n; ++i) {
        const Entry& e = list[i];
        if (sorted_[set] && e.lo > hi) break;
        if (e.proxy < 0) continue;
        if (!fn(e)) return false;
    }
    return true;
}

template <class Fn>
bool SweepAndPrune::queryMovable(const AABB& box, Fn&& fn) const {
    return queryList(kMovable, box.lower[axis_], box.upper[axis_], [&](const Entry& e) {
        if (!aabbOverlaps(toBox(e), box)) return true;
        return static_cast<bool>(fn(e.proxy));
    });
}

template <class Fn>
bool SweepAndPrune::queryStatic(const AABB& box, Fn&& fn) const {
    return queryList(kStatic, box.lower[axis_], box.upper[axis_], [&](const Entry& e) {
        if (!aabbOverlaps(toBox(e), box)) return true;
        return static_cast<bool>(fn(e.proxy));
    });
}

template <class Fn>
bool SweepAndPrune::query(const AABB& box, Fn&& fn) const {
    if (!queryMovable(box, fn)) return false;
    return queryStatic(box, fn);
}

template <class Fn>
bool SweepAndPrune::cast(const AABB& mover, Vec2 translation, float& maxFraction, Fn&& fn) const {
    const AABB range = sweptBounds(mover, translation, maxFraction);
    const float lo = range.lower[axis_];
    const float hi = range.upper[axis_];
    auto visit = [&](const Entry& e) {
        if (!sweptBoxHits(toBox(e), mover, translation, maxFraction)) return true;
        float value = fn(e.proxy, maxFraction);
        if (value == 0.0f) return false;
        if (value > 0.0f && value < maxFraction) maxFraction = value;
        return true;
    };
    if (!queryList(kMovable, lo, hi, visit)) return false;
    return queryList(kStatic, lo, hi, visit);
}

template <class Fn>
void SweepAndPrune::forEachBox(Fn&& fn) const {
    for (int set = 0; set < 2; ++set) {
        for (const Entry& e : lists_[set]) {
            if (e.proxy >= 0) fn(toBox(e));
        }
    }
}

}  // namespace carom::detail
