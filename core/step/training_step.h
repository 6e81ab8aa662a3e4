#pragma once

#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "scenario/workload.h"
#include "step/step_graph.h"
#include "step/step_plan.h"
#include "strategy/placement.h"
#include "strategy/tensor_partition.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// The graph tasks of one simulated window (StepPlan::window or finalWindow).
struct WindowTasks {
    TaskId start = -1;            // the task the window starts after (-1: it starts at t = 0)
    std::vector<TaskId> barriers; // its layer barriers, in the plan's order
    TaskId done = -1;             // its end, after its asynchronous collectives
};

// One training step of a scenario's workload under its strategy, as a task graph for the fluid
// simulator (docs/concepts.md sections 2 and 5): the step plan (step/step_plan.h) interpreted
// task by task, each die's tasks in order, groups side by side, asynchronous collectives beside
// them, the plan's sections ending at barriers. The step time is scaled from the windows' and
// the head's simulated times (step/step_plan.h, stepSeconds), plus the optimizer update in
// closed form (sectionSeconds); a `gemm` workload is simulated whole.
struct TrainingStep {
    Workload workload;
    StrategySpec strategy;
    Placement placement;
    StepGraph graph;
    WindowTasks window;                    // gemm: the whole forward
    WindowTasks finalWindow;               // empty unless the plan has one
    TaskId headDone = -1;                  // the LM head, after the windows (gemm: window.done)
    StepPlan plan;                         // what the graph was built from: memory, model FLOPs
    std::vector<GemmPartition> partitions; // the unified representation, per GEMM
    std::vector<std::string> notes;        // what was scaled or assumed, for the report
    // How often a task's work happens in a whole step: blocks of consecutive task ids, each
    // starting at `first`, in increasing order (the graph is built plan task by plan task).
    struct Repetitions {
        TaskId first = 0;
        double times = 1.0;
    };
    std::vector<Repetitions> repetitions;
    // Pipeline stages (StepPlan::pipeline): a micro-batch's sends between stages, after the
    // head; empty without stages.
    WindowTasks pipelineSends;

    double repetitionsOf(TaskId task) const;
};

// Phase times read off a simulation of the step's graph, and the scaled step time.
struct StepTiming {
    WindowTiming window;      // from the window's start
    WindowTiming finalWindow; // from its start, when the plan has one
    double layerS = 0.0;      // the steady layer's forward + backward (WindowTiming)
    double headS = 0.0;
    double syncS = 0.0; // gradient synchronisation exposed after a window's last backward
    double optimizerS = 0.0;
    double stepS = 0.0;
    // Pipeline stages only (StepPlan::stages > 1): the stages' passes and sends, and their 1F1B
    // schedule, whose makespan plus the optimizer is stepS.
    PipelineTimes pipelineTimes;
    PipelineSchedule pipeline;
};

// Whether the step's task infos carry labels (StepGraph::setTaskLabels). Timelines and reports
// need them; a caller that only simulates the problem and reads the flows can skip them.
enum class TaskLabels { Kept, Skipped };

// Throws ScenarioError ("workload.*", "strategy.*") for bad or infeasible input. FSDP
// all-gathers use strategy.fsdp_allgather (the FSDP_ALLGATHER environment variable sets it:
// io/environment_overrides.h). Callers outside core/step go through the evaluation pipeline
// (evaluation/scenario_run.h).
// Polls `cancel` between the groups' tasks (a few milliseconds apart on a 32x32 wafer) and
// throws RunCancelled (sim/run_cancelled.h) when it fires.
// Every collective's flows are counted against `limits` before any task is built: "strategy"
// when the step would pass them (collectives/expansion_budget.h).
// `records`: whether the graph keeps every flow's record (StepGraph::setFlowRecords).
TrainingStep buildTrainingStep(const Scenario& scenario, const WaferTopology& topology,
                               TaskLabels labels = TaskLabels::Kept,
                               const std::function<bool()>& cancel = {},
                               const ExpansionLimits& limits = {},
                               FlowRecords records = FlowRecords::Kept);

StepTiming stepTiming(const TrainingStep& step, const SimResult& result);

// What stepTiming reads of a step besides the simulation, kept apart from the graph: a simulation
// of the step's problem can then be timed after the graph is gone (TCME judges every candidate
// by its step time).
struct StepClock {
    WorkloadKind kind = WorkloadKind::Transformer;
    StepPlan plan;
    WindowTasks window;
    WindowTasks finalWindow;
    TaskId headDone = -1;
    double optimizerS = 0.0; // optimizerSeconds(step)
    WindowTasks pipelineSends;
};
StepClock stepClock(const TrainingStep& step);
StepTiming stepTiming(const StepClock& clock, const SimResult& result);

// The optimizer update (step/step_plan.h, costed in closed form): the slowest die's, each die
// costing its share of the parameters at its speed (StepGraph::costOn). Every die alike unless
// strategy.balance is "speed" and some dies are slow.
double optimizerSeconds(const TrainingStep& step);

} // namespace ws
