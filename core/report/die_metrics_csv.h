#pragma once

#include "report/simulation_report.h"

#include <string>

namespace ws {

// Per-die metrics as CSV: a header, then one row per die of the wafer (dead and unused ones
// too), by die id. Columns:
//   die,alive,compute_s,utilization,peak_memory_bytes,weights_bytes,gradients_bytes,
//   optimizer_bytes,activations_bytes,stream_buffers_bytes,comm_reserve_bytes,total_bytes,
//   sram_bytes,hbm_bytes,fits_sram,out_of_memory
// compute_s is seconds of compute in the simulated window, utilization = compute_s / makespan.
// The memory columns are bytes from the training step's memory model; they are empty for a
// die without one (pure traffic scenarios, dies the strategy does not use), as are fits_sram
// and out_of_memory (1 or 0 otherwise).
std::string dieMetricsCsv(const SimulationReport& report);

} // namespace ws
