#include "io/workload_reader.h"
#include "step/step_plan.h"
#include "step/training_step.h"

#include <gtest/gtest.h>

#include <map>
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

std::vector<const PlannedGemm*> gemmsIn(const StepSection& section, StepPhase phase) {
    std::vector<const PlannedGemm*> gemms;
    for (const PlannedTask& task : section.tasks)
        if (task.phase == phase && gemmOf(task))
            gemms.push_back(gemmOf(task));
    return gemms;
}

std::vector<CollectiveRole> collectiveRolesIn(const StepSection& section, StepPhase phase) {
    std::vector<CollectiveRole> roles;
    for (const PlannedTask& task : section.tasks)
        if (task.phase == phase && collectiveOf(task))
            roles.push_back(collectiveOf(task)->role);
    return roles;
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
    const auto forward = gemmsIn(plan.layer, StepPhase::Forward);
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
    const auto head = gemmsIn(plan.head, StepPhase::Head);
    ASSERT_EQ(head.size(), 3u);
    EXPECT_EQ(head[0]->label(), "head fwd lm_head");
    EXPECT_EQ(head[0]->nLocal, 2048);
    EXPECT_EQ(head[2]->label(), "head bwd dW lm_head");

    EXPECT_EQ(plan.largestStreamedBlockBytes, 1024.0 / 2 * 512 * 2); // lm_head's input block
}

TEST(StepPlan, BackwardRunsTwoGemmsPerForwardGemmInReverse) {
    const StepPlan plan = buildStepPlan(tinyTransformer(), strategyOf(1, 1, 1, 1), DieSpec{});
    const auto forward = gemmsIn(plan.layer, StepPhase::Forward);
    const auto backward = gemmsIn(plan.layer, StepPhase::Backward);
    ASSERT_EQ(backward.size(), 2 * forward.size());
    for (std::size_t i = 0; i < forward.size(); ++i) {
        const PlannedGemm& original = *forward[forward.size() - 1 - i];
        EXPECT_EQ(backward[2 * i]->role, original.role);
        EXPECT_EQ(backward[2 * i + 1]->role, original.role);
        EXPECT_EQ(backward[2 * i]->dieFlops, original.dieFlops);
    }
    EXPECT_TRUE(gemmsIn(plan.layer, StepPhase::Recompute).empty());
    EXPECT_TRUE(plan.sync.tasks.empty()); // one die: nothing to synchronise
}

TEST(StepPlan, CheckpointingRecomputesTheForwardPassWithoutCommunicating) {
    StrategySpec strategy = strategyOf(1, 2, 2, 1);
    strategy.activationCheckpointing = true;
    const StepPlan plan = buildStepPlan(tinyTransformer(), strategy, DieSpec{});
    EXPECT_EQ(gemmsIn(plan.layer, StepPhase::Recompute).size(),
              gemmsIn(plan.layer, StepPhase::Forward).size());
    EXPECT_TRUE(collectiveRolesIn(plan.layer, StepPhase::Recompute).empty());
    EXPECT_FALSE(collectiveRolesIn(plan.layer, StepPhase::Forward).empty());
}

TEST(StepPlan, CollectivesInOrderWithTheirBytes) {
    const Workload workload = tinyTransformer();
    const StepPlan plan = buildStepPlan(workload, strategyOf(2, 2, 2, 1, true), DieSpec{});
    using R = CollectiveRole;
    EXPECT_EQ(
        collectiveRolesIn(plan.layer, StepPhase::Forward),
        (std::vector<R>{R::FsdpWeightGather, R::SpKeyValueGather, R::TpAllReduce, R::TpAllReduce}));
    // Backward, in reverse: mlp_up and qkv (column-parallel with a weight) all-reduce their
    // input gradients; the K/V gradients are reduce-scattered after the first attention GEMM.
    EXPECT_EQ(collectiveRolesIn(plan.layer, StepPhase::Backward),
              (std::vector<R>{R::FsdpWeightGather, R::TpAllReduce, R::SpKeyValueScatter,
                              R::TpAllReduce}));
    ASSERT_EQ(plan.sync.tasks.size(), 1u);

    // Bytes: a replica's 1024 tokens; a die of an SP x TP group holds 1024 / 2 of them.
    const double layerWeights = workload.model.parametersPerLayer() / 2 * 2; // / (tp tatp) x 2 B
    const PlannedCollective& gather = *collectiveOf(plan.layer.tasks.front());
    EXPECT_TRUE(gather.prefetch);
    EXPECT_EQ(gather.group, GroupKind::DP);
    EXPECT_EQ(gather.op, OpKind::AllGather);
    EXPECT_EQ(gather.algorithm, Algorithm::Ring);
    EXPECT_EQ(gather.bytes, layerWeights);
    const PlannedCollective& sync = *collectiveOf(plan.sync.tasks.front());
    EXPECT_EQ(sync.op, OpKind::ReduceScatter); // FSDP
    EXPECT_EQ(sync.bytes, layerWeights);
    EXPECT_FALSE(sync.prefetch);
    for (const PlannedTask& task : plan.layer.tasks) {
        const PlannedCollective* c = collectiveOf(task);
        if (!c || c->role == R::FsdpWeightGather)
            continue;
        EXPECT_FALSE(c->prefetch);
        if (c->role == R::TpAllReduce) {
            EXPECT_EQ(c->group, GroupKind::TP);
            EXPECT_EQ(c->bytes, 512.0 * 512 * 2); // tokens per die x h x 2 B
        } else { // K and V of all the replica's tokens, this die's TP share of the heads
            EXPECT_EQ(c->group, GroupKind::SP);
            EXPECT_EQ(c->bytes, 1024.0 * 2 * 512 / 2 * 2);
        }
    }
}

TEST(StepPlan, MulticastGathersAndReplicatedGradientsAllReduce) {
    StrategySpec strategy = strategyOf(4, 1, 1, 1, true);
    strategy.fsdpAllGatherMulticast = true;
    const StepPlan sharded = buildStepPlan(tinyTransformer(), strategy, DieSpec{});
    EXPECT_EQ(collectiveOf(sharded.layer.tasks.front())->algorithm, Algorithm::Multicast);
    strategy.fsdp = false;
    const StepPlan replicated = buildStepPlan(tinyTransformer(), strategy, DieSpec{});
    EXPECT_TRUE(collectiveRolesIn(replicated.layer, StepPhase::Forward).empty());
    EXPECT_EQ(collectiveOf(replicated.sync.tasks.front())->op, OpKind::AllReduce);
}

TEST(StepPlan, ExpertsDispatchBeforeTheFirstExpertAndCombineAfterTheLast) {
    const StepPlan plan = buildStepPlan(tinyMixtureOfExperts(), strategyOf(2, 1, 1, 1), DieSpec{});
    std::vector<std::string> forward;
    for (const PlannedTask& task : plan.layer.tasks) {
        if (task.phase != StepPhase::Forward)
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
    for (const PlannedTask& task : plan.layer.tasks)
        if (const PlannedCollective* c = collectiveOf(task);
            c && c->role != CollectiveRole::GradientSync) {
            EXPECT_EQ(c->op, OpKind::AllToAll);
            EXPECT_EQ(c->bytes, 1024.0 * 2 * 512 * 2);
        }
    // The experts see twice the tokens: mlp_up's M is 2048.
    EXPECT_EQ(gemmsIn(plan.layer, StepPhase::Forward)[5]->mLocal, 2048);
}

TEST(StepPlan, StepSecondsScalesLayersAndMicroBatches) {
    StrategySpec strategy = strategyOf(1, 1, 1, 1);
    strategy.microBatches = 4;
    const StepPlan plan = buildStepPlan(tinyTransformer(), strategy, DieSpec{});
    EXPECT_EQ(plan.layers, 2);
    EXPECT_EQ(plan.microBatches, 4);
    // 4 x (2 x 1 + 2) + 2 x 3 + 5: the optimizer update runs once per step
    EXPECT_EQ(plan.stepSeconds(1.0, 2.0, 3.0, 5.0), 27.0);
}

TEST(StepPlan, GemmWorkloadIsOneForwardGemm) {
    Workload workload;
    workload.kind = WorkloadKind::Gemm;
    workload.gemm = {4096, 1024, 2048};
    const StepPlan plan = buildStepPlan(workload, strategyOf(2, 1, 2, 1, true), DieSpec{});
    ASSERT_EQ(plan.layer.tasks.size(), 2u);
    EXPECT_EQ(collectiveOf(plan.layer.tasks[0])->bytes, 1024.0 * 2048 / 2 * 2);
    const PlannedGemm& linear = *gemmOf(plan.layer.tasks[1]);
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
         {strategyOf(2, 1, 2, 2, true), strategyOf(1, 2, 1, 4), strategyOf(4, 1, 2, 1)}) {
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
        const double tatp = strategy.tatp;
        double plannedFlops = 0.0;
        double plannedHbmBytes = 0.0;
        std::map<CollectiveRole, int> plannedCollectives;
        for (const StepSection* section : {&step.plan.layer, &step.plan.head, &step.plan.sync})
            for (const PlannedTask& task : section->tasks) {
                if (const PlannedGemm* gemm = gemmOf(task)) {
                    plannedFlops += gemm->dieFlops * dies;
                    plannedHbmBytes +=
                        (gemm->firstHbmBytes + (tatp - 1) * gemm->roundHbmBytes) * dies;
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
