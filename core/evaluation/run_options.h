#pragma once

#include "collectives/expansion_budget.h"
#include "collectives/traffic_plan.h"
#include "io/environment_overrides.h"
#include "step/training_step.h"
#include "topology/wafer_topology.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace ws {

// The stages a run passes through, in order, as the progress callback reports them.
enum class RunStage {
    Prepared,  // overrides applied, topology built, traffic planned or the step built
    Simulated, // the simulator finished
    Reported   // the report was built (only when one is asked for)
};

// How to prepare and evaluate a scenario (core/evaluation/scenario_run.h). Every caller (the
// CLI, the GUI, TCME's candidates, the search's re-scoring) fills this one struct, so an
// override, a label policy or a cancel request means the same thing everywhere.
struct RunOptions {
    // Apply the environment overrides of docs/cli.md section 8 (TCME_MAX_ITER, TCME_ROUTING,
    // FSDP_ALLGATHER) before anything is built. `environment` looks the variables up
    // (std::getenv when empty). Off for runs whose scenario already had them applied, such as
    // TCME's candidates (derived from an overridden scenario).
    bool applyEnvironment = false;
    EnvironmentLookup environment;
    // Task labels are what timelines and reports show; a run that only reads the problem and
    // its flows (TCME's candidates) skips them.
    TaskLabels labels = TaskLabels::Kept;
    // Per-flow records (collectives/traffic_plan.h, StepGraph::setFlowRecords): a run whose
    // report will be a Summary drops them (about a third less memory, for explicit traffic and
    // for a training step); reportOf(Full) then throws.
    FlowRecords flowRecords = FlowRecords::Kept;
    // Reuse a topology built for this scenario's wafer (TCME judges hundreds of candidates on
    // one wafer). Built from scenario.wafer when null.
    std::shared_ptr<const WaferTopology> topology;
    // Polled between simulation events; when it returns true the run stops by throwing
    // RunCancelled (sim/run_cancelled.h).
    std::function<bool()> cancel;
    // Told when each stage is done. Called on the thread that runs the pipeline.
    std::function<void(RunStage)> progress;
    // How many flows (and store-and-forward chunks) the run may build; a scenario past them is
    // refused as bad input before it is expanded (collectives/expansion_budget.h).
    ExpansionLimits limits;
};

// The options of a front end's run (the CLI's commands, the app's views): the environment's
// overrides applied.
inline RunOptions frontEndRunOptions() {
    RunOptions options;
    options.applyEnvironment = true;
    return options;
}

// A non-owning pointer to a topology that outlives the run (TCME's and the search's own), for
// RunOptions::topology.
inline std::shared_ptr<const WaferTopology> borrowTopology(const WaferTopology& topology) {
    return std::shared_ptr<const WaferTopology>(std::shared_ptr<void>(), &topology);
}

} // namespace ws
