#include "evaluation/scenario_run.h"

#include "report/step_report.h"
#include "scenario/scenario_error.h"
#include "sim/fluid_simulator.h"

#include <stdexcept>
#include <utility>

namespace ws {

namespace {

std::shared_ptr<const WaferTopology> topologyFor(const Scenario& scenario,
                                                 const RunOptions& options) {
    if (options.topology)
        return options.topology;
    try {
        return std::make_shared<const WaferTopology>(scenario.topologySpec());
    } catch (const std::invalid_argument& error) {
        throw ScenarioError(scenario.system ? "system" : "wafer", error.what());
    }
}

void tell(const RunOptions& options, RunStage stage) {
    if (options.progress)
        options.progress(stage);
}

} // namespace

const SimProblem& ScenarioRun::problem() const {
    return step ? step->graph.problem() : plan->problem;
}

EnvironmentOverrides applyRunEnvironment(Scenario& scenario, const RunOptions& options) {
    if (!options.applyEnvironment)
        return {};
    EnvironmentOverrides overrides = readEnvironmentOverrides(options.environment);
    applyEnvironmentOverrides(overrides, scenario);
    return overrides;
}

ScenarioRun prepareRun(Scenario scenario, const RunOptions& options) {
    ScenarioRun run;
    run.overrides = applyRunEnvironment(scenario, options);
    run.scenario = std::move(scenario);
    run.topology = topologyFor(run.scenario, options);
    if (run.scenario.workload || run.scenario.strategy)
        run.step.emplace(buildTrainingStep(run.scenario, *run.topology, options.labels,
                                           options.cancel, options.limits, options.flowRecords));
    else
        run.plan.emplace(planTraffic(run.scenario, *run.topology, options.cancel, options.limits,
                                     options.flowRecords));
    tell(options, RunStage::Prepared);
    return run;
}

SimResult simulateRun(const ScenarioRun& run, const RunOptions& options) {
    SimResult result = simulate(run.problem(), options.cancel);
    tell(options, RunStage::Simulated);
    return result;
}

SimulationReport reportOf(const ScenarioRun& run, const SimResult& result, ReportDetail detail,
                          const std::function<bool()>& cancel) {
    if (run.step)
        return buildStepReport(run.scenario, *run.topology, *run.step, result, run.warnings(),
                               detail, cancel);
    return buildSimulationReport(run.scenario, *run.topology, *run.plan, result, run.warnings(),
                                 detail, cancel);
}

SimulationReport simulateScenarioReport(Scenario scenario, const RunOptions& options,
                                        ReportDetail detail) {
    RunOptions runOptions = options;
    if (detail == ReportDetail::Summary) { // the report reads no flow records and no labels
        runOptions.flowRecords = FlowRecords::Dropped;
        runOptions.labels = TaskLabels::Skipped;
    }
    const ScenarioRun run = prepareRun(std::move(scenario), runOptions);
    SimulationReport report = reportOf(run, simulateRun(run, options), detail, options.cancel);
    tell(options, RunStage::Reported);
    return report;
}

} // namespace ws
