// Pipeline stages through the training step (docs/training-model.md "Pipeline
// stages"): where stages go, what crosses their boundaries, what the first stage holds, and
// that the step is the 1F1B schedule of the simulated stages and sends.
#include "evaluation/scenario_run.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "report/simulation_report.h"
#include "scenario/scenario_error.h"
#include "sim/fluid_simulator.h"
#include "step/memory_model.h"
#include "step/training_step.h"
#include "strategy/placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ws {
namespace {

constexpr double kOffB = 100e9; // bytes/s between wafers
constexpr double kOffA = 1e-6;  // s per off-wafer hop

nlohmann::json smallModel() {
    return {
        {"kind", "transformer"},
        {"model",
         {{"layers", 8}, {"hidden", 1024}, {"heads", 16}, {"ffn_hidden", 4096}, {"vocab", 32000}}},
        {"seq_len", 1024},
        {"global_batch", 16}};
}

Scenario wafer(int rows, int cols, const nlohmann::json& strategy) {
    Scenario scenario;
    scenario.name = "pipeline";
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    scenario.workload = parseWorkload(smallModel(), {});
    scenario.strategy = parseStrategy(strategy);
    return scenario;
}

// R x C wafers of rows x cols dies.
Scenario system(int wafersDown, int wafersAcross, int rows, int cols,
                const nlohmann::json& strategy) {
    Scenario scenario = wafer(rows, cols, strategy);
    SystemSpec spec;
    spec.waferRows = wafersDown;
    spec.waferCols = wafersAcross;
    spec.linkBandwidth = Quantity{kOffB, "100 GB/s"};
    spec.linkLatency = Quantity{kOffA, "1 us"};
    scenario.system = spec;
    return scenario;
}

Placement placementOf(const Scenario& scenario) {
    return placeStrategy(*scenario.strategy, WaferTopology(scenario.topologySpec()));
}

TEST(PipelineStages, OnOneWaferStagesTakeEqualBandsAndAStageGroupJoinsARanksCopies) {
    // 4x4, pp 2: rows 0-1 and rows 2-3 (rows and columns split alike; rows on a tie).
    const Placement placement = placementOf(wafer(4, 4, {{"pp", 2}, {"dp", 2}, {"tatp", 4}}));
    EXPECT_EQ(placement.pp(), 2);
    ASSERT_EQ(placement.usedDies().size(), 16u);
    for (DieId die : placement.stageDies(0))
        EXPECT_LT(die, 8);
    for (DieId die : placement.stageDies(1))
        EXPECT_GE(die, 8);
    for (const std::vector<DieId>& stages : placement.groups(GroupKind::Stage)) {
        ASSERT_EQ(stages.size(), 2u);
        EXPECT_EQ(stages[1] - stages[0], 8); // the same rank, two rows down
    }
    // Every other kind of group lies inside a stage: 2 stages x 4 DP groups of 2.
    EXPECT_EQ(placement.groups(GroupKind::DP).size(), 8u);
    // A 6x8 wafer is cut into thinner bands across its rows: 3 x 8 dies each.
    const Placement wide = placementOf(wafer(6, 8, {{"pp", 2}, {"dp", 24}}));
    EXPECT_EQ(wide.stageDies(1).front(), 24);
}

TEST(PipelineStages, OnASystemEachStageTakesItsWafers) {
    // [2, 2] of 2x2 wafers (a 4x4 grid), pp 4: stage k on wafer k, row-major.
    const Scenario four = system(2, 2, 2, 2, {{"pp", 4}, {"dp", 4}});
    const WaferTopology topology(four.topologySpec());
    const Placement placement = placementOf(four);
    for (int stage = 0; stage < 4; ++stage)
        for (DieId die : placement.stageDies(stage))
            EXPECT_EQ(topology.waferOf(die), stage) << "die " << die;
    // pp 2: a row of two wafers each.
    const Placement two = placementOf(system(2, 2, 2, 2, {{"pp", 2}, {"dp", 8}}));
    for (DieId die : two.stageDies(1))
        EXPECT_GE(topology.waferOf(die), 2);
}

TEST(PipelineStages, StagesThatSplitNothingEvenlyAreRefusedAtTheKey) {
    try {
        placementOf(wafer(4, 4, {{"pp", 3}}));
        FAIL() << "expected a ScenarioError";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "strategy.pp");
        EXPECT_NE(error.problem().find("4x4 grid"), std::string::npos) << error.problem();
    }
    // A stage too small for its ranks says which stage.
    try {
        placementOf(wafer(2, 4, {{"pp", 2}, {"dp", 8}}));
        FAIL() << "expected a ScenarioError";
    } catch (const ScenarioError& error) {
        EXPECT_NE(std::string(error.what()).find("pipeline stage 0"), std::string::npos)
            << error.what();
    }
}

// Korthikanti et al.'s count under 1F1B: the first stage holds its layers / p of the model's
// layers for min(p, m) micro-batches: with m >= p as much as one micro-batch of every layer.
TEST(PipelineStages, FirstStageHoldsTheActivationsOfPMicroBatches) {
    const Workload workload = parseWorkload(smallModel(), {});
    const DieSpec die;
    StrategySpec flat;
    flat.microBatches = 8;
    StrategySpec piped = flat;
    piped.pp = 4;
    const MemoryBreakdown one = estimateMemory(workload, flat, die, 0.0);
    const MemoryBreakdown four = estimateMemory(workload, piped, die, 0.0);
    EXPECT_DOUBLE_EQ(four.activations, one.activations);
    // Two micro-batches in flight at most: half of it.
    piped.microBatches = 2;
    flat.microBatches = 2;
    EXPECT_DOUBLE_EQ(estimateMemory(workload, piped, die, 0.0).activations,
                     estimateMemory(workload, flat, die, 0.0).activations / 2);
    // Weights: a stage's 2 of 8 layers plus the embedding.
    const TransformerConfig& model = workload.model;
    EXPECT_DOUBLE_EQ(four.weights,
                     (2.0 * model.parametersPerLayer() + model.embeddingParameters()) * 2.0);
}

// [1, 2] of 1x1 wafers: one die per stage, joined by one off-wafer link. Each send is one
// micro-batch's hidden states, s b h x 2 bytes, over it: S / B_off + a_off.
TEST(PipelineStages, ActivationsCrossTheBoundaryAtTheOffWaferLinksSpeed) {
    const Scenario scenario = system(1, 2, 1, 1, {{"pp", 2}, {"micro_batches", 4}});
    const WaferTopology topology(scenario.topologySpec());
    TrainingStep step = buildTrainingStep(scenario, topology);
    const SimResult result = simulate(step.graph.problem());
    const StepTiming timing = stepTiming(step, result);
    const double bytes = 1024.0 * 4 * 1024 * 2; // s x b (16 / 4 micro-batches) x h x 2 bytes
    EXPECT_NEAR(timing.pipelineTimes.forwardSendS, bytes / kOffB + kOffA, 1e-15);
    EXPECT_NEAR(timing.pipelineTimes.backwardSendS, bytes / kOffB + kOffA, 1e-15);

    // The step is the schedule of the stages' simulated passes, plus the optimizer.
    EXPECT_DOUBLE_EQ(timing.stepS,
                     schedule1F1B(timing.pipelineTimes).makespanS + timing.optimizerS);
    EXPECT_EQ(timing.pipeline.passes.size(), 2u * 2u * 4u);
    // A stage's forward and backward are its window scaled to its 4 layers; the last stage's
    // backward adds the head.
    const PipelineTimes& times = timing.pipelineTimes;
    EXPECT_NEAR(times.forwardS[0][0] + times.backwardS[0][0], timing.window.allLayersS(step.plan),
                1e-15);
    EXPECT_NEAR(times.backwardS[1][0] - times.backwardS[0][0], timing.headS, 1e-15);
    EXPECT_DOUBLE_EQ(step.plan.layers, 4.0);
}

// A stage's sends are reported as the pipeline's, not as TATP transfers (docs/cli.md
// section 4.1, `op_kind`): with one die per stage they are the step's only flows.
TEST(PipelineStages, StageSendsAreReportedAsPipelineFlows) {
    const SimulationReport report =
        simulateScenarioReport(system(1, 2, 1, 1, {{"pp", 2}, {"micro_batches", 4}}), RunOptions{});
    ASSERT_FALSE(report.flows.empty());
    for (const FlowReport& flow : report.flows)
        EXPECT_EQ(flow.opKind, "pipeline") << flow.id;
}

// Metamorphic: more micro-batches shrink the bubble; faster off-wafer links never slow the
// step. Closed-form bound: the bubble is never below (p - 1) / (m + p - 1).
TEST(PipelineStages, MoreMicroBatchesShrinkTheBubble) {
    double previous = 1.0;
    for (int m : {2, 4, 8, 16}) {
        const SimulationReport report = simulateScenarioReport(
            system(1, 2, 1, 1, {{"pp", 2}, {"micro_batches", m}}), RunOptions{});
        ASSERT_TRUE(report.step);
        EXPECT_EQ(report.step->pp, 2);
        EXPECT_LT(report.step->ppBubbleFraction, previous) << m << " micro-batches";
        EXPECT_GE(report.step->ppBubbleFraction, 1.0 / (m + 1.0) - 1e-12);
        previous = report.step->ppBubbleFraction;
    }
    Scenario slow = system(1, 2, 2, 2, {{"pp", 2}, {"dp", 4}, {"micro_batches", 4}});
    Scenario fast = slow;
    fast.system->linkBandwidth = Quantity{4 * kOffB, "400 GB/s"};
    EXPECT_LE(simulateScenarioReport(fast, RunOptions{}).step->stepS,
              simulateScenarioReport(slow, RunOptions{}).step->stepS);
}

} // namespace
} // namespace ws
