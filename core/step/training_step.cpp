#include "step/training_step.h"

#include "collectives/traffic_plan.h"
#include "scenario/scenario_error.h"
#include "step/tatp_stream.h"

#include <algorithm>
#include <string>

namespace ws {

namespace {

// How tensor parallelism splits a GEMM (Megatron-LM).
enum class TpSplit {
    Columns, // N: qkv, MLP up, router, LM head
    Rows,    // K: output projection, MLP down (an all-reduce follows)
    Heads    // the attention matmuls: whole heads per die
};

TpSplit tpSplitOf(const LayerGemm& gemm) {
    if (!gemm.hasWeight)
        return TpSplit::Heads;
    const std::string& name = gemm.name;
    if (name.find("proj") != std::string::npos || name.find("down") != std::string::npos)
        return TpSplit::Rows;
    return TpSplit::Columns;
}

// Builds the graph; one instance per step.
class StepBuilder {
public:
    StepBuilder(TrainingStep& step, Algorithm fsdpAllGather)
        : m_step(step), m_graph(step.graph), m_placement(step.placement), m_strategy(step.strategy),
          m_workload(step.workload), m_fsdpAlgorithm(fsdpAllGather),
          m_dtype(static_cast<double>(step.workload.dtypeBytes)) {
        const int dies = m_graph.topology().dieCount();
        m_lastOnDie.assign(static_cast<std::size_t>(dies), {});
    }

    void buildGemmWorkload() {
        const GemmShape& shape = m_workload.gemm;
        LayerGemm gemm{"linear", shape, 1.0, true, false};
        reserveGraph(1, 0);
        if (fsdpActive())
            gatherWeights("fsdp weights", shape.k * shape.n / tpTatp() * m_dtype, "forward");
        runGemm(gemm, "forward", "fwd", shape.m / (m_strategy.dp * m_strategy.sp));
        m_step.partitions.push_back(partitionGemm(gemm.name, m_strategy.dp, shape.m / m_strategy.dp,
                                                  shape.k, shape.n, false, m_workload.dtypeBytes,
                                                  m_strategy, m_placement));
        m_step.layerDone = allDiesBarrier("forward done");
        m_step.headDone = m_step.layerDone;
        m_step.syncDone = m_step.layerDone;
        m_step.modelFlopsPerStep = gemm.flops();
    }

    void buildTransformer() {
        const TransformerConfig& model = m_workload.model;
        const double sequences =
            static_cast<double>(m_workload.globalBatch) / (m_strategy.dp * m_strategy.microBatches);
        const double seqLen = static_cast<double>(m_workload.seqLen);
        const double replicaTokens = sequences * seqLen;
        const std::vector<LayerGemm> gemms = layerGemms(model, sequences, seqLen);
        // GEMM runs: forward, recomputed forward, two backward per GEMM; three for the LM head.
        reserveGraph(gemms.size() * (m_strategy.activationCheckpointing ? 4 : 3) + 3, gemms.size());
        const double layerWeightBytes = model.parametersPerLayer() / tpTatp() * m_dtype;

        // The unified representation of every GEMM with a weight.
        const double allSequences = sequences * m_strategy.dp;
        for (const LayerGemm& gemm : gemms)
            if (gemm.hasWeight)
                m_step.partitions.push_back(
                    partitionGemm(gemm.name, allSequences, gemm.shape.m / sequences, gemm.shape.k,
                                  gemm.shape.n, tpSplitOf(gemm) == TpSplit::Rows,
                                  m_workload.dtypeBytes, m_strategy, m_placement));

        // Forward pass of one layer.
        if (fsdpActive())
            gatherWeights("fsdp fwd weights", layerWeightBytes, "forward");
        forwardPass(gemms, replicaTokens, "forward", "fwd");
        // Backward pass: recompute first with checkpointing, then two GEMMs per forward GEMM.
        if (m_strategy.activationCheckpointing)
            forwardPass(gemms, replicaTokens, "recompute", "recompute");
        if (fsdpActive())
            gatherWeights("fsdp bwd weights", layerWeightBytes, "backward");
        backwardPass(gemms, replicaTokens);
        m_step.layerDone = allDiesBarrier("layer done");

        // LM head (tied embedding): forward and two backward GEMMs, column-parallel.
        const LayerGemm head{
            "lm_head",
            {replicaTokens, static_cast<double>(model.hidden), static_cast<double>(model.vocab)},
            1.0,
            true,
            false};
        runGemm(head, "head", "head fwd", replicaTokens / m_strategy.sp);
        runGemm(head, "head", "head bwd dI", replicaTokens / m_strategy.sp);
        runGemm(head, "head", "head bwd dW", replicaTokens / m_strategy.sp);
        m_step.headDone = allDiesBarrier("head done");

        // Gradient synchronisation of one layer's weights over each DP group.
        if (m_strategy.dp > 1) {
            const OpKind kind = m_strategy.fsdp ? OpKind::ReduceScatter : OpKind::AllReduce;
            collectiveOverDpGroups(m_strategy.fsdp ? "dp grad reduce-scatter"
                                                   : "dp grad all-reduce",
                                   kind, Algorithm::Ring, layerWeightBytes, "gradient sync");
        }
        m_step.syncDone = allDiesBarrier("sync done");

        const double forwardFlops =
            model.layers *
                layerForwardFlops(model, static_cast<double>(m_workload.globalBatch), seqLen) +
            head.flops() * m_strategy.dp * m_strategy.microBatches;
        m_step.modelFlopsPerStep = 3.0 * forwardFlops;
    }

private:
    int tpTatp() const { return m_strategy.tp * m_strategy.tatp; }

    // Sizes the graph (StepGraph::reserve) for `gemmRuns` runGemm calls and a layer of
    // `layerGemms` GEMMs: exact for the TATP streams (n^2 computes and n(n-1) transfers per
    // stream), a bound for the collectives (per group and layer at most 7 over DP: FSDP's two
    // gathers, gradient sync, MoE's four all-to-alls; 2 over SP; 2 per GEMM over TP; each at most
    // 2P(P-1) flows and a barrier). Over-estimating costs nothing: capacity never written is
    // never mapped.
    void reserveGraph(std::size_t gemmRuns, std::size_t layerGemms) {
        const auto n = static_cast<std::size_t>(m_strategy.tatp);
        const std::size_t streams = gemmRuns * m_placement.groups(GroupKind::TATP).size();
        std::size_t tasks = streams * (n == 1 ? 1 : n * n + n * (n - 1)) + 8;
        std::size_t flows = streams * (n == 1 ? 0 : n * (n - 1));
        auto addCollectives = [&](GroupKind kind, int degree, std::size_t perGroup) {
            if (degree <= 1)
                return;
            const auto p = static_cast<std::size_t>(degree);
            const std::size_t count = m_placement.groups(kind).size() * perGroup;
            flows += count * 2 * p * (p - 1);
            tasks += count * (2 * p * (p - 1) + 1);
        };
        addCollectives(GroupKind::DP, m_strategy.dp, 7);
        addCollectives(GroupKind::SP, m_strategy.sp, 2);
        addCollectives(GroupKind::TP, m_strategy.tp, 2 * layerGemms);
        m_graph.reserve(tasks, flows);
    }
    bool fsdpActive() const { return m_strategy.fsdp && m_strategy.dp > 1; }

    const std::vector<DieId>& usedDies() const { return m_placement.usedDies(); }

    // Every die's chain: the next task on a die waits for the previous one.
    std::vector<TaskId> depsOf(DieId die) const {
        return m_lastOnDie[static_cast<std::size_t>(die)];
    }
    void setLast(DieId die, TaskId task) { m_lastOnDie[static_cast<std::size_t>(die)] = {task}; }
    void addDep(DieId die, TaskId task) {
        m_lastOnDie[static_cast<std::size_t>(die)].push_back(task);
    }

    TaskId allDiesBarrier(const std::string& label) {
        std::vector<TaskId> deps;
        for (DieId die : usedDies())
            for (TaskId task : depsOf(die))
                deps.push_back(task);
        const TaskId barrier =
            m_graph.addBarrier(deps, {StepTaskInfo::Kind::Barrier, label, label, -1, 0.0});
        for (DieId die : usedDies())
            setLast(die, barrier);
        return barrier;
    }

    // One collective per group; each member's next task waits for its group's collective.
    void collectiveOver(const std::vector<std::vector<DieId>>& groups, const std::string& label,
                        OpKind kind, Algorithm algorithm, double bytes, const std::string& phase) {
        for (std::size_t g = 0; g < groups.size(); ++g) {
            const auto& group = groups[g];
            std::vector<TaskId> deps;
            for (DieId die : group)
                for (TaskId task : depsOf(die))
                    deps.push_back(task);
            const std::string id =
                label + " g" + std::to_string(g) + " #" + std::to_string(m_collectiveCount++);
            const TaskId done =
                m_graph.addCollective(id, kind, algorithm, group, bytes, deps,
                                      {StepTaskInfo::Kind::Collective, id, phase, -1, 0.0});
            for (DieId die : group)
                setLast(die, done);
        }
    }

    void collectiveOverDpGroups(const std::string& label, OpKind kind, Algorithm algorithm,
                                double bytes, const std::string& phase) {
        collectiveOver(m_placement.groups(GroupKind::DP), label, kind, algorithm, bytes, phase);
    }

    // FSDP: the layer's weights are all-gathered over each DP group before use. The gather does
    // not wait for the die's previous work (it is a prefetch), but the die's next GEMM waits.
    void gatherWeights(const std::string& label, double bytes, const std::string& phase) {
        const auto groups = m_placement.groups(GroupKind::DP);
        for (std::size_t g = 0; g < groups.size(); ++g) {
            const std::string id =
                label + " g" + std::to_string(g) + " #" + std::to_string(m_collectiveCount++);
            const TaskId done =
                m_graph.addCollective(id, OpKind::AllGather, m_fsdpAlgorithm, groups[g], bytes, {},
                                      {StepTaskInfo::Kind::Collective, id, phase, -1, 0.0});
            for (DieId die : groups[g])
                addDep(die, done);
        }
    }

    // One GEMM on every model-parallel group. `mPerSpRank` is a weight GEMM's M (tokens) on one
    // SP rank of a DP replica; TATP splits it further. Attention GEMMs take theirs from the shape.
    void runGemm(const LayerGemm& gemm, const std::string& phase, const std::string& tag,
                 double mPerSpRank) {
        const TpSplit split = tpSplitOf(gemm);
        const double tp = m_strategy.tp;
        const double tatp = m_strategy.tatp;
        const double mLocal = gemm.hasWeight ? mPerSpRank : gemm.shape.m / m_strategy.sp;
        double kLocal = gemm.shape.k;
        double nLocal = gemm.shape.n;
        double countLocal = gemm.count;
        switch (split) {
        case TpSplit::Columns:
            nLocal /= tp;
            break;
        case TpSplit::Rows:
            kLocal /= tp;
            break;
        case TpSplit::Heads:
            countLocal /= tp;
            break;
        }
        const double dieFlops = 2.0 * mLocal * kLocal * nLocal * countLocal / tatp;
        const std::string label = tag + " " + gemm.name;

        for (const std::vector<DieId>& path : m_placement.groups(GroupKind::TATP)) {
            if (m_strategy.tatp == 1) {
                const DieId die = path.front();
                const TaskId task =
                    m_graph.addCompute(die, dieFlops, depsOf(die),
                                       {StepTaskInfo::Kind::Compute, label, phase, 0, dieFlops});
                setLast(die, task);
                continue;
            }
            TatpGemm streamed;
            streamed.label = label;
            streamed.phase = phase;
            streamed.blockFlops = dieFlops / tatp;
            const double weightBlock = kLocal * nLocal / tatp;
            const double inputBlock = mLocal / tatp * kLocal;
            streamed.streamedBytes = std::min(weightBlock, inputBlock) * countLocal * m_dtype;
            m_largestStreamedBlock = std::max(m_largestStreamedBlock, streamed.streamedBytes);
            std::vector<std::vector<TaskId>> startDeps;
            for (DieId die : path)
                startDeps.push_back(depsOf(die));
            const TatpStream stream =
                addTatpStream(m_graph, path, streamed, m_strategy.tatpSchedule,
                              m_strategy.doubleBuffering, startDeps);
            for (std::size_t p = 0; p < path.size(); ++p)
                setLast(path[p], stream.done[p]);
        }
    }

    void forwardPass(const std::vector<LayerGemm>& gemms, double replicaTokens,
                     const std::string& phase, const std::string& tag) {
        const TransformerConfig& model = m_workload.model;
        const double tokensPerDie = replicaTokens / (m_strategy.sp * m_strategy.tatp);
        const bool communicate = phase != "recompute";
        for (const LayerGemm& gemm : gemms) {
            if (communicate && !gemm.hasWeight && m_strategy.sp > 1 && isFirstAttention(gemm)) {
                // Sequence parallelism: every die needs the keys and values of all tokens.
                const double kvBytes = replicaTokens / m_strategy.tatp * 2.0 * model.kvHeads *
                                       model.headDim() / m_strategy.tp * m_dtype;
                collectiveOver(m_placement.groups(GroupKind::SP), tag + " sp kv all-gather",
                               OpKind::AllGather, Algorithm::Ring, kvBytes, phase);
            }
            if (communicate && gemm.expert && m_strategy.dp > 1 && isFirstExpert(gemm))
                collectiveOverDpGroups(
                    tag + " moe dispatch", OpKind::AllToAll, Algorithm::Direct,
                    tokensPerDie * model.hidden * m_dtype * model.expertsPerToken, phase);
            runGemm(gemm, phase, tag,
                    replicaTokens * (gemm.expert ? model.expertsPerToken : 1) / m_strategy.sp);
            if (communicate && tpSplitOf(gemm) == TpSplit::Rows && m_strategy.tp > 1)
                collectiveOver(m_placement.groups(GroupKind::TP), tag + " tp all-reduce",
                               OpKind::AllReduce, Algorithm::Ring,
                               tokensPerDie * model.hidden * m_dtype, phase);
            if (communicate && gemm.expert && m_strategy.dp > 1 && isLastExpert(gemm))
                collectiveOverDpGroups(
                    tag + " moe combine", OpKind::AllToAll, Algorithm::Direct,
                    tokensPerDie * model.hidden * m_dtype * model.expertsPerToken, phase);
        }
    }

    void backwardPass(const std::vector<LayerGemm>& gemms, double replicaTokens) {
        const TransformerConfig& model = m_workload.model;
        const double tokensPerDie = replicaTokens / (m_strategy.sp * m_strategy.tatp);
        for (auto it = gemms.rbegin(); it != gemms.rend(); ++it) {
            const LayerGemm& gemm = *it;
            if (gemm.expert && m_strategy.dp > 1 && isLastExpert(gemm))
                collectiveOverDpGroups(
                    "bwd moe combine", OpKind::AllToAll, Algorithm::Direct,
                    tokensPerDie * model.hidden * m_dtype * model.expertsPerToken, "backward");
            const double m =
                replicaTokens * (gemm.expert ? model.expertsPerToken : 1) / m_strategy.sp;
            runGemm(gemm, "backward", "bwd dI", m);
            runGemm(gemm, "backward", "bwd dW", m);
            if (tpSplitOf(gemm) == TpSplit::Columns && gemm.hasWeight && m_strategy.tp > 1)
                collectiveOver(m_placement.groups(GroupKind::TP), "bwd tp all-reduce",
                               OpKind::AllReduce, Algorithm::Ring,
                               tokensPerDie * model.hidden * m_dtype, "backward");
            if (gemm.expert && m_strategy.dp > 1 && isFirstExpert(gemm))
                collectiveOverDpGroups(
                    "bwd moe dispatch", OpKind::AllToAll, Algorithm::Direct,
                    tokensPerDie * model.hidden * m_dtype * model.expertsPerToken, "backward");
            if (!gemm.hasWeight && m_strategy.sp > 1 && isFirstAttention(gemm)) {
                const double kvBytes = replicaTokens / m_strategy.tatp * 2.0 * model.kvHeads *
                                       model.headDim() / m_strategy.tp * m_dtype;
                collectiveOver(m_placement.groups(GroupKind::SP), "bwd sp kv reduce-scatter",
                               OpKind::ReduceScatter, Algorithm::Ring, kvBytes, "backward");
            }
        }
    }

    bool isFirstAttention(const LayerGemm& gemm) const {
        for (const LayerGemm& other : m_gemmsForLookup())
            if (!other.hasWeight)
                return other.name == gemm.name;
        return false;
    }
    bool isFirstExpert(const LayerGemm& gemm) const {
        for (const LayerGemm& other : m_gemmsForLookup())
            if (other.expert)
                return other.name == gemm.name;
        return false;
    }
    bool isLastExpert(const LayerGemm& gemm) const {
        const auto& gemms = m_gemmsForLookup();
        for (auto it = gemms.rbegin(); it != gemms.rend(); ++it)
            if (it->expert)
                return it->name == gemm.name;
        return false;
    }
    const std::vector<LayerGemm>& m_gemmsForLookup() const {
        if (m_lookup.empty())
            m_lookup = layerGemms(m_workload.model, 1.0, static_cast<double>(m_workload.seqLen));
        return m_lookup;
    }

public:
    double largestStreamedBlock() const { return m_largestStreamedBlock; }

private:
    TrainingStep& m_step;
    StepGraph& m_graph;
    const Placement& m_placement;
    const StrategySpec& m_strategy;
    const Workload& m_workload;
    Algorithm m_fsdpAlgorithm;
    double m_dtype;
    std::vector<std::vector<TaskId>> m_lastOnDie;
    int m_collectiveCount = 0;
    double m_largestStreamedBlock = 0.0;
    mutable std::vector<LayerGemm> m_lookup;
};

} // namespace

TrainingStep buildTrainingStep(const Scenario& scenario, const WaferTopology& topology,
                               const std::filesystem::path& scenarioDirectory, TaskLabels labels) {
    if (!scenario.workload || !scenario.strategy)
        throw ScenarioError(scenario.workload ? "strategy" : "workload",
                            "a training step needs both `workload` and `strategy`");
    Workload workload = parseWorkload(*scenario.workload, scenarioDirectory);
    StrategySpec strategy = parseStrategy(*scenario.strategy);
    checkStrategyAgainstWorkload(strategy, workload);
    Placement placement = placeStrategy(strategy, topology);

    TrainingStep step{std::move(workload),
                      std::move(strategy),
                      std::move(placement),
                      StepGraph(topology, scenario.wafer, scenario.routingMode()),
                      -1,
                      -1,
                      -1,
                      {},
                      {},
                      0.0,
                      {}};
    step.graph.setTaskLabels(labels == TaskLabels::Kept);
    if (scenario.routing)
        step.graph.setPinnedRoutes(&scenario.routing->paths);
    StepBuilder builder(step, step.strategy.fsdpAllGatherMulticast ? Algorithm::Multicast
                                                                   : Algorithm::Ring);
    if (step.workload.kind == WorkloadKind::Gemm) {
        builder.buildGemmWorkload();
        step.notes.push_back("gemm workload: the forward pass of one linear layer, simulated "
                             "whole");
    } else {
        builder.buildTransformer();
        step.notes.push_back(
            "simulated one of " + std::to_string(step.workload.model.layers) +
            " identical layers for one of " + std::to_string(step.strategy.microBatches) +
            " micro-batches; step time = micro_batches * (layers * layer + head) + layers * "
            "gradient sync");
    }
    // Pins that name no flow of the step are left to the explicit traffic's planner, which
    // reports those that name no flow at all.
    Scenario explicitTraffic = scenario;
    if (explicitTraffic.routing)
        for (const std::string& used : step.graph.usedPins())
            explicitTraffic.routing->paths.erase(used);
    if (!scenario.traffic.empty() ||
        (explicitTraffic.routing && !explicitTraffic.routing->paths.empty())) {
        step.graph.appendTraffic(planTraffic(explicitTraffic, topology));
        if (!scenario.traffic.empty())
            step.notes.push_back("the scenario's explicit traffic runs once, alongside the step");
    }
    // The pins were read while building; the scenario may move or die before the step does.
    step.graph.setPinnedRoutes(nullptr);
    step.memory = estimateMemory(step.workload, step.strategy, scenario.wafer.die,
                                 builder.largestStreamedBlock());
    return step;
}

StepTiming stepTiming(const TrainingStep& step, const SimResult& result) {
    auto endOf = [&](TaskId task) { return result.tasks[static_cast<std::size_t>(task)].endS; };
    StepTiming timing;
    timing.layerS = endOf(step.layerDone);
    timing.headS = endOf(step.headDone) - timing.layerS;
    timing.syncS = endOf(step.syncDone) - endOf(step.headDone);
    if (step.workload.kind == WorkloadKind::Gemm) {
        timing.stepS = result.makespanS;
        return timing;
    }
    const double layers = step.workload.model.layers;
    const double microBatches = step.strategy.microBatches;
    timing.stepS = microBatches * (layers * timing.layerS + timing.headS) + layers * timing.syncS;
    return timing;
}

} // namespace ws
