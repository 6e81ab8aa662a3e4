// One full training step through the simulator: building the task graph (placement, TATP
// streams, collectives, routing) and simulating it. Targets: GPT-3 175B on the 6x8 wafer in
// under 1 s; on a 32x32 wafer (dp 128 x TATP 8: 1.7 M flows, 2.4 M tasks) within a few seconds;
// on four 6x8 wafers in under 2 s.
#include "io/scenario_io.h"
#include "sim/fluid_simulator.h"
#include "step/training_step.h"

#include <benchmark/benchmark.h>

namespace {

const char* const kGpt3Scenario = WAFERSCOPE_SCENARIO_DIR "/gpt3_175b_6x8_fsdp_tatp.json";
const char* const kFourWaferScenario = WAFERSCOPE_SCENARIO_DIR "/gpt3_175b_four_6x8_wafers.json";
const char* const kClusterScenario = WAFERSCOPE_SCENARIO_DIR "/gpt3_13b_dgx_a100_32gpu.json";
const char* const kFourWaferPipeline =
    WAFERSCOPE_SCENARIO_DIR "/gpt3_175b_four_6x8_wafers_pp4.json";

void BM_Gpt3StepBuild(benchmark::State& state) {
    const ws::Scenario scenario = ws::loadScenario(kGpt3Scenario);
    const ws::WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        const ws::TrainingStep step = ws::buildTrainingStep(scenario, topology);
        benchmark::DoNotOptimize(step.graph.problem().tasks.size());
    }
}
BENCHMARK(BM_Gpt3StepBuild)->Unit(benchmark::kMillisecond);

void BM_Gpt3StepSimulate(benchmark::State& state) {
    const ws::Scenario scenario = ws::loadScenario(kGpt3Scenario);
    const ws::WaferTopology topology(scenario.topologySpec());
    const ws::TrainingStep step = ws::buildTrainingStep(scenario, topology);
    for (auto _ : state) {
        const ws::SimResult result = ws::simulate(step.graph.problem());
        benchmark::DoNotOptimize(result.makespanS);
    }
    state.counters["tasks"] = static_cast<double>(step.graph.problem().tasks.size());
}
BENCHMARK(BM_Gpt3StepSimulate)->Unit(benchmark::kMillisecond);

void BM_Gpt3StepEndToEnd(benchmark::State& state) {
    const ws::Scenario scenario = ws::loadScenario(kGpt3Scenario);
    const ws::WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        const ws::TrainingStep step = ws::buildTrainingStep(scenario, topology);
        const ws::SimResult result = ws::simulate(step.graph.problem());
        benchmark::DoNotOptimize(result.makespanS);
    }
}
BENCHMARK(BM_Gpt3StepEndToEnd)->Unit(benchmark::kMillisecond);

// The 6x8 scenario on a 32x32 wafer: dp 128 x TATP 8, four micro-batches of one sequence.
ws::Scenario gpt3Step32x32() {
    ws::Scenario scenario = ws::loadScenario(kGpt3Scenario);
    scenario.wafer.rows = 32;
    scenario.wafer.cols = 32;
    scenario.strategy->dp = 128;
    scenario.workload->globalBatch = 512;
    return scenario;
}

void BM_Gpt3Step32x32EndToEnd(benchmark::State& state) {
    const ws::Scenario scenario = gpt3Step32x32();
    const ws::WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        const ws::TrainingStep step = ws::buildTrainingStep(scenario, topology);
        const ws::SimResult result = ws::simulate(step.graph.problem());
        benchmark::DoNotOptimize(result.makespanS);
    }
}
BENCHMARK(BM_Gpt3Step32x32EndToEnd)->Unit(benchmark::kMillisecond)->Iterations(2);

// The simulation of that step alone (the part the max-min solver dominates), its graph built
// once outside the timing.
void BM_Gpt3Step32x32Simulate(benchmark::State& state) {
    const ws::Scenario scenario = gpt3Step32x32();
    const ws::WaferTopology topology(scenario.topologySpec());
    const ws::TrainingStep step = ws::buildTrainingStep(scenario, topology);
    std::size_t resolves = 0;
    for (auto _ : state) {
        const ws::SimResult result = ws::simulate(step.graph.problem());
        resolves = result.rateRecomputations;
        benchmark::DoNotOptimize(result.makespanS);
    }
    state.counters["rate_solves"] = static_cast<double>(resolves);
}
BENCHMARK(BM_Gpt3Step32x32Simulate)->Unit(benchmark::kMillisecond)->Iterations(3);

// Four of the paper's 6x8 wafers side by side (a 12x16 grid, docs/file-format.md `system`):
// dp 24 x TATP 8, some TATP groups and FSDP rings crossing the off-wafer links. Target: under 2 s.
void BM_FourWaferStepEndToEnd(benchmark::State& state) {
    const ws::Scenario scenario = ws::loadScenario(kFourWaferScenario);
    const ws::WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        const ws::TrainingStep step = ws::buildTrainingStep(scenario, topology);
        const ws::SimResult result = ws::simulate(step.graph.problem());
        benchmark::DoNotOptimize(result.makespanS);
    }
}
BENCHMARK(BM_FourWaferStepEndToEnd)->Unit(benchmark::kMillisecond);

// The same system as four pipeline stages (pp 4 x dp 6 x TATP 8, 16 micro-batches): the step
// is built, simulated and scheduled 1F1B (stepTiming). Target: under 2 s.
void BM_FourWaferPipelineStepEndToEnd(benchmark::State& state) {
    const ws::Scenario scenario = ws::loadScenario(kFourWaferPipeline);
    const ws::WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        const ws::TrainingStep step = ws::buildTrainingStep(scenario, topology);
        const ws::SimResult result = ws::simulate(step.graph.problem());
        benchmark::DoNotOptimize(ws::stepTiming(step, result).stepS);
    }
}
BENCHMARK(BM_FourWaferPipelineStepEndToEnd)->Unit(benchmark::kMillisecond);

// A GPU cluster (docs/hardware.md section 5): the shipped 32 A100 scenario (4 DGX A100 nodes,
// pp 2 x dp 2 x tp 8), and the same strategy on `nodes` nodes with dp grown to match (range(0)):
// 4 and 16 nodes (32 and 128 GPUs). Built, simulated and scheduled 1F1B as a user's run is.
void BM_ClusterStepEndToEnd(benchmark::State& state) {
    ws::Scenario scenario = ws::loadScenario(kClusterScenario);
    const auto nodes = static_cast<int>(state.range(0));
    scenario.wafer.rows = nodes;
    scenario.strategy->dp = nodes / 2;
    scenario.workload->globalBatch *= nodes / 4;
    const ws::WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        const ws::TrainingStep step = ws::buildTrainingStep(scenario, topology);
        const ws::SimResult result = ws::simulate(step.graph.problem());
        benchmark::DoNotOptimize(ws::stepTiming(step, result).stepS);
    }
}
BENCHMARK(BM_ClusterStepEndToEnd)->Arg(4)->Arg(16)->Unit(benchmark::kMillisecond);

} // namespace
