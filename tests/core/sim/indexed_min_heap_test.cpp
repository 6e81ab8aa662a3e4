#include "sim/indexed_min_heap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace ws {
namespace {

// Random sets, moves and erases against a sorted list of (key, id): the heap pops in exactly
// that order, equal keys by id (the event loop's determinism rests on it).
TEST(IndexedMinHeap, PopsByKeyThenIdAfterAnyMixOfSetsAndErases) {
    std::mt19937 rng(20261206);
    for (int trial = 0; trial < 50; ++trial) {
        const int capacity = 1 + trial * 7;
        IndexedMinHeap heap(static_cast<std::size_t>(capacity));
        std::vector<std::pair<double, int>> expected; // (key, id) of the ids present
        std::uniform_int_distribution<int> idPick(0, capacity - 1);
        std::uniform_int_distribution<int> keyPick(0, 5); // few keys: many ties
        for (int change = 0; change < 4 * capacity; ++change) {
            const int id = idPick(rng);
            const auto present =
                std::find_if(expected.begin(), expected.end(),
                             [&](const auto& entry) { return entry.second == id; });
            if (present != expected.end() && change % 3 == 0) {
                heap.erase(id);
                expected.erase(present);
                continue;
            }
            const double key = keyPick(rng);
            heap.set(id, key);
            if (present != expected.end())
                present->first = key;
            else
                expected.emplace_back(key, id);
        }
        std::sort(expected.begin(), expected.end());
        ASSERT_EQ(heap.size(), expected.size());
        for (const auto& [key, id] : expected) {
            ASSERT_TRUE(heap.contains(id));
            EXPECT_EQ(heap.topKey(), key) << "trial " << trial;
            EXPECT_EQ(heap.topId(), id) << "trial " << trial;
            heap.pop();
            EXPECT_FALSE(heap.contains(id));
        }
        EXPECT_TRUE(heap.empty());
    }
}

} // namespace
} // namespace ws
