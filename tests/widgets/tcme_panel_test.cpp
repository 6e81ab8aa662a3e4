#include "mesh_view.h"
#include "scenario_document.h"
#include "tcme_panel.h"
#include "widget_test_support.h"

#include <QSignalSpy>
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

    panel.step();
    ASSERT_TRUE(panel.waitForIdle());
    EXPECT_EQ(panel.iterationCount(), 1);
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

// Before and After are coloured on one scale (issue 20 item 6: each was scaled to its own
// maximum, 128 MB against 96 MB, so one colour meant two loads): each state carries the other,
// and the mesh's scale spans both (MeshView.ComparedLoadsShareOneScale).
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
