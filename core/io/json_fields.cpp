#include "io/json_fields.h"

#include "io/json_values.h"
#include "scenario/scenario_error.h"

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
    throw ScenarioError(memberPath(m_path, key), problem);
}

void JsonFields::failObject(const std::string& problem) const {
    throw ScenarioError(m_path, problem);
}

template <typename Read> auto JsonFields::at(const std::string& key, Read read) const {
    if (!m_imported)
        return read(memberPath(m_path, key));
    try {
        return read(key);
    } catch (const ScenarioError& error) { // located at the file's key, inside the problem
        throw ScenarioError(m_path, error.keyPath() + ": " + error.problem());
    }
}

json JsonFields::rejectUnknownKeys(const std::vector<std::string>& known) const {
    return checkKeys(m_object, m_path, known);
}

const json* JsonFields::find(const std::string& key) const {
    const json* value = findMember(m_object, key);
    if (value == nullptr || (m_imported && value->is_null()))
        return nullptr;
    return value;
}

const json& JsonFields::require(const std::string& key) const {
    const json* value = find(key);
    if (value == nullptr)
        fail(key, "required key '" + key + "' is missing");
    return *value;
}

std::int64_t JsonFields::integer(const std::string& key, std::int64_t low,
                                 std::int64_t high) const {
    const json& value = require(key);
    return at(key,
              [&](const std::string& path) { return readIntegerInRange(value, path, low, high); });
}

std::int64_t JsonFields::integer(const std::string& key, std::int64_t low, std::int64_t high,
                                 std::int64_t fallback) const {
    return has(key) ? integer(key, low, high) : fallback;
}

double JsonFields::number(const std::string& key, double low, double high, double fallback) const {
    const json* value = find(key);
    if (value == nullptr)
        return fallback;
    const double number =
        at(key, [&](const std::string& path) { return readNumber(*value, path); });
    if (number < low || number > high)
        fail(key, "must be " + numberText(low) + " to " + numberText(high) + ", got " +
                      numberText(number));
    return number;
}

bool JsonFields::boolean(const std::string& key, bool fallback) const {
    const json* value = find(key);
    if (value == nullptr)
        return fallback;
    return at(key, [&](const std::string& path) { return readBoolean(*value, path); });
}

std::string JsonFields::string(const std::string& key) const {
    const json& value = require(key);
    return at(key, [&](const std::string& path) { return readString(value, path); });
}

std::string JsonFields::string(const std::string& key, const std::string& fallback) const {
    return has(key) ? string(key) : fallback;
}

} // namespace ws
