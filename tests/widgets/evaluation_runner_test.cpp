#include "evaluation_runner.h"
#include "long_simulation.h"
#include "widget_test_support.h"

#include "evaluation/scenario_run.h"
#include "report/report_formats.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <memory>

namespace ws {
namespace {

TEST(EvaluationRunner, OnlyTheNewestRequestIsAnswered) {
    EvaluationRunner runner;
    QSignalSpy ready(&runner, &EvaluationRunner::analysisReady);
    Scenario first = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    Scenario second = first;
    second.name = "second";
    runner.evaluate(first);
    runner.evaluate(second);
    ASSERT_TRUE(runner.waitForIdle());
    // Answers come from the event loop, so the first request is already stale when its
    // result arrives: only the newest is answered.
    ASSERT_EQ(ready.count(), 1);
    EXPECT_EQ(runner.latest()->scenario.name, "second");
}

TEST(EvaluationRunner, CancelDropsTheResultInFlight) {
    EvaluationRunner runner;
    QSignalSpy ready(&runner, &EvaluationRunner::analysisReady);
    QSignalSpy cancelled(&runner, &EvaluationRunner::evaluationCancelled);
    runner.evaluate(test::exampleScenario("contention_fsdp_tatp_4x4.json"));
    runner.cancel();
    ASSERT_TRUE(runner.waitForIdle());
    EXPECT_EQ(cancelled.count(), 1);
    EXPECT_EQ(ready.count(), 0);
    EXPECT_EQ(runner.latest(), nullptr);
}

TEST(EvaluationRunner, BadInputIsReportedNotThrown) {
    EvaluationRunner runner;
    QSignalSpy failed(&runner, &EvaluationRunner::analysisFailed);
    Scenario scenario = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    scenario.routing = RoutingSpec{};
    scenario.routing->paths["tatp01"] = PinnedRoute{{0, 5, 1}, {}}; // 0-5 are not neighbours
    runner.evaluate(scenario);
    ASSERT_TRUE(runner.waitForIdle());
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.at(0).at(0).toString().contains("tatp01"))
        << failed.at(0).at(0).toString().toStdString();
}

// A runner (or the window owning it) destroyed while its job runs cancels the job, and the
// worker's answer reaches no one. With Qt 6.4's .then(context, ...) the answer asserted on the
// dead context and a debug build aborted when a window was closed mid-simulation.
TEST(EvaluationRunner, DestroyedWhileItSimulatesItAnswersNoOne) {
    auto runner = std::make_unique<EvaluationRunner>();
    bool answered = false;
    QObject::connect(runner.get(), &EvaluationRunner::analysisReady, [&] { answered = true; });
    runner->evaluate(test::ringAllReduce16x16());
    QTest::qWait(50); // the job is running
    runner.reset();
    ASSERT_TRUE(QThreadPool::globalInstance()->waitForDone(120000));
    QCoreApplication::processEvents(); // an answer posted before the end would run here
    EXPECT_FALSE(answered);
}

// test::ringAllReduce16x16 takes seconds to simulate here. Cancel stops the job itself (core's
// cancel predicate), not only its answer: cancelled a third of the way into a run, the runner
// is idle again well before that run would have ended (times relative to an uncancelled run
// on the same machine, so load slows both alike).
TEST(EvaluationRunner, CancelStopsTheRunningSimulation) {
    const Scenario scenario = test::ringAllReduce16x16();
    EvaluationRunner runner;
    QSignalSpy failed(&runner, &EvaluationRunner::analysisFailed);
    QElapsedTimer timer;
    timer.start();
    runner.evaluate(scenario);
    ASSERT_TRUE(runner.waitForIdle(120000));
    const qint64 wholeRunMs = timer.elapsed();

    runner.evaluate(scenario);
    QTest::qWait(static_cast<int>(wholeRunMs / 3));
    ASSERT_TRUE(runner.isBusy());
    timer.restart();
    runner.cancel();
    ASSERT_TRUE(runner.waitForIdle(120000));
    EXPECT_LT(timer.elapsed(), wholeRunMs / 2) << "a whole run took " << wholeRunMs << " ms";
    EXPECT_EQ(failed.count(), 0); // a cancel is not a failure
}

// The app simulates through the CLI's pipeline, environment overrides included, so the two
// agree (tests/core/evaluation checks the CLI against the same pipeline).
TEST(ScenarioAnalysis, HonoursFsdpAllGatherLikeTheCli) {
    const Scenario scenario = test::exampleScenario("gpt3_125m_dojo_tile_5x5.json"); // dp 5, FSDP
    qputenv("FSDP_ALLGATHER", "multicast");
    const auto analysis = analyseScenario(scenario);
    const SimulationReport pipeline = simulateScenarioReport(scenario, frontEndRunOptions());
    qunsetenv("FSDP_ALLGATHER");
    int multicast = 0;
    for (const FlowReport& flow : analysis->report.flows)
        multicast += flow.dsts.size() > 1 ? 1 : 0;
    EXPECT_GT(multicast, 0);
    ASSERT_EQ(analysis->report.warnings.size(), 1u);
    EXPECT_NE(analysis->report.warnings[0].find("FSDP_ALLGATHER=multicast"), std::string::npos);
    EXPECT_EQ(reportToJson(analysis->report), reportToJson(pipeline));
    EXPECT_EQ(analysis->scenario, scenario); // the document's scenario is not overridden
}

} // namespace
} // namespace ws
