#include "compare_panel.h"
#include "main_window.h"
#include "mesh_view.h"
#include "scenario_document.h"
#include "widget_test_support.h"

#include "units/quantity.h"

#include <QAction>
#include <QCheckBox>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTableWidget>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ws {
namespace {

// The teaching example with every op's bytes scaled by `factor`.
std::shared_ptr<const ScenarioAnalysis> scaledTeaching(double factor) {
    Scenario scenario = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    for (TrafficOp& op : scenario.traffic)
        op.bytes.value *= factor;
    return analyseScenario(scenario);
}

int rowNamed(const QTableWidget& table, const QString& name) {
    for (int row = 0; row < table.rowCount(); ++row)
        if (table.item(row, 0)->text() == name)
            return row;
    return -1;
}

TEST(ComparePanel, SetsThePinnedResultBesideTheCurrentWithTheChange) {
    ComparePanel panel;
    EXPECT_FALSE(panel.isPinned());
    panel.pin(); // nothing simulated yet: refused
    EXPECT_FALSE(panel.isPinned());

    const auto pinned = scaledTeaching(1.0);
    panel.setCurrentAnalysis(pinned);
    panel.pin();
    ASSERT_TRUE(panel.isPinned());
    const auto current = scaledTeaching(0.5); // half the bytes: a shorter makespan
    panel.setCurrentAnalysis(current);

    const QTableWidget& table = *panel.table();
    const int makespan = rowNamed(table, "makespan of the simulated window");
    ASSERT_GE(makespan, 0);
    EXPECT_EQ(table.item(makespan, 1)->text().toStdString(),
              formatSeconds(pinned->report.makespanS));
    EXPECT_EQ(table.item(makespan, 2)->text().toStdString(),
              formatSeconds(current->report.makespanS));
    const double change =
        (current->report.makespanS - pinned->report.makespanS) / pinned->report.makespanS;
    EXPECT_EQ(table.item(makespan, 3)->text(),
              QString("−%1%").arg(std::abs(change) * 100, 0, 'f', 1));
    EXPECT_EQ(table.item(makespan, 3)->foreground().color(), QColor(20, 120, 40)); // better
    const int bytes = rowNamed(table, "bytes over links");
    ASSERT_GE(bytes, 0);
    EXPECT_EQ(table.item(bytes, 3)->text(), "−50.0%");

    // While the next edit simulates, the current column is marked as the previous result.
    panel.setCurrentStale(true);
    EXPECT_TRUE(panel.statusText().contains("previous result")) << panel.statusText().toStdString();
    panel.unpin();
    EXPECT_FALSE(panel.isPinned());
    EXPECT_EQ(table.rowCount(), 0);
}

// The difference heatmap: current minus pinned per link, on a scale symmetric about 0, and
// only between results on the same links.
TEST(ComparePanel, ColoursTheMeshByTheDifferenceOnOneSymmetricScale) {
    ComparePanel panel;
    MeshView mesh;
    QObject::connect(&panel, &ComparePanel::differenceChanged, &mesh, &MeshView::setLinkDifference);
    const auto pinned = scaledTeaching(1.0);
    panel.setCurrentAnalysis(pinned);
    panel.pin();
    const auto current = scaledTeaching(0.25);
    panel.setCurrentAnalysis(current);
    mesh.setAnalysis(current);
    EXPECT_FALSE(mesh.showsDifference()); // until asked
    panel.setShowDifference(true);
    ASSERT_TRUE(mesh.showsDifference());
    double largest = 0;
    for (std::size_t link = 0; link < current->report.links.size(); ++link)
        largest = std::max(largest, std::abs(current->report.links[link].bytes -
                                             pinned->report.links[link].bytes));
    ASSERT_GT(largest, 0);
    for (std::size_t link = 0; link < current->report.links.size(); ++link) {
        const double difference =
            current->report.links[link].bytes - pinned->report.links[link].bytes;
        EXPECT_DOUBLE_EQ(mesh.linkFraction(static_cast<LinkId>(link)), difference / largest);
        EXPECT_LE(mesh.linkFraction(static_cast<LinkId>(link)), 0.0); // a quarter of the bytes
    }

    // Another wafer: no link-by-link difference; the box is greyed out and says why.
    Scenario wider = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    wider.wafer.cols = 5;
    const auto other = analyseScenario(wider);
    panel.setCurrentAnalysis(other);
    mesh.setAnalysis(other);
    EXPECT_FALSE(mesh.showsDifference());
    EXPECT_FALSE(panel.showsDifference());
    EXPECT_FALSE(panel.findChild<QCheckBox*>("showDifference")->isEnabled());
    EXPECT_TRUE(panel.statusText().contains("Other hardware")) << panel.statusText().toStdString();
}

// In the window: View > Pin result to compare, an edit, and the dock compares the two.
TEST(ComparePanel, TheWindowPinsAResultAndComparesItWithTheNextEdit) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/contention_fsdp_tatp_4x4.json", nullptr, true));
    window.show();
    ASSERT_TRUE(window.waitForIdle());
    QAction* pin = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == "&Pin result to compare")
            pin = action;
    ASSERT_NE(pin, nullptr);
    EXPECT_EQ(pin->shortcut(), QKeySequence("Ctrl+Shift+P"));
    pin->trigger();
    ASSERT_TRUE(window.comparePanel()->isPinned());
    const double before = window.meshView()->analysis()->report.makespanS;
    Scenario faster = window.document()->scenario();
    faster.wafer.linkBandwidth.value *= 2;
    window.document()->edit("Double the link bandwidth", faster);
    ASSERT_TRUE(window.waitForIdle());
    const double after = window.meshView()->analysis()->report.makespanS;
    ASSERT_LT(after, before);
    const QTableWidget& table = *window.comparePanel()->table();
    const int makespan = rowNamed(table, "makespan of the simulated window");
    ASSERT_GE(makespan, 0);
    EXPECT_EQ(table.item(makespan, 1)->text().toStdString(), formatSeconds(before));
    EXPECT_EQ(table.item(makespan, 2)->text().toStdString(), formatSeconds(after));
}

// Compare names what is pinned and what is current: the scenario, the hardware and the dies
// (here GPUs) used, and says when the current strategy leaves some idle (docs/gui.md "Compare"):
// TP 8 -> TP 4 on 32 A100 uses 16 and raises MFU, which is per GPU used.
TEST(ComparePanel, NamesTheScenarioHardwareAndGpusUsedAndWarnsOfIdleOnes) {
    MainWindow window;
    ASSERT_TRUE(window.openScenario(
        QString::fromStdString(test::scenarioPath("gpt3_13b_dgx_a100_32gpu.json")), nullptr, true));
    ASSERT_TRUE(window.waitForIdle());
    window.comparePanel()->pin();
    Scenario tp4 = window.document()->scenario();
    tp4.strategy->tp = 4;
    window.document()->edit("TP 4", tp4);
    ASSERT_TRUE(window.waitForIdle());
    const QString text = window.comparePanel()->statusText();
    EXPECT_TRUE(text.contains("Pinned: step ")) << text.toStdString(); // the headline first
    EXPECT_TRUE(text.contains("GPT-3 13B on 32 A100")) << text.toStdString();
    EXPECT_TRUE(text.contains("4 nodes of 8 GPUs (dgx-a100-selene)")) << text.toStdString();
    EXPECT_TRUE(text.contains("32 of 32 GPUs used")) << text.toStdString();
    EXPECT_TRUE(text.contains("16 of 32 GPUs used")) << text.toStdString();
    EXPECT_TRUE(text.contains("Current leaves 16 of its 32 GPUs idle")) << text.toStdString();
    const QTableWidget& table = *window.comparePanel()->table();
    const int dies = rowNamed(table, "GPUs used"); // the cluster's word for them
    ASSERT_GE(dies, 0);
    EXPECT_EQ(table.item(dies, 1)->text(), "32");
    EXPECT_EQ(table.item(dies, 2)->text(), "16");
    EXPECT_EQ(rowNamed(table, "MFU") + 1, dies); // beside MFU
}

} // namespace
} // namespace ws
