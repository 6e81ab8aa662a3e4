#include "io/environment_overrides.h"
#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "report/step_report.h"
#include "sim/fluid_simulator.h"
#include "step/memory_model.h"
#include "step/training_step.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ws {
namespace {

Scenario scenarioWith(int rows, int cols, const nlohmann::json& workload,
                      const nlohmann::json& strategy) {
    Scenario scenario;
    scenario.name = "test";
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    scenario.workload = parseWorkload(workload, {});
    scenario.strategy = parseStrategy(strategy);
    // The step's closed forms below count compute at the array's peak: no task overhead, no
    // tile losses (compute_model_test.cpp checks those terms).
    scenario.wafer.die.taskOverhead = {0.0, "0 s"};
    scenario.wafer.die.gemmTile = 1;
    return scenario;
}

nlohmann::json gpt3(const char* model, long long seqLen, long long batch) {
    return {
        {"kind", "transformer"}, {"model", model}, {"seq_len", seqLen}, {"global_batch", batch}};
}

// Activation memory per die (Korthikanti et al.): TATP splits every activation by tokens;
// Megatron TP replicates the 10 s b h bytes of layer-norm and dropout inputs on every die.
TEST(MemoryModel, TatpKeepsLessActivationMemoryThanMegatronTp) {
    Workload workload = parseWorkload(gpt3("gpt3-6.7b", 2048, 8), {});
    StrategySpec tatp;
    tatp.tatp = 8;
    StrategySpec tp;
    tp.tp = 8;
    const DieSpec die;
    workload.attention = AttentionKind::Standard; // keeps the 5 a s / h term
    const MemoryBreakdown withTatp = estimateMemory(workload, tatp, die, 0.0);
    const MemoryBreakdown withTp = estimateMemory(workload, tp, die, 0.0);

    // s = 2048, b = 8, h = 4096, a = 32, 32 layers, 2-byte values.
    const double sbh = 2048.0 * 8 * 4096;
    const double attention = 5.0 * 32 * 2048 / 4096; // 5 a s / h = 80
    EXPECT_NEAR(withTatp.activations, 32 * sbh * (34 + attention) / 8, 1.0);
    EXPECT_NEAR(withTp.activations, 32 * sbh * (10 + 24.0 / 8 + attention / 8), 1.0);
    EXPECT_NEAR(withTp.activations - withTatp.activations, 32 * sbh * (10 - 10.0 / 8), 1.0);

    // Both split the weights the same way: (layers * per-layer + embedding) / 8, 2 bytes each.
    const double parameters = workload.model.layers * workload.model.parametersPerLayer() +
                              workload.model.embeddingParameters();
    EXPECT_NEAR(withTatp.weights, parameters / 8 * 2, 1.0);
    EXPECT_DOUBLE_EQ(withTatp.weights, withTp.weights);
    EXPECT_NEAR(withTatp.optimizer, parameters / 8 * 12, 1.0);
    EXPECT_NEAR(withTatp.commReserve, 8e6, 1e-6); // 10% of 80 MB

    // Flash attention keeps no s x s scores: only the 34 s b h term is left.
    workload.attention = AttentionKind::Flash;
    EXPECT_NEAR(estimateMemory(workload, tatp, die, 0.0).activations, 32 * sbh * 34 / 8, 1.0);
    EXPECT_NEAR(estimateMemory(workload, tp, die, 0.0).activations, 32 * sbh * (10 + 24.0 / 8),
                1.0);
}

// The reserve is die.sram_reserve of SRAM: usable SRAM = sram * (1 - sram_reserve).
TEST(MemoryModel, SramReserveIsTheDiesFraction) {
    const Workload workload = parseWorkload(gpt3("gpt3-6.7b", 2048, 8), {});
    DieSpec die;
    die.sramReserve = 0.25;
    EXPECT_DOUBLE_EQ(estimateMemory(workload, StrategySpec{}, die, 0.0).commReserve, 20e6);
}

// Llama 2 7B at 4k tokens, one sequence on one die: flash attention keeps 34 s b h bytes per
// layer (18.3 GB); standard attention keeps its s x s scores too (5 a s / h more per s b h).
TEST(MemoryModel, FlashAttentionDropsTheScoresOfLlama2At4k) {
    Workload workload = parseWorkload(gpt3("llama2-7b", 4096, 1), {});
    const double sbh = 4096.0 * 4096;
    const double flash = estimateMemory(workload, StrategySpec{}, DieSpec{}, 0.0).activations;
    EXPECT_NEAR(flash, 32 * sbh * 34, 1.0); // 32 layers x 34 s b h x 2 bytes / 2
    EXPECT_NEAR(flash / 1e9, 18.3, 0.05);
    workload.attention = AttentionKind::Standard;
    const double standard = estimateMemory(workload, StrategySpec{}, DieSpec{}, 0.0).activations;
    EXPECT_NEAR(standard - flash, 32 * sbh * 5.0 * 32 * 4096 / 4096, 1.0); // 5 a s / h = 160
}

TEST(MemoryModel, FsdpShardsStateAndCheckpointingKeepsLayerInputs) {
    Workload workload = parseWorkload(gpt3("gpt3-6.7b", 2048, 8), {});
    StrategySpec plain;
    plain.dp = 4;
    StrategySpec sharded = plain;
    sharded.fsdp = true;
    sharded.activationCheckpointing = Checkpointing::Full;
    workload.attention = AttentionKind::Standard; // keeps the 5 a s / h term
    const MemoryBreakdown a = estimateMemory(workload, plain, DieSpec{}, 0.0);
    const MemoryBreakdown b = estimateMemory(workload, sharded, DieSpec{}, 0.0);
    EXPECT_NEAR(b.optimizer, a.optimizer / 4, 1.0);
    EXPECT_NEAR(b.gradients, a.gradients / 4, 1.0);
    // Weights: a quarter at rest plus the gathered copies of the layer running and of the next
    // one, prefetched.
    EXPECT_NEAR(b.weights, a.weights / 4 + 2 * workload.model.parametersPerLayer() * 2, 1.0);
    // Checkpointing: each layer's input (2 s b h) plus one layer's full activations.
    const double sbh = 2048.0 * 2 * 4096; // b = 8 / dp
    EXPECT_NEAR(b.activations, 32 * 2 * sbh + sbh * (34 + 5.0 * 32 * 2048 / 4096), 1.0);
}

// Korthikanti et al., Table 2, for GPT-3 6.7B with tp 8 and standard attention: s = 2048,
// b = 8, h = 4096, a = 32, so s b h = 67,108,864 and 5 a s / (h t) = 10. Per layer, in s b h:
// 10 + 24/8 + 10 = 23 without sequence parallelism, 34/8 + 10 = 14.25 with it; selective
// recomputation drops the 10 of the scores (13, or 4.25 with sequence parallelism).
TEST(MemoryModel, SequenceParallelismAndSelectiveRecomputationByHand) {
    Workload workload = parseWorkload(gpt3("gpt3-6.7b", 2048, 8), {});
    workload.attention = AttentionKind::Standard;
    StrategySpec tp;
    tp.tp = 8;
    StrategySpec sequenceParallel = tp;
    sequenceParallel.sequenceParallel = true;
    const auto activations = [&](StrategySpec strategy, Checkpointing checkpointing) {
        strategy.activationCheckpointing = checkpointing;
        return estimateMemory(workload, strategy, DieSpec{}, 0.0).activations;
    };
    // 32 layers of 23, 14.25, 13 and 4.25 s b h.
    EXPECT_NEAR(activations(tp, Checkpointing::None), 49'392'123'904.0, 1.0);
    EXPECT_NEAR(activations(sequenceParallel, Checkpointing::None), 30'601'641'984.0, 1.0);
    EXPECT_NEAR(activations(tp, Checkpointing::Selective), 27'917'287'424.0, 1.0);
    EXPECT_NEAR(activations(sequenceParallel, Checkpointing::Selective), 9'126'805'504.0, 1.0);
    // Full: each layer's input, 2 s b h / 8 with sequence parallelism, plus one layer's 14.25.
    EXPECT_NEAR(activations(sequenceParallel, Checkpointing::Full), 1'493'172'224.0, 1.0);
    // Flash attention keeps no scores: selective recomputation then saves nothing.
    workload.attention = AttentionKind::Flash;
    EXPECT_NEAR(activations(tp, Checkpointing::Selective), 27'917'287'424.0, 1.0);
    EXPECT_EQ(activations(tp, Checkpointing::Selective), activations(tp, Checkpointing::None));
    // The weights do not change.
    EXPECT_EQ(estimateMemory(workload, sequenceParallel, DieSpec{}, 0.0).weights,
              estimateMemory(workload, tp, DieSpec{}, 0.0).weights);
}

TEST(MemoryModel, OutOfMemoryNamesTheDominantTerm) {
    Workload workload = parseWorkload(gpt3("gpt3-175b", 2048, 16), {});
    StrategySpec dpOnly;
    dpOnly.dp = 16;
    const MemoryBreakdown memory = estimateMemory(workload, dpOnly, DieSpec{}, 0.0);
    EXPECT_TRUE(memory.outOfMemory()); // 175 B parameters x 16 bytes on every die
    EXPECT_EQ(memory.dominantTerm(), "optimizer");
}

// A gemm workload on a line of 4 dies streamed by TATP, compute-bound: every die computes its
// 4 blocks back to back, so the forward pass takes exactly 4 block times.
TEST(TrainingStep, GemmStreamOnALineIsComputeBound) {
    const Scenario scenario = scenarioWith(
        1, 4, {{"kind", "gemm"}, {"m", 4096}, {"k", 4096}, {"n", 4096}}, {{"tatp", 4}});
    const WaferTopology topology(scenario.wafer.topologySpec());
    const TrainingStep step = buildTrainingStep(scenario, topology);
    const SimResult result = simulate(step.graph.problem());
    const double blockSeconds = 2.0 * 1024 * 4096 * 1024 / 1e15;
    const double blockBytes = 1024.0 * 4096 * 2;         // W block = I block
    ASSERT_GT(blockSeconds, blockBytes / 4e12 + 200e-9); // compute covers one hop
    EXPECT_NEAR(result.makespanS, 4 * blockSeconds, 4 * blockSeconds * 1e-9);
    const StepTiming timing = stepTiming(step, result);
    EXPECT_DOUBLE_EQ(timing.stepS, result.makespanS);
    EXPECT_DOUBLE_EQ(step.plan.modelFlopsPerStep, 2.0 * 4096 * 4096 * 4096);
    // n(n-1) one-hop transfers.
    int transfers = 0;
    for (const Flow& flow : step.graph.flows()) {
        ++transfers;
        EXPECT_EQ(flow.route.hops, 1);
    }
    EXPECT_EQ(transfers, 12);
}

TEST(TrainingStep, TransformerStepScalesTheSimulatedWindow) {
    const Scenario scenario = scenarioWith(
        4, 4, gpt3("gpt3-6.7b", 2048, 8),
        {{"dp", 2}, {"tatp", 8}, {"fsdp", true}, {"mapping", "snake"}, {"micro_batches", 2}});
    const WaferTopology topology(scenario.wafer.topologySpec());
    const TrainingStep step = buildTrainingStep(scenario, topology);
    const SimResult result = simulate(step.graph.problem());
    const StepTiming timing = stepTiming(step, result);
    ASSERT_EQ(step.plan.windowLayers, 3);
    ASSERT_EQ(timing.window.barrierEndS.size(), 6u);
    ASSERT_GT(timing.layerS, 0.0);
    ASSERT_GT(timing.headS, 0.0);
    ASSERT_GT(timing.syncS, 0.0);      // the last layer's FSDP reduce-scatter, after backward
    ASSERT_GT(timing.optimizerS, 0.0); // the update reads and writes every parameter shard
    // Every micro-batch runs the window (FSDP reduces per micro-batch), its steady layer
    // standing for the 32 - 3 layers not simulated.
    EXPECT_TRUE(step.plan.finalWindow.tasks.empty());
    EXPECT_NEAR(timing.stepS,
                2 * (timing.window.endS + 29 * timing.layerS + timing.headS) + timing.optimizerS,
                timing.stepS * 1e-12);
    // A layer cannot be faster than its compute: 3 forward-sized passes split over 16 dies.
    const double layerFlops = layerForwardFlops(step.workload.model, 2, 2048);
    EXPECT_GE(timing.layerS, 3 * layerFlops / 8 / 1e15 * (1 - 1e-9));

    // 6 N T-style model FLOPs: 3 x forward for all 8 sequences, plus the LM head.
    const double head = 2.0 * 8 * 2048 * 4096 * 50257;
    EXPECT_NEAR(step.plan.modelFlopsPerStep,
                3 * (32 * layerForwardFlops(step.workload.model, 8, 2048) + head),
                step.plan.modelFlopsPerStep * 1e-12);

    const SimulationReport report = buildStepReport(scenario, topology, step, result, {});
    ASSERT_TRUE(report.step.has_value());
    EXPECT_EQ(report.step->diesUsed, 16);
    EXPECT_NEAR(report.step->tokensPerSecond, 8 * 2048 / timing.stepS, 1e-6);
    EXPECT_GT(report.step->mfu, 0.0);
    EXPECT_LE(report.step->mfu, 1.0);
    // Every die reports its memory, its sub-tensors and timeline events with TATP rounds.
    for (const DieReport& die : report.dies) {
        ASSERT_TRUE(die.memory.has_value());
        EXPECT_FALSE(die.tensors.empty());
        bool sawRound7 = false;
        for (const DieEvent& event : die.events)
            sawRound7 = sawRound7 || (event.kind == DieEvent::Kind::Compute && event.round == 7);
        EXPECT_TRUE(sawRound7) << "die " << die.id;
    }
    EXPECT_EQ(report.rounds.size(), 7u); // transfers feed rounds 1 to 7
}

TEST(TrainingStep, InfeasibleStrategiesNameTheKey) {
    auto errorOf = [](int rows, int cols, const nlohmann::json& strategy) -> std::string {
        const Scenario scenario = scenarioWith(rows, cols, gpt3("gpt3-6.7b", 2048, 8), strategy);
        const WaferTopology topology(scenario.wafer.topologySpec());
        try {
            buildTrainingStep(scenario, topology);
        } catch (const ScenarioError& error) {
            return error.what();
        }
        return "no error";
    };
    EXPECT_NE(errorOf(4, 4, {{"tp", 5}}).find("strategy.tp"), std::string::npos);
    EXPECT_NE(errorOf(2, 2, {{"dp", 8}}).find("strategy"), std::string::npos);
    EXPECT_NE(errorOf(4, 4, {{"dp", 3}}).find("strategy.dp"), std::string::npos);
}

TEST(TrainingStep, ExplicitTrafficRunsAlongsideTheStep) {
    Scenario scenario = scenarioWith(
        1, 4, {{"kind", "gemm"}, {"m", 4096}, {"k", 4096}, {"n", 4096}}, {{"tatp", 4}});
    TrafficOp p2p;
    p2p.id = "extra";
    p2p.src = 0;
    p2p.dst = 3;
    p2p.bytes = Quantity{64e6, "64 MB"};
    scenario.traffic.push_back(p2p);
    const WaferTopology topology(scenario.wafer.topologySpec());
    const TrainingStep step = buildTrainingStep(scenario, topology);
    EXPECT_EQ(step.graph.flows().back().id, "extra");
    EXPECT_EQ(step.graph.flows().size(), 13u);
    const SimResult result = simulate(step.graph.problem());
    EXPECT_GT(result.linkBytes[static_cast<std::size_t>(*topology.linkBetween(1, 2))], 64e6);
}

TEST(TrainingStep, PinnedRoutesApplyToStepFlows) {
    Scenario scenario = scenarioWith(
        2, 2, {{"kind", "gemm"}, {"m", 4096}, {"k", 4096}, {"n", 4096}}, {{"tatp", 2}});
    const WaferTopology topology(scenario.wafer.topologySpec());
    const TrainingStep plain = buildTrainingStep(scenario, topology);
    std::size_t index = 0;
    while (plain.graph.flows()[index].route.path != std::vector<DieId>{0, 1})
        ++index;
    const Flow& first = plain.graph.flows()[index];

    // Pin the same transfer the long way round the 2x2: 0 -> 2 -> 3 -> 1.
    scenario.routing = RoutingSpec{};
    scenario.routing->paths[first.id].path = {0, 2, 3, 1};
    const TrainingStep pinned = buildTrainingStep(scenario, topology);
    EXPECT_EQ(pinned.graph.flows()[index].id, first.id);
    EXPECT_EQ(pinned.graph.flows()[index].route.path, (std::vector<DieId>{0, 2, 3, 1}));
    EXPECT_EQ(pinned.graph.flows()[index].route.hops, 3);

    scenario.routing->paths[first.id].path = {0, 3};
    EXPECT_THROW(buildTrainingStep(scenario, topology), ScenarioError);
    scenario.routing->paths.clear();
    scenario.routing->paths["no such flow"].path = {0, 1};
    try {
        buildTrainingStep(scenario, topology);
        FAIL() << "a pin naming no flow must be refused";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "routing.paths.no such flow");
    }
}

TEST(TrainingStep, FsdpAllGatherAlgorithmFollowsTheStrategy) {
    auto multicastFlows = [](const nlohmann::json& strategy, std::optional<Algorithm> override) {
        Scenario scenario = scenarioWith(2, 2, gpt3("gpt3-6.7b", 2048, 4), strategy);
        EnvironmentOverrides overrides;
        overrides.fsdpAllGather = override;
        applyEnvironmentOverrides(overrides, scenario);
        const WaferTopology topology(scenario.wafer.topologySpec());
        const TrainingStep step = buildTrainingStep(scenario, topology);
        int count = 0;
        for (const Flow& flow : step.graph.flows())
            count += flow.multicast ? 1 : 0;
        return count;
    };
    const nlohmann::json ring = {{"dp", 4}, {"fsdp", true}};
    nlohmann::json multicast = ring;
    multicast["fsdp_allgather"] = "multicast";
    EXPECT_EQ(multicastFlows(ring, std::nullopt), 0);
    // The window's three layers each gather forward and backward: one tree per rank each.
    EXPECT_EQ(multicastFlows(multicast, std::nullopt), 24);
    EXPECT_EQ(multicastFlows(ring, Algorithm::Multicast), 24); // FSDP_ALLGATHER=multicast
    EXPECT_EQ(multicastFlows(multicast, Algorithm::Ring), 0);  // FSDP_ALLGATHER=ring wins too
}

// strategy.fsdp_reducescatter "tree": each FSDP gradient reduce-scatter is one reduction tree
// into every rank (docs/training-model.md), which the strategy writer keeps and the reader
// checks; the step's reports give the tree's contributors as senders and its root as receiver.
TEST(TrainingStep, FsdpReduceScatterAlgorithmFollowsTheStrategy) {
    const nlohmann::json ring = {{"dp", 4}, {"fsdp", true}};
    nlohmann::json tree = ring;
    tree["fsdp_reducescatter"] = "tree";
    auto reductions = [](const nlohmann::json& strategy) {
        const Scenario scenario = scenarioWith(2, 2, gpt3("gpt3-6.7b", 2048, 4), strategy);
        const WaferTopology topology(scenario.wafer.topologySpec());
        const TrainingStep step = buildTrainingStep(scenario, topology);
        int count = 0;
        for (const Flow& flow : step.graph.flows()) {
            if (!flow.reduction)
                continue;
            ++count;
            EXPECT_EQ(flow.route.hops, 2); // the far corner of a 2x2 mesh
            EXPECT_EQ(flow.route.links.size(), 3u);
            for (const auto& [from, to] : flow.route.edges)
                EXPECT_NE(from, flow.src); // edges point toward the root
        }
        return count;
    };
    EXPECT_EQ(reductions(ring), 0);
    EXPECT_EQ(reductions(tree), 12); // three layers' gradients, one tree into each of 4 ranks
    const StrategySpec spec = parseStrategy(tree);
    EXPECT_TRUE(spec.fsdpReduceScatterTree);
    EXPECT_EQ(toOrderedJson(spec)["fsdp_reducescatter"].get<std::string>(), "tree");
    EXPECT_FALSE(toOrderedJson(parseStrategy(ring)).contains("fsdp_reducescatter"));
    nlohmann::json bad = ring;
    bad["fsdp_reducescatter"] = "multicast";
    try {
        parseStrategy(bad);
        FAIL() << "an unknown algorithm must be refused";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "strategy.fsdp_reducescatter");
    }
}

// TCME builds steps without task labels (TaskLabels::Skipped): the problem, the flows (ids
// included) and every task's kind, phase and round are those of a labelled build; most labels
// are left empty. The labelled build is the one reports and timelines read.
TEST(TrainingStep, SkippingTaskLabelsChangesNothingElse) {
    Scenario scenario =
        loadScenario(std::string(WAFERSCOPE_SCENARIO_DIR) + "/llama2_7b_4x4_tp_vs_tatp.json");
    scenario.traffic.push_back(TrafficOp{});
    scenario.traffic.back().id = "extra";
    scenario.traffic.back().kind = OpKind::AllGather;
    scenario.traffic.back().group = {0, 1, 5, 4};
    scenario.traffic.back().bytes = Quantity{8e6, "8 MB"};
    const WaferTopology topology(scenario.wafer.topologySpec());
    const TrainingStep kept = buildTrainingStep(scenario, topology);
    const TrainingStep bare = buildTrainingStep(scenario, topology, TaskLabels::Skipped);
    const SimProblem& a = kept.graph.problem();
    const SimProblem& b = bare.graph.problem();
    ASSERT_EQ(a.tasks.size(), b.tasks.size());
    ASSERT_EQ(kept.graph.info().size(), bare.graph.info().size());
    std::size_t unlabelled = 0;
    for (std::size_t t = 0; t < a.tasks.size(); ++t) {
        const SimTask& x = a.tasks[t];
        const SimTask& y = b.tasks[t];
        ASSERT_TRUE(x.kind == y.kind && x.bytes == y.bytes && x.links == y.links &&
                    x.hops == y.hops && x.die == y.die && x.seconds == y.seconds &&
                    x.earliestStartS == y.earliestStartS && x.deps == y.deps)
            << "task " << t;
        const StepTaskInfo& i = kept.graph.info()[t];
        const StepTaskInfo& j = bare.graph.info()[t];
        ASSERT_TRUE(i.kind == j.kind && i.phase == j.phase && i.round == j.round &&
                    i.flops == j.flops)
            << "task " << t;
        ASSERT_TRUE(j.label.empty() || j.label == i.label) << "task " << t;
        unlabelled += j.label.empty() && !i.label.empty() ? 1 : 0;
    }
    EXPECT_GT(unlabelled, a.tasks.size() / 2); // the streams' computes and transfers at least
    ASSERT_EQ(kept.graph.flows().size(), bare.graph.flows().size());
    for (std::size_t f = 0; f < kept.graph.flows().size(); ++f) {
        const Flow& x = kept.graph.flows()[f];
        const Flow& y = bare.graph.flows()[f];
        ASSERT_TRUE(x.id == y.id && x.opIndex == y.opIndex && x.src == y.src && x.dsts == y.dsts &&
                    x.bytes == y.bytes && x.route == y.route && x.task == y.task)
            << "flow " << f;
    }
    EXPECT_EQ(simulate(a).makespanS, simulate(b).makespanS);
}

// A four-layer model small enough to reason about: h = 512, 8 heads, ffn 2048, 256 tokens per
// sequence, 8 sequences. One layer's weights are 4 h^2 + 2 h ffn + 2 h = 3,146,752 parameters.
nlohmann::json smallFourLayerModel() {
    return {{"kind", "transformer"},
            {"model",
             {{"name", "small"},
              {"layers", 4},
              {"hidden", 512},
              {"heads", 8},
              {"ffn_hidden", 2048},
              {"vocab", 4096}}},
            {"seq_len", 256},
            {"global_batch", 8}};
}

// A step whose collectives would pass the flow limit is refused before any of it is built:
// every collective is counted first, so the cancel predicate the builder polls as it builds is
// never asked. The refusal names a collective; at exactly the step's count the step builds.
TEST(TrainingStep, AStepTooLargeIsRefusedBeforeAnyOfItIsBuilt) {
    const Scenario scenario =
        scenarioWith(2, 4, smallFourLayerModel(), {{"dp", 8}, {"fsdp", true}});
    const WaferTopology topology(scenario.wafer.topologySpec());
    int polls = 0;
    const auto cancel = [&polls] {
        ++polls;
        return false;
    };
    const TrainingStep step = buildTrainingStep(scenario, topology, TaskLabels::Kept, cancel);
    ASSERT_GT(polls, 0);
    const auto flows =
        static_cast<std::int64_t>(step.graph.flows().size()); // tatp 1: all collective
    ASSERT_GT(flows, 0);

    ExpansionLimits limits;
    limits.maxFlows = flows - 1;
    polls = 0;
    try {
        buildTrainingStep(scenario, topology, TaskLabels::Kept, cancel, limits);
        ADD_FAILURE() << "a step of " << flows << " flows passed a limit of " << flows - 1;
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "strategy");
        EXPECT_NE(error.problem().find(" would build more than the limit of "), std::string::npos)
            << error.problem();
        EXPECT_NE(error.problem().find("op '"), std::string::npos) << error.problem();
    }
    EXPECT_EQ(polls, 0);

    limits.maxFlows = flows;
    EXPECT_EQ(
        buildTrainingStep(scenario, topology, TaskLabels::Kept, {}, limits).graph.flows().size(),
        step.graph.flows().size());
}

double firstComputeStartS(const TrainingStep& step, const SimResult& result) {
    double first = result.makespanS;
    for (std::size_t t = 0; t < step.graph.problem().tasks.size(); ++t)
        if (step.graph.problem().tasks[t].kind == SimTask::Kind::Compute)
            first = std::min(first, result.tasks[t].startS);
    return first;
}

// docs/training-model.md "How a step is simulated": only the first layer's gather is exposed, and
// it runs alone, so the first task starts exactly at the ring all-gather's closed form (p - 1) a +
// ((p - 1) / p) n / B (docs/network-model.md section 9); issuing every gather at once made it
// twice that.
TEST(TrainingSchedule, TheFirstLayersGatherIsExposedAtTheRingClosedForm) {
    const Scenario scenario =
        scenarioWith(1, 2, smallFourLayerModel(), {{"dp", 2}, {"fsdp", true}});
    const WaferTopology topology(scenario.wafer.topologySpec());
    const TrainingStep step = buildTrainingStep(scenario, topology);
    const SimResult result = simulate(step.graph.problem());
    const double layerWeightBytes = step.workload.model.parametersPerLayer() * 2.0;
    ASSERT_EQ(layerWeightBytes, 3146752 * 2.0);
    const double ringS = 200e-9 + 0.5 * layerWeightBytes / 4e12;
    EXPECT_NEAR(firstComputeStartS(step, result), ringS, ringS * 1e-9);
}

// With prefetch, a layer whose gathers (and overlapped reduce-scatter) fit under its compute
// does not wait for them: a four times slower link leaves the steady layer's time unchanged, and
// the step slower only by its exposed first gathers and last reduce-scatter.
TEST(TrainingSchedule, PrefetchHidesGathersThatFitUnderALayersCompute) {
    Scenario fast = scenarioWith(1, 2, smallFourLayerModel(), {{"dp", 2}, {"fsdp", true}});
    Scenario slow = fast;
    slow.wafer.linkBandwidth = {1e12, "1 TB/s"};
    auto timingOf = [](const Scenario& scenario) {
        const WaferTopology topology(scenario.wafer.topologySpec());
        const TrainingStep step = buildTrainingStep(scenario, topology);
        return stepTiming(step, simulate(step.graph.problem()));
    };
    const StepTiming a = timingOf(fast);
    const StepTiming b = timingOf(slow);
    // The premise: one layer's 6.3 MB gather takes 3.2 us at 1 TB/s, a layer's forward more.
    const double forwardS = b.window.barrierEndS[1] - b.window.barrierEndS[0];
    ASSERT_GT(forwardS, 0.5 * 3146752 * 2 / 1e12);
    EXPECT_NEAR(b.layerS, a.layerS, a.layerS * 1e-12);
    EXPECT_GT(b.stepS, a.stepS); // the exposed first gathers and the last reduce-scatter
    EXPECT_LT(b.stepS - a.stepS, 0.02 * a.stepS);
}

// docs/training-model.md "How a step is simulated": sequence-parallel ranks hold replicated
// weights, so their gradients are all-reduced like data-parallel ones: sp 4 moves what dp 4 moves.
TEST(TrainingSchedule, SequenceParallelGradientsAreReducedWithTheDataParallelVolume) {
    auto gradientBytes = [](const nlohmann::json& strategy) {
        const Scenario scenario = scenarioWith(1, 4, smallFourLayerModel(), strategy);
        const WaferTopology topology(scenario.wafer.topologySpec());
        const TrainingStep step = buildTrainingStep(scenario, topology);
        double bytes = 0.0;
        for (const Flow& flow : step.graph.flows()) {
            const auto& role = step.graph.info()[static_cast<std::size_t>(flow.task)].role;
            if (role && *role == CollectiveRole::GradientSync)
                bytes += flow.bytes * step.repetitionsOf(flow.task);
        }
        return bytes;
    };
    const double dp = gradientBytes({{"dp", 4}});
    const double sp = gradientBytes({{"sp", 4}});
    // A ring all-reduce of each of the 4 layers' weights over 4 ranks: every rank sends
    // 2 (p - 1) / p of them.
    const double expected = 4 * 3146752 * 2.0 * 2 * 3 / 4 * 4;
    EXPECT_NEAR(dp, expected, expected * 1e-12);
    EXPECT_NEAR(sp, dp, dp * 1e-12);
}

} // namespace
} // namespace ws
