#include "report/step_report.h"

#include "collectives/flow.h"
#include "sim/run_cancelled.h"
#include "step/collective_role.h"
#include "step/round_link_bytes.h"
#include "step/round_windows.h"
#include "step/work_shares.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>
#include <variant>

namespace ws {

namespace {

std::string strategyText(const StrategySpec& strategy) {
    std::string text;
    auto degree = [&](const char* name, int value) {
        if (value > 1)
            text += (text.empty() ? "" : " x ") + std::string(name) + " " + std::to_string(value);
    };
    degree("pp", strategy.pp);
    degree("dp", strategy.dp);
    degree("sp", strategy.sp);
    degree("tp", strategy.tp);
    degree("tatp", strategy.tatp);
    if (text.empty())
        text = "single die";
    if (strategy.fsdp)
        text += ", fsdp";
    text += std::string(", ") + toString(strategy.mapping) + " mapping";
    if (strategy.tatp > 1)
        text +=
            std::string(", ") + toString(strategy.tatpSchedule) +
            (strategy.doubleBuffering ? " streams, double-buffered" : " streams, single buffer");
    if (strategy.sequenceParallel)
        text += ", sequence parallel";
    if (strategy.tpOverlap)
        text += strategy.doubleBuffering ? ", tp overlap" : ", tp overlap, single buffer";
    if (strategy.bidirectionalRings)
        text += ", bidirectional rings";
    if (strategy.balance == StrategySpec::Balance::Speed)
        text += ", speed-balanced shares";
    if (strategy.microBatches > 1)
        text += ", " + std::to_string(strategy.microBatches) + " micro-batches";
    if (strategy.activationCheckpointing == Checkpointing::Full)
        text += ", checkpointing";
    else if (strategy.activationCheckpointing == Checkpointing::Selective)
        text += ", selective recomputation";
    return text;
}

// Idle gaps between a die's compute tasks, inside [0, end].
void addIdleEvents(DieReport& die, double end) {
    std::vector<std::pair<double, double>> busy;
    for (const DieEvent& event : die.events)
        if (event.kind == DieEvent::Kind::Compute)
            busy.emplace_back(event.startS, event.endS);
    std::sort(busy.begin(), busy.end());
    double cursor = 0.0;
    std::vector<DieEvent> idle;
    for (const auto& [start, stop] : busy) {
        if (start > cursor)
            idle.push_back({DieEvent::Kind::Idle, cursor, start, -1, "idle"});
        cursor = std::max(cursor, stop);
    }
    if (end > cursor && !busy.empty())
        idle.push_back({DieEvent::Kind::Idle, cursor, end, -1, "idle"});
    die.events.insert(die.events.end(), idle.begin(), idle.end());
}

} // namespace

SimulationReport buildStepReport(const Scenario& scenario, const WaferTopology& topology,
                                 const TrainingStep& step, const SimResult& result,
                                 std::vector<std::string> warnings, ReportDetail detail,
                                 const std::function<bool()>& cancel) {
    const StepGraph& graph = step.graph;
    const SimProblem& problem = graph.problem();
    const StepTiming timing = stepTiming(step, result);

    // How often each task's work happens in a whole step (TrainingStep::repetitions).
    auto repetitions = [&](TaskId task) { return step.repetitionsOf(task); };

    SimulationReport report;
    report.scenarioName = scenario.name;
    report.detail = detail;
    report.flowCount = graph.flowCount();
    const bool full = detail == ReportDetail::Full;
    report.hardware = hardwareSummaryOf(scenario);
    report.network = scenario.networkSettings();
    report.makespanS = result.makespanS;
    report.warnings = std::move(warnings);

    report.links = linkReports(topology, result, problem.linkBandwidth);

    report.dies.resize(static_cast<std::size_t>(topology.dieCount()));
    for (DieId die = 0; die < topology.dieCount(); ++die) {
        report.dies[static_cast<std::size_t>(die)].id = die;
        report.dies[static_cast<std::size_t>(die)].alive = topology.isAlive(die);
    }

    // A flow task carries its flow's bytes and links (StepGraph): the counts and the bytes need
    // no flow records, which a summary run may have dropped. In task order, the order of the
    // records.
    // Link bytes scaled to the whole step, on the wafers and between them (for the energy).
    double d2dBytes = 0.0;
    double offWaferBytes = 0.0;
    for (std::size_t task = 0; task < problem.tasks.size(); ++task) {
        const SimTask& flowTask = problem.tasks[task];
        if (flowTask.kind != SimTask::Kind::Flow)
            continue;
        std::size_t offWaferLinks = 0;
        for (LinkId link : flowTask.links) {
            LinkReport& linkReport = report.links[static_cast<std::size_t>(link)];
            ++linkReport.flowCount;
            offWaferLinks += linkReport.offWafer ? 1 : 0;
        }
        const double times = repetitions(static_cast<TaskId>(task));
        d2dBytes +=
            flowTask.bytes * static_cast<double>(flowTask.links.size() - offWaferLinks) * times;
        if (offWaferLinks > 0)
            offWaferBytes += flowTask.bytes * static_cast<double>(offWaferLinks) * times;
    }
    if (full) {
        if (!graph.keepsFlowRecords())
            throw std::invalid_argument("a full report needs the step's flow records, and this "
                                        "step dropped them (FlowRecords::Dropped)");
        for (const Flow& flow : graph.flows()) {
            pollCancelAt(report.flows.size(), cancel);
            const StepTaskInfo& info = graph.info()[static_cast<std::size_t>(flow.task)];
            // A transfer is a TATP round's block or a pipeline stage's send (docs/cli.md
            // section 4.1, `op_kind`).
            const bool pipeline = info.role == CollectiveRole::PipelineActivations ||
                                  info.role == CollectiveRole::PipelineGradients;
            const char* kind = info.kind != StepTaskInfo::Kind::Transfer ? "collective"
                               : pipeline                                ? "pipeline"
                                                                         : "tatp";
            FlowReport entry = flowReportOf(flow, result.tasks[static_cast<std::size_t>(flow.task)],
                                            opOfFlow(flow.id), kind, info.round);
            addFlowEvents(report.dies, entry);
            report.flows.push_back(std::move(entry));
        }
    }

    double executedFlops = 0.0;
    double hbmBytes = 0.0;
    std::vector<double> scaledCompute(static_cast<std::size_t>(topology.dieCount()), 0.0);
    StepMetrics metrics;
    for (std::size_t task = 0; task < problem.tasks.size(); ++task) {
        pollCancelAt(task, cancel);
        const SimTask& simTask = problem.tasks[task];
        if (simTask.kind != SimTask::Kind::Compute)
            continue;
        const StepTaskInfo& info = graph.info()[task];
        const TaskTiming& t = result.tasks[task];
        DieReport& die = report.dies[static_cast<std::size_t>(simTask.die)];
        if (full) {
            DieEvent event{DieEvent::Kind::Compute, t.startS, t.endS, info.round, info.label};
            event.flops = info.flops;
            event.hbmBytes = info.hbmBytes;
            event.bound = info.cost.bound;
            die.events.push_back(std::move(event));
        }
        die.computeS += simTask.seconds;
        const double times = repetitions(static_cast<TaskId>(task));
        scaledCompute[static_cast<std::size_t>(simTask.die)] += simTask.seconds * times;
        executedFlops += info.flops * times;
        die.hbmBytes += info.hbmBytes * times;
        hbmBytes += info.hbmBytes * times;
        const ComputeCost& cost = info.cost;
        metrics.tasks += times;
        if (cost.bound == TaskBound::Memory)
            metrics.memoryBoundTasks += times;
        else if (cost.bound == TaskBound::Overhead)
            metrics.overheadBoundTasks += times;
        metrics.computeS += cost.computeS * times;
        metrics.hbmStallS += cost.hbmStallS() * times;
        metrics.overheadS += cost.overheadS * times;
    }

    for (DieId die : step.placement.usedDies()) {
        DieReport& dieReport = report.dies[static_cast<std::size_t>(die)];
        dieReport.memory = scaledMemory(step.plan.memory, graph.workShare(die));
        dieReport.peakMemoryBytes = dieReport.memory->total();
        dieReport.utilization =
            timing.stepS > 0 ? scaledCompute[static_cast<std::size_t>(die)] / timing.stepS : 0;
        if (full)
            addIdleEvents(dieReport, result.makespanS);
        for (const GemmPartition& partition : step.partitions)
            for (const DieTensorBlock& block : partition.dies)
                if (block.die == die)
                    dieReport.tensors.push_back(
                        {partition.name, block.input, block.weight, block.output});
    }
    for (DieReport& die : report.dies)
        std::stable_sort(die.events.begin(), die.events.end(),
                         [](const DieEvent& a, const DieEvent& b) {
                             return std::tie(a.startS, a.kind) < std::tie(b.startS, b.kind);
                         });

    // Per-round link load: bytes each link carries for round r, against the round's window.
    const std::map<int, double> roundWindow =
        roundWindows(problem, graph.info(), step.strategy.tatp);
    if (!roundWindow.empty()) {
        // From the tasks, in task order (the order of the records, which a summary run drops).
        auto tatpRoundOf = [&](const SimTask& task) {
            const StepTaskInfo& info =
                graph.info()[static_cast<std::size_t>(&task - problem.tasks.data())];
            return info.kind == StepTaskInfo::Kind::Transfer ? info.round : -1;
        };
        for (const auto& [round, bytes] :
             roundLinkBytes(problem.tasks, tatpRoundOf, report.links.size())) {
            RoundLoad load;
            load.round = round;
            load.maxLinkBytes = *std::max_element(bytes.begin(), bytes.end());
            load.windowS = roundWindow.count(round) ? roundWindow.at(round) : 0.0;
            // The busiest link by time, not bytes: a system's off-wafer links are slower.
            std::size_t busiest = 0;
            for (std::size_t link = 1; link < bytes.size(); ++link)
                if (bytes[link] / problem.linkBandwidth[link] >
                    bytes[busiest] / problem.linkBandwidth[busiest])
                    busiest = link;
            load.maxUtilization =
                load.windowS > 0 ? bytes[busiest] / (problem.linkBandwidth[busiest] * load.windowS)
                                 : 0.0;
            report.rounds.push_back(load);
        }
    }

    // The optimizer update (costed in closed form, step/step_plan.h) runs on every die used.
    for (const PlannedTask& task : step.plan.optimizer.tasks) {
        const auto& work = std::get<PlannedElementwise>(task.work);
        for (DieId die : step.placement.usedDies()) {
            const ComputeCost cost = graph.costOn(die, work.work());
            const double dieHbmBytes = graph.workOn(die, work.work()).hbmBytes;
            report.dies[static_cast<std::size_t>(die)].hbmBytes += dieHbmBytes;
            hbmBytes += dieHbmBytes;
            metrics.tasks += 1.0;
            metrics.memoryBoundTasks += cost.bound == TaskBound::Memory ? 1.0 : 0.0;
            metrics.overheadBoundTasks += cost.bound == TaskBound::Overhead ? 1.0 : 0.0;
        }
    }
    metrics.stepS = timing.stepS;
    metrics.windowS = timing.window.endS;
    metrics.windowLayers = step.plan.windowLayers;
    metrics.layerS = timing.layerS;
    metrics.headS = timing.headS;
    metrics.syncS = timing.syncS;
    metrics.optimizerS = timing.optimizerS;
    metrics.diesUsed = static_cast<int>(step.placement.usedDies().size());
    // The breakdown's sums ran over every die: average them over the dies the strategy uses.
    // A gemm workload's window is its whole step, so nothing is scaled.
    const double dies = std::max(1, metrics.diesUsed);
    metrics.computeS /= dies;
    metrics.hbmStallS /= dies;
    metrics.overheadS /= dies;
    metrics.exposedS = std::max(0.0, timing.stepS - metrics.computeS - metrics.hbmStallS -
                                         metrics.overheadS - metrics.optimizerS);
    metrics.modelFlops = step.plan.modelFlopsPerStep;
    metrics.tokensPerSecond = timing.stepS > 0 ? step.workload.tokensPerStep() / timing.stepS : 0;
    metrics.achievedFlopsPerSecond =
        timing.stepS > 0 ? step.plan.modelFlopsPerStep / timing.stepS : 0;
    const double peak = scenario.wafer.die.peakFlops.value * metrics.diesUsed;
    metrics.mfu = peak > 0 ? metrics.achievedFlopsPerSecond / peak : 0.0;
    metrics.strategy = strategyText(step.strategy);
    metrics.pp = step.plan.stages;
    metrics.ppBubbleFraction = timing.pipeline.bubbleFraction;
    metrics.pipeline = timing.pipeline.passes;
    metrics.sram = step.plan.sram;
    metrics.notes = step.notes;
    for (const std::string& note : step.placement.notes())
        metrics.notes.push_back(note);
    report.step = metrics;

    const EnergySpec& energy = scenario.wafer.energy;
    report.energyD2dJ = transferEnergyJ(d2dBytes, energy.d2dPicojoulesPerBit);
    report.energyOffWaferJ = transferEnergyJ(offWaferBytes, offWaferPicojoulesPerBit(scenario));
    report.energyComputeJ = executedFlops / energy.flopsPerJoule;
    // HBM traffic: every compute task's HBM bytes (step/compute_model.h), scaled to the step.
    report.energyHbmJ = transferEnergyJ(hbmBytes, energy.hbmPicojoulesPerBit);
    return report;
}

} // namespace ws
