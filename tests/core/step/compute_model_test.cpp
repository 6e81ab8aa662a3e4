#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "report/step_report.h"
#include "sim/fluid_simulator.h"
#include "step/compute_model.h"
#include "step/training_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

// The compute and memory model of docs/compute-model.md (SPEC section 4): each term against
// its closed form, then metamorphic checks where no closed form exists.
namespace ws {
namespace {

constexpr double kPeak = 1000e12;   // FLOP/s
constexpr double kHbm = 1e12;       // bytes/s
constexpr double kOverhead = 1e-6;  // s
constexpr double kRelative = 1e-12; // rounding of sums of thousands of task times

DieSpec dieOf(double overheadS, int tile) {
    DieSpec die;
    die.peakFlops = {kPeak, "1000 TFLOP/s"};
    die.hbmBandwidth = {kHbm, "1 TB/s"};
    die.taskOverhead = {overheadS, ""};
    die.gemmTile = tile;
    return die;
}

TEST(ComputeModel, RooflineTermsAndTheBoundThatDecides) {
    const ComputeModel model(dieOf(kOverhead, 128));
    // 2e9 FLOPs: 2 us of compute; 1 MB: 1 us of HBM traffic. Compute decides.
    ComputeCost cost = model.cost({2e9, 1e6, 1.0});
    EXPECT_DOUBLE_EQ(cost.seconds, 2e-6 + kOverhead);
    EXPECT_EQ(cost.bound, TaskBound::Compute);
    EXPECT_DOUBLE_EQ(cost.hbmStallS(), 0.0);
    // 3 MB: 3 us of traffic, so the task waits 1 us for HBM beyond its compute.
    cost = model.cost({2e9, 3e6, 1.0});
    EXPECT_DOUBLE_EQ(cost.seconds, 3e-6 + kOverhead);
    EXPECT_EQ(cost.bound, TaskBound::Memory);
    EXPECT_DOUBLE_EQ(cost.hbmStallS(), 1e-6);
    // Half the tile used: the compute term doubles.
    EXPECT_DOUBLE_EQ(model.seconds({2e9, 0.0, 0.5}), 4e-6 + kOverhead);
    // Tiny work: the overhead decides.
    EXPECT_EQ(model.cost({1e6, 1e3, 1.0}).bound, TaskBound::Overhead);
    EXPECT_EQ(std::string(toString(TaskBound::Overhead)), "overhead");
}

TEST(ComputeModel, TileEfficiencyCountsPartialTilesAsWhole) {
    EXPECT_DOUBLE_EQ(gemmTileEfficiency(256, 256, 256, 128), 1.0);
    // 200 pads to 256 on every side.
    EXPECT_DOUBLE_EQ(gemmTileEfficiency(200, 200, 200, 128), 8e6 / (256.0 * 256 * 256));
    // 2048 / 24 = 85.33 tokens pad to one tile of 128.
    EXPECT_DOUBLE_EQ(gemmTileEfficiency(2048.0 / 24, 12288, 12288.0 / 24, 128),
                     (2048.0 / 24) * 12288 * 512 / (128.0 * 12288 * 512));
    EXPECT_DOUBLE_EQ(gemmTileEfficiency(7, 3, 5, 1), 1.0);
}

struct StepRun {
    bool sramResident = true;
    SimulationReport report;
};

// A gemm workload O[m, n] = I[m, k] W[k, n] on a rows x cols wafer under `strategy`.
Scenario gemmScenario(double m, double k, double n, const nlohmann::json& strategy, int cols) {
    Scenario scenario;
    scenario.name = "compute model";
    scenario.wafer.rows = 1;
    scenario.wafer.cols = cols;
    scenario.wafer.die = dieOf(kOverhead, 128);
    scenario.workload =
        parseWorkload({{"kind", "gemm"}, {"m", m}, {"k", k}, {"n", n}}, std::filesystem::path{});
    scenario.strategy = parseStrategy(strategy);
    return scenario;
}

Scenario transformerScenario(const nlohmann::json& strategy, int rows, int cols) {
    Scenario scenario;
    scenario.name = "compute model";
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    scenario.wafer.die = dieOf(kOverhead, 128);
    scenario.workload = parseWorkload({{"kind", "transformer"},
                                       {"model",
                                        {{"name", "tiny"},
                                         {"layers", 2},
                                         {"hidden", 512},
                                         {"heads", 8},
                                         {"ffn_hidden", 2048},
                                         {"vocab", 4096}}},
                                       {"seq_len", 256},
                                       {"global_batch", 8}},
                                      std::filesystem::path{});
    scenario.strategy = parseStrategy(strategy);
    return scenario;
}

StepRun run(const Scenario& scenario) {
    const WaferTopology topology(scenario.wafer.topologySpec());
    const TrainingStep step = buildTrainingStep(scenario, topology);
    const SimResult result = simulate(step.graph.problem());
    return {step.plan.sramResident, buildStepReport(scenario, topology, step, result, {})};
}

double stepSeconds(const Scenario& scenario) {
    return run(scenario).report.step->stepS;
}

// A GEMM that fits in SRAM moves nothing to or from HBM: F / (peak x tile efficiency) + overhead.
TEST(ComputeModelStep, GemmInSramRunsAtTheTileEfficiency) {
    const Scenario scenario = gemmScenario(200, 200, 200, {{"dp", 1}}, 1);
    const StepRun r = run(scenario);
    ASSERT_TRUE(r.sramResident);
    const double flops = 2.0 * 200 * 200 * 200;
    EXPECT_DOUBLE_EQ(r.report.step->stepS,
                     flops / (kPeak * gemmTileEfficiency(200, 200, 200, 128)) + kOverhead);
    EXPECT_EQ(r.report.dies[0].hbmBytes, 0.0);
}

// Operands in HBM: max(compute, bytes / HBM bandwidth), the bytes never below the compulsory
// ones (read I and W once, write O once), whatever the TATP degree.
TEST(ComputeModelStep, GemmInHbmRunsAtTheRooflineAndMovesItsCompulsoryBytes) {
    Scenario scenario = gemmScenario(4096, 4096, 4096, {{"dp", 1}}, 1);
    scenario.wafer.die.sram = {1e6, "1 MB"};
    scenario.wafer.die.hbmBandwidth = {0.5e12, "0.5 TB/s"};
    const double compulsory = 3.0 * 4096 * 4096 * 2; // I, W and O at 2 bytes
    const double flops = 2.0 * 4096 * 4096 * 4096;
    StepRun r = run(scenario);
    ASSERT_FALSE(r.sramResident);
    EXPECT_DOUBLE_EQ(r.report.dies[0].hbmBytes, compulsory);
    // 201 us of traffic against 137 us of compute: memory-bound.
    EXPECT_DOUBLE_EQ(r.report.step->stepS,
                     std::max(flops / kPeak, compulsory / 0.5e12) + kOverhead);
    EXPECT_EQ(r.report.step->memoryBoundTasks, 1.0);

    // Streamed over 4 dies, each reads its own blocks once and writes its output blocks: the
    // wafer moves the same compulsory bytes, and no die moves fewer than its quarter.
    scenario = gemmScenario(4096, 4096, 4096, {{"tatp", 4}}, 4);
    scenario.wafer.die.sram = {1e6, "1 MB"};
    r = run(scenario);
    double total = 0.0;
    for (const DieReport& die : r.report.dies) {
        EXPECT_DOUBLE_EQ(die.hbmBytes, compulsory / 4);
        total += die.hbmBytes;
    }
    EXPECT_DOUBLE_EQ(total, compulsory);
}

// The overhead adds exactly tasks x overhead: on one die nothing overlaps, so every task's
// overhead is on the critical path, the optimizer update's too.
TEST(ComputeModelStep, OverheadAddsTasksTimesOverhead) {
    Scenario scenario = transformerScenario({{"dp", 1}}, 1, 1);
    scenario.wafer.die.taskOverhead = {0.0, "0 s"};
    const StepRun without = run(scenario);
    scenario.wafer.die.taskOverhead = {kOverhead, "1 us"};
    const StepRun with = run(scenario);
    const double tasks = with.report.step->tasks;
    // Per layer: 6 forward GEMMs, 12 backward ones and 5 + 5 norms, residuals and activation;
    // the head's 3 GEMMs; the optimizer update. 2 layers x 1 micro-batch.
    EXPECT_EQ(tasks, 2 * (6 + 12 + 5 + 5) + 3 + 1);
    EXPECT_NEAR(with.report.step->stepS - without.report.step->stepS, tasks * kOverhead,
                with.report.step->stepS * kRelative);
    EXPECT_NEAR(with.report.step->overheadS + kOverhead, tasks * kOverhead, 1e-15)
        << "the breakdown's overhead excludes the optimizer update's, which has its own term";
}

// Flash attention writes no scores and runs no separate softmax; standard attention moves the
// t x s x heads scores to HBM and back when the step spills.
TEST(ComputeModelStep, StandardAttentionMovesTheScores) {
    Scenario scenario = transformerScenario({{"dp", 1}}, 1, 1);
    scenario.wafer.die.sram = {1e6, "1 MB"};
    const StepRun flash = run(scenario);
    scenario.workload->attention = AttentionKind::Standard;
    const StepRun standard = run(scenario);
    EXPECT_GT(standard.report.dies[0].hbmBytes, flash.report.dies[0].hbmBytes);
    EXPECT_GT(standard.report.step->stepS, flash.report.step->stepS);
}

// Where no closed form exists: more peak compute, HBM bandwidth, link bandwidth or SRAM never
// makes a step slower. The tolerance is rounding: the fluid simulator's max-min rates are exact
// and every task's time is monotone in each parameter, so no exception is expected.
TEST(ComputeModelStep, MoreOfAnyResourceNeverSlowsAStep) {
    const std::vector<std::function<void(Scenario&)>> more = {
        [](Scenario& s) { s.wafer.die.peakFlops.value *= 2; },
        [](Scenario& s) { s.wafer.die.hbmBandwidth.value *= 2; },
        [](Scenario& s) { s.wafer.linkBandwidth.value *= 2; },
        [](Scenario& s) { s.wafer.die.sram.value *= 4; },
        [](Scenario& s) { s.wafer.die.taskOverhead.value /= 2; },
    };
    const std::vector<nlohmann::json> strategies = {
        {{"dp", 2}, {"tatp", 2}, {"fsdp", true}},
        {{"tp", 2}, {"sp", 2}},
        {{"tatp", 4}, {"activation_checkpointing", true}},
        {{"dp", 4}, {"micro_batches", 2}},
    };
    for (const nlohmann::json& strategy : strategies)
        for (const double sram : {1e6, 80e6}) {
            Scenario base = transformerScenario(strategy, 2, 2);
            base.wafer.die.sram.value = sram;
            const double baseS = stepSeconds(base);
            for (std::size_t i = 0; i < more.size(); ++i) {
                Scenario better = base;
                more[i](better);
                EXPECT_LE(stepSeconds(better), baseS * (1 + kRelative))
                    << strategy.dump() << " sram " << sram << " change " << i;
            }
        }
}

} // namespace
} // namespace ws
