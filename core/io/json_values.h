#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

// The one strict-JSON field reader of the file format (docs/architecture.md section 2): every
// reader of core/io (the scenario, `workload`, a Hugging Face config.json through JsonFields,
// `strategy`) reads its values with these, so a value is accepted or refused, and a problem
// worded, the same way wherever it appears. Each throws ScenarioError(path, problem) for the
// value found at `path` ("wafer.rows", "traffic[0].group[1]").
namespace ws {

[[noreturn]] void failAt(const std::string& path, const std::string& problem);

// "wafer" + "rows" -> "wafer.rows" ("rows" at the top level); "traffic" + 0 -> "traffic[0]".
std::string memberPath(const std::string& path, const std::string& key);
std::string elementPath(const std::string& path, std::size_t index);

bool isExtensionKey(const std::string& key); // "x-...": kept, never an error

// Rejects keys outside `known` (suggesting the closest one) and returns the "x-..." ones.
nlohmann::json checkKeys(const nlohmann::json& object, const std::string& path,
                         const std::vector<std::string>& known);

const nlohmann::json* findMember(const nlohmann::json& object, const std::string& key);
const nlohmann::json& requireMember(const nlohmann::json& object, const std::string& path,
                                    const std::string& key);

const nlohmann::json& expectObject(const nlohmann::json& value, const std::string& path);
const nlohmann::json& expectArray(const nlohmann::json& value, const std::string& path);
std::string readString(const nlohmann::json& value, const std::string& path);
bool readBoolean(const nlohmann::json& value, const std::string& path);

// Integers may be written 5 or 5.0 (some JSON writers emit every number as a double), never
// 5.5 or "5". Beyond 2^53 a double no longer holds every integer: such values are "too large".
std::int64_t readInteger(const nlohmann::json& value, const std::string& path);
// In [low, high], the range stated in the message ("must be 1 to 256, got 0"), for values far
// out of range too ("must be 1 to 256, got 1e+300").
std::int64_t readIntegerInRange(const nlohmann::json& value, const std::string& path,
                                std::int64_t low, std::int64_t high);
// A finite number.
double readNumber(const nlohmann::json& value, const std::string& path);

} // namespace ws
