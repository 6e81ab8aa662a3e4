#include "advisor_panel.h"
#include "compare_panel.h"
#include "elided_label.h"
#include "evaluation_runner.h"
#include "focus_ring.h"
#include "long_simulation.h"
#include "main_window.h"
#include "mesh_view.h"
#include "message_log.h"
#include "process_events_until.h"
#include "scenario_document.h"
#include "std_string_text.h"
#include "tcme_panel.h"
#include "widget_test_support.h"

#include "units/quantity.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUndoStack>
#include <QUndoView>

#include <gtest/gtest.h>

#include <set>

namespace ws {
namespace {

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

// The window fits a 1440x900 screen with the Inspector roomy enough for a table (the Strategy
// form's 943 px minimum once made the window 1,316 px tall, and TCME's list and chart left the
// Inspector three lines).
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

// The window fits a 1280x720 screen (docs/gui.md "Layout") with a whole training step open: no
// dock's minimum makes it taller or wider, and the mesh keeps room to read.
TEST(MainWindow, FitsA1280x720Screen) {
    MainWindow window;
    window.restoreState(QByteArray());
    window.resize(1280, 720);
    ASSERT_TRUE(window.openScenario(":/scenarios/gpt3_175b_6x8_fsdp_tatp.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_LE(window.minimumSizeHint().width(), 1280);
    EXPECT_LE(window.minimumSizeHint().height(), 720);
    EXPECT_EQ(window.size(), QSize(1280, 720));
    const auto* mesh = window.findChild<MeshView*>();
    ASSERT_TRUE(mesh);
    EXPECT_GE(mesh->width(), 400);
    EXPECT_GE(mesh->height(), 240);
}

// One hottest link (docs/gui.md "The hottest link"): on a GPU cluster, where an InfiniBand rail
// is busier than NVLinks that carry more bytes, the status bar, the Charts dock's link-load title
// and Compare name one link by one quantity, its busy time, and TCME calls its own links by
// other names.
TEST(MainWindow, OneHottestLinkEverywhere) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(
        QString::fromStdString(test::scenarioPath("gpt3_13b_dgx_a100_32gpu.json")), nullptr, true));
    // TP 4 x DP 4: the gradient all-reduce crosses the rails, which become the busiest links.
    Scenario tp4 = window.document()->scenario();
    tp4.strategy->tp = 4;
    tp4.strategy->dp = 4;
    window.document()->edit("TP 4 x DP 4", tp4);
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    const auto analysis = window.meshView()->analysis();
    const SimulationReport& report = analysis->report;
    const std::vector<LinkReport> hottest = report.hottestLinks(1);
    ASSERT_FALSE(hottest.empty());
    double mostBytes = 0;
    for (const LinkReport& link : report.links)
        mostBytes = std::max(mostBytes, link.bytes);
    EXPECT_LT(hottest.front().bytes, mostBytes); // the case where bytes would name another link
    const QString text = QString::fromStdString(hottestLinkText(report, *analysis->topology));
    EXPECT_TRUE(text.startsWith("hottest link ")) << text.toStdString();

    const auto* summary = window.findChild<QLabel*>("resultSummary");
    ASSERT_TRUE(summary);
    EXPECT_TRUE(summary->text().contains(text)) << summary->text().toStdString();
    EXPECT_EQ(summary->text().count("hottest"), 1);
    int chartTitles = 0;
    for (QCustomPlot* plot : window.findChildren<QCustomPlot*>())
        if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0)))
            chartTitles += title->text().contains(text) ? 1 : 0;
    EXPECT_EQ(chartTitles, 1); // the link-load histogram's

    window.comparePanel()->pin();
    const QTableWidget& table = *window.comparePanel()->table();
    int busyRow = -1;
    for (int row = 0; row < table.rowCount(); ++row) {
        EXPECT_NE(table.item(row, 0)->text(), "hottest link's bytes");
        if (table.item(row, 0)->text() == "hottest link's busy time")
            busyRow = row;
    }
    ASSERT_GE(busyRow, 0);
    EXPECT_EQ(table.item(busyRow, 1)->text().toStdString(), formatSeconds(hottest.front().busyS));

    // TCME's own figures go by their own names, never "hottest link".
    window.findChild<TcmePanel*>()->step();
    ASSERT_TRUE(window.waitForIdle());
    for (QLabel* label : window.findChild<TcmePanel*>()->findChildren<QLabel*>())
        EXPECT_FALSE(label->text().contains("hottest link")) << label->text().toStdString();
    for (QTreeWidget* tree : window.findChild<TcmePanel*>()->findChildren<QTreeWidget*>())
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            EXPECT_FALSE((*it)->text(0).contains("hottest link")) << (*it)->text(0).toStdString();
}

// The status bar gives what a pipeline plan is judged by beside the step: the dies (GPUs) used
// beside MFU, which is per die used, and the pipeline bubble (docs/gui.md "Pipeline stages").
TEST(MainWindow, TheStatusBarGivesTheDiesUsedAndThePipelineBubble) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(
        QString::fromStdString(test::scenarioPath("gpt3_13b_dgx_a100_32gpu.json")), nullptr, true));
    ASSERT_TRUE(window.waitForIdle());
    const StepMetrics& step = *window.meshView()->analysis()->report.step;
    ASSERT_GT(step.ppBubbleFraction, 0);
    const QString summary = window.findChild<QLabel*>("resultSummary")->text();
    EXPECT_TRUE(summary.contains("on 32 of 32 GPUs used")) << summary.toStdString();
    EXPECT_TRUE(summary.contains(
        QStringLiteral("pipeline bubble %1%").arg(step.ppBubbleFraction * 100, 0, 'f', 1)))
        << summary.toStdString();
}

// Faults are edited on the mesh (docs/gui.md "The mesh"): a die's menu marks it dead and a link's
// menu one direction of the link, each one undo step that the simulation follows; undo brings
// them back.
TEST(MainWindow, DeadDiesAndLinksAreSetOnTheMeshAndUndone) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(
        QString::fromStdString(test::scenarioPath("gemm_gpt3_175b_mlp_6x8.json")), nullptr, true));
    // dp 4 x tatp 8 on snakes: the last two rows of the 6x8 wafer take part in nothing.
    Scenario dp4 = window.document()->scenario();
    dp4.strategy->dp = 4;
    window.document()->edit("dp 4", dp4);
    window.resize(1280, 720);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.waitForIdle());
    MeshView& mesh = *window.meshView();
    const Scenario opened = window.document()->scenario();
    // Answers the menu as a user would: its exec runs an event loop this timer's ticks reach.
    QString choice;
    QTimer user;
    user.setInterval(20);
    QObject::connect(&user, &QTimer::timeout, [&] { test::answerOpenMenu(choice); });
    user.start();

    const DieId die = 47; // in the last row: the strategy's dies stay where they were
    ASSERT_TRUE(mesh.analysis());
    ASSERT_TRUE(mesh.analysis()->topology->isAlive(die));
    choice = "Dead die";
    QTest::mouseClick(&mesh, Qt::RightButton, {}, centreOf(mesh, die));
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_EQ(window.document()->scenario().wafer.deadDies, std::vector<DieId>{die});
    EXPECT_FALSE(mesh.analysis()->topology->isAlive(die));

    const WaferTopology& topology = *mesh.analysis()->topology;
    const LinkId link = *topology.linkBetween(0, 1);
    choice = "Dead link";
    QTest::mouseClick(&mesh, Qt::RightButton, {},
                      mesh.geometry().linkRect(topology, topology.link(link)).center().toPoint());
    user.stop();
    ASSERT_TRUE(window.waitForIdle());
    ASSERT_EQ(window.document()->scenario().wafer.deadLinks.size(), 1u);
    EXPECT_EQ(window.document()->scenario().wafer.deadLinks[0], (LinkRef{0, 1, false}));
    EXPECT_FALSE(mesh.analysis()->topology->link(link).alive);
    EXPECT_EQ(window.document()->undoStack()->count(), 3);

    window.document()->undoStack()->undo();
    window.document()->undoStack()->undo();
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_EQ(window.document()->scenario(), opened);
    EXPECT_TRUE(mesh.analysis()->topology->isAlive(die));
    EXPECT_TRUE(mesh.analysis()->topology->link(link).alive);
}

// Full keyboard use (docs/gui.md "Layout"): Tab goes through every visible dock and, after the
// last, comes back to where it started; Shift+Tab goes back the same way.
TEST(MainWindow, TabReachesEveryDockAndComesBack) {
    MainWindow window;
    window.restoreState(QByteArray());
    window.resize(1280, 720);
    ASSERT_TRUE(window.openScenario(
        QString::fromStdString(test::scenarioPath("gpt3_175b_four_6x8_wafers_pp4.json")), nullptr,
        true));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    ASSERT_TRUE(window.waitForIdle());
    window.meshView()->setFocus();
    QWidget* start = QApplication::focusWidget();
    ASSERT_EQ(start, window.meshView());
    std::set<QString> reached;
    std::vector<QWidget*> chain{start};
    const FocusRing& ring = *window.focusRing();
    do {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCoreApplication::processEvents(); // a form scrolls to the field that took the focus
        QWidget* focus = QApplication::focusWidget();
        ASSERT_TRUE(focus);
        chain.push_back(focus);
        for (QWidget* w = focus; w; w = w->parentWidget())
            if (auto* dock = qobject_cast<QDockWidget*>(w))
                reached.insert(dock->objectName());
        // Every stop shows its focus (docs/gui.md "Keyboard"): the ring around what is on
        // screen of it.
        EXPECT_EQ(ring.target(), focus)
            << focus->metaObject()->className() << " ring on "
            << (ring.target() ? ring.target()->metaObject()->className() : "nothing");
        if (ring.target() == focus) { // around it, just outside
            const QRect around(focus->mapTo(ring.parentWidget(), QPoint(0, 0)), focus->size());
            EXPECT_TRUE(ring.geometry().intersects(around))
                << focus->metaObject()->className() << " " << focus->objectName().toStdString();
        }
    } while (chain.back() != start && chain.size() < 400);
    EXPECT_EQ(chain.back(), start) << chain.size() << " presses";
    // A click moves the focus where the pointer is, and the ring goes.
    QTest::mouseClick(window.meshView(), Qt::LeftButton, {}, QPoint(5, 5));
    EXPECT_EQ(ring.target(), nullptr);
    ASSERT_GE(chain.size(), 3u);
    // Shift+Tab from the start goes back to the last stop before it, and on to the one before.
    QTest::keyClick(start, Qt::Key_Tab, Qt::ShiftModifier);
    EXPECT_EQ(QApplication::focusWidget(), chain[chain.size() - 2]);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ShiftModifier);
    EXPECT_EQ(QApplication::focusWidget(), chain[chain.size() - 3]);
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        if (dock->isVisible() && !dock->visibleRegion().isEmpty()) {
            EXPECT_TRUE(reached.count(dock->objectName())) << dock->objectName().toStdString();
        }
    }
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

// Reloading a file whose faults changed outside the app shows the file as it is now: the mesh's
// dies and links, the Advisor's findings and the undo history's figure are all of the new file
// (docs/gui.md "Files"). Here the new dead link leaves no room for the strategy's snakes: the
// Advisor says so and offers the nearest strategies that fit, one click to apply (docs/gui.md
// "When a strategy no longer fits").
TEST(MainWindow, ReloadShowsTheFileAsItIsNowAndOffersTheNearestStrategiesThatFit) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("faults.json");
    Scenario first = test::exampleScenario("slow_die_6x8.json");
    first.name = "one slow die";
    saveScenario(first, path.toStdString());
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    ASSERT_TRUE(window.openScenario(path, nullptr, true));
    ASSERT_TRUE(window.waitForIdle());
    ASSERT_TRUE(window.showView("advisor"));
    AdvisorPanel* advisor = window.advisorPanel();
    ASSERT_TRUE(advisor->waitForIdle());
    QCoreApplication::processEvents();
    ASSERT_TRUE(advisor->isCurrent());
    auto* history = window.findChild<QUndoView*>();
    ASSERT_NE(history, nullptr);
    EXPECT_TRUE(history->emptyLabel().contains("step")) << history->emptyLabel().toStdString();

    Scenario second = first;
    second.name = "one dead link";
    second.wafer.slowDies.clear();
    second.wafer.deadLinks = {LinkRef{20, 21, true}};
    saveScenario(second, path.toStdString());
    ASSERT_TRUE(window.reload());
    ASSERT_TRUE(window.waitForIdle());
    QCoreApplication::processEvents();
    ASSERT_TRUE(advisor->waitForIdle());
    QCoreApplication::processEvents();

    // The mesh draws the new file's hardware, though its strategy does not simulate.
    const auto shown = window.meshView()->analysis();
    ASSERT_NE(shown, nullptr);
    EXPECT_TRUE(shown->scenario == window.document()->scenario());
    EXPECT_TRUE(shown->scenario.wafer.slowDies.empty()) << "the old slow die is still drawn";
    const auto link = shown->topology->linkBetween(20, 21);
    ASSERT_TRUE(link.has_value());
    EXPECT_FALSE(shown->topology->links()[static_cast<std::size_t>(*link)].alive)
        << "the new dead link is not drawn";
    EXPECT_TRUE(window.meshView()->banner().contains("nearest strategies"))
        << window.meshView()->banner().toStdString();
    EXPECT_EQ(history->emptyLabel(), "<opened> · does not simulate");

    // The Advisor is in front, current, and says why.
    EXPECT_TRUE(advisor->isVisible());
    EXPECT_TRUE(advisor->isCurrent()) << advisor->statusText().toStdString();
    EXPECT_FALSE(advisor->statusText().contains("Waiting"));
    ASSERT_TRUE(advisor->selectFinding("strategy_does_not_fit"));
    // The nearest strategy that fits, applied in one click, simulates.
    ASSERT_TRUE(advisor->selectFinding("nearest_fitting_strategy"));
    const Finding* offer = advisor->selectedFinding();
    ASSERT_NE(offer, nullptr);
    ASSERT_TRUE(offer->fixAfterS.has_value());
    const double offeredS = *offer->fixAfterS; // the findings are replaced once it is applied
    auto* apply = advisor->findChild<QPushButton*>("applyFix");
    ASSERT_TRUE(apply && apply->isEnabled());
    QTest::mouseClick(apply, Qt::LeftButton);
    ASSERT_TRUE(window.waitForIdle());
    QCoreApplication::processEvents();
    const auto applied = window.meshView()->analysis();
    ASSERT_TRUE(applied && applied->report.step);
    EXPECT_DOUBLE_EQ(applied->report.step->stepS, offeredS);
    EXPECT_EQ(window.meshView()->banner(), QString());
    // One undo step takes it back.
    window.document()->undoStack()->undo();
    EXPECT_TRUE(window.document()->scenario() == second);
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
