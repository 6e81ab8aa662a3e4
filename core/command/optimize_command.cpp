#include "command/optimize_command.h"

#include "evaluation/scenario_run.h"
#include "topology/wafer_topology.h"

#include <utility>

namespace ws {

namespace {

nlohmann::json snapshotToJson(const TcmeSnapshot& snapshot) {
    nlohmann::json json = {{"makespan_s", snapshot.makespanS},
                           {"max_link_bytes", snapshot.maxLinkBytes},
                           {"max_utilization", snapshot.maxUtilization}};
    if (snapshot.stepS > 0) // a training step: what TCME minimises first
        json["step_s"] = snapshot.stepS;
    return json;
}

nlohmann::json iterationToJson(const TcmeIteration& iteration) {
    nlohmann::json actions = nlohmann::json::array();
    for (const TcmeAction& action : iteration.actions) {
        nlohmann::json entry = {{"kind", toString(action.kind)},
                                {"flow", action.flow},
                                {"old_path", action.oldPath},
                                {"new_path", action.newPath},
                                {"detail", action.detail}};
        if (action.kind == TcmeAction::Kind::Retree) {
            entry["old_tree"] = action.oldTree; // [[from, to], ...], parents first
            entry["new_tree"] = action.newTree;
        }
        actions.push_back(std::move(entry));
    }
    nlohmann::json json = {{"index", iteration.index},
                           {"max_link", {{"from", iteration.mclFrom}, {"to", iteration.mclTo}}},
                           {"max_link_bytes", iteration.mclBytes},
                           {"max_utilization", iteration.mclUtilization},
                           {"makespan_s", iteration.after.makespanS},
                           {"queueing_delay_s", iteration.queueingDelayS},
                           {"conflict_flows", iteration.conflictFlows},
                           {"conflict_groups", iteration.conflictGroups},
                           {"hot_flows", iteration.hotFlows},
                           {"actions", std::move(actions)},
                           {"gain", toString(iteration.gain)},
                           {"before", snapshotToJson(iteration.before)},
                           {"after", snapshotToJson(iteration.after)}};
    if (!iteration.phaseCollective.empty()) // a training step's: max_utilization is over it
        json["phase"] = {{"collective", iteration.phaseCollective},
                         {"from_s", iteration.phaseFromS},
                         {"to_s", iteration.phaseToS}};
    return json;
}

} // namespace

const char* toString(TcmeAction::Kind kind) {
    switch (kind) {
    case TcmeAction::Kind::Reroute:
        return "reroute";
    case TcmeAction::Kind::Multicast:
        return "multicast";
    case TcmeAction::Kind::Hierarchical:
        return "hierarchical";
    case TcmeAction::Kind::Retree:
        return "retree";
    case TcmeAction::Kind::ReductionTree:
        return "reduction_tree";
    case TcmeAction::Kind::Split:
        return "split";
    case TcmeAction::Kind::BidirectionalRing:
        return "bidirectional_ring";
    }
    return "unknown";
}

OptimizeOutcome optimizeScenario(Scenario scenario, std::optional<int> maxIter,
                                 const RunOptions& options) {
    OptimizeOutcome outcome;
    outcome.warnings = applyRunEnvironment(scenario, options).notes;
    if (maxIter) {
        if (!scenario.tcme)
            scenario.tcme = TcmeSpec{};
        scenario.tcme->maxIter = *maxIter;
        outcome.warnings.push_back("--max-iter " + std::to_string(*maxIter) +
                                   " overrides tcme.max_iter");
    }
    const WaferTopology topology(scenario.topologySpec());
    TcmeEngine engine(scenario, topology, tcmeOptionsFrom(scenario));
    outcome.stopReason = engine.run(options.cancel);
    outcome.tunedScenario = engine.tunedScenario();
    outcome.iterations = engine.iterations();
    outcome.before = engine.initial();
    outcome.after = engine.current();
    return outcome;
}

nlohmann::json optimizeReportJson(const OptimizeOutcome& outcome) {
    nlohmann::json iterations = nlohmann::json::array();
    for (const TcmeIteration& iteration : outcome.iterations)
        iterations.push_back(iterationToJson(iteration));
    return {{"iterations", std::move(iterations)},
            {"stop_reason", toString(outcome.stopReason)},
            {"before", snapshotToJson(outcome.before)},
            {"after", snapshotToJson(outcome.after)},
            {"warnings", outcome.warnings}};
}

} // namespace ws
