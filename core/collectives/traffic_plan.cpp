#include "collectives/traffic_plan.h"

#include "collectives/collective_expansion.h"
#include "collectives/protocol_choice.h"
#include "routing/router.h"
#include "sim/run_cancelled.h"

#include <algorithm>
#include <functional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace ws {

namespace {

std::string opKey(std::size_t opIndex) {
    return "traffic[" + std::to_string(opIndex) + "]";
}
std::string die(DieId id) {
    return "die " + std::to_string(id);
}

std::string joined(const std::vector<std::string>& items, std::size_t limit) {
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < limit; ++i)
        text += (i ? ", " : "") + items[i];
    if (items.size() > limit)
        text += ", ... (" + std::to_string(items.size()) + " in all)";
    return text;
}

// Op ids are unique and every `after` names an earlier-or-later op without a cycle (a cycle
// would leave the simulator waiting forever). Returns the op index by id.
std::unordered_map<std::string, int> checkOpOrder(const Scenario& scenario) {
    std::unordered_map<std::string, int> byId;
    for (std::size_t i = 0; i < scenario.traffic.size(); ++i) {
        const auto [it, inserted] = byId.emplace(scenario.traffic[i].id, static_cast<int>(i));
        if (!inserted)
            throw ScenarioError(opKey(i) + ".id", "op id '" + scenario.traffic[i].id +
                                                      "' is also used by " +
                                                      opKey(static_cast<std::size_t>(it->second)));
    }
    std::vector<std::string> ids;
    for (const TrafficOp& op : scenario.traffic)
        ids.push_back(op.id);
    for (std::size_t i = 0; i < scenario.traffic.size(); ++i) {
        const auto& after = scenario.traffic[i].after;
        for (std::size_t j = 0; j < after.size(); ++j) {
            if (!byId.contains(after[j]))
                throw ScenarioError(opKey(i) + ".after[" + std::to_string(j) + "]",
                                    "'" + after[j] + "' names no op; ops are " + joined(ids, 8));
        }
    }
    // Depth-first search for a cycle: 0 unvisited, 1 on the stack, 2 done.
    std::vector<int> state(scenario.traffic.size(), 0);
    const std::function<void(std::size_t)> visit = [&](std::size_t i) {
        state[i] = 1;
        for (const std::string& id : scenario.traffic[i].after) {
            const auto j = static_cast<std::size_t>(byId.at(id));
            if (state[j] == 1)
                throw ScenarioError(opKey(i) + ".after",
                                    "ops wait for each other in a cycle through '" + id + "'");
            if (state[j] == 0)
                visit(j);
        }
        state[i] = 2;
    };
    for (std::size_t i = 0; i < scenario.traffic.size(); ++i) {
        if (state[i] == 0)
            visit(i);
    }
    return byId;
}

// Why a pinned unicast path is not a live route from src to dst ("" if it is one).
std::string pathProblem(const WaferTopology& topology, const std::vector<DieId>& path, DieId src,
                        DieId dst) {
    if (path.empty())
        return "the path is empty";
    if (path.front() != src)
        return "the path starts at " + die(path.front()) + ", not at the flow's source " + die(src);
    if (path.back() != dst)
        return "the path ends at " + die(path.back()) + ", not at the flow's destination " +
               die(dst);
    std::set<DieId> seen;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (!topology.contains(path[i]) && !topology.isLiveVertex(path[i]))
            return die(path[i]) + " is not on the wafer";
        if (!topology.isLiveVertex(path[i]))
            return die(path[i]) + " is dead";
        if (!seen.insert(path[i]).second)
            return die(path[i]) + " appears twice: a route crosses each link once";
        if (i == 0)
            continue;
        const auto link = topology.linkBetween(path[i - 1], path[i]);
        if (!link)
            return "dies " + std::to_string(path[i - 1]) + " and " + std::to_string(path[i]) +
                   " are not neighbours";
        if (!topology.link(*link).alive)
            return "link " + linkName(topology.link(*link)) + " is dead";
    }
    return {};
}

// Why pinned tree edges are not a live tree rooted at the flow's src joining every die of its
// dsts to it ("" if they are). A multicast's edges point away from src, a reduction's toward it.
std::string treeProblem(const WaferTopology& topology,
                        const std::vector<std::pair<DieId, DieId>>& edges, const Flow& flow) {
    const bool toRoot = flow.reduction;
    const DieId root = flow.src;
    const std::string rootName = toRoot ? "root " : "source ";
    if (edges.empty())
        return "the tree has no edges";
    std::unordered_map<DieId, DieId> parent;
    for (const auto& [from, to] : edges) {
        const std::string edge = std::to_string(from) + "->" + std::to_string(to);
        if (!topology.isLiveVertex(from) && !topology.contains(from))
            return "edge " + edge + " names a die not on the wafer";
        if (!topology.isLiveVertex(to) && !topology.contains(to))
            return "edge " + edge + " names a die not on the wafer";
        const auto link = topology.linkBetween(from, to);
        if (!link)
            return "edge " + edge + " joins dies that are not neighbours";
        if (!topology.link(*link).alive)
            return "link " + edge + " is dead";
        const DieId child = toRoot ? from : to;
        if (child == root)
            return "edge " + edge + (toRoot ? " leaves" : " enters") + " the flow's " + rootName +
                   die(root) + ": the tree must be rooted there";
        if (!parent.emplace(child, toRoot ? to : from).second)
            return die(child) + (toRoot ? " is left twice: a reduction tree leaves each die once"
                                        : " is entered twice: a tree enters each die once");
    }
    if (!topology.isAlive(root))
        return "the flow's " + rootName + die(root) + " is dead";
    for (const auto& [from, to] : edges) {
        // Walk up to a die without a parent: it must be the root (no cycle: at most |edges| steps).
        DieId at = toRoot ? to : from;
        for (std::size_t n = 0; n <= edges.size() && parent.contains(at); ++n)
            at = parent.at(at);
        if (at != root)
            return "edge " + std::to_string(from) + "->" + std::to_string(to) +
                   " is not connected to the flow's " + rootName + die(root);
    }
    for (DieId leaf : flow.dsts) {
        if (!parent.contains(leaf))
            return std::string("the tree does not reach ") +
                   (toRoot ? "contributor " : "destination ") + die(leaf);
    }
    return {};
}

// The message for traffic that cannot be routed at all.
std::string unreachable(const WaferTopology& topology, const Router& router, const Flow& flow) {
    for (DieId other : flow.dsts) {
        // A reduction's data goes from each contributor to its root.
        const DieId from = flow.reduction ? other : flow.src;
        const DieId to = flow.reduction ? flow.src : other;
        if (router.unicast(from, to))
            continue;
        std::string why = "dead dies or links cut it off";
        if (!topology.isAlive(from))
            why = die(from) + " is dead";
        else if (!topology.isAlive(to))
            why = die(to) + " is dead";
        return die(from) + " cannot reach " + die(to) + ": " + why;
    }
    return die(flow.src) + " cannot reach its destinations: dead dies or links cut it off";
}

std::string noSuchFlow(const Scenario& scenario, const std::vector<Flow>& flows,
                       const std::string& id) {
    const std::string opId = id.substr(0, id.find('/'));
    for (std::size_t i = 0; i < scenario.traffic.size(); ++i) {
        if (scenario.traffic[i].id != opId)
            continue;
        std::vector<std::string> ids;
        for (const Flow& flow : flows) {
            if (flow.opIndex == static_cast<int>(i))
                ids.push_back(flow.id);
        }
        if (ids.empty())
            return "names no flow; op '" + opId + "' has no flows";
        return "names no flow; flows of op '" + opId + "' are " + joined(ids, 4);
    }
    std::vector<std::string> ops;
    for (const TrafficOp& op : scenario.traffic)
        ops.push_back(op.id);
    return "names no flow; flow ids are <op id> (p2p) or <op id>/s<step>/r<rank>, and the ops "
           "are " +
           joined(ops, 8);
}

} // namespace

TrafficPlan planTraffic(const Scenario& scenario, const WaferTopology& topology,
                        const std::function<bool()>& cancel, const ExpansionLimits& limits,
                        FlowRecords records) {
    const auto opIndexById = checkOpOrder(scenario);
    const std::size_t opCount = scenario.traffic.size();

    TrafficPlan plan;
    std::vector<std::vector<Flow>> expanded(opCount);
    std::size_t total = 0;
    ExpansionBudget budget(limits, scenario.networkSettings());
    for (std::size_t i = 0; i < opCount; ++i)
        budget.charge(scenario.traffic[i], topology, opKey(i)); // all refused before any is built
    // Each op runs with the fastest protocol of the slowest tier it spans (docs/network-model.md
    // section 4.8): its flows carry their bytes on the wire, its first flows wait its latency.
    const TierProtocols protocols = scenario.tierProtocols();
    std::vector<double> startDelayS(opCount, 0.0);
    for (std::size_t i = 0; i < opCount; ++i) {
        throwIfCancelled(cancel);
        const TrafficOp& op = scenario.traffic[i];
        expanded[i] = expandOp(op, static_cast<int>(i), topology, opKey(i), cancel);
        if (protocols.any()) {
            const std::vector<DieId> group =
                op.kind == OpKind::P2P ? std::vector<DieId>{op.src, op.dst} : op.group;
            const LinkTier tier = protocolTierOf(topology, group);
            const ProtocolChoice protocol =
                chooseProtocol(protocols.of(tier), op.kind, static_cast<int>(group.size()),
                               op.bytes.value, scenario.linkSpeed(tier).bandwidth);
            applyProtocol(expanded[i], protocol);
            startDelayS[i] = protocol.latencyS;
        }
        total += expanded[i].size();
    }
    std::vector<int> firstFlow(opCount + 1, 0); // flows of op i: [firstFlow[i], firstFlow[i+1])
    if (opCount == 1) {
        plan.flows = std::move(expanded[0]);
    } else {
        plan.flows.reserve(total);
        for (std::size_t i = 0; i < opCount; ++i) {
            const int base = static_cast<int>(plan.flows.size());
            firstFlow[i] = base;
            for (Flow& flow : expanded[i]) {
                for (int& dep : flow.flowDeps)
                    dep += base; // expansion-local -> index into plan.flows
                plan.flows.push_back(std::move(flow));
            }
            std::vector<Flow>().swap(expanded[i]); // its moved-from shells: 200 bytes a flow
        }
    }
    firstFlow[opCount] = static_cast<int>(plan.flows.size());

    // Pinned routes, checked up front so that a typo is reported before any routing error.
    // Flow ids are unique by construction (op ids are unique and have no '/', a collective's
    // flows differ in step or rank: docs/file-format.md); the index of them lives only while
    // the pins are looked up, and only when there are pins: at 2 M flows it would be 150 MB.
    std::vector<const PinnedRoute*> pinned(plan.flows.size(), nullptr);
    if (scenario.routing && !scenario.routing->paths.empty()) {
        std::unordered_map<std::string_view, int> flowIndexById;
        flowIndexById.reserve(plan.flows.size());
        for (std::size_t f = 0; f < plan.flows.size(); ++f) {
            pollCancelAt(f, cancel);
            flowIndexById.emplace(plan.flows[f].id, static_cast<int>(f));
        }
        for (const auto& [id, route] : scenario.routing->paths) {
            const auto it = flowIndexById.find(id);
            if (it == flowIndexById.end())
                throw ScenarioError("routing.paths." + id, noSuchFlow(scenario, plan.flows, id));
            pinned[static_cast<std::size_t>(it->second)] = &route;
        }
    }

    // Tasks: flows first (task id == flow index), then one barrier per op. Each flow's task is
    // built as soon as it is routed, so that a plan dropping its records never holds a route
    // twice.
    SimProblem& problem = plan.problem;
    problem = problemOnLinks(topology, scenario.wafer.linkBandwidth.value,
                             scenario.wafer.linkLatency.value, scenario.networkSettings(),
                             scenario.linkTierSpeeds());
    plan.flowCount = plan.flows.size();
    const int flowCount = static_cast<int>(plan.flowCount);
    problem.tasks.resize(plan.flowCount + opCount);
    plan.opDone.resize(opCount);
    for (std::size_t i = 0; i < opCount; ++i)
        plan.opDone[i] = flowCount + static_cast<int>(i);

    Router router(topology, scenario.routingMode());
    for (std::size_t f = 0; f < plan.flows.size(); ++f) {
        pollCancelAt(f, cancel);
        Flow& flow = plan.flows[f];
        std::optional<Route> route;
        if (const PinnedRoute* pin = pinned[f]) {
            const std::string key = "routing.paths." + flow.id;
            if (!flow.multicast) {
                if (pin->path.empty() && !pin->treeEdges.empty())
                    throw ScenarioError(key, "flow '" + flow.id +
                                                 "' goes to one die: pin a list of dies");
                const std::string why = pathProblem(topology, pin->path, flow.src, flow.dsts[0]);
                if (!why.empty())
                    throw ScenarioError(key, why);
                route = router.routeFromPath(pin->path);
            } else {
                // A tree may be pinned as edges or, when it is a chain, as a path (which ends at
                // a reduction's root).
                std::vector<std::pair<DieId, DieId>> edges = pin->treeEdges;
                if (edges.empty()) {
                    if (!flow.reduction && !pin->path.empty() && pin->path.front() != flow.src)
                        throw ScenarioError(key, "the path starts at " + die(pin->path.front()) +
                                                     ", not at the flow's source " + die(flow.src));
                    if (flow.reduction && !pin->path.empty() && pin->path.back() != flow.src)
                        throw ScenarioError(key, "the path ends at " + die(pin->path.back()) +
                                                     ", not at the flow's root " + die(flow.src));
                    for (std::size_t i = 1; i < pin->path.size(); ++i)
                        edges.emplace_back(pin->path[i - 1], pin->path[i]);
                }
                const std::string why = treeProblem(topology, edges, flow);
                if (!why.empty())
                    throw ScenarioError(key, why);
                route = router.routeFromTree(flow.src, flow.dsts, edges, flow.treeDirection());
            }
            if (!route) // the checks above mirror the Router's; this is a safety net
                throw ScenarioError(key, "is not a live route for flow '" + flow.id + "'");
        } else {
            route = policyRoute(router, flow);
            if (!route)
                throw ScenarioError(opKey(static_cast<std::size_t>(flow.opIndex)),
                                    unreachable(topology, router, flow));
        }
        router.addLoad(*route, flow.bytes);

        const TrafficOp& op = scenario.traffic[static_cast<std::size_t>(flow.opIndex)];
        flow.task = static_cast<TaskId>(f);
        SimTask& task = problem.tasks[f];
        task.kind = SimTask::Kind::Flow;
        task.bytes = flow.bytes;
        task.hops = route->hops;
        task.earliestStartS = op.start ? op.start->value : 0.0;
        // Task id == flow index, so the flow's dependencies are the task's: moved, not copied
        // (a plan's flows keep none, collectives/flow.h).
        task.deps = std::exchange(flow.flowDeps, {});
        if (task.deps.empty()) {
            task.startDelayS = startDelayS[static_cast<std::size_t>(flow.opIndex)];
            for (const std::string& id : op.after)
                task.deps.push_back(plan.opDone[static_cast<std::size_t>(opIndexById.at(id))]);
        }
        if (records == FlowRecords::Kept) {
            task.links = route->links;
            flow.route = std::move(*route);
        } else {
            task.links = std::move(route->links);
        }
    }
    if (records == FlowRecords::Dropped)
        std::vector<Flow>().swap(plan.flows); // frees the records' memory now, not at the end
    for (std::size_t i = 0; i < opCount; ++i) {
        const TrafficOp& op = scenario.traffic[i];
        SimTask& barrier = problem.tasks[static_cast<std::size_t>(plan.opDone[i])];
        barrier.kind = SimTask::Kind::Barrier;
        barrier.earliestStartS = op.start ? op.start->value : 0.0;
        for (int f = firstFlow[i]; f < firstFlow[i + 1]; ++f)
            barrier.deps.push_back(f);
        // An op without flows (a group of one die) still completes only after its `after` ops.
        if (barrier.deps.empty()) {
            for (const std::string& id : op.after)
                barrier.deps.push_back(plan.opDone[static_cast<std::size_t>(opIndexById.at(id))]);
        }
    }
    return plan;
}

} // namespace ws
