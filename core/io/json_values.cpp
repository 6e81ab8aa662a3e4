#include "io/json_values.h"

#include "io/json_text.h"
#include "scenario/scenario_error.h"

#include <algorithm>
#include <cmath>

namespace ws {

using nlohmann::json;

namespace {

// 2^53: beyond it a double no longer holds every integer, so 5e15 may not mean 5e15.
constexpr double kExactIntegers = 9007199254740992.0;

std::string rangeText(std::int64_t low, std::int64_t high) {
    return "must be " + std::to_string(low) + " to " + std::to_string(high);
}

} // namespace

void failAt(const std::string& path, const std::string& problem) {
    throw ScenarioError(path, problem);
}

std::string memberPath(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}

std::string elementPath(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

bool isExtensionKey(const std::string& key) {
    return key.rfind("x-", 0) == 0;
}

json checkKeys(const json& object, const std::string& path, const std::vector<std::string>& known) {
    json extensions = json::object();
    for (const auto& [key, value] : object.items()) {
        if (isExtensionKey(key)) {
            extensions[key] = value;
            continue;
        }
        if (std::find(known.begin(), known.end(), key) == known.end())
            failAt(memberPath(path, key), "unknown key '" + key + "'" + didYouMean(key, known));
    }
    return extensions;
}

const json* findMember(const json& object, const std::string& key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const json& requireMember(const json& object, const std::string& path, const std::string& key) {
    const json* value = findMember(object, key);
    if (value == nullptr)
        failAt(memberPath(path, key), "required key '" + key + "' is missing");
    return *value;
}

const json& expectObject(const json& value, const std::string& path) {
    if (!value.is_object())
        failAt(path, "expected an object, got " + jsonTypeName(value));
    return value;
}

const json& expectArray(const json& value, const std::string& path) {
    if (!value.is_array())
        failAt(path, "expected an array, got " + jsonTypeName(value));
    return value;
}

std::string readString(const json& value, const std::string& path) {
    if (!value.is_string())
        failAt(path, "expected a string, got " + jsonTypeName(value));
    return value.get<std::string>();
}

bool readBoolean(const json& value, const std::string& path) {
    if (!value.is_boolean())
        failAt(path, "expected true or false, got " + jsonTypeName(value));
    return value.get<bool>();
}

std::int64_t readInteger(const json& value, const std::string& path) {
    if (value.is_number_integer() && !value.is_number_unsigned())
        return value.get<std::int64_t>();
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number > static_cast<std::uint64_t>(kExactIntegers))
            failAt(path, "the integer " + value.dump() + " is too large");
        return static_cast<std::int64_t>(number);
    }
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (!std::isfinite(number) || std::trunc(number) != number)
            failAt(path, "expected an integer, got " + numberText(number));
        if (std::fabs(number) > kExactIntegers)
            failAt(path, "the integer " + numberText(number) + " is too large");
        return static_cast<std::int64_t>(number);
    }
    failAt(path, "expected an integer, got " + jsonTypeName(value));
}

std::int64_t readIntegerInRange(const json& value, const std::string& path, std::int64_t low,
                                std::int64_t high) {
    // Out of range is said as such even where readInteger would call the value too large.
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::max<std::int64_t>(high, 0)))
        failAt(path, rangeText(low, high) + ", got " + value.dump());
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (std::isfinite(number) && std::trunc(number) == number &&
            (number < static_cast<double>(low) || number > static_cast<double>(high)))
            failAt(path, rangeText(low, high) + ", got " + numberText(number));
    }
    const std::int64_t number = readInteger(value, path);
    if (number < low || number > high)
        failAt(path, rangeText(low, high) + ", got " + std::to_string(number));
    return number;
}

double readNumber(const json& value, const std::string& path) {
    if (!value.is_number())
        failAt(path, "expected a number, got " + jsonTypeName(value));
    const double number = value.get<double>();
    if (!std::isfinite(number))
        failAt(path, "expected a finite number");
    return number;
}

} // namespace ws
