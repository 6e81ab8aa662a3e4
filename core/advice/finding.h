#pragma once

#include "topology/wafer_topology.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ws {

// One diagnosis of `waferscope-cli advise` (docs/advisor.md): what the
// simulation shows, the figures that show it, and the scenario keys that fix it.
struct Finding {
    enum class Severity { Info, Warning, Error };

    std::string id; // "low_utilization", "load_imbalance", ... (docs/advisor.md "The findings")
    Severity severity = Severity::Warning;
    std::string message; // one sentence for a user, with the figures that matter
    // The simulation's figures behind it (dies, links, times in seconds, bytes), as JSON.
    nlohmann::ordered_json evidence = nlohmann::ordered_json::object();
    // Scenario keys to change, dotted paths to values ({"strategy.balance": "speed"}), applied
    // and simulated again before it is offered; null when no change is known to help.
    std::optional<nlohmann::ordered_json> fix;
    // What applying the fix measured: the step (or makespan) before and after, in seconds.
    std::optional<double> fixBeforeS, fixAfterS;

    // Where it shows, for the GUI: dies and directed links (by their ends) to highlight, and a
    // span of the simulated timeline (seconds), when it has one.
    std::vector<DieId> dies;
    std::vector<std::pair<DieId, DieId>> links;
    std::optional<std::pair<double, double>> timeSpan;
};

const char* toString(Finding::Severity severity); // "info", "warning", "error"

} // namespace ws
