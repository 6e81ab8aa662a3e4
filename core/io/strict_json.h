#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ws {

// Parses JSON text for the scenario reader, stricter than nlohmann::json::parse:
// - a syntax error is a ScenarioError with keyPath "line L, column C" (1-based, counted in
//   bytes, pointing at the character where the parser gave up) and a problem starting
//   "JSON syntax error: ";
// - a key repeated in one object is a ScenarioError at that key's path ("wafer.rows:
//   duplicate key 'rows'"), because nlohmann would silently keep only the last value;
// - a number too large for a double is a ScenarioError at the key holding it.
nlohmann::json parseStrictJson(const std::string& text);

} // namespace ws
