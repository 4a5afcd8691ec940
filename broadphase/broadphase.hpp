// The broadphase: which shapes' bounding boxes overlap.
//
// Internal to Carom (namespace carom::detail); the World owns one BroadPhase
// and includes this header as "broadphase/broadphase.hpp".
//
// Proxies and fat boxes
// ---------------------
// Each shape has one proxy. The broadphase stores a *fat* box per proxy. A
// movable proxy's fat box is the shape's tight box grown by the speculative
// distance (so two shapes close enough for speculative contact points always
// have overlapping fat boxes) and then by a margin relative to the shape's
// size: kAabbMarginFraction of its half extent at creation, at most
// kAabbMargin (Box2D v3's rule). Static proxies get no margin: they do not
// move. A moving shape calls moveProxy every step; only when its tight box
// (grown by the speculative distance) has left the fat box does the proxy
// get a new fat box around its current position. The fat box is not
// stretched along the motion: a stretched box overlaps, and makes contacts
// with, everything the shape might pass, and those contacts die at the next
// refit: in a scene of fast spinning shapes a stretched box creates and
// destroys many times as many contacts a step.
//
// Pairs
// -----
// Re-fitted, created and touched proxies are "moved". updatePairs reports
// every pair {moved proxy, any other proxy} whose fat boxes overlap, except
// static-vs-static pairs, pairs whose category and pair-mask bits exclude
// each other (tested inside the search: the tree query skips whole subtrees
// with no category in the moved proxy's pair mask) and the pairs the
// caller's `skip` rejects during the search (the world skips pairs that already have a contact, as
// Box2D v3 looks pairs up in its pair set inside the tree query). Pairs between two proxies that
// did not move cannot have started to overlap, so together with the contacts the world already
// keeps, this is the complete set of overlapping pairs. The world removes a contact when the fat
// boxes stop overlapping; the broadphase keeps no pair set of its own.
//
// Budget: updatePairs takes the most new pairs it may hand out. When the
// search finds more, it keeps the ones with the lowest keys
// (shapeA << 32 | shapeB), whatever the structure or search order, in a
// buffer that never grows beyond the budget, and reports how many it dropped.
//
// Two structures, one answer
// --------------------------
// BroadphaseType::Tree uses two dynamic AABB trees (static proxies in one,
// kinematic and dynamic in the other, so static-vs-static is never tested);
// BroadphaseType::SortAndSweep uses sort-and-sweep over a static and a movable
// list. The tree kind keeps the sweep lists too, beside its trees, for the
// pair search of a step in which many proxies moved (an eighth of all or
// more): one sweep over a list sorted by insertion sort is cheaper than a
// query from the root per moved proxy (a drum of boxes all tumbling at once
// is the case it is for); queries, ray and shape casts still use the trees.
// The lists cost 28 bytes a proxy; a re-fit only marks them stale, and they
// are rewritten from the proxies' boxes and sorted only for a step that
// sweeps, so that a scene that never sweeps (many bodies re-fitting a few at
// a time) does not pay for keeping them sorted. Both
// decide overlap with the same exact predicate (aabbOverlaps on
// the same float fat boxes) and updatePairs sorts its output by
// (shapeA, shapeB) before calling accept, so the world receives identical
// pairs in an identical order whichever structure it chose. Only the order in
// which query/rayCast/shapeCast callbacks arrive differs.
//
// Memory: proxies, tree nodes and sweep entries live in int-indexed
// std::vectors that keep their capacity; a step allocates nothing once warm.
// New proxies are batched: a burst of creations is linked by one full rebuild
// (tree) or one sort (sort-and-sweep) at the next flush()/updatePairs.
//
// Thread safety: const queries never modify the broadphase, so any number may
// run in parallel between non-const calls.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <carom/constants.hpp>
#include <carom/error.hpp>
#include <carom/geometry.hpp>
#include <carom/math.hpp>
#include <carom/types.hpp>

#include "broadphase/box_math.hpp"
#include "broadphase/dynamic_tree.hpp"
#include "broadphase/sweep_and_prune.hpp"

namespace carom::detail {

enum class ProxyType : uint8_t { Static, Kinematic, Dynamic };

/// A pair of shapes whose fat boxes overlap; shapeA < shapeB.
struct BroadphasePair {
    int shapeA = -1;
    int shapeB = -1;
    friend bool operator==(const BroadphasePair&, const BroadphasePair&) = default;
};

/// Fat-box margin of a movable proxy, as a fraction of the half extent of its
/// tight box at creation (capped at kAabbMargin).
inline constexpr float kAabbMarginFraction = 0.125f;

/// What one pair search found.
struct PairSearchResult {
    int64_t found = 0;    ///< new pairs found (after `skip`)
    int64_t dropped = 0;  ///< of those, not handed out: over the budget
};

class BroadPhase {
   public:
    explicit BroadPhase(BroadphaseType type);

    /// Adds a proxy for shape `shapeIndex` (>= 0, one proxy per shape) with
    /// the shape's tight box. Returns the proxy id (small ints, reused after
    /// destroyProxy). The proxy takes part in the next updatePairs.
    /// `pairMask`: the categories this proxy may pair with. The pair search
    /// never reports a pair (a, b) with (category(a) & pairMask(b)) == 0 or
    /// (category(b) & pairMask(a)) == 0; the world passes its filter's mask
    /// bits (all bits for a positive group index, none for a sensor).
    /// Throws Error(InvalidArgument) for a non-finite, inverted or
    /// out-of-range (beyond 1e15) box or a negative shape index.
    int createProxy(const AABB& aabb, ProxyType type, int shapeIndex, uint64_t categoryBits,
                    uint64_t pairMask = ~0ull);
    void destroyProxy(int proxy);

    /// Once per step per shape of a moving body: its tight box (the
    /// displacement is checked for finiteness and otherwise unused: fat boxes
    /// are not stretched along the motion). Re-fits only when the tight box
    /// grown by the speculative distance has left the fat box; the new fat box
    /// is that box grown by the proxy's margin. The tree enlarges the leaf and
    /// its ancestors in place and repairs itself at the next flush. Returns
    /// true when it re-fitted (and queued the proxy for the next updatePairs).
    /// Throws Error(InvalidArgument) for bad boxes as createProxy, or a
    /// non-finite or out-of-range displacement.
    bool moveProxy(int proxy, const AABB& aabb, Vec2 displacement);
    /// Whether moveProxy(proxy, aabb, ...) would change anything: the box
    /// (grown by the speculative distance) left the fat box. Read-only, so
    /// workers may ask it in parallel; `proxy` must be valid.
    bool needsMove(int proxy, const AABB& aabb) const;
    /// moveProxy in two halves, for the world's step, which makes the boxes
    /// itself from bodies kept within the world's bounds (no checks: a bad
    /// box is a bug, caught by CAROM_ASSERT in checked builds).
    /// refitFat(proxy, aabb): moveProxy's change to the proxy itself (the new
    /// fat box when the box left it; returns whether it did); it writes
    /// only that proxy, so workers may refit different proxies at once.
    /// commitRefit(proxy): the rest, for a refitted proxy: its tree leaf (or
    /// sweep entry) takes the new fat box and it is queued for the next
    /// search. On one thread, in a fixed order: the trees depend on it.
    bool refitFat(int proxy, const AABB& aabb);
    void commitRefit(int proxy);
    bool refitPending(int proxy) const { return proxies_[size_t(proxy)].refitted; }
    /// Replaces the proxy's fat box and margin with saved ones (a restored
    /// world, World::setWarmState) and queues it. The box is checked as
    /// createProxy's, the margin must be finite and >= 0.
    void setFatAABB(int proxy, const AABB& fat, float margin);
    float margin(int proxy) const { return proxies_[proxy].margin; }
    /// Queues the proxy for the next pair search (filter change, wake-up).
    void touchProxy(int proxy);
    /// Body type change. Moves the proxy between the static and movable
    /// structures and queues it. The fat box is kept.
    void setProxyType(int proxy, ProxyType type);
    void setCategoryBits(int proxy, uint64_t bits);
    /// The categories the proxy may pair with (see createProxy). Like a
    /// category change, takes effect for pairs found from now on: touch the
    /// proxy to search its pairs again.
    void setPairMask(int proxy, uint64_t mask);

    const AABB& fatAABB(int proxy) const { return proxies_[proxy].fat; }
    int shapeIndex(int proxy) const { return proxies_[proxy].shape; }
    ProxyType proxyType(int proxy) const { return proxies_[proxy].type; }
    uint64_t categoryBits(int proxy) const { return proxies_[proxy].categoryBits; }
    uint64_t pairMask(int proxy) const { return proxies_[proxy].pairMask; }
    bool isMoved(int proxy) const { return proxies_[proxy].moveIndex >= 0; }
    int movedCount() const { return static_cast<int>(moveBuffer_.size()); }
    /// Pair searches so far that swept the sorted lists instead of querying
    /// around each moved proxy (a statistic, not part of the state).
    int64_t sweptSearches() const { return sweptSearches_; }

    /// Finds every pair (moved proxy, any proxy; never static-vs-static)
    /// whose fat boxes overlap, each once. skip(shapeA, shapeB) -> bool is
    /// asked during the search (in an order that depends on the structure, so
    /// it must not change anything); the pairs it does not skip are kept, at
    /// most maxNewPairs of them (the lowest keys), sorted by (shapeA, shapeB);
    /// accept(shapeA, shapeB) -> bool is called on each in that order and the
    /// accepted ones are appended to `out` (not cleared: the caller owns and
    /// reuses it). Then clears the move queue. Allocates nothing once warmed
    /// up; the pair buffer never holds more than maxNewPairs keys.
    template <class SkipFn, class AcceptFn>
    PairSearchResult updatePairs(SkipFn&& skip, AcceptFn&& accept, std::vector<BroadphasePair>& out,
                                 int64_t maxNewPairs = INT64_MAX);
    /// As updatePairs, with the search around the moved proxies split among
    /// threads by `run`: run(count, fn) calls fn(begin, end) for ranges that
    /// cover [0, count) once, from any threads, and returns when all are done
    /// (the world passes its worker pool; the broadphase knows no threads).
    /// `skip` is then called from several threads at once and must only
    /// read. The result is the same as updatePairs' (same pairs, same order,
    /// same budget), whatever the split: each part keeps its own lowest
    /// maxNewPairs keys and the parts are merged by key. A full sweep
    /// (sort-and-sweep with many moved proxies) runs on the calling thread.
    template <class RunFn, class SkipFn, class AcceptFn>
    PairSearchResult updatePairsParallel(RunFn&& run, SkipFn&& skip, AcceptFn&& accept,
                                         std::vector<BroadphasePair>& out,
                                         int64_t maxNewPairs = INT64_MAX);
    /// As above with nothing skipped.
    template <class AcceptFn>
    PairSearchResult updatePairs(AcceptFn&& accept, std::vector<BroadphasePair>& out) {
        return updatePairs([](int, int) { return false; }, accept, out);
    }

    /// fn(shapeIndex) -> bool (false stops) for every proxy whose fat box
    /// overlaps `box` and whose category bits meet maskBits. The query,
    /// ray and shape casts throw Error(InvalidArgument) for non-finite input.
    template <class Fn>
    void query(const AABB& box, uint64_t maskBits, Fn&& fn) const;
    /// As query, over static proxies only (continuous collision of
    /// non-bullets tests static geometry only).
    template <class Fn>
    void queryStatic(const AABB& box, uint64_t maskBits, Fn&& fn) const;

    /// Ray cast against fat boxes. fn(const RayCastInput& clipped, int
    /// shapeIndex) -> float, called for each proxy whose fat box the ray
    /// (clipped to the current maxFraction) touches:
    ///   0 stops the cast; a value in (0, current maxFraction) clips the ray
    ///   to it; anything else (negative, or >= current) continues unchanged.
    /// A closest-hit cast returns the hit fraction; an all-hits cast returns
    /// the input's maxFraction.
    template <class Fn>
    void rayCast(const RayCastInput& in, uint64_t maskBits, Fn&& fn) const;

    /// Casts the box `box` along translation: same callback as rayCast; the
    /// RayCastInput passed has origin = centre of box, translation and the
    /// current maxFraction (starting at 1).
    template <class Fn>
    void shapeCast(const AABB& box, Vec2 translation, uint64_t maskBits, Fn&& fn) const;

    /// Links proxies created since the last flush (one full rebuild when they
    /// are many) and restores sort-and-sweep order. updatePairs calls it;
    /// queries work without it (checking unlinked proxies one by one), so
    /// call it after creating many proxies when many queries follow.
    void flush();
    /// Puts off the tree kind's tree flush (the trees only; the sweep lists
    /// are kept as before) until finishDeferredFlush(), so that the next
    /// pair search runs on the trees as moveProxy left them and the flush can
    /// run beside other work (the world runs it beside its solver, as Box2D
    /// v3 rebuilds its trees beside its narrowphase). Those trees answer
    /// every search and query exactly: a moved leaf's ancestors grew to
    /// contain its new box. Deferring changes no tree: the flush's input is
    /// the same before the search as after it. Returns false, deferring
    /// nothing, for sort-and-sweep and when a tree holds proxies created
    /// since the last flush (each query would check them one by one).
    bool deferFlush();
    /// The deferred tree flush, if one is due; on the calling thread (the
    /// same trees as the parallel build). Queries may run meanwhile only
    /// from no other thread.
    void finishDeferredFlush();
    bool flushDeferred() const { return flushDeferred_; }
    /// Full rebuild of the structures (tree: top-down median split;
    /// sort-and-sweep: sort from scratch).
    void rebuild();

    /// Tree height (the taller of the two trees); 0 for sort-and-sweep.
    int height() const;
    int proxyCount() const { return proxyCount_; }
    BroadphaseType type() const { return type_; }

    /// Checks every invariant (tree links, heights, containment, sweep
    /// order, proxy bookkeeping); throws std::logic_error with a message.
    void validate() const;

    /// For debug drawing: fn(const AABB& box, int depth, bool leaf) for every
    /// tree node (static tree first); for sort-and-sweep, every proxy's box
    /// (its intervals on both axes) at depth 0 as a leaf.
    template <class Fn>
    void forEachNode(Fn&& fn) const;

   private:
    friend struct SnapshotCodec;  // World::snapshot's byte form (engine/world/snapshot.cpp)
    struct Proxy {
        AABB fat{};
        uint64_t categoryBits = 0;
        uint64_t pairMask = ~0ull;  ///< categories it may pair with (createProxy)
        float margin = 0.0f;        ///< fat-box margin (0 for static proxies)
        int shape = -1;             ///< shape index; -1 when free
        int handle = -1;            ///< tree leaf (Tree); unused for sort-and-sweep
        int moveIndex = -1;         ///< index in moveBuffer_, -1 when not queued
        int nextFree = -1;
        ProxyType type = ProxyType::Static;
        bool refitted = false;  ///< refitFat changed the fat box, commitRefit not yet run
    };

    /// New pair keys within a budget: the lowest `limit` keys of all added
    /// (a max-heap once full, so the largest kept key is at the front).
    struct KeyBudget {
        std::vector<uint64_t> keys;
        int64_t limit = 0;
        int64_t found = 0;
        void reset(int64_t maxKeys) {
            keys.clear();
            found = 0;
            limit = maxKeys > 0 ? maxKeys : 0;
        }
        void add(uint64_t key) {
            ++found;
            if (int64_t(keys.size()) < limit) {
                keys.push_back(key);
                if (int64_t(keys.size()) == limit) std::make_heap(keys.begin(), keys.end());
                return;
            }
            if (keys.empty() || key >= keys.front()) return;
            std::pop_heap(keys.begin(), keys.end());
            keys.back() = key;
            std::push_heap(keys.begin(), keys.end());
        }
    };
    /// Parts of a parallel search: at most this many, each over a
    /// contiguous range of the move queue.
    static constexpr int kSearchParts = 32;

    static int treeOf(ProxyType t) { return t == ProxyType::Static ? 0 : 1; }
    /// Whether the search goes by queries around each moved proxy rather
    /// than one full sweep. Few moved proxies: a query around each. Many (an eighth of all
    /// proxies or more): one sweep of the sorted list, which both kinds keep
    /// (see the top of this file); the same pairs either way. Not for the
    /// tree when no moved proxy may pair with any category in the trees:
    /// then each query stops at the roots, and a sweep would still visit
    /// every overlapping pair (a grid of jointed bodies that collide with
    /// nothing of their own category costs far more with the sweep). Call
    /// after the trees are flushed or with the
    /// flush deferred (no pending leaf, whose bits the roots lack).
    bool searchByQueries() const {
        if (8 * moveBuffer_.size() < static_cast<size_t>(proxyCount_)) return true;
        if (type_ != BroadphaseType::Tree) return false;
        uint64_t categories = 0, masks = 0;
        for (const DynamicTree& tree : trees_)
            if (tree.root() != kNullNode) categories |= tree.node(tree.root()).categoryBits;
        for (int m : moveBuffer_)
            if (m >= 0) masks |= proxies_[size_t(m)].pairMask;
        return (categories & masks) == 0;
    }
    /// The query search around moveBuffer_[begin, end) into `into`.
    template <class SkipFn>
    void queryMoved(int begin, int end, SkipFn& skip, KeyBudget& into) const;
    void checkProxy(int proxy, const char* what) const;
    void queueMove(int proxy);
    void updateBox(int proxy);
    /// The tree kind: rewrites the stale sweep lists from the proxies' boxes.
    void refreshSweep();
    template <class SkipFn>
    void collectCandidates(SkipFn& skip, int64_t maxNewPairs);
    void finishCandidates();
    /// The pair filter applied inside the search, before `skip` and before
    /// any key is stored: a pair the masks exclude costs two ands.
    static bool masksMeet(const Proxy& a, const Proxy& b) {
        return (a.categoryBits & b.pairMask) != 0 && (b.categoryBits & a.pairMask) != 0;
    }
    /// The candidates of a search on their way to `skip`, in batches of 16
    /// when skip can prefetch (a `prefetch(a, b)` member): the world's skip
    /// looks each pair up in its pair map, a cache miss apiece, and asking
    /// for the 16 slots before looking at the first overlaps the misses
    /// (in a dense pile that look-up is a large share of the step). Only
    /// the order of the skip
    /// calls within a batch changes; the kept set does not (KeyBudget keeps
    /// the lowest keys whatever the order).
    template <class SkipFn>
    struct SkipBatch {
        static constexpr bool kPrefetch = requires(SkipFn & f) { f.prefetch(0, 0); };
        SkipFn& skip;
        KeyBudget& into;
        std::array<uint64_t, 16> keys{};
        int n = 0;
        void add(int a, int b) {  // a < b
            if constexpr (!kPrefetch) {
                if (!skip(a, b)) into.add(pairKey(a, b));
            } else {
                keys[size_t(n++)] = pairKey(a, b);
                if (n == int(keys.size())) flush();
            }
        }
        void flush() {
            if constexpr (kPrefetch) {
                for (int i = 0; i < n; ++i) {
                    const uint64_t key = keys[size_t(i)];
                    skip.prefetch(int(key >> 32), int(key & 0xffffffffu));
                }
                for (int i = 0; i < n; ++i) {
                    const uint64_t key = keys[size_t(i)];
                    if (!skip(int(key >> 32), int(key & 0xffffffffu))) into.add(key);
                }
                n = 0;
            }
        }
    };
    static uint64_t pairKey(int shapeA, int shapeB) {
        return shapeA < shapeB ? (uint64_t(uint32_t(shapeA)) << 32) | uint32_t(shapeB)
                               : (uint64_t(uint32_t(shapeB)) << 32) | uint32_t(shapeA);
    }

    BroadphaseType type_;
    std::vector<Proxy> proxies_;
    int freeProxy_ = -1;
    int proxyCount_ = 0;
    std::vector<int> moveBuffer_;   ///< proxies to search; -1 = destroyed since
    KeyBudget candidates_;          ///< new pair keys of the running search
    std::vector<KeyBudget> parts_;  ///< per part of a parallel search (kSearchParts once used)
    DynamicTree trees_[2];          ///< [0] static, [1] kinematic + dynamic
    SweepAndPrune sap_;
    /// Tree kind: the static [0] / movable [1] sweep list lags the proxies'
    /// boxes (updateBox); refreshed before a sweep.
    bool sweepStale_[2] = {false, false};
    /// deferFlush: the trees' flush waits for finishDeferredFlush.
    bool flushDeferred_ = false;
    int64_t sweptSearches_ = 0;
};

// ---- templates -------------------------------------------------------------

template <class SkipFn, class AcceptFn>
PairSearchResult BroadPhase::updatePairs(SkipFn&& skip, AcceptFn&& accept,
                                         std::vector<BroadphasePair>& out, int64_t maxNewPairs) {
    return updatePairsParallel([](int count, auto&& fn) { fn(0, count); }, skip, accept, out,
                               maxNewPairs);
}

template <class RunFn, class SkipFn, class AcceptFn>
PairSearchResult BroadPhase::updatePairsParallel(RunFn&& run, SkipFn&& skip, AcceptFn&& accept,
                                                 std::vector<BroadphasePair>& out,
                                                 int64_t maxNewPairs) {
    // The flush first, unless deferred: a tree rebuild's subtrees are built
    // by run's threads (the same tree whatever the split, dynamic_tree.hpp
    // beginFlush).
    if (type_ == BroadphaseType::Tree && !flushDeferred_) {
        for (DynamicTree& tree : trees_) {
            const int tasks = tree.beginFlush();
            run(tasks, [&tree](int begin, int end) {
                for (int k = begin; k < end; ++k) tree.buildTask(k);
            });
            tree.endFlush();
        }
    }
    const bool byQueries = searchByQueries();
    if (type_ == BroadphaseType::Tree) {
        // The tree's sweep list is sorted only for a step that sweeps (or
        // to compact it when removals pile up): a step of queries leaves it
        // as the moves left it, and its flush sorts whatever changed since.
        if (!moveBuffer_.empty() && !byQueries) {
            refreshSweep();
            sap_.flush();
        } else if (sap_.deadCount() > proxyCount_ + 64) {
            sap_.flush();
        }
    } else {
        sap_.flush();
    }
    candidates_.reset(maxNewPairs);
    if (!moveBuffer_.empty()) {
        if (byQueries) {
            // Parts of at least 64 moved proxies: fewer parts than threads is
            // fine, a part per proxy would cost more in merging than it saves.
            const int moved = static_cast<int>(moveBuffer_.size());
            const int parts = std::clamp(moved / 64, 1, kSearchParts);
            if (parts_.size() < size_t(parts)) parts_.resize(kSearchParts);
            for (int k = 0; k < parts; ++k) parts_[k].reset(maxNewPairs);
            run(parts, [&](int begin, int end) {
                for (int k = begin; k < end; ++k)
                    queryMoved(int(int64_t(moved) * k / parts),
                               int(int64_t(moved) * (k + 1) / parts), skip, parts_[k]);
            });
            // Each part kept its lowest keys; the lowest of their union are
            // the lowest of all, so the merge gives the serial search's set.
            int64_t found = 0;
            for (int k = 0; k < parts; ++k) {
                found += parts_[k].found;
                for (uint64_t key : parts_[k].keys) candidates_.add(key);
            }
            candidates_.found = found;
        } else {
            ++sweptSearches_;
            // The sweep sees every overlapping pair; keep those with a moved
            // side. In parts of at least 256 entries on run's threads, each
            // into its own budget, merged as the queries' parts are.
            const int parts = std::clamp(proxyCount_ / 256, 1, kSearchParts);
            if (parts_.size() < size_t(parts)) parts_.resize(kSearchParts);
            for (int k = 0; k < parts; ++k) parts_[k].reset(maxNewPairs);
            run(parts, [&](int begin, int end) {
                for (int k = begin; k < end; ++k) {
                    SkipBatch<std::remove_reference_t<SkipFn>> batch{skip, parts_[k]};
                    sap_.findPairsPart(k, parts, [&](int pa, int pb) {
                        const Proxy& a = proxies_[pa];
                        const Proxy& b = proxies_[pb];
                        if (a.moveIndex < 0 && b.moveIndex < 0) return;
                        if (!masksMeet(a, b)) return;
                        const int sa = a.shape < b.shape ? a.shape : b.shape;
                        const int sb = a.shape < b.shape ? b.shape : a.shape;
                        batch.add(sa, sb);
                    });
                    batch.flush();
                }
            });
            int64_t found = 0;
            for (int k = 0; k < parts; ++k) {
                found += parts_[k].found;
                for (uint64_t key : parts_[k].keys) candidates_.add(key);
            }
            candidates_.found = found;
        }
    }
    finishCandidates();  // sorts the keys, clears the move queue
    for (uint64_t key : candidates_.keys) {
        const BroadphasePair p{int(key >> 32), int(key & 0xffffffffu)};
        if (accept(p.shapeA, p.shapeB)) out.push_back(p);
    }
    PairSearchResult r;
    r.found = candidates_.found;
    r.dropped = candidates_.found - int64_t(candidates_.keys.size());
    return r;
}

// Pair search by queries (the tree always; sort-and-sweep when few proxies
// moved). For each moved proxy m:
//   query the movable structure with m's fat box; if m is not static, the
//   static structure too (static-vs-static is never looked at);
//   for each hit p != m: when p is also moved, keep the pair only from the
//   side with the smaller proxy id, so a pair of two moved proxies is
//   emitted once; drop it when the category / pair-mask bits exclude it;
//   then ask skip (pair already known?) and keep the rest.
// The tree query takes m's pair mask, so subtrees holding no category m may
// pair with are never entered (for shapes that collide with nothing of their
// own category, as in a jointed grid, the whole search stops at the root).
// The masks are a necessary condition of the
// world's filter, so this changes which pairs reach `skip`, never the result.
template <class SkipFn>
void BroadPhase::queryMoved(int begin, int end, SkipFn& skip, KeyBudget& into) const {
    SkipBatch<SkipFn> batch{skip, into};
    for (int i = begin; i < end; ++i) {
        const int m = moveBuffer_[size_t(i)];
        if (m < 0) continue;
        const Proxy& pm = proxies_[m];
        auto visit = [&](int p) {
            if (p == m) return true;
            const Proxy& pp = proxies_[p];
            if (pp.moveIndex >= 0 && p < m) return true;
            if (!masksMeet(pm, pp)) return true;
            const int a = pm.shape < pp.shape ? pm.shape : pp.shape;
            const int b = pm.shape < pp.shape ? pp.shape : pm.shape;
            batch.add(a, b);
            return true;
        };
        const bool movable = pm.type != ProxyType::Static;
        if (type_ == BroadphaseType::Tree) {
            trees_[1].query(pm.fat, pm.pairMask, visit);
            if (movable) trees_[0].query(pm.fat, pm.pairMask, visit);
        } else {
            sap_.queryMovable(pm.fat, visit);
            if (movable) sap_.queryStatic(pm.fat, visit);
        }
    }
    batch.flush();
}

template <class Fn>
void BroadPhase::query(const AABB& box, uint64_t maskBits, Fn&& fn) const {
    if (!isValid(box)) {
        detail::refuseWhy("box", "BroadPhase::query: box must be finite and ordered");
    }
    if (type_ == BroadphaseType::Tree) {
        auto visit = [&](int proxy) { return static_cast<bool>(fn(proxies_[proxy].shape)); };
        if (!trees_[1].query(box, maskBits, visit)) return;
        trees_[0].query(box, maskBits, visit);
    } else {
        sap_.query(box, [&](int proxy) {
            const Proxy& p = proxies_[proxy];
            if ((p.categoryBits & maskBits) == 0) return true;
            return static_cast<bool>(fn(p.shape));
        });
    }
}

template <class Fn>
void BroadPhase::queryStatic(const AABB& box, uint64_t maskBits, Fn&& fn) const {
    if (type_ == BroadphaseType::Tree) {
        trees_[0].query(box, maskBits,
                        [&](int proxy) { return static_cast<bool>(fn(proxies_[proxy].shape)); });
    } else {
        sap_.queryStatic(box, [&](int proxy) {
            const Proxy& p = proxies_[proxy];
            if ((p.categoryBits & maskBits) == 0) return true;
            return static_cast<bool>(fn(p.shape));
        });
    }
}

template <class Fn>
void BroadPhase::rayCast(const RayCastInput& in, uint64_t maskBits, Fn&& fn) const {
    if (!isFinite(in.origin) || !isFinite(in.translation) || !isFinite(in.maxFraction) ||
        in.maxFraction < 0.0f) {
        detail::refuseWhy(
            !isFinite(in.origin)        ? "in.origin"
            : !isFinite(in.translation) ? "in.translation"
                                        : "in.maxFraction",
            "BroadPhase::rayCast: origin, translation and maxFraction (>= 0) must be finite");
    }
    const AABB mover{in.origin, in.origin};
    float maxFraction = in.maxFraction;
    auto visit = [&](int proxy, float current) {
        RayCastInput sub{in.origin, in.translation, current};
        return static_cast<float>(fn(static_cast<const RayCastInput&>(sub), proxies_[proxy].shape));
    };
    if (type_ == BroadphaseType::Tree) {
        if (!trees_[1].cast(mover, in.translation, maxFraction, maskBits, visit)) return;
        trees_[0].cast(mover, in.translation, maxFraction, maskBits, visit);
    } else {
        sap_.cast(mover, in.translation, maxFraction, [&](int proxy, float current) {
            if ((proxies_[proxy].categoryBits & maskBits) == 0) return -1.0f;
            return visit(proxy, current);
        });
    }
}

template <class Fn>
void BroadPhase::shapeCast(const AABB& box, Vec2 translation, uint64_t maskBits, Fn&& fn) const {
    if (!isValid(box) || !isFinite(translation)) {
        detail::refuseWhy(isValid(box) ? "translation" : "box",
                          "BroadPhase::shapeCast: box and translation must be finite, box ordered");
    }
    const Vec2 center = aabbCenter(box);
    float maxFraction = 1.0f;
    auto visit = [&](int proxy, float current) {
        RayCastInput sub{center, translation, current};
        return static_cast<float>(fn(static_cast<const RayCastInput&>(sub), proxies_[proxy].shape));
    };
    if (type_ == BroadphaseType::Tree) {
        if (!trees_[1].cast(box, translation, maxFraction, maskBits, visit)) return;
        trees_[0].cast(box, translation, maxFraction, maskBits, visit);
    } else {
        sap_.cast(box, translation, maxFraction, [&](int proxy, float current) {
            if ((proxies_[proxy].categoryBits & maskBits) == 0) return -1.0f;
            return visit(proxy, current);
        });
    }
}

template <class Fn>
void BroadPhase::forEachNode(Fn&& fn) const {
    if (type_ == BroadphaseType::Tree) {
        trees_[0].forEachNode(fn);
        trees_[1].forEachNode(fn);
    } else {
        sap_.forEachBox([&](const AABB& b) { fn(b, 0, true); });
    }
}

}  // namespace carom::detail
