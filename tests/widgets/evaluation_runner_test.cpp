#include "evaluation_runner.h"
#include "widget_test_support.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(EvaluationRunner, OnlyTheNewestRequestIsAnswered) {
    EvaluationRunner runner;
    QSignalSpy ready(&runner, &EvaluationRunner::analysisReady);
    Scenario first = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    Scenario second = first;
    second.name = "second";
    runner.evaluate(first, {});
    runner.evaluate(second, {});
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
    runner.evaluate(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
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
    runner.evaluate(scenario, {});
    ASSERT_TRUE(runner.waitForIdle());
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.at(0).at(0).toString().contains("tatp01"))
        << failed.at(0).at(0).toString().toStdString();
}

} // namespace
} // namespace ws
