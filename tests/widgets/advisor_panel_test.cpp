// The Advisor dock (widgets/advisor_panel.h): the findings of the document's scenario, a click
// on one pointing at its dies, links and span, Apply fix as one undo command; in the window,
// the mesh and the timeline show what the selected finding points at.
#include "advisor_panel.h"
#include "findings_model.h"
#include "main_window.h"
#include "mesh_view.h"
#include "process_events_until.h"
#include "scenario_document.h"
#include "timeline_view.h"
#include "widget_test_support.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDockWidget>
#include <QIcon>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace ws {
namespace {

using Highlight = std::optional<MeshView::FindingHighlight>;
using Span = std::optional<TimelineView::ShadedSpan>;

// Clicks the row of finding `id` as a user would; false when it is not listed.
bool clickFinding(AdvisorPanel& panel, const char* id) {
    const int row = panel.model()->rowOf(id);
    if (row < 0)
        return false;
    QTreeView* view = panel.view();
    const QRect cell = view->visualRect(panel.model()->index(row, FindingsModel::IdColumn));
    if (!cell.isValid())
        return false;
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    return true;
}

struct AdvisorFixture {
    AdvisorFixture() {
        document.load(test::slowDieLine(), {}, QStringLiteral("slow die"));
        panel.resize(480, 640);
        panel.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&panel)); // rows have places to click
    }
    // Tells the panel of the document's simulation and waits for the findings.
    bool advise() {
        panel.setAnalysis(analyseScenario(document.scenario()));
        return panel.waitForIdle() && panel.isCurrent();
    }
    ScenarioDocument document;
    AdvisorPanel panel{&document};
};

TEST(AdvisorPanel, ListsTheFindingsWithTheirSeverity) {
    AdvisorFixture f;
    QAbstractItemModelTester tester(f.panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy changed(&f.panel, &AdvisorPanel::findingsChanged);
    ASSERT_TRUE(f.advise()) << f.panel.statusText().toStdString();
    EXPECT_EQ(changed.count(), 1);
    const FindingsModel& model = *f.panel.model();
    const int row = model.rowOf("load_imbalance");
    ASSERT_GE(row, 0);
    ASSERT_GE(model.rowOf("low_utilization"), 0);
    EXPECT_EQ(model.index(row, FindingsModel::SeverityColumn).data().toString(), "warning");
    EXPECT_EQ(model.index(row, FindingsModel::SeverityColumn).data(Qt::ForegroundRole),
              QVariant(FindingsModel::severityColor(Finding::Severity::Warning)));
    EXPECT_FALSE(model.index(row, FindingsModel::SeverityColumn)
                     .data(Qt::DecorationRole)
                     .value<QIcon>()
                     .isNull());
    EXPECT_EQ(model.index(row, FindingsModel::SeverityColumn).data(FindingsModel::SortRole).toInt(),
              1);
    EXPECT_TRUE(model.index(row, FindingsModel::MessageColumn)
                    .data()
                    .toString()
                    .contains("die 1 takes longest"))
        << model.index(row, FindingsModel::MessageColumn).data().toString().toStdString();
    EXPECT_TRUE(f.panel.statusText().contains("findings")) << f.panel.statusText().toStdString();
}

// A click on a finding outlines its dies (and links) and shades its span; its evidence is shown.
TEST(AdvisorPanel, SelectingAFindingPointsAtItsDiesAndItsSpan) {
    AdvisorFixture f;
    QSignalSpy highlights(&f.panel, &AdvisorPanel::meshHighlightChanged);
    QSignalSpy spans(&f.panel, &AdvisorPanel::timeSpanChanged);
    ASSERT_TRUE(f.advise());
    ASSERT_TRUE(clickFinding(f.panel, "load_imbalance"));
    ASSERT_NE(f.panel.selectedFinding(), nullptr);
    EXPECT_EQ(f.panel.selectedFinding()->id, "load_imbalance");
    ASSERT_GE(highlights.count(), 1);
    const Highlight highlight = highlights.last().at(0).value<Highlight>();
    ASSERT_TRUE(highlight);
    EXPECT_EQ(highlight->dies, (std::vector<DieId>{0, 1, 2, 3}));
    EXPECT_EQ(highlight->caption, "load_imbalance");
    const auto* evidence = f.panel.findChild<QPlainTextEdit*>("advisorEvidence");
    ASSERT_TRUE(evidence);
    EXPECT_TRUE(evidence->toPlainText().contains("compute_s"))
        << evidence->toPlainText().toStdString();

    ASSERT_TRUE(clickFinding(f.panel, "low_utilization"));
    const Span span = spans.last().at(0).value<Span>();
    const Finding& low = *f.panel.selectedFinding();
    ASSERT_TRUE(low.timeSpan);
    ASSERT_TRUE(span);
    EXPECT_EQ(span->startS, low.timeSpan->first);
    EXPECT_EQ(span->endS, low.timeSpan->second);
    EXPECT_EQ(span->caption, "advisor: low_utilization");
}

// Apply fix: one undo command named after the finding; undo brings the scenario back.
TEST(AdvisorPanel, ApplyFixIsOneUndoCommandAndUndoRestores) {
    AdvisorFixture f;
    const Scenario original = f.document.scenario();
    ASSERT_TRUE(f.advise());
    auto* apply = f.panel.findChild<QPushButton*>("applyFix");
    ASSERT_TRUE(apply);
    EXPECT_FALSE(apply->isEnabled()); // nothing selected
    ASSERT_TRUE(clickFinding(f.panel, "load_imbalance"));
    ASSERT_TRUE(apply->isEnabled());
    EXPECT_EQ(apply->text(), "Apply fix: load_imbalance");
    QTest::mouseClick(apply, Qt::LeftButton);
    EXPECT_EQ(f.document.undoStack()->count(), 1);
    EXPECT_EQ(f.document.undoStack()->undoText(), "Apply fix: load_imbalance");
    ASSERT_TRUE(f.document.scenario().strategy);
    EXPECT_EQ(f.document.scenario().strategy->balance, StrategySpec::Balance::Speed);
    // The findings are of the scenario before the fix now: nothing more to apply from them.
    EXPECT_FALSE(f.panel.isCurrent());
    EXPECT_FALSE(apply->isEnabled());
    EXPECT_TRUE(f.panel.statusText().contains("earlier version"))
        << f.panel.statusText().toStdString();

    // Re-simulated, the balanced line shows no imbalance.
    ASSERT_TRUE(f.advise());
    EXPECT_LT(f.panel.model()->rowOf("load_imbalance"), 0);
    f.document.undoStack()->undo();
    EXPECT_EQ(f.document.scenario(), original);
}

// A newer analysis stops the run in flight: only the latest one is answered.
TEST(AdvisorPanel, ANewerAnalysisReplacesTheRunInFlight) {
    AdvisorFixture f;
    QSignalSpy changed(&f.panel, &AdvisorPanel::findingsChanged);
    f.panel.setAnalysis(analyseScenario(f.document.scenario()));
    Scenario balanced = f.document.scenario();
    balanced.strategy->balance = StrategySpec::Balance::Speed;
    const auto latest = analyseScenario(balanced);
    f.panel.setAnalysis(latest);
    ASSERT_TRUE(f.panel.waitForIdle());
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(f.panel.advisedAnalysis(), latest);
    EXPECT_LT(f.panel.model()->rowOf("load_imbalance"), 0);
}

// Hidden, the panel simulates nothing; shown, it catches up with the latest analysis.
TEST(AdvisorPanel, ItRunsOnlyWhileOnScreen) {
    AdvisorFixture f;
    f.panel.setActive(false);
    f.panel.setAnalysis(analyseScenario(f.document.scenario()));
    EXPECT_FALSE(f.panel.isBusy());
    EXPECT_EQ(f.panel.model()->rowCount(), 0);
    f.panel.setActive(true);
    EXPECT_TRUE(f.panel.isBusy());
    ASSERT_TRUE(f.panel.waitForIdle());
    EXPECT_GE(f.panel.model()->rowOf("load_imbalance"), 0);
}

// In the window: View > Advisor, its findings refreshed after the simulation; a click outlines
// the dies on the mesh and shades the timeline; Apply fix is one undo step.
TEST(AdvisorPanel, TheWindowsAdvisorHighlightsTheMeshAndTheTimelineAndAppliesAFix) {
    EXPECT_TRUE(MainWindow::viewNames().contains("advisor"));
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const Scenario original = test::slowDieLine();
    window.document()->load(original, {}, QStringLiteral("slow die"));
    bool toggle = false;
    for (QAction* action : window.findChildren<QAction*>())
        toggle = toggle || (action->text() == "Advisor" && action->isCheckable());
    EXPECT_TRUE(toggle); // the dock's View menu toggle
    ASSERT_TRUE(window.showView("advisor"));
    AdvisorPanel& advisor = *window.advisorPanel();
    ASSERT_TRUE(processEventsUntil([&] { return advisor.isCurrent(); }, 60000))
        << advisor.statusText().toStdString();
    ASSERT_TRUE(window.waitForIdle());

    ASSERT_TRUE(clickFinding(advisor, "load_imbalance"));
    const auto& highlight = window.meshView()->findingHighlight();
    ASSERT_TRUE(highlight);
    EXPECT_EQ(highlight->dies, (std::vector<DieId>{0, 1, 2, 3}));
    ASSERT_TRUE(clickFinding(advisor, "low_utilization"));
    EXPECT_TRUE(window.timelineView()->shadedSpan().has_value());

    ASSERT_TRUE(clickFinding(advisor, "load_imbalance"));
    QTest::mouseClick(advisor.findChild<QPushButton*>("applyFix"), Qt::LeftButton);
    EXPECT_EQ(window.document()->undoStack()->count(), 1);
    ASSERT_TRUE(processEventsUntil([&] { return advisor.isCurrent(); }, 60000));
    EXPECT_EQ(window.meshView()->analysis()->scenario.strategy->balance,
              StrategySpec::Balance::Speed);
    EXPECT_FALSE(window.meshView()->findingHighlight()); // the new list has nothing selected
    window.document()->undoStack()->undo();
    EXPECT_EQ(window.document()->scenario(), original);
    ASSERT_TRUE(window.waitForIdle());
}

} // namespace
} // namespace ws
