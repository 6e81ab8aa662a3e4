#include "strategy/die_groups.h"
#include "strategy/die_role_swap.h"

#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "scenario/strategy_spec.h"
#include "strategy/placement.h"
#include "strategy_test_support.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

using test::mesh;

Scenario strategyScenario(nlohmann::json strategy) {
    Scenario scenario;
    scenario.wafer.rows = 4;
    scenario.wafer.cols = 4;
    scenario.workload =
        parseWorkload(nlohmann::json{{"kind", "gemm"}, {"m", 1024}, {"k", 1024}, {"n", 1024}}, {});
    scenario.strategy = parseStrategy(strategy);
    return scenario;
}

Scenario teachingTraffic() {
    Scenario scenario = loadScenario(WAFERSCOPE_SCENARIO_DIR "/contention_fsdp_tatp_4x4.json");
    return scenario;
}

TEST(DieGroups, ComeFromTheStrategysPlacement) {
    const WaferTopology topology = mesh(4, 4);
    // Sequential: (d, a) = (0,0), (0,1), (1,0), (1,1) on dies 0..3 (see placement.h).
    const DieGroups groups =
        dieGroups(strategyScenario({{"dp", 2}, {"tatp", 2}, {"fsdp", true}}), topology);
    EXPECT_EQ(groups.source, DieGroups::Source::Strategy);
    EXPECT_EQ(groups.dp, (std::vector<std::vector<DieId>>{{0, 2}, {1, 3}}));
    EXPECT_EQ(groups.tatp, (std::vector<std::vector<DieId>>{{0, 1}, {2, 3}}));
    EXPECT_EQ(groups.dpOfDie[3], 1);
    EXPECT_EQ(groups.tatpOfDie[3], 1);
    EXPECT_EQ(groups.dpOfDie[4], -1);
}

TEST(DieGroups, ComeFromXGroupsLabelsForExplicitTraffic) {
    const DieGroups groups = dieGroups(teachingTraffic(), mesh(4, 4));
    EXPECT_EQ(groups.source, DieGroups::Source::Labels);
    EXPECT_EQ(groups.dp, (std::vector<std::vector<DieId>>{{0, 2}, {1, 3}}));
    EXPECT_EQ(groups.tatp, (std::vector<std::vector<DieId>>{{0, 1}, {2, 3}}));
}

TEST(DieGroups, MalformedLabelsNameTheKey) {
    Scenario scenario = teachingTraffic();
    scenario.extensions["x-groups"]["dp"] = nlohmann::json::array({nlohmann::json::array({0, 99})});
    test::expectScenarioError([&] { dieGroups(scenario, mesh(4, 4)); }, "x-groups.dp[0]",
                              "die ids from 0 to 15");
}

TEST(DieRoleSwap, StrategyBecomesExplicitGroupsWithTheDiesTraded) {
    const WaferTopology topology = mesh(4, 4);
    const Scenario before = strategyScenario({{"dp", 2}, {"tatp", 2}, {"fsdp", true}});
    const Scenario after = swapDieRoles(before, topology, 1, 5); // die 5 was unused
    const StrategySpec spec = *after.strategy;
    EXPECT_EQ(spec.mapping, StrategySpec::Explicit);
    EXPECT_EQ(spec.dpGroups, (std::vector<std::vector<DieId>>{{0, 2}, {5, 3}}));
    EXPECT_EQ(spec.tatpGroups, (std::vector<std::vector<DieId>>{{0, 5}, {2, 3}}));
    EXPECT_EQ(dieGroups(after, topology).tatpOfDie[5], 0);
    EXPECT_EQ(dieGroups(after, topology).tatpOfDie[1], -1);
}

TEST(DieRoleSwap, SwappingTwiceRestoresThePlacement) {
    const WaferTopology topology = mesh(4, 4);
    const Scenario before = strategyScenario({{"dp", 2}, {"tatp", 2}});
    const Scenario twice = swapDieRoles(swapDieRoles(before, topology, 0, 3), topology, 0, 3);
    EXPECT_EQ(placeStrategy(*twice.strategy, topology).usedDies(),
              placeStrategy(*before.strategy, topology).usedDies());
}

TEST(DieRoleSwap, ExplicitTrafficAndLabelsAreRenumbered) {
    const Scenario before = teachingTraffic();
    const Scenario after = swapDieRoles(before, mesh(4, 4), 2, 6);
    // fsdp0 all-gathers over {0, 2}; now over {0, 6}. tatp23 now goes 6 -> 3.
    EXPECT_EQ(after.traffic[0].group, (std::vector<DieId>{0, 6}));
    const auto tatp23 = std::find_if(after.traffic.begin(), after.traffic.end(),
                                     [](const TrafficOp& op) { return op.id == "tatp23"; });
    ASSERT_NE(tatp23, after.traffic.end());
    EXPECT_EQ(tatp23->src, 6);
    EXPECT_EQ(tatp23->dst, 3);
    EXPECT_EQ(dieGroups(after, mesh(4, 4)).dp, (std::vector<std::vector<DieId>>{{0, 6}, {1, 3}}));
}

TEST(DieRoleSwap, PinnedRoutesThroughEitherDieAreDropped) {
    Scenario scenario = teachingTraffic();
    scenario.routing = RoutingSpec{};
    scenario.routing->paths["fsdp0/s0/r0"] = PinnedRoute{{0, 4, 5, 6, 2}, {}};
    scenario.routing->paths["tatp01"] = PinnedRoute{{0, 1}, {}};
    const Scenario after = swapDieRoles(scenario, mesh(4, 4), 2, 9);
    EXPECT_EQ(after.routing->paths.count("fsdp0/s0/r0"), 0u);
    EXPECT_EQ(after.routing->paths.count("tatp01"), 1u);
}

TEST(DieRoleSwap, RefusalsSayWhy) {
    const WaferTopology withDeadDie = mesh(4, 4, {7});
    const Scenario scenario = strategyScenario({{"dp", 2}, {"tatp", 2}});
    auto reason = [&](const Scenario& s, const WaferTopology& t, DieId a, DieId b) {
        try {
            swapDieRoles(s, t, a, b);
        } catch (const DieSwapRefused& refused) {
            return std::string(refused.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(reason(scenario, withDeadDie, 0, 7), "die 7 is dead: nothing can run there");
    EXPECT_EQ(reason(scenario, withDeadDie, 2, 2), "die 2 dropped on itself: nothing to change");
    EXPECT_EQ(reason(scenario, withDeadDie, 10, 11),
              "neither die 10 nor die 11 is used by the strategy");
    EXPECT_EQ(reason(strategyScenario({{"dp", 2}, {"tp", 2}}), mesh(4, 4), 0, 9),
              "moving dies writes explicit DP/TATP groups, which need sp = 1 and tp = 1 (this "
              "strategy has sp 1, tp 2)");
    EXPECT_EQ(reason(teachingTraffic(), mesh(4, 4), 12, 13),
              "neither die 12 nor die 13 sends or receives any traffic");
}

} // namespace
} // namespace ws
