#pragma once

#include "collectives/protocol_choice.h"
#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "scenario/workload.h"
#include "step/compute_model.h"
#include "step/memory_model.h"
#include "topology/network_model.h"
#include "topology/wafer_topology.h"

#include <optional>
#include <string>
#include <vector>

namespace ws {

// Seconds of the steady layer's forward + backward for one micro-batch (StepPlan::steadyLayer),
// split by the segments the residual connections cut it into (level 1 of the search), plus what
// belongs to no segment. The three add up to AnalyticEstimate::layerS.
struct LayerSegments {
    double attentionS = 0.0; // qkv, attention, output projection, SP K/V gathers, TP all-reduce
    double mlpS = 0.0;       // MLP (or MoE: router, experts, all-to-alls) and its TP all-reduce
    double fsdpS = 0.0;      // waiting for FSDP weight gathers not hidden by prefetch
};

// What the fast analytical model predicts for one strategy (the simulator's step formula,
// StepPlan::stepSeconds).
struct AnalyticEstimate {
    bool feasible = false; // the strategy is valid for the workload and places on the wafer
    std::string whyNot;    // when not feasible: "strategy.tp: 5 does not divide ..."
    double windowS = 0.0;  // StepTiming's fields (step/training_step.h), in closed form
    double layerS = 0.0;
    double headS = 0.0;
    double syncS = 0.0;
    double optimizerS = 0.0;
    double stepS = 0.0;
    LayerSegments segments;
    MemoryBreakdown memory;
    double tokensPerSecond = 0.0;
};

// The analytical evaluation of the search's fitness: no task graph and no simulation, only
// closed forms over the placement's groups. It interprets the same step plan as the simulator
// (step/step_plan.h), so the two differ only in how they cost a task, and the search's rank
// agreement measures that model error.
//
// Per section it adds the plan's tasks, in the order the simulator runs them on a die (each
// die's tasks are sequential, groups run side by side): a compute task costs what the die's
// compute model says (step/compute_model.h: roofline over FLOPs and HBM bytes, plus the task
// overhead); a TATP stream of n rounds = c0 + (n - 1) * max(c, t_round) with c0 the first block
// product (it reads the die's own blocks from HBM), c a later one and t_round the hottest link's
// load of one round (every group's neighbour transfers routed at once) over the bandwidth plus
// a hop latency (without double buffering: c0 + (n - 1) (c + t_round)); a ring
// collective = steps * (L * chunk / B + a) where L is the most ring edges of all groups at once
// that the routing puts on one link; multicast all-gathers count the trees crossing a link;
// all-to-all sums every pair's route. Each section is walked as a die runs it: asynchronous
// collectives (FSDP's prefetched gathers, the overlapped gradient reductions) run beside the
// die's chain without sharing its links (the simulator charges that contention; this model
// does not), and a task waits for the gather it needs. Memory is the plan's. Routes are the routing
// mode's, without load (faults detour as the router does).
//
// Thread-safe: evaluate() is const and keeps no state between calls.
class AnalyticEvaluator {
public:
    // `tiers`: the speeds of off-wafer and cluster network links (Scenario::linkTierSpeeds); each
    // crossing of one counts as wafer bandwidth / its bandwidth crossings of a wafer link.
    // `protocols`: each tier's collective protocols (Scenario::tierProtocols), chosen and
    // charged as the simulator does (docs/network-model.md section 4.8); unset, the wafer's own
    // (`wafer.protocols`) for its links and none for the other tiers.
    AnalyticEvaluator(const Workload& workload, const WaferSpec& wafer,
                      const WaferTopology& topology, RoutingMode routingMode,
                      const LinkTierSpeeds& tiers = {},
                      std::optional<TierProtocols> protocols = std::nullopt);

    AnalyticEstimate evaluate(const StrategySpec& strategy) const;

    const Workload& workload() const { return m_workload; }
    const WaferTopology& topology() const { return m_topology; }
    double linkBandwidth() const { return m_bandwidth; }
    double linkLatencyS() const { return m_latencyS; }
    // By link: how many wafer links' worth of time a byte takes on it (1 on a wafer, the
    // bandwidth ratio on an off-wafer link); empty when every link is a wafer link.
    const std::vector<double>& linkSlowdown() const { return m_linkSlowdown; }
    // The protocol a collective of `kind` over `group` (or a transfer between two dies) uses.
    ProtocolChoice protocolFor(OpKind kind, const std::vector<DieId>& group, double bytes) const;

    // Calls visit(LinkId) for every link of the route src -> dst and returns its hops (0 when
    // src == dst, -1 when dst cannot be reached).
    template <class Visit> int visitRoute(DieId src, DieId dst, Visit visit) const;

private:
    Workload m_workload;
    const WaferTopology& m_topology;
    DieSpec m_die;
    RoutingMode m_mode;
    double m_bandwidth = 0.0;
    double m_latencyS = 0.0;
    std::vector<double> m_linkSlowdown;
    LinkTierSpeeds m_tiers;
    TierProtocols m_protocols;
    ComputeModel m_compute;
    int routeOnTheFly(DieId src, DieId dst, std::vector<LinkId>& links) const;

    // All-pairs routes for wafers of up to kRouteTableDies dies (65,536 routes at most):
    // offsets into m_routeLinks. Bigger wafers route on the fly.
    static constexpr int kRouteTableDies = 256;
    std::vector<int> m_routeStart; // size dies^2 + 1
    std::vector<int> m_routeHops;  // -1: unroutable
    std::vector<LinkId> m_routeLinks;
};

template <class Visit> int AnalyticEvaluator::visitRoute(DieId src, DieId dst, Visit visit) const {
    if (src == dst)
        return 0;
    if (!m_routeStart.empty()) {
        const std::size_t pair = static_cast<std::size_t>(src) * m_topology.dieCount() + dst;
        for (int i = m_routeStart[pair]; i < m_routeStart[pair + 1]; ++i)
            visit(m_routeLinks[static_cast<std::size_t>(i)]);
        return m_routeHops[pair];
    }
    std::vector<LinkId> links;
    const int hops = routeOnTheFly(src, dst, links);
    for (LinkId link : links)
        visit(link);
    return hops;
}

} // namespace ws
