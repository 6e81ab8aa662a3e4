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

// One training step of a scenario's workload under its strategy, as a task graph for the fluid
// simulator (docs/concepts.md sections 2 and 5): the step plan (step/step_plan.h) interpreted
// task by task, each die's tasks in order, groups side by side, the plan's sections ending at
// barriers. The step time is scaled from the sections' simulated times (StepPlan::stepSeconds),
// plus the optimizer update in closed form (sectionSeconds);
// a `gemm` workload is simulated whole.
struct TrainingStep {
    Workload workload;
    StrategySpec strategy;
    Placement placement;
    StepGraph graph;
    TaskId layerDone = -1; // forward + backward of one layer (gemm: the whole forward)
    TaskId headDone = -1;  // + the LM head (transformer only)
    TaskId syncDone = -1;  // + gradient synchronisation (transformer only)
    StepPlan plan;         // what the graph was built from: memory, model FLOPs
    std::vector<GemmPartition> partitions; // the unified representation, per GEMM
    std::vector<std::string> notes;        // what was scaled or assumed, for the report
};

// Phase times read off a simulation of the step's graph, and the scaled step time.
struct StepTiming {
    double layerS = 0.0;
    double headS = 0.0;
    double syncS = 0.0;
    double optimizerS = 0.0;
    double stepS = 0.0;
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
TrainingStep buildTrainingStep(const Scenario& scenario, const WaferTopology& topology,
                               TaskLabels labels = TaskLabels::Kept,
                               const std::function<bool()>& cancel = {});

StepTiming stepTiming(const TrainingStep& step, const SimResult& result);

} // namespace ws
