#include "tcme/scenario_evaluation.h"

#include "collectives/flow.h"
#include "evaluation/scenario_run.h"
#include "sim/fluid_simulator.h"
#include "step/round_link_bytes.h"
#include "step/round_windows.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

namespace ws {

LinkId ScenarioEvaluation::maxLink() const {
    LinkId best = -1;
    double bestBusyS = 0.0;
    for (std::size_t link = 0; link < linkBytes.size(); ++link) {
        const double busyS = linkBytes[link] / linkBandwidth[link];
        if (linkBytes[link] > 0 && (best < 0 || busyS > bestBusyS)) {
            best = static_cast<LinkId>(link);
            bestBusyS = busyS;
        }
    }
    return best;
}

double ScenarioEvaluation::maxLinkBusyS() const {
    const LinkId link = maxLink();
    return link < 0 ? 0.0
                    : linkBytes[static_cast<std::size_t>(link)] /
                          linkBandwidth[static_cast<std::size_t>(link)];
}

double ScenarioEvaluation::sumSquaredLinkBusyS() const {
    double sum = 0.0;
    for (std::size_t link = 0; link < linkBytes.size(); ++link) {
        const double busyS = linkBytes[link] / linkBandwidth[link];
        sum += busyS * busyS;
    }
    return sum;
}

double ScenarioEvaluation::sumSquaredLinkBytes() const {
    double sum = 0.0;
    for (double bytes : linkBytes)
        sum += bytes * bytes;
    return sum;
}

ScenarioEvaluation::HotPhase ScenarioEvaluation::hottestPhase() const {
    HotPhase hot;
    if (makespanS <= 0)
        return hot;
    // The makespan and the TATP rounds: no collective's phase.
    auto consider = [&](const std::vector<double>& bytes, double windowS) {
        if (windowS <= 0)
            return;
        for (std::size_t link = 0; link < bytes.size(); ++link)
            if (const double u = bytes[link] / (linkBandwidth[link] * windowS);
                u > hot.utilization) {
                hot.utilization = u;
                hot.link = static_cast<LinkId>(link);
            }
    };
    consider(linkBytes, makespanS);
    if (!roundWindowS.empty()) {
        auto roundOf = [&](const EvaluatedFlow& flow) {
            const auto index = static_cast<std::size_t>(&flow - flows.data());
            return index < flowRound.size() ? flowRound[index] : -1;
        };
        for (const auto& [round, bytes] : roundLinkBytes(flows, roundOf, linkBytes.size())) {
            const auto window = roundWindowS.find(round);
            if (window != roundWindowS.end())
                consider(bytes, window->second);
        }
    }
    if (collectivePhaseS.empty())
        return hot;
    // Over a collective's critical phase a link carries its share of every flow crossing it, the
    // collective's own and the others': a flow's bytes spread evenly from its start to its last
    // byte (exact while its rate holds, as it does between the events that change rates).
    std::vector<int> offsets(linkBytes.size() + 1, 0); // flows by link, CSR
    for (const EvaluatedFlow& flow : flows)
        for (const LinkId link : flow.route.links)
            ++offsets[static_cast<std::size_t>(link) + 1];
    for (std::size_t link = 0; link < linkBytes.size(); ++link)
        offsets[link + 1] += offsets[link];
    std::vector<int> flowsOnLink(static_cast<std::size_t>(offsets.back()));
    std::vector<int> fill(offsets.begin(), offsets.end() - 1);
    for (std::size_t f = 0; f < flows.size(); ++f)
        for (const LinkId link : flows[f].route.links)
            flowsOnLink[static_cast<std::size_t>(fill[static_cast<std::size_t>(link)]++)] =
                static_cast<int>(f);
    auto bytesWithin = [&](std::size_t link, double fromS, double toS) {
        double bytes = 0.0;
        for (int k = offsets[link]; k < offsets[link + 1]; ++k) {
            const EvaluatedFlow& flow = flows[static_cast<std::size_t>(flowsOnLink[k])];
            const double sendingS = flow.lastByteS - flow.startS;
            const double overlapS = std::min(toS, flow.lastByteS) - std::max(fromS, flow.startS);
            if (sendingS > 0 && overlapS > 0)
                bytes += flow.bytes * overlapS / sendingS;
        }
        return bytes;
    };
    std::vector<double> firstStartS(collectivePhaseS.size(),
                                    std::numeric_limits<double>::infinity());
    std::vector<int> firstFlow(collectivePhaseS.size(), -1); // for its name
    std::vector<std::vector<LinkId>> linksOf(collectivePhaseS.size());
    for (std::size_t f = 0; f < flowCollective.size(); ++f) {
        if (const int c = flowCollective[f]; c >= 0) {
            const auto collective = static_cast<std::size_t>(c);
            if (firstFlow[collective] < 0)
                firstFlow[collective] = static_cast<int>(f);
            firstStartS[collective] = std::min(firstStartS[collective], flows[f].startS);
            linksOf[collective].insert(linksOf[collective].end(), flows[f].route.links.begin(),
                                       flows[f].route.links.end());
        }
    }
    for (std::size_t c = 0; c < collectivePhaseS.size(); ++c) {
        const double phaseS = collectivePhaseS[c];
        if (phaseS <= 0)
            continue;
        std::vector<LinkId>& links = linksOf[c];
        std::sort(links.begin(), links.end());
        links.erase(std::unique(links.begin(), links.end()), links.end());
        for (const LinkId link : links) {
            const auto l = static_cast<std::size_t>(link);
            const double u = bytesWithin(l, firstStartS[c], firstStartS[c] + phaseS) /
                             (linkBandwidth[l] * phaseS);
            if (u > hot.utilization)
                hot = {u, link, static_cast<int>(c), {}, firstStartS[c], firstStartS[c] + phaseS};
        }
    }
    if (hot.collective >= 0)
        hot.name =
            flows[static_cast<std::size_t>(firstFlow[static_cast<std::size_t>(hot.collective)])]
                .group;
    return hot;
}

namespace {

// The flow as TCME sees it, taking its id, destinations and route; timings come later.
EvaluatedFlow evaluated(Flow&& flow) {
    EvaluatedFlow view;
    view.group = opOfFlow(flow.id);
    view.id = std::move(flow.id);
    view.opIndex = flow.opIndex;
    view.src = flow.src;
    view.dsts = std::move(flow.dsts);
    view.bytes = flow.bytes;
    view.multicast = flow.multicast;
    view.reduction = flow.reduction;
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

// Which collective each of a step's flows belongs to: the one whose barrier waits for it
// (StepGraph::addCollective ends every collective with a barrier on all its flows).
void findCollectives(PreparedScenario& prepared, const std::vector<char>& inCollective) {
    ScenarioEvaluation& evaluation = prepared.evaluation;
    const TaskGraph& graph = *prepared.dependents;
    evaluation.flowCollective.assign(evaluation.flows.size(), -1);
    std::map<TaskId, int> collectiveOfBarrier;
    for (std::size_t f = 0; f < evaluation.flows.size(); ++f) {
        if (!inCollective[f])
            continue;
        const auto task = static_cast<std::size_t>(prepared.flowTasks[f]);
        for (int k = graph.dependentOffsets[task]; k < graph.dependentOffsets[task + 1]; ++k) {
            const TaskId dependent = graph.dependents[static_cast<std::size_t>(k)];
            if (prepared.problem.tasks[static_cast<std::size_t>(dependent)].kind !=
                SimTask::Kind::Barrier)
                continue;
            const auto [entry, added] = collectiveOfBarrier.emplace(
                dependent, static_cast<int>(prepared.collectiveDone.size()));
            if (added)
                prepared.collectiveDone.push_back(dependent);
            evaluation.flowCollective[f] = entry->second;
            break;
        }
    }
}

// Each collective's critical phase (ScenarioEvaluation::collectivePhaseS) in `result`.
std::vector<double> collectivePhases(const PreparedScenario& prepared, const SimResult& result) {
    const std::vector<SimTask>& tasks = prepared.problem.tasks;
    const TaskGraph& graph = *prepared.dependents;
    constexpr double kNever = std::numeric_limits<double>::infinity();
    // The first start of a task that waits for each barrier, through barriers. The step graph
    // adds a task after its dependencies, so walking backwards meets a barrier's dependents
    // first.
    std::vector<double> firstWaitS(tasks.size(), kNever);
    for (std::size_t t = tasks.size(); t-- > 0;) {
        if (tasks[t].kind != SimTask::Kind::Barrier)
            continue;
        for (int k = graph.dependentOffsets[t]; k < graph.dependentOffsets[t + 1]; ++k) {
            const auto d = static_cast<std::size_t>(graph.dependents[static_cast<std::size_t>(k)]);
            const double waitS =
                tasks[d].kind == SimTask::Kind::Barrier ? firstWaitS[d] : result.tasks[d].startS;
            firstWaitS[t] = std::min(firstWaitS[t], waitS);
        }
    }
    const ScenarioEvaluation& evaluation = prepared.evaluation;
    std::vector<double> firstStartS(prepared.collectiveDone.size(), kNever);
    for (std::size_t f = 0; f < evaluation.flows.size(); ++f)
        if (const int c = evaluation.flowCollective[f]; c >= 0)
            firstStartS[static_cast<std::size_t>(c)] =
                std::min(firstStartS[static_cast<std::size_t>(c)], evaluation.flows[f].startS);
    std::vector<double> phaseS(prepared.collectiveDone.size(), 0.0);
    for (std::size_t c = 0; c < phaseS.size(); ++c) {
        const auto done = static_cast<std::size_t>(prepared.collectiveDone[c]);
        const double endS = firstWaitS[done] < kNever ? firstWaitS[done] : result.tasks[done].endS;
        phaseS[c] = std::max(0.0, endS - firstStartS[c]);
    }
    return phaseS;
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
        prepared.stepClock = stepClock(step);
        std::vector<Flow> flows = step.graph.takeFlows();
        evaluation.flows.reserve(flows.size());
        prepared.flowTasks.reserve(flows.size());
        std::vector<char> inCollective;
        for (Flow& flow : flows) {
            const StepTaskInfo& info = step.graph.info()[static_cast<std::size_t>(flow.task)];
            const bool tatp = info.kind == StepTaskInfo::Kind::Transfer;
            prepared.flowTasks.push_back(flow.task);
            evaluation.flowRound.push_back(tatp ? info.round : -1);
            inCollective.push_back(!tatp && flow.opIndex < 0);
            EvaluatedFlow view = evaluated(std::move(flow));
            view.kind = view.opIndex >= 0 ? opKindOf(view) : tatp ? "tatp" : "collective";
            view.role = info.role;
            evaluation.flows.push_back(std::move(view));
        }
        prepared.problem = step.graph.takeProblem();
        prepared.dependents = std::make_shared<const TaskGraph>(TaskGraph::build(prepared.problem));
        findCollectives(prepared, inCollective);
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
        prepared.dependents = std::make_shared<const TaskGraph>(TaskGraph::build(prepared.problem));
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
    if (prepared.stepClock)
        evaluation.stepS = stepTiming(*prepared.stepClock, result).stepS;
    if (!prepared.collectiveDone.empty())
        evaluation.collectivePhaseS = collectivePhases(prepared, result);
}

ScenarioEvaluation evaluateScenario(const Scenario& scenario, const WaferTopology& topology) {
    PreparedScenario prepared = prepareScenario(scenario, topology);
    completeEvaluation(prepared, simulate(prepared.problem, prepared.dependents));
    return std::move(prepared.evaluation);
}

} // namespace ws
