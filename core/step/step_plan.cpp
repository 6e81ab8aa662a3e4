#include "step/step_plan.h"

#include "step/sram_residency.h"

#include <algorithm>
#include <map>
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
        // The input comes from the layer before and the output goes to the layer after: both
        // are carried across the section's edges (docs/compute-model.md section 4).
        const double rows = shape.m / (m_strategy.dp * m_strategy.sp);
        const double perDie = 1.0 / m_strategy.tatp;
        const TensorUse input = newActivation(rows * shape.k * m_dtype * perDie);
        addGemm(window, StepPhase::Forward, linear, GemmPass::Forward, "fwd", rows,
                {input, weights()},
                newActivation(rows * shape.n / m_strategy.tp * m_dtype * perDie));
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
        // The last layer's output comes in; the logits go to the loss, whose gradient comes back.
        const double rows = m_replicaTokens / m_strategy.sp;
        const TensorUse hidden = newActivation(tokenBytes());
        const double logitBytes = m_tokensPerDie * model.vocab / m_strategy.tp * m_dtype;
        addGemm(m_plan.head, StepPhase::Head, head, GemmPass::Forward, "head fwd", rows,
                {hidden, weights()}, newActivation(logitBytes));
        const TensorUse logitGradient = newActivation(logitBytes);
        addGemm(m_plan.head, StepPhase::Head, head, GemmPass::InputGradient, "head bwd dI", rows,
                {logitGradient, weights()}, newActivation(tokenBytes()));
        addGemm(m_plan.head, StepPhase::Head, head, GemmPass::WeightGradient, "head bwd dW", rows,
                {hidden, logitGradient}, gradients());

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
        // The residual stream: layer 0's input comes from the layer before the window, each
        // next layer's is the one before's output (docs/compute-model.md section 4).
        m_records.assign(static_cast<std::size_t>(layers), {});
        m_x = newActivation(sequenceBytes());
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
        // The gradient of the last layer's output comes from the layer after the window.
        m_gradient = newActivation(sequenceBytes());
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

    // The layer's gradients, reduced over every rank that holds a replica of its weights
    // (docs/training-model.md "How a step is simulated"): under FSDP a reduce-scatter over DP, then
    // an all-reduce of the die's shard over SP; without FSDP one all-reduce over the dp x sp
    // replicas. Both run asynchronously.
    void reduceLayerGradients(StepSection& window) {
        if (fsdpActive()) {
            const int scatter =
                addCollective(window, StepPhase::GradientSync, LayerSegment::None,
                              {CollectiveRole::FsdpGradientScatter, "dp grad reduce-scatter",
                               GroupKind::DP, OpKind::ReduceScatter,
                               m_strategy.fsdpReduceScatterTree ? Algorithm::Tree : ringAlgorithm(),
                               m_layerWeightBytes, true},
                              -1);
            if (m_strategy.sp > 1)
                addCollective(window, StepPhase::GradientSync, LayerSegment::None,
                              {CollectiveRole::GradientSync, "sp grad all-reduce", GroupKind::SP,
                               OpKind::AllReduce, ringAlgorithm(),
                               m_layerWeightBytes / m_strategy.dp, true},
                              scatter);
            return;
        }
        if (static_cast<long long>(m_strategy.dp) * m_strategy.sp > 1)
            addCollective(window, StepPhase::GradientSync, LayerSegment::None,
                          {CollectiveRole::GradientSync, "grad all-reduce", GroupKind::Replica,
                           OpKind::AllReduce, ringAlgorithm(), m_layerWeightBytes, true},
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
    // gradients and optimizer state and writes the weights and the state back
    // (docs/compute-model.md section 6). With pipeline stages, a stage's layers and the (tied)
    // embedding, which the first and the last stage both hold.
    void planOptimizer() {
        const TransformerConfig& model = m_workload.model;
        const double shards = fsdpActive() ? m_strategy.dp : 1.0;
        const double parameters =
            (m_plan.layers * model.parametersPerLayer() + model.embeddingParameters()) / tpTatp() /
            shards;
        const double weightBytes = parameters * m_dtype;
        const double gradientBytes = parameters * m_dtype;
        const double stateBytes = parameters * m_workload.optimizerBytesPerParameter;
        const TensorUse state{TensorUse::Kind::State, -1, stateBytes, false};
        PlannedElementwise update{"optimizer", "update"};
        update.reads = {weights(weightBytes), gradients(gradientBytes), state};
        update.writes = {weights(weightBytes), state};
        m_plan.optimizer.barrierLabel = "optimizer done";
        m_plan.optimizer.tasks.push_back(
            {StepPhase::Optimizer, LayerSegment::None, std::move(update)});
    }

    // The algorithm of every ring collective of the step (strategy.ring_algorithm).
    Algorithm ringAlgorithm() const {
        return m_strategy.bidirectionalRings ? Algorithm::BidirectionalRing : Algorithm::Ring;
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
             m_strategy.fsdpAllGatherMulticast ? Algorithm::Multicast : ringAlgorithm(),
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

    // A collective that turns the activation `in` of each die into a new one of `outBytes`
    // (an all-gather, a reduce-scatter, an all-to-all); returns the new one.
    TensorUse addTransforming(StepSection& section, StepPhase phase, LayerSegment segment,
                              PlannedCollective collective, const TensorUse& in, double outBytes) {
        collective.consumes = in;
        collective.produces = newActivation(outBytes);
        const TensorUse out = collective.produces;
        addCollective(section, phase, segment, std::move(collective));
        return out;
    }

    void addBarrier(StepSection& section, StepPhase phase, std::string label) {
        push(section, {phase, LayerSegment::None, PlannedBarrier{std::move(label)}});
    }

    // Tensors (docs/compute-model.md section 4): a new activation, and the die's persistent
    // state. A GEMM's inputs take their bytes from its shape, and so does an output written with
    // kFromShape; an output of 0 bytes accumulates into a tensor an earlier write allocated.
    static constexpr double kFromShape = -1.0;
    TensorUse newActivation(double bytes) {
        return {TensorUse::Kind::Activation, m_nextTensor++, bytes, false};
    }
    static TensorUse weights(double bytes = 0.0) {
        return {TensorUse::Kind::Weights, -1, bytes, false};
    }
    static TensorUse gradients(double bytes = kFromShape) {
        return {TensorUse::Kind::Gradients, -1, bytes, false};
    }
    static TensorUse fused() { return {TensorUse::Kind::Fused, -1, 0.0, false}; }
    // How a later pass reads back what `use` wrote: an activation from the forward's stash.
    static TensorUse fromStash(TensorUse use) {
        if (use.kind == TensorUse::Kind::Activation)
            use.kind = TensorUse::Kind::Stash;
        return use;
    }
    // A write into an activation already allocated (gradients accumulating into one tensor).
    static TensorUse into(TensorUse use) {
        use.bytes = 0.0;
        return use;
    }

    // `mPerSpRank` is a weight GEMM's M (tokens) on one SP rank of a DP replica; attention
    // GEMMs take theirs from the shape. `inputs` and `output` name the pass's tensors (their
    // bytes are set here from the shape: the die's share). Returns them as planned.
    struct GemmTensors {
        TensorUse a, b, c;
    };
    // How a GEMM takes part in tp_overlap: not at all, or streaming the chunks of the
    // all-gather before it (a column-parallel GEMM) or of the reduce-scatter after it (a
    // row-parallel GEMM forward, a column-parallel one's input gradient).
    enum class TpOverlap { None, GatherInput, ScatterOutput };
    GemmTensors addGemm(StepSection& section, StepPhase phase, const LayerGemm& gemm, GemmPass kind,
                        const char* pass, double mPerSpRank, std::array<TensorUse, 2> inputs,
                        TensorUse output,
                        TensorUse alsoReads = {TensorUse::Kind::Fused, -1, 0.0, false},
                        TpOverlap overlap = TpOverlap::None) {
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
        // The three passes' block products have the same three extents, in other roles. TATP
        // splits tokens: attention's query rows, with the keys and values streamed (ring
        // attention), so the values product of a round is (s/t) x (s/t) x d and the head
        // dimension d is never split (docs/compute-model.md section 3).
        planned.tileEfficiency =
            gemm.role == GemmRole::AttentionValues
                ? gemmTileEfficiency(planned.mLocal / tatp, planned.kLocal / tatp, planned.nLocal,
                                     m_die.gemmTile)
                : gemmTileEfficiency(planned.mLocal / tatp, planned.kLocal, planned.nLocal / tatp,
                                     m_die.gemmTile);
        const Operands bytes = operandBytes(planned);
        // The die's shares of the pass's inputs and output: forward reads A and B and writes C,
        // the input gradient reads dC and B and writes dA, the weight gradient reads A and dC
        // and writes dB.
        const std::array<double, 3> shares =
            kind == GemmPass::Forward         ? std::array{bytes.a, bytes.b, bytes.c}
            : kind == GemmPass::InputGradient ? std::array{bytes.c, bytes.b, bytes.a}
                                              : std::array{bytes.a, bytes.c, bytes.b};
        for (std::size_t i = 0; i < 2; ++i) {
            planned.inputs[i] = inputs[i];
            planned.inputs[i].bytes = shares[i] / tatp;
        }
        planned.output = output;
        if (output.bytes == kFromShape)
            planned.output.bytes = shares[2] / tatp;
        planned.alsoReads = alsoReads;
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
                planned.stationary = {bytes.b <= bytes.a, bytes.b > bytes.a};
                break;
            case GemmPass::InputGradient:
                block = std::min(bytes.b, bytes.c);
                planned.stationary = {bytes.b <= bytes.c, bytes.b > bytes.c};
                break;
            case GemmPass::WeightGradient:
                block = std::min(bytes.b, bytes.a + bytes.c / tatp);
                // Partial sums passed on: both inputs stay; A's block passed on: dC's stays.
                planned.stationary = {bytes.b <= bytes.a + bytes.c / tatp, true};
                break;
            }
            planned.streamedBlockBytes = block / tatp;
            planned.rounds = m_strategy.tatp;
        }
        if (overlap != TpOverlap::None) {
            // tp_overlap (docs/training-model.md): the GEMM runs in tp block products of a tp-th
            // of its token rows each, holding its weights, while the chunks of its gathered
            // input (or of its output's partial sums) pass round the TP group.
            const double tp = m_strategy.tp;
            planned.rounds = m_strategy.tp;
            planned.streamGroup = GroupKind::TP;
            planned.blockFlops = planned.dieFlops / tp;
            planned.tileEfficiency = gemmTileEfficiency(planned.mLocal / tp, planned.kLocal,
                                                        planned.nLocal, m_die.gemmTile);
            planned.stationary = {false, true};
            if (overlap == TpOverlap::GatherInput) {
                planned.streamedBlockBytes = shares[0] / tp;
                planned.inputs[0].bytes = shares[0] / tp; // the die's own chunk
            } else {
                planned.streamedBlockBytes = shares[2] / tp;
                if (output.bytes == kFromShape)
                    planned.output.bytes = shares[2] / tp; // the die's shard of the sums
            }
        }
        m_plan.largestStreamedBlockBytes =
            std::max(m_plan.largestStreamedBlockBytes, planned.streamedBlockBytes);
        const GemmTensors tensors{planned.inputs[0], planned.inputs[1], planned.output};
        push(section, {phase, layerSegmentOf(gemm.role), std::move(planned)});
        return tensors;
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

    // Memory-bound work around a layer's GEMMs (docs/compute-model.md section 5), per die: t
    // tokens of width h. A norm reads and writes t h values, a residual add reads two and
    // writes one, the activation function reads (gated: two) and writes t f/tp per expert slot,
    // standard attention's softmax reads and writes the t x s x heads/tp scores. With sequence
    // parallelism the norms and residual adds run on t / tp tokens (sequenceBytes): they sit
    // between a reduce-scatter and an all-gather. Each reads and writes tensors of the layer
    // (docs/compute-model.md section 4); backward reads the output's gradient and what the
    // forward saved and writes the inputs' gradients.
    enum class ElementwiseKind { Norm, Softmax, Residual, Activation };
    struct Elementwise {
        ElementwiseKind kind;
        const char* name;
        double outputBytes;
        LayerSegment segment;
    };
    std::vector<Elementwise> elementwiseBefore(GemmRole role) const {
        if (role == GemmRole::Qkv)
            return {{ElementwiseKind::Norm, "norm", sequenceBytes(), LayerSegment::Attention}};
        return {};
    }
    std::vector<Elementwise> elementwiseAfter(GemmRole role) const {
        const TransformerConfig& model = m_workload.model;
        switch (role) {
        case GemmRole::AttentionScores:
            if (m_workload.attention == AttentionKind::Flash)
                return {};
            return {{ElementwiseKind::Softmax, "softmax",
                     m_tokensPerDie * static_cast<double>(m_workload.seqLen) * model.heads /
                         m_strategy.tp * m_dtype,
                     LayerSegment::Attention}};
        case GemmRole::OutputProjection:
            return {
                {ElementwiseKind::Residual, "residual", sequenceBytes(), LayerSegment::Attention},
                {ElementwiseKind::Norm, "norm", sequenceBytes(), LayerSegment::Mlp}};
        case GemmRole::MlpUp:
            return {
                {ElementwiseKind::Activation, "activation",
                 m_tokensPerDie * model.expertsPerToken * model.ffnHidden / m_strategy.tp * m_dtype,
                 LayerSegment::Mlp}};
        case GemmRole::MlpDown:
            return {{ElementwiseKind::Residual, "residual", sequenceBytes(), LayerSegment::Mlp}};
        case GemmRole::Linear:
        case GemmRole::Qkv:
        case GemmRole::AttentionValues:
        case GemmRole::Router:
        case GemmRole::LmHead:
            break;
        }
        return {};
    }
    // A forward (or recomputed) element-wise task: reads the chain's tensor (a norm, the
    // residual stream), writes a new one; records what its backward reads (`slot`).
    void addElementwiseForward(StepSection& section, StepPhase phase, const char* pass,
                               const Elementwise& work, int slot) {
        PlannedElementwise task{pass, work.name};
        const TensorUse out = newActivation(work.outputBytes);
        switch (work.kind) {
        case ElementwiseKind::Norm:
            task.reads = {m_x};
            break;
        case ElementwiseKind::Residual:
            task.reads = {m_current, m_x};
            m_x = out;
            break;
        case ElementwiseKind::Softmax:
        case ElementwiseKind::Activation:
            task.reads = {m_current};
            break;
        }
        task.writes = {out};
        m_current = out;
        const bool recompute = phase == StepPhase::Recompute;
        std::vector<TensorUse>& saved = record().elementwise[slot];
        saved.clear();
        for (const TensorUse& read : task.reads)
            saved.push_back(recompute ? read : fromStash(read));
        push(section, {phase, work.segment, std::move(task)});
    }
    // Its backward, reading the gradient of its output (m_gradient) and what the forward saved.
    // The residual stream's gradient (m_residualGradient) passes a residual add unchanged and
    // gains each norm's input gradient.
    void addElementwiseBackward(StepSection& section, const Elementwise& work, int slot) {
        PlannedElementwise task{"bwd", work.name};
        const std::vector<TensorUse>& saved = record().elementwise[slot];
        switch (work.kind) {
        case ElementwiseKind::Residual:
            task.reads = {m_gradient};
            m_residualGradient = m_gradient;
            m_gradient = newActivation(work.outputBytes);
            task.writes = {m_gradient};
            break;
        case ElementwiseKind::Norm:
            task.reads = {m_gradient, saved.front(), m_residualGradient};
            m_residualGradient = newActivation(work.outputBytes);
            m_gradient = m_residualGradient;
            task.writes = {m_gradient};
            break;
        case ElementwiseKind::Softmax:
        case ElementwiseKind::Activation:
            task.reads = {m_gradient, saved.front()};
            m_gradient = newActivation(saved.front().bytes);
            task.writes = {m_gradient};
            break;
        }
        push(section, {StepPhase::Backward, work.segment, std::move(task)});
    }
    static int slotOf(std::size_t gemm, bool after, std::size_t k) {
        return static_cast<int>((gemm * 2 + (after ? 1 : 0)) * 2 + k);
    }

    double rowsOf(const LayerGemm& gemm) const {
        return m_replicaTokens * (gemm.expert ? m_workload.model.expertsPerToken : 1) /
               m_strategy.sp;
    }
    double kvBytes() const {
        const TransformerConfig& model = m_workload.model;
        return m_replicaTokens / m_strategy.tatp * 2.0 * model.kvHeads * model.headDim() /
               m_strategy.tp * m_dtype / m_strategy.sp;
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
    bool isLastAttention(std::size_t i) const { return i == indexWhere(true, &isAttention); }
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
    // two halves as in the all-reduce. The all-reduce works in place on `tensor`; the others
    // turn it into its shard or its gathered whole, which they return.
    TensorUse addTpCollective(StepSection& section, StepPhase phase, LayerSegment segment,
                              OpKind op, const TensorUse& tensor) {
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
        PlannedCollective collective{CollectiveRole::TpAllReduce,
                                     kAllReduce[pass],
                                     GroupKind::TP,
                                     op,
                                     ringAlgorithm(),
                                     tokenBytes(),
                                     false};
        if (op == OpKind::AllReduce) {
            addCollective(section, phase, segment, std::move(collective));
            return tensor;
        }
        const bool scatter = op == OpKind::ReduceScatter;
        collective.role = scatter ? CollectiveRole::TpReduceScatter : CollectiveRole::TpAllGather;
        collective.label = scatter ? kReduceScatter[pass] : kAllGather[pass];
        return addTransforming(section, phase, segment, std::move(collective), tensor,
                               scatter ? tokenBytes() / m_strategy.tp : tokenBytes());
    }
    // Whether tp_overlap streams this GEMM's TP communication: the dense layer's weight GEMMs
    // (the router's gather and an expert's all-to-alls stay collectives of their own).
    bool overlapsTp(const LayerGemm& gemm) const {
        return m_strategy.tpOverlap && sequenceParallel() && gemm.hasWeight && !gemm.expert &&
               gemm.role != GemmRole::Router;
    }
    // After a row-parallel GEMM forward (a column-parallel one backward): the partial sums.
    OpKind tpReduction() const {
        return sequenceParallel() ? OpKind::ReduceScatter : OpKind::AllReduce;
    }

    // The forward GEMM i of the layer: its inputs from the chain (m_current), the layer's
    // query, key and value tensor, or the weights, by role; its output continues the chain.
    void forwardGemm(StepSection& section, StepPhase phase, const char* pass, std::size_t i,
                     TpOverlap overlap = TpOverlap::None) {
        const LayerGemm& gemm = m_gemms[i];
        const bool flash = m_workload.attention == AttentionKind::Flash;
        std::array<TensorUse, 2> inputs{m_current, weights()};
        TensorUse output = newActivation(kFromShape);
        switch (gemm.role) {
        case GemmRole::AttentionScores: // Q K^T: Q from qkv, K from qkv (or SP's gathered K, V)
            inputs = {m_qkv, m_keysValues};
            if (flash)
                output = fused();
            break;
        case GemmRole::AttentionValues: // P V
            inputs = {flash ? fused() : m_current, m_keysValues};
            break;
        case GemmRole::Linear:
        case GemmRole::Qkv:
        case GemmRole::OutputProjection:
        case GemmRole::Router:
        case GemmRole::MlpUp:
        case GemmRole::MlpDown:
        case GemmRole::LmHead:
            break;
        }
        const GemmTensors planned = addGemm(section, phase, gemm, GemmPass::Forward, pass,
                                            rowsOf(gemm), inputs, output, fused(), overlap);
        const bool recompute = phase == StepPhase::Recompute;
        record().gemms[i] = {recompute ? planned.a : fromStash(planned.a),
                             recompute ? planned.b : fromStash(planned.b), planned.c};
        if (gemm.role == GemmRole::Qkv) {
            m_qkv = planned.c;
            m_keysValues = planned.c;
        }
        if (gemm.role != GemmRole::Router) // the router's choices travel with the dispatch
            m_current = planned.c;
    }

    // The forward pass, or its recomputation, which repeats the forward's communication too
    // (Megatron's TP all-reduces, SP's K/V gathers, MoE's all-to-alls; docs/training-model.md
    // "How a step is simulated"). With sequence parallelism each TP all-reduce after a
    // row-parallel GEMM is a reduce-scatter, and the segment's norm output is all-gathered before
    // the column-parallel GEMM it feeds. A recomputation reads the layer's input back from the
    // checkpoint's stash.
    void forwardPass(StepSection& section, StepPhase phase) {
        const bool recompute = phase == StepPhase::Recompute;
        const char* pass = recompute ? "recompute" : "fwd";
        LayerTensors& layer = record();
        if (!recompute) {
            layer.gemms.assign(m_gemms.size(), {});
            layer.input = m_x;
        } else {
            m_x = fromStash(layer.input);
        }
        // MoE experts are spread over the DP group: tokens travel only when it has two dies.
        const bool expertsAcrossDp = m_strategy.dp > 1;
        for (std::size_t i = 0; i < m_gemms.size(); ++i) {
            const LayerGemm& gemm = m_gemms[i];
            const LayerSegment segment = layerSegmentOf(gemm.role);
            if (m_strategy.sp > 1 && isFirstAttention(i))
                m_keysValues = addTransforming(
                    section, phase, segment,
                    {CollectiveRole::SpKeyValueGather,
                     recompute ? "recompute sp kv all-gather" : "fwd sp kv all-gather",
                     GroupKind::SP, OpKind::AllGather, ringAlgorithm(), kvBytes() * m_strategy.sp,
                     false},
                    {TensorUse::Kind::Activation, m_qkv.tensor, kvBytes(), false},
                    kvBytes() * m_strategy.sp);
            if (expertsAcrossDp && isFirstExpert(i))
                m_current = addTransforming(
                    section, phase, segment,
                    {CollectiveRole::MoeDispatch,
                     recompute ? "recompute moe dispatch" : "fwd moe dispatch", GroupKind::DP,
                     OpKind::AllToAll, Algorithm::Direct, moeBytes(), false},
                    m_current, moeBytes());
            const auto before = elementwiseBefore(gemm.role);
            for (std::size_t k = 0; k < before.size(); ++k)
                addElementwiseForward(section, phase, pass, before[k], slotOf(i, false, k));
            const bool gathers = sequenceParallel() && opensSegment(i);
            const bool reduces = tpSplitOf(gemm.role) == TpSplit::Rows && m_strategy.tp > 1;
            if (overlapsTp(gemm) && gathers) {
                forwardGemm(section, phase, pass, i, TpOverlap::GatherInput);
            } else if (overlapsTp(gemm) && reduces) {
                forwardGemm(section, phase, pass, i, TpOverlap::ScatterOutput);
            } else {
                if (gathers)
                    m_current =
                        addTpCollective(section, phase, segment, OpKind::AllGather, m_current);
                forwardGemm(section, phase, pass, i);
                if (reduces)
                    m_current = addTpCollective(section, phase, segment, tpReduction(), m_current);
            }
            if (expertsAcrossDp && isLastExpert(i))
                m_current = addTransforming(
                    section, phase, segment,
                    {CollectiveRole::MoeCombine,
                     recompute ? "recompute moe combine" : "fwd moe combine", GroupKind::DP,
                     OpKind::AllToAll, Algorithm::Direct, moeBytes(), false},
                    m_current, tokenBytes());
            const auto after = elementwiseAfter(gemm.role);
            for (std::size_t k = 0; k < after.size(); ++k)
                addElementwiseForward(section, phase, pass, after[k], slotOf(i, true, k));
        }
    }

    // Selective recomputation (Korthikanti et al.): only attention's score and value products
    // and, under standard attention, the softmax between them, from the Q, K and V the layer
    // kept; no communication.
    void recomputeAttention(StepSection& section) {
        LayerTensors& layer = record();
        for (std::size_t i = 0; i < m_gemms.size(); ++i) {
            if (!isAttention(m_gemms[i]))
                continue;
            if (m_gemms[i].role == GemmRole::AttentionScores) {
                m_qkv = layer.gemms[i][0];
                m_keysValues = layer.gemms[i][1];
            }
            forwardGemm(section, StepPhase::Recompute, "recompute", i);
            const auto after = elementwiseAfter(m_gemms[i].role);
            for (std::size_t k = 0; k < after.size(); ++k)
                addElementwiseForward(section, StepPhase::Recompute, "recompute", after[k],
                                      slotOf(i, true, k));
        }
    }

    // The backward GEMMs of forward GEMM i: the input gradient dA = dC B^T from the gradient
    // arriving (m_gradient) and B, then the weight gradient dB = A^T dC from what the forward
    // (or its recomputation) kept. Attention's gradients of Q, K and V gather into the
    // gradient of the qkv output (sequence parallelism: K's and V's into the gathered ones,
    // reduce-scattered after).
    void backwardGemms(StepSection& section, std::size_t i) {
        const LayerGemm& gemm = m_gemms[i];
        const auto& saved = record().gemms[i];
        const bool flash = m_workload.attention == AttentionKind::Flash;
        const double rows = rowsOf(gemm);
        TensorUse inputGradient = newActivation(kFromShape);
        TensorUse weightGradient = gradients();
        TensorUse alsoReads{TensorUse::Kind::Fused, -1, 0.0, false};
        switch (gemm.role) {
        case GemmRole::AttentionValues: // dP = dO V^T; dV = P^T dO
            if (flash)
                inputGradient = fused();
            weightGradient = m_keyValueGradient;
            break;
        case GemmRole::AttentionScores: // dQ = dS K; dK = dS^T Q
            inputGradient = m_sequenceSplitKeys ? m_qkvGradient : into(m_qkvGradient);
            weightGradient = into(m_keyValueGradient);
            break;
        case GemmRole::Qkv:
            alsoReads = m_keyValueShard;
            break;
        case GemmRole::Router: // the gating's gradient comes with the experts' and joins theirs
            addGemm(section, StepPhase::Backward, gemm, GemmPass::InputGradient, "bwd dI", rows,
                    {newActivation(kFromShape), saved[1]}, into(m_gradient));
            addGemm(section, StepPhase::Backward, gemm, GemmPass::WeightGradient, "bwd dW", rows,
                    {saved[0], newActivation(kFromShape)}, gradients());
            return;
        case GemmRole::Linear:
        case GemmRole::OutputProjection:
        case GemmRole::MlpUp:
        case GemmRole::MlpDown:
        case GemmRole::LmHead:
            break;
        }
        // tp_overlap: a column-parallel GEMM's input gradient streams its reduce-scatter.
        const TpOverlap overlap = overlapsTp(gemm) && tpSplitOf(gemm.role) == TpSplit::Columns
                                      ? TpOverlap::ScatterOutput
                                      : TpOverlap::None;
        const GemmTensors dI =
            addGemm(section, StepPhase::Backward, gemm, GemmPass::InputGradient, "bwd dI", rows,
                    {m_gradient, saved[1]}, inputGradient, alsoReads, overlap);
        addGemm(section, StepPhase::Backward, gemm, GemmPass::WeightGradient, "bwd dW", rows,
                {saved[0], m_gradient}, weightGradient, alsoReads);
        m_gradient = gemm.role == GemmRole::AttentionScores ? m_qkvGradient : dI.c;
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
                m_gradient =
                    addTransforming(section, phase, segment,
                                    {CollectiveRole::MoeCombine, "bwd moe combine", GroupKind::DP,
                                     OpKind::AllToAll, Algorithm::Direct, moeBytes(), false},
                                    m_gradient, moeBytes());
            const auto after = elementwiseAfter(gemm.role);
            for (std::size_t k = after.size(); k-- > 0;)
                addElementwiseBackward(section, after[k], slotOf(i, true, k));
            if (sequenceParallel() && tpSplitOf(gemm.role) == TpSplit::Rows)
                m_gradient =
                    addTpCollective(section, phase, segment, OpKind::AllGather, m_gradient);
            if (isLastAttention(i))
                startAttentionGradients();
            backwardGemms(section, i);
            if (tpSplitOf(gemm.role) == TpSplit::Columns && gemm.hasWeight && m_strategy.tp > 1 &&
                !overlapsTp(gemm))
                m_gradient = addTpCollective(section, phase, segment, tpReduction(), m_gradient);
            if (expertsAcrossDp && isFirstExpert(i))
                m_gradient =
                    addTransforming(section, phase, segment,
                                    {CollectiveRole::MoeDispatch, "bwd moe dispatch", GroupKind::DP,
                                     OpKind::AllToAll, Algorithm::Direct, moeBytes(), false},
                                    m_gradient, tokenBytes());
            if (m_strategy.sp > 1 && isFirstAttention(i))
                m_keyValueShard = addTransforming(
                    section, phase, segment,
                    {CollectiveRole::SpKeyValueScatter, "bwd sp kv reduce-scatter", GroupKind::SP,
                     OpKind::ReduceScatter, ringAlgorithm(), kvBytes() * m_strategy.sp, false},
                    m_keyValueGradient, kvBytes());
            const auto before = elementwiseBefore(gemm.role);
            for (std::size_t k = before.size(); k-- > 0;)
                addElementwiseBackward(section, before[k], slotOf(i, false, k));
        }
    }

    // The gradient of the qkv output (all of it without SP; with SP, Q's part, K's and V's
    // gathered apart), allocated by the first write into it.
    void startAttentionGradients() {
        const double qkvBytes = record().gemms[indexWhere(false, &isAttention) - 1][2].bytes;
        m_sequenceSplitKeys = m_strategy.sp > 1;
        m_qkvGradient = newActivation(qkvBytes);
        m_keyValueGradient =
            m_sequenceSplitKeys ? newActivation(kvBytes() * m_strategy.sp) : m_qkvGradient;
        m_keyValueShard = {TensorUse::Kind::Fused, -1, 0.0, false};
    }

    // What a window layer's backward reads of its forward pass (or of its recomputation, which
    // replaces it): each GEMM's A and B as backward reads them (from the stash, or live after a
    // recomputation) and its C; each element-wise task's inputs, by slot.
    struct LayerTensors {
        TensorUse input; // the layer's input: the residual stream as the forward read it
        std::vector<std::array<TensorUse, 3>> gemms;
        std::map<int, std::vector<TensorUse>> elementwise;
    };
    LayerTensors& record() { return m_records[static_cast<std::size_t>(m_layer)]; }

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
    // Tensors (docs/compute-model.md section 4): the next id, the window's layers' records, and
    // what the pass being planned is working on.
    int m_nextTensor = 0;
    std::vector<LayerTensors> m_records;
    TensorUse m_x;                // the residual stream (the layer's input, then each add's output)
    TensorUse m_current;          // the activation the next task reads
    TensorUse m_qkv;              // the qkv output (Q's part is read by the scores)
    TensorUse m_keysValues;       // K and V: the qkv output, or SP's gathered copy
    TensorUse m_gradient;         // backward: the gradient the next task reads
    TensorUse m_residualGradient; // backward: the residual stream's gradient
    TensorUse m_qkvGradient;      // backward: the qkv output's gradient, gathering dQ, dK, dV
    TensorUse m_keyValueGradient; // backward: dK and dV (with SP, the gathered ones)
    TensorUse m_keyValueShard;    // backward, with SP: dK and dV reduce-scattered
    bool m_sequenceSplitKeys = false;
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

namespace {

// One die's time for the plan's window and head, with its streams at their buffering (the
// analytic evaluator's stream formula with one hop per round, no contention): what the
// residency pass's buffering choice compares.
double estimatedSeconds(const StepPlan& plan, const ComputeModel& compute, LinkSpeed link) {
    double seconds = 0.0;
    for (const StepSection* section : {&plan.window, &plan.finalWindow, &plan.head})
        for (const PlannedTask& task : section->tasks) {
            const double times = plan.layerRepetitions(task.layer);
            if (const auto* work = std::get_if<PlannedElementwise>(&task.work)) {
                seconds += times * compute.seconds(work->work());
                continue;
            }
            const auto* gemm = std::get_if<PlannedGemm>(&task.work);
            if (gemm == nullptr)
                continue;
            const double firstS = compute.seconds(gemm->blockWork(true));
            const int rounds = gemm->rounds;
            if (rounds == 1) {
                seconds += times * firstS;
                continue;
            }
            const double blockS = compute.seconds(gemm->blockWork(false));
            const double roundS = link.bandwidth > 0.0
                                      ? gemm->streamedBlockBytes / link.bandwidth + link.latencyS
                                      : 0.0;
            seconds +=
                times * (firstS + (rounds - 1) * (gemm->doubleBuffered ? std::max(blockS, roundS)
                                                                       : blockS + roundS));
        }
    return seconds;
}

// Memory, residency and HBM bytes of a planned step at the strategy's buffering, or at single
// buffering.
void placeInMemory(StepPlan& plan, const Workload& workload, const StrategySpec& strategy,
                   const DieSpec& die, bool doubleBuffered) {
    StrategySpec buffering = strategy;
    buffering.doubleBuffering = doubleBuffered;
    plan.memory = estimateMemory(workload, buffering, die, plan.largestStreamedBlockBytes);
    plan.sramResident = plan.memory.fitsInSram();
    plan.sram = assignHbmBytes(plan, die, workload.dtypeBytes, doubleBuffered);
}

} // namespace

StepPlan buildStepPlan(const Workload& workload, const StrategySpec& strategy, const DieSpec& die,
                       LinkSpeed streamLink) {
    StepPlan plan;
    plan.kind = workload.kind;
    StepPlanner planner(plan, workload, strategy, die);
    if (workload.kind == WorkloadKind::Gemm)
        planner.planGemmWorkload();
    else
        planner.planTransformer();
    placeInMemory(plan, workload, strategy, die, strategy.doubleBuffering);
    // A stream whose double buffers overflow SRAM falls back to single buffering where that is
    // faster (docs/compute-model.md section 4): the die then waits for each block, but holds
    // its stationary block.
    if (plan.largestStreamedBlockBytes > 0.0 && strategy.doubleBuffering && !plan.sram.fits) {
        StepPlan single = plan;
        placeInMemory(single, workload, strategy, die, false);
        const ComputeModel compute(die);
        if (estimatedSeconds(single, compute, streamLink) <
            estimatedSeconds(plan, compute, streamLink)) {
            plan = std::move(single);
            plan.sram.singleBuffered = true;
        }
    }
    return plan;
}

} // namespace ws
