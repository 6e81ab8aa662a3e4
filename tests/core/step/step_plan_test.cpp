#include "io/workload_reader.h"
#include "step/step_plan.h"
#include "step/training_step.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <tuple>
#include <variant>

namespace ws {
namespace {

// A 2-layer transformer small enough to check by hand: h = 512, 8 heads of 64, ffn 2048.
Workload tinyTransformer() {
    Workload workload;
    workload.model.name = "tiny";
    workload.model.layers = 2;
    workload.model.hidden = 512;
    workload.model.heads = 8;
    workload.model.kvHeads = 8;
    workload.model.ffnHidden = 2048;
    workload.model.vocab = 4096;
    workload.seqLen = 256;
    workload.globalBatch = 8;
    return workload;
}

Workload tinyMixtureOfExperts() {
    Workload workload = tinyTransformer();
    workload.model.experts = 4;
    workload.model.expertsPerToken = 2;
    return workload;
}

StrategySpec strategyOf(int dp, int sp, int tp, int tatp, bool fsdp = false) {
    StrategySpec strategy;
    strategy.dp = dp;
    strategy.sp = sp;
    strategy.tp = tp;
    strategy.tatp = tatp;
    strategy.fsdp = fsdp;
    return strategy;
}

const PlannedGemm* gemmOf(const PlannedTask& task) {
    return std::get_if<PlannedGemm>(&task.work);
}
const PlannedCollective* collectiveOf(const PlannedTask& task) {
    return std::get_if<PlannedCollective>(&task.work);
}
const PlannedElementwise* elementwiseOf(const PlannedTask& task) {
    return std::get_if<PlannedElementwise>(&task.work);
}

// The GEMMs of a phase that do the work of one window layer (-1: the head's).
std::vector<const PlannedGemm*> gemmsIn(const StepSection& section, StepPhase phase,
                                        int layer = 0) {
    std::vector<const PlannedGemm*> gemms;
    for (const PlannedTask& task : section.tasks)
        if (task.phase == phase && task.layer == layer && gemmOf(task))
            gemms.push_back(gemmOf(task));
    return gemms;
}

std::vector<CollectiveRole> collectiveRolesIn(const StepSection& section, StepPhase phase,
                                              int layer = 0) {
    std::vector<CollectiveRole> roles;
    for (const PlannedTask& task : section.tasks)
        if (task.phase == phase && task.layer == layer && collectiveOf(task))
            roles.push_back(collectiveOf(task)->role);
    return roles;
}

// Every task's label (barriers left out) of a phase of one window layer, in order.
std::vector<std::string> labelsIn(const StepSection& section, StepPhase phase, int layer = 0) {
    std::vector<std::string> labels;
    for (const PlannedTask& task : section.tasks) {
        if (task.phase != phase || task.layer != layer ||
            std::holds_alternative<PlannedBarrier>(task.work))
            continue;
        if (const PlannedGemm* gemm = gemmOf(task))
            labels.push_back(gemm->label());
        else if (const PlannedElementwise* work = elementwiseOf(task))
            labels.push_back(work->label());
        else
            labels.push_back(collectiveOf(task)->label);
    }
    return labels;
}

// The HBM bytes of the memory-bound tasks named `name` ("fwd norm") in a window layer.
std::vector<double> elementwiseBytes(const StepSection& section, const std::string& name,
                                     int layer = 0) {
    std::vector<double> bytes;
    for (const PlannedTask& task : section.tasks)
        if (const PlannedElementwise* work = elementwiseOf(task);
            work && task.layer == layer && work->label() == name)
            bytes.push_back(work->hbmBytes);
    return bytes;
}

StrategySpec withSequenceParallelism(StrategySpec strategy,
                                     Checkpointing checkpointing = Checkpointing::None) {
    strategy.sequenceParallel = true;
    strategy.activationCheckpointing = checkpointing;
    return strategy;
}

StrategySpec withTpOverlap(StrategySpec strategy) {
    strategy.tpOverlap = true;
    return strategy;
}

// Like tinyTransformer, with four layers: the window holds three, the middle one steady.
Workload fourLayerTransformer() {
    Workload workload = tinyTransformer();
    workload.model.layers = 4;
    return workload;
}

TEST(StepPlan, TensorParallelismSplitsByRoleAsMegatronDoes) {
    EXPECT_EQ(tpSplitOf(GemmRole::Qkv), TpSplit::Columns);
    EXPECT_EQ(tpSplitOf(GemmRole::MlpUp), TpSplit::Columns);
    EXPECT_EQ(tpSplitOf(GemmRole::Router), TpSplit::Columns);
    EXPECT_EQ(tpSplitOf(GemmRole::LmHead), TpSplit::Columns);
    EXPECT_EQ(tpSplitOf(GemmRole::Linear), TpSplit::Columns);
    EXPECT_EQ(tpSplitOf(GemmRole::OutputProjection), TpSplit::Rows);
    EXPECT_EQ(tpSplitOf(GemmRole::MlpDown), TpSplit::Rows);
    EXPECT_EQ(tpSplitOf(GemmRole::AttentionScores), TpSplit::Heads);
    EXPECT_EQ(tpSplitOf(GemmRole::AttentionValues), TpSplit::Heads);
}

TEST(StepPlan, ResidualSegmentsFollowTheRoles) {
    EXPECT_EQ(layerSegmentOf(GemmRole::Qkv), LayerSegment::Attention);
    EXPECT_EQ(layerSegmentOf(GemmRole::AttentionValues), LayerSegment::Attention);
    EXPECT_EQ(layerSegmentOf(GemmRole::OutputProjection), LayerSegment::Attention);
    EXPECT_EQ(layerSegmentOf(GemmRole::Router), LayerSegment::Mlp);
    EXPECT_EQ(layerSegmentOf(GemmRole::MlpDown), LayerSegment::Mlp);
    EXPECT_EQ(layerSegmentOf(GemmRole::LmHead), LayerSegment::None);
}

// dp 2, tp 2, tatp 2, one micro-batch: a replica runs 8 / 2 = 4 sequences, 1024 tokens.
TEST(StepPlan, DieLocalShapesByHand) {
    const StepPlan plan = buildStepPlan(tinyTransformer(), strategyOf(2, 1, 2, 2), DieSpec{});
    const auto forward = gemmsIn(plan.window, StepPhase::Forward);
    ASSERT_EQ(forward.size(), 6u);

    const PlannedGemm& qkv = *forward[0]; // column-parallel: N = 3h / tp
    EXPECT_EQ(qkv.role, GemmRole::Qkv);
    EXPECT_EQ(qkv.label(), "fwd qkv");
    EXPECT_EQ(qkv.mLocal, 1024);
    EXPECT_EQ(qkv.kLocal, 512);
    EXPECT_EQ(qkv.nLocal, 768);
    EXPECT_EQ(qkv.dieFlops, 2.0 * 1024 * 512 * 768 / 2);
    EXPECT_EQ(qkv.blockFlops, qkv.dieFlops / 2);
    // The smaller operand block: the weight's 512 x 768 / 2 elements, 2 bytes each.
    EXPECT_EQ(qkv.streamedBlockBytes, 512.0 * 384 * 2);

    const PlannedGemm& scores = *forward[1]; // whole heads: 8 heads x 4 sequences / tp
    EXPECT_EQ(scores.split, TpSplit::Heads);
    EXPECT_EQ(scores.mLocal, 256);
    EXPECT_EQ(scores.kLocal, 64);
    EXPECT_EQ(scores.nLocal, 256);
    EXPECT_EQ(scores.countLocal, 16);

    const PlannedGemm& projection = *forward[3]; // row-parallel: K = h / tp
    EXPECT_EQ(projection.split, TpSplit::Rows);
    EXPECT_EQ(projection.kLocal, 256);
    EXPECT_EQ(projection.nLocal, 512);

    // The LM head: three column-parallel GEMMs over the replica's tokens.
    const auto head = gemmsIn(plan.head, StepPhase::Head, -1);
    ASSERT_EQ(head.size(), 3u);
    EXPECT_EQ(head[0]->label(), "head fwd lm_head");
    EXPECT_EQ(head[0]->nLocal, 2048);
    EXPECT_EQ(head[2]->label(), "head bwd dW lm_head");

    // The LM head's weight gradient: a K x N/n block of partial sums, 512 x 2048 / 2, beats the
    // input's block plus the part of dC the receiver needs.
    EXPECT_EQ(plan.largestStreamedBlockBytes, 512.0 * 2048 / 2 * 2);
}

TEST(StepPlan, BackwardRunsTwoGemmsPerForwardGemmInReverse) {
    const StepPlan plan = buildStepPlan(tinyTransformer(), strategyOf(1, 1, 1, 1), DieSpec{});
    const auto forward = gemmsIn(plan.window, StepPhase::Forward);
    const auto backward = gemmsIn(plan.window, StepPhase::Backward);
    ASSERT_EQ(backward.size(), 2 * forward.size());
    for (std::size_t i = 0; i < forward.size(); ++i) {
        const PlannedGemm& original = *forward[forward.size() - 1 - i];
        EXPECT_EQ(backward[2 * i]->role, original.role);
        EXPECT_EQ(backward[2 * i + 1]->role, original.role);
        EXPECT_EQ(backward[2 * i]->dieFlops, original.dieFlops);
    }
    EXPECT_TRUE(gemmsIn(plan.window, StepPhase::Recompute).empty());
    // One die: nothing to synchronise.
    EXPECT_TRUE(collectiveRolesIn(plan.window, StepPhase::GradientSync).empty());
    EXPECT_TRUE(plan.finalWindow.tasks.empty());
}

// The weight gradient dB = A^T dC contracts over the dies' tokens: a TATP round streams the
// smaller of a block of partial sums of dB (K x N/n) and A's block with the part of dC the
// receiving die needs (M/n x K + M/n x N/n); the input gradient dA = dC B^T streams B's block
// or dC's M/n x N block.
TEST(StepPlan, BackwardPassesStreamTheOperandsTheyNeed) {
    Workload workload = tinyTransformer();
    workload.globalBatch = 4; // fewer tokens than qkv has columns: forward streams inputs
    const StepPlan plan = buildStepPlan(workload, strategyOf(1, 1, 1, 4), DieSpec{});
    const auto forward = gemmsIn(plan.window, StepPhase::Forward);
    const auto backward = gemmsIn(plan.window, StepPhase::Backward);
    // qkv: M = 1024 tokens, K = 512, N = 1536, n = 4 dies, 2 bytes.
    const PlannedGemm& qkv = *forward[0];
    ASSERT_EQ(qkv.role, GemmRole::Qkv);
    const double m = 1024, k = 512, n = 1536, dies = 4, bytes = 2;
    EXPECT_EQ(qkv.streamedBlockBytes, std::min(k * n, m * k) / dies * bytes);
    const PlannedGemm& dI = *backward[backward.size() - 2];
    const PlannedGemm& dW = *backward[backward.size() - 1];
    ASSERT_EQ(dI.role, GemmRole::Qkv);
    ASSERT_EQ(dW.label(), "bwd dW qkv");
    EXPECT_EQ(dI.streamedBlockBytes, std::min(k * n, m * n) / dies * bytes);
    EXPECT_EQ(dW.streamedBlockBytes, std::min(k * n, m * k + m * n / dies) / dies * bytes);
    EXPECT_GT(dW.streamedBlockBytes, qkv.streamedBlockBytes); // A's block alone was too few
}

// docs/training-model.md "How a step is simulated": recomputation repeats the forward's
// communication (Megatron's TP all-reduces).
TEST(StepPlan, CheckpointingRecomputesTheForwardPassWithItsCommunication) {
    StrategySpec strategy = strategyOf(1, 2, 2, 1);
    strategy.activationCheckpointing = Checkpointing::Full;
    const StepPlan plan = buildStepPlan(tinyTransformer(), strategy, DieSpec{});
    EXPECT_EQ(gemmsIn(plan.window, StepPhase::Recompute).size(),
              gemmsIn(plan.window, StepPhase::Forward).size());
    using R = CollectiveRole;
    EXPECT_EQ(collectiveRolesIn(plan.window, StepPhase::Recompute),
              (std::vector<R>{R::SpKeyValueGather, R::TpAllReduce, R::TpAllReduce}));
    EXPECT_EQ(collectiveRolesIn(plan.window, StepPhase::Recompute),
              collectiveRolesIn(plan.window, StepPhase::Forward));
}

// Korthikanti et al. (MLSys 2023), figures 5 and 6: with sequence parallelism each TP
// all-reduce becomes one reduce-scatter and one all-gather of the same whole buffer (so the
// ring moves the same bytes), the gathers before the GEMMs the norms feed, and the norms and
// residual adds run on tokens / tp.
TEST(StepPlan, SequenceParallelismSplitsEveryTpAllReduceIntoAReduceScatterAndAnAllGather) {
    DieSpec die;
    die.sram = {1e6, "1 MB"}; // too small: the memory-bound tasks move their HBM bytes
    const StrategySpec tp = strategyOf(1, 1, 2, 1);
    const StepPlan plain = buildStepPlan(tinyTransformer(), tp, die);
    const StepPlan split = buildStepPlan(tinyTransformer(), withSequenceParallelism(tp), die);
    ASSERT_FALSE(split.sramResident);
    using R = CollectiveRole;
    EXPECT_EQ(collectiveRolesIn(plain.window, StepPhase::Forward),
              (std::vector<R>{R::TpAllReduce, R::TpAllReduce}));
    EXPECT_EQ(
        collectiveRolesIn(split.window, StepPhase::Forward),
        (std::vector<R>{R::TpAllGather, R::TpReduceScatter, R::TpAllGather, R::TpReduceScatter}));
    // Backward, in reverse: gather the output gradient before mlp_down and the output
    // projection, scatter the input gradients of mlp_up and qkv where the all-reduces were.
    EXPECT_EQ(collectiveRolesIn(plain.window, StepPhase::Backward),
              (std::vector<R>{R::TpAllReduce, R::TpAllReduce}));
    EXPECT_EQ(
        collectiveRolesIn(split.window, StepPhase::Backward),
        (std::vector<R>{R::TpAllGather, R::TpReduceScatter, R::TpAllGather, R::TpReduceScatter}));
    EXPECT_EQ(labelsIn(split.window, StepPhase::Forward),
              (std::vector<std::string>{
                  "fwd norm", "fwd tp all-gather", "fwd qkv", "fwd attention_scores",
                  "fwd attention_values", "fwd output_projection", "fwd tp reduce-scatter",
                  "fwd residual", "fwd norm", "fwd tp all-gather", "fwd mlp_up", "fwd activation",
                  "fwd mlp_down", "fwd tp reduce-scatter", "fwd residual"}));

    // One reduce-scatter and one all-gather per all-reduce, each of the same bytes: a die's
    // 2048 tokens x h x 2 B, the whole buffer. A ring all-reduce moves 2 (p - 1) / p of it, each
    // half (p - 1) / p: the TP volume is unchanged.
    const double bytes = 2048.0 * 512 * 2;
    std::map<OpKind, int> plainOps;
    std::map<OpKind, int> splitOps;
    double plainVolume = 0.0;
    double splitVolume = 0.0;
    for (const auto& [plan, ops, volume] :
         {std::tuple{&plain, &plainOps, &plainVolume}, std::tuple{&split, &splitOps, &splitVolume}})
        for (const PlannedTask& task : plan->window.tasks)
            if (const PlannedCollective* c = collectiveOf(task); c && c->group == GroupKind::TP) {
                EXPECT_EQ(c->bytes, bytes) << c->label;
                EXPECT_EQ(c->algorithm, Algorithm::Ring);
                EXPECT_FALSE(c->async);
                ++(*ops)[c->op];
                *volume += (c->op == OpKind::AllReduce ? 2.0 : 1.0) * c->bytes / 2; // (p-1)/p
            }
    ASSERT_EQ(plain.windowLayers, 2);
    EXPECT_EQ(plainOps, (std::map<OpKind, int>{{OpKind::AllReduce, 8}})); // 4 a layer, 2 layers
    EXPECT_EQ(splitOps,
              (std::map<OpKind, int>{{OpKind::ReduceScatter, 8}, {OpKind::AllGather, 8}}));
    EXPECT_EQ(splitVolume, plainVolume);

    // Norms and residual adds on 2048 / 2 tokens: their HBM bytes halve; the rest do not.
    for (const char* name : {"fwd norm", "fwd residual", "bwd norm", "bwd residual"}) {
        const std::vector<double> before = elementwiseBytes(plain.window, name);
        const std::vector<double> after = elementwiseBytes(split.window, name);
        ASSERT_EQ(before.size(), 2u) << name;
        ASSERT_EQ(after.size(), 2u) << name;
        for (std::size_t i = 0; i < before.size(); ++i)
            EXPECT_EQ(after[i], before[i] / 2) << name;
    }
    EXPECT_EQ(elementwiseBytes(plain.window, "fwd norm")[0], 2 * bytes); // read and write t h
    EXPECT_EQ(elementwiseBytes(split.window, "fwd activation"),
              elementwiseBytes(plain.window, "fwd activation"));
    // The GEMMs are Megatron's as before.
    const auto plainGemms = gemmsIn(plain.window, StepPhase::Forward);
    const auto splitGemms = gemmsIn(split.window, StepPhase::Forward);
    ASSERT_EQ(splitGemms.size(), plainGemms.size());
    for (std::size_t i = 0; i < plainGemms.size(); ++i)
        EXPECT_EQ(splitGemms[i]->dieFlops, plainGemms[i]->dieFlops);
}

// Full recomputation under sequence parallelism repeats the forward's gathers and scatters.
// tp_overlap (docs/training-model.md): the all-gather before each column-parallel GEMM and the
// reduce-scatter after each row-parallel one become streams of tp block products over the TP
// group, each round passing on a chunk of a tp-th of the buffer; in backward the input
// gradients' reduce-scatters stream too, and the output gradients' all-gathers stay collectives.
TEST(StepPlan, TpOverlapStreamsTheSequenceParallelCollectivesBesideTheirGemms) {
    const StrategySpec split = withSequenceParallelism(strategyOf(1, 1, 2, 1));
    const StepPlan plain = buildStepPlan(tinyTransformer(), split, DieSpec{});
    const StepPlan overlapped = buildStepPlan(tinyTransformer(), withTpOverlap(split), DieSpec{});
    using R = CollectiveRole;
    EXPECT_TRUE(collectiveRolesIn(overlapped.window, StepPhase::Forward).empty());
    EXPECT_EQ(collectiveRolesIn(overlapped.window, StepPhase::Backward),
              (std::vector<R>{R::TpAllGather, R::TpAllGather}));
    const double chunk = 2048.0 * 512 * 2 / 2; // a tp-th of a die's 2048 tokens x h x 2 B
    const auto forward = gemmsIn(overlapped.window, StepPhase::Forward);
    const auto plainForward = gemmsIn(plain.window, StepPhase::Forward);
    ASSERT_EQ(forward.size(), 6u);
    for (std::size_t i = 0; i < forward.size(); ++i) {
        const PlannedGemm& gemm = *forward[i];
        const bool streams = gemm.role == GemmRole::Qkv || gemm.role == GemmRole::MlpUp ||
                             gemm.role == GemmRole::OutputProjection ||
                             gemm.role == GemmRole::MlpDown;
        EXPECT_EQ(gemm.rounds, streams ? 2 : 1) << gemm.label();
        EXPECT_EQ(gemm.dieFlops, plainForward[i]->dieFlops) << gemm.label();
        if (!streams)
            continue;
        EXPECT_EQ(gemm.streamGroup, GroupKind::TP);
        EXPECT_EQ(gemm.blockFlops, gemm.dieFlops / 2);
        EXPECT_EQ(gemm.stationary, (std::array<bool, 2>{false, true})) << "the weights stay";
        // qkv's and mlp_up's chunks of the gathered input are a tp-th of the all-gather; the
        // projections' chunks of partial sums a tp-th of the reduce-scatter.
        EXPECT_EQ(gemm.streamedBlockBytes, chunk) << gemm.label();
    }
    const auto backward = gemmsIn(overlapped.window, StepPhase::Backward);
    int streamedInputGradients = 0;
    for (const PlannedGemm* gemm : backward)
        streamedInputGradients += gemm->rounds == 2 ? 1 : 0;
    EXPECT_EQ(streamedInputGradients, 2) << "qkv's and mlp_up's dI";
}

TEST(StepPlan, FullRecomputationRepeatsTheSequenceParallelCommunication) {
    const StepPlan plan = buildStepPlan(
        tinyTransformer(), withSequenceParallelism(strategyOf(1, 1, 2, 1), Checkpointing::Full),
        DieSpec{});
    EXPECT_EQ(collectiveRolesIn(plan.window, StepPhase::Recompute),
              collectiveRolesIn(plan.window, StepPhase::Forward));
    EXPECT_EQ(labelsIn(plan.window, StepPhase::Recompute)[1], "recompute tp all-gather");
}

// Korthikanti et al.: selective recomputation repeats only attention's score and value
// products (and standard attention's softmax between them), from the Q, K and V the layer kept:
// no communication, not even SP's key/value gathers or the TP collectives.
TEST(StepPlan, SelectiveRecomputationRepeatsOnlyTheAttentionProducts) {
    StrategySpec strategy = strategyOf(1, 2, 2, 1);
    strategy.activationCheckpointing = Checkpointing::Selective;
    Workload workload = tinyTransformer();
    const StepPlan flash = buildStepPlan(workload, strategy, DieSpec{});
    EXPECT_EQ(
        labelsIn(flash.window, StepPhase::Recompute),
        (std::vector<std::string>{"recompute attention_scores", "recompute attention_values"}));
    EXPECT_TRUE(collectiveRolesIn(flash.window, StepPhase::Recompute).empty());
    EXPECT_FALSE(collectiveRolesIn(flash.window, StepPhase::Forward).empty());
    const auto forward = gemmsIn(flash.window, StepPhase::Forward);
    const auto recomputed = gemmsIn(flash.window, StepPhase::Recompute);
    ASSERT_EQ(recomputed.size(), 2u);
    EXPECT_EQ(recomputed[0]->dieFlops, forward[1]->dieFlops); // the scores
    EXPECT_EQ(recomputed[1]->dieFlops, forward[2]->dieFlops); // the values
    // Before every layer's backward.
    EXPECT_EQ(gemmsIn(flash.window, StepPhase::Recompute, 1).size(), 2u);

    workload.attention = AttentionKind::Standard;
    const StepPlan standard = buildStepPlan(workload, strategy, DieSpec{});
    EXPECT_EQ(labelsIn(standard.window, StepPhase::Recompute),
              (std::vector<std::string>{"recompute attention_scores", "recompute softmax",
                                        "recompute attention_values"}));
    EXPECT_TRUE(collectiveRolesIn(standard.window, StepPhase::Recompute).empty());
}

TEST(StepPlan, CollectivesInOrderWithTheirBytes) {
    const Workload workload = tinyTransformer();
    const StepPlan plan = buildStepPlan(workload, strategyOf(2, 2, 2, 1, true), DieSpec{});
    using R = CollectiveRole;
    EXPECT_EQ(
        collectiveRolesIn(plan.window, StepPhase::Forward),
        (std::vector<R>{R::FsdpWeightGather, R::SpKeyValueGather, R::TpAllReduce, R::TpAllReduce}));
    // Backward, in reverse: mlp_up and qkv (column-parallel with a weight) all-reduce their
    // input gradients; the K/V gradients are reduce-scattered after the first attention GEMM.
    EXPECT_EQ(collectiveRolesIn(plan.window, StepPhase::Backward),
              (std::vector<R>{R::FsdpWeightGather, R::TpAllReduce, R::SpKeyValueScatter,
                              R::TpAllReduce}));
    // FSDP: every micro-batch reduce-scatters over DP, then all-reduces the shard over SP.
    EXPECT_EQ(collectiveRolesIn(plan.window, StepPhase::GradientSync),
              (std::vector<R>{R::FsdpGradientScatter, R::GradientSync}));
    EXPECT_TRUE(plan.finalWindow.tasks.empty());

    // Bytes: a replica's 1024 tokens; a die of an SP x TP group holds 1024 / 2 of them.
    const double layerWeights = workload.model.parametersPerLayer() / 2 * 2; // / (tp tatp) x 2 B
    const PlannedCollective& gather = *collectiveOf(plan.window.tasks.front());
    EXPECT_TRUE(gather.async);
    EXPECT_EQ(gather.group, GroupKind::DP);
    EXPECT_EQ(gather.op, OpKind::AllGather);
    EXPECT_EQ(gather.algorithm, Algorithm::Ring);
    EXPECT_EQ(gather.bytes, layerWeights);
    std::vector<const PlannedCollective*> sync;
    for (const PlannedTask& task : plan.window.tasks)
        if (task.layer == 0 && task.phase == StepPhase::GradientSync)
            sync.push_back(collectiveOf(task));
    ASSERT_EQ(sync.size(), 2u);
    EXPECT_EQ(sync[0]->op, OpKind::ReduceScatter);
    EXPECT_EQ(sync[0]->group, GroupKind::DP);
    EXPECT_EQ(sync[0]->bytes, layerWeights);
    EXPECT_EQ(sync[1]->op, OpKind::AllReduce);
    EXPECT_EQ(sync[1]->group, GroupKind::SP);
    EXPECT_EQ(sync[1]->bytes, layerWeights / 2); // the die's DP shard
    for (const PlannedTask& task : plan.window.tasks) {
        const PlannedCollective* c = collectiveOf(task);
        if (!c || c->role == R::FsdpWeightGather || c->role == R::FsdpGradientScatter ||
            c->role == R::GradientSync)
            continue;
        EXPECT_FALSE(c->async);
        if (c->role == R::TpAllReduce) {
            EXPECT_EQ(c->group, GroupKind::TP);
            EXPECT_EQ(c->bytes, 512.0 * 512 * 2); // tokens per die x h x 2 B
        } else { // K and V of all the replica's tokens, this die's TP share of the heads
            EXPECT_EQ(c->group, GroupKind::SP);
            EXPECT_EQ(c->bytes, 1024.0 * 2 * 512 / 2 * 2);
        }
    }
}

// docs/training-model.md "How a step is simulated": layer l + 1's gather is issued when layer l's
// forward starts (after l's gather), the backward gathers run in reverse, and each layer's first
// task waits for its own.
TEST(StepPlan, FsdpPrefetchesOneLayerAheadBothWays) {
    const StepPlan plan =
        buildStepPlan(fourLayerTransformer(), strategyOf(2, 1, 1, 1, true), DieSpec{});
    ASSERT_EQ(plan.windowLayers, 3);
    EXPECT_EQ(plan.steadyLayer(), 1);
    struct Gather {
        int index;
        int layer;
        int after;
        StepPhase phase;
    };
    std::vector<Gather> gathers;
    for (std::size_t i = 0; i < plan.window.tasks.size(); ++i) {
        const PlannedTask& task = plan.window.tasks[i];
        if (const PlannedCollective* c = collectiveOf(task);
            c && c->role == CollectiveRole::FsdpWeightGather) {
            EXPECT_TRUE(c->async);
            gathers.push_back({static_cast<int>(i), task.layer, task.waitsFor, task.phase});
        }
    }
    ASSERT_EQ(gathers.size(), 6u);
    const int forwardLayers[] = {0, 1, 2};
    const int backwardLayers[] = {2, 1, 0};
    for (int g = 0; g < 3; ++g) {
        EXPECT_EQ(gathers[g].layer, forwardLayers[g]);
        EXPECT_EQ(gathers[g].phase, StepPhase::Forward);
        EXPECT_EQ(gathers[3 + g].layer, backwardLayers[g]);
        EXPECT_EQ(gathers[3 + g].phase, StepPhase::Backward);
        // Each after the one before it (the first of each pass after the die's previous task).
        EXPECT_EQ(gathers[g].after, g == 0 ? -1 : gathers[g - 1].index);
        EXPECT_EQ(gathers[3 + g].after, g == 0 ? -1 : gathers[3 + g - 1].index);
    }
    // Every synchronous task that waits waits for its own layer's gather, in the same pass.
    int waiting = 0;
    for (const PlannedTask& task : plan.window.tasks) {
        if (task.waitsFor < 0 || (collectiveOf(task) && collectiveOf(task)->async))
            continue;
        ++waiting;
        const PlannedTask& gather = plan.window.tasks[static_cast<std::size_t>(task.waitsFor)];
        EXPECT_EQ(gather.layer, task.layer);
    }
    EXPECT_EQ(waiting, 6);
    // The gradient reduce-scatters: one per layer, per micro-batch (every window).
    EXPECT_EQ(collectiveRolesIn(plan.window, StepPhase::GradientSync, 1),
              (std::vector<CollectiveRole>{CollectiveRole::FsdpGradientScatter}));
}

// docs/training-model.md "How a step is simulated": gradients of replicated weights are reduced
// over DP x SP; without FSDP only the last micro-batch does it, in a window of its own.
TEST(StepPlan, ReplicatedGradientsAllReduceOverEveryReplicaInTheLastMicroBatch) {
    StrategySpec strategy = strategyOf(1, 4, 1, 1);
    strategy.microBatches = 2;
    const StepPlan plan = buildStepPlan(tinyTransformer(), strategy, DieSpec{});
    EXPECT_TRUE(collectiveRolesIn(plan.window, StepPhase::GradientSync).empty());
    ASSERT_EQ(collectiveRolesIn(plan.finalWindow, StepPhase::GradientSync).size(), 1u);
    EXPECT_EQ(plan.windowRuns(), 1.0);
    for (const PlannedTask& task : plan.finalWindow.tasks)
        if (task.phase == StepPhase::GradientSync) {
            const PlannedCollective& sync = *collectiveOf(task);
            EXPECT_EQ(sync.group, GroupKind::Replica);
            EXPECT_EQ(sync.op, OpKind::AllReduce);
            EXPECT_TRUE(sync.async);
            EXPECT_EQ(sync.bytes, tinyTransformer().model.parametersPerLayer() * 2);
        }
}

TEST(StepPlan, ExpertsDispatchBeforeTheFirstExpertAndCombineAfterTheLast) {
    const StepPlan plan = buildStepPlan(tinyMixtureOfExperts(), strategyOf(2, 1, 1, 1), DieSpec{});
    std::vector<std::string> forward;
    for (const PlannedTask& task : plan.window.tasks) {
        if (task.phase != StepPhase::Forward || task.layer != 0 ||
            std::holds_alternative<PlannedBarrier>(task.work))
            continue;
        if (const PlannedGemm* gemm = gemmOf(task))
            forward.push_back(gemm->label());
        else if (const PlannedElementwise* work = elementwiseOf(task))
            forward.push_back(work->label());
        else
            forward.push_back(collectiveOf(task)->label);
    }
    // The memory-bound work sits where a pre-norm layer runs it (docs/compute-model.md).
    EXPECT_EQ(forward, (std::vector<std::string>{
                           "fwd norm", "fwd qkv", "fwd attention_scores", "fwd attention_values",
                           "fwd output_projection", "fwd residual", "fwd norm", "fwd router",
                           "fwd moe dispatch", "fwd mlp_up", "fwd activation", "fwd mlp_down",
                           "fwd moe combine", "fwd residual"}));
    // Each of a die's 1024 / 1 tokens visits 2 experts: 1024 x 2 x h x 2 B each way.
    for (const PlannedTask& task : plan.window.tasks)
        if (const PlannedCollective* c = collectiveOf(task);
            c && c->role != CollectiveRole::GradientSync) {
            EXPECT_EQ(c->op, OpKind::AllToAll);
            EXPECT_EQ(c->bytes, 1024.0 * 2 * 512 * 2);
        }
    // The experts see twice the tokens: mlp_up's M is 2048.
    EXPECT_EQ(gemmsIn(plan.window, StepPhase::Forward)[5]->mLocal, 2048);
}

// The window of three layers: barriers end at 1, 3, 6 (forward of layers 0, 1, 2) and 10, 15,
// 21 (backward of layers 2, 1, 0), the window at 22. The steady layer 1 takes (3 - 1) +
// (15 - 10) = 7; four layers take 22 + (4 - 3) x 7 = 29 per micro-batch.
TEST(StepPlan, StepSecondsScalesTheWindowToLayersAndMicroBatches) {
    StrategySpec strategy = strategyOf(1, 1, 1, 1);
    strategy.microBatches = 4;
    const StepPlan plan = buildStepPlan(fourLayerTransformer(), strategy, DieSpec{});
    EXPECT_EQ(plan.layers, 4);
    EXPECT_EQ(plan.microBatches, 4);
    EXPECT_EQ(plan.windowLayers, 3);
    const WindowTiming window{{1.0, 3.0, 6.0, 10.0, 15.0, 21.0}, 22.0};
    EXPECT_EQ(window.steadyLayerS(plan), 7.0);
    EXPECT_EQ(window.exposedSyncS(), 1.0);
    EXPECT_EQ(window.allLayersS(plan), 29.0);
    // 4 x (29 + 2) + 5: the optimizer update runs once per step.
    EXPECT_EQ(stepSeconds(plan, window, {}, 2.0, 5.0), 129.0);
    // The steady layer's work happens (4 - 3 + 1) times per window, the others once.
    EXPECT_EQ(plan.layerRepetitions(1), 2.0);
    EXPECT_EQ(plan.layerRepetitions(0), 1.0);
    EXPECT_EQ(plan.layerRepetitions(-1), 1.0);
}

TEST(StepPlan, GemmWorkloadIsOneForwardGemm) {
    Workload workload;
    workload.kind = WorkloadKind::Gemm;
    workload.gemm = {4096, 1024, 2048};
    const StepPlan plan = buildStepPlan(workload, strategyOf(2, 1, 2, 1, true), DieSpec{});
    ASSERT_EQ(plan.window.tasks.size(), 2u);
    EXPECT_EQ(collectiveOf(plan.window.tasks[0])->bytes, 1024.0 * 2048 / 2 * 2);
    EXPECT_EQ(plan.window.tasks[1].waitsFor, 0); // the GEMM waits for its weights
    const PlannedGemm& linear = *gemmOf(plan.window.tasks[1]);
    EXPECT_EQ(linear.mLocal, 2048);
    EXPECT_EQ(linear.nLocal, 1024);
    EXPECT_EQ(linear.dieFlops, 2.0 * 2048 * 1024 * 1024);
    EXPECT_TRUE(plan.head.tasks.empty());
    EXPECT_EQ(plan.modelFlopsPerStep, 2.0 * 4096 * 1024 * 2048);
}

// The simulator's graph is the plan interpreted: every die the strategy uses computes every
// planned GEMM's die FLOPs, and every planned collective runs once per group with its role.
TEST(StepPlan, TheSimulatorsGraphRunsExactlyThePlan) {
    for (const StrategySpec& strategy :
         {strategyOf(2, 1, 2, 2, true), strategyOf(1, 2, 1, 4), strategyOf(4, 1, 2, 1),
          withSequenceParallelism(strategyOf(2, 1, 4, 1), Checkpointing::Full),
          withSequenceParallelism(strategyOf(1, 2, 2, 2), Checkpointing::Selective),
          withTpOverlap(withSequenceParallelism(strategyOf(2, 1, 4, 1)))}) {
        Scenario scenario;
        scenario.name = "plan";
        scenario.wafer.rows = 4;
        scenario.wafer.cols = 4;
        scenario.workload = parseWorkload(nlohmann::json{{"kind", "transformer"},
                                                         {"model",
                                                          {{"name", "tiny"},
                                                           {"layers", 2},
                                                           {"hidden", 512},
                                                           {"heads", 8},
                                                           {"ffn_hidden", 2048},
                                                           {"vocab", 4096}}},
                                                         {"seq_len", 256},
                                                         {"global_batch", 8}},
                                          {});
        scenario.strategy = strategy;
        scenario.wafer.die.sram = {1e6, "1 MB"}; // too small: every task moves its HBM bytes
        const WaferTopology topology(scenario.wafer.topologySpec());
        const TrainingStep step = buildTrainingStep(scenario, topology);
        ASSERT_FALSE(step.plan.sramResident);

        const auto dies = static_cast<double>(step.placement.usedDies().size());
        double plannedFlops = 0.0;
        double plannedHbmBytes = 0.0;
        std::map<CollectiveRole, int> plannedCollectives;
        for (const StepSection* section :
             {&step.plan.window, &step.plan.finalWindow, &step.plan.head})
            for (const PlannedTask& task : section->tasks) {
                if (std::holds_alternative<PlannedBarrier>(task.work))
                    continue;
                if (const PlannedGemm* gemm = gemmOf(task)) {
                    plannedFlops += gemm->dieFlops * dies;
                    plannedHbmBytes +=
                        (gemm->firstHbmBytes + (gemm->rounds - 1) * gemm->roundHbmBytes) * dies;
                } else if (const PlannedElementwise* work = elementwiseOf(task)) {
                    plannedHbmBytes += work->hbmBytes * dies;
                } else {
                    plannedCollectives[collectiveOf(task)->role] +=
                        static_cast<int>(step.placement.groups(collectiveOf(task)->group).size());
                }
            }
        double graphFlops = 0.0;
        double graphHbmBytes = 0.0;
        std::map<CollectiveRole, int> graphCollectives;
        for (const StepTaskInfo& info : step.graph.info()) {
            if (info.kind == StepTaskInfo::Kind::Compute) {
                graphFlops += info.flops;
                graphHbmBytes += info.hbmBytes;
            }
            if (info.kind == StepTaskInfo::Kind::Barrier && info.role)
                ++graphCollectives[*info.role];
        }
        EXPECT_DOUBLE_EQ(graphFlops, plannedFlops);
        EXPECT_GT(plannedHbmBytes, 0.0);
        EXPECT_DOUBLE_EQ(graphHbmBytes, plannedHbmBytes);
        EXPECT_EQ(graphCollectives, plannedCollectives);
    }
}

} // namespace
} // namespace ws
