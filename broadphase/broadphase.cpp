// The broadphase facade: proxy bookkeeping, the move queue and the pair
// search over either structure. See broadphase.hpp.
#include "broadphase/broadphase.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/core/assert.hpp"

namespace carom::detail {

namespace {

AABB grow(const AABB& b, float margin) {
    return {{b.lower.x - margin, b.lower.y - margin}, {b.upper.x + margin, b.upper.y + margin}};
}

// Relative to the shape's size (Box2D v3, shape.c): a small shape moving a
// margin's worth has moved far relative to its size, a big one has not; a
// fixed 0.1 m made tiny shapes' boxes mostly margin (many contacts that never
// touch) and left big ones re-fitting often. Fixed at creation.
float marginFor(ProxyType type, const AABB& tight) {
    if (type == ProxyType::Static) return 0.0f;
    const float halfExtent =
        0.5f * std::max(tight.upper.x - tight.lower.x, tight.upper.y - tight.lower.y);
    return std::min(kAabbMargin, kAabbMarginFraction * halfExtent);
}

// The box a movable proxy's fat box must contain: its tight box grown by the
// speculative distance, so that shapes near enough for speculative contact
// points always have overlapping fat boxes, and hence a contact.
AABB speculativeBox(ProxyType type, const AABB& tight) {
    return type == ProxyType::Static ? tight : grow(tight, kSpeculativeDistance);
}

}  // namespace

BroadPhase::BroadPhase(BroadphaseType type) : type_(type) {
    if (type != BroadphaseType::Tree && type != BroadphaseType::SortAndSweep) {
        detail::refuseWhy("type", "BroadPhase: unknown broadphase type");
    }
}

void BroadPhase::checkProxy(int proxy, const char* what) const {
    if (proxy < 0 || proxy >= static_cast<int>(proxies_.size()) || proxies_[proxy].shape < 0) {
        detail::refuseWhy("proxy", std::string(what) + ": no such proxy", ErrorCode::StaleId);
    }
}

void BroadPhase::queueMove(int proxy) {
    Proxy& p = proxies_[proxy];
    if (p.moveIndex >= 0) return;
    p.moveIndex = static_cast<int>(moveBuffer_.size());
    moveBuffer_.push_back(proxy);
}

int BroadPhase::createProxy(const AABB& aabb, ProxyType type, int shapeIndex, uint64_t categoryBits,
                            uint64_t pairMask) {
    requireUsableBox(aabb, "BroadPhase::createProxy", "aabb");
    if (shapeIndex < 0) {
        detail::refuseWhy("shapeIndex", "BroadPhase::createProxy: negative shape index");
    }
    if (type != ProxyType::Static && type != ProxyType::Kinematic && type != ProxyType::Dynamic) {
        detail::refuseWhy("type", "BroadPhase::createProxy: unknown proxy type");
    }
    const float margin = marginFor(type, aabb);
    const AABB fat = grow(speculativeBox(type, aabb), margin);
    requireUsableBox(fat, "BroadPhase::createProxy", "aabb");

    int proxy = freeProxy_;
    if (proxy >= 0) {
        freeProxy_ = proxies_[proxy].nextFree;
    } else {
        proxies_.emplace_back();
        proxy = static_cast<int>(proxies_.size()) - 1;
    }
    Proxy& p = proxies_[proxy];
    p = Proxy{};
    p.fat = fat;
    p.categoryBits = categoryBits;
    p.pairMask = pairMask;
    p.margin = margin;
    p.shape = shapeIndex;
    p.type = type;
    finishDeferredFlush();  // a tree changes only once flushed: the same trees as without the
                            // deferral
    if (type_ == BroadphaseType::Tree)
        p.handle = trees_[treeOf(type)].createLeaf(fat, categoryBits, proxy);
    sap_.insert(proxy, fat,
                type == ProxyType::Static);  // both kinds: the tree's sweep list (broadphase.hpp)
    ++proxyCount_;
    queueMove(proxy);
    return proxy;
}

void BroadPhase::destroyProxy(int proxy) {
    checkProxy(proxy, "BroadPhase::destroyProxy");
    Proxy& p = proxies_[proxy];
    if (p.moveIndex >= 0) moveBuffer_[p.moveIndex] = -1;
    finishDeferredFlush();
    if (type_ == BroadphaseType::Tree) trees_[treeOf(p.type)].destroyLeaf(p.handle);
    sap_.remove(proxy);
    p = Proxy{};
    p.nextFree = freeProxy_;
    freeProxy_ = proxy;
    --proxyCount_;
}

bool BroadPhase::moveProxy(int proxy, const AABB& aabb, Vec2 displacement) {
    checkProxy(proxy, "BroadPhase::moveProxy");
    requireUsableBox(aabb, "BroadPhase::moveProxy", "aabb");
    // The displacement does not shape the fat box, but it is still the
    // caller's claim about the motion: one beyond the coordinate range is as
    // wrong as a box beyond it.
    if (!isFinite(displacement) || std::fabs(displacement.x) > kBroadphaseMaxCoordinate ||
        std::fabs(displacement.y) > kBroadphaseMaxCoordinate) {
        detail::refuseWhy("displacement",
                          "BroadPhase::moveProxy: displacement must be finite and within 1e15");
    }
    Proxy& p = proxies_[proxy];
    const AABB needed = speculativeBox(p.type, aabb);
    if (aabbContains(p.fat, needed)) return false;
    requireUsableBox(grow(needed, p.margin), "BroadPhase::moveProxy", "aabb");
    refitFat(proxy, aabb);
    commitRefit(proxy);
    return true;
}

bool BroadPhase::refitFat(int proxy, const AABB& aabb) {
    Proxy& p = proxies_[size_t(proxy)];
    CAROM_ASSERT(p.shape >= 0 && isUsableBox(aabb));
    const AABB needed = speculativeBox(p.type, aabb);
    if (aabbContains(p.fat, needed)) return false;
    p.fat = grow(needed, p.margin);
    p.refitted = true;
    CAROM_ASSERT(isUsableBox(p.fat));
    return true;
}

void BroadPhase::commitRefit(int proxy) {
    CAROM_ASSERT(proxies_[size_t(proxy)].refitted);
    proxies_[size_t(proxy)].refitted = false;
    updateBox(proxy);
    queueMove(proxy);
}

bool BroadPhase::needsMove(int proxy, const AABB& aabb) const {
    const Proxy& p = proxies_[size_t(proxy)];
    return !aabbContains(p.fat, speculativeBox(p.type, aabb));
}

void BroadPhase::setFatAABB(int proxy, const AABB& fat, float margin) {
    checkProxy(proxy, "BroadPhase::setFatAABB");
    requireUsableBox(fat, "BroadPhase::setFatAABB", "fat");
    if (!(margin >= 0.0f) || !std::isfinite(margin))
        detail::refuseWhy("margin", "BroadPhase::setFatAABB: margin must be finite and >= 0");
    Proxy& p = proxies_[proxy];
    p.fat = fat;
    p.margin = margin;
    updateBox(proxy);
    queueMove(proxy);
}

// The proxy's new fat box into the structures. The tree kind's sweep lists
// are only marked stale (refreshSweep rewrites them before a sweep): a
// re-fit costs them nothing on the steps that search by queries.
void BroadPhase::updateBox(int proxy) {
    const Proxy& p = proxies_[proxy];
    if (type_ == BroadphaseType::Tree) {
        finishDeferredFlush();
        trees_[treeOf(p.type)].moveLeaf(p.handle, p.fat);
        sweepStale_[treeOf(p.type)] = true;
    } else {
        sap_.update(proxy, p.fat);
    }
}

void BroadPhase::refreshSweep() {
    for (int k = 0; k < 2; ++k) {
        if (!sweepStale_[k]) continue;
        sap_.refreshList(k == 0, [this](int proxy) { return proxies_[proxy].fat; });
        sweepStale_[k] = false;
    }
}

void BroadPhase::touchProxy(int proxy) {
    checkProxy(proxy, "BroadPhase::touchProxy");
    queueMove(proxy);
}

void BroadPhase::setProxyType(int proxy, ProxyType type) {
    checkProxy(proxy, "BroadPhase::setProxyType");
    if (type != ProxyType::Static && type != ProxyType::Kinematic && type != ProxyType::Dynamic) {
        detail::refuseWhy("type", "BroadPhase::setProxyType: unknown proxy type");
    }
    Proxy& p = proxies_[proxy];
    if (p.type == type) return;
    const int from = treeOf(p.type);
    const int to = treeOf(type);
    // A static proxy has no margin; one that starts moving gets its own.
    if (type == ProxyType::Static) {
        p.margin = 0.0f;
    } else if (p.type == ProxyType::Static) {
        p.margin = marginFor(type, p.fat);
    }
    p.type = type;
    if (from != to) {
        if (type_ == BroadphaseType::Tree) {
            finishDeferredFlush();
            trees_[from].destroyLeaf(p.handle);
            p.handle = trees_[to].createLeaf(p.fat, p.categoryBits, proxy);
        }
        sap_.setStatic(proxy, type == ProxyType::Static);
        // The entry moved with the box the list had (stale in a tree's
        // lists): give it the proxy's, whatever the new list's state.
        sap_.update(proxy, p.fat);
    }
    queueMove(proxy);
}

void BroadPhase::setCategoryBits(int proxy, uint64_t bits) {
    checkProxy(proxy, "BroadPhase::setCategoryBits");
    Proxy& p = proxies_[proxy];
    p.categoryBits = bits;
    finishDeferredFlush();
    if (type_ == BroadphaseType::Tree) trees_[treeOf(p.type)].setCategoryBits(p.handle, bits);
}

void BroadPhase::setPairMask(int proxy, uint64_t mask) {
    checkProxy(proxy, "BroadPhase::setPairMask");
    proxies_[proxy].pairMask = mask;
}

void BroadPhase::flush() {
    flushDeferred_ = false;
    if (type_ == BroadphaseType::Tree) {
        trees_[0].flush();
        trees_[1].flush();
        refreshSweep();
    }
    sap_.flush();
}

bool BroadPhase::deferFlush() {
    if (type_ != BroadphaseType::Tree || trees_[0].hasPending() || trees_[1].hasPending())
        return false;
    flushDeferred_ = true;
    return true;
}

void BroadPhase::finishDeferredFlush() {
    if (!flushDeferred_) return;
    flushDeferred_ = false;
    trees_[0].flush();
    trees_[1].flush();
}

void BroadPhase::rebuild() {
    flushDeferred_ = false;
    if (type_ == BroadphaseType::Tree) {
        trees_[0].rebuild();
        trees_[1].rebuild();
        refreshSweep();
    }
    sap_.rebuild();
}

int BroadPhase::height() const {
    if (type_ != BroadphaseType::Tree) return 0;
    return std::max(trees_[0].height(), trees_[1].height());
}

// Sorts the kept keys (shapeA << 32 | shapeB sorts as (shapeA, shapeB)) and
// clears the move queue.
void BroadPhase::finishCandidates() {
    std::sort(candidates_.keys.begin(), candidates_.keys.end());
    for (int m : moveBuffer_) {
        if (m >= 0) proxies_[m].moveIndex = -1;
    }
    moveBuffer_.clear();
}

void BroadPhase::validate() const {
    auto fail = [](const std::string& what) {
        throw std::logic_error("BroadPhase::validate: " + what);
    };
    int live = 0;
    for (int i = 0; i < static_cast<int>(proxies_.size()); ++i) {
        const Proxy& p = proxies_[i];
        if (p.shape < 0) continue;
        ++live;
        if (!isValid(p.fat)) fail("invalid fat box");
        if (p.moveIndex >= 0 && (p.moveIndex >= static_cast<int>(moveBuffer_.size()) ||
                                 moveBuffer_[p.moveIndex] != i)) {
            fail("move queue index broken");
        }
        if (type_ == BroadphaseType::Tree) {
            const TreeNode& n = trees_[treeOf(p.type)].node(p.handle);
            if (n.userId != i || !n.isLeaf() || n.height != 0) fail("proxy handle broken");
            if (n.box.lower != p.fat.lower || n.box.upper != p.fat.upper) fail("leaf box differs");
            if (n.categoryBits != p.categoryBits) fail("leaf category bits differ");
        }
        AABB b = sap_.box(i);
        const bool stale = type_ == BroadphaseType::Tree && sweepStale_[treeOf(p.type)];
        if (!stale && (b.lower != p.fat.lower || b.upper != p.fat.upper))
            fail("sweep entry box differs");
        if (sap_.isStatic(i) != (p.type == ProxyType::Static)) fail("sweep list differs");
    }
    if (live != proxyCount_) fail("proxy count mismatch");
    for (int i = 0; i < static_cast<int>(moveBuffer_.size()); ++i) {
        int m = moveBuffer_[i];
        if (m >= 0 && proxies_[m].moveIndex != i) fail("moved proxy not flagged");
    }
    int freeCount = 0;
    for (int i = freeProxy_; i >= 0; i = proxies_[i].nextFree) {
        if (proxies_[i].shape >= 0) fail("free list holds a live proxy");
        if (++freeCount > static_cast<int>(proxies_.size())) fail("free list cycle");
    }
    if (freeCount + live != static_cast<int>(proxies_.size())) fail("proxy leak");
    if (type_ == BroadphaseType::Tree) {
        trees_[0].validate();
        trees_[1].validate();
        if (trees_[0].leafCount() + trees_[1].leafCount() != proxyCount_) fail("leaf count");
    }
    sap_.validate();
    if (sap_.count() != proxyCount_) fail("sweep entry count");
}

}  // namespace carom::detail
