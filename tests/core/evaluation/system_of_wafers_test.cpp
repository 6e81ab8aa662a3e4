// Systems of several wafers (docs/network-model.md section 11) through the one
// pipeline: transfers across a wafer boundary at the off-wafer links' bandwidth and latency, in
// both network models, a ring all-gather bottlenecked by them, their energy, and a system whose
// off-wafer links match the wafer's simulating exactly as one big wafer.
#include "evaluation/scenario_run.h"

#include "report/report_comparison.h"
#include "report/simulation_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace ws {
namespace {

constexpr double kB = 4e12;     // bytes/s, the wafer's links
constexpr double kA = 200e-9;   // s per on-wafer hop
constexpr double kOffB = 100e9; // bytes/s, the off-wafer links
constexpr double kOffA = 1e-6;  // s per off-wafer hop
constexpr double kS = 64e6;     // bytes
constexpr double kChunk = 1e6;  // bytes, store-and-forward
constexpr double kPicojoule = 1e-12;

double tol(double expected) {
    return 1e-9 * std::abs(expected);
}
#define EXPECT_TIME(actual, expected) EXPECT_NEAR((actual), (expected), tol(expected))

// R x C wafers of rows x cols dies, joined by `linksPerEdge` pairs per edge (0: all).
Scenario system(int wafersDown, int wafersAcross, int rows, int cols, int linksPerEdge = 0) {
    Scenario scenario;
    scenario.name = "system";
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    scenario.wafer.linkBandwidth = Quantity{kB, "4 TB/s"};
    scenario.wafer.linkLatency = Quantity{kA, "200 ns"};
    scenario.wafer.energy.d2dPicojoulesPerBit = 5.0;
    SystemSpec spec;
    spec.waferRows = wafersDown;
    spec.waferCols = wafersAcross;
    spec.linkBandwidth = Quantity{kOffB, "100 GB/s"};
    spec.linkLatency = Quantity{kOffA, "1 us"};
    if (linksPerEdge > 0)
        spec.linksPerEdge = linksPerEdge;
    spec.picojoulesPerBit = 20.0;
    scenario.system = spec;
    return scenario;
}

TrafficOp p2p(std::string id, DieId src, DieId dst, double bytes) {
    TrafficOp op;
    op.id = std::move(id);
    op.kind = OpKind::P2P;
    op.src = src;
    op.dst = dst;
    op.bytes = Quantity{bytes, ""};
    return op;
}

TrafficOp allGather(std::string id, std::vector<DieId> group, double bytes) {
    TrafficOp op;
    op.id = std::move(id);
    op.kind = OpKind::AllGather;
    op.group = std::move(group);
    op.bytes = Quantity{bytes, ""};
    op.algorithm = Algorithm::Ring;
    return op;
}

void storeAndForward(Scenario& scenario) {
    NetworkSpec network;
    network.model = NetworkModel::StoreAndForward;
    network.chunk = Quantity{kChunk, "1 MB"};
    scenario.network = network;
}

SimulationReport report(const Scenario& scenario) {
    return simulateScenarioReport(scenario, RunOptions{});
}

// Grid 1x2, one die per wafer: the only links are the off-wafer pair.
TEST(SystemOfWafers, TransferAcrossTheBoundaryTakesTheOffWaferBandwidthAndLatency) {
    Scenario scenario = system(1, 2, 1, 1);
    scenario.traffic = {p2p("p", 0, 1, kS)};
    const SimulationReport fluid = report(scenario);
    EXPECT_TIME(fluid.makespanS, kS / kOffB + kOffA);
    ASSERT_EQ(fluid.links.size(), 2u);
    EXPECT_TRUE(fluid.links[0].offWafer);
    EXPECT_NEAR(fluid.links[0].utilization, (kS / kOffB) / fluid.makespanS, 1e-12);

    // Store-and-forward, m chunks over one hop: (m + 1 - 1) C / B + a (docs/network-model.md
    // section 10).
    storeAndForward(scenario);
    EXPECT_TIME(report(scenario).makespanS, (kS / kChunk) * kChunk / kOffB + kOffA);
}

// Grid 1x4 of two 1x2 wafers: 0 -> 2 crosses 0->1 on the wafer, then 1->2 between the wafers.
TEST(SystemOfWafers, PathMixingLinksPaysEachLinksLatencyAndTheSlowerBandwidth) {
    Scenario scenario = system(1, 2, 1, 2);
    scenario.traffic = {p2p("p", 0, 2, kS)};
    // Fluid: the rate is the slower link's; the latencies of both hops are paid once.
    EXPECT_TIME(report(scenario).makespanS, kS / kOffB + kA + kOffA);

    // Store-and-forward: the first chunk crosses the fast link (C/B + a); from there the slow
    // link sends the m chunks back to back (they arrive faster than it sends), then a_off.
    storeAndForward(scenario);
    const double m = kS / kChunk;
    EXPECT_TIME(report(scenario).makespanS, kChunk / kB + kA + m * kChunk / kOffB + kOffA);
}

// Ring all-gather over a 2x2 grid of two 2x1 wafers (wafer 0 = dies 0, 2; wafer 1 = dies 1, 3),
// ring 0 -> 1 -> 3 -> 2 -> 0: every send is one hop, 0->1 and 3->2 across the boundary
// (T = N/4 / B_off each alone), 1->3 and 2->0 on a wafer (f + a, f = N/4 / B). A rank's step s
// waits for the flow it received in step s-1, so a slow link also carries the rank's next
// step from f + a on: its two flows share it, and it drains at 2T. The step-1 flow out of the
// slow link then crosses a fast one and arrives at 2T + a_off; only then does step 2 start on
// the idle slow link, alone: T more, plus a_off. Makespan 3T + 2 a_off, where one wafer would
// take 3 (f + a).
TEST(SystemOfWafers, RingAllGatherAcrossTwoWafersIsBottleneckedByTheOffWaferLinks) {
    Scenario scenario = system(1, 2, 2, 1);
    scenario.traffic = {allGather("ag", {0, 1, 3, 2}, kS)};
    const double slow = kS / 4 / kOffB;
    EXPECT_TIME(report(scenario).makespanS, 3 * slow + 2 * kOffA);
}

// Only K pairs of an edge are joined: a transfer between unjoined neighbours detours to the
// joined pair. [1, 2] of 3x1 wafers, K = 1: only the middle row (dies 2 and 3) is joined, so
// 0 -> 1 (top row) goes 0->2->3->1: two on-wafer hops and the off-wafer one.
TEST(SystemOfWafers, UnjoinedNeighboursDetourToTheJoinedPair) {
    Scenario scenario = system(1, 2, 3, 1, 1);
    scenario.traffic = {p2p("p", 0, 1, kS)};
    const SimulationReport fluid = report(scenario);
    EXPECT_TIME(fluid.makespanS, kS / kOffB + 2 * kA + kOffA);
    ASSERT_EQ(fluid.flows.size(), 1u);
    EXPECT_EQ(fluid.flows[0].route.path, (std::vector<DieId>{0, 2, 3, 1}));
}

// Link energy: every byte on each link it crosses, at that link's energy per bit.
TEST(SystemOfWafers, OffWaferBytesAreChargedAtTheSystemsEnergyPerBit) {
    Scenario scenario = system(1, 2, 1, 2);
    scenario.traffic = {p2p("p", 0, 2, kS)};
    const SimulationReport fluid = report(scenario);
    EXPECT_DOUBLE_EQ(fluid.energyD2dJ, kS * 8 * 5.0 * kPicojoule);
    EXPECT_DOUBLE_EQ(fluid.energyOffWaferJ, kS * 8 * 20.0 * kPicojoule);
    EXPECT_DOUBLE_EQ(fluid.energyJ(), fluid.energyD2dJ + fluid.energyOffWaferJ);
    // The compare view lists it beside the D2D energy.
    const std::vector<ReportFigure> figures = headlineFigures(fluid);
    EXPECT_TRUE(std::any_of(figures.begin(), figures.end(), [&](const ReportFigure& figure) {
        return figure.name == "off-wafer link energy" && figure.value == fluid.energyOffWaferJ;
    }));
}

// A system whose off-wafer links are every pair and as fast as the wafer's is one big wafer:
// the same links, the same routes, the same times (to rounding: latencies are summed per link
// rather than multiplied by the hops).
TEST(SystemOfWafers, MatchingOffWaferLinksSimulateAsOneBigWafer) {
    Scenario joined = system(2, 2, 2, 3);
    joined.system->linkBandwidth = Quantity{kB, "4 TB/s"};
    joined.system->linkLatency = Quantity{kA, "200 ns"};
    joined.traffic = {allGather("ag", {0, 5, 23, 18, 9}, kS), p2p("p", 2, 21, kS / 3)};
    Scenario big = joined;
    big.system.reset();
    big.wafer.rows = 4;
    big.wafer.cols = 6;
    for (const bool chunked : {false, true}) {
        if (chunked) {
            storeAndForward(joined);
            storeAndForward(big);
        }
        const SimulationReport a = report(joined);
        const SimulationReport b = report(big);
        EXPECT_NEAR(a.makespanS, b.makespanS, 1e-12 * b.makespanS) << chunked;
        ASSERT_EQ(a.links.size(), b.links.size());
        for (std::size_t l = 0; l < a.links.size(); ++l)
            EXPECT_EQ(a.links[l].bytes, b.links[l].bytes) << l;
    }
}

// Metamorphic: faster off-wafer links never slow a system's training step.
TEST(SystemOfWafers, FasterOffWaferLinksNeverSlowATrainingStep) {
    Scenario scenario = system(1, 2, 2, 2);
    Workload workload;
    workload.kind = WorkloadKind::Gemm;
    workload.gemm = GemmShape{4096, 4096, 4096};
    scenario.workload = workload;
    StrategySpec strategy;
    strategy.dp = 2;
    strategy.tatp = 4;
    scenario.strategy = strategy;
    double previous = report(scenario).step->stepS;
    for (const double bandwidth : {400e9, 1.6e12, 4e12}) {
        scenario.system->linkBandwidth = Quantity{bandwidth, ""};
        const double stepS = report(scenario).step->stepS;
        EXPECT_LE(stepS, previous * (1 + 1e-12)) << bandwidth;
        previous = stepS;
    }
}

} // namespace
} // namespace ws
