#include "mesh_view.h"
#include "scenario_document.h"
#include "tcme_panel.h"
#include "widget_test_support.h"

#include <QAction>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <qcustomplot.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace ws {
namespace {

TEST(TcmePanel, StepAdvancesTheIterationAndTheChart) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    TcmePanel panel(&document);
    QSignalSpy overlays(&panel, &TcmePanel::overlayChanged);
    EXPECT_EQ(panel.iterationCount(), 0);
    EXPECT_EQ(panel.chart()->graph(0)->dataCount(), 0);
    EXPECT_TRUE(panel.chart()->isHidden()) << "no iteration, nothing to chart";

    panel.step();
    ASSERT_TRUE(panel.waitForIdle());
    EXPECT_EQ(panel.iterationCount(), 1);
    EXPECT_FALSE(panel.chart()->isHidden());
    EXPECT_EQ(panel.chart()->graph(0)->dataCount(), 2); // the start, then iteration 0
    EXPECT_EQ(panel.chart()->graph(1)->dataCount(), 2);
    ASSERT_GE(overlays.count(), 1);
    const auto overlay = overlays.last().at(0).value<std::optional<MeshView::TcmeOverlay>>();
    ASSERT_TRUE(overlay.has_value());
    EXPECT_GE(overlay->hotLink, 0);

    panel.step();
    ASSERT_TRUE(panel.waitForIdle());
    EXPECT_EQ(panel.iterationCount(), 2);
    EXPECT_EQ(panel.chart()->graph(1)->dataCount(), 3);
    // The makespan on the chart never rises (TCME keeps only improvements).
    const auto* makespans = panel.chart()->graph(1)->data().data();
    EXPECT_LE(makespans->at(2)->value, makespans->at(0)->value);
}

// Before and After are coloured on one scale (each was once scaled to its own maximum, 128 MB
// against 96 MB, so one colour meant two loads): each state carries the other, and the mesh's scale
// spans both (MeshView.ComparedLoadsShareOneScale).
TEST(TcmePanel, BeforeAndAfterShareOneColourScale) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    TcmePanel panel(&document);
    QSignalSpy overlays(&panel, &TcmePanel::overlayChanged);
    ASSERT_EQ(panel.stepBlocking(1), 1);
    using Loads = std::optional<MeshView::LinkLoadOverride>;
    panel.showAfter(false);
    const Loads before = overlays.last().at(1).value<Loads>();
    panel.showAfter(true);
    const Loads after = overlays.last().at(1).value<Loads>();
    ASSERT_TRUE(before && after);
    EXPECT_EQ(before->comparedBytes, after->bytes);
    EXPECT_EQ(after->comparedBytes, before->bytes);
    const double beforeMax = *std::max_element(before->bytes.begin(), before->bytes.end());
    const double afterMax = *std::max_element(after->bytes.begin(), after->bytes.end());
    const double shared = std::max(beforeMax, afterMax);

    MeshView mesh;
    mesh.setAnalysis(test::teachingAnalysis());
    for (const Loads& loads : {before, after}) {
        mesh.setLinkLoadOverride(loads);
        for (std::size_t link = 0; link < loads->bytes.size(); ++link)
            EXPECT_DOUBLE_EQ(mesh.linkFraction(static_cast<LinkId>(link)),
                             loads->bytes[link] / shared)
                << "link " << link;
    }
}

// Before is the scenario as opened whichever iteration is selected (it once was "before the
// selected iteration", which after two iterations is not the original).
TEST(TcmePanel, BeforeIsTheScenarioAsOpened) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    TcmePanel panel(&document);
    QSignalSpy overlays(&panel, &TcmePanel::overlayChanged);
    ASSERT_EQ(panel.stepBlocking(2), 2);
    const std::vector<TcmeIteration> iterations = panel.iterations();
    ASSERT_FALSE(iterations[0].actions.empty());
    ASSERT_NE(iterations[1].linkBytesBefore, iterations[0].linkBytesBefore);
    using Loads = std::optional<MeshView::LinkLoadOverride>;
    panel.showAfter(false); // the last iteration stays selected
    const Loads before = overlays.last().at(1).value<Loads>();
    ASSERT_TRUE(before);
    EXPECT_EQ(before->bytes, iterations[0].linkBytesBefore);
    EXPECT_DOUBLE_EQ(before->makespanS, iterations[0].before.makespanS);
    EXPECT_EQ(before->comparedBytes, iterations[1].linkBytesAfter);
    EXPECT_EQ(before->caption, "TCME: before, as opened");
}

// The Optimize menu's items are the panel's actions, enabled exactly as its buttons (Apply
// was once offered in the menu while the panel's Apply was greyed out).
TEST(TcmePanel, ItsActionsAreEnabledExactlyAsItsButtons) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    TcmePanel panel(&document);
    EXPECT_TRUE(panel.stepAction()->isEnabled());
    EXPECT_FALSE(panel.applyAction()->isEnabled()); // nothing to apply yet
    EXPECT_FALSE(panel.resetAction()->isEnabled());
    panel.run();
    EXPECT_FALSE(panel.stepAction()->isEnabled()); // an iteration runs: only Stop
    EXPECT_TRUE(panel.runAction()->isEnabled());
    EXPECT_EQ(panel.runAction()->text(), "&Stop TCME");
    ASSERT_TRUE(panel.waitForIdle());
    ASSERT_TRUE(panel.isFinished());
    EXPECT_FALSE(panel.stepAction()->isEnabled()); // a stop rule fired
    EXPECT_FALSE(panel.runAction()->isEnabled());
    EXPECT_EQ(panel.runAction()->text(), "TCME &run");
    EXPECT_TRUE(panel.applyAction()->isEnabled());
    EXPECT_TRUE(panel.resetAction()->isEnabled());
    panel.apply(); // the document is the tuned scenario now: the engine starts over
    EXPECT_FALSE(panel.applyAction()->isEnabled());
    EXPECT_TRUE(panel.stepAction()->isEnabled());
}

// A re-shaped tree is drawn when its line is clicked: its old and new links as one-hop
// segments, 63 each for a spanning tree of the 8x8 yardstick; the iteration's own line draws
// none (an iteration re-shapes dozens of trees).
TEST(TcmePanel, ClickingARetreeLineDrawsThatTreeBeforeAndAfter) {
    ScenarioDocument document;
    document.load(test::exampleScenario("allgather_yardstick_8x8.json"), {});
    TcmePanel panel(&document);
    panel.resize(700, 500);
    panel.show();
    QSignalSpy overlays(&panel, &TcmePanel::overlayChanged);
    // Ring -> multicast, then the all-gather split in two and its halves' trees re-shaped.
    ASSERT_EQ(panel.stepBlocking(2), 2);
    auto* list = panel.findChild<QTreeWidget*>();
    ASSERT_NE(list, nullptr);
    QTreeWidgetItem* retreeIteration = list->topLevelItem(1);
    ASSERT_NE(retreeIteration, nullptr);
    EXPECT_TRUE(retreeIteration->child(0)->text(0).startsWith("split ag:"))
        << retreeIteration->child(0)->text(0).toStdString();
    // The iteration opens on its first tree, the one drawn.
    QTreeWidgetItem* retree = retreeIteration->child(1);
    EXPECT_EQ(list->currentItem(), retree);
    ASSERT_TRUE(retree->text(0).startsWith("retree ag/s0/r")) << retree->text(0).toStdString();
    list->scrollToItem(retree);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(retree).center());
    EXPECT_EQ(list->currentItem(), retree);
    using Overlay = std::optional<MeshView::TcmeOverlay>;
    const Overlay tree = overlays.last().at(0).value<Overlay>();
    ASSERT_TRUE(tree.has_value());
    EXPECT_EQ(tree->oldPaths.size(), 63u);
    EXPECT_EQ(tree->newPaths.size(), 63u);
    for (const auto& segment : tree->newPaths)
        EXPECT_EQ(segment.size(), 2u);
    EXPECT_NE(tree->oldPaths, tree->newPaths);

    list->scrollToItem(retreeIteration);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                      list->visualItemRect(retreeIteration).center());
    const Overlay iteration = overlays.last().at(0).value<Overlay>();
    ASSERT_TRUE(iteration.has_value());
    EXPECT_TRUE(iteration->newPaths.empty());
}

// Each iteration says why its change was kept, by the objective's order (docs/gui.md "TCME").
TEST(TcmePanel, SaysWhyEachChangeWasKept) {
    TcmeIteration iteration;
    EXPECT_EQ(TcmePanel::keptBecause(iteration), "no change improves the objective");
    iteration.actions.push_back({});
    iteration.gain = TcmeGain::Makespan;
    EXPECT_EQ(TcmePanel::keptBecause(iteration), "kept: the makespan fell");
    iteration.gain = TcmeGain::Spread;
    iteration.linkBytesBefore = {2, 2, 1};
    iteration.linkBytesAfter = {2, 1, 1, 1}; // squares 9 -> 7: 22.2% lower
    EXPECT_TRUE(TcmePanel::keptBecause(iteration).contains("22.2% lower"))
        << TcmePanel::keptBecause(iteration).toStdString();
}

TEST(TcmePanel, ApplyIsOneUndoCommandAndUndoRestoresTheScenario) {
    ScenarioDocument document;
    const Scenario original = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    document.load(original, {});
    TcmePanel panel(&document);
    EXPECT_EQ(panel.stepBlocking(3), 3);
    panel.apply();
    EXPECT_EQ(document.undoStack()->count(), 1);
    EXPECT_TRUE(document.undoStack()->undoText().startsWith("Apply TCME (3 iterations)"))
        << document.undoStack()->undoText().toStdString();
    ASSERT_TRUE(document.scenario().routing.has_value());
    EXPECT_FALSE(document.scenario().routing->paths.empty()); // the tuned routes, pinned
    EXPECT_EQ(panel.iterationCount(), 0);                     // starts over from the tuned scenario
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
}

TEST(TcmePanel, RunStopsWithAReason) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    TcmePanel panel(&document);
    panel.run();
    ASSERT_TRUE(panel.waitForIdle());
    EXPECT_TRUE(panel.isFinished());
    EXPECT_GE(panel.iterationCount(), 1);
}

// Stop during Run is a cancel: the status says so (not a stop rule), and Run goes on.
TEST(TcmePanel, StopDuringRunReportsItWasCancelled) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    TcmePanel panel(&document);
    panel.run();
    panel.run(); // Stop, while the first iteration runs
    ASSERT_TRUE(panel.waitForIdle());
    EXPECT_FALSE(panel.isFinished());
    EXPECT_EQ(panel.iterationCount(), 1);
    EXPECT_TRUE(panel.statusText().contains("cancelled")) << panel.statusText().toStdString();
    panel.run();
    ASSERT_TRUE(panel.waitForIdle());
    EXPECT_TRUE(panel.isFinished());
    EXPECT_FALSE(panel.statusText().contains("cancelled")) << panel.statusText().toStdString();
}

TEST(TcmePanel, AnEditOfTheDocumentResetsTheEngine) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    TcmePanel panel(&document);
    panel.stepBlocking(1);
    ASSERT_EQ(panel.iterationCount(), 1);
    Scenario edited = document.scenario();
    edited.name = "edited";
    document.edit("Rename", edited);
    EXPECT_EQ(panel.iterationCount(), 0);
}

} // namespace
} // namespace ws
