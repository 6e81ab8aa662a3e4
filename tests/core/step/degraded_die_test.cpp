// Degraded dies and the balancer (docs/compute-model.md "Degraded dies"): a TATP
// group runs at the pace of its slowest member under even shares, and at the pace of its mean
// speed when each die's share follows its speed.
#include "evaluation/run_options.h"
#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "scenario/scenario_error.h"
#include "step/work_shares.h"

#include <gtest/gtest.h>

#include <string>

namespace ws {
namespace {

// A forward GEMM streamed over a line of 4 dies, die 1 at 50% of peak. The links are so fast
// that communication never delays a block: every die computes its 4 blocks back to back, so the
// step is the slowest die's compute.
Scenario slowDieGemm(const char* balance) {
    Scenario scenario;
    scenario.name = "slow die";
    scenario.wafer.rows = 1;
    scenario.wafer.cols = 4;
    scenario.wafer.linkBandwidth = {1e18, "1 EB/s"};
    scenario.wafer.linkLatency = {1e-12, "1 ps"};
    scenario.wafer.die.taskOverhead = {0.0, "0 s"};
    scenario.wafer.die.gemmTile = 1;
    scenario.wafer.slowDies = {{1, 0.5}};
    // m = 700 rows: the speeds 1, 0.5, 1, 1 deal them 200, 100, 200, 200 exactly.
    scenario.workload = parseWorkload({{"kind", "gemm"}, {"m", 700}, {"k", 4096}, {"n", 4096}}, {});
    scenario.strategy = parseStrategy({{"tatp", 4}, {"balance", balance}});
    return scenario;
}

constexpr double kPeak = 1000e12;                         // FLOP/s, the default die
constexpr double kDieFlops = 2.0 * 700 * 4096 * 4096 / 4; // an even share of the GEMM

TEST(DegradedDie, EvenSharesRunAtTheSlowestMembersPace) {
    const SimulationReport report = simulateScenarioReport(slowDieGemm("even"), RunOptions{});
    ASSERT_TRUE(report.step);
    const double expected = kDieFlops / (kPeak * 0.5);
    EXPECT_NEAR(report.step->stepS, expected, expected * 1e-9);
    // The slow die computes all the time; the others half of it.
    EXPECT_NEAR(report.dies[1].utilization, 1.0, 1e-6);
    for (int die : {0, 2, 3})
        EXPECT_NEAR(report.dies[static_cast<std::size_t>(die)].utilization, 0.5, 1e-6);
}

TEST(DegradedDie, SpeedSharesRunAtTheGroupsMeanSpeed) {
    const SimulationReport report = simulateScenarioReport(slowDieGemm("speed"), RunOptions{});
    ASSERT_TRUE(report.step);
    const double meanSpeed = (1.0 + 0.5 + 1.0 + 1.0) / 4; // 0.875
    const double expected = kDieFlops / (kPeak * meanSpeed);
    EXPECT_NEAR(report.step->stepS, expected, expected * 1e-9);
    for (const DieReport& die : report.dies)
        EXPECT_NEAR(die.utilization, 1.0, 1e-6);
    // 4/7 of the even share on the slow die, 8/7 on the others: the work is all done.
    auto flopsOf = [&](std::size_t die) {
        double flops = 0.0;
        for (const DieEvent& event : report.dies[die].events)
            flops += event.flops;
        return flops;
    };
    EXPECT_NEAR(flopsOf(1), kDieFlops * 4 / 7, 1.0);
    EXPECT_NEAR(flopsOf(0), kDieFlops * 8 / 7, 1.0);
}

// Metamorphic: speeding a slow die up never slows the step, under either balance.
TEST(DegradedDie, AFasterDieNeverSlowsTheStep) {
    for (const char* balance : {"even", "speed"}) {
        double previous = 1e30;
        for (double speed : {0.2, 0.4, 0.6, 0.8, 0.99}) {
            Scenario scenario = slowDieGemm(balance);
            scenario.wafer.slowDies = {{1, speed}};
            const double stepS = simulateScenarioReport(scenario, RunOptions{}).step->stepS;
            EXPECT_LE(stepS, previous * (1 + 1e-12)) << balance << " at " << speed;
            previous = stepS;
        }
    }
}

// Memory follows the shares: a fast die holding 8/7 of the even share keeps 8/7 of its tensors.
TEST(DegradedDie, MemoryFollowsTheShares) {
    Scenario even = slowDieGemm("even");
    Scenario speed = slowDieGemm("speed");
    const SimulationReport evenReport = simulateScenarioReport(even, RunOptions{});
    const SimulationReport speedReport = simulateScenarioReport(speed, RunOptions{});
    const MemoryBreakdown& before = *evenReport.dies[0].memory;
    const MemoryBreakdown& after = *speedReport.dies[0].memory;
    EXPECT_NEAR(after.weights, before.weights * 8 / 7, 1e-6);
    EXPECT_NEAR(after.activations, before.activations * 8 / 7, 1e-6);
    EXPECT_DOUBLE_EQ(after.commReserve, before.commReserve);
    EXPECT_NEAR(speedReport.dies[1].memory->weights, before.weights * 4 / 7, 1e-6);
}

TEST(WorkShares, LargestRemainderDealsWholeRows) {
    // docs/compute-model.md's worked example.
    const std::vector<double> shares = proportionalShares({1, 0.5, 1, 1}, 2048);
    ASSERT_EQ(shares.size(), 4U);
    EXPECT_DOUBLE_EQ(shares[0], 585.0 / 512);
    EXPECT_DOUBLE_EQ(shares[1], 293.0 / 512);
    EXPECT_DOUBLE_EQ(shares[2], 585.0 / 512);
    EXPECT_DOUBLE_EQ(shares[3], 585.0 / 512);
    // Equal speeds: even shares.
    for (double share : proportionalShares({0.5, 0.5, 0.5}, 9))
        EXPECT_DOUBLE_EQ(share, 1.0);
}

TEST(WorkShares, EvenBalanceOrNoSlowDieKeepsEveryShareEven) {
    Scenario scenario = slowDieGemm("even");
    const ScenarioRun run = prepareRun(scenario, RunOptions{});
    for (DieId die = 0; die < 4; ++die)
        EXPECT_DOUBLE_EQ(run.step->graph.workShare(die), 1.0);
    scenario = slowDieGemm("speed");
    scenario.wafer.slowDies.clear();
    const ScenarioRun sound = prepareRun(scenario, RunOptions{});
    for (DieId die = 0; die < 4; ++die)
        EXPECT_DOUBLE_EQ(sound.step->graph.workShare(die), 1.0);
}

std::string waferWithFaults(const std::string& faults) {
    return R"({"format": "waferscope.scenario", "version": 1, "name": "f",
               "wafer": {"rows": 2, "cols": 4, "faults": )" +
           faults + R"(}, "traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 3, "bytes": 1}]})";
}

std::string errorOf(const std::string& text) {
    try {
        parseScenario(std::string(text));
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return "";
}

TEST(SlowDiesKey, IsReadWrittenAndReadBack) {
    const Scenario scenario =
        parseScenario(waferWithFaults(R"({"dies": [7], "slow_dies": {"2": 0.5, "5": 0.25}})"));
    EXPECT_DOUBLE_EQ(scenario.wafer.dieSpeed(2), 0.5);
    EXPECT_DOUBLE_EQ(scenario.wafer.dieSpeed(5), 0.25);
    EXPECT_DOUBLE_EQ(scenario.wafer.dieSpeed(3), 1.0);
    EXPECT_EQ(parseScenario(toJson(scenario)), scenario);
}

TEST(SlowDiesKey, BadEntriesNameTheKeyAndTheProblem) {
    EXPECT_EQ(errorOf(waferWithFaults(R"({"slow_dies": {"9": 0.5}})")),
              "wafer.faults.slow_dies.9: die 9 is out of range (this wafer has dies 0 to 7)");
    EXPECT_EQ(errorOf(waferWithFaults(R"({"dies": [2], "slow_dies": {"2": 0.5}})")),
              "wafer.faults.slow_dies.2: die 2 is dead (wafer.faults.dies), so it cannot be slow");
    EXPECT_EQ(errorOf(waferWithFaults(R"({"slow_dies": {"1": 1.5}})")),
              "wafer.faults.slow_dies.1: must be the fraction of its peak the die reaches, above "
              "0 and below 1, got 1.5");
    EXPECT_NE(errorOf(waferWithFaults(R"({"slow_dies": {"one": 0.5}})"))
                  .find("wafer.faults.slow_dies.one: is not a die id"),
              std::string::npos);
    EXPECT_NE(errorOf(waferWithFaults(R"({"slow_dies": [1]})")).find("wafer.faults.slow_dies"),
              std::string::npos);
}

TEST(BalanceKey, UnknownValueIsRefusedByName) {
    try {
        parseStrategy({{"tatp", 2}, {"balance", "fast"}});
        FAIL() << "accepted balance \"fast\"";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(std::string(error.what()),
                  "strategy.balance: unknown balance 'fast'; expected \"even\" or \"speed\"");
    }
}

} // namespace
} // namespace ws
