#pragma once

#include "evaluation/network_model_comparison.h"
#include "report/simulation_report.h"
#include "scenario/scenario.h"
#include "strategy/die_groups.h"
#include "topology/wafer_topology.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// One scenario simulated, as every view draws it. Immutable once built: the views hold it as
// std::shared_ptr<const ScenarioAnalysis> and redraw from it (docs/architecture.md item 2).
struct ScenarioAnalysis {
    Scenario scenario;
    std::shared_ptr<const WaferTopology> topology;
    SimulationReport report;
    DieGroups groups;
    std::string groupsError; // why the groups could not be read, if so
    // By DieId: the pipeline stage of the rank on the die (strategy.pp > 1), -1 for an unused
    // die; empty with one stage or no strategy.
    std::vector<int> stageOfDie;
    std::vector<std::vector<int>> flowsOnLink; // by LinkId: indices into report.flows
    // When asked for: the report's model beside the other one (docs/network-model.md).
    std::optional<NetworkModelComparison> networkComparison;
};

// Simulates `scenario` through core's pipeline (evaluation/scenario_run.h, with the
// environment overrides, as the CLI does) and gathers what the views need. Synchronous:
// EvaluationRunner calls it off the GUI thread. Throws ScenarioError for bad input and
// RunCancelled when `cancel` returns true.
// With `compareNetworkModels`, the scenario is simulated in the other network model too.
std::shared_ptr<const ScenarioAnalysis> analyseScenario(const Scenario& scenario,
                                                        const std::function<bool()>& cancel = {},
                                                        bool compareNetworkModels = false);

// The scenario's hardware with nothing run on it, for the views to draw when the scenario
// itself does not simulate (docs/gui.md "When a strategy no longer fits"): its dies, links and
// faults, every load zero, no groups, and `why` as the groups' error. `scenario` is the whole
// scenario, so that it compares equal to the document's. Throws as analyseScenario does when
// even the hardware does not simulate.
std::shared_ptr<const ScenarioAnalysis> analyseHardware(const Scenario& scenario,
                                                        const std::string& why,
                                                        const std::function<bool()>& cancel = {});

// A flow of a TATP transfer: a point-to-point op of a traffic scenario or a TATP stream of a
// training step. Every other flow belongs to a collective (FSDP's gathers and reductions).
bool isTatpTransfer(const FlowReport& flow);

} // namespace ws
