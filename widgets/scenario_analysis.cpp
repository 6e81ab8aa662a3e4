#include "scenario_analysis.h"

#include "evaluation/scenario_run.h"
#include "scenario/scenario_error.h"
#include "strategy/placement.h"

namespace ws {

std::shared_ptr<const ScenarioAnalysis> analyseScenario(const Scenario& scenario,
                                                        const std::function<bool()>& cancel,
                                                        bool compareNetworkModels) {
    auto analysis = std::make_shared<ScenarioAnalysis>();
    analysis->scenario = scenario;
    // The CLI's pipeline, overrides included: the app and `waferscope-cli simulate` agree on
    // every figure by construction.
    RunOptions options = frontEndRunOptions();
    options.cancel = cancel;
    const ScenarioRun run = prepareRun(scenario, options);
    analysis->topology = run.topology;
    analysis->report = reportOf(run, simulateRun(run, options), ReportDetail::Full, cancel);
    if (compareNetworkModels) {
        const NetworkModelOutcome shown = outcomeOf(analysis->report);
        const bool fluid = shown.network.model == NetworkModel::Fluid;
        const NetworkModelOutcome other = outcomeInModel(
            scenario, fluid ? NetworkModel::StoreAndForward : NetworkModel::Fluid, options);
        analysis->networkComparison =
            fluid ? NetworkModelComparison{shown, other} : NetworkModelComparison{other, shown};
    }
    try {
        analysis->groups = dieGroups(scenario, *analysis->topology);
    } catch (const ScenarioError& error) {
        analysis->groupsError = error.what();
        analysis->groups.dpOfDie.assign(static_cast<std::size_t>(analysis->topology->dieCount()),
                                        -1);
        analysis->groups.tatpOfDie = analysis->groups.dpOfDie;
        analysis->groups.tpOfDie = analysis->groups.dpOfDie;
    }
    if (scenario.strategy && scenario.strategy->pp > 1 && analysis->groupsError.empty()) {
        // The simulation placed it already, so it places: the mesh names each die's stage.
        const Placement placement = placeStrategy(*scenario.strategy, *analysis->topology);
        analysis->stageOfDie.assign(static_cast<std::size_t>(analysis->topology->dieCount()), -1);
        for (DieId die = 0; die < analysis->topology->dieCount(); ++die)
            if (const std::optional<Rank> rank = placement.rankOf(die))
                analysis->stageOfDie[static_cast<std::size_t>(die)] = rank->p;
    }
    analysis->flowsOnLink.resize(static_cast<std::size_t>(analysis->topology->linkCount()));
    for (std::size_t flow = 0; flow < analysis->report.flows.size(); ++flow)
        for (LinkId link : analysis->report.flows[flow].route.links)
            analysis->flowsOnLink[static_cast<std::size_t>(link)].push_back(static_cast<int>(flow));
    return analysis;
}

std::shared_ptr<const ScenarioAnalysis> analyseHardware(const Scenario& scenario,
                                                        const std::string& why,
                                                        const std::function<bool()>& cancel) {
    Scenario hardware = scenario;
    hardware.workload.reset();
    hardware.strategy.reset();
    hardware.traffic.clear();
    hardware.tcme.reset();
    if (hardware.routing)
        hardware.routing->paths.clear(); // pins of flows that are not run
    auto analysis = std::make_shared<ScenarioAnalysis>(*analyseScenario(hardware, cancel));
    analysis->scenario = scenario;
    analysis->groupsError = why;
    return analysis;
}

bool isTatpTransfer(const FlowReport& flow) {
    return flow.opKind == "p2p" || flow.opKind == "tatp";
}

} // namespace ws
