// docs/search.md "Nearest fitting strategies": what the app offers when a strategy no longer
// places on the hardware or runs out of memory.
#include "search/nearest_strategies.h"

#include "io/scenario_io.h"
#include "scenario/scenario_error.h"
#include "search/strategy_scoring.h"
#include "test_data_paths.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (const std::string& part : parts)
        text += (text.empty() ? "" : ", ") + part;
    return text;
}

// Every offer simulates, fits, differs from the strategy by what its text says, and the offers
// come fewest changes first, then fastest.
void expectWellFormedOffers(const Scenario& scenario, const std::vector<NearStrategy>& offers) {
    const WaferTopology topology(scenario.topologySpec());
    for (std::size_t i = 0; i < offers.size(); ++i) {
        const NearStrategy& offer = offers[i];
        ASSERT_TRUE(offer.score.simulatedStepS.has_value());
        EXPECT_FALSE(offer.score.outOfMemory) << offer.score.label;
        const std::vector<std::string> changes =
            strategyChanges(*scenario.strategy, offer.score.strategy);
        EXPECT_EQ(offer.changes, static_cast<int>(changes.size()));
        EXPECT_GE(offer.changes, 1);
        EXPECT_EQ(offer.changesText, joined(changes));
        const SimulatedStep step =
            simulateStep(withStrategy(scenario, offer.score.strategy), topology);
        EXPECT_DOUBLE_EQ(step.stepS, *offer.score.simulatedStepS) << offer.score.label;
        EXPECT_FALSE(step.outOfMemory);
        if (i > 0) {
            const NearStrategy& previous = offers[i - 1];
            EXPECT_TRUE(previous.changes < offer.changes ||
                        (previous.changes == offer.changes &&
                         *previous.score.simulatedStepS <= *offer.score.simulatedStepS))
                << previous.score.label << " before " << offer.score.label;
        }
    }
}

TEST(StrategyChanges, NamesEachSettingThatDiffersInAFixedOrder) {
    StrategySpec from;
    from.dp = 6;
    from.tatp = 8;
    from.fsdp = true;
    from.mapping = StrategySpec::Snake;
    from.microBatches = 4;
    StrategySpec to = from;
    EXPECT_TRUE(strategyChanges(from, to).empty());
    to.dp = 5;
    to.mapping = StrategySpec::Sequential;
    to.activationCheckpointing = Checkpointing::Full;
    to.microBatches = 8;
    EXPECT_EQ(strategyChanges(from, to),
              (std::vector<std::string>{"dp 6 -> 5", "checkpointing none -> full",
                                        "micro-batches 4 -> 8", "mapping snake -> sequential"}));
    to = from;
    to.fsdp = false;
    EXPECT_EQ(strategyChanges(from, to), (std::vector<std::string>{"fsdp off"}));
}

// A dead link leaves no room for six 1x8 snakes of TATP 8 on the 6x8 wafer: the strategy does
// not place. One change makes it place: the sequential mapping, or fewer replicas.
TEST(NearestFittingStrategies, ADeadLinkThatBreaksTheSnakesIsAnsweredByOneChange) {
    Scenario scenario = loadScenario(test::kScenarios / "slow_die_6x8.json");
    scenario.wafer.slowDies.clear();
    scenario.wafer.deadLinks = {LinkRef{20, 21, true}};
    const WaferTopology topology(scenario.topologySpec());
    EXPECT_THROW(simulateStep(scenario, topology), ScenarioError) << "the strategy still places";

    const std::vector<NearStrategy> offers = nearestFittingStrategies(scenario, topology, 3);
    ASSERT_EQ(offers.size(), 3u);
    EXPECT_EQ(offers.front().changes, 1) << offers.front().changesText;
    expectWellFormedOffers(scenario, offers);
    EXPECT_EQ(offers.front().score.strategy.balance, scenario.strategy->balance);
}

// Out of memory: every offer fits, and none is the strategy itself.
TEST(NearestFittingStrategies, AStrategyOutOfMemoryIsAnsweredByStrategiesThatFit) {
    Scenario scenario = loadScenario(test::kScenarios / "gpt3_175b_6x8_fsdp_tatp.json");
    scenario.strategy->fsdp = false; // every die holds the whole model's replica share
    const WaferTopology topology(scenario.topologySpec());
    ASSERT_TRUE(simulateStep(scenario, topology).outOfMemory);

    const std::vector<NearStrategy> offers = nearestFittingStrategies(scenario, topology, 2);
    ASSERT_FALSE(offers.empty());
    expectWellFormedOffers(scenario, offers);
}

TEST(NearestFittingStrategies, NeedsAWorkloadAndAStrategy) {
    Scenario scenario = loadScenario(test::kScenarios / "slow_die_6x8.json");
    const WaferTopology topology(scenario.topologySpec());
    scenario.strategy.reset();
    EXPECT_THROW(nearestFittingStrategies(scenario, topology), ScenarioError);
}

} // namespace
} // namespace ws
