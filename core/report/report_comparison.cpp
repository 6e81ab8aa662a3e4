#include "report/report_comparison.h"

#include <algorithm>

namespace ws {

std::vector<ReportFigure> headlineFigures(const SimulationReport& report) {
    using Unit = ReportFigure::Unit;
    std::vector<ReportFigure> figures;
    if (report.step) {
        const StepMetrics& step = *report.step;
        double memory = 0.0;
        for (const DieReport& die : report.dies)
            if (die.memory)
                memory = std::max(memory, die.memory->total());
        figures.push_back({"step time", Unit::Seconds, true, step.stepS});
        figures.push_back({"throughput", Unit::TokensPerSecond, false, step.tokensPerSecond});
        figures.push_back({"MFU", Unit::Fraction, false, step.mfu});
        figures.push_back(
            {"dies used", Unit::Count, false, static_cast<double>(step.diesUsed), false});
        if (step.ppBubbleFraction > 0)
            figures.push_back({"pipeline bubble", Unit::Fraction, true, step.ppBubbleFraction});
        figures.push_back({"exposed communication per die", Unit::Seconds, true, step.exposedS});
        figures.push_back({"memory of the largest die", Unit::Bytes, true, memory});
    }
    // The hottest link as every view ranks it (hottestLinkText): by its busy time.
    const std::vector<LinkReport> hottest = report.hottestLinks(1);
    figures.push_back({"makespan of the simulated window", Unit::Seconds, true, report.makespanS});
    figures.push_back({"bytes over links", Unit::Bytes, true, report.totalLinkBytes()});
    figures.push_back({"hottest link's busy time", Unit::Seconds, true,
                       hottest.empty() ? 0.0 : hottest.front().busyS});
    figures.push_back({"D2D energy", Unit::Joules, true, report.energyD2dJ});
    if (report.hardware.wafers) // a system of wafers: its links between wafers apart
        figures.push_back({"off-wafer link energy", Unit::Joules, true, report.energyOffWaferJ});
    figures.push_back({"energy", Unit::Joules, true, report.energyJ()});
    return figures;
}

std::optional<double> FigureComparison::relativeChange() const {
    if (!pinned || !current || *pinned == 0.0)
        return std::nullopt;
    return (*current - *pinned) / *pinned;
}

int FigureComparison::verdict() const {
    if (!judged || !pinned || !current || *current == *pinned)
        return 0;
    return (*current < *pinned) == lowerIsBetter ? 1 : -1;
}

std::vector<FigureComparison> compareReports(const SimulationReport& pinned,
                                             const SimulationReport& current) {
    std::vector<FigureComparison> rows;
    auto row = [&](const ReportFigure& figure) -> FigureComparison& {
        const auto found = std::find_if(rows.begin(), rows.end(), [&](const FigureComparison& r) {
            return r.name == figure.name;
        });
        if (found != rows.end())
            return *found;
        rows.push_back({figure.name, figure.unit, figure.lowerIsBetter, figure.judged, std::nullopt,
                        std::nullopt});
        return rows.back();
    };
    for (const ReportFigure& figure : headlineFigures(current))
        row(figure).current = figure.value;
    for (const ReportFigure& figure : headlineFigures(pinned))
        row(figure).pinned = figure.value;
    return rows;
}

bool sameLinks(const SimulationReport& a, const SimulationReport& b) {
    return std::equal(a.links.begin(), a.links.end(), b.links.begin(), b.links.end(),
                      [](const LinkReport& x, const LinkReport& y) {
                          return x.id == y.id && x.from == y.from && x.to == y.to;
                      });
}

} // namespace ws
