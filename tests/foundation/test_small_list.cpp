// SmallIntList (engine/core/small_list.hpp) against std::vector on random
// operations: every push, pop, swap-remove, copy, move, resize and reserve
// must leave the same ints in the same order, across the inline/heap limit.
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/small_list.hpp"

using carom::detail::SmallIntList;

namespace {

void expectSame(const SmallIntList& got, const std::vector<int>& want) {
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(got.empty(), want.empty());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << "at " << i;
    EXPECT_EQ(std::vector<int>(got.begin(), got.end()), want);
}

}  // namespace

TEST(SmallIntList, MatchesVectorOnRandomOperations) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        SmallIntList list;
        std::vector<int> ref;
        for (int op = 0; op < 60; ++op) {
            const int kind = int(rng() % 8);
            if (kind <= 2) {
                const int x = int(rng());
                list.push_back(x);
                ref.push_back(x);
            } else if (kind == 3 && !ref.empty()) {
                // Removal by swap with the last, as a body's shape list does.
                const size_t slot = rng() % ref.size();
                list[slot] = list.back();
                list.pop_back();
                ref[slot] = ref.back();
                ref.pop_back();
            } else if (kind == 4) {
                SmallIntList copy(list);
                list = std::move(copy);
            } else if (kind == 5) {
                SmallIntList moved(std::move(list));
                EXPECT_TRUE(list.empty());
                list = moved;  // copy back; `moved` still owns its own storage
            } else if (kind == 6) {
                const size_t n = rng() % 10;
                list.resize(n);
                ref.resize(n, 0);
            } else {
                list.reserve(rng() % 12);
            }
            expectSame(list, ref);
        }
        list.clear();
        EXPECT_TRUE(list.empty());
    }
}

TEST(SmallIntList, KeepsUpToFourInsideTheObject) {
    SmallIntList list;
    for (int i = 0; i < SmallIntList::kInline; ++i) list.push_back(i);
    const auto* self = reinterpret_cast<const char*>(&list);
    const auto* first = reinterpret_cast<const char*>(list.data());
    EXPECT_TRUE(first >= self && first < self + sizeof(list)) << "4 ints must not need the heap";
    list.push_back(4);
    first = reinterpret_cast<const char*>(list.data());
    EXPECT_FALSE(first >= self && first < self + sizeof(list)) << "the 5th moves them to the heap";
    expectSame(list, {0, 1, 2, 3, 4});
}
