// The Fault study dock (widgets/fault_study_panel.h): Run and Cancel clicked as a user would,
// one line per strategy with its spread, the last search's baselines, a cancel that really
// stops the work.
#include "fault_study_panel.h"
#include "long_simulation.h"
#include "main_window.h"
#include "scenario_document.h"
#include "search_panel.h"
#include "widget_test_support.h"

#include "io/strategy_reader.h"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTest>
#include <QToolTip>

#include <qcustomplot.h>

#include <gtest/gtest.h>

namespace ws {
namespace {

// A search result with two baselines that have a configuration and one that has none.
std::shared_ptr<const SearchResult> searchWithBaselines() {
    auto result = std::make_shared<SearchResult>();
    const auto baseline = [](const char* name, const nlohmann::json& strategy) {
        BaselineScore score;
        score.name = name;
        score.score.emplace();
        score.score->strategy = parseStrategy(strategy);
        return score;
    };
    BaselineScore none;
    none.name = "FSDP (sequential)";
    none.whyNot = "out of memory";
    result->baselines = {baseline("TATP line", {{"tatp", 4}}), none,
                         baseline("data parallel", {{"dp", 4}})};
    return result;
}

struct StudyFixture {
    explicit StudyFixture(const Scenario& scenario = test::smallStrategyScenario()) {
        document.load(scenario, {});
        panel.setRates(0.1, 0.05); // 0, 0.05, 0.1
        panel.setSamples(2);
        panel.resize(900, 320);
        panel.show();
    }
    QPushButton* button(const char* name) { return panel.findChild<QPushButton*>(name); }
    ScenarioDocument document;
    FaultStudyPanel panel{&document};
};

TEST(FaultStudyPanel, RunPlotsOneLinePerStrategyWithItsSpread) {
    StudyFixture f;
    QPushButton* run = f.button("runFaultStudy");
    QPushButton* cancel = f.button("cancelFaultStudy");
    ASSERT_TRUE(run && cancel);
    EXPECT_TRUE(run->isEnabled());
    EXPECT_FALSE(cancel->isEnabled());
    EXPECT_TRUE(f.panel.hintText().contains("run a strategy search"))
        << f.panel.hintText().toStdString();
    QTest::mouseClick(run, Qt::LeftButton);
    EXPECT_TRUE(f.panel.isBusy());
    EXPECT_FALSE(run->isEnabled());
    EXPECT_TRUE(cancel->isEnabled());
    ASSERT_TRUE(f.panel.waitForIdle());

    const FaultStudyResult* result = f.panel.result();
    ASSERT_NE(result, nullptr);
    ASSERT_EQ(result->curves.size(), 1u);
    const QCustomPlot& plot = *f.panel.plot();
    ASSERT_EQ(plot.graphCount(), 1);
    EXPECT_EQ(plot.graph(0)->name(), "current strategy");
    EXPECT_EQ(plot.graph(0)->dataCount(), 3); // one point per rate
    EXPECT_EQ(plot.plottableCount(), 2);      // the line and its error bars
    EXPECT_TRUE(plot.legend->visible());
    EXPECT_EQ(plot.yAxis->label(), "throughput (tokens/s)");
    EXPECT_TRUE(plot.xAxis->label().contains("faults.link_rate"));
    // Rate 0 is the fault-free step: every sample the same, no bar.
    const FaultStudyPoint& fine = result->curves[0].points[0];
    ASSERT_TRUE(fine.spread);
    EXPECT_EQ(fine.spread->min, fine.spread->max);
    EXPECT_TRUE(run->isEnabled());
    EXPECT_FALSE(cancel->isEnabled());
    EXPECT_TRUE(f.panel.findChild<QProgressBar*>("faultStudyProgress")->text().startsWith("done"));

    // Hovering a point names it, with its throughput over the samples that ran; away from the
    // points, nothing.
    QCustomPlot& drawn = *f.panel.plot();
    drawn.replot();
    const QPoint atFine(static_cast<int>(drawn.xAxis->coordToPixel(0.0)),
                        static_cast<int>(drawn.yAxis->coordToPixel(fine.spread->mean)));
    QTest::mouseMove(&drawn, atFine);
    const QString tip = QToolTip::text();
    EXPECT_TRUE(tip.startsWith("<b>current strategy</b> at faults.link_rate 0<br>"))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains("the mean of the 2 of 2 samples that ran")) << tip.toStdString();
    EXPECT_EQ(f.panel.pointToolTipAt(QPointF(atFine) + QPointF(40, 40)), QString());
}

// With a search's results, its baselines that have a configuration are lines of their own; the
// others are named as left out. Another wafer makes the baselines meaningless: they go.
TEST(FaultStudyPanel, TheLastSearchsBaselinesAreLinesOfTheirOwn) {
    StudyFixture f;
    f.panel.setSearchResult(searchWithBaselines(), f.document.scenario());
    const std::vector<FaultStudyStrategy> strategies = f.panel.strategiesToStudy();
    ASSERT_EQ(strategies.size(), 3u);
    EXPECT_EQ(strategies[1].name, "TATP line");
    EXPECT_EQ(strategies[2].name, "data parallel");
    EXPECT_TRUE(f.panel.hintText().contains("FSDP (sequential)"))
        << f.panel.hintText().toStdString();
    QTest::mouseClick(f.button("runFaultStudy"), Qt::LeftButton);
    ASSERT_TRUE(f.panel.waitForIdle());
    const QCustomPlot& plot = *f.panel.plot();
    ASSERT_EQ(plot.graphCount(), 3);
    EXPECT_EQ(plot.graph(1)->name(), "TATP line");
    EXPECT_EQ(plot.graph(2)->name(), "data parallel");
    EXPECT_NE(plot.graph(0)->pen().color(), plot.graph(1)->pen().color());

    QString reason;
    ASSERT_TRUE(f.document.resizeWafer(4, 5, &reason)) << reason.toStdString();
    EXPECT_EQ(f.panel.strategiesToStudy().size(), 1u);
    EXPECT_TRUE(f.panel.hintText().contains("another wafer")) << f.panel.hintText().toStdString();
    EXPECT_TRUE(f.panel.hintText().contains("earlier version"));
}

// Cancel really stops the work (each sample of this step takes seconds to build): the panel is
// idle again at once, with nothing plotted and Run offered.
TEST(FaultStudyPanel, CancelStopsTheStudyAndLeavesThePanelIdle) {
    StudyFixture f(test::gpt3Step16x16());
    f.panel.setRates(0.4, 0.05);
    f.panel.setSamples(5);
    QPushButton* run = f.button("runFaultStudy");
    QPushButton* cancel = f.button("cancelFaultStudy");
    QTest::mouseClick(run, Qt::LeftButton);
    ASSERT_TRUE(f.panel.isBusy());
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(cancel, Qt::LeftButton);
    EXPECT_FALSE(cancel->isEnabled()); // asked once
    ASSERT_TRUE(f.panel.waitForIdle(30000));
    EXPECT_LT(clock.elapsed(), 30000);
    EXPECT_FALSE(f.panel.isBusy());
    EXPECT_EQ(f.panel.result(), nullptr);
    EXPECT_EQ(f.panel.plot()->graphCount(), 0);
    EXPECT_TRUE(run->isEnabled());
    EXPECT_FALSE(cancel->isEnabled());
    EXPECT_TRUE(
        f.panel.findChild<QProgressBar*>("faultStudyProgress")->text().startsWith("cancelled"));
}

TEST(FaultStudyPanel, ExplicitTrafficHasNoThroughputToStudy) {
    StudyFixture f(test::exampleScenario("contention_fsdp_tatp_4x4.json"));
    EXPECT_FALSE(f.button("runFaultStudy")->isEnabled());
    EXPECT_TRUE(f.panel.hintText().contains("explicit traffic"))
        << f.panel.hintText().toStdString();
}

// On a GPU cluster the study kills GPUs, and says so; back on a wafer, dies (docs/gui.md
// "Fault study").
TEST(FaultStudyPanel, OnAClusterItSpeaksOfGpus) {
    StudyFixture f(test::exampleScenario("gpt3_13b_dgx_a100_32gpu.json"));
    auto* kind = f.panel.findChild<QComboBox*>("faultKind");
    ASSERT_NE(kind, nullptr);
    EXPECT_EQ(kind->itemText(1), "dead GPUs");
    EXPECT_TRUE(kind->toolTip().contains("live GPUs"));
    EXPECT_FALSE(kind->toolTip().contains("dies"));
    kind->setCurrentIndex(1);
    auto* plot = f.panel.findChild<QCustomPlot*>();
    ASSERT_NE(plot, nullptr);
    EXPECT_TRUE(plot->xAxis->label().startsWith("dead GPUs (fraction of the live GPUs"))
        << plot->xAxis->label().toStdString();
    auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
    ASSERT_NE(title, nullptr);
    EXPECT_TRUE(title->text().contains("dead GPUs")) << title->text().toStdString();

    f.document.load(test::smallStrategyScenario(), {});
    EXPECT_EQ(kind->itemText(1), "dead dies");
}

// In the window: --view faultstudy, a View menu toggle, and the Search dock's results reach it.
TEST(FaultStudyPanel, TheWindowWiresTheDockAndTheSearchsBaselines) {
    EXPECT_TRUE(MainWindow::viewNames().contains("faultstudy"));
    MainWindow window;
    window.document()->load(test::smallStrategyScenario(), {});
    EXPECT_TRUE(window.showView("faultstudy"));
    bool toggle = false;
    for (QAction* action : window.findChildren<QAction*>())
        toggle = toggle || (action->text() == "Fault study" && action->isCheckable());
    EXPECT_TRUE(toggle);
    FaultStudyPanel& study = *window.faultStudyPanel();
    EXPECT_EQ(study.strategiesToStudy().size(), 1u);
    emit window.searchPanel()->resultChanged(searchWithBaselines(), window.document()->scenario());
    EXPECT_EQ(study.strategiesToStudy().size(), 3u);
    window.document()->load(test::smallStrategyScenario(), {}); // another document: no search
    EXPECT_EQ(study.strategiesToStudy().size(), 1u);
    ASSERT_TRUE(window.waitForIdle());
}

} // namespace
} // namespace ws
