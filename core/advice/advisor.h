#pragma once

#include "advice/finding.h"
#include "evaluation/run_options.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace ws {

// The advisor (docs/advisor.md): diagnoses a scenario from its own simulation
// and offers fixes that a second simulation showed to help. Each finding id is raised only when
// the simulation shows it (the design note's rules of thumb are checked, never printed because a
// threshold is crossed): "tatp_degree" simulates the neighbouring degrees on this wafer,
// "low_utilization" names the dies and what their timelines show them waiting for.
//
// A strategy the hardware cannot place (a refusal at a `strategy` key) is not thrown: it is the
// finding "strategy_does_not_fit", followed by the nearest strategies that fit
// (docs/advisor.md). Throws ScenarioError for any other scenario that cannot be simulated (as
// `simulate` would), and
// RunCancelled when options.cancel fires (the GUI runs it off its thread). Findings come in a
// fixed order: errors first, then warnings, then info, each group in the order of the table in
// docs/advisor.md "The findings".
std::vector<Finding> adviseScenario(const Scenario& scenario, const RunOptions& options);

// `{"findings": [{"id", "severity", "message", "evidence", "fix"}]}` (docs/cli.md section 11), plus
// each finding's "dies", "links" and "time_span_s" where it has them, and "fix_effect" where a fix
// was measured.
nlohmann::ordered_json findingsJson(const std::vector<Finding>& findings);

// The scenario with a finding's fix applied: each dotted key set (a null value removes the key)
// and the result read as a file is (ScenarioError naming the key when it does not read).
Scenario applyFix(const Scenario& scenario, const nlohmann::ordered_json& fix);

} // namespace ws
