// Sweep throughput (docs/cli.md section 10; issue 17): points per second of a 500-point GEMM
// sweep on 1 and 2 threads. The ideal is linear in threads; the rows are handed over in point
// order, so a slow point holds back the writing, not the workers.
#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"

#include <benchmark/benchmark.h>

#include <string>

namespace ws {
namespace {

// 5 x 10 x 10 GEMM steps on a 4x4 wafer: each simulates in about a millisecond.
SweepSpec gemmSweep500() {
    return parseSweep(R"({"format": "waferscope.sweep", "version": 1,
        "base": {"format": "waferscope.scenario", "version": 1,
                 "wafer": {"rows": 4, "cols": 4},
                 "workload": {"kind": "gemm", "m": 1024, "k": 1024, "n": 1024},
                 "strategy": {"dp": 2, "tatp": 2, "fsdp": true}},
        "axes": {"workload.k": [512, 1024, 1536, 2048, 2560],
                 "workload.m": [256, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 2560],
                 "workload.n": [256, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 2560]}})");
}

void BM_Sweep500GemmPoints(benchmark::State& state) {
    const SweepSpec spec = gemmSweep500();
    SweepRunOptions options;
    options.threads = static_cast<int>(state.range(0));
    std::size_t points = 0;
    for (auto _ : state)
        points += runSweep(spec, options);
    state.counters["points_per_s"] =
        benchmark::Counter(static_cast<double>(points), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sweep500GemmPoints)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
} // namespace ws
