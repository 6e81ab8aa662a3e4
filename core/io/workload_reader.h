#pragma once

#include "scenario/workload.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace ws {

// Parses and validates a scenario's `workload` object (docs/training-model.md, "## workload");
// the scenario reader calls it once, when the scenario is read. Strict: unknown keys (other
// than "x-...", which are kept) are errors. Every problem is a ScenarioError whose key path
// starts with "workload." and names the key ("workload.model.heads"); problems inside a Hugging
// Face config.json are at "workload.hf_config" and name the file and its key.
// `scenarioDirectory` is the directory of the scenario file: a relative hf_config is resolved
// against it (an empty path: against the working directory).
Workload parseWorkload(const nlohmann::json& workload,
                       const std::filesystem::path& scenarioDirectory);

// The limits of a transformer's seq_len and global_batch (io/scenario_limits.h), as the reader
// applies them: a ScenarioError at the key ("workload.seq_len: must be 1 to 16777216, got 0").
// For edits that change them (edit/scenario_edits.h).
void checkWorkloadSize(const Workload& workload);

// The workload as the file writes it, keys in the documented order (every key, defaults
// included; the model as it was named: preset, object or hf_config; "x-..." keys last).
// parseWorkload(toOrderedJson(w), directory) == w.
nlohmann::ordered_json toOrderedJson(const Workload& workload);

} // namespace ws
