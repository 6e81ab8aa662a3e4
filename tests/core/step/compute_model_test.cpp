#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "report/step_report.h"
#include "sim/fluid_simulator.h"
#include "step/compute_model.h"
#include "step/step_plan.h"
#include "step/training_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

// The compute and memory model of docs/compute-model.md: each term against
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

// docs/compute-model.md section 4, rule 6: the input comes from the layer before and stays in
// SRAM when it fits, so the GEMM reads only its weights and writes the output that does not fit
// beside them: max(compute, bytes / HBM bandwidth) + overhead.
TEST(ComputeModelStep, GemmThatHoldsOneInputReadsEachOperandOnce) {
    Scenario scenario = gemmScenario(4096, 4096, 4096, {{"dp", 1}}, 1);
    scenario.wafer.die.sram = {60e6, "60 MB"}; // 54 MB usable: one 33.5 MB operand fits
    scenario.wafer.die.hbmBandwidth = {0.5e12, "0.5 TB/s"};
    const double operand = 4096.0 * 4096 * 2;
    const double flops = 2.0 * 4096 * 4096 * 4096;
    const StepRun r = run(scenario);
    ASSERT_FALSE(r.sramResident);
    EXPECT_DOUBLE_EQ(r.report.dies[0].hbmBytes, 2 * operand); // W read, O written
    EXPECT_DOUBLE_EQ(r.report.step->stepS,
                     std::max(flops / kPeak, 2 * operand / 0.5e12) + kOverhead);
    EXPECT_TRUE(r.report.step->sram.fits);
    EXPECT_DOUBLE_EQ(r.report.step->sram.largestWorkingSetBytes, 0.0) << "the input is resident";
}

// Rule 6 when neither input fits: the GEMM keeps the smaller one a usable-SRAM part at a time
// and reads the larger again for every further part.
TEST(ComputeModelStep, GemmWhoseInputsOverflowReReadsTheLargerPerPartOfTheSmaller) {
    Scenario scenario = gemmScenario(4096, 4096, 4096, {{"dp", 1}}, 1);
    scenario.wafer.die.sram = {1e6, "1 MB"}; // 0.9 MB usable
    scenario.wafer.die.hbmBandwidth = {0.5e12, "0.5 TB/s"};
    const double operand = 4096.0 * 4096 * 2;
    const double parts = std::ceil(operand / 0.9e6); // 38
    const double bytes = 3 * operand + (parts - 1) * operand;
    const StepRun r = run(scenario);
    EXPECT_DOUBLE_EQ(r.report.dies[0].hbmBytes, bytes);
    EXPECT_DOUBLE_EQ(r.report.step->stepS, bytes / 0.5e12 + kOverhead);
    EXPECT_EQ(r.report.step->memoryBoundTasks, 1.0);
    EXPECT_FALSE(r.report.step->sram.fits);
    EXPECT_DOUBLE_EQ(r.report.step->sram.largestWorkingSetBytes, operand);
}

// Rule 7: a TATP round whose stationary block and stream buffers overflow SRAM re-reads the
// stationary block, and costs exactly the re-read bytes over the HBM bandwidth more than the
// same round with room for it. O[1024, 8192] = I[1024, 4096] W[4096, 8192] over 4 dies, single
// buffered: the activations are the smaller operand and stream (2 MiB blocks, 4 MiB of
// buffers); each die's weight columns, 16 MiB, are the stationary block. 30 MB of SRAM (27
// usable) holds them beside the resident input rows; 24 MB (21.6 usable) does not.
TEST(ComputeModelStep, AnSramOverflowingTatpRoundReReadsItsStationaryBlock) {
    const auto plannedRound = [](double sram) {
        Scenario scenario =
            gemmScenario(1024, 4096, 8192, {{"tatp", 4}, {"double_buffering", false}}, 4);
        scenario.wafer.die.sram = {sram, ""};
        scenario.wafer.die.hbmBandwidth = {0.1e12, "0.1 TB/s"}; // every round memory-bound
        const StepPlan plan = buildStepPlan(*scenario.workload, *scenario.strategy,
                                            scenario.wafer.die, {4e12, 200e-9});
        EXPECT_FALSE(plan.sramResident);
        return std::pair{std::get<PlannedGemm>(plan.window.tasks.front().work), plan.sram};
    };
    const double stationary = 4096.0 * 8192 / 4 * 2;
    const auto [fits, roomy] = plannedRound(30e6);
    const auto [overflows, tight] = plannedRound(24e6);
    EXPECT_TRUE(roomy.fits);
    EXPECT_FALSE(tight.fits);
    EXPECT_DOUBLE_EQ(roomy.largestWorkingSetBytes, stationary + 2 * 1024.0 / 4 * 4096 * 2);
    EXPECT_DOUBLE_EQ(fits.firstHbmBytes, overflows.firstHbmBytes) << "round 0 reads it once";
    EXPECT_DOUBLE_EQ(overflows.roundHbmBytes - fits.roundHbmBytes, stationary);
    const ComputeModel model(dieOf(kOverhead, 128));
    ComputeModel slowHbm = ComputeModel([] {
        DieSpec die = dieOf(kOverhead, 128);
        die.hbmBandwidth = {0.1e12, ""};
        return die;
    }());
    EXPECT_NEAR(slowHbm.seconds(overflows.blockWork(false)) -
                    slowHbm.seconds(fits.blockWork(false)),
                stationary / 0.1e12, 1e-15);

    // The whole step: three later rounds per die, each slower by the re-read.
    const auto stepOf = [](double sram) {
        Scenario scenario =
            gemmScenario(1024, 4096, 8192, {{"tatp", 4}, {"double_buffering", false}}, 4);
        scenario.wafer.die.sram = {sram, ""};
        scenario.wafer.die.hbmBandwidth = {0.1e12, "0.1 TB/s"};
        return stepSeconds(scenario);
    };
    EXPECT_NEAR(stepOf(24e6) - stepOf(30e6), 3 * stationary / 0.1e12, 1e-12);
}

// Rule 8: when double buffers overflow but single ones fit, the step is planned single
// buffered if that is faster, and the report says so.
TEST(ComputeModelStep, OverflowingDoubleBuffersFallBackToSingleBufferingAndSaySo) {
    Scenario scenario = gemmScenario(1024, 4096, 8192, {{"tatp", 4}}, 4);
    scenario.wafer.die.sram = {30e6, "30 MB"};
    const StepRun r = run(scenario);
    EXPECT_TRUE(r.report.step->sram.singleBuffered);
    EXPECT_TRUE(r.report.step->sram.fits);
    bool noted = false;
    for (const std::string& note : r.report.step->notes)
        noted = noted || note.find("single buffering") != std::string::npos;
    EXPECT_TRUE(noted);
    // With room for the double buffers the strategy's buffering stands.
    scenario.wafer.die.sram = {40e6, "40 MB"};
    EXPECT_FALSE(run(scenario).report.step->sram.singleBuffered);
}

// Rule 4: activations pass from task to task in SRAM while they fit. With full checkpointing the
// forward pass stashes only each layer's input, so a forward norm whose input and output stay
// resident moves no HBM byte although the step spills (its weights and state do not fit);
// with 1 MB of SRAM the same norm reads and writes both.
TEST(ComputeModelStep, ElementWiseWorkOfALayerThatFitsMovesNoHbmByte) {
    const auto forwardNormBytes = [](double sram) {
        Scenario scenario =
            transformerScenario({{"dp", 1}, {"activation_checkpointing", "full"}}, 1, 1);
        scenario.wafer.die.sram = {sram, ""};
        const StepPlan plan =
            buildStepPlan(*scenario.workload, *scenario.strategy, scenario.wafer.die);
        EXPECT_FALSE(plan.sramResident);
        for (const PlannedTask& task : plan.window.tasks)
            if (const auto* work = std::get_if<PlannedElementwise>(&task.work))
                if (std::string(work->name) == "norm" && task.phase == StepPhase::Forward &&
                    task.layer == 1)
                    return work->hbmBytes;
        ADD_FAILURE() << "no forward norm";
        return -1.0;
    };
    const double tokenBytes = 8.0 * 256 * 512 * 2; // the batch's hidden states, 2 MiB
    EXPECT_DOUBLE_EQ(forwardNormBytes(80e6), 0.0);
    EXPECT_DOUBLE_EQ(forwardNormBytes(1e6), 2 * tokenBytes);
}

// docs/compute-model.md section 3: TATP splits attention by query rows (keys and values
// streamed), never along the head dimension, so the tile losses of GPT-3 175B's step do not
// grow with the degree: TATP 8's compute at the array's rate is within 1% of TATP 2's.
TEST(ComputeModelStep, TatpDoesNotSplitTheHeadDimension) {
    const auto computeOf = [](int tatp) {
        Scenario scenario = loadScenario(std::filesystem::path(WAFERSCOPE_SCENARIO_DIR) /
                                         "gpt3_175b_6x8_fsdp_tatp.json");
        scenario.strategy->tatp = tatp;
        scenario.strategy->dp = 48 / tatp;
        return run(scenario).report.step->computeS;
    };
    const double two = computeOf(2);
    EXPECT_NEAR(computeOf(8) / two, 1.0, 0.01);
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
        for (const double sram : {1e6, 8e6, 30e6, 80e6}) {
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

// Residency is monotone (docs/compute-model.md section 4): over a sweep of SRAM sizes, from
// nothing resident to the whole step resident, less SRAM or less HBM bandwidth never makes a
// step faster, for strategies that stream, replicate, shard and recompute.
TEST(ComputeModelStep, LessSramOrHbmBandwidthNeverMakesAStepFaster) {
    const std::vector<nlohmann::json> strategies = {
        {{"tatp", 4}},
        {{"dp", 2}, {"tatp", 2}, {"fsdp", true}},
        {{"tp", 4}},
        {{"tp", 2}, {"sp", 2}, {"activation_checkpointing", "selective"}},
        {{"tp", 4}, {"sequence_parallel", true}},
        {{"dp", 4}, {"activation_checkpointing", true}},
    };
    for (const nlohmann::json& strategy : strategies) {
        double largerS = 0.0; // the step with the next larger SRAM
        for (const double sram : {512e6, 256e6, 128e6, 64e6, 32e6, 16e6, 8e6, 4e6, 2e6, 1e6}) {
            Scenario scenario = transformerScenario(strategy, 2, 2);
            scenario.wafer.die.sram.value = sram;
            const double seconds = stepSeconds(scenario);
            EXPECT_GE(seconds, largerS * (1 - kRelative)) << strategy.dump() << " sram " << sram;
            scenario.wafer.die.hbmBandwidth.value /= 2;
            EXPECT_GE(stepSeconds(scenario), seconds * (1 - kRelative))
                << strategy.dump() << " sram " << sram << ", half the HBM bandwidth";
            largerS = seconds;
        }
    }
}

// tp_overlap (docs/training-model.md) streams sequence parallelism's all-gathers and
// reduce-scatters beside their GEMMs, as TATP streams its blocks: with GEMMs large against the
// per-round task overhead and protocol latency (GPT-3 6.7B's width, 8192 tokens per TP group)
// and SRAM for the streams' weights and buffers, the step is faster with it, on slow links and
// fast ones. (Where the weights and buffers overflow SRAM, the rounds re-read the weights and
// overlap can lose: docs/compute-model.md section 4, the same rule as TATP's.)
TEST(ComputeModelStep, TpOverlapHidesTheSequenceParallelCollectives) {
    for (const double bandwidth : {200e9, 4e12}) {
        Scenario plain = transformerScenario({{"tp", 4}, {"sequence_parallel", true}}, 1, 4);
        plain.workload = parseWorkload({{"kind", "transformer"},
                                        {"model",
                                         {{"name", "wide"},
                                          {"layers", 2},
                                          {"hidden", 4096},
                                          {"heads", 32},
                                          {"ffn_hidden", 16384},
                                          {"vocab", 4096}}},
                                        {"seq_len", 2048},
                                        {"global_batch", 4}},
                                       std::filesystem::path{});
        plain.wafer.linkBandwidth.value = bandwidth;
        plain.wafer.die.sram = {512e6, "512 MB"};
        Scenario overlapped = plain;
        overlapped.strategy->tpOverlap = true;
        const double plainS = stepSeconds(plain);
        const double overlappedS = stepSeconds(overlapped);
        EXPECT_LT(overlappedS, plainS) << bandwidth;
    }
}

} // namespace
} // namespace ws
