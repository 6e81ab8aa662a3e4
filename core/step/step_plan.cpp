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
        StepSection& window = m_plan.window;
        window.barrierLabel = "forward done";
        if (fsdpActive())
            m_nextWaitsFor = gatherWeights(window, StepPhase::Forward, "fsdp weights", -1,
                                           shape.k * shape.n / tpTatp() * m_dtype);
        addGemm(window, StepPhase::Forward, linear, GemmPass::Forward, "fwd",
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
        // Each pipeline stage runs its own layers (checkStrategyAgainstWorkload: pp | layers).
        const int stageLayers = model.layers / m_strategy.pp;
        m_plan.stages = m_strategy.pp;
        m_plan.layers = stageLayers;
        m_plan.microBatches = m_strategy.microBatches;
        m_plan.windowLayers = std::min(stageLayers, kMaxWindowLayers);
        m_layerWeightBytes = model.parametersPerLayer() / tpTatp() * m_dtype;

        // Without FSDP only the last micro-batch reduces the gradients it accumulated.
        const bool replicated = static_cast<long long>(m_strategy.dp) * m_strategy.sp > 1;
        const bool everyWindowReduces = fsdpActive() || m_strategy.microBatches == 1;
        planWindow(m_plan.window, everyWindowReduces);
        if (replicated && !everyWindowReduces)
            planWindow(m_plan.finalWindow, true);

        // LM head (tied embedding): forward and two backward GEMMs, column-parallel.
        const LayerGemm head{
            toString(GemmRole::LmHead),
            {m_replicaTokens, static_cast<double>(model.hidden), static_cast<double>(model.vocab)},
            1.0,
            true,
            false,
            GemmRole::LmHead};
        m_plan.head.barrierLabel = "head done";
        m_plan.head.lastStageOnly = true;
        m_layer = -1;
        addGemm(m_plan.head, StepPhase::Head, head, GemmPass::Forward, "head fwd",
                m_replicaTokens / m_strategy.sp);
        addGemm(m_plan.head, StepPhase::Head, head, GemmPass::InputGradient, "head bwd dI",
                m_replicaTokens / m_strategy.sp);
        addGemm(m_plan.head, StepPhase::Head, head, GemmPass::WeightGradient, "head bwd dW",
                m_replicaTokens / m_strategy.sp);

        planOptimizer();
        if (m_strategy.pp > 1)
            planPipelineSends();

        const double forwardFlops =
            model.layers *
                layerForwardFlops(model, static_cast<double>(m_workload.globalBatch), seqLen) +
            head.flops() * m_strategy.dp * m_strategy.microBatches;
        m_plan.modelFlopsPerStep = 3.0 * forwardFlops;
    }

private:
    // Three layers put the middle one in the steady state (StepPlan): more would only repeat it.
    static constexpr int kMaxWindowLayers = 3;

    // Which product of a GEMM C = A B a task computes: the forward (or its recomputation), the
    // input gradient dA = dC B^T or the weight gradient dB = A^T dC.
    enum class GemmPass { Forward, InputGradient, WeightGradient };

    // One micro-batch's window (StepPlan): the forward of layers 0 .. W-1, then their backward in
    // reverse, with FSDP's gathers prefetched one layer ahead and, when `reduceGradients`, each
    // layer's gradient reduction issued after its backward and overlapped with the next one.
    void planWindow(StepSection& window, bool reduceGradients) {
        window.barrierLabel = "window done";
        const int layers = m_plan.windowLayers;
        // Per GEMM: forward, recomputed, two backward, and at most four collectives around them.
        window.tasks.reserve(static_cast<std::size_t>(layers) * (8 * m_gemms.size() + 8));
        const bool fsdp = fsdpActive();
        std::vector<int> gather(static_cast<std::size_t>(layers), -1);
        auto gatherOf = [&](int layer) -> int& { return gather[static_cast<std::size_t>(layer)]; };
        for (int layer = 0; layer < layers; ++layer) {
            m_layer = layer;
            if (fsdp) {
                // Layer l + 1's gather is issued when layer l's forward starts: once l's is done.
                if (layer == 0)
                    gatherOf(0) = gatherWeights(window, StepPhase::Forward, "fsdp fwd weights", -1);
                if (layer + 1 < layers) {
                    m_layer = layer + 1;
                    gatherOf(layer + 1) = gatherWeights(window, StepPhase::Forward,
                                                        "fsdp fwd weights", gatherOf(layer));
                    m_layer = layer;
                }
                m_nextWaitsFor = gatherOf(layer);
            }
            forwardPass(window, StepPhase::Forward);
            addBarrier(window, StepPhase::Forward, "fwd layer " + std::to_string(layer) + " done");
        }
        std::fill(gather.begin(), gather.end(), -1);
        for (int layer = layers - 1; layer >= 0; --layer) {
            m_layer = layer;
            if (fsdp) {
                // Reverse order: the first when backward starts, each next when the layer before
                // it starts.
                if (layer == layers - 1)
                    gatherOf(layer) =
                        gatherWeights(window, StepPhase::Backward, "fsdp bwd weights", -1);
                if (layer > 0) {
                    m_layer = layer - 1;
                    gatherOf(layer - 1) = gatherWeights(window, StepPhase::Backward,
                                                        "fsdp bwd weights", gatherOf(layer));
                    m_layer = layer;
                }
                m_nextWaitsFor = gatherOf(layer);
            }
            // Full checkpointing recomputes the layer's forward, communication included, first;
            // selective recomputation only attention's s x s products.
            if (m_strategy.activationCheckpointing == Checkpointing::Full)
                forwardPass(window, StepPhase::Recompute);
            else if (m_strategy.activationCheckpointing == Checkpointing::Selective)
                recomputeAttention(window);
            backwardPass(window);
            if (reduceGradients)
                reduceLayerGradients(window);
            addBarrier(window, StepPhase::Backward, "bwd layer " + std::to_string(layer) + " done");
        }
        m_layer = -1;
    }

    // The layer's gradients, reduced over every rank that holds a replica of its weights (SPEC
    // section 5): under FSDP a reduce-scatter over DP, then an all-reduce of the die's shard over
    // SP; without FSDP one all-reduce over the dp x sp replicas. Both run asynchronously.
    void reduceLayerGradients(StepSection& window) {
        if (fsdpActive()) {
            const int scatter =
                addCollective(window, StepPhase::GradientSync, LayerSegment::None,
                              {CollectiveRole::FsdpGradientScatter, "dp grad reduce-scatter",
                               GroupKind::DP, OpKind::ReduceScatter,
                               m_strategy.fsdpReduceScatterTree ? Algorithm::Tree : Algorithm::Ring,
                               m_layerWeightBytes, true},
                              -1);
            if (m_strategy.sp > 1)
                addCollective(window, StepPhase::GradientSync, LayerSegment::None,
                              {CollectiveRole::GradientSync, "sp grad all-reduce", GroupKind::SP,
                               OpKind::AllReduce, Algorithm::Ring,
                               m_layerWeightBytes / m_strategy.dp, true},
                              scatter);
            return;
        }
        if (static_cast<long long>(m_strategy.dp) * m_strategy.sp > 1)
            addCollective(window, StepPhase::GradientSync, LayerSegment::None,
                          {CollectiveRole::GradientSync, "grad all-reduce", GroupKind::Replica,
                           OpKind::AllReduce, Algorithm::Ring, m_layerWeightBytes, true},
                          -1);
    }

    // One micro-batch crossing every stage boundary at once (StepPlan::pipeline): each die
    // sends its tokens' hidden states split over its TP group, tokenBytes() / tp (Megatron's
    // scatter-gather; with sequence parallelism the split they already have), to the die of
    // its rank in the next stage; the gradients come back the same size.
    void planPipelineSends() {
        StepSection& sends = m_plan.pipeline;
        sends.barrierLabel = "pipeline sends done";
        const double bytes = tokenBytes() / m_strategy.tp;
        addCollective(sends, StepPhase::Forward, LayerSegment::None,
                      {CollectiveRole::PipelineActivations, "pp fwd activations", GroupKind::Stage,
                       OpKind::P2P, Algorithm::Direct, bytes, false});
        addBarrier(sends, StepPhase::Forward, "pp fwd activations sent");
        addCollective(sends, StepPhase::Backward, LayerSegment::None,
                      {CollectiveRole::PipelineGradients, "pp bwd gradients", GroupKind::Stage,
                       OpKind::P2P, Algorithm::Direct, bytes, false});
        addBarrier(sends, StepPhase::Backward, "pp bwd gradients sent");
    }

    // The optimizer update of every parameter shard a die holds: it reads the weights,
    // gradients and optimizer state and writes the weights and the state back (SPEC section 4).
    // With pipeline stages, a stage's layers and the (tied) embedding, which the first and the
    // last stage both hold.
    void planOptimizer() {
        const TransformerConfig& model = m_workload.model;
        const double shards = fsdpActive() ? m_strategy.dp : 1.0;
        const double parameters =
            (m_plan.layers * model.parametersPerLayer() + model.embeddingParameters()) / tpTatp() /
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

    // An FSDP all-gather of one layer's weights (the current m_layer's), issued asynchronously
    // once the collective at index `after` is done; returns its index. A transformer's layer
    // weights unless `bytes` says otherwise.
    int gatherWeights(StepSection& section, StepPhase phase, const char* label, int after,
                      double bytes = -1.0) {
        return addCollective(
            section, phase, LayerSegment::None,
            {CollectiveRole::FsdpWeightGather, label, GroupKind::DP, OpKind::AllGather,
             m_strategy.fsdpAllGatherMulticast ? Algorithm::Multicast : Algorithm::Ring,
             bytes < 0.0 ? m_layerWeightBytes : bytes, true},
            after);
    }

    // Appends a task of the current window layer; a synchronous task takes the pending wait
    // (m_nextWaitsFor). Returns its index in the section.
    int push(StepSection& section, PlannedTask task) {
        task.layer = m_layer;
        const bool async = std::holds_alternative<PlannedCollective>(task.work) &&
                           std::get<PlannedCollective>(task.work).async;
        if (!async && task.waitsFor < 0 && !std::holds_alternative<PlannedBarrier>(task.work)) {
            task.waitsFor = m_nextWaitsFor;
            m_nextWaitsFor = -1;
        }
        section.tasks.push_back(std::move(task));
        return static_cast<int>(section.tasks.size()) - 1;
    }

    // `after`: an asynchronous collective's own wait (the collective it is issued after).
    int addCollective(StepSection& section, StepPhase phase, LayerSegment segment,
                      PlannedCollective collective, int after = -1) {
        return push(section, {phase, segment, std::move(collective), -1, after});
    }

    void addBarrier(StepSection& section, StepPhase phase, std::string label) {
        push(section, {phase, LayerSegment::None, PlannedBarrier{std::move(label)}});
    }

    // `mPerSpRank` is a weight GEMM's M (tokens) on one SP rank of a DP replica; attention
    // GEMMs take theirs from the shape.
    void addGemm(StepSection& section, StepPhase phase, const LayerGemm& gemm, GemmPass kind,
                 const char* pass, double mPerSpRank) {
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
        // The three passes' block products have the same three extents, in other roles.
        planned.tileEfficiency = gemmTileEfficiency(planned.mLocal / tatp, planned.kLocal,
                                                    planned.nLocal / tatp, m_die.gemmTile);
        const Operands bytes = operandBytes(planned);
        setHbmBytes(planned, kind, bytes);
        if (m_strategy.tatp > 1) {
            // Each round passes on the smaller of what the product can stream (per instance, A
            // = m x k, B = k x n, C = m x n, n dies): forward, B's K x N/n block or A's M/n x K
            // block; the input gradient dA = dC B^T, B's block or dC's M/n x N block; the
            // weight gradient dB = A^T dC, which contracts over the dies' tokens, a K x N/n
            // block of partial sums of dB or A's block with the M/n x N/n block of dC the
            // receiving die's columns need.
            double block = 0.0;
            switch (kind) {
            case GemmPass::Forward:
                block = std::min(bytes.b, bytes.a);
                break;
            case GemmPass::InputGradient:
                block = std::min(bytes.b, bytes.c);
                break;
            case GemmPass::WeightGradient:
                block = std::min(bytes.b, bytes.a + bytes.c / tatp);
                break;
            }
            planned.streamedBlockBytes = block / tatp;
            m_plan.largestStreamedBlockBytes =
                std::max(m_plan.largestStreamedBlockBytes, planned.streamedBlockBytes);
        }
        push(section, {phase, layerSegmentOf(gemm.role), std::move(planned)});
    }

    // A GEMM's operands in bytes, all instances of the die: A = m x k, B = k x n, C = m x n.
    struct Operands {
        double a = 0.0;
        double b = 0.0;
        double c = 0.0;
    };
    Operands operandBytes(const PlannedGemm& planned) const {
        const double scale = planned.countLocal * m_dtype;
        return {planned.mLocal * planned.kLocal * scale, planned.kLocal * planned.nLocal * scale,
                planned.mLocal * planned.nLocal * scale};
    }

    // The GEMM's compulsory HBM bytes when the step does not fit in SRAM (docs/compute-model.md,
    // "Residency"): a die reads its own blocks of the pass's two inputs once, in its first block
    // product (the streamed blocks of later rounds arrive over a link), and writes every block of
    // the pass's output it produces. Forward reads A and B and writes C; the input gradient reads
    // dC and B and writes dA; the weight gradient reads A and dC and writes dB. Flash attention
    // keeps the s x s scores and probabilities (the scores' C, the values' A, and their
    // gradients) in SRAM, in every pass.
    void setHbmBytes(PlannedGemm& planned, GemmPass kind, Operands bytes) const {
        if (m_workload.attention == AttentionKind::Flash) {
            if (planned.role == GemmRole::AttentionScores)
                bytes.c = 0.0;
            if (planned.role == GemmRole::AttentionValues)
                bytes.a = 0.0;
        }
        double inputs = 0.0;
        double output = 0.0;
        switch (kind) {
        case GemmPass::Forward:
            inputs = bytes.a + bytes.b;
            output = bytes.c;
            break;
        case GemmPass::InputGradient:
            inputs = bytes.c + bytes.b;
            output = bytes.a;
            break;
        case GemmPass::WeightGradient:
            inputs = bytes.a + bytes.c;
            output = bytes.b;
            break;
        }
        const double n = m_strategy.tatp;
        planned.firstHbmBytes = inputs / n + output / (n * n);
        planned.roundHbmBytes = output / (n * n);
    }

    // Memory-bound work around a layer's GEMMs (docs/compute-model.md, "Non-GEMM work"), per die:
    // t tokens of width h. A norm reads and writes t h values, a residual add reads two and
    // writes one, the activation function reads (gated: two) and writes t f/tp per expert slot,
    // standard attention's softmax reads and writes the t x s x heads/tp scores. Backward moves
    // twice the forward's bytes (it reads the output gradient and the saved input, and writes
    // the input gradient). With sequence parallelism the norms and residual adds run on t / tp
    // tokens (sequenceBytes): they sit between a reduce-scatter and an all-gather.
    struct Elementwise {
        const char* name;
        double bytes;
        LayerSegment segment;
    };
    std::vector<Elementwise> elementwiseBefore(GemmRole role) const {
        if (role == GemmRole::Qkv)
            return {{"norm", 2.0 * sequenceBytes(), LayerSegment::Attention}};
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
            return {{"residual", 3.0 * sequenceBytes(), LayerSegment::Attention},
                    {"norm", 2.0 * sequenceBytes(), LayerSegment::Mlp}};
        case GemmRole::MlpUp:
            return {{"activation",
                     (model.gatedMlp ? 3.0 : 2.0) * m_tokensPerDie * model.expertsPerToken *
                         model.ffnHidden / m_strategy.tp * m_dtype,
                     LayerSegment::Mlp}};
        case GemmRole::MlpDown:
            return {{"residual", 3.0 * sequenceBytes(), LayerSegment::Mlp}};
        case GemmRole::Linear:
        case GemmRole::Qkv:
        case GemmRole::AttentionValues:
        case GemmRole::Router:
        case GemmRole::LmHead:
            break;
        }
        return {};
    }
    void addElementwise(StepSection& section, StepPhase phase, const char* pass,
                        const Elementwise& work, double factor) {
        push(section,
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
    // A die's share of the layer's hidden states outside the TP region: all of tokenBytes, or
    // 1/tp of it with sequence parallelism.
    double sequenceBytes() const {
        return sequenceParallel() ? tokenBytes() / m_strategy.tp : tokenBytes();
    }
    bool sequenceParallel() const { return m_strategy.sequenceParallel && m_strategy.tp > 1; }
    double moeBytes() const { return tokenBytes() * m_workload.model.expertsPerToken; }

    bool isFirstAttention(std::size_t i) const { return i == indexWhere(false, &isAttention); }
    // The first GEMM of a residual segment, the one its norm feeds (qkv; the router or mlp_up).
    bool opensSegment(std::size_t i) const {
        return i == 0 || layerSegmentOf(m_gemms[i - 1].role) != layerSegmentOf(m_gemms[i].role);
    }
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

    // Megatron's TP communication of tokenBytes (the whole buffer) over the TP group: an
    // all-reduce, or with sequence parallelism (Korthikanti et al., MLSys 2023, figures 5 and 6)
    // the reduce-scatter or the all-gather it splits into; a ring moves the same bytes in the
    // two halves as in the all-reduce.
    void addTpCollective(StepSection& section, StepPhase phase, LayerSegment segment, OpKind op) {
        // By pass: forward, recompute, backward.
        static constexpr const char* kAllReduce[] = {"fwd tp all-reduce", "recompute tp all-reduce",
                                                     "bwd tp all-reduce"};
        static constexpr const char* kReduceScatter[] = {
            "fwd tp reduce-scatter", "recompute tp reduce-scatter", "bwd tp reduce-scatter"};
        static constexpr const char* kAllGather[] = {"fwd tp all-gather", "recompute tp all-gather",
                                                     "bwd tp all-gather"};
        const std::size_t pass = phase == StepPhase::Forward     ? 0
                                 : phase == StepPhase::Recompute ? 1
                                                                 : 2;
        CollectiveRole role = CollectiveRole::TpAllReduce;
        const char* label = kAllReduce[pass];
        if (op == OpKind::ReduceScatter) {
            role = CollectiveRole::TpReduceScatter;
            label = kReduceScatter[pass];
        } else if (op == OpKind::AllGather) {
            role = CollectiveRole::TpAllGather;
            label = kAllGather[pass];
        }
        addCollective(section, phase, segment,
                      {role, label, GroupKind::TP, op, Algorithm::Ring, tokenBytes(), false});
    }
    // After a row-parallel GEMM forward (a column-parallel one backward): the partial sums.
    OpKind tpReduction() const {
        return sequenceParallel() ? OpKind::ReduceScatter : OpKind::AllReduce;
    }

    // The forward pass, or its recomputation, which repeats the forward's communication too
    // (SPEC section 5: Megatron's TP all-reduces, SP's K/V gathers, MoE's all-to-alls). With
    // sequence parallelism each TP all-reduce after a row-parallel GEMM is a reduce-scatter, and
    // the segment's norm output is all-gathered before the column-parallel GEMM it feeds.
    void forwardPass(StepSection& section, StepPhase phase) {
        const bool recompute = phase == StepPhase::Recompute;
        const char* pass = recompute ? "recompute" : "fwd";
        // MoE experts are spread over the DP group: tokens travel only when it has two dies.
        const bool expertsAcrossDp = m_strategy.dp > 1;
        for (std::size_t i = 0; i < m_gemms.size(); ++i) {
            const LayerGemm& gemm = m_gemms[i];
            const LayerSegment segment = layerSegmentOf(gemm.role);
            if (m_strategy.sp > 1 && isFirstAttention(i))
                addCollective(section, phase, segment,
                              {CollectiveRole::SpKeyValueGather,
                               recompute ? "recompute sp kv all-gather" : "fwd sp kv all-gather",
                               GroupKind::SP, OpKind::AllGather, Algorithm::Ring, kvBytes(),
                               false});
            if (expertsAcrossDp && isFirstExpert(i))
                addCollective(section, phase, segment,
                              {CollectiveRole::MoeDispatch,
                               recompute ? "recompute moe dispatch" : "fwd moe dispatch",
                               GroupKind::DP, OpKind::AllToAll, Algorithm::Direct, moeBytes(),
                               false});
            for (const Elementwise& work : elementwiseBefore(gemm.role))
                addElementwise(section, phase, pass, work, 1.0);
            if (sequenceParallel() && opensSegment(i))
                addTpCollective(section, phase, segment, OpKind::AllGather);
            addGemm(section, phase, gemm, GemmPass::Forward, pass, rowsOf(gemm));
            if (tpSplitOf(gemm.role) == TpSplit::Rows && m_strategy.tp > 1)
                addTpCollective(section, phase, segment, tpReduction());
            if (expertsAcrossDp && isLastExpert(i))
                addCollective(section, phase, segment,
                              {CollectiveRole::MoeCombine,
                               recompute ? "recompute moe combine" : "fwd moe combine",
                               GroupKind::DP, OpKind::AllToAll, Algorithm::Direct, moeBytes(),
                               false});
            for (const Elementwise& work : elementwiseAfter(gemm.role))
                addElementwise(section, phase, pass, work, 1.0);
        }
    }

    // Selective recomputation (Korthikanti et al.): only attention's score and value products
    // and, under standard attention, the softmax between them, from the Q, K and V the layer
    // kept; no communication.
    void recomputeAttention(StepSection& section) {
        for (const LayerGemm& gemm : m_gemms) {
            if (!isAttention(gemm))
                continue;
            addGemm(section, StepPhase::Recompute, gemm, GemmPass::Forward, "recompute",
                    rowsOf(gemm));
            for (const Elementwise& work : elementwiseAfter(gemm.role))
                addElementwise(section, StepPhase::Recompute, "recompute", work, 1.0);
        }
    }

    // The backward pass mirrors the forward's TP communication: the column-parallel GEMMs'
    // input gradients are all-reduced (sequence parallelism: reduce-scattered), and with
    // sequence parallelism the output gradient of each row-parallel GEMM is all-gathered first.
    void backwardPass(StepSection& section) {
        const StepPhase phase = StepPhase::Backward;
        // MoE experts are spread over the DP group: tokens travel only when it has two dies.
        const bool expertsAcrossDp = m_strategy.dp > 1;
        for (std::size_t i = m_gemms.size(); i-- > 0;) {
            const LayerGemm& gemm = m_gemms[i];
            const LayerSegment segment = layerSegmentOf(gemm.role);
            if (expertsAcrossDp && isLastExpert(i))
                addCollective(section, phase, segment,
                              {CollectiveRole::MoeCombine, "bwd moe combine", GroupKind::DP,
                               OpKind::AllToAll, Algorithm::Direct, moeBytes(), false});
            const auto after = elementwiseAfter(gemm.role);
            for (auto work = after.rbegin(); work != after.rend(); ++work)
                addElementwise(section, phase, "bwd", *work, 2.0);
            if (sequenceParallel() && tpSplitOf(gemm.role) == TpSplit::Rows)
                addTpCollective(section, phase, segment, OpKind::AllGather);
            addGemm(section, phase, gemm, GemmPass::InputGradient, "bwd dI", rowsOf(gemm));
            addGemm(section, phase, gemm, GemmPass::WeightGradient, "bwd dW", rowsOf(gemm));
            if (tpSplitOf(gemm.role) == TpSplit::Columns && gemm.hasWeight && m_strategy.tp > 1)
                addTpCollective(section, phase, segment, tpReduction());
            if (expertsAcrossDp && isFirstExpert(i))
                addCollective(section, phase, segment,
                              {CollectiveRole::MoeDispatch, "bwd moe dispatch", GroupKind::DP,
                               OpKind::AllToAll, Algorithm::Direct, moeBytes(), false});
            if (m_strategy.sp > 1 && isFirstAttention(i))
                addCollective(section, phase, segment,
                              {CollectiveRole::SpKeyValueScatter, "bwd sp kv reduce-scatter",
                               GroupKind::SP, OpKind::ReduceScatter, Algorithm::Ring, kvBytes(),
                               false});
            for (const Elementwise& work : elementwiseBefore(gemm.role))
                addElementwise(section, phase, "bwd", work, 2.0);
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
    double m_layerWeightBytes = 0.0; // one layer's weights on a die before FSDP sharding
    int m_layer = -1;                // the window layer the tasks being planned belong to
    int m_nextWaitsFor = -1;         // the gather the next synchronous task waits for
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

double WindowTiming::steadyLayerS(const StepPlan& plan) const {
    const auto layers = static_cast<std::size_t>(plan.windowLayers);
    if (barrierEndS.size() != 2 * layers)
        return endS;
    // Barriers: forward of layers 0 .. W-1, then backward of layers W-1 .. 0.
    const auto layer = static_cast<std::size_t>(plan.steadyLayer());
    const double forwardS = barrierEndS[layer] - (layer > 0 ? barrierEndS[layer - 1] : 0.0);
    const std::size_t backwardEnd = 2 * layers - 1 - layer;
    const double backwardS = barrierEndS[backwardEnd] - barrierEndS[backwardEnd - 1];
    return forwardS + backwardS;
}

namespace {

// A window's forward (up to its last forward barrier) and backward (the rest), scaled to the
// stage's layers by its steady layer's.
std::pair<double, double> passesOf(const StepPlan& plan, const WindowTiming& window) {
    const auto layers = static_cast<std::size_t>(plan.windowLayers);
    if (window.barrierEndS.size() != 2 * layers)
        return {0.0, window.allLayersS(plan)};
    const auto steady = static_cast<std::size_t>(plan.steadyLayer());
    const double steadyForwardS =
        window.barrierEndS[steady] - (steady > 0 ? window.barrierEndS[steady - 1] : 0.0);
    const double forwardS =
        window.barrierEndS[layers - 1] + (plan.layers - plan.windowLayers) * steadyForwardS;
    return {forwardS, window.allLayersS(plan) - forwardS};
}

} // namespace

PipelineTimes pipelineTimes(const StepPlan& plan, const WindowTiming& window,
                            const WindowTiming& finalWindow, double headS,
                            const WindowTiming& sends) {
    PipelineTimes times;
    times.stages = plan.stages;
    times.microBatches = static_cast<int>(plan.microBatches);
    const auto [forwardS, backwardS] = passesOf(plan, window);
    const auto [lastForwardS, lastBackwardS] = plan.finalWindow.tasks.empty()
                                                   ? std::pair{forwardS, backwardS}
                                                   : passesOf(plan, finalWindow);
    for (int stage = 0; stage < times.stages; ++stage) {
        std::vector<double> forward(static_cast<std::size_t>(times.microBatches), forwardS);
        std::vector<double> backward(static_cast<std::size_t>(times.microBatches), backwardS);
        forward.back() = lastForwardS;
        backward.back() = lastBackwardS;
        if (stage + 1 == times.stages)
            for (double& seconds : backward)
                seconds += headS;
        times.forwardS.push_back(std::move(forward));
        times.backwardS.push_back(std::move(backward));
    }
    if (sends.barrierEndS.size() == 2) {
        times.forwardSendS = sends.barrierEndS[0];
        times.backwardSendS = sends.barrierEndS[1] - sends.barrierEndS[0];
    }
    return times;
}

double stepSeconds(const StepPlan& plan, const WindowTiming& window,
                   const WindowTiming& finalWindow, double headS, double optimizerS) {
    double seconds = plan.windowRuns() * (window.allLayersS(plan) + headS) + optimizerS;
    if (!plan.finalWindow.tasks.empty())
        seconds += finalWindow.allLayersS(plan) + headS;
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
        for (StepSection* section : {&plan.window, &plan.finalWindow, &plan.head, &plan.optimizer})
            for (PlannedTask& task : section->tasks) {
                if (auto* gemm = std::get_if<PlannedGemm>(&task.work))
                    gemm->firstHbmBytes = gemm->roundHbmBytes = 0.0;
                else if (auto* work = std::get_if<PlannedElementwise>(&task.work))
                    work->hbmBytes = 0.0;
            }
    return plan;
}

} // namespace ws
