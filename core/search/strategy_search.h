#pragma once

#include "scenario/scenario.h"
#include "topology/wafer_topology.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ws {

struct SearchOptions {
    int threads = 0;        // 0: every hardware thread
    std::uint64_t seed = 1; // the GA's only source of randomness (std::mt19937_64)
    int budget = 2000;      // analytical evaluations of distinct strategies by the GA
    int population = 32;    // genomes per generation
    int topK = 4;           // best analytical candidates re-scored by the full simulator
    bool polishWithTcme = true;
    int tcmeMaxIter = 3; // TCME iterations on the winner (each simulates a few candidates)
};

// One strategy, scored.
struct StrategyScore {
    StrategySpec strategy;
    std::string label;                    // "dp 6 x tatp 8, fsdp, snake"
    double analyticStepS = 0.0;           // the fast analytical model
    std::optional<double> simulatedStepS; // the full simulator, when re-scored
    double tokensPerSecond = 0.0;         // from the simulated step time when there is one
    double memoryPerDieBytes = 0.0;
    bool outOfMemory = false; // more than SRAM + HBM per die
    bool fitsInSram = false;
};

struct SearchProgress {
    int evaluations = 0; // analytical evaluations so far
    int budget = 0;
    double bestStepS = 0.0; // best analytical step time so far (0 before any feasible one)
    double elapsedS = 0.0;
    double remainingS = 0.0; // estimated from the evaluation rate so far
    // The valid strategies the GA evaluated since the previous call, scored analytically
    // (out-of-memory ones included and flagged), in evaluation order: a live scatter plot.
    std::vector<StrategyScore> newCandidates;
};

// A baseline system (the paper's Megatron-1, Megatron-3 and FSDP, with the sequential mapper):
// its best configuration on the same wafer and model, or why it has none.
struct BaselineScore {
    std::string name;   // "Megatron-1 (TP)"
    std::string family; // what it may vary: "tp only (activations replicated), sequential"
    std::optional<StrategyScore> score;
    std::string whyNot; // when score is empty: "out of memory: at best 95.3 GB per die ..."
};

struct SearchResult {
    StrategyScore best;
    Scenario bestScenario; // the input with the best strategy (and TCME's tuned routes)
    std::vector<StrategyScore> candidates; // every distinct strategy the GA evaluated, analytic
    std::vector<StrategyScore> top;        // re-scored by the simulator, best first
    std::vector<BaselineScore> baselines;
    std::vector<std::string> segmentPlan; // level 1: per-segment plan of the best data-parallel
                                          // degree, with re-sharding costs
    std::vector<std::string> notes;       // what was modelled or skipped
    bool cancelled = false;
    int evaluations = 0;       // analytical evaluations by the GA (<= budget)
    int otherEvaluations = 0;  // by level 1 and the baselines
    int simulations = 0;       // full simulations (top K, baselines, TCME polish)
    bool tcmeImproved = false; // the TCME-tuned routes beat the untuned winner
};

// The dual-level strategy search of docs/concepts.md section 4 (see docs/search.md).
//
// Level 1 cuts each layer at its residual connections into an attention and an MLP (or MoE)
// segment and, for every data-parallel degree, chooses each segment's model-parallel split
// (sp, tp, tatp) by dynamic programming over the chain of 2 x layers segments, counting the
// re-sharding of the residual stream between segments whose splits differ. The step model
// runs one strategy for the whole layer, so the uniform strategies used by the best plans seed
// level 2. Level 2 is a genetic algorithm over (pp, dp, sp, tp, tatp), FSDP, the FSDP
// all-gather, double buffering, micro-batches, checkpointing and the placement (sequential, snake
// or explicit groups), with the AnalyticEvaluator as fitness (out-of-memory strategies are
// infeasible). pp, the pipeline stages, takes the divisors of both the layers and the system's
// wafer count (stages on whole wafers; 1 on one wafer); level 1 plans one stage (pp = 1). The top K
// are simulated in full; the best is polished by TCME.
//
// Deterministic for a seed whatever `threads` is: every generation's genomes are drawn in
// sequence from one seeded std::mt19937_64, evaluated in parallel into a pre-sized vector, and
// selected in sequence, ties broken by Genome::key(). `cancel` is polled between evaluations:
// the result then holds the best analytical candidate so far (cancelled = true, no
// simulation). `progress` is called from the calling thread after every generation.
//
// Throws ScenarioError for a scenario without a workload, or with one that does not parse.
// The scenario's own strategy is ignored (an invalid one is not an error), but its routing
// mode, wafer and faults are used.
SearchResult searchStrategies(const Scenario& scenario, const WaferTopology& topology,
                              const SearchOptions& options,
                              const std::function<bool()>& cancel = {},
                              const std::function<void(const SearchProgress&)>& progress = {});

} // namespace ws
