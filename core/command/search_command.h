#pragma once

#include "evaluation/run_options.h"
#include "scenario/scenario.h"
#include "search/strategy_search.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace ws {

// The ranges a front end accepts for the search's options (`--threads`, `--budget`; Python's
// `threads`, `budget`); the smallest of each is 1 (SearchOptions::threads 0, every hardware
// thread, is what a front end asks for by leaving the option out).
inline constexpr int kMaxSearchThreads = 256;
inline constexpr int kMaxSearchBudget = 10'000'000;

// What `waferscope-cli search` computed.
struct SearchOutcome {
    SearchResult result;
    // One line per environment override applied (the CLI prints them on stderr, after the
    // report: they are not part of `search --json`).
    std::vector<std::string> environmentNotes;
};

// Applies the run environment (evaluation/scenario_run.h) and runs the strategy search
// (search/strategy_search.h) on the scenario's wafer, polling options.cancel; `progress` is
// called after every generation on the calling thread. Throws ScenarioError as
// searchStrategies does, or for a malformed environment variable.
SearchOutcome searchScenario(Scenario scenario, const SearchOptions& search,
                             const RunOptions& options,
                             const std::function<void(const SearchProgress&)>& progress = {});

// The `search --json` report of docs/cli.md and docs/search.md: the options that reproduce it
// (seed, budget), the counts, the best strategy, the simulated top candidates, the baselines
// (with "speedup_of_best" where both were simulated), level 1's segment plan, the notes and
// every candidate the GA scored. Keys sorted (nlohmann::json); times in seconds, memory in
// bytes.
nlohmann::json searchReportJson(const SearchResult& result, const SearchOptions& search);

} // namespace ws
