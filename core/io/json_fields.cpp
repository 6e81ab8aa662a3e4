#include "io/json_fields.h"

#include "io/json_text.h"

#include "scenario/scenario_error.h"

#include <algorithm>
#include <cmath>

namespace ws {

using nlohmann::json;

JsonFields JsonFields::nested(const json& object, std::string path) {
    return JsonFields(object, std::move(path), false);
}

JsonFields JsonFields::imported(const json& object, std::string path) {
    return JsonFields(object, std::move(path), true);
}

void JsonFields::fail(const std::string& key, const std::string& problem) const {
    if (m_imported)
        throw ScenarioError(m_path, key + ": " + problem);
    throw ScenarioError(m_path.empty() ? key : m_path + "." + key, problem);
}

void JsonFields::failObject(const std::string& problem) const {
    throw ScenarioError(m_path, problem);
}

void JsonFields::rejectUnknownKeys(const std::vector<std::string>& known) const {
    for (const auto& item : m_object.items()) {
        const std::string& key = item.key();
        if (key.rfind("x-", 0) == 0)
            continue;
        if (std::find(known.begin(), known.end(), key) == known.end())
            fail(key, "unknown key '" + key + "'" + didYouMean(key, known));
    }
}

const json* JsonFields::find(const std::string& key) const {
    const auto it = m_object.find(key);
    if (it == m_object.end() || (m_imported && it->is_null()))
        return nullptr;
    return &*it;
}

const json& JsonFields::require(const std::string& key) const {
    const json* value = find(key);
    if (value == nullptr)
        fail(key, "required key '" + key + "' is missing");
    return *value;
}

std::int64_t JsonFields::integer(const std::string& key, std::int64_t low,
                                 std::int64_t high) const {
    // 2^53: beyond it a double no longer holds every integer, so 5e15 may not mean 5e15.
    constexpr double kExact = 9007199254740992.0;
    const json& value = require(key);
    std::int64_t result = 0;
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number > static_cast<std::uint64_t>(high))
            fail(key, "must be " + std::to_string(low) + " to " + std::to_string(high) + ", got " +
                          value.dump());
        result = static_cast<std::int64_t>(number);
    } else if (value.is_number_integer()) {
        result = value.get<std::int64_t>();
    } else if (value.is_number_float()) {
        const double number = value.get<double>();
        if (!std::isfinite(number) || std::trunc(number) != number)
            fail(key, "expected an integer, got " + numberText(number));
        if (std::fabs(number) > kExact)
            fail(key, "must be " + std::to_string(low) + " to " + std::to_string(high) + ", got " +
                          numberText(number));
        result = static_cast<std::int64_t>(number);
    } else {
        fail(key, "expected an integer, got " + jsonTypeName(value));
    }
    if (result < low || result > high)
        fail(key, "must be " + std::to_string(low) + " to " + std::to_string(high) + ", got " +
                      std::to_string(result));
    return result;
}

std::int64_t JsonFields::integer(const std::string& key, std::int64_t low, std::int64_t high,
                                 std::int64_t fallback) const {
    return has(key) ? integer(key, low, high) : fallback;
}

double JsonFields::number(const std::string& key, double low, double high, double fallback) const {
    const json* value = find(key);
    if (value == nullptr)
        return fallback;
    if (!value->is_number())
        fail(key, "expected a number, got " + jsonTypeName(*value));
    const double number = value->get<double>();
    if (!std::isfinite(number) || number < low || number > high)
        fail(key, "must be " + numberText(low) + " to " + numberText(high) + ", got " +
                      numberText(number));
    return number;
}

bool JsonFields::boolean(const std::string& key, bool fallback) const {
    const json* value = find(key);
    if (value == nullptr)
        return fallback;
    if (!value->is_boolean())
        fail(key, "expected true or false, got " + jsonTypeName(*value));
    return value->get<bool>();
}

std::string JsonFields::string(const std::string& key) const {
    const json& value = require(key);
    if (!value.is_string())
        fail(key, "expected a string, got " + jsonTypeName(value));
    return value.get<std::string>();
}

std::string JsonFields::string(const std::string& key, const std::string& fallback) const {
    return has(key) ? string(key) : fallback;
}

} // namespace ws
