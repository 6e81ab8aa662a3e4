#pragma once

#include "report/simulation_report.h"

#include <optional>
#include <string>
#include <vector>

namespace ws {

// One headline figure of a simulated result, as compare mode sets two results side by side
// (docs/gui.md, Compare).
struct ReportFigure {
    enum class Unit { Seconds, Bytes, Joules, TokensPerSecond, Fraction, Count };
    std::string name; // "step time"
    Unit unit = Unit::Seconds;
    bool lowerIsBetter = true;
    double value = 0.0;
    // False for a figure that is context, not a verdict (dies used): a change is shown but
    // coloured neither better nor worse.
    bool judged = true;
};

// The figures a result is judged by: for a training step its step time, throughput, MFU, the
// dies it uses (beside MFU, which is per die used), the pipeline bubble with pipeline stages,
// exposed communication and largest die's memory; for every result the makespan of the
// simulated window, the bytes over links, the hottest link's busy time (hottestLinkText), and the
// D2D and total energy. In that order; a figure the report has not (no step) is left out.
std::vector<ReportFigure> headlineFigures(const SimulationReport& report);

// A figure of two results: the pinned one and the current one; either may lack it (a traffic
// scenario pinned, a training step now).
struct FigureComparison {
    std::string name;
    ReportFigure::Unit unit = ReportFigure::Unit::Seconds;
    bool lowerIsBetter = true;
    bool judged = true;
    std::optional<double> pinned, current;
    // (current - pinned) / pinned; nullopt when either is missing or pinned is 0.
    std::optional<double> relativeChange() const;
    // The change is an improvement (lower where lower is better), a regression, or neither.
    int verdict() const; // +1 better, -1 worse, 0 equal or not comparable
};

// The headline figures of both, by name, in headlineFigures' order (the current's first).
std::vector<FigureComparison> compareReports(const SimulationReport& pinned,
                                             const SimulationReport& current);

// The two ran on the same links (the same wafer shape and link ids), so that their loads can
// be compared link by link (compare mode's difference heatmap).
bool sameLinks(const SimulationReport& a, const SimulationReport& b);

} // namespace ws
