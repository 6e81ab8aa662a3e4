// The advisor (docs/advisor.md): every finding id raised on a scenario built to show it, with
// its fix simulated and helping; none raised on scenarios that do not show the problem.
#include "advice/advisor.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "scenario/scenario_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace ws {
namespace {

const std::filesystem::path kScenarios = WAFERSCOPE_SCENARIO_DIR;

Scenario shipped(const char* name) {
    return loadScenario(kScenarios / name);
}

std::vector<Finding> advise(const Scenario& scenario) {
    return adviseScenario(scenario, RunOptions{});
}

const Finding* findingOf(const std::vector<Finding>& findings, const std::string& id) {
    const auto it = std::find_if(findings.begin(), findings.end(),
                                 [&](const Finding& f) { return f.id == id; });
    return it == findings.end() ? nullptr : &*it;
}

std::vector<std::string> idsOf(const std::vector<Finding>& findings) {
    std::vector<std::string> ids;
    for (const Finding& finding : findings)
        ids.push_back(finding.id);
    return ids;
}

double stepSecondsOf(const Scenario& scenario) {
    const SimulationReport report =
        simulateScenarioReport(scenario, RunOptions{}, ReportDetail::Summary);
    return report.step ? report.step->stepS : report.makespanS;
}

// A fix is offered only when applying it and simulating again helped: check that claim anew.
void expectFixHelps(const Scenario& scenario, const Finding& finding) {
    ASSERT_TRUE(finding.fix) << finding.id;
    ASSERT_TRUE(finding.fixAfterS && finding.fixBeforeS) << finding.id;
    const double before = stepSecondsOf(scenario);
    const double after = stepSecondsOf(applyFix(scenario, *finding.fix));
    EXPECT_DOUBLE_EQ(*finding.fixBeforeS, before) << finding.id;
    EXPECT_DOUBLE_EQ(*finding.fixAfterS, after) << finding.id;
    EXPECT_LT(after, before * 0.99) << finding.id;
}

// A TATP line of 4 dies streaming a GEMM, die 1 at 40% speed (docs/compute-model.md
// section 8): under even shares the others compute 40% of the step.
Scenario slowDieLine() {
    Scenario scenario;
    scenario.name = "slow die";
    scenario.wafer.rows = 1;
    scenario.wafer.cols = 4;
    scenario.wafer.slowDies = {{1, 0.4}};
    // Small enough to stay in SRAM: every task compute-bound, so shares in proportion to speed
    // even the group out (a memory-bound task is not sped up by a larger share of FLOPs).
    scenario.wafer.die.taskOverhead = {0.0, "0 s"};
    scenario.wafer.die.gemmTile = 1;
    scenario.workload =
        parseWorkload({{"kind", "gemm"}, {"m", 4096}, {"k", 2048}, {"n", 2048}}, {});
    scenario.strategy = parseStrategy({{"tatp", 4}});
    return scenario;
}

TEST(Advisor, ASlowDieRaisesLoadImbalanceAndLowUtilizationFixedByTheBalancer) {
    const Scenario scenario = slowDieLine();
    const std::vector<Finding> findings = advise(scenario);
    const Finding* imbalance = findingOf(findings, "load_imbalance");
    ASSERT_NE(imbalance, nullptr);
    EXPECT_EQ(imbalance->fix->dump(), R"({"strategy.balance":"speed"})");
    expectFixHelps(scenario, *imbalance);
    EXPECT_EQ(imbalance->dies, (std::vector<DieId>{0, 1, 2, 3}));

    const Finding* low = findingOf(findings, "low_utilization");
    ASSERT_NE(low, nullptr);
    EXPECT_EQ(low->evidence["cause"], "slow_group_member");
    EXPECT_EQ(low->evidence["slow_dies"], nlohmann::ordered_json::array({1}));
    EXPECT_NE(low->message.find("slow die 1"), std::string::npos) << low->message;
    expectFixHelps(scenario, *low);
    ASSERT_TRUE(low->timeSpan);
    EXPECT_LT(low->timeSpan->first, low->timeSpan->second);

    // Fixed, the balancer leaves neither finding.
    const std::vector<Finding> after = advise(applyFix(scenario, *imbalance->fix));
    EXPECT_EQ(findingOf(after, "load_imbalance"), nullptr) << findingsJson(after).dump();
    EXPECT_EQ(findingOf(after, "low_utilization"), nullptr);
}

// No false alarms: the shipped examples with balanced shares raise none of the findings about
// dies or memory.
TEST(Advisor, ShippedBalancedExamplesRaiseNoImbalanceUtilizationOrMemoryFinding) {
    for (const char* name : {"gemm_gpt3_175b_mlp_6x8.json", "gpt3_175b_6x8_fsdp_tatp.json",
                             "llama2_7b_4x4_tp_vs_tatp.json", "transpose_8x8.json"}) {
        const std::vector<std::string> ids = idsOf(advise(shipped(name)));
        for (const char* id : {"load_imbalance", "low_utilization", "out_of_memory", "sram_reserve",
                               "tcme_routes_stale", "tcme_iteration_cap", "latency_spikes",
                               "long_sequence_needs_sp"})
            EXPECT_EQ(std::count(ids.begin(), ids.end(), id), 0) << name << ": " << id;
    }
    EXPECT_TRUE(advise(shipped("transpose_8x8.json")).empty());
}

// Each nearest strategy that fits is a finding whose fix, applied and simulated again, gives
// the step time it states and fits in memory.
void expectNearestStrategiesFit(const Scenario& scenario, const std::vector<Finding>& findings) {
    int offered = 0;
    for (const Finding& finding : findings) {
        if (finding.id != "nearest_fitting_strategy")
            continue;
        ++offered;
        EXPECT_EQ(finding.severity, Finding::Severity::Info);
        ASSERT_TRUE(finding.fix && finding.fixAfterS);
        const Scenario fixed = applyFix(scenario, *finding.fix);
        const SimulationReport report =
            simulateScenarioReport(fixed, RunOptions{}, ReportDetail::Summary);
        EXPECT_DOUBLE_EQ(report.step->stepS, *finding.fixAfterS) << finding.message;
        for (const DieReport& die : report.dies)
            EXPECT_FALSE(die.memory && die.memory->outOfMemory()) << finding.message;
        EXPECT_NE(finding.message.find(finding.evidence["strategy"].get<std::string>()),
                  std::string::npos);
    }
    EXPECT_GE(offered, 1) << findingsJson(findings).dump(2);
}

TEST(Advisor, OutOfMemoryIsAnErrorWhoseFixFits) {
    Scenario scenario = shipped("gpt3_175b_6x8_fsdp_tatp.json");
    scenario.strategy->fsdp = false; // 175B parameters' optimizer state on every replica
    const std::vector<Finding> findings = advise(scenario);
    ASSERT_FALSE(findings.empty());
    EXPECT_EQ(findings.front().id, "out_of_memory"); // errors come first
    EXPECT_EQ(findings.front().severity, Finding::Severity::Error);
    ASSERT_TRUE(findings.front().fix);
    const SimulationReport fixed = simulateScenarioReport(applyFix(scenario, *findings.front().fix),
                                                          RunOptions{}, ReportDetail::Summary);
    for (const DieReport& die : fixed.dies)
        EXPECT_FALSE(die.memory && die.memory->outOfMemory()) << "die " << die.id;
    expectNearestStrategiesFit(scenario, findings);
    const double before = stepSecondsOf(scenario);
    for (const Finding& finding : findings) {
        if (finding.id == "nearest_fitting_strategy") {
            EXPECT_DOUBLE_EQ(*finding.fixBeforeS, before);
        }
    }
}

// A dead link leaves no room for the six 1x8 snakes: the strategy does not place. The advisor
// says why, shows the fault, and offers the nearest strategies that place and fit
// (docs/advisor.md `strategy_does_not_fit`).
TEST(Advisor, AStrategyTheFaultsCannotPlaceIsAnsweredByTheNearestStrategiesThatFit) {
    Scenario scenario = shipped("slow_die_6x8.json");
    scenario.wafer.slowDies.clear();
    scenario.wafer.deadLinks = {LinkRef{20, 21, true}};
    const std::vector<Finding> findings = advise(scenario);
    ASSERT_GE(findings.size(), 2u);
    const Finding& refusal = findings.front();
    EXPECT_EQ(refusal.id, "strategy_does_not_fit");
    EXPECT_EQ(refusal.severity, Finding::Severity::Error);
    EXPECT_EQ(refusal.evidence["key"], "strategy.mapping");
    EXPECT_FALSE(refusal.fix);
    EXPECT_EQ(refusal.links, (std::vector<std::pair<DieId, DieId>>{{20, 21}}));
    // The nearest is one change away: the same degrees on the sequential mapping.
    ASSERT_TRUE(findings[1].fix);
    EXPECT_EQ(findings[1].fix->dump(), R"({"strategy.mapping":"sequential"})");
    EXPECT_FALSE(findings[1].fixBeforeS) << "the strategy as it is has no step time";
    expectNearestStrategiesFit(scenario, findings);
}

// A degree that divides nothing (dp 7 of a batch of 96 on 48 dies) is a strategy that does not
// run either: the nearest strategies start from the space's nearest member.
TEST(Advisor, ADegreeThatDividesNothingIsAnsweredToo) {
    Scenario scenario = shipped("slow_die_6x8.json");
    scenario.strategy->dp = 5;
    const std::vector<Finding> findings = advise(scenario);
    ASSERT_FALSE(findings.empty());
    EXPECT_EQ(findings.front().id, "strategy_does_not_fit");
    expectNearestStrategiesFit(scenario, findings);
}

// An error outside the strategy is still the scenario's error, not advice.
TEST(Advisor, AnErrorOutsideTheStrategyIsStillThrown) {
    Scenario scenario = shipped("ring_allgather_line.json");
    scenario.wafer.deadDies = {scenario.traffic.front().group.front()}; // a dead group member
    EXPECT_THROW(advise(scenario), ScenarioError);
}

TEST(Advisor, StalePinnedRoutesAreDroppedAndNamed) {
    Scenario scenario = shipped("gpt3_175b_6x8_fsdp_tatp.json");
    scenario.routing = RoutingSpec{};
    scenario.routing->paths["gone/s0/r0"] = PinnedRoute{{0, 1}, {}};
    EXPECT_THROW(prepareRun(scenario, RunOptions{}), ScenarioError);
    const std::vector<Finding> findings = advise(scenario);
    const Finding* stale = findingOf(findings, "tcme_routes_stale");
    ASSERT_NE(stale, nullptr);
    EXPECT_EQ(stale->evidence["stale_pins"][0]["flow"], "gone/s0/r0");
    ASSERT_TRUE(stale->fix);
    // Applied, the scenario simulates again.
    const Scenario fixed = applyFix(scenario, *stale->fix);
    EXPECT_TRUE(fixed.routing->paths.empty());
    EXPECT_NO_THROW(prepareRun(fixed, RunOptions{}));
}

TEST(Advisor, TcmeStoppedByItsCapWhileGainingIsRaisedWithAHigherCap) {
    Scenario scenario = shipped("contention_fsdp_tatp_4x4.json");
    EXPECT_EQ(findingOf(advise(scenario), "tcme_iteration_cap"), nullptr); // stops by itself
    scenario.tcme->maxIter = 1;
    const std::vector<Finding> capFindings = advise(scenario);
    const Finding* cap = findingOf(capFindings, "tcme_iteration_cap");
    ASSERT_NE(cap, nullptr);
    EXPECT_EQ(cap->fix->dump(), R"({"tcme.max_iter":15})");
    EXPECT_LT(*cap->fixAfterS, *cap->fixBeforeS);
}

TEST(Advisor, ASmallSramReserveIsRaisedAndTheDefaultReserveIsNot) {
    Scenario scenario = shipped("gpt3_6_7b_6x8_search.json");
    EXPECT_EQ(findingOf(advise(scenario), "sram_reserve"), nullptr);
    scenario.wafer.die.sramReserve = 0.05;
    const std::vector<Finding> reserveFindings = advise(scenario);
    const Finding* reserve = findingOf(reserveFindings, "sram_reserve");
    ASSERT_NE(reserve, nullptr);
    EXPECT_DOUBLE_EQ(reserve->evidence["sram_reserve"].get<double>(), 0.05);
    EXPECT_EQ(reserve->fix->dump(), R"({"wafer.die.sram_reserve":0.1})");
}

TEST(Advisor, LongSequencesWithoutSpAreRaisedWhenSpHelps) {
    Scenario scenario = shipped("llama2_7b_4x4_tp_vs_tatp.json");
    EXPECT_EQ(findingOf(advise(scenario), "long_sequence_needs_sp"), nullptr); // 4k tokens
    scenario.workload->seqLen = 16384;
    const std::vector<Finding> spFindings = advise(scenario);
    const Finding* sp = findingOf(spFindings, "long_sequence_needs_sp");
    ASSERT_NE(sp, nullptr);
    EXPECT_EQ((*sp->fix)["strategy.sp"], 2);
    expectFixHelps(scenario, *sp);
}

TEST(Advisor, ShortSequencesAndTheTatpDegreeAreCheckedBySimulatingTheNeighbours) {
    const Scenario scenario = shipped("gpt3_6_7b_6x8_search.json"); // 2048 tokens, tatp 8
    const std::vector<Finding> findings = advise(scenario);
    const Finding* dp = findingOf(findings, "short_sequence_prefers_dp");
    ASSERT_NE(dp, nullptr);
    expectFixHelps(scenario, *dp);
    const Finding* degree = findingOf(findings, "tatp_degree");
    ASSERT_NE(degree, nullptr);
    expectFixHelps(scenario, *degree);
    // The evidence lists every degree simulated: this one and its neighbours on these dies.
    EXPECT_GE(degree->evidence["measured"].size(), 2U);
    EXPECT_EQ(degree->evidence["measured"][0]["tatp"], 8);
}

TEST(Advisor, AHotLinkIsRaisedAboveTheTargetAndNotBelowIt) {
    Scenario scenario = shipped("allgather_p2p_collision_4x4.json");
    const std::vector<Finding> hotFindings = advise(scenario);
    const Finding* hot = findingOf(hotFindings, "hot_link");
    ASSERT_NE(hot, nullptr);
    ASSERT_EQ(hot->links.size(), 1U);
    EXPECT_GT(hot->evidence["utilization"].get<double>(), 0.7);
    scenario.tcme = TcmeSpec{};
    scenario.tcme->targetUtilization = 0.99;
    EXPECT_EQ(findingOf(advise(scenario), "hot_link"), nullptr);
}

// Communication exposed on slow links stalls every layer: periodic stalls with their period.
TEST(Advisor, PeriodicStallsAreLatencySpikesWithTheirPeriodAndCause) {
    Scenario scenario = shipped("gpt3_6_7b_6x8_search.json");
    EXPECT_EQ(findingOf(advise(scenario), "latency_spikes"), nullptr);
    scenario.wafer.linkBandwidth = {100e9, "100 GB/s"};
    const std::vector<Finding> spikesFindings = advise(scenario);
    const Finding* spikes = findingOf(spikesFindings, "latency_spikes");
    ASSERT_NE(spikes, nullptr);
    EXPECT_GE(spikes->evidence["stalls"].get<int>(), 3);
    EXPECT_GT(spikes->evidence["period_s"].get<double>(), 0.0);
    EXPECT_FALSE(spikes->evidence["cause"].get<std::string>().empty());
    ASSERT_TRUE(spikes->timeSpan);
}

TEST(Advisor, FindingsJsonHasSpecSectionSevensFields) {
    const nlohmann::ordered_json json = findingsJson(advise(slowDieLine()));
    ASSERT_TRUE(json["findings"].is_array());
    for (const auto& finding : json["findings"]) {
        for (const char* key : {"id", "severity", "message", "evidence", "fix"})
            EXPECT_TRUE(finding.contains(key)) << key;
        EXPECT_TRUE(finding["fix"].is_null() || finding["fix"].is_object());
    }
}

TEST(ApplyFix, SetsDottedKeysAndNullRemovesOne) {
    Scenario scenario = slowDieLine();
    const Scenario balanced = applyFix(scenario, {{"strategy.balance", "speed"}});
    EXPECT_EQ(balanced.strategy->balance, StrategySpec::Balance::Speed);
    scenario.tcme = TcmeSpec{};
    EXPECT_FALSE(applyFix(scenario, {{"tcme", nullptr}}).tcme);
    EXPECT_THROW(applyFix(scenario, {{"strategy.tapt", 2}}), ScenarioError);
}

} // namespace
} // namespace ws
