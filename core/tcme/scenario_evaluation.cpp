#include "tcme/scenario_evaluation.h"

#include "evaluation/scenario_run.h"
#include "sim/fluid_simulator.h"
#include "step/round_link_bytes.h"
#include "step/round_windows.h"

#include <algorithm>
#include <utility>

namespace ws {

double ScenarioEvaluation::maxLinkBytes() const {
    return linkBytes.empty() ? 0.0 : *std::max_element(linkBytes.begin(), linkBytes.end());
}

LinkId ScenarioEvaluation::maxLink() const {
    LinkId best = -1;
    for (std::size_t link = 0; link < linkBytes.size(); ++link)
        if (linkBytes[link] > 0 &&
            (best < 0 || linkBytes[link] > linkBytes[static_cast<std::size_t>(best)]))
            best = static_cast<LinkId>(link);
    return best;
}

double ScenarioEvaluation::sumSquaredLinkBytes() const {
    double sum = 0.0;
    for (double bytes : linkBytes)
        sum += bytes * bytes;
    return sum;
}

double ScenarioEvaluation::maxUtilization() const {
    double best = 0.0;
    if (makespanS <= 0)
        return best;
    for (std::size_t link = 0; link < linkBytes.size(); ++link)
        best = std::max(best, linkBytes[link] / (linkBandwidth[link] * makespanS));
    if (roundWindowS.empty())
        return best;
    auto roundOf = [&](const EvaluatedFlow& flow) {
        const auto index = static_cast<std::size_t>(&flow - flows.data());
        return index < flowRound.size() ? flowRound[index] : -1;
    };
    for (const auto& [round, bytes] : roundLinkBytes(flows, roundOf, linkBytes.size())) {
        const auto window = roundWindowS.find(round);
        if (window == roundWindowS.end() || window->second <= 0)
            continue;
        for (std::size_t link = 0; link < bytes.size(); ++link)
            best = std::max(best, bytes[link] / (linkBandwidth[link] * window->second));
    }
    return best;
}

namespace {

// A collective flow "<id>/s<step>/r<rank>" belongs to "<id>".
std::string groupOf(const std::string& flowId) {
    const auto slash = flowId.find("/s");
    return slash == std::string::npos ? flowId : flowId.substr(0, slash);
}

// The flow as TCME sees it, taking its id, destinations and route; timings come later.
EvaluatedFlow evaluated(Flow&& flow) {
    EvaluatedFlow view;
    view.group = groupOf(flow.id);
    view.id = std::move(flow.id);
    view.opIndex = flow.opIndex;
    view.src = flow.src;
    view.dsts = std::move(flow.dsts);
    view.bytes = flow.bytes;
    view.multicast = flow.multicast;
    view.route = std::move(flow.route);
    return view;
}

// No flow's route depends on the load of the flows routed before it (see PreparedScenario).
bool routesAreIndependent(const Scenario& scenario, const WaferTopology& topology) {
    const RoutingMode mode = scenario.routingMode();
    if (mode != RoutingMode::XY && mode != RoutingMode::YX)
        return false;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        if (!topology.isAlive(die))
            return false;
    return std::all_of(topology.links().begin(), topology.links().end(),
                       [](const LinkProperties& link) { return link.alive; });
}

} // namespace

PreparedScenario prepareScenario(const Scenario& scenario, const WaferTopology& topology) {
    RunOptions options;
    // Only the problem, the flows and the tasks' kinds are read: no labels needed.
    options.labels = TaskLabels::Skipped;
    options.topology = borrowTopology(topology);
    ScenarioRun run = prepareRun(scenario, options);

    PreparedScenario prepared;
    ScenarioEvaluation& evaluation = prepared.evaluation;
    prepared.independentRoutes = routesAreIndependent(scenario, topology);
    auto opKindOf = [&](const EvaluatedFlow& view) {
        return toString(scenario.traffic[static_cast<std::size_t>(view.opIndex)].kind);
    };
    if (run.step) {
        TrainingStep& step = *run.step;
        evaluation.trainingStep = true;
        evaluation.roundWindowS =
            roundWindows(step.graph.problem(), step.graph.info(), step.strategy.tatp);
        std::vector<Flow> flows = step.graph.takeFlows();
        evaluation.flows.reserve(flows.size());
        prepared.flowTasks.reserve(flows.size());
        for (Flow& flow : flows) {
            const StepTaskInfo& info = step.graph.info()[static_cast<std::size_t>(flow.task)];
            const bool tatp = info.kind == StepTaskInfo::Kind::Transfer;
            prepared.flowTasks.push_back(flow.task);
            evaluation.flowRound.push_back(tatp ? info.round : -1);
            EvaluatedFlow view = evaluated(std::move(flow));
            view.kind = view.opIndex >= 0 ? opKindOf(view) : tatp ? "tatp" : "collective";
            view.role = info.role;
            evaluation.flows.push_back(std::move(view));
        }
        prepared.problem = step.graph.takeProblem();
    } else {
        TrafficPlan& plan = *run.plan;
        evaluation.flows.reserve(plan.flows.size());
        prepared.flowTasks.reserve(plan.flows.size());
        for (Flow& flow : plan.flows) {
            prepared.flowTasks.push_back(flow.task);
            EvaluatedFlow view = evaluated(std::move(flow));
            view.kind = opKindOf(view);
            evaluation.flows.push_back(std::move(view));
        }
        prepared.problem = std::move(plan.problem);
    }
    evaluation.linkBandwidth = prepared.problem.linkBandwidth;
    return prepared;
}

void completeEvaluation(PreparedScenario& prepared, SimResult&& result) {
    ScenarioEvaluation& evaluation = prepared.evaluation;
    evaluation.makespanS = result.makespanS;
    evaluation.linkBytes = std::move(result.linkBytes);
    for (std::size_t f = 0; f < evaluation.flows.size(); ++f) {
        const TaskTiming& timing = result.tasks[static_cast<std::size_t>(prepared.flowTasks[f])];
        EvaluatedFlow& flow = evaluation.flows[f];
        flow.startS = timing.startS;
        flow.lastByteS = timing.lastByteS;
        flow.endS = timing.endS;
    }
}

ScenarioEvaluation evaluateScenario(const Scenario& scenario, const WaferTopology& topology) {
    PreparedScenario prepared = prepareScenario(scenario, topology);
    completeEvaluation(prepared, simulate(prepared.problem));
    return std::move(prepared.evaluation);
}

} // namespace ws
