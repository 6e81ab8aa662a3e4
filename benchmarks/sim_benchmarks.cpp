// Simulator benchmarks (Release build). Each workload is timed three ways: planning alone
// (planTraffic: expansion + routing), simulate() alone on the planned problem, and end to end.
// Targets: uniform all-to-all on 8x8 and a random permutation on 32x32 under 100 ms of
// simulate(); a 256-rank ring all-reduce on 16x16 under 1 s. simulateStoreAndForward times the
// same problems in the store-and-forward model (1 MiB chunks), refuse4096 the size guard's
// refusal of a ring all-reduce over 4,096 dies (33.5 M flows) before it is expanded.
// writeReport times the `simulate --json` report of a simulated run (full and summary), which
// is streamed (core/report/report_formats.h) and should cost no more than the simulation;
// buildReport times building that report from the run and its result (reportOf), which the app
// does for every analysis and which polls the run's cancel predicate.
#include "collectives/traffic_plan.h"
#include "evaluation/scenario_run.h"
#include "report/report_formats.h"
#include "scenario/scenario_error.h"
#include "sim/fluid_simulator.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <ostream>
#include <random>
#include <streambuf>
#include <string>
#include <vector>

namespace ws {
namespace {

Scenario wafer(int rows, int cols) {
    Scenario scenario;
    scenario.name = "benchmark";
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    scenario.wafer.linkBandwidth = Quantity{4e12, "4 TB/s"};
    scenario.wafer.linkLatency = Quantity{200e-9, "200 ns"};
    return scenario;
}

void addP2p(Scenario& scenario, DieId src, DieId dst, double bytes) {
    TrafficOp op;
    op.id = std::string("p").append(std::to_string(src)).append("_").append(std::to_string(dst));
    op.kind = OpKind::P2P;
    op.src = src;
    op.dst = dst;
    op.bytes = Quantity{bytes, ""};
    scenario.traffic.push_back(std::move(op));
}

// (a) every die sends 1 MiB to every other die of an 8x8 mesh: 4,032 flows, all at t = 0.
Scenario uniformAllToAll8x8() {
    Scenario scenario = wafer(8, 8);
    for (DieId src = 0; src < 64; ++src) {
        for (DieId dst = 0; dst < 64; ++dst) {
            if (src != dst) {
                addP2p(scenario, src, dst, 1024.0 * 1024);
            }
        }
    }
    return scenario;
}

// (b) a random permutation of the 1,024 dies of a 32x32 mesh (seed 2024), 1 MiB each. Fixed
// points are swapped with the next die so that all 1,024 dies send.
Scenario randomPermutation32x32() {
    constexpr int kDies = 32 * 32;
    std::vector<DieId> destination(kDies);
    std::iota(destination.begin(), destination.end(), 0);
    std::mt19937 random(2024);
    std::shuffle(destination.begin(), destination.end(), random);
    for (int i = 0; i < kDies; ++i) {
        if (destination[static_cast<std::size_t>(i)] == i) {
            std::swap(destination[static_cast<std::size_t>(i)],
                      destination[static_cast<std::size_t>((i + 1) % kDies)]);
        }
    }
    Scenario scenario = wafer(32, 32);
    for (DieId src = 0; src < kDies; ++src) {
        addP2p(scenario, src, destination[static_cast<std::size_t>(src)], 1024.0 * 1024);
    }
    return scenario;
}

// A ring all-reduce of 64 MiB over the first `ranks` dies of a rows x cols mesh, in row-major
// order: 2 (ranks - 1) steps of `ranks` flows chained by step dependencies.
Scenario ringAllReduce(int rows, int cols, int ranks) {
    Scenario scenario = wafer(rows, cols);
    TrafficOp op;
    op.id = "ar";
    op.kind = OpKind::AllReduce;
    op.group.resize(static_cast<std::size_t>(ranks));
    std::iota(op.group.begin(), op.group.end(), 0);
    op.bytes = Quantity{64.0 * 1024 * 1024, "64 MiB"};
    op.algorithm = Algorithm::Ring;
    scenario.traffic.push_back(std::move(op));
    return scenario;
}

// (c) over all 256 dies of a 16x16 mesh: 2 * 255 steps * 256 ranks = 130,560 flows.
Scenario ringAllReduce16x16() {
    return ringAllReduce(16, 16, 256);
}

using ScenarioMaker = Scenario (*)();

void reportCounters(benchmark::State& state, const TrafficPlan& plan, const SimResult& result) {
    state.counters["flows"] = static_cast<double>(plan.flows.size());
    state.counters["makespan_us"] = result.makespanS * 1e6;
    state.counters["solves"] = static_cast<double>(result.rateRecomputations);
}

void planOnly(benchmark::State& state, ScenarioMaker make) {
    const Scenario scenario = make();
    const WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        TrafficPlan plan = planTraffic(scenario, topology);
        benchmark::DoNotOptimize(plan);
    }
}

void simulateOnly(benchmark::State& state, ScenarioMaker make) {
    const Scenario scenario = make();
    const WaferTopology topology(scenario.topologySpec());
    const TrafficPlan plan = planTraffic(scenario, topology);
    SimResult result;
    for (auto _ : state) {
        result = simulate(plan.problem);
        benchmark::DoNotOptimize(result);
    }
    reportCounters(state, plan, result);
}

void simulateStoreAndForward(benchmark::State& state, ScenarioMaker make) {
    const Scenario scenario = make();
    const WaferTopology topology(scenario.topologySpec());
    TrafficPlan plan = planTraffic(scenario, topology);
    plan.problem.network = {NetworkModel::StoreAndForward, 1024.0 * 1024};
    SimResult result;
    for (auto _ : state) {
        result = simulate(plan.problem);
        benchmark::DoNotOptimize(result);
    }
    reportCounters(state, plan, result);
}

// A ring all-reduce over the first 4,096 dies of a 256x256 wafer, refused by the size guard.
void refuse4096(benchmark::State& state) {
    const Scenario scenario = ringAllReduce(256, 256, 4096);
    const WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        try {
            benchmark::DoNotOptimize(planTraffic(scenario, topology));
            state.SkipWithError("the 4,096-die all-reduce was not refused");
        } catch (const ScenarioError& error) {
            benchmark::DoNotOptimize(error);
        }
    }
}

// Counts the bytes written to it and keeps none: the report's cost without the disk's.
class CountingBuffer : public std::streambuf {
public:
    std::size_t bytes = 0;

protected:
    int_type overflow(int_type c) override {
        bytes += traits_type::eq_int_type(c, traits_type::eof()) ? 0 : 1;
        return traits_type::not_eof(c);
    }
    std::streamsize xsputn(const char*, std::streamsize count) override {
        bytes += static_cast<std::size_t>(count);
        return count;
    }
};

void writeReport(benchmark::State& state, ScenarioMaker make, ReportDetail detail) {
    const ScenarioRun run = prepareRun(make(), RunOptions{});
    const SimulationReport report = reportOf(run, simulateRun(run));
    CountingBuffer buffer;
    std::ostream out(&buffer);
    for (auto _ : state) {
        buffer.bytes = 0;
        writeReportJson(out, report, detail);
    }
    state.counters["report_MB"] = static_cast<double>(buffer.bytes) / 1e6;
}

void buildReport(benchmark::State& state, ScenarioMaker make, ReportDetail detail) {
    const ScenarioRun run = prepareRun(make(), RunOptions{});
    const SimResult result = simulateRun(run);
    const std::function<bool()> neverCancelled = [] { return false; };
    for (auto _ : state) {
        const SimulationReport report = reportOf(run, result, detail, neverCancelled);
        benchmark::DoNotOptimize(report.flows.size());
    }
}

void endToEnd(benchmark::State& state, ScenarioMaker make) {
    const Scenario scenario = make();
    const WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        TrafficPlan plan = planTraffic(scenario, topology);
        SimResult result = simulate(plan.problem);
        benchmark::DoNotOptimize(result);
    }
}

BENCHMARK_CAPTURE(planOnly, a_all_to_all_8x8, uniformAllToAll8x8)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateOnly, a_all_to_all_8x8, uniformAllToAll8x8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(endToEnd, a_all_to_all_8x8, uniformAllToAll8x8)->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(planOnly, b_permutation_32x32, randomPermutation32x32)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateOnly, b_permutation_32x32, randomPermutation32x32)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(endToEnd, b_permutation_32x32, randomPermutation32x32)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(planOnly, c_ring_allreduce_16x16, ringAllReduce16x16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateOnly, c_ring_allreduce_16x16, ringAllReduce16x16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(endToEnd, c_ring_allreduce_16x16, ringAllReduce16x16)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(simulateStoreAndForward, a_all_to_all_8x8, uniformAllToAll8x8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateStoreAndForward, b_permutation_32x32, randomPermutation32x32)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateStoreAndForward, c_ring_allreduce_16x16, ringAllReduce16x16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(refuse4096)->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(writeReport, c_ring_allreduce_16x16_full, ringAllReduce16x16, ReportDetail::Full)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(buildReport, c_ring_allreduce_16x16_full, ringAllReduce16x16, ReportDetail::Full)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(writeReport, c_ring_allreduce_16x16_summary, ringAllReduce16x16,
                  ReportDetail::Summary)
    ->Unit(benchmark::kMillisecond);

} // namespace
} // namespace ws
