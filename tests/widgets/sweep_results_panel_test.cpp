// The Sweep results dock (widgets/sweep_results_panel.h): File > Open of a sweep's output keeps
// the document and fills a table and a chart; the combo boxes regroup the chart; a double-click
// on a row opens the scenario of its point; a file that is not a sweep output is refused with
// its name and problem; 100,000 rows open without holding the GUI thread; a sweep that searched
// at every point opens as a regime map whose cells name both families when hovered.
#include "frozen_columns_table_view.h"
#include "main_window.h"
#include "message_log.h"
#include "scenario_document.h"
#include "sweep_chart_data.h"
#include "sweep_regime_map.h"
#include "sweep_results_model.h"
#include "sweep_results_panel.h"
#include "widget_test_support.h"

#include "sweep/sweep_output.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_table.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include <qcustomplot.h>

#include <gtest/gtest.h>

#include <fstream>

namespace ws {
namespace {

// A GEMM step on a 4x4 wafer: each point simulates in milliseconds.
const char* kBase = R"({"format": "waferscope.scenario", "version": 1,
    "wafer": {"rows": 4, "cols": 4},
    "workload": {"kind": "gemm", "m": 2048, "k": 2048, "n": 2048},
    "strategy": {"dp": 2, "tatp": 2, "fsdp": true}})";

// strategy.tatp 1, 2, 8 (8 does not fit dp 2 on 16 dies: a failed row) against two link
// bandwidths: six points.
const char* kSweep = R"({"format": "waferscope.sweep", "version": 1, "base": "base.json",
    "axes": {"strategy.tatp": [1, 2, 16], "wafer.link_bandwidth": ["1 TB/s", "4 TB/s"]}})";

void writeFile(const QString& path, const std::string& text) {
    std::ofstream(QFile::encodeName(path).toStdString(), std::ios::binary) << text;
}

// The sweep's real output, as `waferscope-cli sweep -o OUT` writes it.
std::string runSweepText(const QString& sweepFile, SweepFormat format) {
    const SweepSpec spec = loadSweep(QFile::encodeName(sweepFile).toStdString());
    std::string text = sweepHeader(spec, format);
    SweepRunOptions options;
    options.onRow = [&](const SweepRow& row) { text += sweepLine(spec, row, format); };
    runSweep(spec, options);
    return text;
}

struct SweepFolder {
    SweepFolder() {
        writeFile(dir.filePath("base.json"), kBase);
        writeFile(dir.filePath("sweep.json"), kSweep);
        writeFile(dir.filePath("out.csv"),
                  runSweepText(dir.filePath("sweep.json"), SweepFormat::Csv));
    }
    QString path(const char* name) const { return dir.filePath(name); }
    QTemporaryDir dir;
};

TEST(SweepResultsModel, SortsNumbersAsNumbersAndGreysFailedRows) {
    const std::string text =
        "strategy.tatp,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,max_link_bytes,"
        "peak_memory_bytes,oom\n"
        "2,0,true,,0.5,10000,0.4,0.25,1e9,2e10,false\n"
        "16,0,false,strategy: 32 dies for 16,,,,,,,\n"
        "4,0,true,,0.5,900,0.4,0.25,1e9,9e10,true\n";
    SweepResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setOutput(std::make_shared<const SweepOutput>(parseSweepOutput(text, SweepFormat::Csv)));
    ASSERT_EQ(model.rowCount(), 3);
    ASSERT_EQ(model.columnCount(), 1 + SweepResultsModel::FigureColumnCount);
    // The key's last part, the whole key in the tooltip.
    EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), "tatp");
    EXPECT_TRUE(
        model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).toString().contains("strategy.tatp"));
    const int tokens = model.column(SweepResultsModel::TokensColumn);
    EXPECT_EQ(model.headerData(tokens, Qt::Horizontal).toString(), "tokens/s");

    QSortFilterProxyModel sorted;
    sorted.setSourceModel(&model);
    sorted.setSortRole(SweepResultsModel::SortRole);
    sorted.sort(tokens, Qt::AscendingOrder); // 900 before 10000: not text order
    EXPECT_EQ(sorted.index(0, 0).data().toString(), "4");
    EXPECT_EQ(sorted.index(1, 0).data().toString(), "2");
    EXPECT_EQ(sorted.index(2, 0).data().toString(), "16"); // no figure: last
    sorted.sort(0, Qt::AscendingOrder);                    // the axis is numeric too: 2 < 4 < 16
    EXPECT_EQ(sorted.index(2, 0).data(SweepResultsModel::SourceRowRole).toInt(), 1);

    const QModelIndex failed = model.index(1, tokens);
    EXPECT_TRUE(failed.data(SweepResultsModel::FailedRole).toBool());
    EXPECT_EQ(failed.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(Qt::gray));
    EXPECT_EQ(failed.data(Qt::ToolTipRole).toString(),
              "Did not simulate: strategy: 32 dies for 16");
    EXPECT_EQ(model.index(1, model.column(SweepResultsModel::ErrorColumn)).data().toString(),
              "strategy: 32 dies for 16");
    const QModelIndex oom = model.index(2, model.column(SweepResultsModel::OomColumn));
    EXPECT_EQ(oom.data().toString(), "out of memory");
    EXPECT_TRUE(oom.data(SweepResultsModel::OutOfMemoryRole).toBool());
    model.setOutput(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

// MFU sits beside the dies used, then the pipeline bubble (docs/gui.md "Sweep results"); an
// output written before those columns shows them empty.
TEST(SweepResultsModel, AxesEndingAlikeKeepTheirWholeKeys) {
    const std::string text =
        "wafer.link_bandwidth,system.link_bandwidth,strategy.tatp,sample,ok,"
        "error,step_s,tokens_per_s,mfu,makespan_s,max_link_bytes,"
        "peak_memory_bytes,oom\n"
        "\"1 TB/s\",\"100 GB/s\",2,0,true,,0.5,10000,0.4,0.25,1e9,2e10,false\n";
    SweepResultsModel model;
    model.setOutput(std::make_shared<const SweepOutput>(parseSweepOutput(text, SweepFormat::Csv)));
    ASSERT_EQ(model.axisCount(), 3);
    EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), "wafer.link_bandwidth");
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), "system.link_bandwidth");
    EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), "tatp");
}

TEST(SweepResultsModel, GivesTheDiesUsedAndTheBubbleBesideMfu) {
    const std::string text =
        "strategy.dp,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,max_link_bytes,"
        "peak_memory_bytes,oom,dies_used,pp_bubble\n"
        "2,0,true,,0.5,10000,0.4,0.25,1e9,2e10,false,24,0.2\n"
        "4,0,true,,0.4,12000,0.3,0.2,1e9,2e10,false,48,0\n";
    SweepResultsModel model;
    model.setOutput(std::make_shared<const SweepOutput>(parseSweepOutput(text, SweepFormat::Csv)));
    const int mfu = model.column(SweepResultsModel::MfuColumn);
    const int dies = model.column(SweepResultsModel::DiesUsedColumn);
    const int bubble = model.column(SweepResultsModel::BubbleColumn);
    EXPECT_EQ(dies, mfu + 1);
    EXPECT_EQ(model.headerData(dies, Qt::Horizontal).toString(), "dies used");
    EXPECT_EQ(model.headerData(bubble, Qt::Horizontal).toString(), "bubble");
    EXPECT_EQ(model.index(0, dies).data().toInt(), 24);
    EXPECT_EQ(model.index(1, dies).data().toInt(), 48);
    EXPECT_EQ(model.index(0, bubble).data().toString(), "20.0%");
    ASSERT_TRUE(
        sweepMetricValue(parseSweepOutput(text, SweepFormat::Csv).rows[0], SweepMetric::DiesUsed));

    const std::string older =
        "strategy.dp,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,max_link_bytes,"
        "peak_memory_bytes,oom\n2,0,true,,0.5,10000,0.4,0.25,1e9,2e10,false\n";
    model.setOutput(std::make_shared<const SweepOutput>(parseSweepOutput(older, SweepFormat::Csv)));
    EXPECT_EQ(model.index(0, dies).data().toString(), "");
}

// The chart's grouping as a pure function: one series per combination of the other axes, the
// mean and spread of the samples, failed rows counted.
TEST(SweepChartData, GroupsByTheOtherAxesAndAveragesTheSamples) {
    const std::string text = "a,b,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,"
                             "max_link_bytes,peak_memory_bytes,oom\n"
                             "1,x,0,true,,1,10,0.1,1,1,1,false\n"
                             "1,x,1,true,,1,30,0.1,1,1,1,true\n"
                             "2,x,0,true,,1,40,0.1,1,1,1,false\n"
                             "2,x,1,false,why,,,,,,,\n"
                             "1,y,0,true,,1,5,0.1,1,1,1,false\n";
    const SweepOutput output = parseSweepOutput(text, SweepFormat::Csv);
    const std::vector<SweepAxisValues> axes = sweepAxisValues(output);
    ASSERT_EQ(axes.size(), 2u);
    EXPECT_TRUE(axes[0].numeric);
    EXPECT_FALSE(axes[1].numeric);
    const SweepChartData byA = sweepChartData(output, axes, SweepMetric::TokensPerSecond, 0, 8);
    EXPECT_TRUE(byA.numericAxis);
    ASSERT_EQ(byA.series.size(), 2u);
    EXPECT_EQ(byA.series[0].name, "b x");
    ASSERT_EQ(byA.series[0].points.size(), 2u);
    EXPECT_EQ(byA.series[0].points[0].mean, 20.0);
    EXPECT_EQ(byA.series[0].points[0].min, 10.0);
    EXPECT_EQ(byA.series[0].points[0].max, 30.0);
    EXPECT_TRUE(byA.series[0].points[0].outOfMemory);
    EXPECT_EQ(byA.series[0].points[1].samples, 1);
    EXPECT_EQ(byA.failedRows, 1u);
    EXPECT_EQ(byA.mostSamples, 2);
    const SweepChartData byB = sweepChartData(output, axes, SweepMetric::TokensPerSecond, 1, 1);
    EXPECT_EQ(byB.categories, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(byB.combinations, 2u);
    ASSERT_EQ(byB.series.size(), 1u); // only the first of two drawn
    EXPECT_EQ(byB.series[0].name, "a 1");
    EXPECT_EQ(byB.series[0].points[1].x, 1.0); // category "y"
}

// A search's output (docs/cli.md section 10, `search`): link bandwidth across, HBM down, a
// third axis held; the cell at (1 TB/s, 96 GB) has two samples, one won by tatp. The point's
// own strategy ran out of memory at (1 TB/s, 72 GB): its search's answer still counts.
const char* kSearchOutput =
    "wafer.link_bandwidth,wafer.die.hbm,strategy.micro_batches,sample,ok,error,step_s,"
    "tokens_per_s,mfu,makespan_s,max_link_bytes,peak_memory_bytes,oom,best_strategy,"
    "best_family,best_step_s,runner_up_family,margin\n"
    "1 TB/s,72 GB,4,0,false,out of memory,,,,,,,,dp 2 tp 24,tp_sp,8,tatp,0.5\n" // the search's
    "1 TB/s,72 GB,8,0,true,,9,1,0.1,1,1,1,false,dp 48,dp,1,tatp,0.5\n" // held axis: left out
    "4 TB/s,72 GB,4,0,true,,9,1,0.1,1,1,1,false,dp 6 tatp 8,tatp,6,tp_sp,0.02\n"
    "1 TB/s,96 GB,4,0,true,,9,1,0.1,1,1,1,false,dp 6 tatp 8,tatp,10,fsdp_hybrid,0.1\n"
    "1 TB/s,96 GB,4,1,true,,9,1,0.1,1,1,1,false,dp 2 tp 24,tp_sp,7,,\n"
    "4 TB/s,96 GB,4,0,false,out of memory,,,,,,,,,,,,\n";

TEST(SweepRegimeMap, NamesTheFamilyThatWinsEachCellAndByHowMuch) {
    const SweepOutput output = parseSweepOutput(kSearchOutput, SweepFormat::Csv);
    ASSERT_TRUE(hasRegimeMap(output));
    const std::vector<SweepAxisValues> axes = sweepAxisValues(output);
    const SweepRegimeMap map = sweepRegimeMap(output, axes, 0, 1);
    EXPECT_EQ(map.columns, (std::vector<std::string>{"1 TB/s", "4 TB/s"}));
    EXPECT_EQ(map.rows, (std::vector<std::string>{"72 GB", "96 GB"}));
    EXPECT_EQ(map.heldAxes, (std::vector<std::string>{"strategy.micro_batches 4"}));
    EXPECT_EQ(map.rowsLeftOut, 1u);
    // Families in strategyFamilies() order, whatever the file's.
    EXPECT_EQ(map.families, (std::vector<std::string>{"tatp", "tp_sp"}));
    const SweepRegimeCell& slow = map.at(0, 0);
    EXPECT_EQ(slow.bestFamily, "tp_sp");
    EXPECT_EQ(slow.bestStepS, 8.0);
    EXPECT_EQ(slow.runnerUpFamily, "tatp");
    EXPECT_EQ(slow.runnerUpStepS, 12.0); // 8 x (1 + 0.5)
    EXPECT_EQ(slow.margin, 0.5);
    EXPECT_EQ(map.at(1, 0).bestFamily, "tatp");
    EXPECT_EQ(map.at(1, 0).margin, 0.02);
    // One sample each: the tie goes to the first family in strategyFamilies(), its figures are
    // its own sample's.
    const SweepRegimeCell& tie = map.at(0, 1);
    EXPECT_EQ(tie.samples, 2);
    EXPECT_EQ(tie.bestFamily, "tatp");
    EXPECT_EQ(tie.wins, 1);
    EXPECT_EQ(tie.bestStepS, 10.0);
    EXPECT_EQ(tie.bestStrategy, "dp 6 tatp 8");
    EXPECT_EQ(tie.runnerUpFamily, "fsdp_hybrid");
    const SweepRegimeCell& none = map.at(1, 1);
    EXPECT_EQ(none.bestFamily, "");
    EXPECT_EQ(none.failed, 1);
    EXPECT_FALSE(none.margin);
    EXPECT_EQ(map.largestMargin, 0.5);
    // Across HBM by link bandwidth: the same cells, transposed.
    const SweepRegimeMap turned = sweepRegimeMap(output, axes, 1, 0);
    EXPECT_EQ(turned.at(0, 1).bestFamily, "tatp"); // 72 GB, 4 TB/s
    // Without a search's columns there is no map.
    EXPECT_FALSE(hasRegimeMap(
        parseSweepOutput("a,b,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,max_link_bytes,"
                         "peak_memory_bytes,oom\n1,x,0,true,,1,10,0.1,1,1,1,false\n",
                         SweepFormat::Csv)));
}

TEST(SweepResultsPanel, ASearchSweepOpensAsARegimeMapWhoseCellsNameBothFamilies) {
    QTemporaryDir dir;
    writeFile(dir.filePath("map.csv"), kSearchOutput);
    SweepResultsPanel panel;
    panel.resize(1200, 500);
    panel.show();
    panel.open(dir.filePath("map.csv"));
    ASSERT_TRUE(panel.waitForIdle());
    QCoreApplication::processEvents();
    ASSERT_TRUE(panel.canShowRegimeMap());
    EXPECT_EQ(panel.view(), SweepResultsPanel::View::RegimeMap); // a search's output: the map
    ASSERT_NE(panel.regimeMap(), nullptr);
    QCustomPlot& plot = *panel.plot();
    EXPECT_EQ(plot.xAxis->label(), "wafer.link_bandwidth");
    EXPECT_EQ(plot.yAxis->label(), "wafer.die.hbm");
    EXPECT_EQ(plot.itemCount(), 4 + 3); // four cells, three with their margin written
    // A swatch per winning family, then the cells where nothing fits.
    ASSERT_EQ(plot.plottableCount(), 3);
    EXPECT_EQ(plot.plottable(0)->name(), "tatp (2 cells)");
    EXPECT_EQ(plot.plottable(1)->name(), "tp_sp (1 cell)");
    EXPECT_EQ(plot.plottable(2)->name(), "nothing fits (1)");
    EXPECT_TRUE(plot.legend->visible());
    EXPECT_TRUE(panel.captionText().contains("at strategy.micro_batches 4 (1 row at another "
                                             "value left out"))
        << panel.captionText().toStdString();
    // A close call is paler than a clear win of the same family.
    auto cellBrush = [&plot](double x, double y) {
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* rect = qobject_cast<QCPItemRect*>(plot.item(i));
                rect && rect->topLeft->coords() == QPointF(x - 0.5, y + 0.5))
                return rect->brush().color();
        return QColor();
    };
    EXPECT_GT(cellBrush(1, 0).lightnessF(), cellBrush(0, 1).lightnessF()); // +2% vs +10%

    // Hover the slow-link, 72 GB cell as a user does: both families and their step times.
    plot.replot(); // the axes' pixel ranges laid out
    const QPoint centre(static_cast<int>(plot.xAxis->coordToPixel(0.0)),
                        static_cast<int>(plot.yAxis->coordToPixel(0.0)));
    const QString tip = panel.regimeToolTipAt(centre);
    EXPECT_TRUE(tip.contains("wafer.link_bandwidth 1 TB/s, wafer.die.hbm 72 GB"))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains("Wins: <b>tp_sp</b>, 8 s step (dp 2 tp 24)")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("Runner-up: <b>tatp</b>, 12 s step (+50%)")) << tip.toStdString();
    QTest::mouseMove(&plot, centre);
    QCoreApplication::processEvents();
    EXPECT_EQ(QToolTip::text(), tip);
    EXPECT_TRUE(panel.regimeToolTipAt(QPoint(1, 1)).isEmpty()); // off the cells
    EXPECT_TRUE(panel.regimeCellToolTip(1, 1).contains("No strategy fits in memory"));
    EXPECT_TRUE(panel.regimeCellToolTip(0, 1).contains("tatp won 1 of 2 samples"));

    // The other way round, as a user picks it; then back to the chart of a metric.
    auto* rows = panel.findChild<QComboBox*>("sweepMapRows");
    ASSERT_NE(rows, nullptr);
    EXPECT_TRUE(rows->isVisible());
    panel.setAxis(1);
    rows->setCurrentIndex(0);
    EXPECT_EQ(plot.xAxis->label(), "wafer.die.hbm");
    EXPECT_EQ(panel.regimeMap()->at(0, 1).bestFamily, "tatp");
    panel.setMapRows(1);
    EXPECT_EQ(panel.regimeMap(), nullptr); // one axis against itself is not a map
    EXPECT_TRUE(panel.captionText().contains("choose two different axes"));
    auto* view = panel.findChild<QComboBox*>("sweepView");
    view->setCurrentIndex(view->findData(static_cast<int>(SweepResultsPanel::View::Chart)));
    EXPECT_EQ(panel.regimeMap(), nullptr);
    EXPECT_FALSE(rows->isVisible());
    EXPECT_EQ(plot.itemCount(), 0);
    EXPECT_EQ(plot.yAxis->label(), "throughput (tokens/s)");
}

TEST(SweepResultsPanel, FileOpenShowsTheResultsAndARowOpensItsScenario) {
    const SweepFolder folder;
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    ASSERT_TRUE(window.openScenario(folder.path("out.csv"), nullptr, true));
    ASSERT_TRUE(window.waitForIdle());
    window.showView("sweep");
    QCoreApplication::processEvents();

    // The document is still the example: results are not a scenario.
    EXPECT_EQ(window.document()->displayName(), "contention_fsdp_tatp_4x4.json");
    SweepResultsPanel& panel = *window.sweepResultsPanel();
    ASSERT_NE(panel.output(), nullptr);
    EXPECT_EQ(panel.output()->rows.size(), 6u);
    EXPECT_TRUE(window.findChild<QDockWidget*>("sweepResultsDock")->isVisible());
    EXPECT_EQ(QFileInfo(panel.sweepFilePath()).fileName(), "sweep.json"); // found beside it
    EXPECT_TRUE(panel.noteText().contains("Sweep file: sweep.json"))
        << panel.noteText().toStdString();

    // Throughput against strategy.tatp, one line per link bandwidth; tatp 16 failed twice.
    const QCustomPlot& plot = *panel.plot();
    EXPECT_EQ(panel.sweepMetric(), SweepMetric::TokensPerSecond);
    EXPECT_EQ(plot.yAxis->label(), "throughput (tokens/s)");
    EXPECT_EQ(plot.xAxis->label(), "strategy.tatp");
    ASSERT_EQ(plot.graphCount(), 2);
    EXPECT_EQ(plot.graph(0)->name(), "wafer.link_bandwidth 1 TB/s");
    EXPECT_EQ(plot.graph(1)->name(), "wafer.link_bandwidth 4 TB/s");
    EXPECT_EQ(plot.graph(0)->dataCount(), 2);
    EXPECT_TRUE(plot.legend->visible());
    EXPECT_TRUE(panel.captionText().contains("2 failed rows left out"))
        << panel.captionText().toStdString();

    // The axis combo, as a user picks it: the bandwidths become categories, one line per tatp.
    auto* axis = panel.findChild<QComboBox*>("sweepAxis");
    ASSERT_NE(axis, nullptr);
    axis->setFocus();
    QTest::keyClick(axis, Qt::Key_Down);
    EXPECT_EQ(panel.axis(), 1);
    EXPECT_EQ(plot.xAxis->label(), "wafer.link_bandwidth");
    const auto ticker = plot.xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_TRUE(ticker);
    EXPECT_EQ(ticker->ticks().values(), (QList<QString>{"1 TB/s", "4 TB/s"}));
    EXPECT_EQ(plot.graphCount(), 2); // tatp 1 and 2; tatp 16 has no point
    EXPECT_EQ(plot.graph(0)->name(), "strategy.tatp 1");
    auto* metric = panel.findChild<QComboBox*>("sweepMetric");
    metric->setCurrentIndex(metric->findData(static_cast<int>(SweepMetric::PeakMemoryBytes)));
    EXPECT_EQ(plot.yAxis->label(), "peak memory of the fullest die (GB)");

    // Double-click the row of tatp 2 at 1 TB/s: its scenario opens as a new document.
    QTableView& table = *panel.table();
    int row = -1;
    for (int r = 0; r < table.model()->rowCount(); ++r)
        if (table.model()->index(r, 0).data().toString() == "2" &&
            table.model()->index(r, 1).data().toString() == "1 TB/s")
            row = r;
    ASSERT_GE(row, 0);
    // The axis cell as the user sees it: on the frozen columns laid over the table's left edge.
    QTableView& frozen = *panel.table()->frozenView();
    const QRect cell = frozen.visualRect(table.model()->index(row, 0));
    ASSERT_TRUE(cell.isValid());
    // A double-click as the platform delivers it: a click, then the second press as a
    // double-click (QAbstractItemView opens only the index the first press was on).
    QTest::mouseClick(frozen.viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(frozen.viewport(), Qt::LeftButton, {}, cell.center());
    ASSERT_TRUE(window.waitForIdle());
    const MessageLog& log = *window.messageLog();
    ASSERT_GT(log.count(), 0);
    EXPECT_TRUE(log.text(log.count() - 1).startsWith("Point 2 of sweep.json"))
        << log.text(log.count() - 1).toStdString();
    const Scenario& opened = window.document()->scenario();
    ASSERT_TRUE(opened.strategy);
    EXPECT_EQ(opened.strategy->tatp, 2);
    EXPECT_EQ(opened.strategy->dp, 2);
    EXPECT_EQ(opened.wafer.linkBandwidth.value, 1e12); // the base has 4 TB/s
    EXPECT_EQ(window.document()->displayName(), "sweep_point2.json");
    EXPECT_TRUE(window.document()->filePath().isEmpty()); // untitled: Save asks where
    EXPECT_FALSE(window.document()->isModified());
    // The results stay: another row opens as well, from the keyboard (Enter on the row).
    EXPECT_EQ(panel.output()->rows.size(), 6u);
    const int other = (row + 1) % table.model()->rowCount();
    const int otherPoint =
        table.model()->index(other, 0).data(SweepResultsModel::SourceRowRole).toInt();
    table.setFocus();
    table.setCurrentIndex(table.model()->index(other, 0));
    QTest::keyClick(&table, Qt::Key_Return);
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_EQ(window.document()->displayName(),
              QString("sweep_point%1.json").arg(panel.output()->rows[otherPoint].point.index))
        << log.text(log.count() - 1).toStdString();
}

// A table wider than the dock: the axis columns stay at the left edge while the figures scroll
// under them; a click there selects the row in the table, and their headers sort it
// (docs/gui.md "Sweep results").
TEST(SweepResultsPanel, TheAxisColumnsStayInViewWhileTheFiguresScroll) {
    const SweepFolder folder;
    SweepResultsPanel panel;
    panel.resize(700, 300);
    panel.show();
    panel.open(folder.path("out.csv"));
    ASSERT_TRUE(panel.waitForIdle());
    FrozenColumnsTableView& table = *panel.table();
    QTableView& frozen = *table.frozenView();
    ASSERT_EQ(table.frozenColumnCount(), 2); // strategy.tatp, wafer.link_bandwidth
    EXPECT_TRUE(frozen.isVisible());
    // Their widths are the table's, fitted to the header names (not the overlay's defaults).
    for (int column : {0, 1})
        EXPECT_GE(table.columnWidth(column), table.horizontalHeader()->sectionSizeHint(column));
    EXPECT_EQ(table.frozenWidth(), table.columnWidth(0) + table.columnWidth(1));
    EXPECT_EQ(frozen.width(), table.frozenWidth());
    for (int column = 0; column < table.model()->columnCount(); ++column)
        EXPECT_EQ(frozen.isColumnHidden(column), column >= 2) << column;

    // Scrolled to the far right: the figures moved, the axis cells did not.
    QScrollBar& sideways = *table.horizontalScrollBar();
    ASSERT_GT(sideways.maximum(), 0) << "the table must be wider than the dock";
    const QModelIndex firstAxis = table.model()->index(0, 0);
    const QPoint axisAt = frozen.visualRect(firstAxis).topLeft();
    const QModelIndex firstFigure = table.model()->index(0, 2);
    const int figureLeft = table.visualRect(firstFigure).left();
    sideways.setValue(sideways.maximum());
    EXPECT_EQ(table.visualRect(firstFigure).left(), figureLeft - sideways.maximum());
    EXPECT_EQ(frozen.visualRect(firstAxis).topLeft(), axisAt);
    // Keys move the current cell; one under the frozen columns scrolls out from under them.
    table.setCurrentIndex(table.model()->index(0, 3));
    table.setFocus();
    QTest::keyClick(&table, Qt::Key_Left);
    ASSERT_EQ(table.currentIndex().column(), 2);
    EXPECT_GE(table.visualRect(table.currentIndex()).left(), table.frozenWidth());

    // A click on an axis cell selects its row, and the keys stay with the table.
    const int row = 3;
    QTest::mouseClick(frozen.viewport(), Qt::LeftButton, {},
                      frozen.visualRect(table.model()->index(row, 1)).center());
    ASSERT_TRUE(table.selectionModel()->currentIndex().isValid());
    EXPECT_EQ(table.selectionModel()->currentIndex().row(), row);
    EXPECT_TRUE(table.selectionModel()->isRowSelected(row, {}));

    // The frozen header sorts the table: tatp ascending, then descending.
    const QRect header = frozen.horizontalHeader()->geometry();
    const int tatpHeaderX = frozen.horizontalHeader()->sectionViewportPosition(0) + 5;
    QTest::mouseClick(frozen.horizontalHeader()->viewport(), Qt::LeftButton, {},
                      QPoint(tatpHeaderX, header.height() / 2));
    EXPECT_EQ(table.horizontalHeader()->sortIndicatorSection(), 0);
    EXPECT_EQ(table.model()->index(0, 0).data().toString(), "1");
    QTest::mouseClick(frozen.horizontalHeader()->viewport(), Qt::LeftButton, {},
                      QPoint(tatpHeaderX, header.height() / 2));
    EXPECT_EQ(table.horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    EXPECT_EQ(table.model()->index(0, 0).data().toString(), "16");
    EXPECT_EQ(frozen.horizontalHeader()->sortIndicatorSection(), 0);
}

TEST(SweepResultsPanel, WithoutASweepFileBesideItARowAsksForOne) {
    const SweepFolder folder;
    QTemporaryDir elsewhere;
    const QString out = elsewhere.filePath("results.jsonl");
    writeFile(out, runSweepText(folder.path("sweep.json"), SweepFormat::JsonLines));
    SweepResultsPanel panel;
    panel.open(out);
    ASSERT_TRUE(panel.waitForIdle());
    ASSERT_NE(panel.output(), nullptr);
    EXPECT_TRUE(panel.noteText().startsWith("No sweep file with these axes"))
        << panel.noteText().toStdString();
    int asked = 0;
    panel.setSweepFileChooser([&] {
        ++asked;
        return QString();
    });
    EXPECT_FALSE(panel.openRow(0)); // the user cancelled the dialog
    EXPECT_EQ(asked, 1);
    // A sweep file of other axes is refused; the right one is taken.
    writeFile(elsewhere.filePath("other.json"),
              R"({"format": "waferscope.sweep", "version": 1, "base": )" + std::string(kBase) +
                  R"(, "axes": {"strategy.dp": [1, 2]}})");
    QString error;
    EXPECT_FALSE(panel.setSweepFile(elsewhere.filePath("other.json"), &error));
    EXPECT_TRUE(error.contains("not the sweep these results came from")) << error.toStdString();
    panel.setSweepFileChooser([&] { return folder.path("sweep.json"); });
    std::optional<Scenario> opened;
    QString name;
    QObject::connect(&panel, &SweepResultsPanel::pointScenarioRequested,
                     [&](const Scenario& scenario, const QString& n) {
                         opened = scenario;
                         name = n;
                     });
    ASSERT_TRUE(panel.openRow(2)); // tatp 2 at 1 TB/s
    ASSERT_TRUE(opened);
    EXPECT_EQ(opened->strategy->tatp, 2);
    EXPECT_EQ(opened->wafer.linkBandwidth.value, 1e12);
    EXPECT_EQ(name, "sweep_point2.json");
}

TEST(SweepResultsPanel, AFileThatIsNotASweepOutputIsRefusedByNameInTheMessages) {
    QTemporaryDir dir;
    const QString bad = dir.filePath("links.csv");
    writeFile(bad, "from,to,bytes\n0,1,5\n");
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    ASSERT_TRUE(window.waitForIdle());
    window.openScenario(bad, nullptr, true);
    ASSERT_TRUE(window.waitForIdle());
    const MessageLog& log = *window.messageLog();
    ASSERT_GT(log.count(), 0);
    bool found = false;
    for (int row = 0; row < log.count(); ++row)
        found = found || (log.isError(row) && log.text(row).contains(bad + ": line 1: no "
                                                                           "'sample' column"));
    EXPECT_TRUE(found);
    EXPECT_EQ(window.sweepResultsPanel()->output(), nullptr);
    EXPECT_EQ(window.document()->displayName(), "contention_fsdp_tatp_4x4.json");
}

// 100,000 rows: read off the GUI thread, and the chart draws at most 24 category labels.
TEST(SweepResultsPanel, AHundredThousandRowsOpenWithoutHoldingTheGuiThread) {
    SweepSpec spec;
    spec.axes = {{"strategy.dp", {}}, {"wafer.link_bandwidth", {}}};
    for (int i = 1; i <= 1000; ++i)
        spec.axes[0].values.emplace_back(i);
    for (int i = 1; i <= 100; ++i)
        spec.axes[1].values.emplace_back(std::to_string(i) + " TB/s");
    std::string text = sweepHeader(spec, SweepFormat::Csv);
    for (std::size_t i = 0; i < pointCount(spec); ++i) {
        SweepRow row;
        row.point = pointAt(spec, i);
        row.ok = i % 97 != 0;
        row.error = row.ok ? "" : "placement failed";
        if (row.ok) {
            row.stepS = 1.0 + static_cast<double>(i % 1000) * 1e-3;
            row.tokensPerSecond = 1e5 / *row.stepS;
            row.mfu = 0.4;
            row.makespanS = 0.1;
            row.maxLinkBytes = 1e9;
            row.peakMemoryBytes = 2e10;
        }
        text += sweepLine(spec, row, SweepFormat::Csv);
    }
    QTemporaryDir dir;
    writeFile(dir.filePath("big.csv"), text);
    SweepResultsPanel panel;
    panel.resize(1200, 500);
    panel.show();
    QElapsedTimer clock;
    clock.start();
    panel.open(dir.filePath("big.csv"));
    EXPECT_LT(clock.elapsed(), 200); // the reading happens on a worker
    EXPECT_TRUE(panel.isBusy());
    ASSERT_TRUE(panel.waitForIdle(120000));
    ASSERT_NE(panel.output(), nullptr);
    EXPECT_EQ(panel.table()->model()->rowCount(), 100'000);
    clock.restart();
    panel.setAxis(1); // 100 categories, one line per dp (the first 8 of 1000)
    const qint64 regroup = clock.elapsed();
    EXPECT_LT(regroup, 5000) << "regrouping 100,000 rows took " << regroup << " ms";
    const auto ticker = panel.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_TRUE(ticker);
    EXPECT_LE(ticker->ticks().size(), 24);
    EXPECT_EQ(panel.plot()->graphCount(), 8);
    EXPECT_TRUE(panel.captionText().contains("the first 8 of 1000 combinations"))
        << panel.captionText().toStdString();
    EXPECT_TRUE(panel.captionText().contains("1031 failed rows left out"))
        << panel.captionText().toStdString();
}

} // namespace
} // namespace ws
