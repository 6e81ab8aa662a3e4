#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "main_window.h"
#include "scenario_document.h"
#include "search_panel.h"
#include "search_results_model.h"
#include "widget_test_support.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableView>
#include <QThread>
#include <QUndoStack>

#include <qcustomplot.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace ws {
namespace {

// A 2-layer transformer on a 4x4 wafer: its whole strategy space is a few hundred strategies,
// so a search with its simulations takes well under a second.
Scenario tinyTransformerScenario() {
    Scenario scenario;
    scenario.name = "tiny transformer";
    scenario.wafer.rows = 4;
    scenario.wafer.cols = 4;
    scenario.wafer.die.sram = Quantity{8e6, "8 MB"};
    scenario.wafer.die.hbm = Quantity{64e6, "64 MB"};
    scenario.workload = parseWorkload(nlohmann::json::parse(R"({
        "kind": "transformer",
        "model": {"name": "tiny", "layers": 2, "hidden": 512, "heads": 8, "ffn_hidden": 2048,
                  "vocab": 4096},
        "seq_len": 256, "global_batch": 8})"),
                                      {});
    scenario.strategy = parseStrategy(nlohmann::json{{"dp", 1}});
    return scenario;
}

struct SearchFixture {
    SearchFixture() {
        document.load(tinyTransformerScenario(), {});
        panel.setBudget(200);
        panel.setThreads(2);
    }
    ScenarioDocument document;
    SearchPanel panel{&document};
};

TEST(SearchPanel, FillsTheScatterAndTheTableWithTheBaselines) {
    SearchFixture f;
    QAbstractItemModelTester tester(f.panel.resultsModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy busy(&f.panel, &SearchPanel::busyChanged);
    ASSERT_TRUE(f.panel.searchBlocking());
    EXPECT_EQ(busy.count(), 2); // started, finished
    const SearchResult* result = f.panel.result();
    ASSERT_NE(result, nullptr);
    EXPECT_FALSE(result->cancelled);
    // Every candidate is on the scatter; the front is a non-empty part of the fitting ones.
    EXPECT_EQ(f.panel.plottedCandidates(), static_cast<int>(result->candidates.size()));
    EXPECT_GE(f.panel.paretoPoints(), 1);
    EXPECT_LE(f.panel.paretoPoints(), f.panel.plottedCandidates());
    // The bar and the text give the same counts (they once disagreed).
    const auto* bar = f.panel.findChild<QProgressBar*>("searchProgress");
    const auto* status = f.panel.findChild<QLabel*>("searchStatus");
    ASSERT_TRUE(bar && status);
    const int genetic = result->evaluations;
    EXPECT_TRUE(bar->text().startsWith(QString("done: %1 / 200 evaluations").arg(genetic)))
        << bar->text().toStdString();
    EXPECT_TRUE(status->text().contains(
        QString("%1 strategies evaluated (%2 of the genetic search's budget of 200, %3 by level 1")
            .arg(genetic + result->otherEvaluations)
            .arg(genetic)
            .arg(result->otherEvaluations)))
        << status->text().toStdString();

    const SearchResultsModel* model = f.panel.resultsModel();
    ASSERT_EQ(model->rowCount(), static_cast<int>(result->top.size() + result->baselines.size()));
    EXPECT_EQ(model->index(0, SearchResultsModel::NameColumn).data().toString(), "best");
    EXPECT_EQ(model->index(0, SearchResultsModel::StrategyColumn).data().toString().toStdString(),
              result->best.label);
    EXPECT_EQ(model->index(0, SearchResultsModel::SpeedupColumn).data().toString(), "1.00×");
    const int firstBaseline = static_cast<int>(result->top.size());
    EXPECT_TRUE(model->isBaseline(firstBaseline));
    EXPECT_EQ(
        model->index(firstBaseline, SearchResultsModel::NameColumn).data().toString().toStdString(),
        result->baselines.front().name);
    // A baseline is never faster than the best (the search is seeded with them).
    for (int row = firstBaseline; row < model->rowCount(); ++row) {
        if (!model->scoreAt(row))
            continue;
        EXPECT_GE(model->index(row, SearchResultsModel::SpeedupColumn)
                      .data(SearchResultsModel::SortRole)
                      .toDouble(),
                  1.0 - 1e-9);
    }
}

// The document's own strategy is drawn beside the best, labelled, and every named point is
// inside the axes, not on their frame (docs/gui.md "Strategy search").
TEST(SearchPanel, DrawsTheCurrentStrategyBesideTheBest) {
    SearchFixture f;
    f.panel.resize(900, 500);
    ASSERT_TRUE(f.panel.searchBlocking());
    const auto analysis = analyseScenario(f.document.scenario());
    ASSERT_TRUE(analysis->report.step);
    EXPECT_FALSE(f.panel.currentPoint()); // not told yet
    f.panel.setCurrentAnalysis(analysis);
    const std::optional<QPointF> current = f.panel.currentPoint();
    ASSERT_TRUE(current);
    EXPECT_DOUBLE_EQ(current->y(), analysis->report.step->stepS);
    double memory = 0;
    for (const DieReport& die : analysis->report.dies)
        memory = std::max(memory, die.memory->total());
    EXPECT_DOUBLE_EQ(current->x(), memory / 1e9);
    QStringList labels;
    for (int i = 0; i < f.panel.scatter()->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(f.panel.scatter()->item(i)))
            labels << text->text();
    EXPECT_TRUE(labels.contains("current") || labels.filter("current").size() == 1)
        << labels.join(" | ").toStdString();
    EXPECT_EQ(labels.filter("best").size(), 1) << labels.join(" | ").toStdString();
    const QCPRange x = f.panel.scatter()->xAxis->range();
    const QCPRange y = f.panel.scatter()->yAxis->range();
    const SearchResult& result = *f.panel.result();
    for (const QPointF& point : {*current, QPointF(result.best.memoryPerDieBytes / 1e9,
                                                   SearchResultsModel::stepTime(result.best))}) {
        EXPECT_GT(point.x(), x.lower);
        EXPECT_LT(point.x(), x.upper);
        EXPECT_GE(point.y() / y.lower, 1.4 * (1 - 1e-9)); // room for the 16 px star
        EXPECT_GE(y.upper / point.y(), 1.4 * (1 - 1e-9));
    }
    // Another wafer: the point is no longer comparable with the candidates.
    Scenario other = f.document.scenario();
    other.wafer.cols = 5;
    f.panel.setCurrentAnalysis(analyseScenario(other));
    EXPECT_FALSE(f.panel.currentPoint());
}

// In a dock as short as at 1280x720, the labels of the named points, the memory limits and the
// off-axis note cover no marker label of another and stay inside the axes (docs/gui.md "Layout").
TEST(SearchPanel, LabelsOnTheScatterDoNotOverlapInAShortDock) {
    SearchFixture f;
    f.panel.resize(1000, 230);
    f.panel.show();
    ASSERT_TRUE(f.panel.searchBlocking());
    f.panel.setCurrentAnalysis(analyseScenario(f.document.scenario()));
    QCustomPlot& plot = *f.panel.scatter();
    plot.replot();
    const QRectF axes = plot.axisRect()->rect();
    std::vector<std::pair<QString, QRectF>> boxes;
    for (int i = 0; i < plot.itemCount(); ++i) {
        const auto* text = qobject_cast<QCPItemText*>(plot.item(i));
        if (!text || text->text().isEmpty())
            continue;
        QRectF box;
        for (const QCPItemAnchor* corner :
             {text->topLeft, text->topRight, text->bottomLeft, text->bottomRight}) {
            const QRectF at(corner->pixelPosition(), QSizeF(1e-6, 1e-6));
            box = box.isEmpty() ? at : box.united(at);
        }
        // The limit lines' labels sit on their lines, which may lie left of the axes.
        if (text->rotation() == 0.0) {
            EXPECT_TRUE(axes.contains(box)) << text->text().toStdString();
        }
        boxes.emplace_back(text->text(), box);
    }
    ASSERT_GE(boxes.size(), 3u); // the best, a baseline and the current strategy at least
    for (std::size_t a = 0; a < boxes.size(); ++a)
        for (std::size_t b = a + 1; b < boxes.size(); ++b)
            EXPECT_FALSE(boxes[a].second.intersects(boxes[b].second))
                << boxes[a].first.toStdString() << " and " << boxes[b].first.toStdString();
}

TEST(SearchPanel, HoveringACandidateNamesItsStrategy) {
    SearchFixture f;
    ASSERT_TRUE(f.panel.searchBlocking());
    f.panel.scatter()->resize(600, 400);
    f.panel.scatter()->replot();
    const StrategyScore& best = f.panel.result()->top.front();
    const QPointF at(f.panel.scatter()->xAxis->coordToPixel(best.memoryPerDieBytes / 1e9),
                     f.panel.scatter()->yAxis->coordToPixel(best.analyticStepS));
    const QString text = f.panel.candidateToolTip(at);
    // Another candidate may lie on the same pixel; the text names one strategy and its figures.
    EXPECT_TRUE(text.contains("per step (model)")) << text.toStdString();
    EXPECT_TRUE(f.panel.candidateToolTip(QPointF(-100, -100)).isEmpty());
}

TEST(SearchPanel, AppliesACandidatePickedOnTheScatter) {
    SearchFixture f;
    ASSERT_TRUE(f.panel.searchBlocking());
    f.panel.scatter()->resize(600, 400);
    f.panel.scatter()->replot();
    // The leanest candidate that fits: rarely the fastest, so not what Apply picks by default.
    const auto& candidates = f.panel.result()->candidates;
    const auto leanest = std::min_element(candidates.begin(), candidates.end(),
                                          [](const StrategyScore& a, const StrategyScore& b) {
                                              return a.memoryPerDieBytes < b.memoryPerDieBytes;
                                          });
    ASSERT_NE(leanest, candidates.end());
    const QPointF at(f.panel.scatter()->xAxis->coordToPixel(leanest->memoryPerDieBytes / 1e9),
                     f.panel.scatter()->yAxis->coordToPixel(leanest->analyticStepS));
    ASSERT_TRUE(f.panel.pickCandidateAt(at));
    f.panel.apply();
    ASSERT_EQ(f.document.undoStack()->count(), 1);
    // The picked point is the candidate nearest the pixel: one with the same coordinates.
    const StrategySpec applied = *f.document.scenario().strategy;
    const auto match = std::find_if(candidates.begin(), candidates.end(),
                                    [&](const StrategyScore& c) { return c.strategy == applied; });
    ASSERT_NE(match, candidates.end());
    EXPECT_NEAR(match->memoryPerDieBytes, leanest->memoryPerDieBytes,
                0.01 * leanest->memoryPerDieBytes);
    EXPECT_FALSE(f.panel.pickCandidateAt(QPointF(-100, -100)));
}

TEST(SearchPanel, ApplyIsOneUndoCommandAndUndoRestoresTheScenario) {
    SearchFixture f;
    const Scenario original = f.document.scenario();
    ASSERT_TRUE(f.panel.searchBlocking());
    f.panel.apply(); // nothing selected: the best
    ASSERT_EQ(f.document.undoStack()->count(), 1);
    EXPECT_TRUE(f.document.undoStack()->undoText().startsWith("Apply searched strategy: "))
        << f.document.undoStack()->undoText().toStdString();
    EXPECT_EQ(f.document.scenario(), f.panel.result()->bestScenario);
    f.document.undoStack()->undo();
    EXPECT_EQ(f.document.scenario(), original);
}

TEST(SearchPanel, AppliesTheSelectedBaseline) {
    SearchFixture f;
    ASSERT_TRUE(f.panel.searchBlocking());
    const SearchResultsModel* model = f.panel.resultsModel();
    int row = -1;
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->isBaseline(r) && model->scoreAt(r))
            row = r;
    ASSERT_GE(row, 0) << "no baseline fits this wafer";
    f.panel.resultsView()->selectRow(row);
    f.panel.apply();
    ASSERT_EQ(f.document.undoStack()->count(), 1);
    EXPECT_EQ(*f.document.scenario().strategy, model->scoreAt(row)->strategy);
}

TEST(SearchPanel, ApplyIsRefusedOnceTheWaferChanged) {
    SearchFixture f;
    ASSERT_TRUE(f.panel.searchBlocking());
    Scenario bigger = f.document.scenario();
    bigger.wafer.cols = 8;
    f.document.edit("wider wafer", bigger);
    f.panel.apply();
    EXPECT_EQ(f.document.undoStack()->count(), 1); // only the wafer edit
}

TEST(SearchPanel, OpeningAnotherScenarioDropsTheResult) {
    SearchFixture f;
    ASSERT_TRUE(f.panel.searchBlocking());
    ASSERT_GT(f.panel.resultsModel()->rowCount(), 0);
    f.document.load(test::smallStrategyScenario(), {});
    EXPECT_EQ(f.panel.result(), nullptr);
    EXPECT_EQ(f.panel.resultsModel()->rowCount(), 0);
    EXPECT_EQ(f.panel.plottedCandidates(), 0);
}

TEST(SearchPanel, PlotsLiveAndCancelKeepsTheBestSoFar) {
    ScenarioDocument document;
    document.load(test::exampleScenario("gpt3_175b_6x8_fsdp_tatp.json"), {});
    SearchPanel panel(&document);
    panel.setBudget(200000); // far more than the test waits for
    panel.setThreads(1);
    panel.start();
    ASSERT_TRUE(panel.isBusy());
    QElapsedTimer timer;
    timer.start();
    while (panel.plottedCandidates() == 0 && timer.elapsed() < 120000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QThread::msleep(5);
    }
    ASSERT_GT(panel.plottedCandidates(), 0) << "no candidate plotted while the search ran";
    ASSERT_TRUE(panel.isBusy());
    panel.cancel();
    while (panel.isBusy() && timer.elapsed() < 120000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QThread::msleep(5);
    }
    ASSERT_FALSE(panel.isBusy());
    ASSERT_NE(panel.result(), nullptr);
    EXPECT_TRUE(panel.result()->cancelled);
    EXPECT_LT(panel.result()->evaluations, 200000);
    const auto* bar = panel.findChild<QProgressBar*>("searchProgress");
    ASSERT_TRUE(bar);
    EXPECT_EQ(bar->text(),
              QString("cancelled at %1 / 200000 evaluations").arg(panel.result()->evaluations));
}

TEST(SearchPanel, MainWindowHasASearchDock) {
    EXPECT_TRUE(MainWindow::viewNames().contains("search"));
    MainWindow window;
    auto* dock = window.findChild<QDockWidget*>("searchDock");
    ASSERT_NE(dock, nullptr);
    EXPECT_EQ(dock->widget(), window.searchPanel());
    window.show();
    EXPECT_TRUE(window.showView("search"));
    EXPECT_TRUE(dock->isVisible());
}

TEST(SearchPanel, ExplainsThatExplicitTrafficHasNothingToSearch) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    SearchPanel panel(&document);
    // Before anything is pressed the dock says why its Search button is greyed out.
    const auto* status = panel.findChild<QLabel*>("searchStatus");
    ASSERT_TRUE(status);
    EXPECT_TRUE(status->text().startsWith("This scenario has no workload"))
        << status->text().toStdString();
    QSignalSpy messages(&panel, &SearchPanel::statusMessage);
    panel.start();
    EXPECT_FALSE(panel.isBusy());
    ASSERT_EQ(messages.count(), 1);
    EXPECT_TRUE(messages.front().front().toString().contains("workload"));
}

} // namespace
} // namespace ws
