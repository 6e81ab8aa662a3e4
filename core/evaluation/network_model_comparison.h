#pragma once

#include "evaluation/run_options.h"
#include "report/simulation_report.h"
#include "scenario/scenario.h"

#include <optional>
#include <vector>

namespace ws {

// What one network model makes of a scenario: the figures `simulate --compare-modes` and the
// GUI's comparison show side by side (docs/network-model.md section 10).
struct NetworkModelOutcome {
    NetworkSettings network;
    double makespanS = 0.0;
    std::optional<double> stepS;           // training steps: the whole step, scaled from the window
    std::optional<LinkReport> hottestLink; // most bytes (ties by id); none without traffic
};

// Both ends of the bracket: the fluid model and store-and-forward, in the scenario's chunk
// size (1 MiB when the file sets none). Bytes per link are the same in both (the routes are);
// utilisation and times are not.
struct NetworkModelComparison {
    NetworkModelOutcome fluid;
    NetworkModelOutcome storeAndForward;

    // Store-and-forward's time over the fluid one (step time for a training step, else the
    // makespan); 1 when the fluid time is 0.
    double ratio() const;
};

// The figures of a report (in the model it was simulated in).
NetworkModelOutcome outcomeOf(const SimulationReport& report);
// The scenario simulated in `model` (its chunk kept) through the one pipeline (prepareRun,
// simulateRun, reportOf); throws as those do (ScenarioError, RunCancelled).
NetworkModelOutcome outcomeInModel(Scenario scenario, NetworkModel model,
                                   const RunOptions& options);
// Both: the scenario run once in each model.
NetworkModelComparison compareNetworkModels(const Scenario& scenario, const RunOptions& options);

} // namespace ws
