#pragma once

#include "scenario/strategy_spec.h"
#include "scenario/workload.h"
#include "topology/wafer_topology.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ws {

// Where a genome's ranks go: the two mapping policies, or explicit groups cut from one
// boustrophedon walk over every live die of the wafer (row 0 left to right, row 1 right to
// left, ...): TATP group d is the d-th run of `tatp` consecutive dies of that walk, and DP group
// a the dies at path position a. Explicit groups need sp = tp = 1 and pp = 1 (the placement
// refuses explicit groups for pipeline stages: it cuts the grid into stage regions itself).
enum class PlacementGene { Sequential = 0, Snake = 1, WaferSnake = 2 };

// One point of the search space (level 2): the genes of a hybrid strategy. Normalised
// (normalize()) so that two genomes that describe the same strategy compare equal: FSDP only
// with dp > 1, a multicast all-gather only with FSDP, double buffering fixed on without
// anything streamed (TATP or tp_overlap), sequence parallelism only with tp > 1 (the file's own
// rule: sequenceParallelProblem), tp_overlap only with sequence parallelism and tatp = 1.
struct Genome {
    int pp = 1; // pipeline stages, each on its own dp * sp * tp * tatp dies
    int dp = 1;
    int sp = 1;
    int tp = 1;
    int tatp = 1;
    bool fsdp = false;
    bool fsdpMulticast = false;
    bool doubleBuffering = true;
    Checkpointing checkpointing = Checkpointing::None;
    bool sequenceParallel = false; // Megatron's, inside the TP group
    // Every ring collective as two rings in opposite directions (strategy.ring_algorithm).
    bool bidirectionalRings = false;
    // TP's sequence-parallel collectives streamed beside their GEMMs (strategy.tp_overlap):
    // only with sequence parallelism and without TATP (tpOverlapProblem).
    bool tpOverlap = false;
    int microBatches = 1;
    PlacementGene placement = PlacementGene::Sequential;

    int dieCount() const { return pp * dp * sp * tp * tatp; }
    void normalize();
    // A total order used to break ties between equally fast strategies, so that the result
    // never depends on evaluation order. pp has no digit of its own: it is the die count over
    // the other degrees, so a genome with pp = 1 keeps the key it had before pp was a gene.
    std::uint64_t key() const;
    friend bool operator==(const Genome&, const Genome&) = default;
};

// The values every gene may take for one workload on one wafer or system of wafers: each degree
// divides what it splits (checkStrategyAgainstWorkload) and fits the live dies. pp puts its
// stages on whole wafers (strategy/pipeline_stages.h): it divides both the model's layers and
// the system's wafer count, so it is always 1 on one wafer (and for a gemm workload); on a GPU
// cluster, whose grid rows are its nodes, it divides the layers and the node count instead. A gemm
// workload has no micro-batches, no checkpointing and no sequence parallelism.
//
// A gene with a single value draws no random number: on one wafer, where pp is 1, every draw of
// random(), mutate() and crossover() is the one it was before pp was a gene, and so is every
// search's result.
class SearchSpace {
public:
    SearchSpace(const Workload& workload, const WaferTopology& topology);

    int liveDies() const { return m_liveDies; }
    const std::vector<int>& ppValues() const { return m_pp; }
    const std::vector<int>& dpValues() const { return m_dp; }
    const std::vector<int>& spValues() const { return m_sp; }
    const std::vector<int>& tpValues() const { return m_tp; }
    const std::vector<int>& tatpValues() const { return m_tatp; }
    bool isTransformer() const { return m_transformer; }

    // micro_batches values allowed with a dp degree (divisors m of the global batch with
    // dp | global_batch / m); {1} for a gemm.
    std::vector<int> microBatchValues(int dp) const;

    // A uniformly random feasible-looking genome (degrees in random order, each chosen among the
    // values that still fit the remaining dies). It may still fail finer checks (TATP rows of a
    // micro-batch, a snake that does not fit): the evaluator reports those as infeasible.
    Genome random(std::mt19937_64& rng) const;
    // Changes one or two genes.
    Genome mutate(const Genome& parent, std::mt19937_64& rng) const;
    // Uniform crossover gene by gene, then repaired (degrees shrunk to fit the dies, invalid
    // micro-batches reset).
    Genome crossover(const Genome& a, const Genome& b, std::mt19937_64& rng) const;
    // Every repaired genome one move away: one gene changed to any of its values, or one
    // degree changed and another resized to fill the dies again. Distinct, without `g`, which
    // must be a member of the space (from random(), repair() or member()).
    std::vector<Genome> neighbours(const Genome& g) const;
    // A genome of the space near any genome, such as one read off a strategy written by hand:
    // each degree that is not one of its gene's values lowered to the largest value below it,
    // then repaired.
    Genome member(Genome genome) const;
    // Makes the genome fit: product of degrees (pp included) <= live dies, micro_batches valid
    // for dp, explicit placement only with sp = tp = pp = 1 (else snake); then normalize().
    Genome repair(Genome genome) const;

    // Every distinct normalised genome of the space (for exhaustive checks and baselines);
    // `filter` may restrict it. In a fixed order (pp, degrees, micro-batches, flags, placement).
    template <class Filter> std::vector<Genome> enumerate(Filter filter) const {
        std::vector<Genome> all;
        forEach([&](const Genome& genome) {
            if (filter(genome))
                all.push_back(genome);
        });
        return all;
    }
    std::vector<Genome> enumerate() const {
        return enumerate([](const Genome&) { return true; });
    }

    // The strategy a genome stands for, as parseStrategy would read it.
    StrategySpec toStrategy(const Genome& genome) const;
    // The reverse, for a strategy written in a file: explicit groups become the wafer-snake
    // placement when it can hold them (sp = tp = pp = 1), else the snake mapping. Not repaired:
    // member() makes it one of the space's.
    static Genome genomeOf(const StrategySpec& strategy);

private:
    template <class Visit> void forEach(Visit visit) const;
    // The degree genes a move may change: dp, sp, tp, tatp, and pp when it has a choice (so
    // that on one wafer the moves, and their random draws, are those of the four degrees).
    int degreeGenes() const { return m_pp.size() > 1 ? 5 : 4; }

    bool m_transformer = true;
    long long m_globalBatch = 1;
    int m_liveDies = 1;
    std::vector<int> m_pp, m_dp, m_sp, m_tp, m_tatp;
    std::vector<DieId> m_waferSnake; // live dies along the wafer's boustrophedon walk
};

// "dp 6 x tatp 8, fsdp, 4 micro-batches, checkpointing, snake" (the degrees above 1, pp first:
// "pp 4 x dp 6 x tatp 8, ...", then the options that are on, then the mapping).
std::string strategyLabel(const StrategySpec& strategy);

template <class Visit> void SearchSpace::forEach(Visit visit) const {
    for (int pp : m_pp)
        for (int dp : m_dp)
            for (int sp : m_sp)
                for (int tp : m_tp)
                    for (int tatp : m_tatp) {
                        if (static_cast<long long>(pp) * dp * sp * tp * tatp > m_liveDies)
                            continue;
                        for (int micro : microBatchValues(dp))
                            for (int flags = 0; flags < 192; ++flags)
                                for (int placement = 0; placement < 3; ++placement) {
                                    Genome g;
                                    g.pp = pp;
                                    g.dp = dp;
                                    g.sp = sp;
                                    g.tp = tp;
                                    g.tatp = tatp;
                                    g.fsdp = (flags & 1) != 0;
                                    g.fsdpMulticast = (flags & 2) != 0;
                                    g.doubleBuffering = (flags & 4) != 0;
                                    g.checkpointing = static_cast<Checkpointing>((flags / 16) % 3);
                                    g.sequenceParallel = (flags & 8) != 0;
                                    g.bidirectionalRings = (flags / 48) % 2 != 0;
                                    g.tpOverlap = flags >= 96;
                                    g.microBatches = micro;
                                    g.placement = static_cast<PlacementGene>(placement);
                                    if (!m_transformer && (g.checkpointing != Checkpointing::None ||
                                                           g.sequenceParallel))
                                        continue;
                                    if (g.placement == PlacementGene::WaferSnake &&
                                        (sp != 1 || tp != 1 || pp != 1))
                                        continue;
                                    Genome normal = g;
                                    normal.normalize();
                                    if (normal == g) // each strategy once: only its normal form
                                        visit(g);
                                }
                    }
}

} // namespace ws
