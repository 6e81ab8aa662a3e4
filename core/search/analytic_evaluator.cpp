#include "search/analytic_evaluator.h"

#include "routing/router.h"
#include "scenario/scenario_error.h"
#include "step/step_plan.h"
#include "strategy/placement.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <variant>

namespace ws {

namespace {

// Per-link counts of one traffic pattern, reset between patterns.
class LinkCounter {
public:
    // `slowdown`: AnalyticEvaluator::linkSlowdown (empty: every link a wafer link).
    LinkCounter(int links, const std::vector<double>& slowdown)
        : m_count(static_cast<std::size_t>(links), 0.0), m_slowdown(slowdown) {}

    template <class Route> int add(const Route& visitRoute, DieId src, DieId dst, double weight) {
        return visitRoute(src, dst, [&](LinkId link) { addLink(link, weight); });
    }
    void addLink(LinkId link, double weight) {
        if (!m_slowdown.empty())
            weight *= m_slowdown[static_cast<std::size_t>(link)];
        double& c = m_count[static_cast<std::size_t>(link)];
        if (c == 0.0)
            m_touched.push_back(link);
        c += weight;
        m_max = std::max(m_max, c);
    }
    double max() const { return m_max; }
    void reset() {
        for (LinkId link : m_touched)
            m_count[static_cast<std::size_t>(link)] = 0.0;
        m_touched.clear();
        m_max = 0.0;
    }

private:
    std::vector<double> m_count;
    const std::vector<double>& m_slowdown;
    std::vector<LinkId> m_touched;
    double m_max = 0.0;
};

// One evaluation: the strategy, its placement and the running phase times.
class Estimator {
public:
    Estimator(const AnalyticEvaluator& evaluator, const StrategySpec& strategy,
              const Placement& placement, const ComputeModel& compute)
        : m_e(evaluator), m_s(strategy), m_p(placement), m_compute(compute),
          m_counter(evaluator.topology().linkCount(), evaluator.linkSlowdown()) {}

    auto routeFn() const {
        return [this](DieId a, DieId b, auto fn) { return m_e.visitRoute(a, b, fn); };
    }

    // A GEMM on every model-parallel group (the simulator's TATP stream, in closed form).
    double gemm(const PlannedGemm& g) {
        const double firstS = m_compute.seconds(g.blockWork(true));
        if (g.rounds == 1)
            return firstS;
        const double later = g.rounds - 1;
        const double blockS = m_compute.seconds(g.blockWork(false));
        const auto& path = groupsOf(g.streamGroup).front();
        const ProtocolChoice protocol =
            m_e.protocolFor(OpKind::P2P, {path[0], path[1]}, g.streamedBlockBytes);
        const double roundS =
            streamRoundS(g.streamGroup, g.streamedBlockBytes / protocol.efficiency) +
            protocol.latencyS;
        if (!g.doubleBuffered)
            return firstS + later * (blockS + roundS);
        return firstS + later * std::max(blockS, roundS);
    }

    // A collective over every group of its kind at once, with its protocol's latency and its
    // bytes on the wire (docs/network-model.md section 4.8).
    double collective(const PlannedCollective& c) {
        const auto& groups = groupsOf(c.group);
        std::vector<DieId> group = groups.front();
        if (c.op == OpKind::P2P && group.size() >= 2)
            group.resize(2); // one send between neighbouring stages
        const ProtocolChoice protocol = m_e.protocolFor(c.op, group, c.bytes);
        const double bytes = c.bytes / protocol.efficiency;
        return protocol.latencyS + collectiveOnWire(c, bytes);
    }
    double collectiveOnWire(const PlannedCollective& c, double bytes) {
        if (c.op == OpKind::P2P)
            return stageSends(bytes, c.role == CollectiveRole::PipelineActivations);
        switch (c.algorithm) {
        case Algorithm::Ring:
            return ring(c.group, bytes, c.op == OpKind::AllReduce ? 2 : 1, false);
        case Algorithm::BidirectionalRing:
            return ring(c.group, bytes, c.op == OpKind::AllReduce ? 2 : 1, true);
        case Algorithm::Multicast:
            return trees(c.group, bytes, TreeDirection::FromRoot);
        case Algorithm::Tree: // reduction trees; an all-reduce multicasts the sums back
            if (c.op == OpKind::ReduceScatter)
                return trees(c.group, bytes, TreeDirection::ToRoot);
            if (c.op == OpKind::AllReduce)
                return trees(c.group, bytes, TreeDirection::ToRoot) +
                       trees(c.group, bytes, TreeDirection::FromRoot);
            return trees(c.group, bytes, TreeDirection::FromRoot);
        case Algorithm::Direct:
            return allToAll(c.group, bytes);
        case Algorithm::Hierarchical:
            break;
        }
        throw std::logic_error("the step plan has no hierarchical collective");
    }

    double seconds(const PlannedTask& task) {
        if (const auto* g = std::get_if<PlannedGemm>(&task.work))
            return gemm(*g);
        if (const auto* work = std::get_if<PlannedElementwise>(&task.work))
            return m_compute.seconds(work->work());
        const auto& c = std::get<PlannedCollective>(task.work);
        // A window repeats its collectives layer after layer: cost each kind once.
        for (const auto& [known, knownS] : m_collectiveSeconds)
            if (known.group == c.group && known.op == c.op && known.algorithm == c.algorithm &&
                known.bytes == c.bytes)
                return knownS;
        const double costS = collective(c);
        m_collectiveSeconds.emplace_back(c, costS);
        return costS;
    }

    // Ring all-gather / reduce-scatter (steps = P - 1) or all-reduce (2 (P - 1)) of `bytes` (the
    // whole buffer) over every group of a kind at once; `bidirectional`: half of it on the ring
    // in each direction.
    double ring(GroupKind kind, double bytes, int stepsPerRank, bool bidirectional) {
        const auto& groups = groupsOf(kind);
        const int p = static_cast<int>(groups.front().size());
        if (p <= 1)
            return 0.0;
        const auto [load, hops] = ringLoad(groups, bidirectional);
        const double chunk = bytes / p;
        const double steps = static_cast<double>(stepsPerRank) * (p - 1);
        return steps * (load * chunk / m_e.linkBandwidth() + m_e.linkLatencyS()) +
               std::max(0, hops - 1) * m_e.linkLatencyS();
    }

    // Multicast all-gather: every rank sends bytes / P once, as one tree to all the others.
    // One tree per rank carrying its 1/P of `bytes`: out of it to every other rank (a multicast
    // all-gather) or into it from them (a reduce-scatter by reduction trees).
    double trees(GroupKind kind, double bytes, TreeDirection direction) {
        const auto& groups = groupsOf(kind);
        const int p = static_cast<int>(groups.front().size());
        if (p <= 1)
            return 0.0;
        m_counter.reset();
        int depth = 0;
        std::vector<LinkId> tree;
        for (const auto& group : groups)
            for (DieId root : group) {
                tree.clear();
                const auto add = [&](LinkId l) { tree.push_back(l); };
                for (DieId other : group)
                    if (other != root)
                        depth = std::max(depth, direction == TreeDirection::FromRoot
                                                    ? m_e.visitRoute(root, other, add)
                                                    : m_e.visitRoute(other, root, add));
                std::sort(tree.begin(), tree.end());
                tree.erase(std::unique(tree.begin(), tree.end()), tree.end());
                for (LinkId link : tree)
                    m_counter.addLink(link, 1.0);
            }
        return m_counter.max() * bytes / p / m_e.linkBandwidth() + depth * m_e.linkLatencyS();
    }

    // Direct all-to-all: every rank sends bytes / P to every other rank at once.
    double allToAll(GroupKind kind, double bytes) {
        const auto& groups = groupsOf(kind);
        const int p = static_cast<int>(groups.front().size());
        if (p <= 1)
            return 0.0;
        m_counter.reset();
        int hops = 0;
        for (const auto& group : groups)
            for (DieId src : group)
                for (DieId dst : group)
                    if (src != dst)
                        hops = std::max(hops, m_counter.add(routeFn(), src, dst, 1.0));
        return m_counter.max() * bytes / p / m_e.linkBandwidth() + hops * m_e.linkLatencyS();
    }

    // Pipeline sends (StepPlan::pipeline): along every Stage group each die sends `bytes` to
    // the next stage's (`forward`) or the previous one's, all at once.
    double stageSends(double bytes, bool forward) {
        m_counter.reset();
        int hops = 0;
        for (const auto& stages : groupsOf(GroupKind::Stage))
            for (std::size_t k = 0; k + 1 < stages.size(); ++k)
                hops = std::max(hops,
                                forward ? m_counter.add(routeFn(), stages[k], stages[k + 1], 1.0)
                                        : m_counter.add(routeFn(), stages[k + 1], stages[k], 1.0));
        return m_counter.max() * bytes / m_e.linkBandwidth() + hops * m_e.linkLatencyS();
    }

private:
    const std::vector<std::vector<DieId>>& groupsOf(GroupKind kind) {
        auto& cached = m_groups[static_cast<int>(kind)];
        if (cached.empty())
            cached = m_p.groups(kind);
        return cached;
    }

    // The most ring edges on one link (all groups at once; a bidirectional ring's edges both
    // ways, each carrying half) and the longest edge in hops.
    std::pair<double, int> ringLoad(const std::vector<std::vector<DieId>>& groups,
                                    bool bidirectional) {
        m_counter.reset();
        int hops = 0;
        const double weight = bidirectional ? 0.5 : 1.0;
        for (const auto& group : groups)
            for (std::size_t i = 0; i < group.size(); ++i) {
                const DieId next = group[(i + 1) % group.size()];
                hops = std::max(hops, m_counter.add(routeFn(), group[i], next, weight));
                if (bidirectional)
                    hops = std::max(hops, m_counter.add(routeFn(), next, group[i], weight));
            }
        return {m_counter.max(), hops};
    }

    // One round of every stream over `kind`'s groups (TATP's; TP's under tp_overlap, relayed
    // both ways as TATP's bidirectional schedule): the bidirectional relay moves one block over
    // each path edge in both directions; the ring moves one block from each position to the
    // next, the last to the first.
    double streamRoundS(GroupKind kind, double blockBytes) {
        auto& [load, hops] = m_roundLoad[static_cast<std::size_t>(kind)];
        if (load < 0.0) {
            const bool ring = kind == GroupKind::TATP && m_s.tatpSchedule == TatpSchedule::Ring;
            m_counter.reset();
            hops = 0;
            for (const auto& path : groupsOf(kind)) {
                const std::size_t n = path.size();
                for (std::size_t i = 0; i + 1 < n; ++i) {
                    hops = std::max(hops, m_counter.add(routeFn(), path[i], path[i + 1], 1.0));
                    if (!ring)
                        hops = std::max(hops, m_counter.add(routeFn(), path[i + 1], path[i], 1.0));
                }
                if (ring)
                    hops = std::max(hops, m_counter.add(routeFn(), path[n - 1], path[0], 1.0));
            }
            load = m_counter.max();
        }
        return load * blockBytes / m_e.linkBandwidth() + hops * m_e.linkLatencyS();
    }

    const AnalyticEvaluator& m_e;
    const StrategySpec& m_s;
    const Placement& m_p;
    const ComputeModel& m_compute;
    LinkCounter m_counter;
    std::vector<std::vector<DieId>> m_groups[6]; // by GroupKind
    std::vector<std::pair<PlannedCollective, double>> m_collectiveSeconds;
    // By GroupKind: a stream round's hottest link load (-1 until computed) and longest hop.
    std::array<std::pair<double, int>, 6> m_roundLoad{
        {{-1.0, 0}, {-1.0, 0}, {-1.0, 0}, {-1.0, 0}, {-1.0, 0}, {-1.0, 0}}};
};

} // namespace

AnalyticEvaluator::AnalyticEvaluator(const Workload& workload, const WaferSpec& wafer,
                                     const WaferTopology& topology, RoutingMode routingMode,
                                     const LinkTierSpeeds& tiers,
                                     std::optional<TierProtocols> protocols)
    : m_workload(workload), m_topology(topology), m_die(wafer.die), m_mode(routingMode),
      m_bandwidth(wafer.linkBandwidth.value), m_latencyS(wafer.linkLatency.value), m_tiers(tiers),
      m_compute(wafer.die) {
    if (protocols) {
        m_protocols = std::move(*protocols);
    } else {
        for (const ProtocolSpec& protocol : wafer.protocols)
            m_protocols.wafer.push_back(protocol.resolved(m_bandwidth));
    }
    if (tiers.any()) {
        m_linkSlowdown.assign(static_cast<std::size_t>(topology.linkCount()), 1.0);
        for (const LinkProperties& link : topology.links()) {
            const double bandwidth = tiers.of(link.tier, {m_bandwidth, m_latencyS}).bandwidth;
            if (bandwidth > 0.0)
                m_linkSlowdown[static_cast<std::size_t>(link.id)] = m_bandwidth / bandwidth;
        }
    }
    const int dies = topology.dieCount();
    if (dies > kRouteTableDies)
        return;
    const Router router(topology, routingMode);
    m_routeStart.reserve(static_cast<std::size_t>(dies) * dies + 1);
    m_routeHops.reserve(static_cast<std::size_t>(dies) * dies);
    for (DieId src = 0; src < dies; ++src)
        for (DieId dst = 0; dst < dies; ++dst) {
            m_routeStart.push_back(static_cast<int>(m_routeLinks.size()));
            if (src == dst) {
                m_routeHops.push_back(0);
                continue;
            }
            const auto route = router.unicast(src, dst);
            m_routeHops.push_back(route ? route->hops : -1);
            if (route)
                m_routeLinks.insert(m_routeLinks.end(), route->links.begin(), route->links.end());
        }
    m_routeStart.push_back(static_cast<int>(m_routeLinks.size()));
}

ProtocolChoice AnalyticEvaluator::protocolFor(OpKind kind, const std::vector<DieId>& group,
                                              double bytes) const {
    if (!m_protocols.any())
        return {};
    const LinkTier tier = protocolTierOf(m_topology, group);
    return chooseProtocol(m_protocols.of(tier), kind, static_cast<int>(group.size()), bytes,
                          m_tiers.of(tier, {m_bandwidth, m_latencyS}).bandwidth);
}

int AnalyticEvaluator::routeOnTheFly(DieId src, DieId dst, std::vector<LinkId>& links) const {
    const Router router(m_topology, m_mode);
    const auto route = router.unicast(src, dst);
    if (!route)
        return -1;
    links = route->links;
    return route->hops;
}

namespace {

// Walks a section as a die runs it (StepPlan): a clock for the die's chain, asynchronous
// collectives beside it from their issue to their end, a task waiting for the collective its
// waitsFor names. Adds the steady layer's synchronous tasks to `steady` by segment (the time
// they wait for a gather to fsdpS), so its three terms add up to the steady layer's time.
WindowTiming walkSection(const StepSection& section, const StepPlan& plan, Estimator& e,
                         LayerSegments* steady) {
    WindowTiming timing;
    std::vector<double> asyncEndS(section.tasks.size(), 0.0);
    double clockS = 0.0;
    double endS = 0.0;
    for (std::size_t i = 0; i < section.tasks.size(); ++i) {
        const PlannedTask& task = section.tasks[i];
        if (std::holds_alternative<PlannedBarrier>(task.work)) {
            timing.barrierEndS.push_back(clockS);
            continue;
        }
        double readyS = clockS;
        if (task.waitsFor >= 0)
            readyS = std::max(readyS, asyncEndS[static_cast<std::size_t>(task.waitsFor)]);
        const double seconds = e.seconds(task);
        const auto* collective = std::get_if<PlannedCollective>(&task.work);
        if (collective && collective->async) {
            asyncEndS[i] = readyS + seconds;
            endS = std::max(endS, asyncEndS[i]);
            continue;
        }
        if (steady != nullptr && task.layer == plan.steadyLayer()) {
            steady->fsdpS += readyS - clockS;
            (task.segment == LayerSegment::Attention ? steady->attentionS : steady->mlpS) +=
                seconds;
        }
        clockS = readyS + seconds;
    }
    timing.endS = std::max(endS, clockS);
    return timing;
}

} // namespace

AnalyticEstimate AnalyticEvaluator::evaluate(const StrategySpec& strategy) const {
    AnalyticEstimate estimate;
    Placement placement;
    try {
        checkStrategyAgainstWorkload(strategy, m_workload);
        placement = placeStrategy(strategy, m_topology);
    } catch (const ScenarioError& error) {
        estimate.whyNot = error.what();
        return estimate;
    }
    estimate.feasible = true;
    const StepPlan plan = buildStepPlan(m_workload, strategy, m_die, {m_bandwidth, m_latencyS});
    Estimator e(*this, strategy, placement, m_compute);
    const WindowTiming window = walkSection(plan.window, plan, e, &estimate.segments);
    const WindowTiming finalWindow = walkSection(plan.finalWindow, plan, e, nullptr);
    estimate.windowS = window.endS;
    estimate.layerS = window.steadyLayerS(plan);
    estimate.syncS =
        plan.finalWindow.tasks.empty() ? window.exposedSyncS() : finalWindow.exposedSyncS();
    estimate.headS = walkSection(plan.head, plan, e, nullptr).endS;
    estimate.optimizerS = sectionSeconds(plan.optimizer, m_compute);
    estimate.memory = plan.memory;
    // A gemm workload's plan has one layer, one micro-batch and no head: step = window.
    if (plan.stages > 1)
        estimate.stepS = schedule1F1B(pipelineTimes(plan, window, finalWindow, estimate.headS,
                                                    walkSection(plan.pipeline, plan, e, nullptr)))
                             .makespanS +
                         estimate.optimizerS;
    else
        estimate.stepS =
            stepSeconds(plan, window, finalWindow, estimate.headS, estimate.optimizerS);
    estimate.tokensPerSecond = m_workload.tokensPerStep() / estimate.stepS;
    return estimate;
}

} // namespace ws
