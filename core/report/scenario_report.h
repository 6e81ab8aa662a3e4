#pragma once

#include "io/scenario.h"
#include "report/simulation_report.h"
#include "topology/wafer_topology.h"

#include <filesystem>

namespace ws {

// Plans and simulates a scenario and reports it, as `waferscope-cli simulate` does: its
// training step when it has a workload or strategy (buildTrainingStep + buildStepReport), else
// its explicit traffic (planTraffic + buildSimulationReport). Environment overrides are not
// applied: the caller decides. Throws ScenarioError for bad or infeasible input.
SimulationReport simulateScenarioReport(const Scenario& scenario, const WaferTopology& topology,
                                        const std::filesystem::path& scenarioDirectory);

} // namespace ws
