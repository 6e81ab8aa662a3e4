#include "step/training_step.h"

#include "collectives/traffic_plan.h"
#include "scenario/scenario_error.h"
#include "sim/run_cancelled.h"
#include "step/step_plan.h"
#include "step/tatp_stream.h"
#include "step/work_shares.h"
#include "strategy/workload_divisibility.h"
#include "units/quantity.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <variant>

namespace ws {

namespace {

// Interprets a step plan as a task graph: each die's tasks run in the plan's order, groups side
// by side, and every section ends at a barrier of all the dies the strategy uses.
class StepBuilder {
public:
    StepBuilder(TrainingStep& step, const StepPlan& plan, const std::function<bool()>& cancel)
        : m_step(step), m_graph(step.graph), m_placement(step.placement), m_strategy(step.strategy),
          m_plan(plan), m_cancel(cancel) {
        const int dies = m_graph.topology().dieCount();
        m_lastOnDie.assign(static_cast<std::size_t>(dies), {});
        for (GroupKind kind : {GroupKind::DP, GroupKind::SP, GroupKind::TP, GroupKind::TATP,
                               GroupKind::Replica, GroupKind::Stage}) {
            groupsRef(kind) = m_placement.groups(kind);
            // Every kind but Stage lies inside a stage, its groups stage by stage: the last
            // stage's are the last 1/pp of them.
            const auto& all = m_groups[static_cast<std::size_t>(kind)];
            const std::size_t perStage = all.size() / static_cast<std::size_t>(m_placement.pp());
            m_lastStageGroups[static_cast<std::size_t>(kind)].assign(
                all.end() - static_cast<std::ptrdiff_t>(perStage), all.end());
        }
        m_lastStageDies = m_placement.stageDies(m_placement.pp() - 1);
    }

    void build() {
        reserveGraph();
        m_step.window = buildWindow(m_plan.window, m_plan.windowRuns(), -1);
        m_step.headDone = m_step.window.done;
        if (m_plan.kind == WorkloadKind::Transformer) {
            if (!m_plan.finalWindow.tasks.empty())
                m_step.finalWindow = buildWindow(m_plan.finalWindow, 1.0, m_step.window.done);
            m_step.headDone = buildSection(m_plan.head, m_plan.microBatches, nullptr);
            if (m_plan.stages > 1)
                m_step.pipelineSends =
                    buildWindow(m_plan.pipeline, m_plan.microBatches, m_step.headDone);
        }
        // Whatever follows (a scenario's explicit traffic) runs once.
        m_step.repetitions.push_back({static_cast<TaskId>(m_graph.problem().tasks.size()), 1.0});
    }

private:
    WindowTasks buildWindow(const StepSection& section, double runs, TaskId start) {
        WindowTasks tasks;
        tasks.start = start;
        tasks.done = buildSection(section, runs, &tasks.barriers);
        return tasks;
    }

    // Builds a section's tasks; `runs` is how often the section runs per step (the window's
    // steady layer repeats within it: StepPlan::layerRepetitions). Layer barriers go to
    // `barriers`. Returns the section's end: all dies, and every asynchronous collective.
    TaskId buildSection(const StepSection& section, double runs, std::vector<TaskId>* barriers) {
        // The asynchronous collectives of the section: per plan task index, each die's done
        // task (its group's collective).
        std::map<int, std::vector<TaskId>> asyncDone;
        m_lastStageOnly = section.lastStageOnly;
        for (std::size_t i = 0; i < section.tasks.size(); ++i) {
            const PlannedTask& task = section.tasks[i];
            m_step.repetitions.push_back({static_cast<TaskId>(m_graph.problem().tasks.size()),
                                          runs * m_plan.layerRepetitions(task.layer)});
            const StepPhase phase = task.phase;
            const std::vector<TaskId>* waits = nullptr;
            if (task.waitsFor >= 0)
                waits = &asyncDone.at(task.waitsFor);
            if (const auto* gemm = std::get_if<PlannedGemm>(&task.work)) {
                addWaits(waits);
                runGemm(*gemm, phase);
            } else if (const auto* work = std::get_if<PlannedElementwise>(&task.work)) {
                addWaits(waits);
                runElementwise(*work, phase);
            } else if (const auto* barrier = std::get_if<PlannedBarrier>(&task.work)) {
                const TaskId id = allDiesBarrier(barrier->label, phase);
                if (barriers != nullptr)
                    barriers->push_back(id);
            } else {
                const auto& collective = std::get<PlannedCollective>(task.work);
                if (collective.op == OpKind::P2P)
                    runStageSends(collective, phase);
                else if (collective.async)
                    asyncDone[static_cast<int>(i)] = runAsyncCollective(collective, phase, waits);
                else {
                    addWaits(waits);
                    runCollective(collective, phase);
                }
            }
        }
        for (const auto& [index, done] : asyncDone)
            for (DieId die : usedDies())
                if (done[static_cast<std::size_t>(die)] >= 0)
                    addDep(die, done[static_cast<std::size_t>(die)]);
        // Every die meets at the end, those of a section the last stage ran alone included.
        m_lastStageOnly = false;
        // The barrier belongs to the phase its section ends with.
        return allDiesBarrier(section.barrierLabel, section.tasks.empty()
                                                        ? StepPhase::Forward
                                                        : section.tasks.back().phase);
    }

    // A pipeline send (PlannedCollective over Stage groups): along every Stage group, each
    // stage's die sends `bytes` to the next stage's (forward: activations) or to the one before
    // (backward: their gradients), all at once; the dies at both ends of each transfer wait for it.
    void runStageSends(const PlannedCollective& collective, StepPhase phase) {
        const bool forward = collective.role == CollectiveRole::PipelineActivations;
        const auto& groups = groupsOf(GroupKind::Stage);
        std::vector<std::pair<DieId, TaskId>> sent; // (die, transfer) to wait for
        for (std::size_t g = 0; g < groups.size(); ++g) {
            throwIfCancelled(m_cancel);
            const std::string id = collectiveId(collective, g, m_collectiveCount++);
            const std::vector<DieId>& stages = groups[g];
            for (std::size_t k = 0; k + 1 < stages.size(); ++k) {
                const DieId src = forward ? stages[k] : stages[k + 1];
                const DieId dst = forward ? stages[k + 1] : stages[k];
                StepTaskInfo info{.label = id + "/s" + std::to_string(k),
                                  .kind = StepTaskInfo::Kind::Transfer,
                                  .phase = phase};
                info.role = collective.role;
                const TaskId transfer =
                    m_graph.addTransfer(src, dst, collective.bytes, depsOf(src), std::move(info));
                sent.emplace_back(src, transfer);
                sent.emplace_back(dst, transfer);
            }
        }
        for (const auto& [die, transfer] : sent)
            addDep(die, transfer);
    }

    // The die's next task also waits for an asynchronous collective (indexed by die).
    void addWaits(const std::vector<TaskId>* waits) {
        if (waits == nullptr)
            return;
        for (DieId die : usedDies())
            if ((*waits)[static_cast<std::size_t>(die)] >= 0)
                addDep(die, (*waits)[static_cast<std::size_t>(die)]);
    }

    // Sizes the graph (StepGraph::reserve): exact for the TATP streams (n^2 computes and
    // n(n-1) transfers per stream), a bound for the collectives (each at most 2P(P-1) flows
    // and a barrier). Over-estimating costs nothing: capacity never written is never mapped.
    // Every collective is counted against the expansion limits first, in the order build()
    // adds them, so a step too large is refused before any of it is built.
    void reserveGraph() {
        std::size_t tasks = 8;
        std::size_t flows = 0;
        int counted = 0; // collectives, numbered as addGroupCollective numbers them
        for (const StepSection* section :
             {&m_plan.window, &m_plan.finalWindow, &m_plan.head, &m_plan.pipeline})
            for (const PlannedTask& task : section->tasks) {
                if (std::holds_alternative<PlannedBarrier>(task.work)) {
                    ++tasks;
                    continue;
                }
                if (std::holds_alternative<PlannedElementwise>(task.work)) {
                    tasks += usedDies().size();
                    continue;
                }
                if (const auto* gemm = std::get_if<PlannedGemm>(&task.work)) {
                    const auto n = static_cast<std::size_t>(gemm->rounds);
                    const std::size_t paths =
                        groupsOf(n == 1 ? GroupKind::TATP : gemm->streamGroup).size();
                    tasks += paths * (n == 1 ? 1 : n * n + n * (n - 1));
                    if (m_graph.keepsFlowRecords())
                        flows += paths * (n == 1 ? 0 : n * (n - 1));
                    continue;
                }
                const auto& collective = std::get<PlannedCollective>(task.work);
                const auto& groups = groupsOf(collective.group);
                if (collective.op == OpKind::P2P) { // runStageSends: one flow per boundary
                    const std::size_t sends = groups.size() * (groups.front().size() - 1);
                    tasks += sends;
                    if (m_graph.keepsFlowRecords())
                        flows += sends;
                    continue;
                }
                for (std::size_t g = 0; g < groups.size(); ++g)
                    m_graph.countCollectiveAhead(collectiveId(collective, g, counted++),
                                                 collective.op, collective.algorithm, groups[g],
                                                 collective.bytes);
                const std::size_t p = groups.front().size();
                if (m_graph.keepsFlowRecords())
                    flows += groups.size() * 2 * p * (p - 1);
                tasks += groups.size() * (2 * p * (p - 1) + 1);
            }
        m_graph.reserve(tasks, flows);
    }

    // The dies the section being built runs on: every stage's, or the last stage's alone.
    const std::vector<DieId>& usedDies() const {
        return m_lastStageOnly ? m_lastStageDies : m_placement.usedDies();
    }

    // The placement's groups of each kind (of the last stage alone in a section only it runs),
    // computed once per step (Placement::groups builds them on every call).
    const std::vector<std::vector<DieId>>& groupsOf(GroupKind kind) const {
        return (m_lastStageOnly ? m_lastStageGroups : m_groups)[static_cast<std::size_t>(kind)];
    }
    std::vector<std::vector<DieId>>& groupsRef(GroupKind kind) {
        return m_groups[static_cast<std::size_t>(kind)];
    }

    // Every die's chain: the next task on a die waits for the previous one.
    std::vector<TaskId> depsOf(DieId die) const {
        return m_lastOnDie[static_cast<std::size_t>(die)];
    }
    void setLast(DieId die, TaskId task) { m_lastOnDie[static_cast<std::size_t>(die)] = {task}; }
    void addDep(DieId die, TaskId task) {
        m_lastOnDie[static_cast<std::size_t>(die)].push_back(task);
    }

    TaskId allDiesBarrier(const std::string& label, StepPhase phase) {
        std::vector<TaskId> deps;
        for (DieId die : usedDies())
            for (TaskId task : depsOf(die))
                deps.push_back(task);
        const TaskId barrier = m_graph.addBarrier(
            deps, {.label = label, .kind = StepTaskInfo::Kind::Barrier, .phase = phase});
        for (DieId die : usedDies())
            setLast(die, barrier);
        return barrier;
    }

    // One collective per group; each member's next task waits for its group's collective.
    void runCollective(const PlannedCollective& collective, StepPhase phase) {
        const auto& groups = groupsOf(collective.group);
        for (std::size_t g = 0; g < groups.size(); ++g) {
            std::vector<TaskId> deps;
            for (DieId die : groups[g])
                for (TaskId task : depsOf(die))
                    deps.push_back(task);
            const TaskId done = addGroupCollective(collective, phase, g, std::move(deps));
            for (DieId die : groups[g])
                setLast(die, done);
        }
    }

    // One asynchronous collective per group: issued after each member's previous task and
    // `waits` (by die, or null), not waited for by the members' next tasks. Returns each die's
    // group's collective, by die id (-1 for dies outside every group).
    std::vector<TaskId> runAsyncCollective(const PlannedCollective& collective, StepPhase phase,
                                           const std::vector<TaskId>* waits) {
        std::vector<TaskId> doneOnDie(m_lastOnDie.size(), -1);
        const auto& groups = groupsOf(collective.group);
        for (std::size_t g = 0; g < groups.size(); ++g) {
            std::vector<TaskId> deps;
            for (DieId die : groups[g]) {
                for (TaskId task : depsOf(die))
                    deps.push_back(task);
                if (waits != nullptr && (*waits)[static_cast<std::size_t>(die)] >= 0)
                    deps.push_back((*waits)[static_cast<std::size_t>(die)]);
            }
            const TaskId done = addGroupCollective(collective, phase, g, std::move(deps));
            for (DieId die : groups[g])
                doneOnDie[static_cast<std::size_t>(die)] = done;
        }
        return doneOnDie;
    }

    static std::string collectiveId(const PlannedCollective& collective, std::size_t g, int index) {
        return std::string(collective.label) + " g" + std::to_string(g) + " #" +
               std::to_string(index);
    }

    TaskId addGroupCollective(const PlannedCollective& collective, StepPhase phase, std::size_t g,
                              std::vector<TaskId> deps) {
        throwIfCancelled(m_cancel);
        const std::string id = collectiveId(collective, g, m_collectiveCount++);
        StepTaskInfo info{.label = id, .kind = StepTaskInfo::Kind::Collective, .phase = phase};
        info.role = collective.role;
        return m_graph.addCollective(id, collective.op, collective.algorithm,
                                     groupsOf(collective.group)[g], collective.bytes,
                                     std::move(deps), info);
    }

    // One GEMM on every model-parallel group: a compute task per die, or a stream over each of
    // its stream group's paths (TATP's, or the TP group's under tp_overlap).
    void runGemm(const PlannedGemm& gemm, StepPhase phase) {
        const std::string label = gemm.label();
        const bool streamed = gemm.rounds > 1;
        for (const std::vector<DieId>& path :
             groupsOf(streamed ? gemm.streamGroup : GroupKind::TATP)) {
            throwIfCancelled(m_cancel);
            if (!streamed) {
                const DieId die = path.front();
                const TaskId task = m_graph.addCompute(die, gemm.blockWork(true), depsOf(die),
                                                       {.label = label,
                                                        .round = 0,
                                                        .kind = StepTaskInfo::Kind::Compute,
                                                        .phase = phase});
                setLast(die, task);
                continue;
            }
            TatpGemm blocks;
            blocks.label = label;
            blocks.phase = phase;
            blocks.blockFlops = gemm.blockFlops;
            blocks.streamedBytes = gemm.streamedBlockBytes;
            blocks.firstHbmBytes = gemm.firstHbmBytes;
            blocks.roundHbmBytes = gemm.roundHbmBytes;
            blocks.tileEfficiency = gemm.tileEfficiency;
            std::vector<std::vector<TaskId>> startDeps;
            for (DieId die : path)
                startDeps.push_back(depsOf(die));
            // A TP group's chunks are relayed both ways along it, as TATP's bidirectional
            // schedule relays blocks: every die meets every chunk.
            const TatpSchedule schedule = gemm.streamGroup == GroupKind::TATP
                                              ? m_strategy.tatpSchedule
                                              : TatpSchedule::Bidirectional;
            const TatpStream stream =
                addTatpStream(m_graph, path, blocks, schedule, gemm.doubleBuffered, startDeps);
            for (std::size_t p = 0; p < path.size(); ++p)
                setLast(path[p], stream.done[p]);
        }
    }

    // Memory-bound work: every die the strategy uses runs it on its own data.
    void runElementwise(const PlannedElementwise& work, StepPhase phase) {
        throwIfCancelled(m_cancel);
        const std::string label = m_graph.keepsTaskLabels() ? work.label() : std::string();
        for (DieId die : usedDies()) {
            const TaskId task = m_graph.addCompute(
                die, work.work(), depsOf(die),
                {.label = label, .kind = StepTaskInfo::Kind::Compute, .phase = phase});
            setLast(die, task);
        }
    }

    TrainingStep& m_step;
    StepGraph& m_graph;
    const Placement& m_placement;
    const StrategySpec& m_strategy;
    const StepPlan& m_plan;
    const std::function<bool()>& m_cancel;
    std::vector<std::vector<TaskId>> m_lastOnDie;
    std::array<std::vector<std::vector<DieId>>, 6> m_groups; // by GroupKind
    std::array<std::vector<std::vector<DieId>>, 6> m_lastStageGroups;
    std::vector<DieId> m_lastStageDies;
    bool m_lastStageOnly = false; // while building a section only the last stage runs
    int m_collectiveCount = 0;
};

// The unified representation (strategy/tensor_partition.h) of every GEMM with a weight.
std::vector<GemmPartition> partitionsOf(const StepPlan& plan, const Workload& workload,
                                        const StrategySpec& strategy, const Placement& placement) {
    std::vector<GemmPartition> partitions;
    if (workload.kind == WorkloadKind::Gemm) {
        const GemmShape& shape = workload.gemm;
        partitions.push_back(partitionGemm("linear", strategy.dp, shape.m / strategy.dp, shape.k,
                                           shape.n, false, workload.dtypeBytes, strategy,
                                           placement));
        return partitions;
    }
    const double allSequences = plan.replicaSequences * strategy.dp;
    for (const LayerGemm& gemm : plan.replicaGemms)
        if (gemm.hasWeight)
            partitions.push_back(partitionGemm(gemm.name, allSequences,
                                               gemm.shape.m / plan.replicaSequences, gemm.shape.k,
                                               gemm.shape.n, tpSplitOf(gemm.role) == TpSplit::Rows,
                                               workload.dtypeBytes, strategy, placement));
    return partitions;
}

// The rows a TATP group splits (step/work_shares.h): its tokens per micro-batch, I's M, or a
// gemm workload's m over the replicas.
double tatpGroupRows(const TrainingStep& step) {
    if (step.workload.kind == WorkloadKind::Gemm)
        return step.workload.gemm.m / step.strategy.dp;
    return step.plan.replicaSequences * static_cast<double>(step.workload.seqLen) /
           step.strategy.sp;
}

} // namespace

TrainingStep buildTrainingStep(const Scenario& scenario, const WaferTopology& topology,
                               TaskLabels labels, const std::function<bool()>& cancel,
                               const ExpansionLimits& limits, FlowRecords records) {
    if (!scenario.workload || !scenario.strategy)
        throw ScenarioError(scenario.workload ? "strategy" : "workload",
                            "a training step needs both `workload` and `strategy`");
    Workload workload = *scenario.workload;
    StrategySpec strategy = *scenario.strategy;
    checkStrategyAgainstWorkload(strategy, workload);
    Placement placement = placeStrategy(strategy, topology);
    StepPlan plan =
        buildStepPlan(workload, strategy, scenario.wafer.die,
                      {scenario.wafer.linkBandwidth.value, scenario.wafer.linkLatency.value});

    TrainingStep step{std::move(workload),
                      std::move(strategy),
                      std::move(placement),
                      StepGraph(topology, scenario.wafer, scenario.routingMode(),
                                scenario.networkSettings(), scenario.linkTierSpeeds(),
                                scenario.tierProtocols()),
                      {},
                      {},
                      -1,
                      std::move(plan),
                      {},
                      {},
                      {},
                      {}};
    step.graph.setTaskLabels(labels == TaskLabels::Kept);
    step.graph.setFlowRecords(records);
    step.graph.setExpansionLimits(limits);
    if (scenario.routing)
        step.graph.setPinnedRoutes(&scenario.routing->paths);
    step.graph.setWorkShares(tatpWorkShares(step.placement, step.strategy, scenario.wafer,
                                            topology.dieCount(), tatpGroupRows(step)));
    StepBuilder(step, step.plan, cancel).build();
    step.partitions = partitionsOf(step.plan, step.workload, step.strategy, step.placement);
    if (step.workload.kind == WorkloadKind::Gemm) {
        step.notes.push_back("gemm workload: the forward pass of one linear layer, simulated "
                             "whole");
    } else {
        std::string note;
        if (step.plan.stages > 1) {
            note = "each of " + std::to_string(step.plan.stages) + " pipeline stages holds " +
                   std::to_string(static_cast<int>(step.plan.layers)) +
                   " layers; all stages simulated at once: a window of " +
                   std::to_string(step.plan.windowLayers) + " layers for one of " +
                   std::to_string(step.strategy.microBatches) +
                   " micro-batches, the head on the last stage, one send of activations and "
                   "one of gradients between neighbouring stages; step time = the 1F1B "
                   "schedule of every stage's passes (window scaled to its layers) and sends, "
                   "+ optimizer";
        } else {
            note = "simulated a window of " + std::to_string(step.plan.windowLayers) + " of " +
                   std::to_string(step.workload.model.layers) +
                   " identical layers (forward, then backward) for one of " +
                   std::to_string(step.strategy.microBatches) + " micro-batches";
            if (!step.plan.finalWindow.tasks.empty())
                note += ", and the last micro-batch's window, which reduces the gradients";
            note += "; step time = per micro-batch (window + (layers - " +
                    std::to_string(step.plan.windowLayers) + ") x layer " +
                    std::to_string(step.plan.steadyLayer()) +
                    "'s forward and backward + head) + optimizer";
        }
        step.notes.push_back(std::move(note));
    }
    if (!scenario.wafer.slowDies.empty()) {
        std::string note = "degraded dies (wafer.faults.slow_dies):";
        for (const auto& [die, speed] : scenario.wafer.slowDies)
            note += " " + std::to_string(die) + " at " +
                    std::to_string(static_cast<int>(std::lround(speed * 100))) + "%";
        note += step.strategy.balance == StrategySpec::Balance::Speed
                    ? "; TATP shares in proportion to speed (strategy.balance \"speed\")"
                    : "; even TATP shares (strategy.balance \"even\")";
        step.notes.push_back(std::move(note));
    }
    if (const SramUse& sram = step.plan.sram; !sram.fits || sram.singleBuffered) {
        const std::string sizes = "the largest working set, " +
                                  formatBytes(sram.largestWorkingSetBytes) + ", against " +
                                  formatBytes(sram.usableBytes) + " of usable SRAM";
        step.notes.push_back(
            sram.singleBuffered
                ? "single buffering: double buffers would overflow SRAM (" + sizes +
                      "); waiting for each TATP block is faster than re-reading the stationary "
                      "block every round (docs/compute-model.md section 4)"
                : "SRAM overflow: " + sizes +
                      "; the block products that do not fit re-read an operand from HBM "
                      "(docs/compute-model.md section 4)");
    }
    // Pins that name no flow of the step are left to the explicit traffic's planner, which
    // reports those that name no flow at all.
    Scenario explicitTraffic = scenario;
    if (explicitTraffic.routing)
        for (const std::string& used : step.graph.usedPins())
            explicitTraffic.routing->paths.erase(used);
    if (!scenario.traffic.empty() ||
        (explicitTraffic.routing && !explicitTraffic.routing->paths.empty())) {
        step.graph.appendTraffic(planTraffic(explicitTraffic, topology, cancel));
        if (!scenario.traffic.empty())
            step.notes.push_back("the scenario's explicit traffic runs once, alongside the step");
    }
    // The pins were read while building; the scenario may move or die before the step does.
    step.graph.setPinnedRoutes(nullptr);
    return step;
}

double TrainingStep::repetitionsOf(TaskId task) const {
    const auto after =
        std::upper_bound(repetitions.begin(), repetitions.end(), task,
                         [](TaskId id, const Repetitions& block) { return id < block.first; });
    return after == repetitions.begin() ? 1.0 : std::prev(after)->times;
}

namespace {

WindowTiming windowTiming(const WindowTasks& tasks, const SimResult& result) {
    auto endOf = [&](TaskId task) { return result.tasks[static_cast<std::size_t>(task)].endS; };
    WindowTiming timing;
    const double startS = tasks.start >= 0 ? endOf(tasks.start) : 0.0;
    for (TaskId barrier : tasks.barriers)
        timing.barrierEndS.push_back(endOf(barrier) - startS);
    timing.endS = endOf(tasks.done) - startS;
    return timing;
}

} // namespace

double optimizerSeconds(const TrainingStep& step) {
    const std::vector<DieId>& dies = step.placement.usedDies();
    if (dies.empty())
        return sectionSeconds(step.plan.optimizer, step.graph.computeModel());
    double slowest = 0.0;
    for (DieId die : dies) {
        double seconds = 0.0;
        for (const PlannedTask& task : step.plan.optimizer.tasks)
            seconds +=
                step.graph.costOn(die, std::get<PlannedElementwise>(task.work).work()).seconds;
        slowest = std::max(slowest, seconds);
    }
    return slowest;
}

namespace {

// stepTiming's rule, on the parts of a step it reads.
StepTiming timeStep(WorkloadKind kind, const StepPlan& plan, const WindowTasks& window,
                    const WindowTasks& finalWindow, TaskId headDone, double optimizerS,
                    const WindowTasks& pipelineSends, const SimResult& result) {
    StepTiming timing;
    timing.window = windowTiming(window, result);
    timing.optimizerS = optimizerS;
    timing.layerS = timing.window.steadyLayerS(plan);
    timing.syncS = timing.window.exposedSyncS();
    if (kind == WorkloadKind::Gemm) {
        timing.stepS = result.makespanS;
        return timing;
    }
    TaskId lastWindow = window.done;
    if (finalWindow.done >= 0) {
        timing.finalWindow = windowTiming(finalWindow, result);
        timing.syncS = timing.finalWindow.exposedSyncS();
        lastWindow = finalWindow.done;
    }
    timing.headS = result.tasks[static_cast<std::size_t>(headDone)].endS -
                   result.tasks[static_cast<std::size_t>(lastWindow)].endS;
    if (plan.stages > 1) {
        timing.pipelineTimes = pipelineTimes(plan, timing.window, timing.finalWindow, timing.headS,
                                             windowTiming(pipelineSends, result));
        timing.pipeline = schedule1F1B(timing.pipelineTimes);
        timing.stepS = timing.pipeline.makespanS + timing.optimizerS;
        return timing;
    }
    timing.stepS =
        stepSeconds(plan, timing.window, timing.finalWindow, timing.headS, timing.optimizerS);
    return timing;
}

} // namespace

StepTiming stepTiming(const TrainingStep& step, const SimResult& result) {
    return timeStep(step.workload.kind, step.plan, step.window, step.finalWindow, step.headDone,
                    optimizerSeconds(step), step.pipelineSends, result);
}

StepClock stepClock(const TrainingStep& step) {
    return {step.workload.kind,     step.plan,         step.window, step.finalWindow, step.headDone,
            optimizerSeconds(step), step.pipelineSends};
}

StepTiming stepTiming(const StepClock& clock, const SimResult& result) {
    return timeStep(clock.kind, clock.plan, clock.window, clock.finalWindow, clock.headDone,
                    clock.optimizerS, clock.pipelineSends, result);
}

} // namespace ws
