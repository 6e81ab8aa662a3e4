#include "evaluation/network_model_comparison.h"

#include "evaluation/scenario_run.h"

namespace ws {

NetworkModelOutcome outcomeOf(const SimulationReport& report) {
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

NetworkModelOutcome outcomeInModel(Scenario scenario, NetworkModel model,
                                   const RunOptions& options) {
    NetworkSpec network = scenario.network.value_or(NetworkSpec{});
    network.model = model;
    scenario.network = network;
    return outcomeOf(simulateScenarioReport(std::move(scenario), options, ReportDetail::Summary));
}

double NetworkModelComparison::ratio() const {
    const double fluidS = fluid.stepS.value_or(fluid.makespanS);
    const double chunkedS = storeAndForward.stepS.value_or(storeAndForward.makespanS);
    return fluidS > 0.0 ? chunkedS / fluidS : 1.0;
}

NetworkModelComparison compareNetworkModels(const Scenario& scenario, const RunOptions& options) {
    return {outcomeInModel(scenario, NetworkModel::Fluid, options),
            outcomeInModel(scenario, NetworkModel::StoreAndForward, options)};
}

} // namespace ws
