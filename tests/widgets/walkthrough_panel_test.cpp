#include "main_window.h"
#include "mesh_view.h"
#include "scenario_document.h"
#include "tcme_panel.h"
#include "walkthrough_panel.h"
#include "widget_test_support.h"

#include "units/quantity.h"

#include <QUndoStack>

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(WalkthroughPanel, PointsAtTheConflictWithTheSimulatorsNumbers) {
    MainWindow window;
    window.show();
    WalkthroughPanel& tour = *window.walkthrough();
    tour.start();
    ASSERT_TRUE(window.waitForIdle()); // the tour never waits itself: its text follows
    EXPECT_EQ(tour.currentStep(), 0);
    const auto analysis = window.meshView()->analysis();
    ASSERT_TRUE(analysis);
    // Step 0 quotes the simulated makespan, not a number from the paper.
    EXPECT_TRUE(tour.currentText().contains(
        QString::fromStdString(formatSeconds(analysis->report.makespanS))));

    // The groups are read off the scenario on screen, not written into the text.
    for (const auto& group : analysis->groups.dp)
        for (DieId die : group)
            EXPECT_TRUE(tour.currentText().contains(QString::number(die)));

    tour.showStep(1); // the link shared by a TATP transfer and an FSDP all-gather is selected
    ASSERT_TRUE(window.meshView()->selectedLink().has_value());
    const LinkId link = *window.meshView()->selectedLink();
    bool tatp = false, fsdp = false;
    for (int flow : analysis->flowsOnLink[static_cast<std::size_t>(link)]) {
        const std::string& kind = analysis->report.flows[static_cast<std::size_t>(flow)].opKind;
        tatp = tatp || kind == "p2p";
        fsdp = fsdp || kind == "allgather";
    }
    EXPECT_TRUE(tatp && fsdp);

    tour.showStep(3); // TCME runs to its own stop rule
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_GE(window.tcmePanel()->iterationCount(), 1);
    EXPECT_TRUE(tour.currentText().contains(
        QString("%1 iteration").arg(window.tcmePanel()->iterationCount())))
        << tour.currentText().toStdString();

    tour.showStep(5); // applied as one undo command; the makespan fell
    EXPECT_EQ(window.document()->undoStack()->count(), 1);
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_LT(window.meshView()->analysis()->report.makespanS, analysis->report.makespanS);
    EXPECT_TRUE(tour.currentText().contains(
        QString::fromStdString(formatSeconds(window.meshView()->analysis()->report.makespanS))));
}

} // namespace
} // namespace ws
