#pragma once

#include "report/simulation_report.h"
#include "step/training_step.h"

namespace ws {

// The report of a simulated training step. Links, flows and die events describe the simulated
// window (one layer's forward and backward for one micro-batch, the LM head, one layer's
// gradient sync; see step/training_step.h); `step` holds the figures scaled to the whole step,
// and energy is scaled the same way (each phase's bytes and FLOPs times its repetitions).
// Polls `cancel` between blocks of tasks, as buildSimulationReport does.
SimulationReport buildStepReport(const Scenario& scenario, const WaferTopology& topology,
                                 const TrainingStep& step, const SimResult& result,
                                 std::vector<std::string> warnings,
                                 ReportDetail detail = ReportDetail::Full,
                                 const std::function<bool()>& cancel = {});

} // namespace ws
