#include "step/step_graph.h"

#include "collectives/collective_expansion.h"
#include "scenario/scenario_error.h"

namespace ws {

StepGraph::StepGraph(const WaferTopology& topology, const WaferSpec& wafer, RoutingMode mode,
                     NetworkSettings network, const LinkTierSpeeds& tiers, TierProtocols protocols)
    : m_topology(topology),
      m_tiers(tiers), m_waferLink{wafer.linkBandwidth.value, wafer.linkLatency.value},
      m_protocols(std::move(protocols)), m_router(topology, mode), m_compute(wafer.die),
      m_problem(problemOnLinks(topology, wafer.linkBandwidth.value, wafer.linkLatency.value,
                               network, tiers)),
      m_budget({}, network) {
    m_speeds.reserve(static_cast<std::size_t>(topology.dieCount()));
    for (DieId die = 0; die < topology.dieCount(); ++die)
        m_speeds.push_back(wafer.dieSpeed(die));
}

ComputeWork StepGraph::workOn(DieId die, const ComputeWork& work) const {
    const double share = workShare(die);
    return {work.flops * share, work.hbmBytes * share, work.tileEfficiency};
}

ProtocolChoice StepGraph::protocolFor(OpKind kind, const std::vector<DieId>& group,
                                      double bytes) const {
    if (!m_protocols.any())
        return {};
    const LinkTier tier = protocolTierOf(m_topology, group);
    return chooseProtocol(m_protocols.of(tier), kind, static_cast<int>(group.size()), bytes,
                          m_tiers.of(tier, m_waferLink).bandwidth);
}

TaskId StepGraph::push(SimTask task, StepTaskInfo info) {
    const auto id = static_cast<TaskId>(m_problem.tasks.size());
    m_problem.tasks.push_back(std::move(task));
    m_info.push_back(std::move(info));
    return id;
}

std::optional<Route> StepGraph::pinnedRoute(const std::string& id, DieId src,
                                            const std::vector<DieId>& dsts,
                                            TreeDirection direction) {
    if (m_pinned == nullptr)
        return std::nullopt;
    const auto pinned = m_pinned->find(id);
    if (pinned == m_pinned->end())
        return std::nullopt;
    m_usedPins.insert(id);
    const PinnedRoute& pin = pinned->second;
    std::optional<Route> route;
    if (!pin.path.empty() && pin.path.front() == src && dsts.size() == 1 &&
        pin.path.back() == dsts.front())
        route = m_router.routeFromPath(pin.path);
    else if (!pin.treeEdges.empty())
        route = m_router.routeFromTree(src, dsts, pin.treeEdges, direction);
    if (!route && direction == TreeDirection::ToRoot)
        throw ScenarioError("routing.paths." + id, "is not a live reduction tree into die " +
                                                       std::to_string(src) +
                                                       " from the flow's contributors");
    if (!route)
        throw ScenarioError("routing.paths." + id, "is not a live route from die " +
                                                       std::to_string(src) +
                                                       " to the flow's destination(s)");
    return route;
}

TaskId StepGraph::addCompute(DieId die, const ComputeWork& work, std::vector<TaskId> deps,
                             StepTaskInfo info) {
    const ComputeWork onDie = workOn(die, work);
    const ComputeCost cost = m_compute.cost(onDie, dieSpeed(die));
    SimTask task;
    task.kind = SimTask::Kind::Compute;
    task.die = die;
    task.seconds = cost.seconds;
    task.deps = std::move(deps);
    info.kind = StepTaskInfo::Kind::Compute;
    info.flops = onDie.flops;
    info.hbmBytes = onDie.hbmBytes;
    info.cost = cost;
    return push(std::move(task), std::move(info));
}

TaskId StepGraph::addTransfer(DieId src, DieId dst, double bytes, std::vector<TaskId> deps,
                              StepTaskInfo info) {
    std::optional<Route> route;
    if (m_pinned != nullptr && m_pinned->contains(info.label)) // (else skip building {dst})
        route = pinnedRoute(info.label, src, {dst});
    if (!route)
        route = m_router.unicast(src, dst);
    if (!route)
        throw ScenarioError("strategy", "die " + std::to_string(src) + " cannot reach die " +
                                            std::to_string(dst) +
                                            ": dead dies or links cut it off");
    // A transfer runs with its tier's protocol as a collective of two does: its bytes on the
    // wire, its latency before it starts (docs/network-model.md section 4.8).
    const ProtocolChoice protocol = protocolFor(OpKind::P2P, {src, dst}, bytes);
    bytes /= protocol.efficiency;
    m_router.addLoad(*route, bytes);
    SimTask task;
    task.kind = SimTask::Kind::Flow;
    task.bytes = bytes;
    task.hops = route->hops;
    task.startDelayS = protocol.latencyS;
    task.deps = std::move(deps);
    info.kind = StepTaskInfo::Kind::Transfer;
    ++m_flowCount;
    if (!keepsFlowRecords()) { // the task keeps what the report reads: bytes, links, round
        task.links = std::move(route->links);
        if (!m_taskLabels)
            info.label.clear(); // made for the flow's id (tatp_stream.h), which is not kept
        return push(std::move(task), std::move(info));
    }
    task.links = route->links;

    Flow flow;
    if (m_taskLabels)
        flow.id = info.label;
    else
        flow.id = std::move(info.label); // the flow keeps it; the info stays unlabelled
    flow.opIndex = -1;
    flow.step = info.round;
    flow.src = src;
    flow.dsts = {dst};
    flow.bytes = bytes;
    flow.route = std::move(*route);
    const TaskId id = push(std::move(task), std::move(info));
    flow.task = id;
    m_flows.push_back(std::move(flow));
    return id;
}

TaskId StepGraph::addCollective(const std::string& id, OpKind kind, Algorithm algorithm,
                                const std::vector<DieId>& group, double bytes,
                                std::vector<TaskId> deps, StepTaskInfo info) {
    const TrafficOp op = collectiveOp(id, kind, algorithm, group, bytes);
    if (!m_countedAhead)
        m_budget.charge(op, m_topology, "strategy");
    std::vector<Flow> flows = expandOp(op, -1, m_topology, "strategy");
    const ProtocolChoice protocol = protocolFor(kind, group, bytes);
    applyProtocol(flows, protocol);

    std::vector<TaskId> flowTasks;
    flowTasks.reserve(flows.size());
    for (Flow& flow : flows) {
        auto route = pinnedRoute(flow.id, flow.src, flow.dsts, flow.treeDirection());
        if (!route)
            route = policyRoute(m_router, flow);
        if (!route)
            throw ScenarioError("strategy", "collective '" + id + "' cannot be routed: die " +
                                                std::to_string(flow.src) +
                                                " is cut off by dead dies or links");
        m_router.addLoad(*route, flow.bytes);
        SimTask task;
        task.kind = SimTask::Kind::Flow;
        task.bytes = flow.bytes;
        task.hops = route->hops;
        if (keepsFlowRecords())
            task.links = route->links;
        else
            task.links = std::move(route->links); // the route is dropped with the flow
        task.startDelayS = firstFlowDelayS(flow, protocol);
        if (flow.flowDeps.empty())
            task.deps = deps;
        for (int dep : flow.flowDeps)
            task.deps.push_back(flowTasks[static_cast<std::size_t>(dep)]);
        flow.flowDeps = {}; // now the task's (collectives/flow.h)
        StepTaskInfo flowInfo;
        flowInfo.kind = StepTaskInfo::Kind::Collective;
        if (m_taskLabels)
            flowInfo.label = flow.id;
        flowInfo.phase = info.phase;
        flowInfo.round = flow.step;
        flowInfo.flops = info.flops;
        flowInfo.role = info.role;
        flow.task = push(std::move(task), std::move(flowInfo));
        flowTasks.push_back(flow.task);
        if (keepsFlowRecords()) {
            flow.route = std::move(*route);
            m_flows.push_back(std::move(flow));
        }
    }
    m_flowCount += flows.size();
    info.kind = StepTaskInfo::Kind::Barrier;
    info.label = m_taskLabels ? id + " done" : std::string();
    SimTask barrier;
    barrier.kind = SimTask::Kind::Barrier;
    barrier.deps = flowTasks.empty() ? std::move(deps) : std::move(flowTasks);
    return push(std::move(barrier), std::move(info));
}

void StepGraph::countCollectiveAhead(const std::string& id, OpKind kind, Algorithm algorithm,
                                     const std::vector<DieId>& group, double bytes) {
    m_countedAhead = true;
    m_budget.charge(collectiveOp(id, kind, algorithm, group, bytes), m_topology, "strategy");
}

TrafficOp StepGraph::collectiveOp(const std::string& id, OpKind kind, Algorithm algorithm,
                                  const std::vector<DieId>& group, double bytes) {
    TrafficOp op;
    op.id = id;
    op.kind = kind;
    op.group = group;
    op.bytes = Quantity{bytes, {}};
    op.algorithm = algorithm;
    return op;
}

TaskId StepGraph::addBarrier(std::vector<TaskId> deps, StepTaskInfo info) {
    SimTask barrier;
    barrier.kind = SimTask::Kind::Barrier;
    barrier.deps = std::move(deps);
    info.kind = StepTaskInfo::Kind::Barrier;
    return push(std::move(barrier), std::move(info));
}

void StepGraph::reserve(std::size_t tasks, std::size_t flows) {
    m_problem.tasks.reserve(tasks);
    m_info.reserve(tasks);
    m_flows.reserve(flows);
}

void StepGraph::appendTraffic(const TrafficPlan& plan) {
    const auto offset = static_cast<TaskId>(m_problem.tasks.size());
    reserve(m_problem.tasks.size() + plan.problem.tasks.size(),
            m_flows.size() + (keepsFlowRecords() ? plan.flows.size() : 0));
    std::vector<StepTaskInfo> infos(plan.problem.tasks.size());
    for (std::size_t task = 0; task < plan.problem.tasks.size(); ++task) {
        const SimTask::Kind kind = plan.problem.tasks[task].kind;
        infos[task].kind = kind == SimTask::Kind::Flow ? StepTaskInfo::Kind::Collective
                                                       : StepTaskInfo::Kind::Barrier;
        infos[task].phase = StepPhase::ExplicitTraffic;
    }
    for (const Flow& flow : plan.flows) {
        StepTaskInfo& info = infos[static_cast<std::size_t>(flow.task)];
        if (m_taskLabels)
            info.label = flow.id;
        info.round = flow.step;
        m_router.addLoad(flow.route, flow.bytes);
        if (!keepsFlowRecords())
            continue;
        Flow copy = flow;
        copy.task += offset;
        m_flows.push_back(std::move(copy));
    }
    m_flowCount += plan.flowCount;
    for (std::size_t task = 0; task < plan.problem.tasks.size(); ++task) {
        SimTask copy = plan.problem.tasks[task];
        for (TaskId& dep : copy.deps)
            dep += offset;
        push(std::move(copy), std::move(infos[task]));
    }
}

} // namespace ws
