// Sort-and-sweep: list maintenance, axis choice and sorting.
// See sweep_and_prune.hpp for the design.
#include "broadphase/sweep_and_prune.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace carom::detail {

namespace {

[[noreturn]] void fail(const std::string& what) {
    throw std::logic_error("SweepAndPrune::validate: " + what);
}

// Length of an interval, rounded up so it is never below the true length.
float lengthUp(float lo, float hi) {
    return std::nextafter(hi - lo, std::numeric_limits<float>::infinity());
}

bool entryLess(const SweepAndPrune::Entry& a, const SweepAndPrune::Entry& b) {
    if (a.lo != b.lo) return a.lo < b.lo;
    return a.proxy < b.proxy;
}

}  // namespace

SweepAndPrune::Entry SweepAndPrune::toEntry(const AABB& b, int proxy) const {
    const int o = 1 - axis_;
    return {b.lower[axis_], b.upper[axis_], b.lower[o], b.upper[o], proxy};
}

AABB SweepAndPrune::toBox(const Entry& e) const {
    AABB b{};
    const int o = 1 - axis_;
    b.lower[axis_] = e.lo;
    b.upper[axis_] = e.hi;
    b.lower[o] = e.olo;
    b.upper[o] = e.ohi;
    return b;
}

void SweepAndPrune::noteLength(int set, const Entry& e) {
    float len = lengthUp(e.lo, e.hi);
    if (len > maxLength_[set]) maxLength_[set] = len;
}

void SweepAndPrune::insert(int proxy, const AABB& box, bool isStatic) {
    if (proxy >= static_cast<int>(slots_.size())) slots_.resize(proxy + 1);
    const int set = isStatic ? kStatic : kMovable;
    Entry e = toEntry(box, proxy);
    slots_[proxy] = {set, static_cast<int>(lists_[set].size())};
    lists_[set].push_back(e);
    noteLength(set, e);
    sorted_[set] = false;
    ++live_;
}

void SweepAndPrune::remove(int proxy) {
    Slot& slot = slots_[proxy];
    // Removing keeps the order: mark dead, compact at flush().
    lists_[slot.set][slot.index].proxy = -1;
    ++dead_[slot.set];
    slot = Slot{};
    --live_;
}

void SweepAndPrune::update(int proxy, const AABB& box) {
    const Slot& slot = slots_[proxy];
    Entry e = toEntry(box, proxy);
    lists_[slot.set][slot.index] = e;
    noteLength(slot.set, e);
    sorted_[slot.set] = false;
}

void SweepAndPrune::setStatic(int proxy, bool isStatic) {
    const int set = isStatic ? kStatic : kMovable;
    if (slots_[proxy].set == set) return;
    AABB b = box(proxy);
    remove(proxy);
    insert(proxy, b, isStatic);
}

// Sample variance of the box centres along x and y over both lists; switch
// the sweep axis when the other axis is clearly (25%) more spread out.
void SweepAndPrune::chooseAxis() {
    double sum[2] = {0.0, 0.0};
    double sumSq[2] = {0.0, 0.0};
    long count = 0;
    for (int set = 0; set < 2; ++set) {
        for (const Entry& e : lists_[set]) {
            double c = 0.5 * (static_cast<double>(e.lo) + static_cast<double>(e.hi));
            double oc = 0.5 * (static_cast<double>(e.olo) + static_cast<double>(e.ohi));
            sum[0] += c;
            sumSq[0] += c * c;
            sum[1] += oc;
            sumSq[1] += oc * oc;
            ++count;
        }
    }
    if (count < 2) return;
    const double n = static_cast<double>(count);
    double varSweep = sumSq[0] - sum[0] * sum[0] / n;
    double varOther = sumSq[1] - sum[1] * sum[1] / n;
    if (!(varOther > 1.25 * varSweep)) return;

    // Switch: swap the roles of the two intervals in every entry.
    axis_ = 1 - axis_;
    for (int set = 0; set < 2; ++set) {
        maxLength_[set] = 0.0f;
        for (Entry& e : lists_[set]) {
            std::swap(e.lo, e.olo);
            std::swap(e.hi, e.ohi);
            noteLength(set, e);
        }
        sorted_[set] = false;
    }
}

// Restores the order of one list:
//   insertion sort (stable, O(n + inversions)) with a budget of 8n + 256
//   element shifts; if the budget runs out, std::sort by (lo, proxy).
// Then rewrites the slots and recomputes maxLength exactly.
void SweepAndPrune::sortList(int set, bool fromScratch) {
    std::vector<Entry>& list = lists_[set];
    const int n = static_cast<int>(list.size());
    bool done = false;
    if (!fromScratch) {
        long budget = 8L * n + 256;
        done = true;
        for (int i = 1; i < n && done; ++i) {
            Entry e = list[i];
            int j = i;
            while (j > 0 && list[j - 1].lo > e.lo) {
                list[j] = list[j - 1];
                --j;
                if (--budget < 0) {
                    done = false;
                    break;
                }
            }
            list[j] = e;
        }
    }
    if (!done) std::sort(list.begin(), list.end(), entryLess);
    maxLength_[set] = 0.0f;
    for (int i = 0; i < n; ++i) {
        slots_[list[i].proxy].index = i;
        noteLength(set, list[i]);
    }
    sorted_[set] = true;
}

void SweepAndPrune::flush() {
    for (int set = 0; set < 2; ++set) {
        if (dead_[set] == 0) continue;
        // Compact in order; a sorted list stays sorted.
        std::vector<Entry>& list = lists_[set];
        int out = 0;
        for (const Entry& e : list) {
            if (e.proxy < 0) continue;
            slots_[e.proxy].index = out;
            list[out++] = e;
        }
        list.resize(out);
        dead_[set] = 0;
    }
    chooseAxis();
    for (int set = 0; set < 2; ++set) {
        if (!sorted_[set]) sortList(set, false);
    }
}

void SweepAndPrune::rebuild() {
    flush();
    for (int set = 0; set < 2; ++set) sortList(set, true);
}

void SweepAndPrune::validate() const {
    int live = 0;
    for (int set = 0; set < 2; ++set) {
        const std::vector<Entry>& list = lists_[set];
        int dead = 0;
        for (int i = 0; i < static_cast<int>(list.size()); ++i) {
            const Entry& e = list[i];
            if (e.proxy < 0) {
                ++dead;
                continue;
            }
            if (e.proxy >= static_cast<int>(slots_.size())) fail("proxy id out of range");
            const Slot& slot = slots_[e.proxy];
            if (slot.set != set || slot.index != i) fail("slot does not point at its entry");
            if (!(e.lo <= e.hi) || !(e.olo <= e.ohi)) fail("interval inverted");
            if (lengthUp(e.lo, e.hi) > maxLength_[set]) fail("maxLength below an interval length");
            if (sorted_[set] && i > 0 && list[i - 1].lo > e.lo) fail("list marked sorted is not");
            ++live;
        }
        if (dead != dead_[set]) fail("dead entry count mismatch");
    }
    if (live != live_) fail("live entry count mismatch");
}

}  // namespace carom::detail
