#include "tcme/tcme_engine.h"

#include "parallel/thread_pool.h"
#include "sim/fluid_simulation.h"
#include "sim/fluid_simulator.h"
#include "tcme/bypass_path.h"
#include "tcme/route_patcher.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <unordered_map>
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
    case TcmeStopReason::Cancelled:
        return "cancelled";
    }
    return "unknown";
}

std::string toString(TcmeGain gain) {
    switch (gain) {
    case TcmeGain::None:
        return "none";
    case TcmeGain::StepTime:
        return "step_time";
    case TcmeGain::Makespan:
        return "makespan";
    case TcmeGain::HottestLink:
        return "hottest_link";
    case TcmeGain::Spread:
        return "spread";
    }
    return "unknown";
}

std::string gainExplanation(TcmeGain gain) {
    switch (gain) {
    case TcmeGain::None:
        return "nothing was kept";
    case TcmeGain::StepTime:
        return "the step time fell";
    case TcmeGain::Makespan:
        return "the makespan fell";
    case TcmeGain::HottestLink:
        return "same makespan, the largest link load fell";
    case TcmeGain::Spread:
        return "same makespan and largest link load, the load spreads more evenly: one of several "
               "equally hot links came off the top";
    }
    return "unknown";
}

TcmeOptions tcmeOptionsFrom(const Scenario& scenario) {
    TcmeOptions options;
    options.spec = scenario.tcme.value_or(TcmeSpec{});
    options.splitTransfers = options.spec.splitTransfers;
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

// The objective: a training step's time first (0 = 0 for explicit traffic), then the makespan,
// then the busy time of the busiest link, then how evenly the load is spread (sum of squared
// busy times; on one wafer, whose links share one bandwidth, the same order as bytes). The last
// lets TCME take one of several equally hot links off the top at a time: with symmetric traffic a
// reroute of the flows on a->b leaves b->a as hot as before, and only the next iteration, rerouting
// those, lowers the maximum.
int compareObjective(const ScenarioEvaluation& a, const ScenarioEvaluation& b) {
    if (const int byStep = compareFigures(a.stepS, b.stepS); byStep != 0)
        return byStep;
    if (const int byMakespan = compareFigures(a.makespanS, b.makespanS); byMakespan != 0)
        return byMakespan;
    if (const int byHottest = compareFigures(a.maxLinkBusyS(), b.maxLinkBusyS()); byHottest != 0)
        return byHottest;
    return compareFigures(a.sumSquaredLinkBusyS(), b.sumSquaredLinkBusyS());
}

// The figure that decides compareObjective(better, worse) < 0.
TcmeGain gainOf(const ScenarioEvaluation& better, const ScenarioEvaluation& worse) {
    if (compareFigures(better.stepS, worse.stepS) != 0)
        return TcmeGain::StepTime;
    if (compareFigures(better.makespanS, worse.makespanS) != 0)
        return TcmeGain::Makespan;
    if (compareFigures(better.maxLinkBusyS(), worse.maxLinkBusyS()) != 0)
        return TcmeGain::HottestLink;
    return TcmeGain::Spread;
}

// `hot` is evaluation.hottestPhase().
TcmeSnapshot snapshotOf(const ScenarioEvaluation& evaluation,
                        const ScenarioEvaluation::HotPhase& hot) {
    TcmeSnapshot snapshot;
    snapshot.stepS = evaluation.stepS;
    snapshot.makespanS = evaluation.makespanS;
    snapshot.maxLink = evaluation.maxLink();
    // The busiest link's bytes: on one wafer the most bytes any link carries.
    snapshot.maxLinkBytes = snapshot.maxLink < 0
                                ? 0.0
                                : evaluation.linkBytes[static_cast<std::size_t>(snapshot.maxLink)];
    snapshot.maxUtilization = hot.utilization;
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
// Whether a training step's collective of `role` runs as a ring unless strategy.ring_algorithm
// says otherwise: every one but MoE's all-to-alls, the pipeline's sends and FSDP's collectives
// (which have their own keys; their ring is switched with them, as its flows are hot too).
bool isStepRing(CollectiveRole role) {
    switch (role) {
    case CollectiveRole::SpKeyValueGather:
    case CollectiveRole::SpKeyValueScatter:
    case CollectiveRole::TpAllReduce:
    case CollectiveRole::TpReduceScatter:
    case CollectiveRole::TpAllGather:
    case CollectiveRole::GradientSync:
    case CollectiveRole::FsdpWeightGather:
    case CollectiveRole::FsdpGradientScatter:
        return true;
    case CollectiveRole::MoeDispatch:
    case CollectiveRole::MoeCombine:
    case CollectiveRole::PipelineActivations:
    case CollectiveRole::PipelineGradients:
        break;
    }
    return false;
}

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

// Puts a candidate's patched links into the current problem for its lifetime, whatever throws.
class PatchedLinks {
public:
    PatchedLinks(PreparedScenario& prepared, std::vector<RoutePatch>& patches)
        : m_prepared(prepared), m_patches(patches) {
        swapPatchedLinks(m_prepared, m_patches);
    }
    ~PatchedLinks() { swapPatchedLinks(m_prepared, m_patches); }
    PatchedLinks(const PatchedLinks&) = delete;
    PatchedLinks& operator=(const PatchedLinks&) = delete;

private:
    PreparedScenario& m_prepared;
    std::vector<RoutePatch>& m_patches;
};

// An action with its kind, flow (or op) and words; paths and trees are set by the caller.
TcmeAction makeAction(TcmeAction::Kind kind, std::string flow, std::string detail) {
    TcmeAction action;
    action.kind = kind;
    action.flow = std::move(flow);
    action.detail = std::move(detail);
    return action;
}

void pin(Scenario& scenario, const std::string& flowId, const std::vector<DieId>& path) {
    if (!scenario.routing)
        scenario.routing = RoutingSpec{};
    scenario.routing->paths[flowId] = PinnedRoute{path, {}};
}

// A route as the planner takes it: a tree's edges, or a path's hops as edges.
TreeEdges edgesOf(const Route& route) {
    if (route.isTree())
        return route.edges;
    TreeEdges edges;
    for (std::size_t i = 1; i < route.path.size(); ++i)
        edges.emplace_back(route.path[i - 1], route.path[i]);
    return edges;
}

// A planned route to one destination as a path of dies (its edges run from the source in
// order); nullopt if it is not one, which the planner never returns for one destination.
std::optional<std::vector<DieId>> pathOf(const TreeEdges& edges) {
    if (edges.empty())
        return std::nullopt;
    std::vector<DieId> path{edges.front().first};
    for (const auto& [from, to] : edges) {
        if (from != path.back())
            return std::nullopt;
        path.push_back(to);
    }
    return path;
}

// What the tree planner is given: flows grouped into demands by id. A pin applies to every flow
// of its id (a training step repeats ids across layers), so the flows of one id are one demand
// carrying their bytes together; an id whose flows differ in source, destinations, direction or
// route cannot be pinned as one, so its demand carries no bytes (the planner leaves it be) and
// its bytes stay in `background`, the bytes of all that the demands do not carry.
struct PlanningDemands {
    std::vector<MulticastDemand> demands;
    std::vector<std::string> ids;
    std::vector<int> firstFlow;     // by demand: its id's first flow, an index into the flows
    std::vector<double> background; // bytes, by LinkId
};

// The demands of the flows `selected` (indices into evaluation.flows), in that order.
PlanningDemands planningDemands(const ScenarioEvaluation& evaluation,
                                const std::vector<int>& selected) {
    const auto& flows = evaluation.flows;
    PlanningDemands planning;
    std::unordered_map<std::string, std::size_t> demandOf;
    for (const int index : selected) {
        const EvaluatedFlow& flow = flows[static_cast<std::size_t>(index)];
        if (!demandOf.emplace(flow.id, planning.demands.size()).second)
            continue;
        planning.demands.push_back(
            {flow.src, flow.dsts, 0.0, edgesOf(flow.route),
             flow.reduction ? TreeDirection::ToRoot : TreeDirection::FromRoot});
        planning.ids.push_back(flow.id);
        planning.firstFlow.push_back(index);
    }
    // One lookup per flow (a training step has 10^5): its demand, or -1.
    std::vector<int> demandOfFlow(flows.size(), -1);
    std::vector<bool> mixed(planning.demands.size(), false);
    for (std::size_t f = 0; f < flows.size(); ++f) {
        const EvaluatedFlow& flow = flows[f];
        const auto entry = demandOf.find(flow.id);
        if (entry == demandOf.end())
            continue;
        demandOfFlow[f] = static_cast<int>(entry->second);
        const EvaluatedFlow& first =
            flows[static_cast<std::size_t>(planning.firstFlow[entry->second])];
        if (flow.multicast != first.multicast || flow.reduction != first.reduction ||
            flow.src != first.src || flow.dsts != first.dsts || !(flow.route == first.route))
            mixed[entry->second] = true;
    }
    planning.background = evaluation.linkBytes;
    for (std::size_t f = 0; f < flows.size(); ++f) {
        const int d = demandOfFlow[f];
        if (d < 0 || mixed[static_cast<std::size_t>(d)])
            continue;
        planning.demands[static_cast<std::size_t>(d)].bytes += flows[f].bytes;
        for (const LinkId link : flows[f].route.links) {
            double& bytes = planning.background[static_cast<std::size_t>(link)];
            bytes = std::max(0.0, bytes - flows[f].bytes);
        }
    }
    return planning;
}

// The retree action for flow `id`'s tree, now `oldTree`, re-shaped to `newTree`; nullopt when
// no edge moved (the same tree, perhaps listed in another order).
std::optional<TcmeAction> retreeAction(const std::string& id, const TreeEdges& oldTree,
                                       const TreeEdges& newTree, TreeDirection direction) {
    const std::set<std::pair<DieId, DieId>> kept(oldTree.begin(), oldTree.end());
    const auto moved = std::count_if(newTree.begin(), newTree.end(),
                                     [&](const auto& edge) { return !kept.contains(edge); });
    if (moved == 0)
        return std::nullopt;
    TcmeAction action = makeAction(
        TcmeAction::Kind::Retree, id,
        std::string(direction == TreeDirection::ToRoot ? "re-shape the reduction tree of '"
                                                       : "re-shape the multicast tree of '") +
            id + "' against the links' load: " + std::to_string(moved) + " of its " +
            std::to_string(newTree.size()) + " links moved");
    action.oldTree = oldTree;
    action.newTree = newTree;
    return action;
}

void pinTree(Scenario& scenario, const std::string& flowId, const TreeEdges& tree) {
    if (!scenario.routing)
        scenario.routing = RoutingSpec{};
    scenario.routing->paths[flowId] = PinnedRoute{{}, tree};
}

} // namespace

TcmeEngine::TcmeEngine(Scenario scenario, const WaferTopology& topology, TcmeOptions options)
    : m_scenario(std::move(scenario)), m_topology(topology), m_options(std::move(options)),
      m_pool(std::make_unique<ThreadPool>(m_options.threads)) {
    m_state = prepareScenario(m_scenario, m_topology);
    completeEvaluation(m_state, simulate(m_state.problem, m_state.dependents));
    m_hotPhase = m_state.evaluation.hottestPhase();
    m_initial = snapshotOf(m_state.evaluation, m_hotPhase);
    m_current = m_initial;
    if (m_current.maxUtilization < m_options.spec.targetUtilization)
        m_stopReason = TcmeStopReason::BelowTarget;
    else if (m_options.spec.maxIter <= 0)
        m_stopReason = TcmeStopReason::MaxIter;
}

TcmeEngine::TcmeEngine(TcmeEngine&&) noexcept = default;
TcmeEngine::~TcmeEngine() = default;

std::vector<TcmeEngine::Candidate>
TcmeEngine::candidates(LinkId mcl, const std::vector<int>& hotFlowIndices) const {
    std::vector<Candidate> result;
    const ScenarioEvaluation& evaluation = m_state.evaluation;
    const auto& flows = evaluation.flows;

    // Explicit ops with a hot flow, in op order (merges act on whole ops).
    std::set<int> hotOps;
    bool hotFsdp = false;
    bool hotFsdpGradients = false;
    bool hotStepRing = false; // a hot flow of one of a training step's ring collectives
    for (int index : hotFlowIndices) {
        const EvaluatedFlow& flow = flows[static_cast<std::size_t>(index)];
        if (flow.opIndex >= 0)
            hotOps.insert(flow.opIndex);
        else if (flow.role == CollectiveRole::FsdpWeightGather)
            hotFsdp = true;
        else if (flow.role == CollectiveRole::FsdpGradientScatter)
            hotFsdpGradients = true;
        if (flow.opIndex < 0 && flow.role && isStepRing(*flow.role))
            hotStepRing = true;
    }

    // Switches every FSDP collective of `role` by the strategy key `algorithm` (a training step
    // names them all with one key); the pins of their flows go, as those flows change.
    const auto switchFsdpCollectives = [&](CollectiveRole role, bool StrategySpec::*algorithm,
                                           TcmeAction::Kind kind, const std::string& key,
                                           const std::string& detail) {
        Candidate candidate{m_scenario, {}, {}};
        candidate.scenario.strategy.value().*algorithm = true;
        std::set<std::string> switched;
        for (const EvaluatedFlow& flow : flows)
            if (flow.role == role)
                switched.insert(flow.id);
        dropPins(candidate.scenario, [&](const std::string& id) { return switched.contains(id); });
        candidate.actions.push_back(makeAction(kind, key, detail));
        result.push_back(std::move(candidate));
    };

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
            Candidate candidate{m_scenario, {}, {}};
            candidate.scenario.traffic[static_cast<std::size_t>(opIndex)].algorithm =
                Algorithm::Multicast;
            dropPinsOfOp(candidate.scenario, op.id);
            candidate.actions.push_back(makeAction(
                TcmeAction::Kind::Multicast, op.id,
                toString(op.kind) + " '" + op.id + "': " + toString(algorithm) + " -> multicast"));
            result.push_back(std::move(candidate));
        }
        if (!result.empty()) {
            Candidate allMerges{m_scenario, {}, {}};
            for (TrafficOp& op : allMerges.scenario.traffic) {
                if (!mergeable(op))
                    continue;
                allMerges.actions.push_back(
                    makeAction(TcmeAction::Kind::Multicast, op.id,
                               toString(op.kind) + " '" + op.id +
                                   "': " + toString(op.effectiveAlgorithm()) + " -> multicast"));
                op.algorithm = Algorithm::Multicast;
                dropPinsOfOp(allMerges.scenario, op.id);
            }
            if (allMerges.actions.size() > 1)
                result.push_back(std::move(allMerges));
        }
        // A training step's FSDP all-gathers are switched all at once by one strategy key
        // ("fsdp_allgather": "ring" | "multicast").
        if (hotFsdp && m_scenario.strategy && !m_scenario.strategy->fsdpAllGatherMulticast)
            switchFsdpCollectives(CollectiveRole::FsdpWeightGather,
                                  &StrategySpec::fsdpAllGatherMulticast,
                                  TcmeAction::Kind::Multicast, "strategy.fsdp_allgather",
                                  "FSDP all-gathers: ring -> multicast (strategy.fsdp_allgather)");
    }

    // (b) Hierarchical aggregation: rings along rows, then along columns, of a rectangle.
    if (m_options.hierarchicalReduceScatter) {
        for (int opIndex : hotOps) {
            const TrafficOp& op = m_scenario.traffic[static_cast<std::size_t>(opIndex)];
            if ((op.kind != OpKind::ReduceScatter && op.kind != OpKind::AllReduce) ||
                op.effectiveAlgorithm() != Algorithm::Ring || !fillsRectangle(m_topology, op.group))
                continue;
            Candidate candidate{m_scenario, {}, {}};
            candidate.scenario.traffic[static_cast<std::size_t>(opIndex)].algorithm =
                Algorithm::Hierarchical;
            dropPinsOfOp(candidate.scenario, op.id);
            candidate.actions.push_back(
                makeAction(TcmeAction::Kind::Hierarchical, op.id,
                           toString(op.kind) + " '" + op.id + "': ring -> hierarchical"));
            result.push_back(std::move(candidate));
        }
    }

    // (b) Reduction trees: each rank's chunk summed into it along a tree from all the others
    // (docs/tcme.md), instead of relayed round a ring. The shapes of the trees are (d)'s job.
    if (m_options.reductionTrees) {
        for (int opIndex : hotOps) {
            const TrafficOp& op = m_scenario.traffic[static_cast<std::size_t>(opIndex)];
            const Algorithm algorithm = op.effectiveAlgorithm();
            if ((op.kind != OpKind::ReduceScatter && op.kind != OpKind::AllReduce) ||
                algorithm == Algorithm::Tree || op.group.size() < 2)
                continue;
            Candidate candidate{m_scenario, {}, {}};
            candidate.scenario.traffic[static_cast<std::size_t>(opIndex)].algorithm =
                Algorithm::Tree;
            dropPinsOfOp(candidate.scenario, op.id);
            candidate.actions.push_back(makeAction(TcmeAction::Kind::ReductionTree, op.id,
                                                   toString(op.kind) + " '" + op.id +
                                                       "': " + toString(algorithm) + " -> tree"));
            result.push_back(std::move(candidate));
        }
        // A training step's FSDP gradient reduce-scatters switch all at once by one strategy key
        // ("fsdp_reducescatter": "ring" | "tree").
        if (hotFsdpGradients && m_scenario.strategy && !m_scenario.strategy->fsdpReduceScatterTree)
            switchFsdpCollectives(CollectiveRole::FsdpGradientScatter,
                                  &StrategySpec::fsdpReduceScatterTree,
                                  TcmeAction::Kind::ReductionTree, "strategy.fsdp_reducescatter",
                                  "FSDP gradient reduce-scatters: ring -> tree "
                                  "(strategy.fsdp_reducescatter)");
    }

    // (b) Bidirectional rings: half of a ring collective's buffer on a second ring running the
    // other way (docs/network-model.md section 4.7), so that the link directions a one-way ring
    // leaves idle carry data.
    if (m_options.bidirectionalRings) {
        for (int opIndex : hotOps) {
            const TrafficOp& op = m_scenario.traffic[static_cast<std::size_t>(opIndex)];
            if ((op.kind != OpKind::AllGather && op.kind != OpKind::ReduceScatter &&
                 op.kind != OpKind::AllReduce) ||
                op.effectiveAlgorithm() != Algorithm::Ring || op.group.size() < 2)
                continue;
            Candidate candidate{m_scenario, {}, {}};
            candidate.scenario.traffic[static_cast<std::size_t>(opIndex)].algorithm =
                Algorithm::BidirectionalRing;
            dropPinsOfOp(candidate.scenario, op.id);
            candidate.actions.push_back(
                makeAction(TcmeAction::Kind::BidirectionalRing, op.id,
                           toString(op.kind) + " '" + op.id + "': ring -> bidirectional_ring"));
            result.push_back(std::move(candidate));
        }
        // A training step's rings are switched all at once by one strategy key.
        if (hotStepRing && m_scenario.strategy && !m_scenario.strategy->bidirectionalRings) {
            Candidate candidate{m_scenario, {}, {}};
            candidate.scenario.strategy->bidirectionalRings = true;
            std::set<std::string> switched;
            for (const EvaluatedFlow& flow : flows)
                if (flow.opIndex < 0 && flow.role && isStepRing(*flow.role))
                    switched.insert(flow.id);
            dropPins(candidate.scenario,
                     [&](const std::string& id) { return switched.contains(id); });
            candidate.actions.push_back(makeAction(TcmeAction::Kind::BidirectionalRing,
                                                   "strategy.ring_algorithm",
                                                   "the step's rings: ring -> bidirectional_ring "
                                                   "(strategy.ring_algorithm)"));
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
        Candidate combined{m_scenario, {}, {}};
        int rerouted = 0;
        for (int index : unicast) {
            if (rerouted >= m_options.maxCandidatesPerIteration)
                break;
            const EvaluatedFlow& flow = flows[static_cast<std::size_t>(index)];
            if (!tried.insert(flow.id).second)
                continue;
            const auto path =
                bypassPath(m_topology, flow.src, flow.dsts[0], mcl, evaluation.linkBytes);
            if (!path || *path == flow.route.path)
                continue;
            ++rerouted;
            TcmeAction action = makeAction(TcmeAction::Kind::Reroute, flow.id,
                                           "reroute '" + flow.id + "' around link " +
                                               linkName(m_topology.link(mcl)));
            action.oldPath = flow.route.path;
            action.newPath = *path;
            Candidate candidate{m_scenario, {action}, {{flow.id, *path}}};
            pin(candidate.scenario, flow.id, *path);
            result.push_back(std::move(candidate));
            pin(combined.scenario, flow.id, *path);
            combined.pins.emplace(flow.id, *path);
            combined.actions.push_back(std::move(action));
        }
        if (combined.actions.size() > 1)
            result.push_back(std::move(combined));
        // And all the hot unicast flows at once, each on the path that lowers the busiest link
        // given all the others' load (docs/tcme.md), not only around mcl.
        if (m_options.replanPaths)
            if (std::optional<Candidate> planned = replannedPathsCandidate(unicast))
                result.push_back(std::move(*planned));
    }

    // (d) Re-shape the multicast trees against the load of all traffic, when one crosses mcl.
    if (m_options.retreeMulticasts &&
        std::any_of(hotFlowIndices.begin(), hotFlowIndices.end(),
                    [&](int index) { return flows[static_cast<std::size_t>(index)].multicast; }))
        if (std::optional<Candidate> candidate = retreeCandidate())
            result.push_back(std::move(*candidate));

    // (e) Split: a hot op's transfer cut in two, each half on its own route, when one tree or
    // path per transfer is not enough (docs/tcme.md).
    if (m_options.splitTransfers)
        if (std::optional<Candidate> candidate = splitCandidate(hotFlowIndices))
            result.push_back(std::move(*candidate));
    return result;
}

std::optional<TcmeEngine::Candidate> TcmeEngine::retreeCandidate() const {
    const ScenarioEvaluation& evaluation = m_state.evaluation;
    std::vector<int> trees;
    for (std::size_t i = 0; i < evaluation.flows.size(); ++i)
        if (evaluation.flows[i].multicast && evaluation.flows[i].route.isTree())
            trees.push_back(static_cast<int>(i));
    const PlanningDemands planning = planningDemands(evaluation, trees);
    const MulticastTreePlanner planner(m_topology, evaluation.linkBandwidth, planning.background);
    const std::vector<TreeEdges> newTrees = planner.plan(planning.demands);

    Candidate candidate{m_scenario, {}, {}};
    for (std::size_t d = 0; d < planning.demands.size(); ++d) {
        const MulticastDemand& demand = planning.demands[d];
        if (demand.bytes <= 0.0 || newTrees[d] == demand.tree)
            continue;
        std::optional<TcmeAction> action =
            retreeAction(planning.ids[d], demand.tree, newTrees[d], demand.direction);
        if (!action)
            continue;
        pinTree(candidate.scenario, planning.ids[d], newTrees[d]);
        candidate.actions.push_back(std::move(*action));
    }
    if (candidate.actions.empty())
        return std::nullopt;
    return candidate;
}

std::optional<TcmeEngine::Candidate>
TcmeEngine::replannedPathsCandidate(const std::vector<int>& unicast) const {
    const ScenarioEvaluation& evaluation = m_state.evaluation;
    const PlanningDemands planning = planningDemands(evaluation, unicast);
    const MulticastTreePlanner planner(m_topology, evaluation.linkBandwidth, planning.background);
    const std::vector<TreeEdges> paths = planner.plan(planning.demands);

    Candidate candidate{m_scenario, {}, {}};
    for (std::size_t d = 0; d < planning.demands.size(); ++d) {
        if (planning.demands[d].bytes <= 0.0 || paths[d] == planning.demands[d].tree)
            continue;
        std::optional<std::vector<DieId>> path = pathOf(paths[d]);
        if (!path)
            continue;
        const std::string& id = planning.ids[d];
        TcmeAction action = makeAction(TcmeAction::Kind::Reroute, id,
                                       "re-plan '" + id + "' against the links' load");
        action.oldPath =
            evaluation.flows[static_cast<std::size_t>(planning.firstFlow[d])].route.path;
        action.newPath = *path;
        pin(candidate.scenario, id, *path);
        candidate.pins.emplace(id, std::move(*path));
        candidate.actions.push_back(std::move(action));
    }
    if (candidate.actions.empty())
        return std::nullopt;
    return candidate;
}

std::optional<TcmeEngine::Candidate>
TcmeEngine::splitCandidate(const std::vector<int>& hotFlowIndices) const {
    const ScenarioEvaluation& evaluation = m_state.evaluation;
    const auto& flows = evaluation.flows;
    // The explicit ops, not split yet, whose hot flows run along trees or are p2p transfers.
    std::set<int> toSplit;
    for (const int index : hotFlowIndices) {
        const EvaluatedFlow& flow = flows[static_cast<std::size_t>(index)];
        if (flow.opIndex < 0)
            continue;
        const TrafficOp& op = m_scenario.traffic[static_cast<std::size_t>(flow.opIndex)];
        if (op.split == 1 && (flow.route.isTree() || op.kind == OpKind::P2P))
            toSplit.insert(flow.opIndex);
    }
    if (toSplit.empty())
        return std::nullopt;
    const auto splits = [&](const EvaluatedFlow& flow) {
        return flow.opIndex >= 0 && toSplit.contains(flow.opIndex);
    };

    // Every tree of the scenario and every flow of the ops to split are planned together; each
    // flow to split enters as two halves, "<id>/p0" and "<id>/p1", that start on its route.
    std::vector<int> selected;
    for (std::size_t i = 0; i < flows.size(); ++i)
        if ((flows[i].multicast && flows[i].route.isTree()) || splits(flows[i]))
            selected.push_back(static_cast<int>(i));
    const PlanningDemands planning = planningDemands(evaluation, selected);
    std::vector<MulticastDemand> demands;
    std::vector<std::string> ids;
    std::vector<int> firstFlow;
    std::vector<bool> isPart;
    for (std::size_t d = 0; d < planning.demands.size(); ++d) {
        const bool split = splits(flows[static_cast<std::size_t>(planning.firstFlow[d])]);
        for (int part = 0; part < (split ? 2 : 1); ++part) {
            demands.push_back(planning.demands[d]);
            ids.push_back(split ? planning.ids[d] + "/p" + std::to_string(part) : planning.ids[d]);
            firstFlow.push_back(planning.firstFlow[d]);
            isPart.push_back(split);
            if (split)
                demands.back().bytes /= 2;
        }
    }
    const MulticastTreePlanner planner(m_topology, evaluation.linkBandwidth, planning.background);
    const std::vector<TreeEdges> routes = planner.plan(demands);

    Candidate candidate{m_scenario, {}, {}};
    for (const int opIndex : toSplit) {
        TrafficOp& op = candidate.scenario.traffic[static_cast<std::size_t>(opIndex)];
        op.split = 2;
        dropPinsOfOp(candidate.scenario, op.id);
        candidate.actions.push_back(makeAction(TcmeAction::Kind::Split, op.id,
                                               toString(op.kind) + " '" + op.id +
                                                   "' split in two, each half on its own " +
                                                   (op.kind == OpKind::P2P ? "path" : "trees")));
    }
    for (std::size_t d = 0; d < demands.size(); ++d) {
        const EvaluatedFlow& flow = flows[static_cast<std::size_t>(firstFlow[d])];
        if (demands[d].bytes <= 0.0 || (!isPart[d] && routes[d] == demands[d].tree))
            continue;
        if (flow.route.isTree()) {
            // A half keeps its pin even on the whole flow's tree: the new ids have no other.
            std::optional<TcmeAction> action =
                retreeAction(ids[d], demands[d].tree, routes[d], demands[d].direction);
            if (!action && !isPart[d])
                continue;
            pinTree(candidate.scenario, ids[d], routes[d]);
            if (action)
                candidate.actions.push_back(std::move(*action));
        } else if (std::optional<std::vector<DieId>> path = pathOf(routes[d])) {
            TcmeAction action = makeAction(TcmeAction::Kind::Reroute, ids[d],
                                           "route '" + ids[d] + "' against the links' load");
            action.oldPath = flow.route.path;
            action.newPath = *path;
            pin(candidate.scenario, ids[d], *path);
            candidate.actions.push_back(std::move(action));
        }
    }
    return candidate;
}

const TcmeIteration& TcmeEngine::step() {
    if (finished())
        throw std::logic_error("TcmeEngine::step: already finished (" + toString(*m_stopReason) +
                               ")");
    const ScenarioEvaluation& evaluation = m_state.evaluation;
    TcmeIteration iteration;
    iteration.index = static_cast<int>(m_iterations.size());
    iteration.before = m_current;
    iteration.linkBytesBefore = evaluation.linkBytes;

    // A training step is judged first where a collective's critical phase loads a link most
    // (docs/tcme.md, "Phases"). When nothing among that phase's flows helps, the busiest link of
    // the whole window is looked at as well: a change there can still shorten the step.
    const ScenarioEvaluation::HotPhase phase =
        evaluation.trainingStep ? m_hotPhase : ScenarioEvaluation::HotPhase{};
    bool improved = false;
    if (phase.collective >= 0)
        improved = keepBestCandidate(focus(&phase, iteration), iteration);
    if (!improved) {
        TcmeIteration wide;
        wide.index = iteration.index;
        wide.before = iteration.before;
        wide.linkBytesBefore = iteration.linkBytesBefore;
        improved = keepBestCandidate(focus(nullptr, wide), wide);
        if (improved || phase.collective < 0)
            iteration = std::move(wide);
    }
    iteration.after = m_current;
    iteration.linkBytesAfter = m_state.evaluation.linkBytes;
    m_iterations.push_back(std::move(iteration));
    checkStopRules(m_iterations.back(), improved);
    return m_iterations.back();
}

std::vector<int> TcmeEngine::focus(const ScenarioEvaluation::HotPhase* phase,
                                   TcmeIteration& iteration) const {
    const ScenarioEvaluation& evaluation = m_state.evaluation;
    const LinkId mcl = phase ? phase->link : evaluation.maxLink();
    std::vector<int> hot;
    if (mcl < 0)
        return hot;
    const auto link = static_cast<std::size_t>(mcl);
    const double bandwidth = evaluation.linkBandwidth[link];
    iteration.mcl = mcl;
    iteration.mclFrom = m_topology.link(mcl).from;
    iteration.mclTo = m_topology.link(mcl).to;
    iteration.mclBytes = evaluation.linkBytes[link];
    iteration.mclUtilization =
        evaluation.makespanS > 0 ? iteration.mclBytes / (bandwidth * evaluation.makespanS) : 0.0;
    if (phase) {
        iteration.phaseCollective = phase->name;
        iteration.phaseFromS = phase->fromS;
        iteration.phaseToS = phase->toS;
        iteration.mclUtilization = phase->utilization;
    }
    std::set<std::string> groups;
    for (std::size_t f = 0; f < evaluation.flows.size(); ++f) {
        const EvaluatedFlow& flow = evaluation.flows[f];
        if (!crosses(flow, mcl) ||
            (phase && (flow.lastByteS <= phase->fromS || flow.startS >= phase->toS)))
            continue;
        hot.push_back(static_cast<int>(f));
        iteration.hotFlows.push_back(flow.id);
        groups.insert(flow.group);
        iteration.queueingDelayS +=
            std::max(0.0, flow.lastByteS - flow.startS - flow.bytes / bandwidth);
    }
    iteration.conflictFlows = static_cast<int>(hot.size());
    iteration.conflictGroups = static_cast<int>(groups.size());
    return hot;
}

bool TcmeEngine::keepBestCandidate(const std::vector<int>& hot, TcmeIteration& iteration) {
    if (iteration.mcl < 0)
        return false;
    const ScenarioEvaluation& evaluation = m_state.evaluation;
    // Simulate every candidate; keep the best (by compareObjective, then fewest actions;
    // earlier candidates win exact ties, for determinism). Reroutes whose routes the patcher
    // derives are simulated one after another, forked from the current problem's run
    // (simulatePatched); the others are rebuilt, as evaluateScenario would, each on its own, beside
    // them on the pool. The choice below reads the runs in candidate order, so it does not depend
    // on which thread simulated what.
    std::vector<Candidate> options = candidates(iteration.mcl, hot);
    std::vector<std::optional<std::vector<RoutePatch>>> patches = routePatches(options);
    std::vector<CandidateRun> runs(options.size());
    std::vector<std::size_t> rebuilt;
    for (std::size_t c = 0; c < options.size(); ++c)
        if (!patches[c])
            rebuilt.push_back(c);
    m_pool->parallelFor(static_cast<int>(rebuilt.size()) + 1, [&](int job) {
        if (job == 0)
            simulatePatched(patches, runs);
        else
            runs[rebuilt[static_cast<std::size_t>(job - 1)]] =
                rebuild(options[rebuilt[static_cast<std::size_t>(job - 1)]]);
    });
    std::optional<std::size_t> best;
    for (std::size_t c = 0; c < options.size(); ++c) {
        if (!runs[c].figures)
            continue; // a candidate that does not simulate
        bool better = !best.has_value();
        if (best) {
            const int order = compareObjective(*runs[c].figures, *runs[*best].figures);
            better = order < 0 ||
                     (order == 0 && options[c].actions.size() < options[*best].actions.size());
        }
        if (better)
            best = c;
    }
    if (!best || compareObjective(*runs[*best].figures, evaluation) >= 0)
        return false;
    CandidateRun& winner = runs[*best];
    iteration.gain = gainOf(*winner.figures, evaluation);
    iteration.actions = options[*best].actions;
    m_scenario = std::move(options[*best].scenario);
    std::optional<PreparedScenario> replaced;
    if (patches[*best]) {
        // Only its figures were kept (holding a simulation of the step slows the rebuilds that
        // run after it twofold, measured: heap fragmentation): simulate the winner once more.
        {
            const PatchedLinks patched(m_state, *patches[*best]);
            winner.result = simulate(m_state.problem, m_state.dependents);
        }
        applyPatches(m_state, std::move(*patches[*best]));
    } else {
        replaced = std::exchange(m_state, std::move(*winner.rebuilt));
    }
    // Freeing a replaced step (some 10^6 blocks on the 6x8 GPT-3 step) takes about as long as
    // completing the new evaluation and finding its hottest phase: both at once.
    m_pool->parallelFor(2, [&](int job) {
        if (job == 1) {
            replaced.reset();
            return;
        }
        completeEvaluation(m_state, std::move(*winner.result));
        m_hotPhase = m_state.evaluation.hottestPhase();
    });
    m_current = snapshotOf(m_state.evaluation, m_hotPhase);
    return true;
}

TcmeEngine::CandidateRun TcmeEngine::rebuild(const Candidate& candidate) const {
    CandidateRun run;
    try {
        run.rebuilt = prepareScenario(candidate.scenario, m_topology);
        run.result = simulate(run.rebuilt->problem, run.rebuilt->dependents);
    } catch (const std::exception&) {
        return {}; // a candidate that does not simulate (e.g. a pin the model rejects)
    }
    ScenarioEvaluation& figures = run.figures.emplace();
    figures.makespanS = run.result->makespanS;
    figures.linkBytes = run.result->linkBytes;
    figures.linkBandwidth = m_state.evaluation.linkBandwidth; // the objective weighs busy times
    if (run.rebuilt->stepClock)
        figures.stepS = stepTiming(*run.rebuilt->stepClock, *run.result).stepS;
    if (compareObjective(figures, m_state.evaluation) >= 0) {
        run.result.reset(); // it cannot be adopted: free it now
        run.rebuilt.reset();
    }
    return run;
}

std::vector<std::optional<std::vector<RoutePatch>>>
TcmeEngine::routePatches(const std::vector<Candidate>& options) const {
    std::vector<std::optional<std::vector<RoutePatch>>> patches(options.size());
    if (!m_options.patchRoutes || !m_state.independentRoutes)
        return patches;
    std::set<std::string> pinnedIds;
    for (const Candidate& candidate : options)
        for (const auto& entry : candidate.pins)
            pinnedIds.insert(entry.first);
    if (pinnedIds.empty())
        return patches;
    const RoutePatcher patcher(m_state, m_topology, pinnedIds);
    for (std::size_t c = 0; c < options.size(); ++c)
        if (!options[c].pins.empty())
            patches[c] = patcher.patches(options[c].pins);
    return patches;
}

void TcmeEngine::simulatePatched(std::vector<std::optional<std::vector<RoutePatch>>>& patches,
                                 std::vector<CandidateRun>& runs) {
    // A patched candidate runs as the current problem does until the first batch in which a
    // rerouted flow becomes ready (its start time in the current evaluation): take candidates in
    // that order, advance one run of the current problem to each one's time, and finish a copy
    // of it on the patched problem (FluidSimulation::switchTo).
    struct Pending {
        std::size_t candidate;
        double readyS;
        std::vector<TaskId> tasks; // the rerouted flows' tasks
    };
    std::vector<Pending> pending;
    for (std::size_t c = 0; c < patches.size(); ++c) {
        if (!patches[c])
            continue;
        Pending entry{c, std::numeric_limits<double>::infinity(), {}};
        for (const RoutePatch& patch : *patches[c]) {
            const auto flow = static_cast<std::size_t>(patch.flow);
            entry.readyS = std::min(entry.readyS, m_state.evaluation.flows[flow].startS);
            entry.tasks.push_back(m_state.flowTasks[flow]);
        }
        pending.push_back(std::move(entry));
    }
    std::stable_sort(pending.begin(), pending.end(),
                     [](const Pending& a, const Pending& b) { return a.readyS < b.readyS; });
    if (m_state.problem.network.model != NetworkModel::Fluid) {
        // Only the fluid run can be paused and forked; other models simulate every patched
        // candidate whole.
        for (const Pending& entry : pending) {
            const PatchedLinks patched(m_state, *patches[entry.candidate]);
            try {
                runs[entry.candidate].figures =
                    figuresOf(simulate(m_state.problem, m_state.dependents));
            } catch (const std::invalid_argument&) {
                continue; // as below: a patched problem that does not simulate is skipped
            }
        }
        return;
    }
    std::optional<FluidSimulation> current;
    std::optional<FluidSimulation> fork; // reused: copying into it keeps its buffers
    for (const Pending& entry : pending) {
        std::vector<RoutePatch>& patch = *patches[entry.candidate];
        if (!current)
            current.emplace(m_state.problem, m_state.dependents);
        current->runUntil(entry.readyS);
        if (!current->untouched(entry.tasks))
            throw std::logic_error("TcmeEngine: a rerouted flow started before its recorded start");
        if (fork)
            *fork = *current;
        else
            fork.emplace(*current);
        const PatchedLinks patched(m_state, patch);
        try {
            fork->switchTo(m_state.problem, entry.tasks);
            fork->runToEnd();
        } catch (const std::invalid_argument&) {
            continue; // a patched problem that does not simulate: the candidate is skipped
        }
        runs[entry.candidate].figures = figuresOf(fork->result());
    }
}

ScenarioEvaluation TcmeEngine::figuresOf(const SimResult& result) const {
    ScenarioEvaluation figures;
    figures.makespanS = result.makespanS;
    figures.linkBytes = result.linkBytes;
    figures.linkBandwidth = m_state.evaluation.linkBandwidth; // the objective weighs busy times
    if (m_state.stepClock)
        figures.stepS = stepTiming(*m_state.stepClock, result).stepS;
    return figures;
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
    // The relative gain in the objective's first figure: the step time for a training step.
    const bool step = iteration.before.stepS > 0;
    const double before = step ? iteration.before.stepS : iteration.before.makespanS;
    const double after = step ? iteration.after.stepS : iteration.after.makespanS;
    const double gain = before > 0 ? (before - after) / before : 0.0;
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
            return TcmeStopReason::Cancelled;
        const TcmeIteration& iteration = step();
        if (progress)
            progress(iteration);
    }
    return *m_stopReason;
}

} // namespace ws
