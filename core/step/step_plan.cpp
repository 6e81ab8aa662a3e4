#include "step/step_plan.h"

#include <algorithm>
#include <stdexcept>

namespace ws {

TpSplit tpSplitOf(GemmRole role) {
    switch (role) {
    case GemmRole::AttentionScores:
    case GemmRole::AttentionValues:
        return TpSplit::Heads;
    case GemmRole::OutputProjection:
    case GemmRole::MlpDown:
        return TpSplit::Rows;
    case GemmRole::Linear:
    case GemmRole::Qkv:
    case GemmRole::Router:
    case GemmRole::MlpUp:
    case GemmRole::LmHead:
        break;
    }
    return TpSplit::Columns;
}

LayerSegment layerSegmentOf(GemmRole role) {
    switch (role) {
    case GemmRole::Qkv:
    case GemmRole::AttentionScores:
    case GemmRole::AttentionValues:
    case GemmRole::OutputProjection:
        return LayerSegment::Attention;
    case GemmRole::Linear:
    case GemmRole::Router:
    case GemmRole::MlpUp:
    case GemmRole::MlpDown:
        return LayerSegment::Mlp;
    case GemmRole::LmHead:
        break;
    }
    return LayerSegment::None;
}

std::string toString(StepPhase phase) {
    switch (phase) {
    case StepPhase::Forward:
        return "forward";
    case StepPhase::Recompute:
        return "recompute";
    case StepPhase::Backward:
        return "backward";
    case StepPhase::Head:
        return "head";
    case StepPhase::GradientSync:
        return "gradient sync";
    case StepPhase::Optimizer:
        break;
    }
    return "optimizer";
}

namespace {

// Writes the plan's sections in the order each die runs them.
class StepPlanner {
public:
    StepPlanner(StepPlan& plan, const Workload& workload, const StrategySpec& strategy,
                const DieSpec& die)
        : m_plan(plan), m_workload(workload), m_strategy(strategy), m_die(die),
          m_dtype(static_cast<double>(workload.dtypeBytes)), m_gemms(plan.replicaGemms) {}

    void planGemmWorkload() {
        const GemmShape& shape = m_workload.gemm;
        const LayerGemm linear{
            toString(GemmRole::Linear), shape, 1.0, true, false, GemmRole::Linear};
        StepSection& layer = m_plan.layer;
        layer.barrierLabel = "forward done";
        if (fsdpActive())
            gatherWeights(layer, StepPhase::Forward, "fsdp weights",
                          shape.k * shape.n / tpTatp() * m_dtype);
        addGemm(layer, StepPhase::Forward, linear, "fwd",
                shape.m / (m_strategy.dp * m_strategy.sp));
        m_plan.replicaGemms = {linear};
        m_plan.modelFlopsPerStep = linear.flops();
    }

    void planTransformer() {
        const TransformerConfig& model = m_workload.model;
        const double sequences =
            static_cast<double>(m_workload.globalBatch) / (m_strategy.dp * m_strategy.microBatches);
        const double seqLen = static_cast<double>(m_workload.seqLen);
        m_replicaTokens = sequences * seqLen;
        m_tokensPerDie = m_replicaTokens / (m_strategy.sp * m_strategy.tatp);
        m_plan.replicaGemms = layerGemms(model, sequences, seqLen);
        m_plan.replicaSequences = sequences;
        m_plan.layers = model.layers;
        m_plan.microBatches = m_strategy.microBatches;
        const double layerWeightBytes = model.parametersPerLayer() / tpTatp() * m_dtype;

        StepSection& layer = m_plan.layer;
        layer.barrierLabel = "layer done";
        // Per GEMM: forward, recomputed, two backward, and at most four collectives around them.
        layer.tasks.reserve(8 * m_gemms.size() + 2);
        if (fsdpActive())
            gatherWeights(layer, StepPhase::Forward, "fsdp fwd weights", layerWeightBytes);
        forwardPass(StepPhase::Forward, "fwd");
        // Backward pass: recompute first with checkpointing, then two GEMMs per forward GEMM.
        if (m_strategy.activationCheckpointing)
            forwardPass(StepPhase::Recompute, "recompute");
        if (fsdpActive())
            gatherWeights(layer, StepPhase::Backward, "fsdp bwd weights", layerWeightBytes);
        backwardPass();

        // LM head (tied embedding): forward and two backward GEMMs, column-parallel.
        const LayerGemm head{
            toString(GemmRole::LmHead),
            {m_replicaTokens, static_cast<double>(model.hidden), static_cast<double>(model.vocab)},
            1.0,
            true,
            false,
            GemmRole::LmHead};
        m_plan.head.barrierLabel = "head done";
        for (const char* pass : {"head fwd", "head bwd dI", "head bwd dW"})
            addGemm(m_plan.head, StepPhase::Head, head, pass, m_replicaTokens / m_strategy.sp);

        // Gradient synchronisation of one layer's weights over each DP group.
        m_plan.sync.barrierLabel = "sync done";
        if (m_strategy.dp > 1)
            addCollective(m_plan.sync, StepPhase::GradientSync, LayerSegment::None,
                          {CollectiveRole::GradientSync,
                           m_strategy.fsdp ? "dp grad reduce-scatter" : "dp grad all-reduce",
                           GroupKind::DP,
                           m_strategy.fsdp ? OpKind::ReduceScatter : OpKind::AllReduce,
                           Algorithm::Ring, layerWeightBytes, false});

        planOptimizer();

        const double forwardFlops =
            model.layers *
                layerForwardFlops(model, static_cast<double>(m_workload.globalBatch), seqLen) +
            head.flops() * m_strategy.dp * m_strategy.microBatches;
        m_plan.modelFlopsPerStep = 3.0 * forwardFlops;
    }

private:
    // The optimizer update of every parameter shard a die holds: it reads the weights,
    // gradients and optimizer state and writes the weights and the state back (SPEC section 4).
    void planOptimizer() {
        const TransformerConfig& model = m_workload.model;
        const double shards = fsdpActive() ? m_strategy.dp : 1.0;
        const double parameters =
            (model.layers * model.parametersPerLayer() + model.embeddingParameters()) / tpTatp() /
            shards;
        const double weights = parameters * m_dtype;
        const double gradients = parameters * m_dtype;
        const double state = parameters * m_workload.optimizerBytesPerParameter;
        m_plan.optimizer.barrierLabel = "optimizer done";
        m_plan.optimizer.tasks.push_back(
            {StepPhase::Optimizer, LayerSegment::None,
             PlannedElementwise{"optimizer", "update", 2.0 * weights + gradients + 2.0 * state}});
    }

    double tpTatp() const { return static_cast<double>(m_strategy.tp) * m_strategy.tatp; }
    bool fsdpActive() const { return m_strategy.fsdp && m_strategy.dp > 1; }

    void gatherWeights(StepSection& section, StepPhase phase, const char* label, double bytes) {
        addCollective(section, phase, LayerSegment::None,
                      {CollectiveRole::FsdpWeightGather, label, GroupKind::DP, OpKind::AllGather,
                       m_strategy.fsdpAllGatherMulticast ? Algorithm::Multicast : Algorithm::Ring,
                       bytes, true});
    }

    static void addCollective(StepSection& section, StepPhase phase, LayerSegment segment,
                              PlannedCollective collective) {
        section.tasks.push_back({phase, segment, std::move(collective)});
    }

    // `mPerSpRank` is a weight GEMM's M (tokens) on one SP rank of a DP replica; attention
    // GEMMs take theirs from the shape.
    void addGemm(StepSection& section, StepPhase phase, const LayerGemm& gemm, const char* pass,
                 double mPerSpRank) {
        PlannedGemm planned;
        planned.role = gemm.role;
        planned.pass = pass;
        planned.split = tpSplitOf(gemm.role);
        planned.mLocal = gemm.hasWeight ? mPerSpRank : gemm.shape.m / m_strategy.sp;
        planned.kLocal = gemm.shape.k;
        planned.nLocal = gemm.shape.n;
        planned.countLocal = gemm.count;
        switch (planned.split) {
        case TpSplit::Columns:
            planned.nLocal /= m_strategy.tp;
            break;
        case TpSplit::Rows:
            planned.kLocal /= m_strategy.tp;
            break;
        case TpSplit::Heads:
            planned.countLocal /= m_strategy.tp;
            break;
        }
        const double tatp = m_strategy.tatp;
        planned.dieFlops =
            2.0 * planned.mLocal * planned.kLocal * planned.nLocal * planned.countLocal / tatp;
        planned.blockFlops = planned.dieFlops / tatp;
        planned.tileEfficiency = gemmTileEfficiency(planned.mLocal / tatp, planned.kLocal,
                                                    planned.nLocal / tatp, m_die.gemmTile);
        setHbmBytes(planned);
        if (m_strategy.tatp > 1) {
            // Each round passes the smaller operand block on: the weight's K x N/n or the
            // input's M/n x K.
            const double weightBlock = planned.kLocal * planned.nLocal / tatp;
            const double inputBlock = planned.mLocal / tatp * planned.kLocal;
            planned.streamedBlockBytes =
                std::min(weightBlock, inputBlock) * planned.countLocal * m_dtype;
            m_plan.largestStreamedBlockBytes =
                std::max(m_plan.largestStreamedBlockBytes, planned.streamedBlockBytes);
        }
        section.tasks.push_back({phase, layerSegmentOf(gemm.role), std::move(planned)});
    }

    // The GEMM's compulsory HBM bytes when the step does not fit in SRAM (docs/compute-model.md,
    // "Residency"): a die reads its own blocks of both operands once, in its first block product
    // (the streamed blocks of later rounds arrive over a link), and writes every output block it
    // produces. Flash attention keeps the scores in SRAM: the scores GEMM writes nothing and the
    // values GEMM reads no probabilities. The operands are A = m x k, B = k x n, C = m x n (per
    // instance); a backward GEMM moves the same three sizes in other roles.
    void setHbmBytes(PlannedGemm& planned) const {
        const bool flash = m_workload.attention == AttentionKind::Flash;
        const bool readsA = !(flash && planned.role == GemmRole::AttentionValues);
        const bool writesC = !(flash && planned.role == GemmRole::AttentionScores);
        const double n = m_strategy.tatp;
        const double scale = planned.countLocal * m_dtype;
        const double a = planned.mLocal * planned.kLocal * scale;
        const double b = planned.kLocal * planned.nLocal * scale;
        const double c = planned.mLocal * planned.nLocal * scale;
        const double outputBlock = writesC ? c / (n * n) : 0.0;
        planned.firstHbmBytes = ((readsA ? a : 0.0) + b) / n + outputBlock;
        planned.roundHbmBytes = outputBlock;
    }

    // Memory-bound work around a layer's GEMMs (docs/compute-model.md, "Non-GEMM work"), per die:
    // t tokens of width h. A norm reads and writes t h values, a residual add reads two and
    // writes one, the activation function reads (gated: two) and writes t f/tp per expert slot,
    // standard attention's softmax reads and writes the t x s x heads/tp scores. Backward moves
    // twice the forward's bytes (it reads the output gradient and the saved input, and writes
    // the input gradient).
    struct Elementwise {
        const char* name;
        double bytes;
        LayerSegment segment;
    };
    std::vector<Elementwise> elementwiseBefore(GemmRole role) const {
        if (role == GemmRole::Qkv)
            return {{"norm", 2.0 * tokenBytes(), LayerSegment::Attention}};
        return {};
    }
    std::vector<Elementwise> elementwiseAfter(GemmRole role) const {
        const TransformerConfig& model = m_workload.model;
        switch (role) {
        case GemmRole::AttentionScores:
            if (m_workload.attention == AttentionKind::Flash)
                return {};
            return {{"softmax",
                     2.0 * m_tokensPerDie * static_cast<double>(m_workload.seqLen) * model.heads /
                         m_strategy.tp * m_dtype,
                     LayerSegment::Attention}};
        case GemmRole::OutputProjection:
            return {{"residual", 3.0 * tokenBytes(), LayerSegment::Attention},
                    {"norm", 2.0 * tokenBytes(), LayerSegment::Mlp}};
        case GemmRole::MlpUp:
            return {{"activation",
                     (model.gatedMlp ? 3.0 : 2.0) * m_tokensPerDie * model.expertsPerToken *
                         model.ffnHidden / m_strategy.tp * m_dtype,
                     LayerSegment::Mlp}};
        case GemmRole::MlpDown:
            return {{"residual", 3.0 * tokenBytes(), LayerSegment::Mlp}};
        case GemmRole::Linear:
        case GemmRole::Qkv:
        case GemmRole::AttentionValues:
        case GemmRole::Router:
        case GemmRole::LmHead:
            break;
        }
        return {};
    }
    static void addElementwise(StepSection& section, StepPhase phase, const char* pass,
                               const Elementwise& work, double factor) {
        section.tasks.push_back(
            {phase, work.segment, PlannedElementwise{pass, work.name, factor * work.bytes}});
    }

    double rowsOf(const LayerGemm& gemm) const {
        return m_replicaTokens * (gemm.expert ? m_workload.model.expertsPerToken : 1) /
               m_strategy.sp;
    }
    double kvBytes() const {
        const TransformerConfig& model = m_workload.model;
        return m_replicaTokens / m_strategy.tatp * 2.0 * model.kvHeads * model.headDim() /
               m_strategy.tp * m_dtype;
    }
    double tokenBytes() const { return m_tokensPerDie * m_workload.model.hidden * m_dtype; }
    double moeBytes() const { return tokenBytes() * m_workload.model.expertsPerToken; }

    bool isFirstAttention(std::size_t i) const { return i == indexWhere(false, &isAttention); }
    bool isFirstExpert(std::size_t i) const { return i == indexWhere(false, &isExpert); }
    bool isLastExpert(std::size_t i) const { return i == indexWhere(true, &isExpert); }
    static bool isAttention(const LayerGemm& gemm) { return !gemm.hasWeight; }
    static bool isExpert(const LayerGemm& gemm) { return gemm.expert; }
    // The first (or last) GEMM of the layer that `is`; the layer's size when none is.
    std::size_t indexWhere(bool last, bool (*is)(const LayerGemm&)) const {
        std::size_t found = m_gemms.size();
        for (std::size_t i = 0; i < m_gemms.size(); ++i)
            if (is(m_gemms[i]) && (last || found == m_gemms.size()))
                found = i;
        return found;
    }

    // The forward pass, or its recomputation (no communication: what it needs is on the die).
    void forwardPass(StepPhase phase, const char* pass) {
        StepSection& layer = m_plan.layer;
        const bool communicate = phase != StepPhase::Recompute;
        // MoE experts are spread over the DP group: tokens travel only when it has two dies.
        const bool expertsAcrossDp = m_strategy.dp > 1;
        for (std::size_t i = 0; i < m_gemms.size(); ++i) {
            const LayerGemm& gemm = m_gemms[i];
            const LayerSegment segment = layerSegmentOf(gemm.role);
            if (communicate && m_strategy.sp > 1 && isFirstAttention(i))
                addCollective(layer, phase, segment,
                              {CollectiveRole::SpKeyValueGather, "fwd sp kv all-gather",
                               GroupKind::SP, OpKind::AllGather, Algorithm::Ring, kvBytes(),
                               false});
            if (communicate && expertsAcrossDp && isFirstExpert(i))
                addCollective(layer, phase, segment,
                              {CollectiveRole::MoeDispatch, "fwd moe dispatch", GroupKind::DP,
                               OpKind::AllToAll, Algorithm::Direct, moeBytes(), false});
            for (const Elementwise& work : elementwiseBefore(gemm.role))
                addElementwise(layer, phase, pass, work, 1.0);
            addGemm(layer, phase, gemm, pass, rowsOf(gemm));
            if (communicate && tpSplitOf(gemm.role) == TpSplit::Rows && m_strategy.tp > 1)
                addCollective(layer, phase, segment,
                              {CollectiveRole::TpAllReduce, "fwd tp all-reduce", GroupKind::TP,
                               OpKind::AllReduce, Algorithm::Ring, tokenBytes(), false});
            if (communicate && expertsAcrossDp && isLastExpert(i))
                addCollective(layer, phase, segment,
                              {CollectiveRole::MoeCombine, "fwd moe combine", GroupKind::DP,
                               OpKind::AllToAll, Algorithm::Direct, moeBytes(), false});
            for (const Elementwise& work : elementwiseAfter(gemm.role))
                addElementwise(layer, phase, pass, work, 1.0);
        }
    }

    void backwardPass() {
        StepSection& layer = m_plan.layer;
        const StepPhase phase = StepPhase::Backward;
        // MoE experts are spread over the DP group: tokens travel only when it has two dies.
        const bool expertsAcrossDp = m_strategy.dp > 1;
        for (std::size_t i = m_gemms.size(); i-- > 0;) {
            const LayerGemm& gemm = m_gemms[i];
            const LayerSegment segment = layerSegmentOf(gemm.role);
            if (expertsAcrossDp && isLastExpert(i))
                addCollective(layer, phase, segment,
                              {CollectiveRole::MoeCombine, "bwd moe combine", GroupKind::DP,
                               OpKind::AllToAll, Algorithm::Direct, moeBytes(), false});
            const auto after = elementwiseAfter(gemm.role);
            for (auto work = after.rbegin(); work != after.rend(); ++work)
                addElementwise(layer, phase, "bwd", *work, 2.0);
            addGemm(layer, phase, gemm, "bwd dI", rowsOf(gemm));
            addGemm(layer, phase, gemm, "bwd dW", rowsOf(gemm));
            if (tpSplitOf(gemm.role) == TpSplit::Columns && gemm.hasWeight && m_strategy.tp > 1)
                addCollective(layer, phase, segment,
                              {CollectiveRole::TpAllReduce, "bwd tp all-reduce", GroupKind::TP,
                               OpKind::AllReduce, Algorithm::Ring, tokenBytes(), false});
            if (expertsAcrossDp && isFirstExpert(i))
                addCollective(layer, phase, segment,
                              {CollectiveRole::MoeDispatch, "bwd moe dispatch", GroupKind::DP,
                               OpKind::AllToAll, Algorithm::Direct, moeBytes(), false});
            if (m_strategy.sp > 1 && isFirstAttention(i))
                addCollective(layer, phase, segment,
                              {CollectiveRole::SpKeyValueScatter, "bwd sp kv reduce-scatter",
                               GroupKind::SP, OpKind::ReduceScatter, Algorithm::Ring, kvBytes(),
                               false});
            for (const Elementwise& work : elementwiseBefore(gemm.role))
                addElementwise(layer, phase, "bwd", work, 2.0);
        }
    }

    StepPlan& m_plan;
    const Workload& m_workload;
    const StrategySpec& m_strategy;
    const DieSpec& m_die;
    double m_dtype;
    const std::vector<LayerGemm>& m_gemms; // the plan's replicaGemms
    double m_replicaTokens = 0.0;
    double m_tokensPerDie = 0.0;
};

} // namespace

double sectionSeconds(const StepSection& section, const ComputeModel& compute) {
    double seconds = 0.0;
    for (const PlannedTask& task : section.tasks) {
        const auto* work = std::get_if<PlannedElementwise>(&task.work);
        if (work == nullptr)
            throw std::logic_error("sectionSeconds: '" + section.barrierLabel +
                                   "' holds more than memory-bound tasks");
        seconds += compute.seconds(work->work());
    }
    return seconds;
}

StepPlan buildStepPlan(const Workload& workload, const StrategySpec& strategy, const DieSpec& die) {
    StepPlan plan;
    plan.kind = workload.kind;
    StepPlanner planner(plan, workload, strategy, die);
    if (workload.kind == WorkloadKind::Gemm)
        planner.planGemmWorkload();
    else
        planner.planTransformer();
    plan.memory = estimateMemory(workload, strategy, die, plan.largestStreamedBlockBytes);
    // Residency (docs/compute-model.md): when everything fits in usable SRAM no task touches HBM.
    plan.sramResident = plan.memory.fitsInSram();
    if (plan.sramResident)
        for (StepSection* section : {&plan.layer, &plan.head, &plan.sync, &plan.optimizer})
            for (PlannedTask& task : section->tasks) {
                if (auto* gemm = std::get_if<PlannedGemm>(&task.work))
                    gemm->firstHbmBytes = gemm->roundHbmBytes = 0.0;
                else if (auto* work = std::get_if<PlannedElementwise>(&task.work))
                    work->hbmBytes = 0.0;
            }
    return plan;
}

} // namespace ws
