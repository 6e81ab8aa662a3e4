#include "advisor_panel.h"
#include "builtin_scenarios.h"
#include "main_window.h"
#include "mesh_view.h"
#include "scenario_document.h"
#include "tcme_panel.h"
#include "timeline_view.h"
#include "walkthrough_host.h"
#include "walkthrough_panel.h"
#include "widget_test_support.h"

#include "io/scenario_io.h"
#include "units/quantity.h"

#include <QFile>
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
    // The teaching example's hottest link (1 -> 2, FSDP alone) is not this one: the text says
    // so rather than leave the status bar's "hottest link" contradicting it.
    const LinkReport hottest = analysis->report.hottestLinks(1).front();
    ASSERT_NE(hottest.id, link);
    EXPECT_TRUE(tour.currentText().contains(
        QString("The busiest link of all, %1 → %2").arg(hottest.from).arg(hottest.to)))
        << tour.currentText().toStdString();

    tour.showStep(3); // TCME runs to its own stop rule
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_GE(window.tcmePanel()->iterationCount(), 1);
    EXPECT_TRUE(tour.currentText().contains(
        QString("%1 iteration").arg(window.tcmePanel()->iterationCount())))
        << tour.currentText().toStdString();
    // Every kept change says which figure it improved (docs/gui.md "Walkthrough").
    EXPECT_TRUE(tour.currentText().contains("kept: ")) << tour.currentText().toStdString();

    tour.showStep(5); // applied as one undo command; the makespan fell
    EXPECT_EQ(window.document()->undoStack()->count(), 1);
    // The whole timeline after: step 2's link filter and flow highlight are gone (item 8).
    EXPECT_FALSE(window.meshView()->selectedLink().has_value());
    EXPECT_FALSE(window.timelineView()->linkFilter().has_value());
    EXPECT_TRUE(window.timelineView()->highlightedFlow().isEmpty());
    ASSERT_TRUE(window.waitForIdle());
    EXPECT_LT(window.meshView()->analysis()->report.makespanS, analysis->report.makespanS);
    EXPECT_TRUE(tour.currentText().contains(
        QString::fromStdString(formatSeconds(window.meshView()->analysis()->report.makespanS))));
}

// A host that records what the walkthrough asks of it: the panel needs nothing else.
class RecordingHost : public WalkthroughHost {
public:
    RecordingHost() : m_tcme(&m_document), m_advisor(&m_document) {}

    const Scenario& documentScenario() const override { return scenario; }
    void openTeachingExample() override { requests << QStringLiteral("open example"); }
    bool openExample(const Scenario& example, const QString& name) override {
        requests << QStringLiteral("open example ") + name;
        scenario = example;
        m_document.load(example, {}, name); // the document the advisor's fix edits
        return true;
    }
    std::shared_ptr<const ScenarioAnalysis> settledAnalysis() const override { return analysis; }
    void bringViewForward(const QString& name) override {
        requests << QStringLiteral("view ") + name;
    }
    void selectLink(std::optional<LinkId> link) override {
        requests << (link ? QStringLiteral("select link %1").arg(*link)
                          : QStringLiteral("select none"));
    }
    void colourLinksBy(LinkMetric metric) override {
        requests << (metric == LinkMetric::Bytes ? QStringLiteral("colour by bytes")
                                                 : QStringLiteral("colour by another metric"));
    }
    void highlightFlowOnTimeline(const QString& flowId) override {
        requests << QStringLiteral("highlight ") + flowId;
    }
    TcmePanel& tcme() override { return m_tcme; }
    AdvisorPanel& advisor() override { return m_advisor; }
    ScenarioDocument& document() { return m_document; }

    Scenario scenario;
    std::shared_ptr<const ScenarioAnalysis> analysis;
    QStringList requests;

private:
    ScenarioDocument m_document;
    TcmePanel m_tcme;
    AdvisorPanel m_advisor;
};

Scenario teachingExample() {
    QFile file(defaultScenarioResource());
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    return parseScenario(file.readAll().toStdString());
}

TEST(WalkthroughPanel, AsksItsHostOnlyForTheGesturesOfEachStep) {
    RecordingHost host;
    host.scenario = teachingExample();
    WalkthroughPanel tour(host);

    tour.start(); // no analysis yet: it says so, and makes no gesture
    EXPECT_TRUE(host.requests.isEmpty()) << host.requests.join(", ").toStdString();
    EXPECT_TRUE(tour.currentText().contains("Simulating"));

    host.analysis = analyseScenario(host.scenario);
    tour.refresh(); // the analysis arrived: step 0 takes its action once
    EXPECT_EQ(host.requests, (QStringList{"select none", "colour by bytes", "view mesh"}));
    tour.refresh();
    EXPECT_EQ(host.requests.size(), 3);

    host.requests.clear();
    tour.showStep(1);
    ASSERT_EQ(host.requests.size(), 1);
    EXPECT_TRUE(host.requests[0].startsWith("select link ")) << host.requests[0].toStdString();

    host.requests.clear();
    tour.showStep(2);
    ASSERT_EQ(host.requests.size(), 2);
    EXPECT_EQ(host.requests[0], "view timeline");
    EXPECT_TRUE(host.requests[1].startsWith("highlight ")) << host.requests[1].toStdString();
}

// The last step, after the six of the contention example: it opens its slow-die line, has the
// Advisor select load_imbalance with the simulator's numbers, and once the user applied the fix
// says what it did.
TEST(WalkthroughPanel, TheLastStepOpensASlowDieAndPointsTheAdvisorAtIt) {
    RecordingHost host;
    host.scenario = teachingExample();
    host.analysis = analyseScenario(host.scenario);
    WalkthroughPanel tour(host);
    ASSERT_EQ(tour.stepCount(), 7);
    tour.showStep(6);
    EXPECT_TRUE(host.requests.contains("view advisor")) << host.requests.join(", ").toStdString();
    ASSERT_TRUE(host.requests.contains("open example slow_die_line_1x4.json"));
    ASSERT_FALSE(host.scenario.wafer.slowDies.empty());

    // The example's simulation and the advisor's answer arrive.
    host.analysis = analyseScenario(host.scenario);
    host.advisor().setAnalysis(host.analysis);
    tour.refresh();
    EXPECT_TRUE(tour.currentText().contains("diagnosing")) << tour.currentText().toStdString();
    ASSERT_TRUE(host.advisor().waitForIdle());
    tour.refresh();
    ASSERT_NE(host.advisor().selectedFinding(), nullptr);
    EXPECT_EQ(host.advisor().selectedFinding()->id, "load_imbalance");
    const QString before =
        QString::fromStdString(formatSeconds(host.analysis->report.step.value().stepS));
    EXPECT_TRUE(tour.currentText().contains("die 1 is slow")) << tour.currentText().toStdString();
    EXPECT_TRUE(tour.currentText().contains(before));
    EXPECT_TRUE(tour.currentText().contains("Apply fix: load_imbalance"));

    // The user applies the fix; once simulated, the step gives both step times.
    host.advisor().applyFix();
    ASSERT_EQ(host.document().undoStack()->count(), 1);
    host.scenario = host.document().scenario();
    host.analysis = analyseScenario(host.scenario);
    tour.refresh();
    const QString text = tour.currentText();
    EXPECT_TRUE(text.contains("Balanced by speed")) << text.toStdString();
    EXPECT_TRUE(text.contains("85% of peak")) << text.toStdString(); // (1 + 0.4 + 1 + 1) / 4
    EXPECT_TRUE(text.contains(before));
    EXPECT_TRUE(text.contains(
        QString::fromStdString(formatSeconds(host.analysis->report.step.value().stepS))));
}

TEST(WalkthroughPanel, OpensTheTeachingExampleOnlyWhenTheDocumentIsAnotherScenario) {
    RecordingHost host;
    host.scenario = teachingExample();
    WalkthroughPanel tour(host);
    tour.start();
    EXPECT_FALSE(host.requests.contains("open example"));
    host.scenario.wafer.cols += 1; // same name, different content
    tour.start();
    EXPECT_TRUE(host.requests.contains("open example"));
}

} // namespace
} // namespace ws
