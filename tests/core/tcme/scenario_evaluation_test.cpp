#include "tcme/scenario_evaluation.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace ws {
namespace {

// A training step's utilisation is docs/network-model.md section 7's: a TATP round's transfers over
// the round's compute time, the rest over the makespan. TCME's stop rule and the report must agree
// on it.
TEST(ScenarioEvaluation, TrainingStepUtilisationIsPerRoundAsInTheReport) {
    // Llama2-7B, dp 2 x TATP 8 on 4x4: its busiest round is busier than any link over the window.
    const Scenario scenario =
        loadScenario(std::string(WAFERSCOPE_SCENARIO_DIR) + "/llama2_7b_4x4_tp_vs_tatp.json");
    const WaferTopology topology(scenario.wafer.topologySpec());
    const ScenarioEvaluation evaluation = evaluateScenario(scenario, topology);
    const SimulationReport report = simulateScenarioReport(scenario, RunOptions{});

    double overMakespan = 0.0;
    for (const LinkReport& link : report.links)
        overMakespan = std::max(overMakespan, link.utilization);
    double perRound = 0.0;
    ASSERT_FALSE(report.rounds.empty());
    for (const RoundLoad& round : report.rounds)
        perRound = std::max(perRound, round.maxUtilization);
    ASSERT_GT(perRound, overMakespan); // else this test could not tell the two apart
    EXPECT_NEAR(evaluation.maxUtilization(), std::max(overMakespan, perRound), 1e-12);
    EXPECT_EQ(evaluation.flowRound.size(), evaluation.flows.size());
    EXPECT_GE(evaluation.roundWindowS.size(), report.rounds.size()); // rounds without transfers
}

// Explicit traffic has no rounds: utilisation is over the makespan only.
TEST(ScenarioEvaluation, ExplicitTrafficUtilisationIsOverTheMakespan) {
    const Scenario scenario =
        loadScenario(std::string(WAFERSCOPE_SCENARIO_DIR) + "/contention_fsdp_tatp_4x4.json");
    const WaferTopology topology(scenario.wafer.topologySpec());
    const ScenarioEvaluation evaluation = evaluateScenario(scenario, topology);
    EXPECT_TRUE(evaluation.roundWindowS.empty());
    double expected = 0.0;
    for (std::size_t link = 0; link < evaluation.linkBytes.size(); ++link)
        expected = std::max(expected, evaluation.linkBytes[link] /
                                          (evaluation.linkBandwidth[link] * evaluation.makespanS));
    EXPECT_DOUBLE_EQ(evaluation.maxUtilization(), expected);
}

} // namespace
} // namespace ws
