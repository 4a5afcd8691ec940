// Islands, sleeping and waking (see island.hpp for the design).
#include "engine/world/island.hpp"

#include <algorithm>

#include "engine/core/assert.hpp"
#include "engine/world/world_impl.hpp"

namespace carom::detail {

namespace {

int allocateIsland(WorldImpl& w) {
    int index;
    if (!w.freeIslands.empty()) {
        index = w.freeIslands.back();
        w.freeIslands.pop_back();
    } else {
        w.islands.emplace_back();
        index = int(w.islands.size()) - 1;
    }
    Island& isl = w.islands[size_t(index)];
    isl.alive = true;
    isl.awake = true;
    isl.bodies.clear();
    isl.constraintRemoveCount = 0;
    return index;
}

void freeIsland(WorldImpl& w, int index) {
    Island& isl = w.islands[size_t(index)];
    isl.alive = false;
    isl.bodies.clear();  // keeps capacity for the next island in this slot
    isl.constraintRemoveCount = 0;
    w.freeIslands.push_back(index);
}

void ensureStamps(WorldImpl& w) {
    auto& st = w.scratch.bodyStamp;
    if (st.size() < w.bodies.size()) st.resize(w.bodies.size(), 0u);
    if (++w.scratch.visitStamp == 0) {  // wrapped: clear all marks
        std::fill(st.begin(), st.end(), 0u);
        w.scratch.visitStamp = 1;
    }
}

// Whether every body of the island has been slow long enough, and none is
// touched or held by a kinematic body that is still moving.
bool isSleepCandidate(const WorldImpl& w, const Island& isl) {
    for (int bi : isl.bodies)
        if (w.bodies[size_t(bi)].sleepTime < kTimeToSleep) return false;
    auto moving = [&w](int other) {
        const Body& o = w.bodies[size_t(other)];
        return o.type == BodyType::Kinematic && o.awake && o.sleepTime < kTimeToSleep;
    };
    for (int bi : isl.bodies) {
        const Body& b = w.bodies[size_t(bi)];
        for (int ci : b.contacts) {
            const Contact& c = w.contacts[size_t(ci)];
            if ((c.flags & kContactTouching) && moving(c.bodyA == bi ? c.bodyB : c.bodyA))
                return false;
        }
        for (int ji : b.joints) {
            const Joint& j = w.joints[size_t(ji)];
            if (moving(j.bodyA == bi ? j.bodyB : j.bodyA)) return false;
        }
    }
    return true;
}

// Splits an island into its connected pieces (depth-first over linked
// contacts and joints). The first piece keeps the slot. Appends the piece
// slots to `pieces`.
void splitIsland(WorldImpl& w, int islandIndex, std::vector<int>& pieces) {
    auto& all = w.scratch.islandScratch;
    all = w.islands[size_t(islandIndex)].bodies;  // copy: the slot is rebuilt below
    auto& stack = w.scratch.islandStack;
    ensureStamps(w);
    const uint32_t stamp = w.scratch.visitStamp;
    auto& mark = w.scratch.bodyStamp;
    const bool awake = w.islands[size_t(islandIndex)].awake;
    bool first = true;
    for (int seed : all) {
        if (mark[size_t(seed)] == stamp) continue;
        int target = islandIndex;
        if (first) {
            w.islands[size_t(target)].bodies.clear();
            w.islands[size_t(target)].constraintRemoveCount = 0;
            first = false;
        } else {
            target = allocateIsland(w);
        }
        w.islands[size_t(target)].awake = awake;
        pieces.push_back(target);
        stack.clear();
        stack.push_back(seed);
        mark[size_t(seed)] = stamp;
        while (!stack.empty()) {
            const int bi = stack.back();
            stack.pop_back();
            w.islands[size_t(target)].bodies.push_back(bi);
            Body& b = w.bodies[size_t(bi)];
            b.islandId = target;
            for (int ci : b.contacts) {
                const Contact& c = w.contacts[size_t(ci)];
                if (!(c.flags & kContactLinked)) continue;
                const int other = c.bodyA == bi ? c.bodyB : c.bodyA;
                if (mark[size_t(other)] == stamp) continue;
                mark[size_t(other)] = stamp;
                stack.push_back(other);
            }
            for (int ji : b.joints) {
                const Joint& j = w.joints[size_t(ji)];
                if (!j.islandLinked) continue;
                const int other = j.bodyA == bi ? j.bodyB : j.bodyA;
                if (mark[size_t(other)] == stamp) continue;
                mark[size_t(other)] = stamp;
                stack.push_back(other);
            }
        }
    }
}

void sleepBody(WorldImpl& w, int bi) {
    Body& b = w.bodies[size_t(bi)];
    if (!b.awake) return;
    b.awake = false;
    b.isFast = false;
    b.v = {0.0f, 0.0f};
    b.w = 0.0f;
    b.force = {0.0f, 0.0f};
    b.torque = 0.0f;
    removeAwakeBody(w, bi);
}

void sleepIsland(WorldImpl& w, int islandIndex) {
    Island& isl = w.islands[size_t(islandIndex)];
    isl.awake = false;
    for (int bi : isl.bodies) sleepBody(w, bi);
}

}  // namespace

void addAwakeBody(WorldImpl& w, int bi) {
    Body& b = w.bodies[size_t(bi)];
    if (b.awakeIndex >= 0 || b.type == BodyType::Static) return;
    b.awakeIndex = w.awakeSlot[size_t(bi)] = int(w.awakeBodies.size());
    w.awakeBodies.push_back(bi);
}

void removeAwakeBody(WorldImpl& w, int bi) {
    Body& b = w.bodies[size_t(bi)];
    if (b.awakeIndex < 0) return;
    const int last = w.awakeBodies.back();
    w.awakeBodies[size_t(b.awakeIndex)] = last;
    w.bodies[size_t(last)].awakeIndex = w.awakeSlot[size_t(last)] = b.awakeIndex;
    w.awakeBodies.pop_back();
    b.awakeIndex = w.awakeSlot[size_t(bi)] = -1;
}

void createIslandForBody(WorldImpl& w, int bi) {
    const int index = allocateIsland(w);
    Body& b = w.bodies[size_t(bi)];
    w.islands[size_t(index)].bodies.push_back(bi);
    w.islands[size_t(index)].awake = b.awake;
    b.islandId = index;
}

void removeBodyFromIsland(WorldImpl& w, int bi) {
    Body& b = w.bodies[size_t(bi)];
    if (b.islandId < 0) return;
    Island& isl = w.islands[size_t(b.islandId)];
    auto it = std::find(isl.bodies.begin(), isl.bodies.end(), bi);
    if (it != isl.bodies.end()) isl.bodies.erase(it);
    if (isl.bodies.empty())
        freeIsland(w, b.islandId);
    else
        ++isl.constraintRemoveCount;
    b.islandId = -1;
}

void linkBodies(WorldImpl& w, int bodyA, int bodyB) {
    wakeIslandOf(w, bodyA, false);
    wakeIslandOf(w, bodyB, false);
    int ia = w.bodies[size_t(bodyA)].islandId;
    int ib = w.bodies[size_t(bodyB)].islandId;
    if (ia < 0 || ib < 0 || ia == ib) return;
    // Merge the smaller island into the larger (ties: into the lower slot).
    const size_t na = w.islands[size_t(ia)].bodies.size();
    const size_t nb = w.islands[size_t(ib)].bodies.size();
    if (nb > na || (nb == na && ib < ia)) std::swap(ia, ib);
    Island& big = w.islands[size_t(ia)];
    Island& small = w.islands[size_t(ib)];
    for (int bi : small.bodies) {
        big.bodies.push_back(bi);
        w.bodies[size_t(bi)].islandId = ia;
    }
    big.constraintRemoveCount += small.constraintRemoveCount;
    freeIsland(w, ib);
}

void unlinkBodies(WorldImpl& w, int bodyA, int bodyB) {
    const int ia = w.bodies[size_t(bodyA)].islandId;
    const int ib = w.bodies[size_t(bodyB)].islandId;
    if (ia >= 0) ++w.islands[size_t(ia)].constraintRemoveCount;
    if (ib >= 0 && ib != ia) ++w.islands[size_t(ib)].constraintRemoveCount;
}

// Waking is all-or-nothing per island: a body never wakes alone, because its
// resting partners would not answer its pushes while asleep.
void wakeIslandOf(WorldImpl& w, int bi, bool resetTimer) {
    Body& b = w.bodies[size_t(bi)];
    // A disabled body stays out of the simulation until enableBody.
    if (b.type == BodyType::Static || !b.alive || !b.enabled) return;
    if (resetTimer) b.sleepTime = 0.0f;
    if (b.islandId >= 0) {
        Island& isl = w.islands[size_t(b.islandId)];
        if (isl.awake && b.awake) return;
        isl.awake = true;
        for (int other : isl.bodies) {
            Body& o = w.bodies[size_t(other)];
            o.sleepTime = 0.0f;
            if (!o.awake) {
                o.awake = true;
                addAwakeBody(w, other);
            }
        }
        return;
    }
    if (b.awake) return;
    // A kinematic body: wake it and whatever rests on it or hangs from it,
    // since it may move now.
    b.awake = true;
    addAwakeBody(w, bi);
    for (int ci : b.contacts) {
        const Contact& c = w.contacts[size_t(ci)];
        if (!(c.flags & kContactTouching)) continue;
        const int other = c.bodyA == bi ? c.bodyB : c.bodyA;
        if (w.bodies[size_t(other)].type == BodyType::Dynamic) wakeIslandOf(w, other);
    }
    for (int ji : b.joints) {
        const Joint& j = w.joints[size_t(ji)];
        const int other = j.bodyA == bi ? j.bodyB : j.bodyA;
        if (w.bodies[size_t(other)].type == BodyType::Dynamic) wakeIslandOf(w, other);
    }
}

void sleepIslandOf(WorldImpl& w, int bi, bool recordEvents) {
    (void)recordEvents;
    Body& b = w.bodies[size_t(bi)];
    if (b.type == BodyType::Static) return;
    if (b.islandId >= 0)
        sleepIsland(w, b.islandId);
    else
        sleepBody(w, bi);
}

// The sleep stage, over the bodies that were awake in this step's solver:
//   each island is visited once (stamp), in solver order;
//   a candidate with removed links is split, and every piece that is
//   still a candidate sleeps; a lone kinematic body sleeps by its own timer.
void updateSleep(WorldImpl& w) {
    if (!w.def.enableSleep) return;
    auto& pieces = w.scratch.wokenScratch;
    const unsigned pass = ++w.sleepPass;
    const StepScratch& S = w.scratch;
    // The step's move event of a body that falls asleep says so. Every body
    // of an awake island is a body of this step: its stepIndex is current.
    auto fellAsleep = [&w, &S](int bi) {
        const size_t e = S.moveEventBase + size_t(w.bodies[size_t(bi)].stepIndex);
        CAROM_ASSERT(e < w.moveEvents.size() && w.moveEvents[e].body.index == bi);
        w.moveEvents[e].fellAsleep = true;
    };
    for (size_t i = 0; i < S.stepBodies.size(); ++i) {
        // A body that has not been slow for kTimeToSleep keeps its island
        // awake (isSleepCandidate) and cannot sleep alone: skipped from the
        // dense flag, without its record (the island is looked at again
        // from any of its sleepy bodies; a visit changes nothing but the
        // stamp).
        if (!(S.bodyFlags[i] & kBodySleepy)) continue;
        const int bi = S.stepBodies[i];
        Body& b = w.bodies[size_t(bi)];
        CAROM_ASSERT(b.sleepTime >= kTimeToSleep);
        if (!b.awake) continue;
        if (b.islandId < 0) {
            if (b.type == BodyType::Kinematic) {
                sleepBody(w, bi);
                fellAsleep(bi);
            }
            continue;
        }
        const int islandIndex = b.islandId;
        if (w.islands[size_t(islandIndex)].sleepPass == pass) continue;
        w.islands[size_t(islandIndex)].sleepPass = pass;
        if (!isSleepCandidate(w, w.islands[size_t(islandIndex)])) continue;
        pieces.clear();
        if (w.islands[size_t(islandIndex)].constraintRemoveCount > 0)
            splitIsland(w, islandIndex, pieces);
        else
            pieces.push_back(islandIndex);
        for (int p : pieces)
            if (isSleepCandidate(w, w.islands[size_t(p)])) {
                sleepIsland(w, p);
                for (int sb : w.islands[size_t(p)].bodies) fellAsleep(sb);
            }
    }
}

int islandCount(const WorldImpl& w) {
    return int(w.islands.size() - w.freeIslands.size());
}

int awakeIslandCount(const WorldImpl& w) {
    int n = 0;
    for (const Island& isl : w.islands)
        if (isl.alive && isl.awake) ++n;
    return n;
}

}  // namespace carom::detail
