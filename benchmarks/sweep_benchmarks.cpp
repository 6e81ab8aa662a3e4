// Sweep throughput (docs/cli.md section 10): points per second of a 500-point GEMM
// sweep on 1 and 2 threads. The ideal is linear in threads; the rows are handed over in point
// order, so a slow point holds back the writing, not the workers.
#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace ws {
namespace {

// 5 x 10 x 10 GEMM steps on a 4x4 wafer: each simulates in about a millisecond.
constexpr const char* kGemmSweep500 = R"({"format": "waferscope.sweep", "version": 1,
        "base": {"format": "waferscope.scenario", "version": 1,
                 "wafer": {"rows": 4, "cols": 4},
                 "workload": {"kind": "gemm", "m": 1024, "k": 1024, "n": 1024},
                 "strategy": {"dp": 2, "tatp": 2, "fsdp": true}},
        "axes": {"workload.k": [512, 1024, 1536, 2048, 2560],
                 "workload.m": [256, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 2560],
                 "workload.n": [256, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 2560]}})";

SweepSpec gemmSweep500() {
    return parseSweep(kGemmSweep500);
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

#ifdef WAFERSCOPE_MPIEXEC
// The same sweep through `mpirun -n R waferscope-cli sweep --threads 1` (docs/scale.md): R
// processes of one thread each, rank 0 writing the rows to a file. The time includes mpirun's
// start, which BM_MpirunStart measures alone (a sweep of one point).
void runUnderMpirun(benchmark::State& state, const std::string& sweepText) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("waferscope_sweep_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "sweep.json") << sweepText;
    const std::string command = "OMPI_MCA_btl_vader_single_copy_mechanism=none '" WAFERSCOPE_MPIEXEC
                                "' --allow-run-as-root --oversubscribe -n " +
                                std::to_string(state.range(0)) +
                                " '" WAFERSCOPE_CLI_PATH "' sweep '" +
                                (dir / "sweep.json").string() + "' --threads 1 -o '" +
                                (dir / "out.csv").string() + "' 2>/dev/null";
    std::size_t points = 0;
    for (auto _ : state) {
        std::filesystem::remove(dir / "out.csv");
        if (std::system(command.c_str()) != 0) {
            state.SkipWithError("mpirun failed");
            break;
        }
        points += pointCount(parseSweep(sweepText));
    }
    std::filesystem::remove_all(dir);
    state.counters["points_per_s"] =
        benchmark::Counter(static_cast<double>(points), benchmark::Counter::kIsRate);
}

void BM_Sweep500GemmPointsMpiRanks(benchmark::State& state) {
    runUnderMpirun(state, kGemmSweep500);
}
BENCHMARK(BM_Sweep500GemmPointsMpiRanks)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);

// 24 training steps of GPT-3 175B on the 6x8 wafer (about 0.1 s each, unequal: random dead
// links reroute some), where sharing among ranks pays for mpirun's start.
void BM_Sweep24Gpt3StepsMpiRanks(benchmark::State& state) {
    runUnderMpirun(state, R"({"format": "waferscope.sweep", "version": 1,
        "base": ")" WAFERSCOPE_SCENARIO_DIR R"(/gpt3_175b_6x8_fsdp_tatp.json",
        "axes": {"wafer.link_bandwidth": ["2 TB/s", "4 TB/s", "8 TB/s"],
                 "wafer.link_latency": ["50 ns", "100 ns", "200 ns", "400 ns"],
                 "faults.link_rate": [0, 0.1]}})");
}
BENCHMARK(BM_Sweep24Gpt3StepsMpiRanks)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

void BM_MpirunStart(benchmark::State& state) {
    runUnderMpirun(state, R"({"format": "waferscope.sweep", "version": 1,
        "base": {"format": "waferscope.scenario", "version": 1,
                 "wafer": {"rows": 4, "cols": 4},
                 "workload": {"kind": "gemm", "m": 256, "k": 256, "n": 256},
                 "strategy": {"dp": 2, "tatp": 2, "fsdp": true}},
        "axes": {"workload.k": [256]}})");
}
BENCHMARK(BM_MpirunStart)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);
#endif

} // namespace
} // namespace ws
