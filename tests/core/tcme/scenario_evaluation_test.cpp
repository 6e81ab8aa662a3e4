#include "tcme/scenario_evaluation.h"

#include "fsdp_step_2x2.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace ws {
namespace {

// A training step's utilisation is docs/network-model.md section 7's: a TATP round's transfers over
// the round's compute time, the rest over the makespan, as the report has it; TCME also looks at
// each collective's critical phase (docs/tcme.md), which can only raise it. When no phase is the
// hottest, TCME's stop rule and the report agree.
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
    const ScenarioEvaluation::HotPhase hot = evaluation.hottestPhase();
    if (hot.collective < 0)
        EXPECT_NEAR(evaluation.maxUtilization(), std::max(overMakespan, perRound), 1e-12);
    else
        EXPECT_GT(evaluation.maxUtilization(), std::max(overMakespan, perRound));
    EXPECT_EQ(evaluation.flowRound.size(), evaluation.flows.size());
    EXPECT_GE(evaluation.roundWindowS.size(), report.rounds.size()); // rounds without transfers
}

// FSDP over the 4 dies of a 2x2 mesh with 10 GB/s links and no latency: the first weight
// all-gather runs alone at t = 0 and the first layer's compute waits for it, so its critical phase
// is its own duration, the ring's 3 steps of one chunk each: 3 N/4 / B, during which each ring
// link is busy the whole time (utilisation 1). A phase never ends before its collective ends.
TEST(ScenarioEvaluation, AnExposedCollectivesPhaseIsItsRingTime) {
    const Scenario scenario = test::fsdpStep2x2();
    const WaferTopology topology(scenario.wafer.topologySpec());
    const ScenarioEvaluation evaluation = evaluateScenario(scenario, topology);
    ASSERT_FALSE(evaluation.collectivePhaseS.empty());
    ASSERT_EQ(evaluation.flowCollective.size(), evaluation.flows.size());
    EXPECT_GT(evaluation.stepS, evaluation.makespanS); // the window scaled to the whole step

    std::vector<double> firstS(evaluation.collectivePhaseS.size(), 1e9);
    std::vector<double> lastS(evaluation.collectivePhaseS.size(), 0.0);
    for (std::size_t f = 0; f < evaluation.flows.size(); ++f) {
        const int c = evaluation.flowCollective[f];
        ASSERT_GE(c, 0); // no TATP: every flow is a collective's
        firstS[static_cast<std::size_t>(c)] =
            std::min(firstS[static_cast<std::size_t>(c)], evaluation.flows[f].startS);
        lastS[static_cast<std::size_t>(c)] =
            std::max(lastS[static_cast<std::size_t>(c)], evaluation.flows[f].endS);
    }
    for (std::size_t c = 0; c < firstS.size(); ++c)
        EXPECT_GE(evaluation.collectivePhaseS[c], lastS[c] - firstS[c] - 1e-15);

    const EvaluatedFlow& first = evaluation.flows.front(); // the first gather's, at t = 0
    ASSERT_EQ(first.startS, 0.0);
    ASSERT_EQ(first.role, CollectiveRole::FsdpWeightGather);
    const auto gather = static_cast<std::size_t>(evaluation.flowCollective.front());
    EXPECT_NEAR(evaluation.collectivePhaseS[gather], 3 * first.bytes / 10e9, 1e-15);
    EXPECT_DOUBLE_EQ(evaluation.collectivePhaseS[gather], lastS[gather]);
    // At least the gather's 1; a phase's share of a flow that also sends outside it is taken
    // at the flow's average rate, which can read a little above 1 (docs/tcme.md, "Phases").
    EXPECT_GE(evaluation.maxUtilization(), 1.0 - 1e-9);
    EXPECT_LT(evaluation.maxUtilization(), 1.1);
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

// In a system of wafers the busiest link is the one busy longest, not the one carrying most
// bytes: 0 -> 1 carries 10 MB at 4 TB/s (2.5 us), the off-wafer 1 -> 2 carries 1 MB at 100 GB/s
// (10 us). TCME focuses on, and its objective weighs, the latter.
TEST(ScenarioEvaluation, TheBusiestLinkOfASystemIsTheOneBusyLongest) {
    Scenario scenario;
    scenario.wafer.rows = 1;
    scenario.wafer.cols = 2;
    scenario.wafer.linkBandwidth = Quantity{4e12, "4 TB/s"};
    SystemSpec system;
    system.waferCols = 2;
    system.linkBandwidth = Quantity{100e9, "100 GB/s"};
    scenario.system = system;
    TrafficOp onWafer;
    onWafer.id = "on";
    onWafer.src = 0;
    onWafer.dst = 1;
    onWafer.bytes = Quantity{10e6, "10 MB"};
    TrafficOp across = onWafer;
    across.id = "across";
    across.src = 1;
    across.dst = 2;
    across.bytes = Quantity{1e6, "1 MB"};
    scenario.traffic = {onWafer, across};
    const WaferTopology topology(scenario.topologySpec());
    const ScenarioEvaluation evaluation = evaluateScenario(scenario, topology);
    EXPECT_EQ(evaluation.maxLink(), *topology.linkBetween(1, 2));
    EXPECT_DOUBLE_EQ(evaluation.maxLinkBusyS(), 1e6 / 100e9);
    EXPECT_DOUBLE_EQ(evaluation.sumSquaredLinkBusyS(),
                     (10e6 / 4e12) * (10e6 / 4e12) + (1e6 / 100e9) * (1e6 / 100e9));
}

} // namespace
} // namespace ws
