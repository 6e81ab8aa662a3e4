#include "io/strategy_reader.h"

#include "io/json_text.h"

#include "scenario/scenario_error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace ws {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The largest wafer is 256 x 256 dies (docs/file-format.md): no strategy can use more.
constexpr std::int64_t kMaxDies = 256 * 256;

const std::vector<std::string> kKnownKeys = {"dp",
                                             "sp",
                                             "tp",
                                             "tatp",
                                             "fsdp",
                                             "fsdp_allgather",
                                             "tatp_schedule",
                                             "double_buffering",
                                             "mapping",
                                             "micro_batches",
                                             "activation_checkpointing",
                                             "groups"};

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
    throw ScenarioError(path, problem);
}

bool isExtensionKey(const std::string& key) {
    return key.rfind("x-", 0) == 0;
}

// Integers may be written 4 or 4.0 (as the scenario reader allows), never 4.5.
std::int64_t readInteger(const json& value, const std::string& path) {
    constexpr double kExact = 9007199254740992.0; // 2^53
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number > static_cast<std::uint64_t>(kExact))
            fail(path, "the integer " + value.dump() + " is too large");
        return static_cast<std::int64_t>(number);
    }
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (!std::isfinite(number) || std::trunc(number) != number)
            fail(path, "expected an integer, got " + value.dump());
        if (std::fabs(number) > kExact)
            fail(path, "the integer " + value.dump() + " is too large");
        return static_cast<std::int64_t>(number);
    }
    fail(path, "expected an integer, got " + jsonTypeName(value));
}

int readPositive(const json& value, const std::string& path) {
    const std::int64_t number = readInteger(value, path);
    if (number < 1)
        fail(path, "must be a positive integer, got " + std::to_string(number));
    if (number > kMaxDies)
        fail(path, std::to_string(number) + " is more than the dies of the largest wafer (" +
                       std::to_string(kMaxDies) + ")");
    return static_cast<int>(number);
}

bool readBool(const json& value, const std::string& path) {
    if (!value.is_boolean())
        fail(path, "expected true or false, got " + jsonTypeName(value));
    return value.get<bool>();
}

std::string readString(const json& value, const std::string& path) {
    if (!value.is_string())
        fail(path, "expected a string, got " + jsonTypeName(value));
    return value.get<std::string>();
}

// A list of groups of die ids: [[0, 1], [2, 3]]. Ids are only checked to be non-negative
// integers here; the wafer checks the rest (placeStrategy).
std::vector<std::vector<DieId>> readGroups(const json& value, const std::string& path) {
    if (!value.is_array())
        fail(path, "expected an array of groups (arrays of die ids), got " + jsonTypeName(value));
    std::vector<std::vector<DieId>> groups;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string groupPath = path + "[" + std::to_string(i) + "]";
        const json& group = value[i];
        if (!group.is_array())
            fail(groupPath, "expected an array of die ids, got " + jsonTypeName(group));
        if (group.empty())
            fail(groupPath, "a group needs at least one die");
        std::vector<DieId> dies;
        for (std::size_t j = 0; j < group.size(); ++j) {
            const std::string diePath = groupPath + "[" + std::to_string(j) + "]";
            const std::int64_t die = readInteger(group[j], diePath);
            if (die < 0 || die >= kMaxDies)
                fail(diePath, "die " + std::to_string(die) + " is not a die id");
            dies.push_back(static_cast<DieId>(die));
        }
        groups.push_back(std::move(dies));
    }
    return groups;
}

} // namespace

StrategySpec parseStrategy(const json& strategy) {
    const std::string root = "strategy";
    if (!strategy.is_object())
        fail(root, "expected an object, got " + jsonTypeName(strategy));
    StrategySpec spec;
    for (const auto& [key, value] : strategy.items()) {
        if (isExtensionKey(key)) {
            spec.extensions[key] = value;
            continue;
        }
        if (std::find(kKnownKeys.begin(), kKnownKeys.end(), key) == kKnownKeys.end()) {
            std::string known;
            for (const std::string& name : kKnownKeys)
                known += (known.empty() ? "" : ", ") + name;
            fail(root + "." + key, "unknown key '" + key + "' (known keys: " + known + ")");
        }
    }
    const auto at = [&](const char* key) -> const json* {
        const auto it = strategy.find(key);
        return it == strategy.end() ? nullptr : &*it;
    };
    const auto path = [&](const char* key) { return root + "." + key; };

    if (const json* v = at("dp"))
        spec.dp = readPositive(*v, path("dp"));
    if (const json* v = at("sp"))
        spec.sp = readPositive(*v, path("sp"));
    if (const json* v = at("tp"))
        spec.tp = readPositive(*v, path("tp"));
    if (const json* v = at("tatp"))
        spec.tatp = readPositive(*v, path("tatp"));
    const std::int64_t product = std::int64_t{spec.dp} * spec.sp * spec.tp * spec.tatp;
    if (product > kMaxDies)
        fail(root, "dp*sp*tp*tatp = " + std::to_string(product) +
                       " dies, more than the largest wafer (256 x 256 = 65536 dies)");
    if (const json* v = at("fsdp"))
        spec.fsdp = readBool(*v, path("fsdp"));
    if (const json* v = at("fsdp_allgather")) {
        const std::string name = readString(*v, path("fsdp_allgather"));
        if (name == "ring")
            spec.fsdpAllGatherMulticast = false;
        else if (name == "multicast")
            spec.fsdpAllGatherMulticast = true;
        else
            fail(path("fsdp_allgather"),
                 "unknown algorithm '" + name + "'; expected \"ring\" or \"multicast\"");
    }
    if (const json* v = at("tatp_schedule")) {
        const std::string name = readString(*v, path("tatp_schedule"));
        if (name == "bidirectional")
            spec.tatpSchedule = TatpSchedule::Bidirectional;
        else if (name == "ring")
            spec.tatpSchedule = TatpSchedule::Ring;
        else
            fail(path("tatp_schedule"),
                 "unknown schedule '" + name + "'; expected \"bidirectional\" or \"ring\"");
    }
    if (const json* v = at("double_buffering"))
        spec.doubleBuffering = readBool(*v, path("double_buffering"));
    if (const json* v = at("activation_checkpointing"))
        spec.activationCheckpointing = readBool(*v, path("activation_checkpointing"));
    if (const json* v = at("micro_batches"))
        spec.microBatches = readPositive(*v, path("micro_batches"));

    const json* groups = at("groups");
    if (const json* v = at("mapping")) {
        const std::string name = readString(*v, path("mapping"));
        if (name == "sequential" || name == "snake") {
            if (groups != nullptr)
                fail(path("mapping"), "\"" + name +
                                          "\" conflicts with `groups`, which fixes the mapping; "
                                          "omit `mapping` or write \"explicit\"");
            spec.mapping = name == "snake" ? StrategySpec::Snake : StrategySpec::Sequential;
        } else if (name == "explicit") {
            if (groups == nullptr)
                fail(path("groups"), "mapping \"explicit\" needs `groups` ({\"dp\": [[...]], "
                                     "\"tatp\": [[...]]})");
        } else {
            fail(path("mapping"), "unknown mapping '" + name +
                                      "'; expected \"sequential\" or \"snake\" (or `groups` for "
                                      "an explicit mapping)");
        }
    }
    if (groups != nullptr) {
        const std::string groupsPath = path("groups");
        if (!groups->is_object())
            fail(groupsPath, "expected an object {\"dp\": [[...]], \"tatp\": [[...]]}, got " +
                                 jsonTypeName(*groups));
        for (const auto& [key, value] : groups->items()) {
            if (key == "dp")
                spec.dpGroups = readGroups(value, groupsPath + ".dp");
            else if (key == "tatp")
                spec.tatpGroups = readGroups(value, groupsPath + ".tatp");
            else if (isExtensionKey(key))
                continue; // accepted and ignored: nothing below `groups` is kept
            else
                fail(groupsPath + "." + key, "unknown key '" + key +
                                                 "' (known keys: dp, tatp; explicit groups support "
                                                 "DP and TATP only)");
        }
        if (spec.dpGroups.empty() && spec.tatpGroups.empty())
            fail(groupsPath, "needs \"dp\" or \"tatp\" groups");
        spec.mapping = StrategySpec::Explicit;
    }
    return spec;
}

ordered_json toOrderedJson(const StrategySpec& spec) {
    ordered_json out = ordered_json::object();
    out["dp"] = spec.dp;
    out["sp"] = spec.sp;
    out["tp"] = spec.tp;
    out["tatp"] = spec.tatp;
    out["fsdp"] = spec.fsdp;
    out["fsdp_allgather"] = spec.fsdpAllGatherMulticast ? "multicast" : "ring";
    out["tatp_schedule"] = toString(spec.tatpSchedule);
    out["double_buffering"] = spec.doubleBuffering;
    if (spec.mapping == StrategySpec::Explicit) {
        // `groups` says "explicit" by itself (docs/training-model.md `strategy.groups`).
        ordered_json groups = ordered_json::object();
        if (!spec.dpGroups.empty())
            groups["dp"] = spec.dpGroups;
        if (!spec.tatpGroups.empty())
            groups["tatp"] = spec.tatpGroups;
        out["groups"] = groups;
    } else {
        out["mapping"] = toString(spec.mapping);
    }
    out["micro_batches"] = spec.microBatches;
    out["activation_checkpointing"] = spec.activationCheckpointing;
    for (const auto& [key, value] : spec.extensions.items())
        out[key] = value;
    return out;
}

json toJson(const StrategySpec& spec) {
    return json(toOrderedJson(spec));
}

} // namespace ws
