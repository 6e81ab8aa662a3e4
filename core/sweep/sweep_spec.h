#pragma once

#include "io/dotted_key.h" // setDottedKey, used with scenarioJsonAt

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// One axis of a sweep: a dotted scenario key ("strategy.tatp", "wafer.link_bandwidth") and the
// values it takes, as the file writes them.
struct SweepAxis {
    std::string key;
    std::vector<nlohmann::json> values;
};

// A sweep file (docs/cli.md section 10): a base scenario and axes over its keys.
// The points are the cartesian product of the axes, each repeated `samples` times.
// A strategy search at every point (docs/cli.md section 10, `search`): its budget of
// analytical evaluations and its seed.
struct SweepSearch {
    int budget = 200;
    std::uint64_t seed = 1;
    friend bool operator==(const SweepSearch&, const SweepSearch&) = default;
};

struct SweepSpec {
    nlohmann::ordered_json base;         // the base scenario as written
    std::filesystem::path baseDirectory; // against which the base's own relative paths are read
    std::vector<SweepAxis> axes;         // in the file's order
    int samples = 1;
    std::uint64_t seed = 1;
    std::optional<SweepSearch> search; // set: every point searches strategies
};

// One point: its place in the sweep, its axis values (one per axis) and its sample.
struct SweepPoint {
    std::size_t index = 0;
    std::vector<nlohmann::json> values;
    int sample = 0;
};

// Reads and checks a sweep file. Every axis value is applied to the base and read as a
// scenario, so that a key the scenario file does not have, or a value of the wrong type or out
// of range, is a ScenarioError naming the axis ("axes.strategy.tapt: ...") before any point runs.
// The fault axes (sweep/fault_sample.h: faults.die_rate, faults.link_rate) are not scenario
// keys: their values must be numbers in [0, 1). A base given as a path is read relative to
// `directory` (the sweep file's).
SweepSpec parseSweep(const std::string& text, const std::filesystem::path& directory = {});
SweepSpec loadSweep(const std::filesystem::path& file);

// Whether the sweep draws faults: it has a faults.die_rate or faults.link_rate axis.
bool hasFaultAxes(const SweepSpec& spec);

// Points are numbered with the last axis fastest, then the sample: 0 .. pointCount - 1.
std::size_t pointCount(const SweepSpec& spec);
SweepPoint pointAt(const SweepSpec& spec, std::size_t index);

// The base with `point`'s axis values set at their dotted keys (objects created as needed):
// the scenario as JSON, to read with parseScenario. The fault axes are left out: evaluatePoint
// draws their faults on the scenario read (sampleFaults).
nlohmann::json scenarioJsonAt(const SweepSpec& spec, const SweepPoint& point);

} // namespace ws
