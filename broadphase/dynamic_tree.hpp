// A dynamic AABB tree: a binary bounding-volume hierarchy over boxes that
// move, appear and disappear.
//
// Why this structure
// ------------------
// Leaves hold the (fat) boxes of proxies; every internal node holds the exact
// union of its two children's boxes and the union (bitwise or) of their
// category bits. A query walks down from the root and skips a whole subtree as
// soon as its box misses, so a query touching k leaves costs about
// O(k + log n). The tree is rebuilt only locally: a leaf that moves is removed
// and re-inserted, which touches one root-to-leaf path.
//
// Quality matters more than anything else for speed. Insertion picks the
// sibling that adds the least total node perimeter (the surface area
// heuristic, SAH, in 2D), found by branch and bound; on the way back up every
// ancestor tries the grandchild swaps ("tree rotations") that lower the
// perimeter sum further. Both follow Erin Catto, "Dynamic Bounding Volume
// Hierarchies", GDC 2019, and Box2D v3's dynamic_tree.c. SAH alone can chain
// identical boxes into a list (all costs tie), so each ancestor is also
// height-balanced like an AVL node (Box2D v2.4's b2DynamicTree::Balance):
// heights stay O(log n) for every input.
//
// Creating thousands of proxies at once should not cost thousands of
// incremental insertions, so new leaves are parked in a pending list and
// flush() inserts them: one by one when few, or by a full top-down rebuild
// when they are many compared with the tree (see kRebuildMinLeaves). Queries
// are const and see pending leaves by checking them one by one.
//
// Storage: nodes live in one std::vector indexed by int with a free list
// threaded through `parent`; nothing is allocated once the vector has grown to
// the largest size the scene needs.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <carom/error.hpp>
#include <carom/geometry.hpp>
#include <carom/math.hpp>

#include "broadphase/box_math.hpp"

namespace carom::detail {

inline constexpr int kNullNode = -1;

struct TreeNode {
    AABB box{};                 ///< leaf: the proxy's fat box; internal: union of children
    uint64_t categoryBits = 0;  ///< leaf: the proxy's; internal: or of children
    int parent = kNullNode;     ///< free nodes: next free node
    int child1 = kNullNode;     ///< kNullNode for leaves
    int child2 = kNullNode;
    int userId = -1;   ///< leaves: the caller's proxy id
    int height = -1;   ///< leaf 0, internal 1 + max(children), free -1
    int pending = -1;  ///< index in the pending list, -1 once linked into the tree
    /// Leaf: its box changed since the last flush (moveLeaf). Internal: the
    /// or of its children's flags, so it lies on the path of such a leaf and
    /// its box may be larger than the union of its children's.
    bool enlarged = false;

    bool isLeaf() const { return child1 == kNullNode; }
};

class DynamicTree {
   public:
    /// Pending leaves trigger a full rebuild at flush() when there are at least
    /// this many and they are at least a quarter of all leaves; otherwise they
    /// are inserted one by one.
    static constexpr int kRebuildMinLeaves = 64;

    /// Adds a leaf (pending until flush()) and returns its node index.
    int createLeaf(const AABB& box, uint64_t categoryBits, int userId);
    void destroyLeaf(int leaf);
    /// Gives a leaf a new box in place: its ancestors grow to contain it and
    /// are flagged enlarged (the tree stays valid for queries, a little
    /// looser); flush() repairs the enlarged part.
    void moveLeaf(int leaf, const AABB& box);
    void setCategoryBits(int leaf, uint64_t bits);

    /// Links every pending leaf into the tree and repairs the part enlarged
    /// by moveLeaf: few moved leaves are removed and re-inserted (SAH); many
    /// (at least 1/8 of the leaves) trigger a partial rebuild: every enlarged
    /// internal node is freed and the moved leaves, the pending leaves and
    /// the untouched subtrees are built into a new top (split at the middle
    /// of the centres' bounds, or at the median when that split is lopsided).
    /// flush() = beginFlush(), buildTask(k) for every k, endFlush().
    void flush();
    /// The flush in three parts, so the rebuild's subtrees can be built by
    /// several threads: beginFlush() does the serial part and returns how
    /// many independent build tasks remain (0 when none); buildTask(k) for
    /// each k in [0, count), from any threads, in any order; endFlush()
    /// links their roots. The tree (node indices included) is the same
    /// whatever the order or the threads: every internal node takes a node
    /// index fixed by its split position before the tasks run.
    int beginFlush();
    void buildTask(int task);
    void endFlush();
    /// Rebuilds the whole tree top-down (median split along the longer axis
    /// of the leaf centres): O(n log n), height ceil(log2 n).
    void rebuild();

    const TreeNode& node(int index) const { return nodes_[index]; }
    int root() const { return root_; }
    int height() const { return root_ == kNullNode ? 0 : nodes_[root_].height; }
    int leafCount() const { return leafCount_; }
    bool hasPending() const { return !pending_.empty(); }

    /// Throws std::logic_error naming the first broken invariant.
    void validate() const;

    /// fn(userId) -> bool (false stops) for leaves whose box overlaps `box`
    /// and whose category bits meet maskBits. Returns false when stopped.
    template <class Fn>
    bool query(const AABB& box, uint64_t maskBits, Fn&& fn) const;

    /// Leaves hit by `mover` swept along translation within [0, maxFraction]
    /// (see sweptBoxHits). fn(userId, maxFraction) -> float as in the
    /// broadphase ray cast: 0 stops, a value in (0, maxFraction) clips. The
    /// current maxFraction is kept in `maxFraction`. Returns false when stopped.
    template <class Fn>
    bool cast(const AABB& mover, Vec2 translation, float& maxFraction, uint64_t maskBits,
              Fn&& fn) const;

    /// fn(box, depth, isLeaf) for every node (pending leaves at depth 0).
    template <class Fn>
    void forEachNode(Fn&& fn) const;

   private:
    friend struct SnapshotCodec;  // World::snapshot's byte form (engine/world/snapshot.cpp)
    int allocateNode();
    void freeNode(int index);
    void insertLeaf(int leaf);
    void removeLeaf(int leaf);
    int findBestSibling(const AABB& box) const;
    void refit(int index);
    void rotate(int index);
    int balance(int index);
    void replaceChild(int parent, int oldChild, int newChild);
    int splitRange(int begin, int end, bool median);
    int buildRange(int begin, int end, bool median);
    int planTop(int begin, int end, int depth, bool median);
    int linkTop(int begin, int end);
    int beginBuild(bool median);
    void link(int index, int left, int right);
    int gatherPartial();
    void gatherFull();
    void validateNode(int index, int parent, int& leaves) const;

    std::vector<TreeNode> nodes_;
    int root_ = kNullNode;
    int freeList_ = kNullNode;
    int leafCount_ = 0;
    std::vector<int> pending_;
    std::vector<int>
        enlarged_;  ///< leaves flagged by moveLeaf since the last flush (may hold stale entries)

    // Rebuild scratch, kept to avoid reallocation. An item is a leaf or, in
    // a partial rebuild, the root of a kept subtree.
    struct BuildItem {
        Vec2 center{0.0f, 0.0f};
        int leaf = kNullNode;
    };
    std::vector<BuildItem> buildItems_;
    /// Node indices for the internal nodes of a build over n items: the
    /// node whose split is at item position m (0 < m < n, each split
    /// position is used by exactly one node) takes spare_[m - 1].
    std::vector<int> spare_;
    /// The serially planned top of a build: ranges split before the tasks
    /// run (mid = -1: a task, whose root is written by buildTask).
    struct TopRange {
        int begin = 0;
        int end = 0;
        int mid = -1;
        int root = kNullNode;
    };
    std::vector<TopRange> top_;
    std::vector<int> tasks_;    ///< indices in top_ of the task ranges
    int topCursor_ = 0;         ///< linkTop's walk through top_
    bool building_ = false;     ///< between beginFlush and endFlush of a build
    bool buildMedian_ = false;  ///< the build in progress is a full rebuild
    /// A build splits ranges serially down to this many items (or 16 tasks)
    /// before handing subtrees to tasks.
    static constexpr int kMinTaskItems = 256;
    static constexpr int kMaxTopDepth = 4;

    // Traversal stack depth. Heights are AVL-bounded (about 1.44 log2 n), so
    // 256 covers any tree that fits in memory.
    static constexpr int kStackSize = 256;
    [[noreturn]] static void stackOverflow();
};

// ---- templates -------------------------------------------------------------

template <class Fn>
bool DynamicTree::query(const AABB& box, uint64_t maskBits, Fn&& fn) const {
    for (int leaf : pending_) {
        const TreeNode& n = nodes_[leaf];
        if ((n.categoryBits & maskBits) != 0 && aabbOverlaps(n.box, box)) {
            if (!fn(n.userId)) return false;
        }
    }
    if (root_ == kNullNode) return true;
    std::array<int, kStackSize> stack;
    int count = 0;
    stack[count++] = root_;
    while (count > 0) {
        const TreeNode& n = nodes_[stack[--count]];
        if (!(int((n.categoryBits & maskBits) != 0) & int(boxesMeet(n.box, box)))) continue;
        if (n.isLeaf()) {
            if (!fn(n.userId)) return false;
        } else {
            if (count + 2 > kStackSize) stackOverflow();
            stack[count++] = n.child1;
            stack[count++] = n.child2;
        }
    }
    return true;
}

template <class Fn>
bool DynamicTree::cast(const AABB& mover, Vec2 translation, float& maxFraction, uint64_t maskBits,
                       Fn&& fn) const {
    // Returns false when the callback stopped the cast.
    auto visitLeaf = [&](const TreeNode& n) {
        float value = fn(n.userId, maxFraction);
        if (value == 0.0f) return false;
        if (value > 0.0f && value < maxFraction) maxFraction = value;
        return true;
    };
    for (int leaf : pending_) {
        const TreeNode& n = nodes_[leaf];
        if ((n.categoryBits & maskBits) != 0 &&
            sweptBoxHits(n.box, mover, translation, maxFraction)) {
            if (!visitLeaf(n)) return false;
        }
    }
    if (root_ == kNullNode) return true;
    std::array<int, kStackSize> stack;
    int count = 0;
    stack[count++] = root_;
    while (count > 0) {
        const TreeNode& n = nodes_[stack[--count]];
        if ((n.categoryBits & maskBits) == 0 ||
            !sweptBoxHits(n.box, mover, translation, maxFraction)) {
            continue;
        }
        if (n.isLeaf()) {
            if (!visitLeaf(n)) return false;
        } else {
            if (count + 2 > kStackSize) stackOverflow();
            stack[count++] = n.child1;
            stack[count++] = n.child2;
        }
    }
    return true;
}

template <class Fn>
void DynamicTree::forEachNode(Fn&& fn) const {
    for (int leaf : pending_) fn(nodes_[leaf].box, 0, true);
    if (root_ == kNullNode) return;
    std::array<int, kStackSize> stack;
    std::array<int, kStackSize> depth;
    int count = 0;
    stack[count] = root_;
    depth[count++] = 0;
    while (count > 0) {
        --count;
        const TreeNode& n = nodes_[stack[count]];
        int d = depth[count];
        fn(n.box, d, n.isLeaf());
        if (!n.isLeaf()) {
            if (count + 2 > kStackSize) stackOverflow();
            stack[count] = n.child1;
            depth[count++] = d + 1;
            stack[count] = n.child2;
            depth[count++] = d + 1;
        }
    }
}

}  // namespace carom::detail
