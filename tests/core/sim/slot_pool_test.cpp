#include "sim/slot_pool.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

// Slots stay put while held, freed ones are reused last freed first, and the pool grows only
// past its largest size.
TEST(SlotPool, ReusesTheLastFreedSlotAndKeepsTheOthers) {
    SlotPool<double> pool;
    EXPECT_EQ(pool.acquire(1.0), 0);
    EXPECT_EQ(pool.acquire(2.0), 1);
    EXPECT_EQ(pool.acquire(3.0), 2);
    pool.release(0);
    pool.release(2);
    EXPECT_EQ(pool.acquire(4.0), 2);
    EXPECT_EQ(pool.acquire(5.0), 0);
    EXPECT_EQ(pool.acquire(6.0), 3);
    EXPECT_EQ(pool[0], 5.0);
    EXPECT_EQ(pool[1], 2.0);
    EXPECT_EQ(pool[2], 4.0);
    EXPECT_EQ(pool[3], 6.0);
}

} // namespace
} // namespace ws
