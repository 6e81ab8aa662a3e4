#include "scenario_analysis.h"

#include "io/scenario_error.h"
#include "report/scenario_report.h"

namespace ws {

std::shared_ptr<const ScenarioAnalysis> analyseScenario(const Scenario& scenario,
                                                        const std::filesystem::path& directory) {
    auto analysis = std::make_shared<ScenarioAnalysis>();
    analysis->scenario = scenario;
    try {
        analysis->topology = std::make_shared<const WaferTopology>(scenario.wafer.topologySpec());
    } catch (const std::invalid_argument& error) {
        throw ScenarioError("wafer", error.what());
    }
    analysis->report = simulateScenarioReport(scenario, *analysis->topology, directory);
    try {
        analysis->groups = dieGroups(scenario, *analysis->topology);
    } catch (const ScenarioError& error) {
        analysis->groupsError = error.what();
        analysis->groups.dpOfDie.assign(static_cast<std::size_t>(analysis->topology->dieCount()), -1);
        analysis->groups.tatpOfDie = analysis->groups.dpOfDie;
    }
    analysis->flowsOnLink.resize(static_cast<std::size_t>(analysis->topology->linkCount()));
    for (std::size_t flow = 0; flow < analysis->report.flows.size(); ++flow)
        for (LinkId link : analysis->report.flows[flow].route.links)
            analysis->flowsOnLink[static_cast<std::size_t>(link)].push_back(static_cast<int>(flow));
    return analysis;
}

} // namespace ws
