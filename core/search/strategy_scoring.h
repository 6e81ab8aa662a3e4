#pragma once

#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "search/analytic_evaluator.h"
#include "search/strategy_search.h"
#include "topology/wafer_topology.h"

#include <functional>
#include <optional>

namespace ws {

// A score from the analytical model alone (simulatedStepS empty).
StrategyScore analyticScore(const StrategySpec& strategy, const AnalyticEstimate& estimate,
                            double tokensPerStep);

// The scenario with its strategy replaced: wafer, explicit traffic and routing mode kept; of
// routing.paths only the pins of explicit traffic ops are kept (the old strategy's flows are
// gone).
Scenario withStrategy(const Scenario& scenario, const StrategySpec& strategy);

// The full simulator's step time for `scenario` (buildTrainingStep + simulate + stepTiming),
// with FSDP_ALLGATHER taken from the strategy. Throws ScenarioError for an infeasible strategy
// and RunCancelled when `cancel` fires.
struct SimulatedStep {
    double stepS = 0.0;
    double tokensPerSecond = 0.0;
    double memoryPerDieBytes = 0.0;
    bool outOfMemory = false;
    bool fitsInSram = false;
};
SimulatedStep simulateStep(const Scenario& scenario, const WaferTopology& topology,
                           const std::function<bool()>& cancel = {});

// `strategy` on the scenario, simulated, when it places and fits in memory: nullopt when the
// step builder refuses it (the analytical model placed it; the builder did not) or it runs out
// of memory. Throws RunCancelled when `cancel` fires.
std::optional<SimulatedStep> simulateFitting(const Scenario& scenario, const StrategySpec& strategy,
                                             const WaferTopology& topology,
                                             const std::function<bool()>& cancel = {});

} // namespace ws
