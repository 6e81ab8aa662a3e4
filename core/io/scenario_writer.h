#pragma once

#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ws {

// The scenario as a user would write it, keys in the documented order (format, version,
// name, ..., then "x-..." extensions). toJson() is this, converted to nlohmann::json.
nlohmann::ordered_json toOrderedJson(const Scenario& scenario);

// A `wafer.die` object as the file writes it (every key, quantities as their text).
nlohmann::ordered_json toOrderedJson(const DieSpec& die);

// Appends the "x-..." keys an object was read with, after its own keys (every writer of core/io).
void addExtensions(nlohmann::ordered_json& object, const nlohmann::json& extensions);

// The text saveScenario() writes: 2-space indentation, a value kept on one line when it
// fits in 100 columns (so groups and paths stay readable), a final newline.
std::string formatScenarioText(const Scenario& scenario);

} // namespace ws
