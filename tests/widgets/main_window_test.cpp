#include "elided_label.h"
#include "evaluation_runner.h"
#include "long_simulation.h"
#include "main_window.h"
#include "mesh_view.h"
#include "message_log.h"
#include "process_events_until.h"
#include "scenario_document.h"
#include "widget_test_support.h"

#include "units/quantity.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace ws {
namespace {

QPoint centreOf(const MeshView& view, DieId die) {
    return view.geometry().dieRect(view.analysis()->topology->coord(die)).center().toPoint();
}

TEST(MainWindow, OpensTheTeachingExampleAndShowsItsSimulation) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    ASSERT_TRUE(window.meshView()->analysis());
    EXPECT_EQ(window.meshView()->analysis()->topology->dieCount(), 16);
    EXPECT_TRUE(window.windowTitle().startsWith("contention_fsdp_tatp_4x4.json"));
}

TEST(MainWindow, ADragPushesOneUndoCommandAndChangesTheGroups) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    MeshView& mesh = *window.meshView();
    ASSERT_EQ(mesh.analysis()->groups.dpOfDie[5], -1);
    QTest::mousePress(&mesh, Qt::LeftButton, {}, centreOf(mesh, 1));
    QTest::mouseMove(&mesh, centreOf(mesh, 1) + QPoint(15, 15));
    QTest::mouseMove(&mesh, centreOf(mesh, 5));
    QTest::mouseRelease(&mesh, Qt::LeftButton, {}, centreOf(mesh, 5));
    EXPECT_EQ(window.document()->undoStack()->count(), 1);
    EXPECT_EQ(window.document()->undoStack()->undoText(), "Swap die 1 with die 5");
    ASSERT_TRUE(window.waitForIdle());
    // The undo history shows each state's makespan beside the edit; the Edit menu does not.
    const QString swapped =
        QString::fromStdString(formatSeconds(mesh.analysis()->report.makespanS));
    EXPECT_EQ(window.document()->undoStack()->text(0),
              "Swap die 1 with die 5 · makespan " + swapped);
    EXPECT_EQ(window.document()->undoStack()->undoText(), "Swap die 1 with die 5");
    EXPECT_EQ(mesh.analysis()->groups.dpOfDie[5], 1); // die 5 took die 1's place in D1
    EXPECT_EQ(mesh.analysis()->groups.dpOfDie[1], -1);
    EXPECT_TRUE(window.isWindowModified());

    window.document()->undoStack()->undo();
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_EQ(mesh.analysis()->groups.dpOfDie[1], 1);
    EXPECT_FALSE(window.isWindowModified());
}

TEST(MainWindow, ARefusedDropChangesNothing) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    MeshView& mesh = *window.meshView();
    // Dies 12 and 13 carry no traffic: swapping them means nothing, and core says so.
    QTest::mousePress(&mesh, Qt::LeftButton, {}, centreOf(mesh, 12));
    QTest::mouseMove(&mesh, centreOf(mesh, 12) + QPoint(15, 0));
    QTest::mouseMove(&mesh, centreOf(mesh, 13));
    QTest::mouseRelease(&mesh, Qt::LeftButton, {}, centreOf(mesh, 13));
    EXPECT_EQ(window.document()->undoStack()->count(), 0);
}

// The network model is switched from the wafer settings; the status bar names the model the
// figures come from and, with the comparison on, the other model's time beside it.
TEST(MainWindow, TheNetworkModelIsSwitchedAndNamedAndBothCanBeCompared) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/ring_allgather_line.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    auto* summary = window.findChild<QLabel*>("resultSummary");
    auto* model = window.findChild<QComboBox*>("networkModel");
    auto* chunk = window.findChild<QDoubleSpinBox*>("networkChunk");
    auto* compare = window.findChild<QCheckBox*>("compareNetworkModels");
    ASSERT_TRUE(summary && model && chunk && compare);
    EXPECT_TRUE(summary->text().contains("fluid network")) << summary->text().toStdString();
    EXPECT_FALSE(chunk->isEnabled());
    const double fluidS = window.meshView()->analysis()->report.makespanS;

    model->setCurrentIndex(1);
    ASSERT_TRUE(window.waitForIdle());
    const SimulationReport& report = window.meshView()->analysis()->report;
    EXPECT_EQ(report.network.model, NetworkModel::StoreAndForward);
    EXPECT_GT(report.makespanS, fluidS); // the wrap-around is stored and forwarded
    EXPECT_TRUE(summary->text().contains("store-and-forward, 1.049 MB chunks"))
        << summary->text().toStdString();
    EXPECT_TRUE(chunk->isEnabled());
    EXPECT_EQ(window.document()->undoStack()->undoText(),
              "Use the store-and-forward network model");

    compare->click();
    ASSERT_TRUE(window.waitForIdle());
    const auto& comparison = window.meshView()->analysis()->networkComparison;
    ASSERT_TRUE(comparison);
    EXPECT_DOUBLE_EQ(comparison->fluid.makespanS, fluidS);
    EXPECT_TRUE(summary->text().contains(" vs store-and-forward "))
        << summary->text().toStdString();
    window.document()->undoStack()->undo();
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_EQ(window.meshView()->analysis()->report.network.model, NetworkModel::Fluid);
    EXPECT_EQ(model->currentIndex(), 0);
}

// Figures of an earlier document are marked as such while the latest edit simulates and after
// a Cancel, which offers a Re-run of the document as it is; the next result unmarks them.
TEST(MainWindow, AResultOfAnEarlierDocumentIsMarkedStale) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/ring_allgather_line.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    auto* summary = window.findChild<QLabel*>("resultSummary");
    auto* cancel = window.findChild<QPushButton*>("cancelSimulation");
    auto* rerun = window.findChild<QPushButton*>("rerunSimulation");
    ASSERT_TRUE(summary && cancel && rerun);
    const QString fresh = summary->text();
    EXPECT_FALSE(summary->property("stale").toBool());
    EXPECT_FALSE(rerun->isVisible());

    window.runner()->evaluate(test::ringAllReduce16x16()); // seconds: time to look at it
    ASSERT_TRUE(processEventsUntil([cancel] { return cancel->isVisible(); }, 5000));
    EXPECT_TRUE(summary->property("stale").toBool());
    EXPECT_TRUE(summary->text().startsWith("previous result (simulating the latest edit): "))
        << summary->text().toStdString();
    EXPECT_TRUE(summary->text().endsWith(fresh));

    QTest::mouseClick(cancel, Qt::LeftButton);
    EXPECT_TRUE(summary->property("stale").toBool());
    EXPECT_TRUE(summary->text().startsWith("previous result (cancelled"))
        << summary->text().toStdString();
    ASSERT_TRUE(rerun->isVisible());

    QTest::mouseClick(rerun, Qt::LeftButton); // simulates the document: the line again
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_FALSE(summary->property("stale").toBool());
    EXPECT_EQ(summary->text(), fresh);
    EXPECT_FALSE(rerun->isVisible());
}

// A refusal stays readable until the user clears it: whole in the status line's tooltip and in
// the message log, marked as an error, after later messages too.
TEST(MainWindow, ARefusalStaysInTheMessageLog) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    QString error;
    ASSERT_FALSE(window.openScenario("/nonexistent/scenario.json", &error, true));
    ASSERT_FALSE(error.isEmpty());
    const MessageLog& log = *window.messageLog();
    ASSERT_GE(log.count(), 2);
    EXPECT_EQ(log.text(0), "Opened contention_fsdp_tatp_4x4.json");
    EXPECT_EQ(log.text(log.count() - 1), error);
    EXPECT_TRUE(log.isError(log.count() - 1));
    auto* line = window.findChild<ElidedLabel*>("statusMessage");
    ASSERT_TRUE(line);
    EXPECT_EQ(line->fullText(), error);
    EXPECT_EQ(line->toolTip(), error);

    ASSERT_TRUE(window.openScenario(":/scenarios/ring_allgather_line.json", nullptr, true));
    EXPECT_EQ(log.text(log.count() - 2), error); // still kept
    EXPECT_TRUE(window.showView("messages"));
}

// A message in the status line is about the scenario it was shown for: the next change (an
// edit, an undo) clears it from the line, and the Messages dock keeps it.
TEST(MainWindow, AChangeOfTheScenarioClearsTheStatusLineButNotTheLog) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    auto* line = window.findChild<ElidedLabel*>("statusMessage");
    ASSERT_TRUE(line);
    const auto refuse = [&] {
        QString error;
        EXPECT_FALSE(window.openScenario("/nonexistent/scenario.json", &error, true));
        EXPECT_EQ(line->fullText(), error);
        return error;
    };
    const QString error = refuse();
    Scenario edited = window.document()->scenario();
    edited.name = "renamed";
    window.document()->edit("Rename", edited);
    EXPECT_EQ(line->fullText(), QString());
    EXPECT_EQ(window.messageLog()->text(window.messageLog()->count() - 1), error);

    refuse();
    window.document()->undoStack()->undo();
    EXPECT_EQ(line->fullText(), QString());
}

// The window fits a 1440x900 screen with the Inspector roomy enough for a table (issue 20 item
// 5: the Strategy form's 943 px minimum made the window 1,316 px tall, and TCME's list and chart
// left the Inspector three lines).
TEST(MainWindow, FitsALaptopScreenWithARoomyInspector) {
    MainWindow window;
    window.restoreState(QByteArray()); // the default layout, whatever an earlier test saved
    window.resize(1440, 900);
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_LE(window.minimumSizeHint().height(), 900);
    EXPECT_EQ(window.height(), 900);
    const auto* inspector = window.findChild<QDockWidget*>("inspectorDock");
    ASSERT_TRUE(inspector);
    EXPECT_GE(inspector->height(), 180);
}

// View > Reset layout puts back the docks as the window first placed them.
TEST(MainWindow, ResetLayoutBringsBackTheFirstLayout) {
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    auto* timeline = window.findChild<QDockWidget*>("timelineDock");
    auto* charts = window.findChild<QDockWidget*>("chartsDock");
    auto* inspector = window.findChild<QDockWidget*>("inspectorDock");
    ASSERT_TRUE(timeline && charts && inspector);
    timeline->hide();
    charts->setFloating(true);
    inspector->hide();
    window.resetLayout();
    QCoreApplication::processEvents();
    EXPECT_TRUE(timeline->isVisible());
    EXPECT_FALSE(charts->isFloating());
    EXPECT_TRUE(inspector->isVisible());
    EXPECT_GE(inspector->height(), 180);
    EXPECT_EQ(window.height(), 900);
}

// File > Reload from disk reads edits made outside the app.
TEST(MainWindow, ReloadReadsTheFileAgain) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("line.json");
    const auto write = [&path](const std::string& name) {
        Scenario scenario = test::exampleScenario("ring_allgather_line.json");
        scenario.name = name;
        saveScenario(scenario, path.toStdString());
    };
    write("first");
    MainWindow window;
    ASSERT_TRUE(window.openScenario(path, nullptr, true));
    EXPECT_EQ(window.document()->scenario().name, "first");
    write("edited outside");
    ASSERT_TRUE(window.reload());
    EXPECT_EQ(window.document()->scenario().name, "edited outside");
    EXPECT_FALSE(window.isWindowModified());
}

// Help > Keyboard shortcuts lists the menus' keys, read off the menus.
TEST(MainWindow, TheShortcutListIsReadOffTheMenus) {
    MainWindow window;
    const QString text = window.shortcutsText();
    EXPECT_TRUE(text.contains("File › Save as…")) << text.toStdString();
    EXPECT_TRUE(text.contains("Ctrl+Shift+S")) << text.toStdString();
    EXPECT_TRUE(text.contains("File › Reload from disk"));
    EXPECT_TRUE(text.contains("Optimize › TCME step"));
    EXPECT_TRUE(text.contains("<b>F10</b>"));
    EXPECT_TRUE(text.contains("Ctrl+Y")) << "Redo, as well as Ctrl+Shift+Z";
}

// Ctrl+Y redoes, as Ctrl+Shift+Z does.
TEST(MainWindow, CtrlYRedoes) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    Scenario edited = window.document()->scenario();
    edited.name = "renamed";
    window.document()->edit("Rename", edited);
    window.document()->undoStack()->undo();
    ASSERT_NE(window.document()->scenario().name, "renamed");
    QTest::keyClick(&window, Qt::Key_Y, Qt::ControlModifier);
    EXPECT_EQ(window.document()->scenario().name, "renamed");
}

// Help > User guide opens the docs of the source tree the app was built from.
TEST(MainWindow, HelpHasTheUserGuide) {
    MainWindow window;
    bool listed = false;
    for (QAction* action : window.findChildren<QAction*>())
        listed = listed || action->text() == "&User guide";
    EXPECT_TRUE(listed);
    EXPECT_TRUE(MainWindow::userGuidePath().endsWith("/docs/gui.md"))
        << MainWindow::userGuidePath().toStdString();
}

TEST(MainWindow, UnknownViewsAreRefused) {
    MainWindow window;
    EXPECT_TRUE(window.showView("tcme"));
    EXPECT_FALSE(window.showView("nonsense"));
}

} // namespace
} // namespace ws
