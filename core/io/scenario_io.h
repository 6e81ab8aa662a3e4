#pragma once

#include "io/file_write_error.h"
#include "scenario/scenario.h"
#include "scenario/scenario_error.h"

#include <filesystem>
#include <string>

namespace ws {

// Parses and validates a scenario (docs/file-format.md). Strict: unknown keys (other than
// "x-..."), wrong types, values out of range, die ids out of range or dead, duplicate op ids,
// empty or duplicate groups, malformed pinned paths and `after` cycles are ScenarioErrors whose
// keyPath names the key. JSON syntax errors are ScenarioErrors with keyPath "line L, column C".
// Checks that need routes (pinned paths being real routes, reachability) are done when the
// traffic is planned (collectives/traffic_plan.h), those that need both the model and the
// strategy (divisibility) or the wafer and the strategy (placement) when a step is built.
// `workload` and `strategy` become typed values here, once (io/workload_reader.h,
// io/strategy_reader.h); `directory` is the scenario file's, against which a relative
// `workload.hf_config` is read (empty: the working directory).
Scenario parseScenario(const std::string& jsonText, const std::filesystem::path& directory = {});
Scenario parseScenario(const nlohmann::json& document, const std::filesystem::path& directory = {});
// Text given as a literal: without this, parseScenario("{...}") would be ambiguous (a
// nlohmann::json can be built from a const char*, and would hold just that string).
inline Scenario parseScenario(const char* jsonText, const std::filesystem::path& directory = {}) {
    return parseScenario(std::string(jsonText), directory);
}

// A `wafer.die` object on its own, with the file's rules and key paths ("wafer.die.sram: ..."):
// what an edit of one die key checks (edit/scenario_edits.h).
DieSpec parseDie(const nlohmann::json& die);

// A file's whole content; one that cannot be read (missing, a directory) is a ScenarioError
// with an empty key path ("cannot read file: No such file or directory").
std::string readWholeFile(const std::filesystem::path& file);

// Reads a file (its `hf_config` relative to the file's directory); a file that cannot be read
// is a ScenarioError with an empty key path.
Scenario loadScenario(const std::filesystem::path& file);

// The scenario as JSON, the way a user would write it (quantities as their text).
nlohmann::json toJson(const Scenario& scenario);

// Writes formatScenarioText(scenario) atomically (io/atomic_file.h): to a temporary file beside
// `file`, then renamed over it. A file that cannot be written is a FileWriteError, not a
// ScenarioError: the scenario is fine, the run failed (the CLI exits 1, not 2).
void saveScenario(const Scenario& scenario, const std::filesystem::path& file);

} // namespace ws
