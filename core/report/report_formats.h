#pragma once

#include "report/simulation_report.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ws {

// The `simulate --json` object of docs/cli.md.
nlohmann::json reportToJson(const SimulationReport& report);

// Link loads as CSV: a header, then one row per link of the wafer (idle and dead ones too).
// Columns: link,from,to,alive,bytes,busy_s,utilization,flows
std::string linkLoadsCsv(const SimulationReport& report);

// Chrome trace-event JSON (opens in Perfetto and chrome://tracing). Process 1 holds one track
// per die, process 2 one track per link carrying traffic; events that overlap in time on one
// die or link go to extra lanes ("die 3 #2") because complete events on one track must nest.
// Timestamps are microseconds.
nlohmann::json chromeTrace(const SimulationReport& report);

// The human summary printed by `simulate` without --json.
std::string humanSummary(const SimulationReport& report, const WaferTopology& topology);
// One line naming the network model times come from (docs/network-model.md): "fluid (...)" or
// "store-and-forward in 1.049 MB chunks (...)"; the app's status bar shows it as a tooltip.
std::string networkModelSummary(const NetworkSettings& network);

} // namespace ws
