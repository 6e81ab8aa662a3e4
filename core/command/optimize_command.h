#pragma once

#include "evaluation/run_options.h"
#include "scenario/scenario.h"
#include "tcme/tcme_engine.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ws {

// The largest iteration cap a front end accepts for optimize (`--max-iter N`, Python's
// `max_iter`); the smallest is 1.
inline constexpr int kMaxOptimizeIterations = 1000;

// What `waferscope-cli optimize` computed: TCME run to its stop on the scenario as the front
// end sees it (environment overrides applied, then the caller's iteration cap).
struct OptimizeOutcome {
    // The input with the tuned routes pinned (tcme/tcme_engine.h); its name is the input's.
    Scenario tunedScenario;
    std::vector<TcmeIteration> iterations;
    TcmeStopReason stopReason = TcmeStopReason::NoGain;
    TcmeSnapshot before; // the input as evaluated
    TcmeSnapshot after;  // the tuned scenario: never worse than `before`
    // One line per override applied: the environment's (options.applyEnvironment), then
    // "--max-iter N overrides tcme.max_iter" when maxIter was given.
    std::vector<std::string> warnings;
};

// Applies the run environment (evaluation/scenario_run.h), caps TCME at `maxIter` iterations
// when given (1..kMaxOptimizeIterations, not checked here: the front end refuses the rest in
// its own words), and runs the engine until it stops or options.cancel fires (stopReason
// Cancelled). Throws ScenarioError for a scenario that does not simulate or a malformed
// environment variable.
OptimizeOutcome optimizeScenario(Scenario scenario, std::optional<int> maxIter,
                                 const RunOptions& options);

// The `optimize --json` report of docs/cli.md: {"iterations": [...], "stop_reason",
// "before", "after", "warnings"}, keys sorted (nlohmann::json), times in seconds and loads in
// bytes.
nlohmann::json optimizeReportJson(const OptimizeOutcome& outcome);

// "reroute", "multicast" or "hierarchical": an action's kind as the reports name it.
const char* toString(TcmeAction::Kind kind);

} // namespace ws
