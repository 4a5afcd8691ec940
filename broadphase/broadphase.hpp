// The broadphase: which shapes' bounding boxes overlap.
//
// Internal to Carom (namespace carom::detail); the World owns one BroadPhase
// and includes this header as "broadphase/broadphase.hpp".
//
// Proxies and fat boxes
// ---------------------
// Each shape has one proxy. The broadphase stores a *fat* box per proxy: the
// shape's tight box grown by kAabbMargin (static proxies get no margin: they
// do not move). A moving shape calls moveProxy every step; only when its tight
// box has left its fat box is the proxy re-inserted, with a new fat box grown
// by the margin and stretched along the step's displacement (the shape will
// probably keep moving that way). Most steps therefore re-insert nothing.
//
// Pairs
// -----
// Re-inserted, created and touched proxies are "moved". updatePairs reports
// every pair {moved proxy, any other proxy} whose fat boxes overlap, except
// static-vs-static pairs. Pairs between two proxies that did not move cannot
// have started to overlap, so together with the contacts the world already
// keeps, this is the complete set of overlapping pairs. The world removes a
// contact when the fat boxes stop overlapping; the broadphase keeps no pair
// set of its own.
//
// Two structures, one answer
// --------------------------
// BroadphaseType::Tree uses two dynamic AABB trees (static proxies in one,
// kinematic and dynamic in the other, so static-vs-static is never tested);
// BroadphaseType::SortAndSweep uses sort-and-sweep over a static and a movable
// list. Both decide overlap with the same exact predicate (aabbOverlaps on
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

#include <cstdint>
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

class BroadPhase {
public:
    explicit BroadPhase(BroadphaseType type);

    /// Adds a proxy for shape `shapeIndex` (>= 0, one proxy per shape) with
    /// the shape's tight box. Returns the proxy id (small ints, reused after
    /// destroyProxy). The proxy takes part in the next updatePairs.
    /// Throws Error(InvalidArgument) for a non-finite, inverted or
    /// out-of-range (beyond 1e15) box or a negative shape index.
    int createProxy(const AABB& aabb, ProxyType type, int shapeIndex, uint64_t categoryBits);
    void destroyProxy(int proxy);

    /// Once per step per shape of a moving body: its tight box and the body's
    /// displacement this step. Re-inserts only when the tight box has left the
    /// fat box; the new fat box is the tight box grown by kAabbMargin and
    /// extended by the displacement (lower side for negative components, upper
    /// side for positive ones). Returns true when it re-inserted (and queued
    /// the proxy for the next updatePairs). Throws Error(InvalidArgument) for
    /// bad boxes as createProxy, or a non-finite displacement.
    bool moveProxy(int proxy, const AABB& aabb, Vec2 displacement);
    /// Queues the proxy for the next pair search (filter change, wake-up).
    void touchProxy(int proxy);
    /// Body type change. Moves the proxy between the static and movable
    /// structures and queues it. The fat box is kept.
    void setProxyType(int proxy, ProxyType type);
    void setCategoryBits(int proxy, uint64_t bits);

    const AABB& fatAABB(int proxy) const { return proxies_[proxy].fat; }
    int shapeIndex(int proxy) const { return proxies_[proxy].shape; }
    ProxyType proxyType(int proxy) const { return proxies_[proxy].type; }
    uint64_t categoryBits(int proxy) const { return proxies_[proxy].categoryBits; }
    bool isMoved(int proxy) const { return proxies_[proxy].moveIndex >= 0; }
    int movedCount() const { return static_cast<int>(moveBuffer_.size()); }

    /// Finds every pair (moved proxy, any proxy; never static-vs-static)
    /// whose fat boxes overlap, each once, sorts them by (shapeA, shapeB),
    /// calls accept(shapeA, shapeB) -> bool on each in that order and appends
    /// the accepted ones to `out` (not cleared: the caller owns and reuses it).
    /// Then clears the move queue. Allocates nothing once warmed up.
    template <class AcceptFn>
    void updatePairs(AcceptFn&& accept, std::vector<BroadphasePair>& out);

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
    struct Proxy {
        AABB fat{};
        uint64_t categoryBits = 0;
        int shape = -1;      ///< shape index; -1 when free
        int handle = -1;     ///< tree leaf (Tree); unused for sort-and-sweep
        int moveIndex = -1;  ///< index in moveBuffer_, -1 when not queued
        int nextFree = -1;
        ProxyType type = ProxyType::Static;
    };

    static int treeOf(ProxyType t) { return t == ProxyType::Static ? 0 : 1; }
    void checkProxy(int proxy, const char* what) const;
    void queueMove(int proxy);
    void collectCandidates();
    void collectQueryPairs();

    BroadphaseType type_;
    std::vector<Proxy> proxies_;
    int freeProxy_ = -1;
    int proxyCount_ = 0;
    std::vector<int> moveBuffer_;             ///< proxies to search; -1 = destroyed since
    std::vector<BroadphasePair> candidates_;  ///< scratch for updatePairs
    DynamicTree trees_[2];                    ///< [0] static, [1] kinematic + dynamic
    SweepAndPrune sap_;
};

// ---- templates -------------------------------------------------------------

template <class AcceptFn>
void BroadPhase::updatePairs(AcceptFn&& accept, std::vector<BroadphasePair>& out) {
    collectCandidates();  // flushes, fills candidates_ sorted, clears the move queue
    for (const BroadphasePair& p : candidates_) {
        if (accept(p.shapeA, p.shapeB)) out.push_back(p);
    }
}

template <class Fn>
void BroadPhase::query(const AABB& box, uint64_t maskBits, Fn&& fn) const {
    if (!isValid(box)) {
        throw Error(ErrorCode::InvalidArgument, "BroadPhase::query: box must be finite and ordered");
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
        trees_[0].query(box, maskBits, [&](int proxy) { return static_cast<bool>(fn(proxies_[proxy].shape)); });
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
        throw Error(ErrorCode::InvalidArgument,
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
void BroadPhase::shapeCast(const AABB& box, Vec2 translation, uint64_t maskBits,
                           Fn&& fn) const {
    if (!isValid(box) || !isFinite(translation)) {
        throw Error(ErrorCode::InvalidArgument,
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
