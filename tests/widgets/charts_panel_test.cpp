#include "charts_panel.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "main_window.h"
#include "mesh_view.h"
#include "units/quantity.h"
#include "widget_test_support.h"

#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <qcustomplot.h>

#include <map>

namespace ws {
namespace {

// GPT-3 175B, dp 6 x tatp 8 with FSDP on the 6x8 wafer: every die has a memory model.
std::shared_ptr<const ScenarioAnalysis> gpt3Analysis() {
    static const auto analysis =
        analyseScenario(test::exampleScenario("gpt3_175b_6x8_fsdp_tatp.json"));
    return analysis;
}

QList<QCPBars*> barsOf(QCustomPlot* plot) {
    QList<QCPBars*> bars;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i)))
            bars << b;
    return bars;
}

QCPBars* barsNamed(QCustomPlot* plot, const QString& name) {
    for (QCPBars* bars : barsOf(plot))
        if (bars->name() == name)
            return bars;
    return nullptr;
}

bool hasText(QCustomPlot* plot, const QString& text) {
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPItemText*>(plot->item(i)); item && item->text() == text)
            return true;
    return false;
}

int liveLinks(const SimulationReport& report) {
    int live = 0;
    for (const LinkReport& link : report.links)
        live += link.alive ? 1 : 0;
    return live;
}

TEST(ChartsPanel, HasFiveNamedCharts) {
    ChartsPanel panel;
    ASSERT_EQ(panel.chartCount(), 5);
    EXPECT_EQ(panel.chartName(0), "Link loads");
    EXPECT_EQ(panel.chartName(1), "Memory per die");
    EXPECT_EQ(panel.chartName(2), "Utilisation per die");
    EXPECT_EQ(panel.chartName(3), "HBM traffic per die");
    EXPECT_EQ(panel.chartName(4), "Step breakdown");
    for (int i = 0; i < 5; ++i)
        EXPECT_NE(panel.chart(i), nullptr);
    EXPECT_EQ(panel.chart(5), nullptr);
}

// The step breakdown is one stacked bar of the report's five terms, in the step's unit, and
// they add up to the step time; each term has a legend entry naming its share.
TEST(ChartsPanel, StepBreakdownAddsUpToTheStepTime) {
    const auto analysis = gpt3Analysis();
    ChartsPanel panel;
    panel.setAnalysis(analysis);
    QCustomPlot* plot = panel.chart(4);
    ASSERT_NE(plot, nullptr);
    ASSERT_EQ(plot->plottableCount(), 5);
    const StepMetrics& step = *analysis->report.step;
    double total = 0.0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        ASSERT_NE(bars, nullptr);
        ASSERT_EQ(bars->data()->size(), 1);
        total += bars->data()->begin()->value;
        EXPECT_TRUE(bars->name().contains(QLatin1Char('%'))) << bars->name().toStdString();
    }
    EXPECT_NEAR(total, step.stepS, step.stepS * 1e-9); // a multi-second step, in seconds
    EXPECT_TRUE(plot->xAxis->label().endsWith(QStringLiteral("(s)")));
}

// The GPT-3 step spills SRAM: every die it uses moves HBM bytes, and the chart says how many.
TEST(ChartsPanel, HbmTrafficChartShowsEveryUsedDie) {
    const auto analysis = gpt3Analysis();
    ChartsPanel panel;
    panel.setAnalysis(analysis);
    QCustomPlot* plot = panel.chart(3);
    ASSERT_NE(plot, nullptr);
    auto* bars = qobject_cast<QCPBars*>(plot->plottable(0));
    ASSERT_NE(bars, nullptr);
    int used = 0;
    for (const DieReport& die : analysis->report.dies)
        if (die.memory) {
            ++used;
            EXPECT_GT(die.hbmBytes, 0.0) << "die " << die.id;
        }
    EXPECT_EQ(bars->data()->size(), used);
}

TEST(ChartsPanel, HistogramCountsAddUpToTheLiveLinks) {
    const auto analysis = gpt3Analysis();
    const LinkLoadHistogram histogram = linkLoadHistogram(analysis->report);
    int binned = 0;
    for (int count : histogram.counts)
        binned += count;
    EXPECT_EQ(binned + histogram.idle, liveLinks(analysis->report));
    EXPECT_GT(binned, 0);

    ChartsPanel panel;
    panel.setAnalysis(analysis);
    double plotted = 0;
    for (QCPBars* bars : barsOf(panel.chart(0)))
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            plotted += it->value;
    EXPECT_EQ(plotted, static_cast<double>(liveLinks(analysis->report)));
}

TEST(ChartsPanel, HistogramBinsHaveANiceWidthAndHoldTheBusiestLink) {
    SimulationReport report;
    for (int i = 0; i < 9; ++i) {
        LinkReport link;
        link.id = i;
        link.bytes = i * 1e6; // 0 (idle), 1 MB ... 8 MB
        report.links.push_back(link);
    }
    report.links[3].alive = false;
    const LinkLoadHistogram histogram = linkLoadHistogram(report);
    EXPECT_EQ(histogram.idle, 1);
    EXPECT_EQ(histogram.dead, 1);
    // 7 busy links: 3 bins of 8 MB / 3 = 2.67 MB, rounded up to 5 MB: [0, 5) and [5, 10) MB.
    EXPECT_DOUBLE_EQ(histogram.binWidthBytes, 5e6);
    EXPECT_EQ(histogram.counts, (std::vector<int>{3, 4}));
}

TEST(ChartsPanel, MemoryBarsStackToEachDiesTotal) {
    const auto analysis = gpt3Analysis();
    ChartsPanel panel;
    panel.setAnalysis(analysis);
    QCustomPlot* plot = panel.chart(1);
    std::map<int, const MemoryBreakdown*> used;
    for (const DieReport& die : analysis->report.dies)
        if (die.memory)
            used[die.id] = &*die.memory;
    ASSERT_EQ(used.size(), 48u);
    std::map<int, double> stacked;
    for (const char* term : {"weights", "gradients", "optimizer state", "activations",
                             "stream buffers", "comm reserve"}) {
        QCPBars* bars = barsNamed(plot, term);
        ASSERT_NE(bars, nullptr) << term;
        EXPECT_EQ(bars->data()->size(), static_cast<int>(used.size())) << term;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            stacked[static_cast<int>(it->key)] += it->value * panel.memoryUnitBytes();
    }
    ASSERT_EQ(stacked.size(), used.size());
    for (const auto& [die, memory] : used)
        EXPECT_NEAR(stacked[die], memory->total(), memory->total() * 1e-12) << "die " << die;
    // A legend entry for every colour: six terms and two capacity lines (no die out of memory).
    EXPECT_EQ(plot->legend->itemCount(), 8);
    EXPECT_FALSE(hasText(plot, "no training step: no memory model"));
    // 40 MB of SRAM against tens of GB per die: the SRAM line lies on the axis, and a label
    // names it there.
    const MemoryBreakdown& first = *used.begin()->second;
    ASSERT_LT(first.sramCapacity, 0.03 * plot->yAxis->range().upper * panel.memoryUnitBytes());
    EXPECT_TRUE(hasText(
        plot, QString("SRAM %1 ↓").arg(QString::fromStdString(formatBytes(first.sramCapacity)))));
}

TEST(ChartsPanel, AScenarioWithoutATrainingStepSaysSo) {
    ChartsPanel panel;
    panel.setAnalysis(test::teachingAnalysis());
    EXPECT_TRUE(barsOf(panel.chart(1)).isEmpty());
    EXPECT_TRUE(hasText(panel.chart(1), "no training step: no memory model"));
}

TEST(ChartsPanel, OutOfMemoryDiesAreOutlinedInRed) {
    Scenario scenario;
    scenario.wafer.rows = 2;
    scenario.wafer.cols = 2;
    scenario.workload = parseWorkload(
        nlohmann::json{
            {"kind", "transformer"}, {"model", "gpt3-6.7b"}, {"global_batch", 4}, {"seq_len", 512}},
        {});
    scenario.strategy = parseStrategy(nlohmann::json{{"dp", 4}});
    scenario.wafer.die.hbm = Quantity{1e9, "1 GB"};
    ChartsPanel panel;
    panel.setAnalysis(analyseScenario(scenario));
    QCPBars* oom = barsNamed(panel.chart(1), "out of memory: 4 dies");
    ASSERT_NE(oom, nullptr);
    EXPECT_EQ(oom->pen().color(), QColor(214, 39, 40));
    EXPECT_EQ(oom->data()->size(), 4);
}

TEST(ChartsPanel, UtilisationIsTheReportsUtilisationInPercent) {
    const auto analysis = gpt3Analysis();
    ChartsPanel panel;
    panel.setAnalysis(analysis);
    const QList<QCPBars*> bars = barsOf(panel.chart(2));
    ASSERT_EQ(bars.size(), 1);
    ASSERT_EQ(bars[0]->data()->size(), 48);
    for (auto it = bars[0]->data()->constBegin(); it != bars[0]->data()->constEnd(); ++it) {
        const DieReport& die = analysis->report.dies[static_cast<std::size_t>(it->key)];
        EXPECT_DOUBLE_EQ(it->value, die.utilization * 100); // the step's compute / step time
    }
}

TEST(ChartsPanel, ExportsPngPdfAndSvgThatLoadBack) {
    ChartsPanel panel;
    panel.resize(900, 330);
    panel.setAnalysis(gpt3Analysis());
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    for (int index = 0; index < panel.chartCount(); ++index) {
        const QString base = dir.filePath(QStringLiteral("chart%1").arg(index));
        QString error;
        ASSERT_TRUE(panel.exportChart(index, base + ".png", &error)) << error.toStdString();
        const QImage image(base + ".png");
        EXPECT_FALSE(image.isNull());
        EXPECT_EQ(image.size(), QSize(900, 300)); // never shown: the default export size

        ASSERT_TRUE(panel.exportChart(index, base + ".pdf", &error)) << error.toStdString();
        QFile pdf(base + ".pdf");
        ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
        EXPECT_TRUE(pdf.read(5).startsWith("%PDF"));

        ASSERT_TRUE(panel.exportChart(index, base + ".svg", &error)) << error.toStdString();
        QSvgRenderer svg(base + ".svg");
        EXPECT_TRUE(svg.isValid()) << index;
        EXPECT_EQ(svg.viewBox(), QRect(0, 0, 900, 300));
        // The SVG draws something: rendered, it is not all white.
        QImage rendered(900, 300, QImage::Format_RGB32);
        rendered.fill(Qt::white);
        QPainter painter(&rendered);
        svg.render(&painter);
        painter.end();
        int inked = 0;
        for (int y = 0; y < rendered.height(); y += 3)
            for (int x = 0; x < rendered.width(); x += 3)
                inked += rendered.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
        EXPECT_GT(inked, 500) << index;
    }
    QString error;
    EXPECT_FALSE(panel.exportChart(0, dir.filePath("chart.gif"), &error));
    EXPECT_TRUE(error.contains(".png, .svg or .pdf"));
}

// The mesh view's SVG export path (File > Export > Mesh view) renders a valid drawing too.
TEST(ChartsPanel, MeshViewRendersIntoAValidSvg) {
    MeshView view;
    view.resize(640, 480);
    view.setAnalysis(test::teachingAnalysis());
    QTemporaryDir dir;
    const QString path = dir.filePath("mesh.svg");
    {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(view.rect().size());
        svg.setViewBox(view.rect());
        QPainter painter(&svg);
        view.render(painter, view.rect());
    }
    QSvgRenderer renderer(path);
    EXPECT_TRUE(renderer.isValid());
    EXPECT_EQ(renderer.viewBox(), QRect(0, 0, 640, 480));
}

TEST(ChartsPanel, MainWindowHasAChartsDockTabbedWithTheTimeline) {
    EXPECT_TRUE(MainWindow::viewNames().contains("charts"));
    MainWindow window;
    auto* dock = window.findChild<QDockWidget*>("chartsDock");
    ASSERT_NE(dock, nullptr);
    EXPECT_EQ(dock->widget(), window.chartsPanel());
    QStringList tabbed;
    for (const QDockWidget* other : window.tabifiedDockWidgets(dock))
        tabbed << other->objectName();
    tabbed.sort();
    EXPECT_EQ(tabbed, QStringList({"compareDock", "faultStudyDock", "messagesDock", "searchDock",
                                   "sweepResultsDock", "timelineDock"}));
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_EQ(window.chartsPanel()->analysis(), window.meshView()->analysis());
}

// `--view breakdown` (docs/cli.md) brings the Charts dock forward on its Step breakdown tab.
TEST(ChartsPanel, TheBreakdownViewShowsTheStepBreakdownTab) {
    ASSERT_TRUE(MainWindow::viewNames().contains("breakdown"));
    MainWindow window;
    ASSERT_TRUE(window.showView("breakdown"));
    EXPECT_EQ(window.chartsPanel()->chartName(window.chartsPanel()->currentChart()),
              "Step breakdown");
}

} // namespace
} // namespace ws
