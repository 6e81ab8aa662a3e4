#include "sweep/fault_sample.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"
#include "sweep/sweep_table.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "scenario/scenario_error.h"
#include "topology/wafer_topology.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ws {
namespace {

Scenario scenarioOf(const std::string& text) {
    return parseScenario(nlohmann::json::parse(text));
}

// A GEMM step: each point simulates in milliseconds.
std::string gemmScenario(int rows, int cols, const std::string& strategy) {
    return R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": )" +
           std::to_string(rows) + R"(, "cols": )" + std::to_string(cols) + R"(},
        "workload": {"kind": "gemm", "m": 2048, "k": 2048, "n": 2048},
        "strategy": )" +
           strategy + "}";
}

// The directed links of `wafer` that are alive, as (from, to).
std::vector<std::pair<DieId, DieId>> liveLinks(const WaferSpec& wafer) {
    std::vector<std::pair<DieId, DieId>> links;
    const WaferTopology topology(wafer.topologySpec()); // outlives the loop over its links
    for (const LinkProperties& link : topology.links())
        if (link.alive)
            links.emplace_back(link.from, link.to);
    return links;
}

std::vector<std::pair<DieId, DieId>> directed(const std::vector<LinkRef>& links) {
    std::vector<std::pair<DieId, DieId>> pairs;
    for (const LinkRef& link : links) {
        EXPECT_FALSE(link.bothDirections);
        pairs.emplace_back(link.from, link.to);
    }
    return pairs;
}

// The seed mix is pinned: a sweep resumed, or run by another build, draws the same faults.
// (splitmix64's finaliser of 0 is its well-known first output, 0xE220A8397B1DCDAF.)
TEST(FaultSample, TheSeedMixIsSplitmix64OverSeedSampleAndPoint) {
    EXPECT_EQ(faultSeed(1, 0, 0), 12'793'040'940'332'582'595ULL);
    EXPECT_EQ(faultSeed(42, 2, 7), 17'248'265'454'860'647'535ULL);
    EXPECT_NE(faultSeed(1, 1, 0), faultSeed(1, 0, 1));
}

// Golden draws on a 4x4 mesh (seed 1, sample 0, point 0): the engine's raw outputs through a
// partial Fisher-Yates shuffle, the same with every standard library.
TEST(FaultSample, TheDrawIsTheSameWithEveryCompiler) {
    const Scenario base = scenarioOf(gemmScenario(4, 4, R"({"tatp": 2})"));
    const FaultedScenario dies = sampleFaults(base, 0.25, 0.0, 1, 0, 0);
    EXPECT_EQ(dies.scenario.wafer.deadDies, (std::vector<DieId>{3, 5, 7, 9}));
    // 4x4 has 48 directed links: 0.125 of them is 6.
    const FaultedScenario links = sampleFaults(base, 0.0, 0.125, 1, 0, 0);
    EXPECT_EQ(directed(links.scenario.wafer.deadLinks),
              (std::vector<std::pair<DieId, DieId>>{
                  {3, 7}, {6, 5}, {6, 10}, {7, 11}, {9, 10}, {11, 10}}));
}

// A rate is that fraction of what can fail, exactly: 0.25 of 48 dies is 12; 0.1 of the
// directed links left between live dies is llround(0.1 * K).
TEST(FaultSample, ARateKillsThatFractionExactly) {
    const Scenario base = scenarioOf(gemmScenario(6, 8, R"({"tatp": 2})"));
    ASSERT_EQ(liveLinks(base.wafer).size(), 164u); // 6 x 7 x 2 across, 5 x 8 x 2 down

    const FaultedScenario dies = sampleFaults(base, 0.25, 0.0, 1, 0, 0);
    EXPECT_EQ(dies.diesKilled, 12);
    EXPECT_EQ(dies.linksKilled, 0);
    const std::vector<DieId>& dead = dies.scenario.wafer.deadDies;
    EXPECT_EQ(dead.size(), 12u);
    EXPECT_EQ(std::set<DieId>(dead.begin(), dead.end()).size(), 12u);
    EXPECT_TRUE(std::is_sorted(dead.begin(), dead.end()));
    EXPECT_TRUE(dies.scenario.wafer.deadLinks.empty());

    const FaultedScenario links = sampleFaults(base, 0.0, 0.1, 1, 0, 0);
    EXPECT_EQ(links.diesKilled, 0);
    EXPECT_EQ(links.linksKilled, 16); // llround(16.4)
    EXPECT_EQ(liveLinks(links.scenario.wafer).size(), 164u - 16u);

    const FaultedScenario both = sampleFaults(base, 0.25, 0.1, 1, 0, 0);
    EXPECT_EQ(both.diesKilled, 12);
    WaferSpec diesOnly = both.scenario.wafer;
    diesOnly.deadLinks.clear();
    // The drawn dies come first; dies the dead links then cut off follow them.
    diesOnly.deadDies.resize(static_cast<std::size_t>(both.diesKilled));
    const std::vector<std::pair<DieId, DieId>> candidates = liveLinks(diesOnly);
    EXPECT_EQ(both.linksKilled,
              static_cast<int>(std::llround(0.1 * static_cast<double>(candidates.size()))));
    const std::set<std::pair<DieId, DieId>> live(candidates.begin(), candidates.end());
    const std::vector<std::pair<DieId, DieId>> killed = directed(both.scenario.wafer.deadLinks);
    const std::set<std::pair<DieId, DieId>> distinct(killed.begin(), killed.end());
    EXPECT_EQ(distinct.size(), killed.size());
    for (const auto& link : killed) // between live dies, and alive until now
        EXPECT_TRUE(live.count(link)) << link.first << "->" << link.second;
}

TEST(FaultSample, TheSameSeedSampleAndPointDrawTheSameFaults) {
    const Scenario base = scenarioOf(gemmScenario(6, 8, R"({"tatp": 2})"));
    const FaultedScenario once = sampleFaults(base, 0.25, 0.1, 7, 1, 3);
    const FaultedScenario again = sampleFaults(base, 0.25, 0.1, 7, 1, 3);
    EXPECT_EQ(once.scenario, again.scenario);
    // The 12 drawn dies, then those the dead links cut off.
    const std::vector<DieId>& dead = once.scenario.wafer.deadDies;
    ASSERT_EQ(dead.size(), static_cast<std::size_t>(once.diesKilled + once.diesCutOff));
    EXPECT_EQ(std::vector<DieId>(dead.begin(), dead.begin() + 12),
              (std::vector<DieId>{1, 3, 6, 8, 11, 24, 28, 32, 34, 39, 42, 43}));
    const FaultedScenario otherSample = sampleFaults(base, 0.25, 0.1, 7, 2, 3);
    EXPECT_NE(once.scenario.wafer.deadDies, otherSample.scenario.wafer.deadDies);
    const FaultedScenario otherPoint = sampleFaults(base, 0.25, 0.1, 7, 1, 4);
    EXPECT_NE(once.scenario.wafer.deadDies, otherPoint.scenario.wafer.deadDies);
    const FaultedScenario otherSeed = sampleFaults(base, 0.25, 0.1, 8, 1, 3);
    EXPECT_NE(once.scenario.wafer.deadDies, otherSeed.scenario.wafer.deadDies);
}

// The base's faults stay, the new ones come after them and never repeat them; a die that dies
// leaves slow_dies (a dead die is never slow).
TEST(FaultSample, TheBasesFaultsAreKept) {
    Scenario base = scenarioOf(R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 4, "cols": 4, "faults": {"dies": [5], "links": ["1->2", "6-7"]}}})");
    for (DieId die = 0; die < 16; ++die)
        if (die != 5)
            base.wafer.slowDies[die] = 0.5;
    const FaultedScenario faulted = sampleFaults(base, 0.25, 0.25, 1, 0, 0);
    const WaferSpec& wafer = faulted.scenario.wafer;
    EXPECT_EQ(faulted.diesKilled, 4);     // llround(0.25 * 15 live dies)
    ASSERT_GE(wafer.deadDies.size(), 5u); // then the dies the dead links cut off
    EXPECT_EQ(std::vector<DieId>(wafer.deadDies.begin(), wafer.deadDies.begin() + 5),
              (std::vector<DieId>{5, 4, 10, 13, 15}));
    ASSERT_GE(wafer.deadLinks.size(), 2u);
    EXPECT_EQ(wafer.deadLinks[0], (LinkRef{1, 2, false}));
    EXPECT_EQ(wafer.deadLinks[1], (LinkRef{6, 7, true}));
    EXPECT_EQ(faulted.linksKilled, static_cast<int>(wafer.deadLinks.size()) - 2);
    for (std::size_t i = 2; i < wafer.deadLinks.size(); ++i) {
        const LinkRef& link = wafer.deadLinks[i];
        EXPECT_FALSE(link == (LinkRef{1, 2, false}) || link == (LinkRef{6, 7, false}) ||
                     link == (LinkRef{7, 6, false}));
        for (std::size_t d = 0; d < 5; ++d) // drawn among links between dies still live
            EXPECT_TRUE(link.from != wafer.deadDies[d] && link.to != wafer.deadDies[d]);
    }
    EXPECT_EQ(wafer.slowDies.size(), 15u - 4u - static_cast<std::size_t>(faulted.diesCutOff));
    for (DieId die : wafer.deadDies)
        EXPECT_EQ(wafer.slowDies.count(die), 0u) << die;
}

// Rate 0 is the base itself, even with a strategy too large for the wafer: nothing died, so
// nothing is placed again.
TEST(FaultSample, RateZeroChangesNothing) {
    const Scenario base = scenarioOf(gemmScenario(4, 4, R"({"dp": 16, "tatp": 2})"));
    const FaultedScenario faulted = sampleFaults(base, 0.0, 0.0, 1, 2, 3);
    EXPECT_EQ(faulted.scenario, base);
    EXPECT_EQ(faulted.diesKilled, 0);
    EXPECT_EQ(faulted.linksKilled, 0);
    EXPECT_EQ(faulted.note, "");
}

TEST(FaultSample, RatesOutsideZeroToOneAreRefused) {
    const Scenario base = scenarioOf(gemmScenario(4, 4, R"({"tatp": 2})"));
    EXPECT_THROW(sampleFaults(base, 1.0, 0.0, 1, 0, 0), std::invalid_argument);
    EXPECT_THROW(sampleFaults(base, 0.0, -0.1, 1, 0, 0), std::invalid_argument);
    EXPECT_THROW(sampleFaults(base, std::nan(""), 0.0, 1, 0, 0), std::invalid_argument);
}

// 6x8, dp 6 x tatp 8, global batch 12: 5 dies die, 43 live dies would hold dp 5, but 5 does not
// divide 12 sequences, so dp becomes 4.
TEST(FaultSample, DpShrinksToTheLargestThatFitsAndDividesTheBatch) {
    const Scenario base = scenarioOf(R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 6, "cols": 8},
        "workload": {"kind": "transformer", "model": "gpt3-175b", "seq_len": 2048,
                     "global_batch": 12},
        "strategy": {"dp": 6, "tatp": 8, "fsdp": true, "mapping": "snake"}})");
    const FaultedScenario faulted = sampleFaults(base, 0.1, 0.0, 1, 0, 0);
    EXPECT_EQ(faulted.diesKilled, 5); // llround(4.8)
    ASSERT_TRUE(faulted.scenario.strategy);
    EXPECT_EQ(faulted.scenario.strategy->dp, 4);
    EXPECT_EQ(faulted.scenario.strategy->tatp, 8);
    // 5 dead dies leave no room for four 2x4 (or 1x8) rectangles: the groups go in order.
    EXPECT_EQ(faulted.scenario.strategy->mapping, StrategySpec::Sequential);
    EXPECT_EQ(faulted.note, "dp 6 -> 4: 43 of 48 dies live; mapping snake -> sequential: the "
                            "faults leave no room for its groups' rectangles");
}

// dp 1 cannot shrink: the strategy is left for the placement to refuse with its own sentence.
TEST(FaultSample, AStrategyNoDpCanSaveIsLeftToFail) {
    const Scenario base = scenarioOf(gemmScenario(4, 4, R"({"tatp": 16})"));
    const FaultedScenario faulted = sampleFaults(base, 0.25, 0.0, 1, 0, 0);
    EXPECT_EQ(faulted.scenario.strategy, base.strategy);
    EXPECT_EQ(faulted.note, "");
}

// A 2x2 wafer fully used by explicit groups: the dead die was in them, so the mapping becomes
// a snake on the live dies, and dp shrinks to what 3 dies hold.
TEST(FaultSample, AnExplicitMappingThatLostADieBecomesSnake) {
    const Scenario base = scenarioOf(
        gemmScenario(2, 2, R"({"dp": 2, "tatp": 2, "groups": {"tatp": [[0, 1], [2, 3]]}})"));
    ASSERT_EQ(base.strategy->mapping, StrategySpec::Explicit);
    const FaultedScenario faulted = sampleFaults(base, 0.25, 0.0, 1, 0, 0);
    ASSERT_EQ(faulted.scenario.wafer.deadDies.size(), 1u);
    const DieId dead = faulted.scenario.wafer.deadDies[0];
    const StrategySpec& strategy = *faulted.scenario.strategy;
    EXPECT_EQ(strategy.mapping, StrategySpec::Snake);
    EXPECT_TRUE(strategy.dpGroups.empty());
    EXPECT_TRUE(strategy.tatpGroups.empty());
    EXPECT_EQ(strategy.dp, 1);
    EXPECT_EQ(faulted.note, "mapping explicit -> snake: die " + std::to_string(dead) +
                                " of its groups died; dp 2 -> 1: 3 of 4 dies live");
}

// One die of 16 dies per sample: an explicit mapping is kept when its dies all live, and
// replaced when one of them dies. 40 samples see both.
TEST(FaultSample, AnExplicitMappingWhoseDiesAllLiveIsKept) {
    const Scenario base = scenarioOf(
        gemmScenario(4, 4, R"({"dp": 2, "tatp": 2, "groups": {"tatp": [[0, 1], [2, 3]]}})"));
    int kept = 0;
    int replaced = 0;
    for (int sample = 0; sample < 40; ++sample) {
        const FaultedScenario faulted = sampleFaults(base, 0.0625, 0.0, 1, sample, 0);
        ASSERT_EQ(faulted.diesKilled, 1);
        const DieId dead = faulted.scenario.wafer.deadDies.at(0);
        if (dead <= 3) {
            ++replaced;
            EXPECT_EQ(faulted.scenario.strategy->mapping, StrategySpec::Snake);
            EXPECT_EQ(faulted.scenario.strategy->dp, 2); // 15 live dies still hold 4
            EXPECT_EQ(faulted.note, "mapping explicit -> snake: die " + std::to_string(dead) +
                                        " of its groups died");
        } else {
            ++kept;
            EXPECT_EQ(faulted.scenario.strategy, base.strategy);
            EXPECT_EQ(faulted.note, "");
        }
    }
    EXPECT_GT(kept, 0);
    EXPECT_GT(replaced, 0);
}

// A pinned route (TCME's tuning) that crosses a new fault is dropped, so that its flow follows
// the routing mode around the fault (docs/network-model.md section 5) instead of failing the point;
// pins the faults miss are kept.
TEST(FaultSample, PinnedRoutesThroughAFaultAreDropped) {
    Scenario base = scenarioOf(gemmScenario(2, 2, R"({"tatp": 2})"));
    base.routing = RoutingSpec{};
    base.routing->paths["a"] = PinnedRoute{{0, 1, 3}, {}};
    base.routing->paths["b"] = PinnedRoute{{2, 3}, {}};
    base.wafer.deadLinks.push_back(LinkRef{1, 3, false}); // as a draw would add it
    // No new fault here, but the pin already crosses a dead link: the same rule drops it.
    const FaultedScenario faulted = sampleFaults(base, 0.0, 0.0, 1, 0, 0);
    ASSERT_TRUE(faulted.scenario.routing);
    EXPECT_EQ(faulted.scenario.routing->paths.count("a"), 0U);
    EXPECT_EQ(faulted.scenario.routing->paths.count("b"), 1U);
    EXPECT_EQ(faulted.note, "1 pinned route crossed a fault and follows the routing mode");
}

// Dead links leave a snake mapping without the rectangles its TATP groups need: the groups are
// placed in order over the live dies instead, and the point simulates.
TEST(FaultSample, ASnakeMappingTheFaultsBreakFallsBackToSequential) {
    const Scenario base = scenarioOf(R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 6, "cols": 8},
        "workload": {"kind": "gemm", "m": 6144, "k": 2048, "n": 2048},
        "strategy": {"dp": 6, "tatp": 8, "mapping": "snake"}})");
    const FaultedScenario faulted = sampleFaults(base, 0.0, 0.05, 1, 0, 0);
    ASSERT_EQ(faulted.linksKilled, 8);
    EXPECT_EQ(faulted.scenario.strategy->mapping, StrategySpec::Sequential);
    EXPECT_EQ(faulted.note,
              "mapping snake -> sequential: the faults leave no room for its groups' rectangles");
    EXPECT_NO_THROW(simulateScenarioReport(faulted.scenario, RunOptions{}, ReportDetail::Summary));
    // Without faults the snake mapping stays.
    EXPECT_EQ(sampleFaults(base, 0.0, 0.0, 1, 0, 0).scenario.strategy->mapping,
              StrategySpec::Snake);
}

// Dead links that leave a die no way in are as good as its death: it is left out, and the
// strategy placed on the rest.
TEST(FaultSample, ADieTheDeadLinksCutOffIsLeftOut) {
    Scenario base = scenarioOf(gemmScenario(2, 2, R"({"tatp": 2, "dp": 2})"));
    base.wafer.deadLinks = {LinkRef{1, 0, false}, LinkRef{2, 0, false}}; // nothing reaches die 0
    const FaultedScenario faulted = sampleFaults(base, 0.0, 0.0, 1, 0, 0);
    EXPECT_EQ(faulted.diesCutOff, 1);
    EXPECT_EQ(faulted.scenario.wafer.deadDies, (std::vector<DieId>{0}));
    EXPECT_EQ(faulted.scenario.strategy->dp, 1);
    EXPECT_EQ(faulted.note, "1 die cut off by dead links is left out; dp 2 -> 1: 3 of 4 dies live");
}

std::string sweepOf(const std::string& base, const std::string& axes, const std::string& extra) {
    return R"({"format": "waferscope.sweep", "version": 1, "base": )" + base + R"(, "axes": )" +
           axes + extra + "}";
}

std::string sweepProblem(const std::string& axes) {
    try {
        parseSweep(sweepOf(gemmScenario(4, 4, R"({"tatp": 2})"), axes, ""));
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return "accepted";
}

TEST(FaultSweep, FaultRatesAreNumbersFromZeroBelowOne) {
    EXPECT_EQ(sweepProblem(R"({"faults.die_rate": [0, 0.5], "faults.link_rate": [0.99]})"),
              "accepted");
    EXPECT_EQ(sweepProblem(R"({"faults.die_rate": [0.1, 1.5]})"),
              "axes.faults.die_rate[1]: 1.5 is not a fault rate: must be a number from 0 to 1, "
              "1 excluded");
    for (const char* bad : {"1", "-0.1", "\"0.1\"", "true", "null"})
        EXPECT_NE(sweepProblem(std::string(R"({"faults.link_rate": [)") + bad + "]}")
                      .find("axes.faults.link_rate[0]: "),
                  std::string::npos)
            << bad;
    // Not a scenario key: the point's scenario is the base's.
    const SweepSpec spec =
        parseSweep(sweepOf(gemmScenario(4, 4, R"({"tatp": 2})"),
                           R"({"faults.die_rate": [0.25], "strategy.dp": [1, 2]})", ""));
    const nlohmann::json point = scenarioJsonAt(spec, pointAt(spec, 1));
    EXPECT_FALSE(point.contains("faults"));
    EXPECT_EQ(point["strategy"]["dp"], 2);
}

// A fault study: every point and sample is a row, ok or with the reason, and a row is the
// simulation of the point's scenario with sampleFaults' faults.
TEST(FaultSweep, ALinkRateSweepWithSamplesGivesARowPerPointAndSample) {
    const SweepSpec spec =
        parseSweep(sweepOf(gemmScenario(4, 4, R"({"dp": 2, "tatp": 2})"),
                           R"({"faults.link_rate": [0, 0.2]})", R"(, "samples": 3, "seed": 5)"));
    ASSERT_EQ(pointCount(spec), 6u);
    std::vector<SweepRow> rows;
    std::string csv = sweepHeader(spec, SweepFormat::Csv);
    SweepRunOptions options;
    options.threads = 2;
    options.onRow = [&](const SweepRow& row) {
        rows.push_back(row);
        csv += sweepLine(spec, row, SweepFormat::Csv);
    };
    EXPECT_NO_THROW(runSweep(spec, options));
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "faults.link_rate,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,"
              "max_link_bytes,peak_memory_bytes,oom,dies_used,pp_bubble,note");
    EXPECT_NE(csv.find("\n0.2,2,"), std::string::npos) << csv;
    const SimulationReport fine =
        simulateScenarioReport(parseScenario(scenarioJsonAt(spec, rows[0].point)),
                               frontEndRunOptions(), ReportDetail::Summary);
    for (const SweepRow& row : rows) {
        EXPECT_TRUE(row.ok || !row.error.empty());
        const double rate = row.point.values[0].get<double>();
        if (rate == 0.0) { // no faults: every sample is the base
            ASSERT_TRUE(row.ok) << row.error;
            EXPECT_EQ(row.makespanS, fine.makespanS);
            continue;
        }
        const FaultedScenario faulted =
            sampleFaults(parseScenario(scenarioJsonAt(spec, row.point)), 0.0, rate, spec.seed,
                         row.point.sample, row.point.index);
        EXPECT_EQ(faulted.linksKilled, 10); // llround(0.2 * 48)
        try {
            const SimulationReport report = simulateScenarioReport(
                faulted.scenario, frontEndRunOptions(), ReportDetail::Summary);
            ASSERT_TRUE(row.ok) << row.error;
            EXPECT_EQ(row.makespanS, report.makespanS);
        } catch (const std::exception& error) {
            EXPECT_FALSE(row.ok);
            EXPECT_EQ(row.error, error.what());
        }
    }
}

// Too few dies for any dp: the point is a row with the placement's reason, not a failed sweep.
TEST(FaultSweep, APointTheFaultsLeaveUnplaceableIsARowWithTheReason) {
    const SweepSpec spec =
        parseSweep(sweepOf(gemmScenario(4, 4, R"({"tatp": 16})"),
                           R"({"faults.die_rate": [0, 0.25]})", R"(, "samples": 2)"));
    for (std::size_t index = 0; index < pointCount(spec); ++index) {
        const SweepRow row = evaluatePoint(spec, pointAt(spec, index));
        if (row.point.values[0] == 0) {
            EXPECT_TRUE(row.ok) << row.error;
        } else {
            EXPECT_FALSE(row.ok);
            EXPECT_NE(row.error.find("12 live dies"), std::string::npos) << row.error;
        }
    }
}

// docs/cli.md section 10: a re-placed strategy that no longer fits a die's memory is planned
// again as a user would. GPT-3 6.7B, dp 6 x TATP 8, 96 sequences in one micro-batch, on dies of
// 24 GB: dp 4 after the faults puts 24 sequences on each replica, whose activations no longer
// fit; two micro-batches of 12 do.
TEST(FaultSample, AStrategyThatNoLongerFitsIsPlannedAgainWithMoreMicroBatches) {
    const Scenario base = scenarioOf(R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 6, "cols": 8, "die": {"hbm": "24 GB"}},
        "workload": {"kind": "transformer", "model": "gpt3-6.7b", "seq_len": 2048,
                     "global_batch": 96},
        "strategy": {"dp": 6, "tatp": 8, "fsdp": true}})");
    const FaultedScenario faulted = sampleFaults(base, 0.1, 0.0, 1, 0, 0);
    ASSERT_TRUE(faulted.scenario.strategy);
    EXPECT_EQ(faulted.scenario.strategy->dp, 4);
    EXPECT_EQ(faulted.scenario.strategy->microBatches, 2);
    EXPECT_NE(faulted.note.find("dp 6 -> 4: 43 of 48 dies live; micro_batches 1 -> 2 to fit in "
                                "memory"),
              std::string::npos)
        << faulted.note;
}

// A point whose step does not fit its dies' memory after the faults is a failed row, never a
// throughput: GPT-3 175B's FSDP shards over dp 4 instead of 6 need 87.5 GB a die, and no number
// of micro-batches or recomputation shrinks them. Its error says why and what the faults changed.
TEST(FaultSweep, AStepOutOfMemoryAfterTheFaultsIsAFailedRowWithWhatChanged) {
    const SweepSpec spec = parseSweep(sweepOf(R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 6, "cols": 8},
        "workload": {"kind": "transformer", "model": "gpt3-175b", "seq_len": 2048,
                     "global_batch": 12},
        "strategy": {"dp": 6, "tatp": 8, "fsdp": true, "mapping": "snake"}})",
                                              R"({"faults.die_rate": [0.1]})", ""));
    const SweepRow row = evaluatePoint(spec, pointAt(spec, 0));
    EXPECT_FALSE(row.ok);
    EXPECT_FALSE(row.tokensPerSecond);
    EXPECT_EQ(row.error.rfind("out of memory: ", 0), 0u) << row.error;
    EXPECT_NE(row.error.find("(after the faults: dp 6 -> 4: 43 of 48 dies live"), std::string::npos)
        << row.error;
    EXPECT_EQ(row.note.rfind("dp 6 -> 4", 0), 0u) << row.note;
    const std::string line = sweepLine(spec, row, SweepFormat::Csv);
    EXPECT_NE(line.find(",false,"), std::string::npos) << line;
}

} // namespace
} // namespace ws
