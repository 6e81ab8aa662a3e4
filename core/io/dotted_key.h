#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ws {

// Sets `value` at the dotted `key` of a scenario document ("strategy.tatp", "wafer.die.sram"),
// creating the objects on the way; a null `value` removes the key instead. A step through
// something that is not an object is a ScenarioError at the key. The sweep's axes
// (sweep/sweep_spec.h) and the advisor's fixes (advice/advisor.h) are both dotted keys.
void setDottedKey(nlohmann::ordered_json& document, const std::string& key,
                  const nlohmann::json& value);

} // namespace ws
