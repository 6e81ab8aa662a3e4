#pragma once

#include "scenario/strategy_spec.h"

#include <nlohmann/json.hpp>

namespace ws {

// Parses the `strategy` object of a scenario (docs/training-model.md `strategy`); the scenario
// reader calls it once, when the scenario is read. Strict: unknown keys (other than "x-...",
// which are kept) and wrong types are ScenarioErrors at "strategy.<key>"; degrees and
// micro_batches are positive integers; dp*sp*tp*tatp must not exceed the largest wafer (65536
// dies). `mapping` is "sequential" (default) or "snake"; `groups` implies "explicit" (writing
// "explicit" is also accepted, and then `groups` is required). `activation_checkpointing` is
// true, false, "none", "selective" or "full"; `sequence_parallel` needs tp > 1
// (sequenceParallelProblem). Checks that need the wafer (live dies, group shapes) are made by
// placeStrategy(), those that need the model by checkStrategyAgainstWorkload()
// (strategy/workload_divisibility.h).
StrategySpec parseStrategy(const nlohmann::json& strategy);

// The strategy as a user would write it, keys in the documented order: every key, `groups`
// instead of `mapping` for an explicit mapping, "x-..." keys last; activation_checkpointing as
// false / true for none / full (as files wrote it before "selective") and "selective";
// sequence_parallel only when true, so a file written before it existed round-trips byte for
// byte. parseStrategy(toJson(s)) == s.
nlohmann::ordered_json toOrderedJson(const StrategySpec& strategy);
nlohmann::json toJson(const StrategySpec& strategy);

} // namespace ws
