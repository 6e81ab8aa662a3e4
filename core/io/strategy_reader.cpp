#include "io/strategy_reader.h"

#include "io/json_text.h"
#include "io/json_values.h"
#include "io/scenario_limits.h"
#include "io/scenario_writer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The largest wafer is 256 x 256 dies (docs/file-format.md): no strategy can use more.
using limits::kMaxDies;

const std::vector<std::string> kKnownKeys = {"dp",
                                             "pp",
                                             "sp",
                                             "tp",
                                             "tatp",
                                             "fsdp",
                                             "fsdp_allgather",
                                             "fsdp_reducescatter",
                                             "ring_algorithm",
                                             "tatp_schedule",
                                             "double_buffering",
                                             "mapping",
                                             "micro_batches",
                                             "activation_checkpointing",
                                             "sequence_parallel",
                                             "tp_overlap",
                                             "balance",
                                             "groups"};

// `true` / `false` (as before "selective" existed) or a name: "none", "selective", "full".
Checkpointing readCheckpointing(const json& value, const std::string& path) {
    if (value.is_boolean())
        return value.get<bool>() ? Checkpointing::Full : Checkpointing::None;
    if (!value.is_string())
        failAt(path, "expected true, false, \"none\", \"selective\" or \"full\", got " +
                         jsonTypeName(value));
    const std::string text = value.get<std::string>();
    if (const std::optional<Checkpointing> parsed = checkpointingFromString(text))
        return *parsed;
    const std::vector<std::string> names = {"none", "selective", "full"};
    failAt(path, "unknown checkpointing '" + text + "'; expected one of " + joinedNames(names) +
                     " (or true for full, false for none)" + didYouMean(text, names));
}

int readPositive(const json& value, const std::string& path) {
    const std::int64_t number = readInteger(value, path);
    if (number < 1)
        failAt(path, "must be a positive integer, got " + std::to_string(number));
    if (number > kMaxDies)
        failAt(path, std::to_string(number) + " is more than the dies of the largest wafer (" +
                         std::to_string(kMaxDies) + ")");
    return static_cast<int>(number);
}

// A list of groups of die ids: [[0, 1], [2, 3]]. Ids are only checked to be non-negative
// integers here; the wafer checks the rest (placeStrategy).
std::vector<std::vector<DieId>> readGroups(const json& value, const std::string& path) {
    if (!value.is_array())
        failAt(path, "expected an array of groups (arrays of die ids), got " + jsonTypeName(value));
    std::vector<std::vector<DieId>> groups;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string groupPath = elementPath(path, i);
        const json& group = value[i];
        if (!group.is_array())
            failAt(groupPath, "expected an array of die ids, got " + jsonTypeName(group));
        if (group.empty())
            failAt(groupPath, "a group needs at least one die");
        std::vector<DieId> dies;
        for (std::size_t j = 0; j < group.size(); ++j) {
            const std::string diePath = elementPath(groupPath, j);
            const std::int64_t die = readInteger(group[j], diePath);
            if (die < 0 || die >= kMaxDies)
                failAt(diePath, "die " + std::to_string(die) + " is not a die id");
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
        failAt(root, "expected an object, got " + jsonTypeName(strategy));
    StrategySpec spec;
    spec.extensions = checkKeys(strategy, root, kKnownKeys);
    const auto at = [&](const char* key) { return findMember(strategy, key); };
    const auto path = [&](const char* key) { return memberPath(root, key); };

    if (const json* v = at("dp"))
        spec.dp = readPositive(*v, path("dp"));
    if (const json* v = at("sp"))
        spec.sp = readPositive(*v, path("sp"));
    if (const json* v = at("tp"))
        spec.tp = readPositive(*v, path("tp"));
    if (const json* v = at("tatp"))
        spec.tatp = readPositive(*v, path("tatp"));
    if (const json* v = at("pp"))
        spec.pp = readPositive(*v, path("pp"));
    const std::int64_t product = std::int64_t{spec.pp} * spec.dp * spec.sp * spec.tp * spec.tatp;
    if (product > kMaxDies)
        failAt(root, std::string(spec.pp > 1 ? "pp*" : "") +
                         "dp*sp*tp*tatp = " + std::to_string(product) +
                         " dies, more than the largest wafer (256 x 256 = 65536 dies)");
    if (const json* v = at("fsdp"))
        spec.fsdp = readBoolean(*v, path("fsdp"));
    // How an FSDP collective runs: the ring, or the other algorithm named (true).
    const auto readRingOr = [&](const json& value, const char* key, const std::string& other) {
        const std::string name = readString(value, path(key));
        if (name != "ring" && name != other)
            failAt(path(key),
                   "unknown algorithm '" + name + "'; expected \"ring\" or \"" + other + "\"");
        return name == other;
    };
    if (const json* v = at("fsdp_allgather"))
        spec.fsdpAllGatherMulticast = readRingOr(*v, "fsdp_allgather", "multicast");
    if (const json* v = at("fsdp_reducescatter"))
        spec.fsdpReduceScatterTree = readRingOr(*v, "fsdp_reducescatter", "tree");
    if (const json* v = at("ring_algorithm"))
        spec.bidirectionalRings = readRingOr(*v, "ring_algorithm", "bidirectional_ring");
    if (const json* v = at("tatp_schedule")) {
        const std::string name = readString(*v, path("tatp_schedule"));
        if (name == "bidirectional")
            spec.tatpSchedule = TatpSchedule::Bidirectional;
        else if (name == "ring")
            spec.tatpSchedule = TatpSchedule::Ring;
        else
            failAt(path("tatp_schedule"),
                   "unknown schedule '" + name + "'; expected \"bidirectional\" or \"ring\"");
    }
    if (const json* v = at("balance")) {
        const std::string name = readString(*v, path("balance"));
        if (name == "even")
            spec.balance = StrategySpec::Balance::Even;
        else if (name == "speed")
            spec.balance = StrategySpec::Balance::Speed;
        else
            failAt(path("balance"),
                   "unknown balance '" + name + "'; expected \"even\" or \"speed\"");
    }
    if (const json* v = at("double_buffering"))
        spec.doubleBuffering = readBoolean(*v, path("double_buffering"));
    if (const json* v = at("activation_checkpointing"))
        spec.activationCheckpointing = readCheckpointing(*v, path("activation_checkpointing"));
    if (const json* v = at("sequence_parallel")) {
        spec.sequenceParallel = readBoolean(*v, path("sequence_parallel"));
        if (const std::string problem = sequenceParallelProblem(spec); !problem.empty())
            failAt(path("sequence_parallel"), problem);
    }
    if (const json* v = at("tp_overlap")) {
        spec.tpOverlap = readBoolean(*v, path("tp_overlap"));
        if (const std::string problem = tpOverlapProblem(spec); !problem.empty())
            failAt(path("tp_overlap"), problem);
    }
    if (const json* v = at("micro_batches"))
        spec.microBatches = readPositive(*v, path("micro_batches"));

    const json* groups = at("groups");
    if (const json* v = at("mapping")) {
        const std::string name = readString(*v, path("mapping"));
        if (name == "sequential" || name == "snake") {
            if (groups != nullptr)
                failAt(path("mapping"), "\"" + name +
                                            "\" conflicts with `groups`, which fixes the mapping; "
                                            "omit `mapping` or write \"explicit\"");
            spec.mapping = name == "snake" ? StrategySpec::Snake : StrategySpec::Sequential;
        } else if (name == "explicit") {
            if (groups == nullptr)
                failAt(path("groups"), "mapping \"explicit\" needs `groups` ({\"dp\": [[...]], "
                                       "\"tatp\": [[...]]})");
        } else {
            failAt(path("mapping"), "unknown mapping '" + name +
                                        "'; expected \"sequential\" or \"snake\" (or `groups` for "
                                        "an explicit mapping)");
        }
    }
    if (groups != nullptr) {
        const std::string groupsPath = path("groups");
        if (!groups->is_object())
            failAt(groupsPath, "expected an object {\"dp\": [[...]], \"tatp\": [[...]]}, got " +
                                   jsonTypeName(*groups));
        for (const auto& [key, value] : groups->items()) {
            if (key == "dp")
                spec.dpGroups = readGroups(value, groupsPath + ".dp");
            else if (key == "tatp")
                spec.tatpGroups = readGroups(value, groupsPath + ".tatp");
            else if (isExtensionKey(key))
                continue; // accepted and ignored: nothing below `groups` is kept
            else
                failAt(groupsPath + "." + key,
                       "unknown key '" + key +
                           "' (known keys: dp, tatp; explicit groups support "
                           "DP and TATP only)");
        }
        if (spec.dpGroups.empty() && spec.tatpGroups.empty())
            failAt(groupsPath, "needs \"dp\" or \"tatp\" groups");
        spec.mapping = StrategySpec::Explicit;
        if (spec.pp > 1)
            failAt(path("pp"), "pipeline stages are placed by the \"sequential\" or \"snake\" "
                               "mapping; explicit `groups` place one stage only");
    }
    return spec;
}

ordered_json toOrderedJson(const StrategySpec& spec) {
    ordered_json out = ordered_json::object();
    out["dp"] = spec.dp;
    out["sp"] = spec.sp;
    out["tp"] = spec.tp;
    out["tatp"] = spec.tatp;
    if (spec.pp > 1) // files without it keep their text
        out["pp"] = spec.pp;
    out["fsdp"] = spec.fsdp;
    out["fsdp_allgather"] = spec.fsdpAllGatherMulticast ? "multicast" : "ring";
    if (spec.fsdpReduceScatterTree) // files without it keep their text
        out["fsdp_reducescatter"] = "tree";
    if (spec.bidirectionalRings) // files without it keep their text
        out["ring_algorithm"] = "bidirectional_ring";
    out["tatp_schedule"] = toString(spec.tatpSchedule);
    out["double_buffering"] = spec.doubleBuffering;
    if (spec.balance != StrategySpec::Balance::Even) // files without it keep their text
        out["balance"] = toString(spec.balance);
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
    // false / true as files wrote them before "selective" existed, so old files round-trip.
    switch (spec.activationCheckpointing) {
    case Checkpointing::None:
        out["activation_checkpointing"] = false;
        break;
    case Checkpointing::Full:
        out["activation_checkpointing"] = true;
        break;
    case Checkpointing::Selective:
        out["activation_checkpointing"] = toString(spec.activationCheckpointing);
        break;
    }
    // Only when on: a file that never had the key is written as it was.
    if (spec.sequenceParallel)
        out["sequence_parallel"] = true;
    if (spec.tpOverlap)
        out["tp_overlap"] = true;
    addExtensions(out, spec.extensions);
    return out;
}

json toJson(const StrategySpec& spec) {
    return json(toOrderedJson(spec));
}

} // namespace ws
