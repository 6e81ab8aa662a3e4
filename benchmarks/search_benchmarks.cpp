// The strategy search (issue: core/search). Targets: at least 10,000 analytical evaluations per
// second per core; a full search for GPT-3 175B on the 6x8 wafer in under 10 s on 2 cores.
// BM_RankAgreement measures how the analytical model ranks 200 random strategies against the
// full simulator (Spearman's r and the mean relative error, as counters).
#include "io/scenario_io.h"
#include "scenario/workload.h"
#include "search/analytic_evaluator.h"
#include "search/rank_correlation.h"
#include "search/search_space.h"
#include "search/strategy_search.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

const char* const kGpt3Scenario = WAFERSCOPE_SCENARIO_DIR "/gpt3_175b_6x8_fsdp_tatp.json";

// One core: random valid strategies of GPT-3 175B on the 6x8 wafer, evaluated one by one.
void BM_AnalyticEvaluationsPerCore(benchmark::State& state) {
    const ws::Scenario scenario = ws::loadScenario(kGpt3Scenario);
    const ws::WaferTopology topology(scenario.topologySpec());
    const ws::Workload workload = *scenario.workload;
    const ws::SearchSpace space(workload, topology);
    const ws::AnalyticEvaluator evaluator(workload, scenario.wafer, topology,
                                          scenario.routingMode());
    std::mt19937_64 rng(1);
    std::vector<ws::StrategySpec> strategies;
    for (int i = 0; i < 512; ++i)
        strategies.push_back(space.toStrategy(space.random(rng)));
    std::size_t next = 0;
    for (auto _ : state) {
        const ws::AnalyticEstimate e = evaluator.evaluate(strategies[next++ % strategies.size()]);
        benchmark::DoNotOptimize(e.stepS);
    }
    state.counters["evals_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AnalyticEvaluationsPerCore);

// The whole search (level 1, baselines, GA, top-4 simulations, TCME polish), 2 threads.
void BM_Gpt3FullSearchTwoThreads(benchmark::State& state) {
    const ws::Scenario scenario = ws::loadScenario(kGpt3Scenario);
    const ws::WaferTopology topology(scenario.topologySpec());
    ws::SearchOptions options;
    options.threads = 2;
    for (auto _ : state) {
        const ws::SearchResult result = ws::searchStrategies(scenario, topology, options);
        benchmark::DoNotOptimize(result.best.analyticStepS);
        state.counters["best_step_s"] = result.best.simulatedStepS.value_or(0.0);
        state.counters["evaluations"] = result.evaluations + result.otherEvaluations;
    }
}
BENCHMARK(BM_Gpt3FullSearchTwoThreads)->Unit(benchmark::kSecond)->Iterations(1);

void BM_RankAgreement200(benchmark::State& state) {
    const ws::Scenario scenario = ws::loadScenario(kGpt3Scenario);
    const ws::WaferTopology topology(scenario.topologySpec());
    for (auto _ : state) {
        const ws::RankAgreement agreement =
            ws::measureRankAgreement(scenario, topology, 200, 2026, 2);
        state.counters["spearman"] = agreement.spearman;
        state.counters["mean_rel_error"] = agreement.meanAbsRelativeError;
        state.counters["max_rel_error"] = agreement.maxAbsRelativeError;
        state.counters["samples"] = static_cast<double>(agreement.analyticS.size());
    }
}
BENCHMARK(BM_RankAgreement200)->Unit(benchmark::kSecond)->Iterations(1);

} // namespace
