// The users' paths of docs/gui.md "Scripted sessions", replayed in a real window with real
// gestures (QTest), each step checked and photographed: an engineer exploring GPT-3 175B
// strategies on 6x8, a teacher going through the walkthrough, a newcomer opening a broken file
// and a 32x32 wafer, and at 1280x720 a GPU-cluster engineer, a reliability engineer, a
// researcher with a sweep and a multi-wafer planner. CI runs it under Xvfb
// (scripts/run-sessions.sh); the screenshots go to $WAFERSCOPE_SESSION_SHOTS (docs/images holds
// the ones the docs show).
#include "advisor_panel.h"
#include "compare_panel.h"
#include "fault_editor.h"
#include "fault_study_panel.h"
#include "focus_ring.h"
#include "frozen_columns_table_view.h"
#include "hardware_panel.h"
#include "main_window.h"
#include "mesh_view.h"
#include "message_log.h"
#include "scenario_document.h"
#include "search_panel.h"
#include "sweep_chart_data.h"
#include "sweep_results_model.h"
#include "sweep_results_panel.h"
#include "walkthrough_panel.h"

#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"
#include "sweep/sweep_table.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace ws {
namespace {

QString scenarioFile(const char* name) {
    return QStringLiteral(WAFERSCOPE_SCENARIO_DIR "/") + QLatin1String(name);
}

// Saves the window as a user sees it, when a directory is given.
void shoot(QWidget& window, const QString& name) {
    QApplication::processEvents();
    const QByteArray dir = qgetenv("WAFERSCOPE_SESSION_SHOTS");
    if (dir.isEmpty())
        return;
    QDir().mkpath(QString::fromLocal8Bit(dir));
    const QString path = QString::fromLocal8Bit(dir) + QLatin1Char('/') + name + ".png";
    EXPECT_TRUE(window.grab().save(path)) << path.toStdString();
}

// Types a value into a spin box as a user would: select all, type, Enter.
void typeInto(QAbstractSpinBox* box, const QString& text) {
    box->setFocus();
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Return);
}

void click(QWidget* widget) {
    ASSERT_NE(widget, nullptr);
    ASSERT_TRUE(widget->isEnabled()) << widget->objectName().toStdString();
    QTest::mouseClick(widget, Qt::LeftButton);
}

QAction* menuAction(const MainWindow& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == text)
            return action;
    return nullptr;
}

class UserSession : public testing::Test {
protected:
    void SetUp() override {
        window.resize(1440, 900);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        // Active, so that the window's shortcuts (Ctrl+Z) reach it as a user's keys would.
        window.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    }
    MainWindow window;
};

// The engineer: GPT-3 175B on 6x8, a TATP degree typed in the Strategy dock, the result pinned
// and compared with the next change, then a strategy search.
TEST_F(UserSession, AnEngineerExploresGpt3StrategiesOn6x8) {
    ASSERT_TRUE(window.openScenario(scenarioFile("gpt3_175b_6x8_fsdp_tatp.json"), nullptr, true));
    ASSERT_TRUE(window.waitForIdle(120000));
    const double firstStep = window.meshView()->analysis()->report.step->stepS;
    shoot(window, "session_engineer_opened");

    window.showView("compare");
    click(window.findChild<QPushButton*>("pinResult"));
    ASSERT_TRUE(window.comparePanel()->isPinned());

    window.showView("strategy");
    auto* tatpBox = window.findChild<QSpinBox*>("tatp");
    ASSERT_TRUE(tatpBox);
    ASSERT_EQ(tatpBox->value(), 8);
    typeInto(tatpBox, "4"); // dp 6 x tatp 4: half the dies
    ASSERT_TRUE(window.waitForIdle(120000));
    EXPECT_EQ(window.document()->scenario().strategy->tatp, 4);
    EXPECT_EQ(window.document()->undoStack()->count(), 1);
    window.showView("compare");
    const QTableWidget& table = *window.comparePanel()->table();
    ASSERT_GT(table.rowCount(), 0);
    EXPECT_EQ(table.item(0, 0)->text(), "step time");
    EXPECT_NE(table.item(0, 1)->text(), table.item(0, 2)->text());
    shoot(window, "session_engineer_compare");

    // The difference heatmap on one symmetric scale.
    click(window.findChild<QCheckBox*>("showDifference"));
    EXPECT_TRUE(window.meshView()->showsDifference());
    shoot(window, "session_engineer_difference");

    // Undo brings the first strategy and its figure back.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
    ASSERT_TRUE(window.waitForIdle(120000));
    EXPECT_DOUBLE_EQ(window.meshView()->analysis()->report.step->stepS, firstStep);

    // A strategy search, small enough for CI, with the current strategy beside the best.
    window.showView("search");
    window.searchPanel()->setBudget(300);
    ASSERT_TRUE(window.searchPanel()->searchBlocking(300000));
    EXPECT_TRUE(window.searchPanel()->currentPoint().has_value());
    shoot(window, "session_engineer_search");

    // Back to the loads themselves: the difference with the pinned result would colour the
    // fault study's mesh by a change of +0 B (docs/images/fault_study_gpt3.png is this shot).
    window.showView("compare");
    click(window.findChild<QCheckBox*>("showDifference"));
    EXPECT_FALSE(window.meshView()->showsDifference());

    // A fault study of the strategy and the search's baselines: dead links up to 40%.
    window.showView("faultstudy");
    FaultStudyPanel& faults = *window.faultStudyPanel();
    faults.setKind(FaultKind::Links);
    faults.setRates(0.4, 0.1);
    faults.setSamples(2);
    click(window.findChild<QPushButton*>("runFaultStudy"));
    ASSERT_TRUE(faults.waitForIdle(600000));
    EXPECT_GE(faults.plot()->graphCount(), 2); // the strategy and at least one baseline
    shoot(window, "session_engineer_faults");
}

// The teacher: Help > Walkthrough, then Next through every step, each step's text read.
TEST_F(UserSession, ATeacherGoesThroughTheWalkthrough) {
    QAction* walkthrough = menuAction(window, "&Walkthrough: why FSDP and TATP collide");
    ASSERT_NE(walkthrough, nullptr);
    walkthrough->trigger();
    ASSERT_TRUE(window.waitForIdle());
    WalkthroughPanel& tour = *window.walkthrough();
    QPushButton* next = nullptr;
    for (QPushButton* button : tour.findChildren<QPushButton*>())
        if (button->text().startsWith("Next"))
            next = button;
    ASSERT_NE(next, nullptr);
    EXPECT_TRUE(tour.currentText().contains("Two strategies on one wafer"));
    shoot(window, "session_teacher_step1");
    for (int step = 1; step < tour.stepCount(); ++step) {
        click(next);
        ASSERT_TRUE(window.waitForIdle());
        QApplication::processEvents();
        EXPECT_EQ(tour.currentStep(), step);
        EXPECT_FALSE(tour.currentText().contains("Simulating")) << step;
        shoot(window, QStringLiteral("session_teacher_step%1").arg(step + 1));
        if (step == 5) {
            // The contention example ends on the tuned scenario: applied as one undo step.
            EXPECT_EQ(window.document()->undoStack()->count(), 1);
            EXPECT_TRUE(tour.currentText().contains("The timeline after"));
        }
    }
    // The last step: a slow die, the Advisor's load_imbalance selected; the teacher applies its
    // fix with the Advisor's button, one undo step of the slow-die example.
    EXPECT_TRUE(tour.currentText().contains("load_imbalance")) << tour.currentText().toStdString();
    EXPECT_FALSE(next->isEnabled());
    click(window.findChild<QPushButton*>("applyFix"));
    ASSERT_TRUE(window.waitForIdle());
    QApplication::processEvents();
    EXPECT_EQ(window.document()->undoStack()->count(), 1);
    EXPECT_TRUE(tour.currentText().contains("Balanced by speed"))
        << tour.currentText().toStdString();
    shoot(window, "session_teacher_fix");
}

// The newcomer: a file with a typo key changes nothing and says why in full; a 32x32 wafer is
// typed in and the mesh is fitted and drawn.
TEST_F(UserSession, ANewcomerOpensABrokenFileAndA32x32Wafer) {
    ASSERT_TRUE(window.openScenario(scenarioFile("contention_fsdp_tatp_4x4.json"), nullptr, true));
    ASSERT_TRUE(window.waitForIdle());
    const Scenario before = window.document()->scenario();
    QTemporaryDir dir;
    const QString broken = dir.filePath("typo.json");
    {
        QFile file(broken);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "waferscope.scenario", "version": 1,
            "wafer": {"rows": 4, "cols": 4},
            "workload": {"kind": "gemm", "m": 1024, "k": 1024, "n": 1024},
            "strategy": {"dp": 2, "tapt": 2}})");
    }
    QString error;
    EXPECT_FALSE(window.openScenario(broken, &error, true));
    EXPECT_TRUE(error.contains("tapt")) << error.toStdString();
    EXPECT_TRUE(error.contains("tatp")) << error.toStdString(); // did you mean
    EXPECT_EQ(window.document()->scenario(), before);           // nothing changed
    ASSERT_GT(window.messageLog()->count(), 0);
    EXPECT_TRUE(window.messageLog()->text(window.messageLog()->count() - 1).contains("tapt"));
    window.showView("messages");
    shoot(window, "session_newcomer_broken_file");

    window.showView("hardware");
    shoot(*window.findChild<HardwarePanel*>(), "session_hardware_form"); // the whole form
    auto* rows = window.findChild<QSpinBox*>("waferRows");
    auto* cols = window.findChild<QSpinBox*>("waferCols");
    ASSERT_TRUE(rows && cols);
    typeInto(rows, "32");
    typeInto(cols, "32");
    ASSERT_TRUE(window.waitForIdle());
    ASSERT_EQ(window.meshView()->analysis()->topology->dieCount(), 1024);
    // Fitted: every die of the wafer is inside the view.
    const QRectF last = window.meshView()->geometry().dieRect({31, 31});
    EXPECT_TRUE(QRectF(window.meshView()->rect()).contains(last.center()));
    shoot(window, "session_newcomer_32x32");
}

// The GPU-cluster engineer on a 1280x720 screen: GPT-3 13B on 32 A100, TP 8 pinned, then TP 4
// x DP 4, whose gradient all-reduce makes the InfiniBand rails the hottest links; the status bar
// names the rail (docs/gui.md "The hottest link") and View > Zoom to read ids shows the GPUs' ids.
TEST_F(UserSession, AClusterEngineerComparesTpDegreesOn32A100At1280x720) {
    window.resize(1280, 720);
    ASSERT_TRUE(window.openScenario(scenarioFile("gpt3_13b_dgx_a100_32gpu.json"), nullptr, true));
    ASSERT_TRUE(window.waitForIdle(120000));
    EXPECT_EQ(window.size(), QSize(1280, 720));
    shoot(window, "session_cluster_opened");

    // The keyboard alone: from the mesh, Tab goes round every dock (the Timeline's Pipeline
    // page included) and comes back.
    window.meshView()->setFocus();
    int presses = 0;
    do {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        ++presses;
    } while (QApplication::focusWidget() != window.meshView() && presses < 400);
    EXPECT_EQ(QApplication::focusWidget(), window.meshView()) << presses << " Tabs";
    // Every stop shows where the focus is: the ring around the field Tab reached.
    for (int i = 0; i < 4; ++i)
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QApplication::processEvents();
    EXPECT_EQ(window.focusRing()->target(), QApplication::focusWidget());
    shoot(window, "session_cluster_focus");

    window.showView("compare");
    click(window.findChild<QPushButton*>("pinResult"));
    ASSERT_TRUE(window.comparePanel()->isPinned());
    window.showView("strategy");
    typeInto(window.findChild<QSpinBox*>("tp"), "4");
    ASSERT_TRUE(window.waitForIdle(120000));
    typeInto(window.findChild<QSpinBox*>("dp"), "4");
    ASSERT_TRUE(window.waitForIdle(120000));
    ASSERT_EQ(window.document()->scenario().strategy->tp, 4);
    ASSERT_EQ(window.document()->scenario().strategy->dp, 4);
    EXPECT_EQ(window.document()->undoStack()->count(), 2);

    const auto analysis = window.meshView()->analysis();
    const QString hottest =
        QString::fromStdString(hottestLinkText(analysis->report, *analysis->topology));
    EXPECT_TRUE(hottest.contains("rail")) << hottest.toStdString();
    EXPECT_TRUE(window.findChild<QLabel*>("resultSummary")->text().contains(hottest));

    menuAction(window, "Zoom to read &ids")->trigger();
    EXPECT_GE(window.meshView()->geometry().tilePixels(), MeshView::kIdTilePixels);
    window.showView("compare");
    shoot(window, "session_cluster_compare");

    // A search at this size: its summary, scatter labels and table stay readable, and the
    // summary's best is the table's first row (docs/gui.md "Layout").
    window.showView("search");
    window.searchPanel()->setBudget(300);
    ASSERT_TRUE(window.searchPanel()->searchBlocking(300000));
    shoot(window, "session_cluster_search");
}

// The reliability engineer, at 1280x720: GPT-3 175B on 6x8 (dp 6 x tatp 8 on snakes) loses a
// die, set in the Hardware dock's fault list. No strategy a few changes away fits 47 dies (the
// model's states need all 48), and the Advisor says so. Undone, a dead link instead leaves 48
// dies but no room for six snakes: the Advisor comes forward with the nearest strategies that
// fit, one is applied with a click, and undo takes both steps back (docs/gui.md "When a strategy
// no longer fits").
TEST_F(UserSession, AReliabilityEngineerLosesADieAndAppliesTheNearestFit) {
    window.resize(1280, 720);
    ASSERT_TRUE(window.openScenario(scenarioFile("gpt3_175b_6x8_fsdp_tatp.json"), nullptr, true));
    ASSERT_TRUE(window.waitForIdle(120000));
    const Scenario opened = window.document()->scenario();
    AdvisorPanel& advisor = *window.advisorPanel();
    const auto advised = [&] {
        EXPECT_TRUE(window.waitForIdle(120000));
        EXPECT_TRUE(advisor.waitForIdle(300000));
        QApplication::processEvents();
    };

    window.showView("hardware");
    auto* kind = window.findChild<QComboBox*>("faultKindToAdd");
    auto* die = window.findChild<QSpinBox*>("faultDie");
    auto* to = window.findChild<QSpinBox*>("faultTo");
    ASSERT_TRUE(kind && die && to);
    kind->setCurrentIndex(FaultEditor::DeadDie);
    typeInto(die, "19");
    click(window.findChild<QPushButton*>("addFault"));
    advised();
    EXPECT_EQ(window.document()->scenario().wafer.deadDies, (std::vector<DieId>{19}));
    EXPECT_TRUE(advisor.isVisible()) << "the Advisor comes forward";
    ASSERT_TRUE(advisor.isCurrent()) << advisor.statusText().toStdString();
    ASSERT_TRUE(advisor.selectFinding("strategy_does_not_fit"));
    EXPECT_NE(advisor.selectedFinding()->message.find("no strategy a few changes away"),
              std::string::npos)
        << advisor.selectedFinding()->message;
    shoot(window, "session_reliability_dead_die");

    window.meshView()->setFocus();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
    window.showView("hardware");
    kind->setCurrentIndex(FaultEditor::DeadLink);
    typeInto(die, "20");
    typeInto(to, "21");
    click(window.findChild<QPushButton*>("addFault"));
    advised();
    EXPECT_TRUE(window.document()->scenario().wafer.deadDies.empty());
    EXPECT_EQ(window.document()->scenario().wafer.deadLinks.size(), 2u);
    ASSERT_TRUE(advisor.isCurrent()) << advisor.statusText().toStdString();
    const Finding* offer = advisor.selectedFinding();
    ASSERT_NE(offer, nullptr) << advisor.statusText().toStdString();
    EXPECT_EQ(offer->id, "nearest_fitting_strategy");
    ASSERT_TRUE(offer->fixAfterS);
    const double offeredS = *offer->fixAfterS;
    shoot(window, "session_reliability_nearest_fit");

    click(window.findChild<QPushButton*>("applyFix"));
    ASSERT_TRUE(window.waitForIdle(120000));
    const auto applied = window.meshView()->analysis();
    ASSERT_TRUE(applied && applied->report.step);
    EXPECT_DOUBLE_EQ(applied->report.step->stepS, offeredS);
    shoot(window, "session_reliability_applied");

    // Ctrl+Z twice: the strategy, then the link, back as opened.
    window.meshView()->setFocus();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
    ASSERT_TRUE(window.waitForIdle(120000));
    EXPECT_TRUE(window.document()->scenario() == opened);
}

// The researcher, at 1280x720: a sweep run (as `waferscope-cli sweep` runs it) and its output
// opened in the app, charted against an axis, its dies used beside MFU, and a row opened with
// Enter (docs/gui.md "Sweep results").
TEST_F(UserSession, AResearcherOpensASweepChartsItAndOpensARow) {
    window.resize(1280, 720);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // The shipped sweep, its base named by an absolute path, beside its output.
    QFile shipped(
        QStringLiteral(WAFERSCOPE_SCENARIO_DIR "/../sweeps/wafers_pair_off_wafer_links.json"));
    ASSERT_TRUE(shipped.open(QIODevice::ReadOnly));
    QByteArray sweepText = shipped.readAll();
    sweepText.replace("../scenarios/", WAFERSCOPE_SCENARIO_DIR "/");
    const QString sweepPath = dir.filePath("off_wafer_links.json");
    QFile sweepFile(sweepPath);
    ASSERT_TRUE(sweepFile.open(QIODevice::WriteOnly));
    sweepFile.write(sweepText);
    sweepFile.close();
    const SweepSpec spec = loadSweep(sweepPath.toStdString());
    std::string csv = sweepHeader(spec, SweepFormat::Csv);
    SweepRunOptions options;
    options.onRow = [&](const SweepRow& row) { csv += sweepLine(spec, row, SweepFormat::Csv); };
    runSweep(spec, options);
    const QString outPath = dir.filePath("off_wafer_links.csv");
    QFile out(outPath);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(csv));
    out.close();

    ASSERT_TRUE(window.openScenario(outPath, nullptr, true));
    SweepResultsPanel& results = *window.sweepResultsPanel();
    ASSERT_TRUE(results.waitForIdle(120000));
    auto* table = window.findChild<QTableView*>("sweepResultsTable");
    ASSERT_NE(table, nullptr);
    const auto* model = qobject_cast<const SweepResultsModel*>(
        window.findChild<SweepResultsModel*>("sweepResultsModel"));
    ASSERT_NE(model, nullptr);
    ASSERT_EQ(model->rowCount(), 8);
    const int dies = model->column(SweepResultsModel::DiesUsedColumn);
    EXPECT_EQ(model->headerData(dies, Qt::Horizontal).toString(), "dies used");
    EXPECT_GT(model->index(0, dies).data().toInt(), 0);
    auto* metric = window.findChild<QComboBox*>("sweepMetric");
    ASSERT_NE(metric, nullptr);
    metric->setCurrentIndex(metric->findData(static_cast<int>(SweepMetric::Mfu)));
    ASSERT_GE(metric->currentIndex(), 0);
    shoot(window, "session_researcher_sweep");

    // Scrolled to the last columns, the axis columns stay at the left edge.
    FrozenColumnsTableView& sweepTable = *results.table();
    const QRect axisCell = sweepTable.frozenView()->visualRect(model->index(0, 0));
    sweepTable.horizontalScrollBar()->setValue(sweepTable.horizontalScrollBar()->maximum());
    QApplication::processEvents();
    EXPECT_GT(sweepTable.horizontalScrollBar()->value(), 0);
    EXPECT_TRUE(sweepTable.frozenView()->isVisible());
    EXPECT_EQ(sweepTable.frozenView()->visualRect(model->index(0, 0)), axisCell);
    shoot(window, "session_researcher_sweep_scrolled");

    // Enter on a row opens its point as the document.
    table->setFocus();
    table->selectRow(2);
    QTest::keyClick(table, Qt::Key_Return);
    ASSERT_TRUE(window.waitForIdle(120000));
    EXPECT_EQ(window.document()->scenario().system->linksPerEdge.value_or(0),
              model->index(2, 1).data().toInt());
}

// The multi-wafer planner, at 1280x720: four 6x8 wafers with four pipeline stages; the Pipeline
// tab explains the micro-batch trade-off, and doubling the micro-batches shrinks the bubble
// (docs/gui.md "Pipeline stages").
TEST_F(UserSession, AMultiWaferPlannerTradesTheBubbleForMicroBatches) {
    window.resize(1280, 720);
    ASSERT_TRUE(
        window.openScenario(scenarioFile("gpt3_175b_four_6x8_wafers_pp4.json"), nullptr, true));
    ASSERT_TRUE(window.waitForIdle(120000));
    window.showView("timeline");
    auto* tradeOff = window.findChild<QLabel*>("pipelineTradeOff");
    ASSERT_NE(tradeOff, nullptr);
    EXPECT_TRUE(tradeOff->isVisible());
    EXPECT_TRUE(tradeOff->text().contains("HBM stalls")) << tradeOff->text().toStdString();
    const double bubble = window.meshView()->analysis()->report.step->ppBubbleFraction;
    shoot(window, "session_planner_pipeline");

    window.showView("compare");
    click(window.findChild<QPushButton*>("pinResult"));
    window.showView("strategy");
    auto* micro = window.findChild<QSpinBox*>("microBatches");
    ASSERT_NE(micro, nullptr);
    typeInto(micro, QString::number(micro->value() * 2));
    ASSERT_TRUE(window.waitForIdle(120000));
    EXPECT_LT(window.meshView()->analysis()->report.step->ppBubbleFraction, bubble);
    window.showView("compare");
    const QTableWidget& table = *window.comparePanel()->table();
    bool bubbleRow = false;
    for (int row = 0; row < table.rowCount(); ++row)
        bubbleRow = bubbleRow || table.item(row, 0)->text() == "pipeline bubble";
    EXPECT_TRUE(bubbleRow);
    shoot(window, "session_planner_compare");
}

} // namespace
} // namespace ws
