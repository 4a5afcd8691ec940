// Dynamic AABB tree: insertion, removal, rotations and rebuild.
// See dynamic_tree.hpp for the design.
#include "broadphase/dynamic_tree.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace carom::detail {

namespace {

[[noreturn]] void fail(const std::string& what) {
    throw std::logic_error("DynamicTree::validate: " + what);
}

}  // namespace

void DynamicTree::stackOverflow() {
    throw Error(ErrorCode::LimitExceeded, "DynamicTree: traversal stack overflow");
}

// ---- node pool ---------------------------------------------------------------

int DynamicTree::allocateNode() {
    if (freeList_ == kNullNode) {
        nodes_.emplace_back();
        int index = static_cast<int>(nodes_.size()) - 1;
        return index;
    }
    int index = freeList_;
    freeList_ = nodes_[index].parent;
    nodes_[index] = TreeNode{};
    return index;
}

void DynamicTree::freeNode(int index) {
    TreeNode& n = nodes_[index];
    n = TreeNode{};
    n.parent = freeList_;
    n.height = -1;
    freeList_ = index;
}

// ---- public operations -------------------------------------------------------

int DynamicTree::createLeaf(const AABB& box, uint64_t categoryBits, int userId) {
    int leaf = allocateNode();
    TreeNode& n = nodes_[leaf];
    n.box = box;
    n.categoryBits = categoryBits;
    n.userId = userId;
    n.height = 0;
    n.pending = static_cast<int>(pending_.size());
    pending_.push_back(leaf);
    ++leafCount_;
    return leaf;
}

void DynamicTree::destroyLeaf(int leaf) {
    TreeNode& n = nodes_[leaf];
    if (n.pending >= 0) {
        // Swap-remove from the pending list.
        int last = pending_.back();
        pending_[n.pending] = last;
        nodes_[last].pending = n.pending;
        pending_.pop_back();
    } else {
        removeLeaf(leaf);
    }
    freeNode(leaf);
    --leafCount_;
}

// Box2D v3's b2DynamicTree_EnlargeProxy: the leaf takes its new box and every
// ancestor grows to contain it (stopping once a box already does) and is
// flagged up to the first ancestor already flagged. No node moves, so a step
// that re-fits thousands of proxies costs a walk up each, and flush() rebuilds
// the flagged part once.
void DynamicTree::moveLeaf(int leaf, const AABB& box) {
    TreeNode& n = nodes_[leaf];
    n.box = box;
    if (n.pending >= 0) return;
    if (!n.enlarged) {
        n.enlarged = true;
        enlarged_.push_back(leaf);
    }
    int index = n.parent;
    while (index != kNullNode) {
        TreeNode& a = nodes_[index];
        const bool contains = aabbContains(a.box, box);
        if (!contains) a.box = aabbUnion(a.box, box);
        if (contains && a.enlarged) break;  // this box and the flags above are already right
        a.enlarged = true;
        index = a.parent;
    }
}

void DynamicTree::setCategoryBits(int leaf, uint64_t bits) {
    nodes_[leaf].categoryBits = bits;
    if (nodes_[leaf].pending >= 0) return;
    // Ancestors hold the or of their children: recompute up the path (bits
    // may have been cleared, so or-ing in is not enough).
    for (int index = nodes_[leaf].parent; index != kNullNode; index = nodes_[index].parent) {
        refit(index);
    }
}

void DynamicTree::flush() {
    const int tasks = beginFlush();
    for (int k = 0; k < tasks; ++k) buildTask(k);
    endFlush();
}

int DynamicTree::beginFlush() {
    if (pending_.empty() && enlarged_.empty()) return 0;
    const int count = static_cast<int>(pending_.size());
    if (count >= kRebuildMinLeaves && 4 * count >= leafCount_) {
        gatherFull();
        return beginBuild(true);
    }
    const int moved = static_cast<int>(enlarged_.size());
    if (moved + count >= kRebuildMinLeaves && 8 * (moved + count) >= leafCount_) {
        gatherPartial();
        return beginBuild(false);
    }
    // Few moved leaves: remove them all (each removal refits its path, so once
    // the last is out every box is exact again), then insert them back.
    int kept = 0;
    for (int leaf : enlarged_) {
        TreeNode& n = nodes_[leaf];
        if (!n.enlarged || !n.isLeaf() || n.height != 0 || n.pending >= 0) continue;  // stale entry
        n.enlarged = false;
        removeLeaf(leaf);
        enlarged_[kept++] = leaf;
    }
    enlarged_.resize(kept);
    for (int leaf : enlarged_) insertLeaf(leaf);
    enlarged_.clear();
    for (int leaf : pending_) {
        nodes_[leaf].pending = -1;
        insertLeaf(leaf);
    }
    pending_.clear();
    return 0;
}

void DynamicTree::buildTask(int task) {
    TopRange& t = top_[size_t(tasks_[size_t(task)])];
    t.root = buildRange(t.begin, t.end, buildMedian_);
}

void DynamicTree::endFlush() {
    if (!building_) return;
    building_ = false;
    topCursor_ = 0;
    root_ = linkTop(0, static_cast<int>(buildItems_.size()));
    nodes_[root_].parent = kNullNode;
    if (buildMedian_) return;
    // A partial build over subtrees of unequal height can grow the tree;
    // past 2 * ceil(log2 n) + 2 a full rebuild restores ceil(log2 n).
    int log2n = 0;
    while ((1 << log2n) < leafCount_) ++log2n;
    if (nodes_[root_].height > 2 * log2n + 2) rebuild();
}

// ---- insertion ---------------------------------------------------------------

// Branch and bound over the tree for the sibling S that minimises the total
// perimeter added when D (the new box) becomes S's sibling:
//
//   cost(S) = perimeter(S ∪ D)                      the new parent
//           + Σ over S's ancestors A of (perimeter(A ∪ D) - perimeter(A))
//                                                   the "inherited" growth
//
// Descending into a child C can at best cost
//   inherited + perimeter(C ∪ D) - perimeter(C) + perimeter(D)
// (the grown C plus a parent at least as big as D), which bounds the subtree.
// Ties between children are broken by the distance of their centres to D,
// then by height. Exact cost ties prefer the deeper candidate and keep
// descending: identical boxes (all costs equal) then fill the shallowest
// leaves, as a balanced tree would, instead of stacking up at the root.
int DynamicTree::findBestSibling(const AABB& boxD) const {
    const Vec2 centerD = aabbCenter(boxD);
    const float areaD = aabbPerimeter(boxD);

    int index = root_;
    float areaBase = aabbPerimeter(nodes_[index].box);
    float directCost = aabbPerimeter(aabbUnion(nodes_[index].box, boxD));
    float inheritedCost = 0.0f;
    int best = index;
    float bestCost = directCost;

    while (!nodes_[index].isLeaf()) {
        const TreeNode& n = nodes_[index];
        // Cost of making this internal node the sibling.
        float cost = directCost + inheritedCost;
        if (cost <= bestCost) {
            best = index;
            bestCost = cost;
        }
        // Every descendant inherits this node's growth.
        inheritedCost += directCost - areaBase;

        const TreeNode& c1 = nodes_[n.child1];
        const TreeNode& c2 = nodes_[n.child2];
        const bool leaf1 = c1.isLeaf();
        const bool leaf2 = c2.isLeaf();
        const float inf = std::numeric_limits<float>::infinity();

        float direct1 = aabbPerimeter(aabbUnion(c1.box, boxD));
        float area1 = 0.0f;
        float lower1 = inf;
        if (leaf1) {
            float cost1 = direct1 + inheritedCost;
            if (cost1 <= bestCost) {
                best = n.child1;
                bestCost = cost1;
            }
        } else {
            area1 = aabbPerimeter(c1.box);
            lower1 = inheritedCost + direct1 + std::min(areaD - area1, 0.0f);
        }

        float direct2 = aabbPerimeter(aabbUnion(c2.box, boxD));
        float area2 = 0.0f;
        float lower2 = inf;
        if (leaf2) {
            float cost2 = direct2 + inheritedCost;
            if (cost2 <= bestCost) {
                best = n.child2;
                bestCost = cost2;
            }
        } else {
            area2 = aabbPerimeter(c2.box);
            lower2 = inheritedCost + direct2 + std::min(areaD - area2, 0.0f);
        }

        if (leaf1 && leaf2) break;
        if (bestCost < lower1 && bestCost < lower2) break;

        if (lower1 == lower2 && !leaf1 && !leaf2) {
            lower1 = lengthSquared(aabbCenter(c1.box) - centerD);
            lower2 = lengthSquared(aabbCenter(c2.box) - centerD);
            if (lower1 == lower2) {
                lower1 = static_cast<float>(c1.height);
                lower2 = static_cast<float>(c2.height);
            }
        }
        if (!leaf1 && (leaf2 || lower1 < lower2)) {
            index = n.child1;
            areaBase = area1;
            directCost = direct1;
        } else {
            index = n.child2;
            areaBase = area2;
            directCost = direct2;
        }
    }
    return best;
}

void DynamicTree::insertLeaf(int leaf) {
    if (root_ == kNullNode) {
        root_ = leaf;
        nodes_[leaf].parent = kNullNode;
        return;
    }
    const AABB box = nodes_[leaf].box;
    int sibling = findBestSibling(box);

    int oldParent = nodes_[sibling].parent;
    int newParent = allocateNode();
    {
        TreeNode& p = nodes_[newParent];
        p.parent = oldParent;
        p.child1 = sibling;
        p.child2 = leaf;
        p.box = aabbUnion(box, nodes_[sibling].box);
        p.categoryBits = nodes_[sibling].categoryBits | nodes_[leaf].categoryBits;
        p.height = nodes_[sibling].height + 1;
    }
    if (oldParent != kNullNode) {
        replaceChild(oldParent, sibling, newParent);
    } else {
        root_ = newParent;
    }
    nodes_[sibling].parent = newParent;
    nodes_[leaf].parent = newParent;

    // Walk back up: refit, improve by rotation, keep balanced.
    int index = newParent;
    while (index != kNullNode) {
        refit(index);
        rotate(index);
        index = balance(index);
        index = nodes_[index].parent;
    }
}

void DynamicTree::removeLeaf(int leaf) {
    if (leaf == root_) {
        root_ = kNullNode;
        return;
    }
    int parent = nodes_[leaf].parent;
    int grandParent = nodes_[parent].parent;
    int sibling = nodes_[parent].child1 == leaf ? nodes_[parent].child2 : nodes_[parent].child1;

    if (grandParent == kNullNode) {
        root_ = sibling;
        nodes_[sibling].parent = kNullNode;
        freeNode(parent);
        return;
    }
    replaceChild(grandParent, parent, sibling);
    nodes_[sibling].parent = grandParent;
    freeNode(parent);

    int index = grandParent;
    while (index != kNullNode) {
        refit(index);
        index = balance(index);
        index = nodes_[index].parent;
    }
}

void DynamicTree::replaceChild(int parent, int oldChild, int newChild) {
    TreeNode& p = nodes_[parent];
    if (p.child1 == oldChild) {
        p.child1 = newChild;
    } else {
        p.child2 = newChild;
    }
}

void DynamicTree::refit(int index) {
    TreeNode& n = nodes_[index];
    const TreeNode& a = nodes_[n.child1];
    const TreeNode& b = nodes_[n.child2];
    n.box = aabbUnion(a.box, b.box);
    n.categoryBits = a.categoryBits | b.categoryBits;
    n.height = 1 + std::max(a.height, b.height);
    n.enlarged = a.enlarged || b.enlarged;
}

// ---- rotations ---------------------------------------------------------------

// Tree rotation at A (children B and C) after Box2D v3 / Catto 2019: swap a
// child of A with a grandchild on the other side when that lowers the sum of
// perimeters of the internal nodes below A. A's own box cannot change.
//
//        A                  with B = (D, E) and C = (F, G) when internal:
//      /   \                  B<->F, B<->G  change C's box only
//     B     C                 C<->D, C<->E  change B's box only
//    / \   / \                D<->F, D<->G  change both
//   D   E F   G
void DynamicTree::rotate(int iA) {
    TreeNode& A = nodes_[iA];
    if (A.height < 2) return;
    const int iB = A.child1;
    const int iC = A.child2;
    const TreeNode& B = nodes_[iB];
    const TreeNode& C = nodes_[iC];

    enum Swap { None, BF, BG, CD, CE, DF, DG };
    Swap bestSwap = None;
    float bestCost = 0.0f;

    const bool leafB = B.isLeaf();
    const bool leafC = C.isLeaf();
    if (leafB && leafC) return;

    if (leafB || leafC) {
        // Only the leaf child can be swapped with a grandchild on the other side.
        const TreeNode& leafNode = leafB ? B : C;
        const TreeNode& inner = leafB ? C : B;
        float base = aabbPerimeter(inner.box);
        // Swapping the leaf with inner.child1 leaves inner = (leaf, child2).
        float cost1 = aabbPerimeter(aabbUnion(leafNode.box, nodes_[inner.child2].box));
        float cost2 = aabbPerimeter(aabbUnion(leafNode.box, nodes_[inner.child1].box));
        if (cost1 < base && cost1 <= cost2) {
            bestSwap = leafB ? BF : CD;
        } else if (cost2 < base) {
            bestSwap = leafB ? BG : CE;
        }
    } else {
        const int iD = B.child1, iE = B.child2, iF = C.child1, iG = C.child2;
        const AABB& bD = nodes_[iD].box;
        const AABB& bE = nodes_[iE].box;
        const AABB& bF = nodes_[iF].box;
        const AABB& bG = nodes_[iG].box;
        float areaB = aabbPerimeter(B.box);
        float areaC = aabbPerimeter(C.box);
        bestCost = areaB + areaC;
        auto consider = [&](Swap s, float cost) {
            if (cost < bestCost) {
                bestCost = cost;
                bestSwap = s;
            }
        };
        consider(BF, areaB + aabbPerimeter(aabbUnion(B.box, bG)));
        consider(BG, areaB + aabbPerimeter(aabbUnion(B.box, bF)));
        consider(CD, areaC + aabbPerimeter(aabbUnion(C.box, bE)));
        consider(CE, areaC + aabbPerimeter(aabbUnion(C.box, bD)));
        consider(DF, aabbPerimeter(aabbUnion(bF, bE)) + aabbPerimeter(aabbUnion(bD, bG)));
        consider(DG, aabbPerimeter(aabbUnion(bG, bE)) + aabbPerimeter(aabbUnion(bF, bD)));
    }
    if (bestSwap == None) return;

    // Swap node x (child of px) with node y (child of py), then refit py/px.
    auto swapNodes = [&](int x, int px, int y, int py) {
        replaceChild(px, x, y);
        replaceChild(py, y, x);
        nodes_[x].parent = py;
        nodes_[y].parent = px;
    };
    switch (bestSwap) {
        case BF:
            swapNodes(iB, iA, nodes_[iC].child1, iC);
            refit(iC);
            break;
        case BG:
            swapNodes(iB, iA, nodes_[iC].child2, iC);
            refit(iC);
            break;
        case CD:
            swapNodes(iC, iA, nodes_[iB].child1, iB);
            refit(iB);
            break;
        case CE:
            swapNodes(iC, iA, nodes_[iB].child2, iB);
            refit(iB);
            break;
        case DF:
            swapNodes(nodes_[iB].child1, iB, nodes_[iC].child1, iC);
            refit(iB);
            refit(iC);
            break;
        case DG:
            swapNodes(nodes_[iB].child1, iB, nodes_[iC].child2, iC);
            refit(iB);
            refit(iC);
            break;
        case None:
            break;
    }
    refit(iA);
}

// AVL-style balance at A (Box2D v2.4): if one child is more than one level
// taller than the other, lift the taller child C to A's place and give A the
// shorter of C's children. Returns the index now at A's position.
int DynamicTree::balance(int iA) {
    TreeNode& A = nodes_[iA];
    if (A.isLeaf() || A.height < 2) return iA;
    const int iB = A.child1;
    const int iC = A.child2;
    int diff = nodes_[iC].height - nodes_[iB].height;
    if (diff >= -1 && diff <= 1) return iA;

    // Lift `up` (the taller child); `keep` is A's other child.
    const int up = diff > 1 ? iC : iB;
    const int keep = diff > 1 ? iB : iC;
    const int iF = nodes_[up].child1;
    const int iG = nodes_[up].child2;
    const int tall = nodes_[iF].height > nodes_[iG].height ? iF : iG;
    const int shortChild = tall == iF ? iG : iF;

    // up takes A's place.
    int parent = A.parent;
    nodes_[up].parent = parent;
    if (parent != kNullNode) {
        replaceChild(parent, iA, up);
    } else {
        root_ = up;
    }
    // up = (A, tall); A = (keep, shortChild).
    nodes_[up].child1 = iA;
    nodes_[up].child2 = tall;
    nodes_[iA].parent = up;
    nodes_[iA].child1 = keep;
    nodes_[iA].child2 = shortChild;
    nodes_[shortChild].parent = iA;
    nodes_[keep].parent = iA;
    nodes_[tall].parent = up;
    refit(iA);
    refit(up);
    return up;
}

// ---- rebuild -----------------------------------------------------------------

// Top-down build over all leaves:
//   build(items):  if one item: return its leaf
//                  split at the median centre along the longer axis of the
//                  centres' bounds; return node(build(left), build(right))
// nth_element keeps it O(n log n); ties are ordered by leaf index, so the
// result depends only on the input. Height ceil(log2 n).
void DynamicTree::rebuild() {
    gatherFull();
    const int tasks = beginBuild(true);
    for (int k = 0; k < tasks; ++k) buildTask(k);
    endFlush();
}

// Every leaf (pending or linked) becomes an item; every internal node is a
// spare (in index order), plus as many new nodes as the build needs.
void DynamicTree::gatherFull() {
    buildItems_.clear();
    spare_.clear();
    for (int i = 0; i < static_cast<int>(nodes_.size()); ++i) {
        TreeNode& n = nodes_[i];
        if (n.height < 0) continue;
        if (n.isLeaf()) {
            n.pending = -1;
            n.enlarged = false;
            buildItems_.push_back({aabbCenter(n.box), i});
        } else {
            spare_.push_back(i);
        }
    }
    enlarged_.clear();
    pending_.clear();
    root_ = kNullNode;
}

// Partial rebuild (Box2D v3's b2DynamicTree_Rebuild without fullBuild):
//   walk down from the root: an enlarged internal node becomes a spare and
//   its children are visited; anything else (a leaf, or an internal node
//   with no moved leaf below: its subtree is exact) becomes a build item.
//   pending leaves are items too. Build a new top over the items.
// The walk order depends only on the tree, so the result is deterministic.
int DynamicTree::gatherPartial() {
    buildItems_.clear();
    spare_.clear();
    if (root_ != kNullNode) {
        std::array<int, kStackSize> stack;
        int count = 0;
        stack[count++] = root_;
        while (count > 0) {
            const int index = stack[--count];
            TreeNode& n = nodes_[index];
            if (n.isLeaf() || !n.enlarged) {
                n.enlarged = false;  // a moved leaf: its box is exact
                buildItems_.push_back({aabbCenter(n.box), index});
                continue;
            }
            if (count + 2 > kStackSize) stackOverflow();
            stack[count++] = n.child1;
            stack[count++] = n.child2;
            spare_.push_back(index);
        }
    }
    for (int leaf : pending_) {
        nodes_[leaf].pending = -1;
        buildItems_.push_back({aabbCenter(nodes_[leaf].box), leaf});
    }
    pending_.clear();
    enlarged_.clear();
    root_ = kNullNode;
    return static_cast<int>(buildItems_.size());
}

// Sizes the spares to the items - 1 internal nodes of the build (a build
// over the gathered items needs at least as many as were freed), then splits
// the top ranges serially and returns the number of task ranges left.
int DynamicTree::beginBuild(bool median) {
    const int items = static_cast<int>(buildItems_.size());
    top_.clear();
    tasks_.clear();
    if (items == 0) return 0;
    const int need = items - 1;
    // Spares beyond the need cannot occur (a freed top over k items has k - 1
    // nodes), but a full rebuild of a tree with pending leaves needs more.
    while (static_cast<int>(spare_.size()) > need) {
        freeNode(spare_.back());
        spare_.pop_back();
    }
    while (static_cast<int>(spare_.size()) < need) spare_.push_back(allocateNode());
    building_ = true;
    buildMedian_ = median;
    planTop(0, items, 0, median);
    return static_cast<int>(tasks_.size());
}

int DynamicTree::planTop(int begin, int end, int depth, bool median) {
    const int index = static_cast<int>(top_.size());
    top_.push_back({begin, end, -1, kNullNode});
    if (end - begin <= kMinTaskItems || depth == kMaxTopDepth) {
        tasks_.push_back(index);
        return index;
    }
    const int mid = splitRange(begin, end, median);
    top_[size_t(index)].mid = mid;
    planTop(begin, mid, depth + 1, median);
    planTop(mid, end, depth + 1, median);
    return index;
}

// Replays planTop's pre-order walk over top_, linking the task roots.
int DynamicTree::linkTop(int begin, int end) {
    const TopRange t = top_[size_t(topCursor_++)];
    (void)begin;
    (void)end;
    if (t.mid < 0) return t.root;
    const int left = linkTop(t.begin, t.mid);
    const int right = linkTop(t.mid, t.end);
    const int index = spare_[size_t(t.mid - 1)];
    link(index, left, right);
    return index;
}

void DynamicTree::link(int index, int left, int right) {
    TreeNode& n = nodes_[index];
    n = TreeNode{};
    n.child1 = left;
    n.child2 = right;
    nodes_[left].parent = index;
    nodes_[right].parent = index;
    refit(index);
}

// Splits items [begin, end) along the longer axis of their centres' bounds
// and returns the split position (begin < mid < end). Partial rebuilds split
// at the middle of the bounds (Box2D v3's b2PartitionMid: one Hoare pass);
// when that leaves fewer than a quarter of the items on one side (or for a
// full rebuild) the median is taken instead, so the depth stays below
// log_{4/3} of the item count whatever the distribution. Ties in the median
// are ordered by node index: the result depends only on the input.
int DynamicTree::splitRange(int begin, int end, bool median) {
    const int count = end - begin;
    if (count == 2) return begin + 1;
    Vec2 lo = buildItems_[size_t(begin)].center;
    Vec2 hi = lo;
    for (int i = begin + 1; i < end; ++i) {
        lo = minVec(lo, buildItems_[size_t(i)].center);
        hi = maxVec(hi, buildItems_[size_t(i)].center);
    }
    const int axis = (hi.x - lo.x) >= (hi.y - lo.y) ? 0 : 1;
    if (!median) {
        const float pivot = 0.5f * (lo[axis] + hi[axis]);
        int i1 = begin, i2 = end;
        while (i1 < i2) {
            while (i1 < i2 && buildItems_[size_t(i1)].center[axis] < pivot) ++i1;
            while (i1 < i2 && buildItems_[size_t(i2 - 1)].center[axis] >= pivot) --i2;
            if (i1 < i2) {
                std::swap(buildItems_[size_t(i1)], buildItems_[size_t(i2 - 1)]);
                ++i1;
                --i2;
            }
        }
        const int small = std::min(i1 - begin, end - i1);
        if (4 * small >= count) return i1;
    }
    const int mid = begin + count / 2;
    std::nth_element(buildItems_.begin() + begin, buildItems_.begin() + mid,
                     buildItems_.begin() + end, [axis](const BuildItem& a, const BuildItem& b) {
                         if (a.center[axis] != b.center[axis])
                             return a.center[axis] < b.center[axis];
                         return a.leaf < b.leaf;
                     });
    return mid;
}

int DynamicTree::buildRange(int begin, int end, bool median) {
    if (end - begin == 1) return buildItems_[size_t(begin)].leaf;
    const int mid = splitRange(begin, end, median);
    const int left = buildRange(begin, mid, median);
    const int right = buildRange(mid, end, median);
    const int index = spare_[size_t(mid - 1)];
    link(index, left, right);
    return index;
}

// ---- validation --------------------------------------------------------------

void DynamicTree::validateNode(int index, int parent, int& leaves) const {
    if (index < 0 || index >= static_cast<int>(nodes_.size())) fail("child index out of range");
    const TreeNode& n = nodes_[index];
    if (n.height < 0) fail("free node linked into the tree");
    if (n.parent != parent) fail("parent link broken at node " + std::to_string(index));
    if (n.pending != -1) fail("pending leaf linked into the tree");
    if (n.isLeaf()) {
        if (n.child2 != kNullNode) fail("leaf with one child");
        if (n.height != 0) fail("leaf height not 0");
        if (!isValid(n.box)) fail("leaf box invalid");
        ++leaves;
        return;
    }
    const TreeNode& a = nodes_[n.child1];
    const TreeNode& b = nodes_[n.child2];
    validateNode(n.child1, index, leaves);
    validateNode(n.child2, index, leaves);
    if (n.height != 1 + std::max(a.height, b.height)) {
        fail("height inconsistent at node " + std::to_string(index));
    }
    if (!aabbContains(n.box, a.box) || !aabbContains(n.box, b.box)) {
        fail("node box does not contain a child at node " + std::to_string(index));
    }
    if ((n.categoryBits | a.categoryBits | b.categoryBits) != n.categoryBits) {
        fail("category bits do not cover a child at node " + std::to_string(index));
    }
    if (n.enlarged != (a.enlarged || b.enlarged)) {
        fail("enlarged flag is not the or of the children's at node " + std::to_string(index));
    }
}

void DynamicTree::validate() const {
    int leaves = 0;
    if (root_ != kNullNode) validateNode(root_, kNullNode, leaves);
    for (int i = 0; i < static_cast<int>(pending_.size()); ++i) {
        const TreeNode& n = nodes_[pending_[i]];
        if (n.pending != i || !n.isLeaf() || n.height != 0) fail("pending list inconsistent");
        ++leaves;
    }
    if (leaves != leafCount_) fail("leaf count mismatch");
    int freeCount = 0;
    for (int i = freeList_; i != kNullNode; i = nodes_[i].parent) {
        if (nodes_[i].height != -1) fail("free list holds a live node");
        if (++freeCount > static_cast<int>(nodes_.size())) fail("free list has a cycle");
    }
    // Every node is live-and-reachable or free: leaves + (leaves - 1) internal.
    int linkedLeaves = leafCount_ - static_cast<int>(pending_.size());
    int internal = linkedLeaves > 0 ? linkedLeaves - 1 : 0;
    if (leafCount_ + internal + freeCount != static_cast<int>(nodes_.size())) {
        fail("node count mismatch (leak)");
    }
}

}  // namespace carom::detail
