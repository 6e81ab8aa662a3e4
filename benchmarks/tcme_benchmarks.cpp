// TCME on the 6x8 wafer: one iteration and a whole run, on a full training step's traffic
// (GPT-3 175B, dp 6 x tatp 8) and on explicit traffic. Targets: an iteration on the
// training step under 50 ms (wall-clock: the candidates are simulated on one thread per core;
// _one_thread is the same on the caller's thread alone), a whole run under 500 ms.
// BM_TcmeIterationRebuilt is the same iteration with every candidate rebuilt and simulated whole
// (TcmeOptions::patchRoutes off, the reference the patched reroutes must match), for comparison.
// BM_TcmeYardstick is the all-gather yardstick of docs/tcme.md, a whole run from ring all-gathers
// (merge, then balanced trees): targets under 1 s on 8x8 and under 10 s on 16x16;
// BM_TcmeReductionTrees its mirror, a reduce-scatter from a ring (reduction trees, then balanced).
#include "io/scenario_io.h"
#include "tcme/tcme_engine.h"

#include <benchmark/benchmark.h>

#include <optional>
#include <string>

namespace {

ws::Scenario loadForced(const std::string& name) {
    ws::Scenario scenario = ws::loadScenario(std::string(WAFERSCOPE_SCENARIO_DIR) + "/" + name);
    // A step's window is compute-bound (its links are far below 70%): force TCME to iterate.
    if (!scenario.tcme)
        scenario.tcme = ws::TcmeSpec{};
    scenario.tcme->targetUtilization = 1e-9;
    return scenario;
}

// Times step() alone: the engine is built (one evaluation of the scenario) and destroyed (its
// runs and evaluations freed, about 10^5 flows for the GPT-3 step) outside the timed region, as
// an app or CLI session builds it once and steps it many times.
void iterate(benchmark::State& state, const std::string& name, bool patchRoutes, int threads) {
    const ws::Scenario scenario = loadForced(name);
    const ws::WaferTopology topology(scenario.topologySpec());
    ws::TcmeOptions options = ws::tcmeOptionsFrom(scenario);
    options.patchRoutes = patchRoutes;
    options.threads = threads;
    std::optional<ws::TcmeEngine> engine;
    for (auto _ : state) {
        state.PauseTiming();
        engine.reset();
        engine.emplace(scenario, topology, options);
        state.ResumeTiming();
        benchmark::DoNotOptimize(engine->step().after.makespanS);
    }
}

void BM_TcmeIteration(benchmark::State& state, const std::string& name, int threads = 0) {
    iterate(state, name, true, threads);
}

void BM_TcmeIterationRebuilt(benchmark::State& state, const std::string& name) {
    iterate(state, name, false, 0);
}

void BM_TcmeRun(benchmark::State& state, const std::string& name) {
    const ws::Scenario scenario = loadForced(name);
    const ws::WaferTopology topology(scenario.topologySpec());
    int iterations = 0;
    for (auto _ : state) {
        ws::TcmeEngine engine(scenario, topology, ws::tcmeOptionsFrom(scenario));
        engine.run();
        iterations = static_cast<int>(engine.iterations().size());
    }
    state.counters["iterations"] = iterations;
}

// The shipped 8x8 yardstick (an all-gather, or its mirror image, a reduce-scatter), or the same
// collective (1 MiB per die) over every die of an n x n mesh.
ws::Scenario yardstick(int n, const std::string& file) {
    ws::Scenario scenario = ws::loadScenario(std::string(WAFERSCOPE_SCENARIO_DIR) + "/" + file);
    scenario.wafer.rows = n;
    scenario.wafer.cols = n;
    ws::TrafficOp& gather = scenario.traffic.front();
    gather.group.resize(static_cast<std::size_t>(n * n));
    for (int die = 0; die < n * n; ++die)
        gather.group[static_cast<std::size_t>(die)] = die;
    gather.bytes = ws::Quantity{n * n * 1024.0 * 1024.0, std::to_string(n * n) + " MiB"};
    return scenario;
}

// A whole TCME run on the n x n yardstick of `file` (n = the benchmark's argument).
void runYardstick(benchmark::State& state, const std::string& file) {
    const ws::Scenario scenario = yardstick(static_cast<int>(state.range(0)), file);
    const ws::WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        ws::TcmeEngine engine(scenario, topology, ws::tcmeOptionsFrom(scenario));
        engine.run();
        state.counters["makespan_us"] = engine.current().makespanS * 1e6;
        state.counters["iterations"] = static_cast<double>(engine.iterations().size());
    }
}

void BM_TcmeYardstick(benchmark::State& state) {
    runYardstick(state, "allgather_yardstick_8x8.json");
}

// The reduce-scatter from a ring: reduction trees, then balanced (docs/tcme.md).
void BM_TcmeReductionTrees(benchmark::State& state) {
    runYardstick(state, "reducescatter_trees_8x8.json");
}

BENCHMARK(BM_TcmeYardstick)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_TcmeReductionTrees)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_TcmeIteration, gpt3_step_6x8, std::string("gpt3_175b_6x8_fsdp_tatp.json"))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TcmeIteration, gpt3_step_6x8_one_thread,
                  std::string("gpt3_175b_6x8_fsdp_tatp.json"), 1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TcmeIterationRebuilt, gpt3_step_6x8,
                  std::string("gpt3_175b_6x8_fsdp_tatp.json"))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TcmeRun, gpt3_step_6x8, std::string("gpt3_175b_6x8_fsdp_tatp.json"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_TcmeIteration, gpt3_layer_traffic_6x8,
                  std::string("gpt3_175b_layer_traffic_6x8.json"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TcmeRun, gpt3_layer_traffic_6x8,
                  std::string("gpt3_175b_layer_traffic_6x8.json"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TcmeRun, teaching_4x4, std::string("contention_fsdp_tatp_4x4.json"))
    ->Unit(benchmark::kMillisecond);

} // namespace
