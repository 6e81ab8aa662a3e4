#pragma once

#include "collectives/traffic_plan.h"
#include "scenario/scenario.h"
#include "sim/sim_problem.h"
#include "step/compute_model.h"
#include "step/memory_model.h"
#include "step/pipeline_schedule.h"
#include "step/sram_use.h"
#include "topology/wafer_topology.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// What one simulation run gives a user, as plain values (docs/cli.md, `simulate --json`).
// Every number here comes from the simulator's SimResult; nothing is estimated.

struct LinkReport {
    LinkId id = 0;
    DieId from = 0;
    DieId to = 0;
    bool alive = true;
    double bytes = 0.0;
    double busyS = 0.0;       // bytes / bandwidth
    double utilization = 0.0; // bytes / (bandwidth * makespan); 0 when makespan is 0
    int flowCount = 0;        // flows whose route crosses the link
    bool offWafer = false;    // joins two wafers of a system (docs/network-model.md section 11)
};

struct FlowReport {
    std::string id;
    std::string op;     // the op's id (a training step: the collective's or GEMM's label)
    std::string opKind; // "p2p", "allgather", ... or "tatp" for a TATP stream transfer
    DieId src = 0; // a reduction's root, where dsts' bytes arrive combined (collectives/flow.h)
    std::vector<DieId> dsts;
    bool reduction = false;
    double bytes = 0.0;
    Route route;
    double startS = 0.0; // when it began sending (its dependencies met)
    double lastByteS = 0.0;
    double endS = 0.0; // delivered
    int step = 0;
};

struct DieEvent {
    enum class Kind { Compute, Send, Recv, Idle };
    Kind kind = Kind::Send;
    double startS = 0.0;
    double endS = 0.0;
    int round = 0; // the collective step for network traffic
    std::string label;
    // Compute events of a training step (docs/compute-model.md section 9): the task's FLOPs, its
    // bytes moved between HBM and SRAM, and which term of its roofline decided its time.
    double flops = 0.0;
    double hbmBytes = 0.0;
    TaskBound bound = TaskBound::Compute;
};

// A send or a receive: network traffic, not compute or idle time.
inline bool isTransfer(DieEvent::Kind kind) {
    return kind == DieEvent::Kind::Send || kind == DieEvent::Kind::Recv;
}

// One GEMM's operands on one die, in the unified representation ("I[b0:2, m0:512, :]").
struct TensorReport {
    std::string gemm;
    std::string input;
    std::string weight;
    std::string output;
};

struct DieReport {
    DieId id = 0;
    bool alive = true;
    double computeS = 0.0;
    // Fraction of the time the die computes: computeS / makespan for explicit traffic; for a
    // training step, its compute over the whole step (every layer and micro-batch) / step time.
    double utilization = 0.0;
    double peakMemoryBytes = 0.0;
    double hbmBytes = 0.0; // training steps: HBM traffic over the whole step (read + written)
    std::vector<DieEvent> events;          // sorted by start time, then kind
    std::optional<MemoryBreakdown> memory; // training steps: dies the strategy uses
    std::vector<TensorReport> tensors;     // training steps: the sub-tensors the die holds
};

// A flow's entry in the full report: its record and its timing, with the op it belongs to, the
// op's kind and its step (which explicit traffic and a training step name differently).
FlowReport flowReportOf(const Flow& flow, const TaskTiming& timing, std::string op,
                        std::string opKind, int step);

// The flow's send event on the dies it leaves and its receive event on the dies it reaches (a
// reduction is sent by every die of dsts and received by src), appended to `dies` (by DieId).
void addFlowEvents(std::vector<DieReport>& dies, const FlowReport& flow);

// The figures of a training step (docs/training-model.md `workload` + `strategy`).
struct StepMetrics {
    double stepS = 0.0; // scaled to the whole step (see step/training_step.h)
    // Simulated, for one micro-batch: the window of windowLayers layers (forward, then backward,
    // with its overlapped gradient reductions), its steady layer's forward + backward, the LM
    // head, and the gradient synchronisation still running after the window's last backward.
    double windowS = 0.0;
    int windowLayers = 1;
    double layerS = 0.0;
    double headS = 0.0;
    double syncS = 0.0;
    double optimizerS = 0.0; // the optimizer update, once per step
    // Where the step's time goes on the average die the strategy uses (docs/compute-model.md):
    // compute at the array's rate, waiting for HBM beyond it, task overheads, the optimizer
    // update, and the rest of the step (exposed communication and waiting for other dies).
    // The five add up to stepS.
    double computeS = 0.0;
    double hbmStallS = 0.0;
    double overheadS = 0.0;
    double exposedS = 0.0;
    // Compute tasks over the whole step and every die, by the term that decided their time.
    double tasks = 0.0;
    double memoryBoundTasks = 0.0;
    double overheadBoundTasks = 0.0;
    double tokensPerSecond = 0.0;
    double modelFlops = 0.0;             // per step, 3 x forward (no recomputation)
    double achievedFlopsPerSecond = 0.0; // modelFlops / stepS
    double mfu = 0.0;                    // achieved / (peak x dies used)
    int diesUsed = 0;
    std::string strategy; // "dp 2 x tatp 8, fsdp, snake"
    std::vector<std::string> notes;
    // Pipeline stages (docs/training-model.md "Pipeline stages"): their count, the mean share of
    // the 1F1B schedule a stage's dies spend idle (step/pipeline_schedule.h; 0 with one stage), and
    // the schedule's passes (empty with one stage).
    int pp = 1;
    double ppBubbleFraction = 0.0;
    std::vector<PipelinePass> pipeline;
    // A die's SRAM (docs/compute-model.md section 4): the largest working set, whether every
    // one fits, and whether the streams fell back to single buffering.
    SramUse sram;
};

// Link load of TATP round r over the simulated window: the bytes sent for round r (every
// stream's) on the busiest link, against the round's window (the busiest die's compute time in
// round r, over every stream), so > 1 means round r's transfers cannot hide behind compute.
struct RoundLoad {
    int round = 0;
    double maxLinkBytes = 0.0;
    double windowS = 0.0;
    double maxUtilization = 0.0;
};

// The hardware a report was simulated on: the wafer preset it names, if any, and its regime
// ratios (WaferSpec::flopsPerLinkByte, flopsPerHbmByte).
struct HardwareSummary {
    std::optional<std::string> preset;
    double flopsPerLinkByte = 0.0;
    double flopsPerHbmByte = 0.0;
    // A system of several wafers (docs/network-model.md section 11): wafers down and across, and
    // its off-wafer links' speeds.
    std::optional<std::pair<int, int>> wafers;
    std::optional<LinkSpeed> offWafer;
    // A GPU cluster (docs/network-model.md section 12): its shape and network.
    std::optional<ClusterSpec> cluster;
    int nodes = 0;
    int gpusPerNode = 0;
};

HardwareSummary hardwareSummaryOf(const Scenario& scenario);

// How much of a run a report holds: everything, or all but the per-flow records and the
// per-die events, which are most of a large run's memory (about 500 bytes a flow) and what
// only the timeline, the flow views, the trace and `simulate --json=full` read. A run that will
// be reported as a summary also drops its plan's flow records (collectives/traffic_plan.h).
enum class ReportDetail { Full, Summary };

struct SimulationReport {
    std::string scenarioName;
    ReportDetail detail = ReportDetail::Full; // Summary: `flows` and every die's `events` empty
    HardwareSummary hardware;
    NetworkSettings network; // the model the times come from (scenario `network`)
    double makespanS = 0.0;
    std::vector<LinkReport> links; // every link of the wafer, by LinkId
    std::vector<FlowReport> flows; // in expansion order (Full only)
    std::size_t flowCount = 0;     // flows simulated: flows.size() in a Full report
    std::vector<DieReport> dies;   // every die, by DieId
    double energyD2dJ = 0.0;       // on-wafer link bytes * 8 * d2d_pj_per_bit
    double energyOffWaferJ = 0.0;  // off-wafer link bytes * 8 * system.pj_per_bit
    double energyComputeJ = 0.0;
    double energyHbmJ = 0.0;
    std::vector<std::string> warnings;
    std::optional<StepMetrics> step; // training steps only
    std::vector<RoundLoad> rounds;   // training steps with TATP only

    double energyJ() const { return energyD2dJ + energyOffWaferJ + energyComputeJ + energyHbmJ; }
    double totalLinkBytes() const;
    // Loaded links ordered by busy time, longest first (ties by id); at most `count`. On one
    // wafer that is the order of bytes carried; in a system an off-wafer link is slower.
    std::vector<LinkReport> hottestLinks(std::size_t count) const;
};

// The hottest link in words, the same in every view that names it (docs/gui.md "The hottest
// link"): hottestLinks(1), ranked by busy time, with that busy time, its share of the simulated
// window (its utilisation) and its bytes: "hottest link 0->rail 0: busy 9.64 ms (55% of the
// window), 241.2 MB". Empty when no link carried anything.
std::string hottestLinkText(const SimulationReport& report, const WaferTopology& topology);

// Every link of the wafer with the bytes it carried in `result`, its busy time and its
// utilisation over the result's makespan.
std::vector<LinkReport> linkReports(const WaferTopology& topology, const SimResult& result,
                                    const std::vector<double>& linkBandwidth);

// Joules for `bytes` moved at `picojoulesPerBit`: over links, or between HBM and a die.
double transferEnergyJ(double bytes, double picojoulesPerBit);
// The energy per bit of the scenario's off-wafer links: system.pj_per_bit, by default the
// wafer's d2d_pj_per_bit.
double offWaferPicojoulesPerBit(const Scenario& scenario);
// report.energyD2dJ and energyOffWaferJ from the bytes of report.links.
void setLinkEnergy(SimulationReport& report, const Scenario& scenario);

// The report of a pure network experiment. A Full one needs the plan's flow records: throws
// std::invalid_argument for a plan that dropped them (FlowRecords::Dropped). Polls `cancel`
// between blocks of flows (throws RunCancelled): a full report of 10^5 flows takes as long as
// their simulation, and Cancel must not wait for it.
SimulationReport buildSimulationReport(const Scenario& scenario, const WaferTopology& topology,
                                       const TrafficPlan& plan, const SimResult& result,
                                       std::vector<std::string> warnings,
                                       ReportDetail detail = ReportDetail::Full,
                                       const std::function<bool()>& cancel = {});

std::string toString(DieEvent::Kind kind); // "compute", "send", "recv", "idle"

} // namespace ws
