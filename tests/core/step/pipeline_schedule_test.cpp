// The 1F1B schedule (step/pipeline_schedule.h) against its closed forms: with p equal stages
// of forward F and backward B per micro-batch and m micro-batches, the schedule takes
// (m + p - 1)(F + B) + (p - 1)(forward send + backward send), and without communication a stage
// is idle (p - 1) / (m + p - 1) of it (Narayanan et al., SC'21, section 2.2).
#include "step/pipeline_schedule.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ws {
namespace {

PipelineTimes equalStages(int stages, int microBatches, double forwardS, double backwardS,
                          double forwardSendS = 0.0, double backwardSendS = 0.0) {
    PipelineTimes times;
    times.stages = stages;
    times.microBatches = microBatches;
    times.forwardS.assign(static_cast<std::size_t>(stages),
                          std::vector<double>(static_cast<std::size_t>(microBatches), forwardS));
    times.backwardS.assign(static_cast<std::size_t>(stages),
                           std::vector<double>(static_cast<std::size_t>(microBatches), backwardS));
    times.forwardSendS = forwardSendS;
    times.backwardSendS = backwardSendS;
    return times;
}

TEST(PipelineSchedule, BalancedStagesWithFreeCommunicationIdleForTheClosedFormBubble) {
    for (int p : {1, 2, 4, 8})
        for (int m : {1, 3, 8, 32}) {
            const PipelineSchedule schedule = schedule1F1B(equalStages(p, m, 1.0, 2.0));
            EXPECT_DOUBLE_EQ(schedule.makespanS, (m + p - 1) * 3.0) << p << " stages, " << m;
            EXPECT_NEAR(schedule.bubbleFraction, (p - 1.0) / (m + p - 1.0), 1e-12)
                << p << " stages, " << m << " micro-batches";
            EXPECT_EQ(schedule.passes.size(), static_cast<std::size_t>(2 * p * m));
        }
}

TEST(PipelineSchedule, SendsLengthenItByAtLeastOneRoundTripPerBoundary) {
    // Worked by hand for p = 2, m = 2, F = 1, B = 2, sends 0.5: stage 0 runs F0 [0, 1],
    // F1 [1, 2], B0 [5, 7], B1 [8, 10]; stage 1 runs F0 [1.5, 2.5], B0 [2.5, 4.5], F1 [4.5, 5.5],
    // B1 [5.5, 7.5]. Makespan 10 = (2 + 2 - 1) * 3 + (2 - 1) * (0.5 + 0.5).
    const PipelineSchedule two = schedule1F1B(equalStages(2, 2, 1.0, 2.0, 0.5, 0.5));
    EXPECT_DOUBLE_EQ(two.makespanS, 10.0);
    EXPECT_DOUBLE_EQ(two.bubbleFraction, 0.4); // each stage busy 6 of 10
    // One micro-batch goes down the stages and back: p (F + B) + (p - 1)(both sends).
    for (int p : {2, 4, 6}) {
        const PipelineSchedule one = schedule1F1B(equalStages(p, 1, 1.0, 2.0, 0.25, 0.5));
        EXPECT_DOUBLE_EQ(one.makespanS, p * 3.0 + (p - 1) * 0.75) << p << " stages";
    }
    // With more, a stage in its steady state also waits for its round trips, so that fill
    // and drain bound is only a lower bound.
    for (int p : {2, 4, 6})
        for (int m : {4, 16}) {
            const PipelineSchedule schedule = schedule1F1B(equalStages(p, m, 1.0, 2.0, 0.25, 0.5));
            EXPECT_GE(schedule.makespanS, (m + p - 1) * 3.0 + (p - 1) * 0.75)
                << p << " stages, " << m << " micro-batches";
        }
}

TEST(PipelineSchedule, WarmUpRunsStagesMinusOneForwardsOnTheFirstStage) {
    const PipelineSchedule schedule = schedule1F1B(equalStages(4, 8, 1.0, 2.0));
    std::vector<bool> firstStage; // true for a forward, in the order stage 0 runs them
    for (const PipelinePass& pass : schedule.passes)
        if (pass.stage == 0)
            firstStage.push_back(pass.forward);
    ASSERT_EQ(firstStage.size(), 16u);
    // 3 forwards of warm-up, then one forward and one backward in turn, then 3 backwards.
    const std::vector<bool> expected = {true,  true, true,  true, false, true,  false, true,
                                        false, true, false, true, false, false, false, false};
    EXPECT_EQ(firstStage, expected);
}

TEST(PipelineSchedule, AStageRunsOnePassAtATimeAndNeverBeforeItsInput) {
    PipelineTimes times = equalStages(3, 5, 1.0, 2.0, 0.1, 0.2);
    times.backwardS[2].assign(5, 3.5); // an unbalanced last stage (the LM head)
    const PipelineSchedule schedule = schedule1F1B(times);
    std::vector<double> free(3, 0.0);
    for (const PipelinePass& pass : schedule.passes) {
        EXPECT_GE(pass.startS, free[static_cast<std::size_t>(pass.stage)] - 1e-12);
        free[static_cast<std::size_t>(pass.stage)] = pass.endS;
        for (const PipelinePass& input : schedule.passes) {
            const bool feeds = input.microBatch == pass.microBatch &&
                               ((pass.forward && input.forward && input.stage + 1 == pass.stage) ||
                                (!pass.forward && !input.forward && input.stage == pass.stage + 1));
            if (feeds) {
                EXPECT_GE(pass.startS, input.endS + (pass.forward ? 0.1 : 0.2) - 1e-12);
            }
        }
    }
}

// Metamorphic: a faster stage, or faster sends, never lengthen the schedule.
TEST(PipelineSchedule, FasterPassesOrSendsNeverLengthenIt) {
    const PipelineTimes base = equalStages(4, 6, 1.0, 2.0, 0.3, 0.3);
    const double baseS = schedule1F1B(base).makespanS;
    PipelineTimes fasterStage = base;
    fasterStage.backwardS[1].assign(6, 1.5);
    EXPECT_LE(schedule1F1B(fasterStage).makespanS, baseS);
    PipelineTimes fasterSends = base;
    fasterSends.forwardSendS = 0.1;
    EXPECT_LE(schedule1F1B(fasterSends).makespanS, baseS);
}

TEST(PipelineSchedule, RefusesTimesOfTheWrongShape) {
    PipelineTimes times = equalStages(2, 3, 1.0, 1.0);
    times.forwardS[1].pop_back();
    EXPECT_THROW(schedule1F1B(times), std::invalid_argument);
}

} // namespace
} // namespace ws
