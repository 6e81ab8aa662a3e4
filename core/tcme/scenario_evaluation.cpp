#include "tcme/scenario_evaluation.h"

#include "collectives/traffic_plan.h"
#include "sim/fluid_simulator.h"
#include "step/training_step.h"

#include <algorithm>

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
    return best;
}

namespace {

// A collective flow "<id>/s<step>/r<rank>" belongs to "<id>".
std::string groupOf(const std::string& flowId) {
    const auto slash = flowId.find("/s");
    return slash == std::string::npos ? flowId : flowId.substr(0, slash);
}

EvaluatedFlow evaluated(const Flow& flow, const TaskTiming& timing) {
    EvaluatedFlow view;
    view.id = flow.id;
    view.group = groupOf(flow.id);
    view.opIndex = flow.opIndex;
    view.src = flow.src;
    view.dsts = flow.dsts;
    view.bytes = flow.bytes;
    view.multicast = flow.multicast;
    view.route = flow.route;
    view.startS = timing.startS;
    view.lastByteS = timing.lastByteS;
    view.endS = timing.endS;
    return view;
}

} // namespace

ScenarioEvaluation evaluateScenario(const Scenario& scenario, const WaferTopology& topology,
                                    const std::filesystem::path& scenarioDirectory) {
    ScenarioEvaluation evaluation;
    if (scenario.workload || scenario.strategy) {
        const TrainingStep step =
            buildTrainingStep(scenario, topology, scenarioDirectory, std::nullopt);
        const SimResult result = simulate(step.graph.problem());
        evaluation.trainingStep = true;
        evaluation.makespanS = result.makespanS;
        evaluation.linkBytes = result.linkBytes;
        evaluation.linkBandwidth = step.graph.problem().linkBandwidth;
        for (const Flow& flow : step.graph.flows()) {
            EvaluatedFlow view = evaluated(flow, result.tasks[static_cast<std::size_t>(flow.task)]);
            const StepTaskInfo& info = step.graph.info()[static_cast<std::size_t>(flow.task)];
            view.kind = info.kind == StepTaskInfo::Kind::Transfer ? "tatp" : "collective";
            if (flow.opIndex >= 0)
                view.kind = toString(scenario.traffic[static_cast<std::size_t>(flow.opIndex)].kind);
            evaluation.flows.push_back(std::move(view));
        }
        return evaluation;
    }
    const TrafficPlan plan = planTraffic(scenario, topology);
    const SimResult result = simulate(plan.problem);
    evaluation.makespanS = result.makespanS;
    evaluation.linkBytes = result.linkBytes;
    evaluation.linkBandwidth = plan.problem.linkBandwidth;
    for (const Flow& flow : plan.flows) {
        EvaluatedFlow view = evaluated(flow, result.tasks[static_cast<std::size_t>(flow.task)]);
        view.kind = toString(scenario.traffic[static_cast<std::size_t>(flow.opIndex)].kind);
        evaluation.flows.push_back(std::move(view));
    }
    return evaluation;
}

} // namespace ws
