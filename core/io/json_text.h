#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace ws {

// Small pieces of error-message text shared by every strict JSON reader (the scenario file,
// `workload`, `strategy`), so that all of them word problems the same way.

// "null", "a boolean", "an integer", "a number", "a string", "an array", "an object".
std::string jsonTypeName(const nlohmann::json& value);

// A number as a user would write it: 1.5 -> "1.5", 2.0 -> "2", 1e30 -> "1e+30".
std::string numberText(double value);

// Edit distance (Levenshtein, a swap of neighbouring letters counting as one edit), for
// "did you mean" hints on unknown keys.
std::size_t editDistance(const std::string& a, const std::string& b);

// "a, b, c": names listed in a message.
std::string joinedNames(const std::vector<std::string>& names);

// "; did you mean 'x'?" for the closest candidate within edit distance 2, else "".
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates);

} // namespace ws
