#include "report/report_comparison.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ws {
namespace {

SimulationReport twoLinks(double bytes0, double bytes1, double makespanS) {
    SimulationReport report;
    report.makespanS = makespanS;
    // 1 GB/s links: busy 1 ns per byte.
    report.links = {LinkReport{0, 0, 1, true, bytes0, bytes0 / 1e9},
                    LinkReport{1, 1, 0, true, bytes1, bytes1 / 1e9}};
    report.energyD2dJ = (bytes0 + bytes1) * 8 * 1e-12; // 1 pJ/bit
    return report;
}

const FigureComparison& named(const std::vector<FigureComparison>& rows, const std::string& name) {
    const auto found = std::find_if(rows.begin(), rows.end(),
                                    [&](const FigureComparison& row) { return row.name == name; });
    EXPECT_NE(found, rows.end()) << name;
    return *found;
}

TEST(ReportComparison, ATrafficResultIsJudgedByItsWindowTrafficAndEnergy) {
    const std::vector<ReportFigure> figures = headlineFigures(twoLinks(3e6, 1e6, 2e-6));
    ASSERT_EQ(figures.size(), 5u);
    EXPECT_EQ(figures[0].name, "makespan of the simulated window");
    EXPECT_DOUBLE_EQ(figures[0].value, 2e-6);
    EXPECT_EQ(figures[1].name, "bytes over links");
    EXPECT_DOUBLE_EQ(figures[1].value, 4e6);
    EXPECT_EQ(figures[2].name, "hottest link's busy time"); // the link every view names
    EXPECT_DOUBLE_EQ(figures[2].value, 3e-3);
    EXPECT_DOUBLE_EQ(figures[3].value, 4e6 * 8 * 1e-12);
}

TEST(ReportComparison, ATrainingStepLeadsWithItsStepFigures) {
    SimulationReport report = twoLinks(1, 1, 1);
    report.step.emplace();
    report.step->stepS = 6.0;
    report.step->tokensPerSecond = 1000;
    report.step->mfu = 0.4;
    DieReport die;
    die.memory.emplace();
    die.memory->weights = 5e9;
    report.dies = {die, DieReport{}};
    const std::vector<ReportFigure> figures = headlineFigures(report);
    ASSERT_EQ(figures.size(), 11u);
    EXPECT_EQ(figures[0].name, "step time");
    EXPECT_EQ(figures[1].name, "throughput");
    EXPECT_FALSE(figures[1].lowerIsBetter);
    EXPECT_EQ(figures[3].name, "dies used"); // beside MFU, which is per die used
    EXPECT_EQ(figures[5].name, "memory of the largest die");
    EXPECT_DOUBLE_EQ(figures[5].value, die.memory->total());
}

// Dies used is shown but judged neither better nor worse: fewer dies is no gain in itself (TP 8
// to TP 4 on 32 GPUs leaves 16 idle and raises MFU). The pipeline bubble is there with pipeline
// stages, lower being better.
TEST(ReportComparison, DiesUsedIsContextAndTheBubbleIsJudged) {
    SimulationReport pinned = twoLinks(1, 1, 1), current = twoLinks(1, 1, 1);
    pinned.step.emplace();
    current.step.emplace();
    pinned.step->diesUsed = 32;
    current.step->diesUsed = 16;
    pinned.step->ppBubbleFraction = 0.163;
    current.step->ppBubbleFraction = 0.051;
    const std::vector<FigureComparison> rows = compareReports(pinned, current);
    const FigureComparison& dies = named(rows, "dies used");
    EXPECT_DOUBLE_EQ(*dies.relativeChange(), -0.5);
    EXPECT_EQ(dies.verdict(), 0);
    const FigureComparison& bubble = named(rows, "pipeline bubble");
    EXPECT_EQ(bubble.verdict(), 1);
    SimulationReport noPipeline = current;
    noPipeline.step->ppBubbleFraction = 0;
    for (const ReportFigure& figure : headlineFigures(noPipeline))
        EXPECT_NE(figure.name, "pipeline bubble");
}

TEST(ReportComparison, ComparesFigureByFigureWithTheChangeAndItsSign) {
    const SimulationReport pinned = twoLinks(4e6, 0, 4e-6);
    const SimulationReport current = twoLinks(2e6, 2e6, 2e-6); // spread over both: half as long
    const std::vector<FigureComparison> rows = compareReports(pinned, current);
    const FigureComparison& makespan = named(rows, "makespan of the simulated window");
    EXPECT_DOUBLE_EQ(*makespan.pinned, 4e-6);
    EXPECT_DOUBLE_EQ(*makespan.current, 2e-6);
    EXPECT_DOUBLE_EQ(*makespan.relativeChange(), -0.5);
    EXPECT_EQ(makespan.verdict(), 1); // lower is better
    const FigureComparison& total = named(rows, "bytes over links");
    EXPECT_DOUBLE_EQ(*total.relativeChange(), 0.0);
    EXPECT_EQ(total.verdict(), 0);

    SimulationReport step = current;
    step.step.emplace();
    step.step->tokensPerSecond = 10;
    const std::vector<FigureComparison> mixed = compareReports(pinned, step);
    const FigureComparison& throughput = named(mixed, "throughput");
    EXPECT_FALSE(throughput.pinned.has_value()); // the pinned result is no training step
    EXPECT_FALSE(throughput.relativeChange().has_value());
    EXPECT_EQ(throughput.verdict(), 0);
    EXPECT_EQ(mixed.front().name, "step time"); // the current result's order
}

TEST(ReportComparison, LoadsCompareLinkByLinkOnlyOnTheSameLinks) {
    const SimulationReport a = twoLinks(1, 2, 1);
    EXPECT_TRUE(sameLinks(a, twoLinks(5, 6, 1)));
    SimulationReport other = twoLinks(1, 2, 1);
    other.links[1].to = 2;
    EXPECT_FALSE(sameLinks(a, other));
    other.links.pop_back();
    EXPECT_FALSE(sameLinks(a, other));
}

} // namespace
} // namespace ws
