#pragma once

#include "collectives/traffic_plan.h"
#include "evaluation/run_options.h"
#include "report/simulation_report.h"
#include "scenario/scenario.h"
#include "sim/sim_problem.h"
#include "step/training_step.h"
#include "topology/wafer_topology.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// The one evaluation pipeline: every place that simulates a scenario (the CLI's simulate and
// validate, the GUI's analysis, TCME's candidates, the search's re-scoring) goes through
//   prepareRun  -> a ScenarioRun (overrides applied, topology, planned traffic or built step)
//   simulateRun -> the SimResult of its problem
// and reads what it needs from the pair: reportOf for the report of docs/cli.md section
// 4.1 (`simulate --json`), TCME's ScenarioEvaluation (tcme/scenario_evaluation.h) and the search's
// SimulatedStep (search/strategy_scoring.h) are projections of the same two values.
//
// A scenario with a workload or a strategy is a training step (buildTrainingStep: the
// explicit traffic runs alongside); one with neither is a pure network experiment
// (planTraffic).
struct ScenarioRun {
    Scenario scenario; // as simulated: the environment overrides applied
    std::shared_ptr<const WaferTopology> topology;
    EnvironmentOverrides overrides;   // what the environment set (notes say so in reports)
    std::optional<TrafficPlan> plan;  // a pure network experiment
    std::optional<TrainingStep> step; // a training step (its graph refers to *topology)

    const SimProblem& problem() const;
    // The report's warnings: one line per environment override applied.
    const std::vector<std::string>& warnings() const { return overrides.notes; }
};

// The scenario as a run sees it: when options.applyEnvironment is set, the environment's
// overrides applied to `scenario`; returns what was applied. prepareRun calls it, and so do
// the commands that hand a scenario to TCME or the search (in the CLI and the GUI alike), so
// that every front end honours every variable the same way. Throws ScenarioError at
// "environment.NAME" for a malformed value.
EnvironmentOverrides applyRunEnvironment(Scenario& scenario, const RunOptions& options);

// Throws ScenarioError for bad or infeasible input (a wafer that cannot be built is an error
// at "wafer", a malformed environment variable one at "environment.NAME"), and RunCancelled
// when options.cancel fires while the step is built or the traffic planned (seconds on a 32x32
// wafer: Cancel must not wait for the simulation to start).
ScenarioRun prepareRun(Scenario scenario, const RunOptions& options);

// Simulates the run's problem, polling options.cancel (throws RunCancelled when it fires) and
// telling options.progress when done.
SimResult simulateRun(const ScenarioRun& run, const RunOptions& options = {});

// The user-facing report of a simulated run (buildStepReport or buildSimulationReport), with
// the run's warnings; a Summary one leaves out the per-flow records and die events. A Full
// one of a run prepared with FlowRecords::Dropped throws std::invalid_argument. Polls `cancel`
// as the simulation does (throws RunCancelled).
SimulationReport reportOf(const ScenarioRun& run, const SimResult& result,
                          ReportDetail detail = ReportDetail::Full,
                          const std::function<bool()>& cancel = {});

// prepareRun + simulateRun + reportOf: what `waferscope-cli simulate` prints and the GUI shows.
// A Summary run drops the flow records and the task labels (RunOptions::flowRecords, labels)
// whatever `options` says.
SimulationReport simulateScenarioReport(Scenario scenario, const RunOptions& options,
                                        ReportDetail detail = ReportDetail::Full);

} // namespace ws
