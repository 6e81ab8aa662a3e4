#pragma once

#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "search/strategy_search.h"
#include "topology/wafer_topology.h"

#include <string>
#include <vector>

namespace ws {

// The family of a strategy (docs/search.md "Families"): what splits the model beyond data
// parallelism, the question a regime map answers. In this order of precedence:
//   "tatp"        TATP streams (tatp > 1), with whatever else;
//   "fsdp_hybrid" FSDP across replicas with tensor or sequence parallelism inside them;
//   "tp_sp"       Megatron's tensor parallelism (with or without its sequence parallelism,
//                 with or without context parallelism), weights replicated across replicas;
//   "sp"          context parallelism alone (sp > 1), weights replicated;
//   "pp"          pipeline stages of data-parallel replicas;
//   "dp"          data parallelism alone, with or without FSDP.
std::string strategyFamily(const StrategySpec& strategy);
// The families above, in that order: what a regime map's legend lists.
const std::vector<std::string>& strategyFamilies();

// A family's best strategy, simulated.
struct FamilyBest {
    std::string family;
    StrategyScore score; // simulatedStepS set
};

// The best strategy of every family the search met, best first: the search's simulated top
// strategies, and each family's `perFamily` best analytical candidates that fit in memory
// re-scored by the full simulator (those the search already simulated are not simulated
// again), so that the best family's best is at least as fast as the search's best: what the sweep's
// `search` reports (the best's family and the runner-up family's margin). No TCME polish: every
// family is judged by the same untuned simulation. Throws RunCancelled when `cancel` fires.
std::vector<FamilyBest> familyBests(const Scenario& scenario, const WaferTopology& topology,
                                    const SearchResult& result, int perFamily = 4,
                                    const std::function<bool()>& cancel = {});

} // namespace ws
