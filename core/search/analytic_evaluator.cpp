#include "search/analytic_evaluator.h"

#include "routing/router.h"
#include "scenario/scenario_error.h"
#include "strategy/placement.h"
#include "workload/layer_gemm.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

enum class TpSplit { Columns, Rows, Heads };

// As the training step splits a GEMM over TP (core/step/training_step.cpp).
TpSplit tpSplitOf(const LayerGemm& gemm) {
    if (!gemm.hasWeight)
        return TpSplit::Heads;
    if (gemm.name.find("proj") != std::string::npos || gemm.name.find("down") != std::string::npos)
        return TpSplit::Rows;
    return TpSplit::Columns;
}

// Per-link counts of one traffic pattern, reset between patterns.
class LinkCounter {
public:
    explicit LinkCounter(int links) : m_count(static_cast<std::size_t>(links), 0.0) {}

    template <class Route> int add(const Route& visitRoute, DieId src, DieId dst, double weight) {
        return visitRoute(src, dst, [&](LinkId link) { addLink(link, weight); });
    }
    void addLink(LinkId link, double weight) {
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
    std::vector<LinkId> m_touched;
    double m_max = 0.0;
};

// One evaluation: the strategy, its placement and the running phase times.
class Estimator {
public:
    Estimator(const AnalyticEvaluator& evaluator, const StrategySpec& strategy,
              const Placement& placement, double flopsPerSecond)
        : m_e(evaluator), m_s(strategy), m_p(placement), m_flopsPerSecond(flopsPerSecond),
          m_dtype(evaluator.workload().dtypeBytes), m_counter(evaluator.topology().linkCount()) {}

    double largestStreamedBlock() const { return m_largestBlock; }

    auto routeFn() const {
        return [this](DieId a, DieId b, auto fn) { return m_e.visitRoute(a, b, fn); };
    }

    // A GEMM on every model-parallel group (the simulator's runGemm).
    double gemm(const LayerGemm& g, double mPerSpRank) {
        double mLocal = g.hasWeight ? mPerSpRank : g.shape.m / m_s.sp;
        double kLocal = g.shape.k, nLocal = g.shape.n, countLocal = g.count;
        switch (tpSplitOf(g)) {
        case TpSplit::Columns:
            nLocal /= m_s.tp;
            break;
        case TpSplit::Rows:
            kLocal /= m_s.tp;
            break;
        case TpSplit::Heads:
            countLocal /= m_s.tp;
            break;
        }
        const double tatp = m_s.tatp;
        const double computeS =
            2.0 * mLocal * kLocal * nLocal * countLocal / tatp / m_flopsPerSecond;
        if (m_s.tatp == 1)
            return computeS;
        const double blockBytes =
            std::min(kLocal * nLocal / tatp, mLocal / tatp * kLocal) * countLocal * m_dtype;
        m_largestBlock = std::max(m_largestBlock, blockBytes);
        const double blockS = computeS / tatp;
        const double roundS = streamRoundS(blockBytes);
        if (!m_s.doubleBuffering)
            return tatp * blockS + (tatp - 1) * roundS;
        return blockS + (tatp - 1) * std::max(blockS, roundS);
    }

    // Ring all-gather / reduce-scatter (steps = P - 1) or all-reduce (2 (P - 1)) of `bytes` (the
    // whole buffer) over every group of a kind at once.
    double ring(GroupKind kind, double bytes, int stepsPerRank) {
        const auto& groups = groupsOf(kind);
        const int p = static_cast<int>(groups.front().size());
        if (p <= 1)
            return 0.0;
        const auto [load, hops] = ringLoad(groups);
        const double chunk = bytes / p;
        const double steps = static_cast<double>(stepsPerRank) * (p - 1);
        return steps * (load * chunk / m_e.linkBandwidth() + m_e.linkLatencyS()) +
               std::max(0, hops - 1) * m_e.linkLatencyS();
    }

    // Multicast all-gather: every rank sends bytes / P once, as one tree to all the others.
    double multicastAllGather(GroupKind kind, double bytes) {
        const auto& groups = groupsOf(kind);
        const int p = static_cast<int>(groups.front().size());
        if (p <= 1)
            return 0.0;
        m_counter.reset();
        int depth = 0;
        std::vector<LinkId> tree;
        for (const auto& group : groups)
            for (DieId src : group) {
                tree.clear();
                for (DieId dst : group)
                    if (dst != src)
                        depth = std::max(
                            depth, m_e.visitRoute(src, dst, [&](LinkId l) { tree.push_back(l); }));
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

private:
    const std::vector<std::vector<DieId>>& groupsOf(GroupKind kind) {
        auto& cached = m_groups[static_cast<int>(kind)];
        if (cached.empty())
            cached = m_p.groups(kind);
        return cached;
    }

    // The most ring edges on one link (all groups at once) and the longest edge in hops.
    std::pair<double, int> ringLoad(const std::vector<std::vector<DieId>>& groups) {
        m_counter.reset();
        int hops = 0;
        for (const auto& group : groups)
            for (std::size_t i = 0; i < group.size(); ++i)
                hops = std::max(
                    hops, m_counter.add(routeFn(), group[i], group[(i + 1) % group.size()], 1.0));
        return {m_counter.max(), hops};
    }

    // One round of every TATP group's stream: the bidirectional relay moves one block over each
    // path edge in both directions; the ring moves one block from each position to the next,
    // the last to the first.
    double streamRoundS(double blockBytes) {
        if (m_roundLoad < 0.0) {
            m_counter.reset();
            int hops = 0;
            for (const auto& path : groupsOf(GroupKind::TATP)) {
                const std::size_t n = path.size();
                for (std::size_t i = 0; i + 1 < n; ++i) {
                    hops = std::max(hops, m_counter.add(routeFn(), path[i], path[i + 1], 1.0));
                    if (m_s.tatpSchedule == TatpSchedule::Bidirectional)
                        hops = std::max(hops, m_counter.add(routeFn(), path[i + 1], path[i], 1.0));
                }
                if (m_s.tatpSchedule == TatpSchedule::Ring)
                    hops = std::max(hops, m_counter.add(routeFn(), path[n - 1], path[0], 1.0));
            }
            m_roundLoad = m_counter.max();
            m_roundHops = hops;
        }
        return m_roundLoad * blockBytes / m_e.linkBandwidth() + m_roundHops * m_e.linkLatencyS();
    }

    const AnalyticEvaluator& m_e;
    const StrategySpec& m_s;
    const Placement& m_p;
    double m_flopsPerSecond;
    double m_dtype;
    LinkCounter m_counter;
    std::vector<std::vector<DieId>> m_groups[4];
    double m_roundLoad = -1.0;
    int m_roundHops = 0;
    double m_largestBlock = 0.0;
};

bool isFirstOf(const std::vector<LayerGemm>& gemms, const LayerGemm& gemm,
               bool (*is)(const LayerGemm&)) {
    for (const LayerGemm& other : gemms)
        if (is(other))
            return other.name == gemm.name;
    return false;
}

bool isLastOf(const std::vector<LayerGemm>& gemms, const LayerGemm& gemm,
              bool (*is)(const LayerGemm&)) {
    for (auto it = gemms.rbegin(); it != gemms.rend(); ++it)
        if (is(*it))
            return it->name == gemm.name;
    return false;
}

bool isAttention(const LayerGemm& g) {
    return !g.hasWeight;
}
bool isExpert(const LayerGemm& g) {
    return g.expert;
}
// The attention segment runs from qkv to the output projection; the rest is the MLP / MoE.
bool inAttentionSegment(const LayerGemm& g) {
    return g.name == "qkv" || !g.hasWeight || g.name == "output_projection";
}

} // namespace

AnalyticEvaluator::AnalyticEvaluator(const Workload& workload, const WaferSpec& wafer,
                                     const WaferTopology& topology, RoutingMode routingMode)
    : m_workload(workload), m_topology(topology), m_die(wafer.die), m_mode(routingMode),
      m_bandwidth(wafer.linkBandwidth.value), m_latencyS(wafer.linkLatency.value),
      m_flopsPerSecond(wafer.die.peakFlops.value * wafer.die.efficiency) {
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

int AnalyticEvaluator::routeOnTheFly(DieId src, DieId dst, std::vector<LinkId>& links) const {
    const Router router(m_topology, m_mode);
    const auto route = router.unicast(src, dst);
    if (!route)
        return -1;
    links = route->links;
    return route->hops;
}

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
    Estimator e(*this, strategy, placement, m_flopsPerSecond);
    const double dtype = m_workload.dtypeBytes;
    const bool fsdp = strategy.fsdp && strategy.dp > 1;
    auto gatherS = [&](double bytes) {
        return strategy.fsdpAllGatherMulticast ? e.multicastAllGather(GroupKind::DP, bytes)
                                               : e.ring(GroupKind::DP, bytes, 1);
    };

    if (m_workload.kind == WorkloadKind::Gemm) {
        const GemmShape& shape = m_workload.gemm;
        const LayerGemm linear{"linear", shape, 1.0, true, false};
        if (fsdp)
            estimate.segments.fsdpS =
                gatherS(shape.k * shape.n / (strategy.tp * strategy.tatp) * dtype);
        estimate.segments.mlpS = e.gemm(linear, shape.m / (strategy.dp * strategy.sp));
        estimate.layerS = estimate.segments.fsdpS + estimate.segments.mlpS;
        estimate.stepS = estimate.layerS;
        estimate.memory = estimateMemory(m_workload, strategy, m_die, e.largestStreamedBlock());
        estimate.tokensPerSecond = shape.m / estimate.stepS;
        return estimate;
    }

    const TransformerConfig& model = m_workload.model;
    const double sequences = static_cast<double>(m_workload.globalBatch) /
                             (static_cast<double>(strategy.dp) * strategy.microBatches);
    const double seqLen = static_cast<double>(m_workload.seqLen);
    const double replicaTokens = sequences * seqLen;
    const double tokensPerDie = replicaTokens / (strategy.sp * strategy.tatp);
    const std::vector<LayerGemm> gemms = layerGemms(model, sequences, seqLen);
    const double layerWeightBytes =
        model.parametersPerLayer() / (strategy.tp * strategy.tatp) * dtype;
    const double kvBytes =
        replicaTokens / strategy.tatp * 2.0 * model.kvHeads * model.headDim() / strategy.tp * dtype;
    const double moeBytes = tokensPerDie * model.hidden * dtype * model.expertsPerToken;
    const double tpBytes = tokensPerDie * model.hidden * dtype;
    auto mOf = [&](const LayerGemm& g) {
        return replicaTokens * (g.expert ? model.expertsPerToken : 1) / strategy.sp;
    };
    LayerSegments& seg = estimate.segments;
    auto add = [&](const LayerGemm& g, double seconds) {
        (inAttentionSegment(g) ? seg.attentionS : seg.mlpS) += seconds;
    };

    // The forward and backward gathers start together and share the DP rings' links.
    if (fsdp)
        seg.fsdpS = 2.0 * gatherS(layerWeightBytes);
    for (const LayerGemm& g : gemms) { // forward
        if (strategy.sp > 1 && isFirstOf(gemms, g, isAttention))
            add(g, e.ring(GroupKind::SP, kvBytes, 1));
        if (strategy.dp > 1 && isFirstOf(gemms, g, isExpert))
            add(g, e.allToAll(GroupKind::DP, moeBytes));
        add(g, e.gemm(g, mOf(g)));
        if (tpSplitOf(g) == TpSplit::Rows && strategy.tp > 1)
            add(g, e.ring(GroupKind::TP, tpBytes, 2));
        if (strategy.dp > 1 && isLastOf(gemms, g, isExpert))
            add(g, e.allToAll(GroupKind::DP, moeBytes));
    }
    if (strategy.activationCheckpointing)
        for (const LayerGemm& g : gemms)
            add(g, e.gemm(g, mOf(g)));
    for (auto it = gemms.rbegin(); it != gemms.rend(); ++it) { // backward
        const LayerGemm& g = *it;
        if (strategy.dp > 1 && isLastOf(gemms, g, isExpert))
            add(g, e.allToAll(GroupKind::DP, moeBytes));
        add(g, 2.0 * e.gemm(g, mOf(g)));
        if (tpSplitOf(g) == TpSplit::Columns && g.hasWeight && strategy.tp > 1)
            add(g, e.ring(GroupKind::TP, tpBytes, 2));
        if (strategy.dp > 1 && isFirstOf(gemms, g, isExpert))
            add(g, e.allToAll(GroupKind::DP, moeBytes));
        if (strategy.sp > 1 && isFirstOf(gemms, g, isAttention))
            add(g, e.ring(GroupKind::SP, kvBytes, 1));
    }
    estimate.layerS = seg.attentionS + seg.mlpS + seg.fsdpS;

    const LayerGemm head{
        "lm_head",
        {replicaTokens, static_cast<double>(model.hidden), static_cast<double>(model.vocab)},
        1.0,
        true,
        false};
    estimate.headS = 3.0 * e.gemm(head, replicaTokens / strategy.sp);
    if (strategy.dp > 1)
        estimate.syncS = e.ring(GroupKind::DP, layerWeightBytes, strategy.fsdp ? 1 : 2);
    const double layers = model.layers;
    estimate.stepS = strategy.microBatches * (layers * estimate.layerS + estimate.headS) +
                     layers * estimate.syncS;
    estimate.memory = estimateMemory(m_workload, strategy, m_die, e.largestStreamedBlock());
    estimate.tokensPerSecond = m_workload.tokensPerStep() / estimate.stepS;
    return estimate;
}

} // namespace ws
