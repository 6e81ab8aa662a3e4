// docs/search.md "Families": what splits the model beyond data parallelism, in precedence order.
#include "search/strategy_family.h"

#include "io/scenario_io.h"

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

TEST(StrategyFamily, TheFamiliesAreListedInPrecedenceOrder) {
    EXPECT_EQ(strategyFamilies(),
              (std::vector<std::string>{"tatp", "fsdp_hybrid", "tp_sp", "sp", "pp", "dp"}));
}

// A family's best is never worse than what the search simulated for it: the search's top count
// even when they are not among their family's best analytical candidates (here there are none,
// so nothing is simulated again and the figures are the top's own).
TEST(StrategyFamily, TheSearchsSimulatedTopCountWhateverTheAnalyticalOrder) {
    const Scenario scenario = parseScenario(R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 2, "cols": 2},
        "workload": {"kind": "gemm", "m": 1024, "k": 1024, "n": 1024},
        "strategy": {"dp": 4}})");
    const WaferTopology topology(scenario.topologySpec());
    SearchResult result;
    StrategyScore tatp;
    tatp.strategy = strategyOf(1, 2, 1, 1, 2, false);
    tatp.label = "dp 2 x tatp 2";
    tatp.simulatedStepS = 2.0;
    StrategyScore dp;
    dp.strategy = strategyOf(1, 4, 1, 1, 1, false);
    dp.label = "dp 4";
    dp.simulatedStepS = 3.0;
    StrategyScore tooBig = dp;
    tooBig.label = "dp 4, out of memory";
    tooBig.simulatedStepS = 1.0;
    tooBig.outOfMemory = true;
    result.top = {tatp, tooBig, dp};
    const std::vector<FamilyBest> families = familyBests(scenario, topology, result);
    ASSERT_EQ(families.size(), 2u);
    EXPECT_EQ(families[0].family, "tatp");
    EXPECT_EQ(families[0].score.simulatedStepS, 2.0);
    EXPECT_EQ(families[1].family, "dp");
    EXPECT_EQ(families[1].score.label, "dp 4"); // out of memory: not a family's best
}

} // namespace
} // namespace ws
