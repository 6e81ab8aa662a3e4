#include "sweep_chart_data.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace ws {

const std::vector<SweepMetricInfo>& sweepMetrics() {
    static const std::vector<SweepMetricInfo> metrics{
        {SweepMetric::TokensPerSecond, "tokens_per_s", "throughput (tokens/s)", 1.0},
        {SweepMetric::StepS, "step_s", "step time (s)", 1.0},
        {SweepMetric::Mfu, "mfu", "MFU (%)", 100.0},
        {SweepMetric::DiesUsed, "dies_used", "dies used", 1.0},
        {SweepMetric::PpBubble, "pp_bubble", "pipeline bubble (%)", 100.0},
        {SweepMetric::MakespanS, "makespan_s", "makespan: simulated window (s)", 1.0},
        {SweepMetric::MaxLinkBytes, "max_link_bytes", "busiest link's traffic (GB)", 1e-9},
        {SweepMetric::PeakMemoryBytes, "peak_memory_bytes", "peak memory of the fullest die (GB)",
         1e-9}};
    return metrics;
}

const SweepMetricInfo& sweepMetricInfo(SweepMetric metric) {
    for (const SweepMetricInfo& info : sweepMetrics())
        if (info.metric == metric)
            return info;
    throw std::logic_error("sweepMetricInfo: unknown metric");
}

std::optional<double> sweepMetricValue(const SweepRow& row, SweepMetric metric) {
    if (!row.ok)
        return std::nullopt;
    switch (metric) {
    case SweepMetric::StepS:
        return row.stepS;
    case SweepMetric::TokensPerSecond:
        return row.tokensPerSecond;
    case SweepMetric::Mfu:
        return row.mfu;
    case SweepMetric::DiesUsed:
        return row.diesUsed ? std::optional<double>(*row.diesUsed) : std::nullopt;
    case SweepMetric::PpBubble:
        return row.ppBubble;
    case SweepMetric::MakespanS:
        return row.makespanS;
    case SweepMetric::MaxLinkBytes:
        return row.maxLinkBytes;
    case SweepMetric::PeakMemoryBytes:
        return row.peakMemoryBytes;
    }
    return std::nullopt;
}

std::vector<SweepAxisValues> sweepAxisValues(const SweepOutput& output) {
    std::vector<SweepAxisValues> axes(output.axes.size());
    for (std::size_t a = 0; a < axes.size(); ++a) {
        SweepAxisValues& axis = axes[a];
        std::unordered_map<std::string, int> codeOf;
        axis.codes.reserve(output.rows.size());
        for (const SweepRow& row : output.rows) {
            const nlohmann::json& value = row.point.values[a];
            std::string text = value.is_string() ? value.get<std::string>() : value.dump();
            const auto [at, added] = codeOf.try_emplace(text, static_cast<int>(axis.texts.size()));
            if (added) {
                axis.values.push_back(value);
                axis.texts.push_back(std::move(text));
                axis.numeric = axis.numeric && value.is_number();
            }
            axis.codes.push_back(at->second);
        }
    }
    return axes;
}

namespace {

struct Accumulator {
    double sum = 0.0;
    double min = 0.0, max = 0.0;
    int samples = 0;
    bool outOfMemory = false;
};

std::string seriesName(const SweepOutput& output, const std::vector<SweepAxisValues>& axes,
                       std::size_t axis, const std::vector<int>& combination) {
    std::string name;
    for (std::size_t a = 0, c = 0; a < axes.size(); ++a) {
        if (a == axis)
            continue;
        name += (name.empty() ? "" : ", ") + output.axes[a] + ' ' +
                axes[a].texts[static_cast<std::size_t>(combination[c++])];
    }
    return name;
}

} // namespace

SweepChartData sweepChartData(const SweepOutput& output, const std::vector<SweepAxisValues>& axes,
                              SweepMetric metric, std::size_t axis, std::size_t maxSeries) {
    SweepChartData chart;
    if (axis >= axes.size())
        return chart;
    const SweepAxisValues& x = axes[axis];
    chart.numericAxis = x.numeric;
    if (!x.numeric)
        chart.categories = x.texts;
    // Series in order of first appearance (the sweep's point order: the first axis slowest).
    std::map<std::vector<int>, std::size_t> seriesOf;
    std::vector<std::vector<int>> combinations;
    std::vector<std::map<int, Accumulator>> points; // per drawn series, by x code
    std::vector<int> combination(axes.size() - 1);
    for (std::size_t r = 0; r < output.rows.size(); ++r) {
        const SweepRow& row = output.rows[r];
        for (std::size_t a = 0, c = 0; a < axes.size(); ++a)
            if (a != axis)
                combination[c++] = axes[a].codes[r];
        const auto [found, added] = seriesOf.try_emplace(combination, combinations.size());
        if (added)
            combinations.push_back(combination);
        if (!row.ok) {
            ++chart.failedRows;
            continue;
        }
        const std::optional<double> value = sweepMetricValue(row, metric);
        if (!value) {
            ++chart.rowsWithoutValue;
            continue;
        }
        if (found->second >= maxSeries)
            continue;
        if (points.size() <= found->second)
            points.resize(found->second + 1);
        Accumulator& at = points[found->second][x.codes[r]];
        at.min = at.samples == 0 ? *value : std::min(at.min, *value);
        at.max = at.samples == 0 ? *value : std::max(at.max, *value);
        at.sum += *value;
        ++at.samples;
        at.outOfMemory = at.outOfMemory || row.outOfMemory;
    }
    chart.combinations = combinations.size();
    // A combination whose rows all failed is a line without points: the view leaves it out.
    points.resize(std::min(combinations.size(), maxSeries));
    for (std::size_t s = 0; s < points.size(); ++s) {
        SweepChartSeries series;
        series.name = seriesName(output, axes, axis, combinations[s]);
        for (const auto& [code, at] : points[s]) {
            if (at.samples == 0)
                continue;
            const double position =
                x.numeric ? x.values[static_cast<std::size_t>(code)].get<double>() : code;
            series.points.push_back(
                {position, at.sum / at.samples, at.min, at.max, at.samples, at.outOfMemory});
            chart.mostSamples = std::max(chart.mostSamples, at.samples);
            chart.outOfMemoryPoints += at.outOfMemory ? 1 : 0;
        }
        std::sort(series.points.begin(), series.points.end(),
                  [](const SweepChartPoint& a, const SweepChartPoint& b) { return a.x < b.x; });
        chart.series.push_back(std::move(series));
    }
    return chart;
}

} // namespace ws
