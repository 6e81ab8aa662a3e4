#pragma once

#include "scenario/scenario.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// The environment variables of docs/cli.md section 8 that override a scenario file, as the
// original design note asks: TCME_MAX_ITER (tcme.max_iter), TCME_ROUTING (`static` keeps
// routing.mode, `adaptive` sets it) and FSDP_ALLGATHER (`ring` or `multicast`: the algorithm of
// every FSDP all-gather in a training step).
struct EnvironmentOverrides {
    std::optional<int> tcmeMaxIter;
    std::optional<bool> adaptiveRouting;
    std::optional<Algorithm> fsdpAllGather;
    std::vector<std::string> notes; // one line per variable applied, for reports
};

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// Reads the variables through `lookup` (std::getenv by default). A malformed value is a
// ScenarioError at key "environment.NAME".
EnvironmentOverrides readEnvironmentOverrides(const EnvironmentLookup& lookup = {});

// Applies the overrides to the scenario (creating `tcme` or `routing` when needed;
// FSDP_ALLGATHER sets strategy.fsdp_allgather when there is a strategy).
void applyEnvironmentOverrides(const EnvironmentOverrides& overrides, Scenario& scenario);

} // namespace ws
