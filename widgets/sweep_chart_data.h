#pragma once

#include "sweep/sweep_output.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// The figures of a sweep's row that the Sweep results chart plots (docs/cli.md section 10).
enum class SweepMetric {
    StepS,
    TokensPerSecond,
    Mfu,
    DiesUsed,
    PpBubble,
    MakespanS,
    MaxLinkBytes,
    PeakMemoryBytes
};

struct SweepMetricInfo {
    SweepMetric metric;
    const char* column; // the output's column: "tokens_per_s"
    const char* label;  // the chart's axis label, with the unit it is drawn in
    double scale;       // from the column's unit to the label's: 1e-9 for bytes drawn in GB
};
// Every metric, in the order the chart's combo box lists them.
const std::vector<SweepMetricInfo>& sweepMetrics();
const SweepMetricInfo& sweepMetricInfo(SweepMetric metric);
// A row's value of `metric` in the column's unit; nullopt when the row has none (a failed row,
// or a step figure of a traffic scenario).
std::optional<double> sweepMetricValue(const SweepRow& row, SweepMetric metric);

// The distinct values of each axis column, and each row's value as an index into them: built
// once per output (off the GUI thread), so that regrouping the chart by another axis is integer
// work even for 100,000 rows.
struct SweepAxisValues {
    std::vector<nlohmann::json> values; // in order of first appearance in the file
    std::vector<std::string> texts;     // each value as its CSV cell: 4, 2 TB/s
    bool numeric = true;                // every value a number: drawn on a numeric x axis
    std::vector<int> codes;             // per row: its value's index in `values`
};
std::vector<SweepAxisValues> sweepAxisValues(const SweepOutput& output);

// One point of a line: the samples of one x value (a row for each), their mean and spread.
struct SweepChartPoint {
    double x = 0.0; // the axis value, or the category's index for a text axis
    double mean = 0.0, min = 0.0, max = 0.0;
    int samples = 0;
    bool outOfMemory = false; // at least one of its rows ran out of memory
};

// One line: the rows whose other axes hold one combination of values.
struct SweepChartSeries {
    std::string name; // "wafer.link_bandwidth 2 TB/s, strategy.dp 2"; "" when no other axis
    std::vector<SweepChartPoint> points; // by x
};

// What the chart draws of `metric` against the axis column `axis` (0-based among the axes).
//   Example: rows (tatp 1, "2 TB/s"), (tatp 2, "2 TB/s"), (tatp 1, "4 TB/s") against axis 0
//   give two series, "wafer.link_bandwidth 2 TB/s" with x 1 and 2, and "... 4 TB/s" with x 1.
struct SweepChartData {
    bool numericAxis = true;
    std::vector<std::string> categories;  // a text axis's values, x = index; empty if numeric
    std::vector<SweepChartSeries> series; // the first `maxSeries` combinations, in file order
    std::size_t combinations = 0;         // of the other axes' values, drawn or not
    std::size_t failedRows = 0;           // ok false: left out
    std::size_t rowsWithoutValue = 0;     // ok, but no value of the metric: left out
    std::size_t outOfMemoryPoints = 0;    // drawn points with an out-of-memory row
    int mostSamples = 0;                  // the most rows at one point
};
SweepChartData sweepChartData(const SweepOutput& output, const std::vector<SweepAxisValues>& axes,
                              SweepMetric metric, std::size_t axis, std::size_t maxSeries);

} // namespace ws
