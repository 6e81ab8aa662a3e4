// docs/search.md "Families": what splits the model beyond data parallelism, in precedence order.
#include "search/strategy_family.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

StrategySpec strategyOf(int pp, int dp, int sp, int tp, int tatp, bool fsdp) {
    StrategySpec s;
    s.pp = pp;
    s.dp = dp;
    s.sp = sp;
    s.tp = tp;
    s.tatp = tatp;
    s.fsdp = fsdp;
    return s;
}

TEST(StrategyFamily, EachStrategyHasOneFamilyInPrecedenceOrder) {
    EXPECT_EQ(strategyFamily(strategyOf(1, 6, 1, 1, 8, true)), "tatp");
    EXPECT_EQ(strategyFamily(strategyOf(1, 1, 1, 8, 2, false)), "tatp"); // TATP comes first
    EXPECT_EQ(strategyFamily(strategyOf(1, 6, 1, 8, 1, true)), "fsdp_hybrid");
    EXPECT_EQ(strategyFamily(strategyOf(1, 6, 2, 1, 1, true)), "fsdp_hybrid");
    EXPECT_EQ(strategyFamily(strategyOf(1, 6, 1, 8, 1, false)), "tp_sp");
    EXPECT_EQ(strategyFamily(strategyOf(1, 1, 2, 8, 1, true)), "tp_sp"); // FSDP over dp 1
    EXPECT_EQ(strategyFamily(strategyOf(1, 24, 2, 1, 1, false)), "sp");
    EXPECT_EQ(strategyFamily(strategyOf(4, 12, 1, 1, 1, true)), "pp");
    EXPECT_EQ(strategyFamily(strategyOf(1, 48, 1, 1, 1, true)), "dp");
    EXPECT_EQ(strategyFamily(strategyOf(1, 48, 1, 1, 1, false)), "dp");
}

} // namespace
} // namespace ws
