#pragma once

#include "scenario/scenario.h"
#include "search/strategy_search.h"
#include "topology/wafer_topology.h"

#include <functional>
#include <string>
#include <vector>

namespace ws {

// A strategy near another one that runs on the hardware and fits in memory.
struct NearStrategy {
    StrategyScore score;     // simulatedStepS set; outOfMemory false
    int changes = 0;         // settings that differ from the strategy it is near (strategyChanges)
    std::string changesText; // "dp 6 -> 5, mapping snake -> sequential"
};

// The settings in which `to` differs from `from`, one phrase each, in a fixed order: the
// degrees (pp, dp, sp, tp, tatp), then FSDP and its all-gather, checkpointing, sequence
// parallelism, tp_overlap, ring algorithm, double buffering, micro-batches, mapping.
std::vector<std::string> strategyChanges(const StrategySpec& from, const StrategySpec& to);

// The strategies nearest to the scenario's own that this hardware runs and that fit in memory
// (docs/search.md "Nearest fitting strategies"): what the app offers when a fault or an edit
// leaves the strategy unable to place or out of memory. Candidates are the search space's
// moves from the strategy (SearchSpace::neighbours: one degree changed, another resized to fill
// the live dies, with or without the memory levers; micro-batches; the placement), and their
// moves when fewer than `count` of those fit. The analytical model keeps those that place and
// fit; the nearest (fewest changed settings), fastest first, are simulated in full, and the
// first `count` that simulate and fit are returned: fewest changes first, then the simulated
// step time. Settings the search does not vary (balance, the TATP schedule, FSDP's
// reduce-scatter) are kept.
//
// Throws ScenarioError for a scenario without a workload or strategy, and RunCancelled when
// `cancel` fires.
std::vector<NearStrategy> nearestFittingStrategies(const Scenario& scenario,
                                                   const WaferTopology& topology, int count = 3,
                                                   const std::function<bool()>& cancel = {});

} // namespace ws
