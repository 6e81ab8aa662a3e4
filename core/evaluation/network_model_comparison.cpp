#include "evaluation/network_model_comparison.h"

#include "evaluation/scenario_run.h"

namespace ws {

namespace {

NetworkModelOutcome outcomeIn(Scenario scenario, NetworkModel model, const RunOptions& options) {
    NetworkSpec network = scenario.network.value_or(NetworkSpec{});
    network.model = model;
    scenario.network = network;
    const SimulationReport report = simulateScenarioReport(std::move(scenario), options);
    NetworkModelOutcome outcome;
    outcome.network = report.network;
    outcome.makespanS = report.makespanS;
    if (report.step)
        outcome.stepS = report.step->stepS;
    const std::vector<LinkReport> hottest = report.hottestLinks(1);
    if (!hottest.empty() && hottest.front().bytes > 0.0)
        outcome.hottestLink = hottest.front();
    return outcome;
}

} // namespace

double NetworkModelComparison::ratio() const {
    const double fluidS = fluid.stepS.value_or(fluid.makespanS);
    const double chunkedS = storeAndForward.stepS.value_or(storeAndForward.makespanS);
    return fluidS > 0.0 ? chunkedS / fluidS : 1.0;
}

NetworkModelComparison compareNetworkModels(const Scenario& scenario, const RunOptions& options) {
    return {outcomeIn(scenario, NetworkModel::Fluid, options),
            outcomeIn(scenario, NetworkModel::StoreAndForward, options)};
}

} // namespace ws
