#include "search/segment_plan.h"

#include "parallel/thread_pool.h"
#include "units/quantity.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>

namespace ws {

namespace {

std::string styleText(const SegmentStyle& s) {
    std::string text;
    auto degree = [&](const char* name, int value) {
        if (value > 1)
            text += (text.empty() ? "" : " x ") + std::string(name) + " " + std::to_string(value);
    };
    degree("sp", s.sp);
    degree("tp", s.tp);
    degree("tatp", s.tatp);
    return text.empty() ? "unsplit" : text;
}

struct StyleCost {
    SegmentStyle style;
    double segmentS[2] = {0.0, 0.0}; // attention, MLP: per layer, all micro-batches
};

} // namespace

double reshardSeconds(const SegmentStyle& from, const SegmentStyle& to, double residualBytes,
                      double linkBandwidth, double linkLatencyS) {
    // The residual stream is split by tokens over sp x tatp and replicated over tp.
    const int a = from.sp * from.tatp;
    const int b = to.sp * to.tatp;
    if (b % a == 0)
        return 0.0; // each die already holds a superset of what it needs: a local slice
    const double need = residualBytes / b;
    double missing = need;
    int peers = b;
    if (a % b == 0) { // a finer split gathered into a coarser one
        missing = need - residualBytes / a;
        peers = a / b;
    }
    return 2.0 * (missing / linkBandwidth + (peers - 1) * linkLatencyS);
}

std::vector<SegmentPlan> planSegments(const AnalyticEvaluator& evaluator, const SearchSpace& space,
                                      ThreadPool& pool, int& evaluations) {
    const Workload& workload = evaluator.workload();
    const bool transformer = workload.kind == WorkloadKind::Transformer;
    struct Job {
        Genome genome;
        SegmentStyle style;
        AnalyticEstimate estimate;
    };
    std::vector<Job> jobs;
    for (int dp : space.dpValues()) {
        Genome base;
        base.dp = dp;
        base.fsdp = dp > 1;
        base.checkpointing = transformer ? Checkpointing::Full : Checkpointing::None;
        // The most micro-batches (one sequence per replica each): the least activation memory,
        // so that as many splits as possible fit.
        base.microBatches = space.microBatchValues(dp).back();
        base.placement = PlacementGene::Snake;
        for (int sp : space.spValues())
            for (int tp : space.tpValues())
                for (int tatp : space.tatpValues()) {
                    if (static_cast<long long>(dp) * sp * tp * tatp > space.liveDies())
                        continue;
                    Genome g = base;
                    g.sp = sp;
                    g.tp = tp;
                    g.tatp = tatp;
                    g.normalize();
                    jobs.push_back({g, {sp, tp, tatp}, {}});
                }
    }
    pool.parallelFor(static_cast<int>(jobs.size()), [&](int i) {
        Job& job = jobs[static_cast<std::size_t>(i)];
        job.estimate = evaluator.evaluate(space.toStrategy(job.genome));
    });
    evaluations += static_cast<int>(jobs.size());

    // The attention segment's share of a layer's parameters (FSDP gathers, gradient sync).
    double attentionShare = 1.0;
    int layers = 1;
    if (transformer) {
        const TransformerConfig& m = workload.model;
        const double h = m.hidden;
        const double attention = 2.0 * h * h + 2.0 * h * m.kvHeads * m.headDim();
        attentionShare = attention / m.parametersPerLayer();
        layers = m.layers;
    }

    std::vector<SegmentPlan> plans;
    for (int dp : space.dpValues()) {
        std::vector<StyleCost> costs;
        Genome base;
        for (const Job& job : jobs) {
            if (job.genome.dp != dp || !job.estimate.feasible || job.estimate.memory.outOfMemory())
                continue;
            const AnalyticEstimate& e = job.estimate;
            const double micro = job.genome.microBatches;
            StyleCost cost{job.style, {}};
            if (transformer) {
                // What no segment owns: the gathers' exposed waits, and the gradient reduction
                // still running after the last backward, spread over the layers.
                const double shared = micro * e.segments.fsdpS + e.syncS / layers;
                cost.segmentS[0] = micro * e.segments.attentionS + shared * attentionShare;
                cost.segmentS[1] = micro * e.segments.mlpS + shared * (1.0 - attentionShare);
            } else {
                cost.segmentS[1] = e.stepS;
            }
            costs.push_back(cost);
            base = job.genome;
        }
        if (costs.empty())
            continue;
        base.sp = base.tp = base.tatp = 1;

        const int segmentsPerLayer = transformer ? 2 : 1;
        const int chain = layers * segmentsPerLayer;
        const std::size_t styles = costs.size();
        double residualBytes = 0.0;
        if (transformer)
            residualBytes = static_cast<double>(workload.globalBatch) / (dp * base.microBatches) *
                            static_cast<double>(workload.seqLen) * workload.model.hidden *
                            workload.dtypeBytes;
        std::vector<std::vector<double>> reshard(styles, std::vector<double>(styles, 0.0));
        for (std::size_t a = 0; a < styles; ++a)
            for (std::size_t b = 0; b < styles; ++b)
                reshard[a][b] = base.microBatches *
                                reshardSeconds(costs[a].style, costs[b].style, residualBytes,
                                               evaluator.linkBandwidth(), evaluator.linkLatencyS());

        // best[i][s]: the cheapest chain of segments 0..i ending with segment i in style s.
        std::vector<std::vector<double>> best(static_cast<std::size_t>(chain),
                                              std::vector<double>(styles));
        std::vector<std::vector<int>> from(static_cast<std::size_t>(chain),
                                           std::vector<int>(styles, -1));
        auto segmentCost = [&](int i, std::size_t s) {
            return costs[s].segmentS[transformer ? i % 2 : 1];
        };
        for (std::size_t s = 0; s < styles; ++s)
            best[0][s] = segmentCost(0, s);
        for (int i = 1; i < chain; ++i)
            for (std::size_t s = 0; s < styles; ++s) {
                double cheapest = std::numeric_limits<double>::infinity();
                int argmin = -1;
                for (std::size_t p = 0; p < styles; ++p) {
                    const double c = best[static_cast<std::size_t>(i - 1)][p] + reshard[p][s];
                    if (c < cheapest) { // strict: the lowest index wins ties (deterministic)
                        cheapest = c;
                        argmin = static_cast<int>(p);
                    }
                }
                best[static_cast<std::size_t>(i)][s] = cheapest + segmentCost(i, s);
                from[static_cast<std::size_t>(i)][s] = argmin;
            }
        const auto& last = best.back();
        std::size_t end =
            static_cast<std::size_t>(std::min_element(last.begin(), last.end()) - last.begin());
        SegmentPlan plan;
        plan.dp = dp;
        plan.base = base;
        plan.planS = last[end];
        std::vector<std::size_t> chosen(static_cast<std::size_t>(chain));
        for (int i = chain - 1; i >= 0; --i) {
            chosen[static_cast<std::size_t>(i)] = end;
            if (i > 0)
                end = static_cast<std::size_t>(from[static_cast<std::size_t>(i)][end]);
        }
        std::map<std::size_t, double> timeByStyle;
        for (int i = 0; i < chain; ++i) {
            const std::size_t s = chosen[static_cast<std::size_t>(i)];
            plan.styles.push_back(costs[s].style);
            timeByStyle[s] += segmentCost(i, s);
            if (i > 0)
                plan.reshardS += reshard[chosen[static_cast<std::size_t>(i - 1)]][s];
        }
        std::vector<std::pair<double, std::size_t>> order;
        for (const auto& [s, t] : timeByStyle)
            order.emplace_back(-t, s);
        std::sort(order.begin(), order.end());
        for (const auto& [negative, s] : order) {
            Genome g = base;
            g.sp = costs[s].style.sp;
            g.tp = costs[s].style.tp;
            g.tatp = costs[s].style.tatp;
            g.normalize();
            plan.seeds.push_back(g);
        }

        // In words: runs of layers with the same pair of styles.
        char line[320];
        std::snprintf(line, sizeof line, "dp %d (%s, %d micro-batch%s): modelled %s per step", dp,
                      base.fsdp ? "fsdp" : "replicated weights", base.microBatches,
                      base.microBatches > 1 ? "es" : "", formatSeconds(plan.planS).c_str());
        plan.lines.push_back(line);
        for (int first = 0; first < layers;) {
            auto pairAt = [&](int layer) {
                const std::size_t i = static_cast<std::size_t>(layer * segmentsPerLayer);
                return std::make_pair(plan.styles[i], plan.styles[i + segmentsPerLayer - 1]);
            };
            int lastLayer = first;
            while (lastLayer + 1 < layers && pairAt(lastLayer + 1) == pairAt(first))
                ++lastLayer;
            const auto [attention, mlp] = pairAt(first);
            std::string text = "  layers " + std::to_string(first + 1) + "-" +
                               std::to_string(lastLayer + 1) + ": ";
            if (transformer) {
                const std::string mlpName =
                    workload.model.experts > 1 ? "moe block " : "mlp block ";
                text += "attention block " + styleText(attention) + ", " + mlpName + styleText(mlp);
            } else {
                text += "linear " + styleText(mlp);
            }
            plan.lines.push_back(text);
            first = lastLayer + 1;
        }
        if (transformer)
            plan.lines.push_back("  re-sharding between segments: " + formatSeconds(plan.reshardS) +
                                 " per step");
        plans.push_back(std::move(plan));
    }
    std::stable_sort(plans.begin(), plans.end(),
                     [](const SegmentPlan& a, const SegmentPlan& b) { return a.planS < b.planS; });
    return plans;
}

} // namespace ws
