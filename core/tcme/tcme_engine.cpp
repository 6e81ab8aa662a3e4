#include "tcme/tcme_engine.h"

#include "tcme/bypass_path.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

namespace ws {

std::string toString(TcmeStopReason reason) {
    switch (reason) {
    case TcmeStopReason::MaxIter:
        return "max_iter";
    case TcmeStopReason::NoGain:
        return "no_gain";
    case TcmeStopReason::BelowTarget:
        return "below_target";
    case TcmeStopReason::NoCandidate:
        return "no_candidate";
    }
    return "unknown";
}

TcmeOptions tcmeOptionsFrom(const Scenario& scenario) {
    TcmeOptions options;
    options.spec = scenario.tcme.value_or(TcmeSpec{});
    return options;
}

namespace {

// Two simulated figures closer than this, relative, are the same figure: sums of the same
// bytes taken in another order may differ in the last bits, and that is no improvement.
constexpr double kRelativeTolerance = 1e-12;

// -1 if a < b, 1 if a > b, 0 if equal within the tolerance.
int compareFigures(double a, double b) {
    const double scale = std::max(std::abs(a), std::abs(b));
    if (std::abs(a - b) <= kRelativeTolerance * scale)
        return 0;
    return a < b ? -1 : 1;
}

// The objective: makespan first, then the bytes on the most loaded link, then how evenly the
// load is spread (sum of squared link bytes). The last lets TCME take one of several equally hot
// links off the top at a time: with symmetric traffic a reroute of the flows on a->b leaves b->a
// as hot as before, and only the next iteration, rerouting those, lowers the maximum.
int compareObjective(const ScenarioEvaluation& a, const ScenarioEvaluation& b) {
    if (const int byMakespan = compareFigures(a.makespanS, b.makespanS); byMakespan != 0)
        return byMakespan;
    if (const int byHottest = compareFigures(a.maxLinkBytes(), b.maxLinkBytes()); byHottest != 0)
        return byHottest;
    return compareFigures(a.sumSquaredLinkBytes(), b.sumSquaredLinkBytes());
}

TcmeSnapshot snapshotOf(const ScenarioEvaluation& evaluation) {
    TcmeSnapshot snapshot;
    snapshot.makespanS = evaluation.makespanS;
    snapshot.maxLinkBytes = evaluation.maxLinkBytes();
    snapshot.maxUtilization = evaluation.maxUtilization();
    snapshot.maxLink = evaluation.maxLink();
    return snapshot;
}

bool crosses(const EvaluatedFlow& flow, LinkId link) {
    return std::find(flow.route.links.begin(), flow.route.links.end(), link) !=
           flow.route.links.end();
}

// Drops the pinned routes whose flow id satisfies `matches` (they would name flows that a new
// algorithm no longer creates, or pin a unicast path on what becomes a tree).
template <typename Predicate> void dropPins(Scenario& scenario, Predicate matches) {
    if (!scenario.routing)
        return;
    std::erase_if(scenario.routing->paths, [&](const auto& entry) { return matches(entry.first); });
}

void dropPinsOfOp(Scenario& scenario, const std::string& opId) {
    const std::string prefix = opId + "/";
    dropPins(scenario, [&](const std::string& id) {
        return id == opId || id.compare(0, prefix.size(), prefix) == 0;
    });
}

// True when the group's dies are exactly the dies of a rectangle (what hierarchical needs).
bool fillsRectangle(const WaferTopology& topology, const std::vector<DieId>& group) {
    if (group.empty())
        return false;
    const std::set<DieId> dies(group.begin(), group.end());
    if (dies.size() != group.size())
        return false;
    int minRow = topology.rows(), maxRow = -1, minCol = topology.cols(), maxCol = -1;
    for (DieId die : dies) {
        const DieCoord c = topology.coord(die);
        minRow = std::min(minRow, c.row);
        maxRow = std::max(maxRow, c.row);
        minCol = std::min(minCol, c.col);
        maxCol = std::max(maxCol, c.col);
    }
    const auto area = static_cast<std::size_t>((maxRow - minRow + 1) * (maxCol - minCol + 1));
    return area == dies.size();
}

void pin(Scenario& scenario, const std::string& flowId, const std::vector<DieId>& path) {
    if (!scenario.routing)
        scenario.routing = RoutingSpec{};
    scenario.routing->paths[flowId] = PinnedRoute{path, {}};
}

} // namespace

TcmeEngine::TcmeEngine(Scenario scenario, const WaferTopology& topology,
                       std::filesystem::path scenarioDirectory, TcmeOptions options)
    : m_scenario(std::move(scenario)), m_topology(topology),
      m_directory(std::move(scenarioDirectory)), m_options(std::move(options)) {
    m_evaluation = evaluateScenario(m_scenario, m_topology, m_directory);
    m_initial = snapshotOf(m_evaluation);
    m_current = m_initial;
    if (m_current.maxUtilization < m_options.spec.targetUtilization)
        m_stopReason = TcmeStopReason::BelowTarget;
    else if (m_options.spec.maxIter <= 0)
        m_stopReason = TcmeStopReason::MaxIter;
}

std::vector<TcmeEngine::Candidate>
TcmeEngine::candidates(LinkId mcl, const std::vector<int>& hotFlowIndices) const {
    std::vector<Candidate> result;
    const auto& flows = m_evaluation.flows;

    // Explicit ops with a hot flow, in op order (merges act on whole ops).
    std::set<int> hotOps;
    bool hotFsdp = false;
    for (int index : hotFlowIndices) {
        const EvaluatedFlow& flow = flows[static_cast<std::size_t>(index)];
        if (flow.opIndex >= 0)
            hotOps.insert(flow.opIndex);
        else if (flow.group.rfind("fsdp", 0) == 0)
            hotFsdp = true;
    }

    // (a) Merge: the duplicates of one sender's data become one tree per sender. One candidate
    // per hot op, then the per-collective strategy applied to every all-gather and broadcast at
    // once (symmetric groups, as DP/FSDP groups are, may only pay off jointly).
    auto mergeable = [](const TrafficOp& op) {
        const Algorithm algorithm = op.effectiveAlgorithm();
        return (op.kind == OpKind::AllGather || op.kind == OpKind::Broadcast) &&
               (algorithm == Algorithm::Ring || algorithm == Algorithm::Direct);
    };
    if (m_options.multicastAllGather) {
        for (int opIndex : hotOps) {
            const TrafficOp& op = m_scenario.traffic[static_cast<std::size_t>(opIndex)];
            const Algorithm algorithm = op.effectiveAlgorithm();
            if (!mergeable(op))
                continue;
            Candidate candidate{m_scenario, {}};
            candidate.scenario.traffic[static_cast<std::size_t>(opIndex)].algorithm =
                Algorithm::Multicast;
            dropPinsOfOp(candidate.scenario, op.id);
            candidate.actions.push_back(
                {TcmeAction::Kind::Multicast,
                 op.id,
                 {},
                 {},
                 toString(op.kind) + " '" + op.id + "': " + toString(algorithm) + " -> multicast"});
            result.push_back(std::move(candidate));
        }
        if (!result.empty()) {
            Candidate allMerges{m_scenario, {}};
            for (TrafficOp& op : allMerges.scenario.traffic) {
                if (!mergeable(op))
                    continue;
                allMerges.actions.push_back({TcmeAction::Kind::Multicast,
                                             op.id,
                                             {},
                                             {},
                                             toString(op.kind) + " '" + op.id +
                                                 "': " + toString(op.effectiveAlgorithm()) +
                                                 " -> multicast"});
                op.algorithm = Algorithm::Multicast;
                dropPinsOfOp(allMerges.scenario, op.id);
            }
            if (allMerges.actions.size() > 1)
                result.push_back(std::move(allMerges));
        }
        // A training step's FSDP all-gathers are switched all at once by the strategy key the
        // strategy parser accepts ("fsdp_allgather": "ring" | "multicast").
        if (hotFsdp && m_scenario.strategy && m_scenario.strategy->is_object() &&
            m_scenario.strategy->value("fsdp_allgather", std::string("ring")) != "multicast") {
            Candidate candidate{m_scenario, {}};
            (*candidate.scenario.strategy)["fsdp_allgather"] = "multicast";
            dropPins(candidate.scenario,
                     [](const std::string& id) { return id.rfind("fsdp", 0) == 0; });
            candidate.actions.push_back({TcmeAction::Kind::Multicast,
                                         "strategy.fsdp_allgather",
                                         {},
                                         {},
                                         "FSDP all-gathers: ring -> multicast "
                                         "(strategy.fsdp_allgather)"});
            result.push_back(std::move(candidate));
        }
    }

    // (b) Hierarchical aggregation: rings along rows, then along columns, of a rectangle.
    if (m_options.hierarchicalReduceScatter) {
        for (int opIndex : hotOps) {
            const TrafficOp& op = m_scenario.traffic[static_cast<std::size_t>(opIndex)];
            if ((op.kind != OpKind::ReduceScatter && op.kind != OpKind::AllReduce) ||
                op.effectiveAlgorithm() != Algorithm::Ring || !fillsRectangle(m_topology, op.group))
                continue;
            Candidate candidate{m_scenario, {}};
            candidate.scenario.traffic[static_cast<std::size_t>(opIndex)].algorithm =
                Algorithm::Hierarchical;
            dropPinsOfOp(candidate.scenario, op.id);
            candidate.actions.push_back(
                {TcmeAction::Kind::Hierarchical,
                 op.id,
                 {},
                 {},
                 toString(op.kind) + " '" + op.id + "': ring -> hierarchical"});
            result.push_back(std::move(candidate));
        }
    }

    // (c) Reroute the largest hot unicast flows (ties by id) around mcl, one candidate each,
    // then all of them together (several small moves may only pay off jointly).
    if (m_options.rerouteFlows && m_options.maxCandidatesPerIteration > 0) {
        std::vector<int> unicast;
        for (int index : hotFlowIndices) {
            const EvaluatedFlow& flow = flows[static_cast<std::size_t>(index)];
            if (!flow.multicast && flow.dsts.size() == 1 && !flow.route.path.empty())
                unicast.push_back(index);
        }
        std::stable_sort(unicast.begin(), unicast.end(), [&](int a, int b) {
            const EvaluatedFlow& fa = flows[static_cast<std::size_t>(a)];
            const EvaluatedFlow& fb = flows[static_cast<std::size_t>(b)];
            if (fa.bytes != fb.bytes)
                return fa.bytes > fb.bytes;
            return fa.id < fb.id;
        });
        std::set<std::string> tried; // a training step may reuse a label: pin each id once
        Candidate combined{m_scenario, {}};
        int rerouted = 0;
        for (int index : unicast) {
            if (rerouted >= m_options.maxCandidatesPerIteration)
                break;
            const EvaluatedFlow& flow = flows[static_cast<std::size_t>(index)];
            if (!tried.insert(flow.id).second)
                continue;
            const auto path =
                bypassPath(m_topology, flow.src, flow.dsts[0], mcl, m_evaluation.linkBytes);
            if (!path || *path == flow.route.path)
                continue;
            ++rerouted;
            TcmeAction action{TcmeAction::Kind::Reroute, flow.id, flow.route.path, *path,
                              "reroute '" + flow.id + "' around link " +
                                  linkName(m_topology.link(mcl))};
            Candidate candidate{m_scenario, {action}};
            pin(candidate.scenario, flow.id, *path);
            result.push_back(std::move(candidate));
            pin(combined.scenario, flow.id, *path);
            combined.actions.push_back(std::move(action));
        }
        if (combined.actions.size() > 1)
            result.push_back(std::move(combined));
    }
    return result;
}

const TcmeIteration& TcmeEngine::step() {
    if (finished())
        throw std::logic_error("TcmeEngine::step: already finished (" + toString(*m_stopReason) +
                               ")");
    TcmeIteration iteration;
    iteration.index = static_cast<int>(m_iterations.size());
    iteration.before = m_current;
    iteration.linkBytesBefore = m_evaluation.linkBytes;

    const LinkId mcl = m_evaluation.maxLink();
    bool improved = false;
    if (mcl >= 0) {
        const auto link = static_cast<std::size_t>(mcl);
        const double bandwidth = m_evaluation.linkBandwidth[link];
        iteration.mcl = mcl;
        iteration.mclFrom = m_topology.link(mcl).from;
        iteration.mclTo = m_topology.link(mcl).to;
        iteration.mclBytes = m_evaluation.linkBytes[link];
        iteration.mclUtilization = m_evaluation.makespanS > 0
                                       ? iteration.mclBytes / (bandwidth * m_evaluation.makespanS)
                                       : 0.0;
        std::vector<int> hot;
        std::set<std::string> groups;
        for (std::size_t f = 0; f < m_evaluation.flows.size(); ++f) {
            const EvaluatedFlow& flow = m_evaluation.flows[f];
            if (!crosses(flow, mcl))
                continue;
            hot.push_back(static_cast<int>(f));
            iteration.hotFlows.push_back(flow.id);
            groups.insert(flow.group);
            iteration.queueingDelayS +=
                std::max(0.0, flow.lastByteS - flow.startS - flow.bytes / bandwidth);
        }
        iteration.conflictFlows = static_cast<int>(hot.size());
        iteration.conflictGroups = static_cast<int>(groups.size());

        // Simulate every candidate; keep the best (lowest makespan, then max link bytes, then
        // fewest actions; earlier candidates win exact ties, for determinism).
        std::vector<Candidate> options = candidates(mcl, hot);
        std::optional<std::size_t> best;
        ScenarioEvaluation bestEvaluation;
        for (std::size_t c = 0; c < options.size(); ++c) {
            ScenarioEvaluation evaluation;
            try {
                evaluation = evaluateScenario(options[c].scenario, m_topology, m_directory);
            } catch (const std::exception&) {
                continue; // a candidate that does not simulate (e.g. a pin the model rejects)
            }
            bool better = !best.has_value();
            if (best) {
                const int order = compareObjective(evaluation, bestEvaluation);
                better = order < 0 ||
                         (order == 0 && options[c].actions.size() < options[*best].actions.size());
            }
            if (better) {
                best = c;
                bestEvaluation = std::move(evaluation);
            }
        }
        if (best && compareObjective(bestEvaluation, m_evaluation) < 0) {
            improved = true;
            iteration.actions = options[*best].actions;
            m_scenario = std::move(options[*best].scenario);
            m_evaluation = std::move(bestEvaluation);
            m_current = snapshotOf(m_evaluation);
        }
    }
    iteration.after = m_current;
    iteration.linkBytesAfter = m_evaluation.linkBytes;
    m_iterations.push_back(std::move(iteration));
    checkStopRules(m_iterations.back(), improved);
    return m_iterations.back();
}

void TcmeEngine::checkStopRules(const TcmeIteration& iteration, bool improved) {
    const TcmeSpec& spec = m_options.spec;
    if (!improved) {
        m_stopReason = TcmeStopReason::NoCandidate;
        return;
    }
    if (m_current.maxUtilization < spec.targetUtilization) {
        m_stopReason = TcmeStopReason::BelowTarget;
        return;
    }
    const double before = iteration.before.makespanS;
    const double gain = before > 0 ? (before - iteration.after.makespanS) / before : 0.0;
    m_lowGainStreak = gain < spec.minGain ? m_lowGainStreak + 1 : 0;
    if (m_lowGainStreak >= std::max(1, spec.patience)) {
        m_stopReason = TcmeStopReason::NoGain;
        return;
    }
    if (static_cast<int>(m_iterations.size()) >= spec.maxIter)
        m_stopReason = TcmeStopReason::MaxIter;
}

TcmeStopReason TcmeEngine::run(const std::function<bool()>& cancel,
                               const std::function<void(const TcmeIteration&)>& progress) {
    while (!finished()) {
        if (cancel && cancel())
            return TcmeStopReason::MaxIter;
        const TcmeIteration& iteration = step();
        if (progress)
            progress(iteration);
    }
    return *m_stopReason;
}

} // namespace ws
