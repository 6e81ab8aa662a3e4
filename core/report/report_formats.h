#pragma once

#include "report/simulation_report.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <optional>
#include <string>

namespace ws {

// "full" or "summary" (`simulate --json=`, docs/cli.md); nullopt for anything else.
std::optional<ReportDetail> reportDetailFromString(const std::string& text);

// The `simulate --json` object of docs/cli.md, streamed to `out` one link, flow or event per
// line, without building the document in memory. `detail` Full needs a Full report (throws
// std::invalid_argument for a Summary one, which has no flows or events to write).
void writeReportJson(std::ostream& out, const SimulationReport& report, ReportDetail detail);
// The same, Full, parsed back: for tests and callers that want to read fields.
nlohmann::json reportToJson(const SimulationReport& report);

// Link loads as CSV: a header, then one row per link of the wafer (idle and dead ones too).
// Columns: link,from,to,alive,bytes,busy_s,utilization,flows
std::string linkLoadsCsv(const SimulationReport& report);

// Chrome trace-event JSON (opens in Perfetto and chrome://tracing). Process 1 holds one track
// per die, process 2 one track per link carrying traffic; events that overlap in time on one
// die or link go to extra lanes ("die 3 #2") because complete events on one track must nest.
// Timestamps are microseconds. Streamed to `out`, one event per line. Needs a Full report
// (std::invalid_argument otherwise).
void writeChromeTrace(std::ostream& out, const SimulationReport& report);

// The human summary printed by `simulate` without --json.
std::string humanSummary(const SimulationReport& report, const WaferTopology& topology);
// One line naming the network model times come from (docs/network-model.md): "fluid (...)" or
// "store-and-forward in 1.049 MB chunks (...)"; the app's status bar shows it as a tooltip.
std::string networkModelSummary(const NetworkSettings& network);

} // namespace ws
