#include "sweep/sweep_spec.h"

#include "io/dotted_key.h"
#include "io/scenario_io.h"
#include "io/strict_json.h"
#include "scenario/scenario_error.h"
#include "sweep/fault_sample.h"

#include <algorithm>

namespace ws {

namespace {

// The sweep file's limit on points: a sweep past it is a typo in an axis, not a study.
constexpr std::size_t kMaxPoints = 10'000'000;

nlohmann::ordered_json readBase(const nlohmann::ordered_json& value,
                                const std::filesystem::path& directory,
                                std::filesystem::path& baseDirectory) {
    if (value.is_object()) {
        baseDirectory = directory;
        return value;
    }
    if (!value.is_string())
        throw ScenarioError("base", "must be a scenario file's path or a scenario object");
    const std::filesystem::path file = directory / value.get<std::string>();
    baseDirectory = file.parent_path();
    std::string text;
    try {
        text = readWholeFile(file);
        parseStrictJson(text);
    } catch (const ScenarioError& error) {
        throw ScenarioError("base", file.string() + ": " + error.what());
    }
    return nlohmann::ordered_json::parse(text);
}

// `search`: {"budget": N, "seed": S}, both optional (200 and 1).
SweepSearch readSearch(const nlohmann::ordered_json& value) {
    if (!value.is_object())
        throw ScenarioError("search", "must be an object: {\"budget\": N, \"seed\": S}");
    SweepSearch search;
    for (const auto& [key, item] : value.items()) {
        if (key == "budget") {
            if (!item.is_number_integer() || item.get<long long>() < 1 ||
                item.get<long long>() > 100'000)
                throw ScenarioError("search.budget", "must be a whole number from 1 to 100000");
            search.budget = item.get<int>();
        } else if (key == "seed") {
            if (!item.is_number_integer() || item.get<long long>() < 0)
                throw ScenarioError("search.seed", "must be a whole number, 0 or more");
            search.seed = item.get<std::uint64_t>();
        } else if (key.rfind("x-", 0) != 0) {
            throw ScenarioError("search." + key, "unknown key (known keys: budget, seed)");
        }
    }
    return search;
}

} // namespace

bool hasFaultAxes(const SweepSpec& spec) {
    return std::any_of(spec.axes.begin(), spec.axes.end(),
                       [](const SweepAxis& axis) { return isFaultAxis(axis.key); });
}

SweepSpec parseSweep(const std::string& text, const std::filesystem::path& directory) {
    // The scenario reader's strict parse first (line and column of a syntax error, repeated
    // keys refused), then an ordered one: the axes keep the file's order (columns, points).
    parseStrictJson(text);
    const nlohmann::ordered_json document = nlohmann::ordered_json::parse(text);
    if (!document.is_object())
        throw ScenarioError("", "a sweep file is a JSON object");
    for (const auto& [key, value] : document.items())
        if (key != "format" && key != "version" && key != "base" && key != "axes" &&
            key != "samples" && key != "seed" && key != "search" && key.rfind("x-", 0) != 0)
            throw ScenarioError(key, "unknown key (known keys: format, version, base, axes, "
                                     "samples, seed, search)");
    if (document.value("format", std::string()) != "waferscope.sweep")
        throw ScenarioError("format", "must be \"waferscope.sweep\"");
    if (!document.contains("version") || document.at("version") != 1)
        throw ScenarioError("version", "must be 1");
    if (!document.contains("base"))
        throw ScenarioError("base", "missing: the scenario the axes change");
    SweepSpec spec;
    spec.base = readBase(document.at("base"), directory, spec.baseDirectory);
    if (document.contains("samples")) {
        const auto& samples = document.at("samples");
        if (!samples.is_number_integer() || samples.get<long long>() < 1 ||
            samples.get<long long>() > 1'000'000)
            throw ScenarioError("samples", "must be a whole number from 1 to 1000000");
        spec.samples = samples.get<int>();
    }
    if (document.contains("seed")) {
        const auto& seed = document.at("seed");
        if (!seed.is_number_integer() || seed.get<long long>() < 0)
            throw ScenarioError("seed", "must be a whole number, 0 or more");
        spec.seed = seed.get<std::uint64_t>();
    }
    if (document.contains("search"))
        spec.search = readSearch(document.at("search"));
    if (!document.contains("axes") || !document.at("axes").is_object() ||
        document.at("axes").empty())
        throw ScenarioError("axes", "must be an object of at least one dotted scenario key, each "
                                    "with a list of values");
    std::size_t points = static_cast<std::size_t>(spec.samples);
    for (const auto& [key, values] : document.at("axes").items()) {
        const std::string path = "axes." + key;
        if (!values.is_array() || values.empty())
            throw ScenarioError(path, "must be a non-empty list of values");
        if (points > kMaxPoints / values.size())
            throw ScenarioError(path, "the sweep would have more than " +
                                          std::to_string(kMaxPoints) + " points");
        points *= values.size();
        SweepAxis axis{key, {}};
        for (std::size_t i = 0; i < values.size(); ++i) {
            // A row names its point by its values: one value twice would be two rows that
            // resume cannot tell apart.
            for (std::size_t j = 0; j < i; ++j)
                if (values[j] == values[i])
                    throw ScenarioError(path + "[" + std::to_string(i) + "]",
                                        values[i].dump() + " is already the axis's value " +
                                            std::to_string(j));
            // A fault rate is not a scenario key (docs/cli.md section 10): sampleFaults draws that
            // fraction of the live dies or links, so it must be a fraction below 1 (a rate of 1
            // would kill the whole wafer).
            if (isFaultAxis(key)) {
                if (!values[i].is_number() || !(values[i].get<double>() >= 0.0) ||
                    !(values[i].get<double>() < 1.0))
                    throw ScenarioError(path + "[" + std::to_string(i) + "]",
                                        values[i].dump() +
                                            " is not a fault rate: must be a number from 0 to "
                                            "1, 1 excluded");
                axis.values.emplace_back(values[i]);
                continue;
            }
            // The value on the base alone, read as the file would: a key the scenario has not,
            // or a value it would reject, is the sweep file's error, named here.
            nlohmann::ordered_json probe = spec.base;
            try {
                setDottedKey(probe, key, values[i]);
                parseScenario(nlohmann::json(probe), spec.baseDirectory);
            } catch (const ScenarioError& error) {
                throw ScenarioError(path + "[" + std::to_string(i) + "]",
                                    values[i].dump() +
                                        " does not make a scenario: " + error.what());
            }
            axis.values.emplace_back(values[i]);
        }
        spec.axes.push_back(std::move(axis));
    }
    return spec;
}

SweepSpec loadSweep(const std::filesystem::path& file) {
    return parseSweep(readWholeFile(file), file.parent_path());
}

std::size_t pointCount(const SweepSpec& spec) {
    std::size_t count = static_cast<std::size_t>(spec.samples);
    for (const SweepAxis& axis : spec.axes)
        count *= axis.values.size();
    return count;
}

SweepPoint pointAt(const SweepSpec& spec, std::size_t index) {
    SweepPoint point;
    point.index = index;
    point.sample = static_cast<int>(index % static_cast<std::size_t>(spec.samples));
    std::size_t rest = index / static_cast<std::size_t>(spec.samples);
    point.values.resize(spec.axes.size());
    for (std::size_t a = spec.axes.size(); a-- > 0;) {
        const auto& values = spec.axes[a].values;
        point.values[a] = values[rest % values.size()];
        rest /= values.size();
    }
    return point;
}

nlohmann::json scenarioJsonAt(const SweepSpec& spec, const SweepPoint& point) {
    nlohmann::ordered_json document = spec.base;
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        if (!isFaultAxis(spec.axes[a].key)) // drawn by sampleFaults, not a scenario key
            setDottedKey(document, spec.axes[a].key, point.values[a]);
    return nlohmann::json(document);
}

} // namespace ws
