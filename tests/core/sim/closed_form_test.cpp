// Simulated times of whole scenarios (planTraffic + simulate) against the closed forms of
// docs/network-model.md section 9. B = 4 TB/s per link direction, a = 200 ns per hop, n = 64 MiB.
#include "collectives/traffic_plan.h"
#include "sim/fluid_simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace ws {
namespace {

constexpr double kB = 4e12;               // bytes/s
constexpr double kA = 200e-9;             // s per hop
constexpr double kN = 64.0 * 1024 * 1024; // bytes

double tol(double expected) {
    return 1e-9 * std::abs(expected);
}
#define EXPECT_TIME(actual, expected) EXPECT_NEAR((actual), (expected), tol(expected))

Scenario wafer(int rows, int cols, double latencyS = kA) {
    Scenario scenario;
    scenario.name = "closed form";
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    scenario.wafer.linkBandwidth = Quantity{kB, "4 TB/s"};
    scenario.wafer.linkLatency = Quantity{latencyS, ""};
    return scenario;
}

TrafficOp collective(std::string id, OpKind kind, std::vector<DieId> group, double bytes) {
    TrafficOp op;
    op.id = std::move(id);
    op.kind = kind;
    op.group = std::move(group);
    op.bytes = Quantity{bytes, ""};
    op.algorithm = Algorithm::Ring;
    return op;
}

TrafficOp p2p(std::string id, DieId src, DieId dst, double bytes,
              std::vector<std::string> after = {}) {
    TrafficOp op;
    op.id = std::move(id);
    op.kind = OpKind::P2P;
    op.src = src;
    op.dst = dst;
    op.bytes = Quantity{bytes, ""};
    op.after = std::move(after);
    return op;
}

struct PlannedRun {
    TrafficPlan plan;
    SimResult result;
};

PlannedRun run(const Scenario& scenario) {
    const WaferTopology topology(scenario.wafer.topologySpec());
    PlannedRun out{planTraffic(scenario, topology), {}};
    out.result = simulate(out.plan.problem);
    return out;
}

double ringTime(int p, int steps) {
    return steps * (kN / (p * kB) + kA);
}

// A closed cycle of adjacent dies: every ring step is one hop and no two flows share a link.
// 2x4 mesh:  0 1 2 3
//            4 5 6 7   ring 0 1 2 3 7 6 5 4 (back to 0)
const std::vector<DieId> kCycle8 = {0, 1, 2, 3, 7, 6, 5, 4};
const std::vector<DieId> kCycle4 = {0, 1, 3, 2}; // 2x2

TEST(ClosedForm, RingAllGatherOnAClosedCycle) {
    for (const auto& [rows, cols, group] : {std::tuple{2, 4, kCycle8}, std::tuple{2, 2, kCycle4}}) {
        Scenario scenario = wafer(rows, cols);
        scenario.traffic.push_back(collective("ag", OpKind::AllGather, group, kN));
        const int p = static_cast<int>(group.size());
        const PlannedRun r = run(scenario);
        EXPECT_TIME(r.result.makespanS, ringTime(p, p - 1)) << "p = " << p;
    }
}

TEST(ClosedForm, RingReduceScatterOnAClosedCycle) {
    Scenario scenario = wafer(2, 4);
    scenario.traffic.push_back(collective("rs", OpKind::ReduceScatter, kCycle8, kN));
    EXPECT_TIME(run(scenario).result.makespanS, ringTime(8, 7));
}

TEST(ClosedForm, RingAllReduceOnAClosedCycle) {
    for (const auto& [rows, cols, group] : {std::tuple{2, 4, kCycle8}, std::tuple{2, 2, kCycle4}}) {
        Scenario scenario = wafer(rows, cols);
        scenario.traffic.push_back(collective("ar", OpKind::AllReduce, group, kN));
        const int p = static_cast<int>(group.size());
        const PlannedRun r = run(scenario);
        EXPECT_TIME(r.result.makespanS, ringTime(p, 2 * (p - 1))) << "p = " << p;
        // Every link of the cycle carries 2(p-1) chunks of n/p bytes.
        const double chunk = kN / p;
        const double busiest =
            *std::max_element(r.result.linkBytes.begin(), r.result.linkBytes.end());
        EXPECT_TIME(busiest, 2 * (p - 1) * chunk);
    }
}

// docs/network-model.md section 4.7: a bidirectional ring on a closed cycle sends half the
// buffer each way, every link direction carrying one ring: an all-reduce takes
// (P-1)/P N/B + 2(P-1) a, all-gather and reduce-scatter (P-1)/(2P) N/B + (P-1) a, and every
// link direction carries half the one-way ring's bytes.
TEST(ClosedForm, BidirectionalRingOnAClosedCycleHalvesTheBandwidthTerm) {
    for (const auto& [rows, cols, group] : {std::tuple{2, 4, kCycle8}, std::tuple{2, 2, kCycle4}}) {
        const double p = static_cast<double>(group.size());
        for (const OpKind kind : {OpKind::AllReduce, OpKind::AllGather, OpKind::ReduceScatter}) {
            Scenario scenario = wafer(rows, cols);
            TrafficOp op = collective("ar", kind, group, kN);
            op.algorithm = Algorithm::BidirectionalRing;
            scenario.traffic.push_back(op);
            const PlannedRun r = run(scenario);
            const double steps = kind == OpKind::AllReduce ? 2 * (p - 1) : p - 1;
            EXPECT_TIME(r.result.makespanS, steps * (kN / (2 * p * kB) + kA)) << "p = " << p;
            if (kind == OpKind::AllReduce) {
                EXPECT_TIME(r.result.makespanS, (p - 1) / p * kN / kB + 2 * (p - 1) * kA);
            }
            for (const double bytes : r.result.linkBytes) {
                if (bytes > 0) {
                    EXPECT_TIME(bytes, steps * kN / (2 * p));
                }
            }
            EXPECT_EQ(r.plan.flows.size(), static_cast<std::size_t>(2 * steps * p));
            EXPECT_EQ(r.plan.flows.back().id, "ar/s" + std::to_string(int(steps) - 1) + "/r" +
                                                  std::to_string(int(p) - 1) + "/rev");
        }
    }
}

std::vector<DieId> line(int p) {
    std::vector<DieId> group(static_cast<std::size_t>(p));
    for (int i = 0; i < p; ++i) {
        group[static_cast<std::size_t>(i)] = i;
    }
    return group;
}

// A ring along a 1 x p line: the wrap-around flow takes p-1 hops on the reverse links, which no
// other flow uses; the longest dependency chain crosses it once per p-1 steps.
TEST(ClosedForm, RingAllGatherOnALine) {
    for (const int p : {3, 4, 8}) {
        Scenario scenario = wafer(1, p);
        scenario.traffic.push_back(collective("ag", OpKind::AllGather, line(p), kN));
        const double expected = (p - 1.0) / p * kN / kB + (2 * p - 3) * kA;
        EXPECT_TIME(run(scenario).result.makespanS, expected) << "p = " << p;
    }
}

TEST(ClosedForm, RingReduceScatterOnALine) {
    const int p = 8;
    Scenario scenario = wafer(1, p);
    scenario.traffic.push_back(collective("rs", OpKind::ReduceScatter, line(p), kN));
    EXPECT_TIME(run(scenario).result.makespanS, (p - 1.0) / p * kN / kB + (2 * p - 3) * kA);
}

// Reduction trees (algorithm "tree") on a 1 x p line: the sum for die r flows in from both
// sides, so link 0->1 carries the shards of dies 1..p-1 and link (p-1)->(p-2) those of dies
// 0..p-2: p - 1 flows each, which every flow crosses at least one of. Max-min gives every flow
// B / (p - 1), so the last byte leaves at (p - 1) / p * n / B, the same bandwidth term as the
// ring; but the ring's p - 1 steps each wait for a wrap-around of p - 1 hops, while a tree pays
// its deepest leaf's latency once: (p - 1) a for the dies at the ends.
TEST(ClosedForm, TreeReduceScatterOnALine) {
    for (const int p : {2, 3, 4, 8}) {
        Scenario scenario = wafer(1, p);
        TrafficOp op = collective("rs", OpKind::ReduceScatter, line(p), kN);
        op.algorithm = Algorithm::Tree;
        scenario.traffic.push_back(op);
        const PlannedRun r = run(scenario);
        EXPECT_TIME(r.result.makespanS, (p - 1.0) / p * kN / kB + (p - 1) * kA) << "p = " << p;
        const double busiest =
            *std::max_element(r.result.linkBytes.begin(), r.result.linkBytes.end());
        EXPECT_TIME(busiest, (p - 1.0) / p * kN) << "p = " << p;
    }
}

TEST(ClosedForm, RingAllReduceOnALine) {
    for (const int p : {3, 4, 8}) {
        Scenario scenario = wafer(1, p);
        scenario.traffic.push_back(collective("ar", OpKind::AllReduce, line(p), kN));
        const double expected = 2 * (p - 1.0) / p * kN / kB + (4 * p - 6) * kA;
        EXPECT_TIME(run(scenario).result.makespanS, expected) << "p = " << p;
    }
}

// Equal-size one-shot permutations under XY routing finish when the hottest link has carried
// its messages: every flow's last byte has left by load * S / B, and the flows that share the
// hottest link leave exactly then.
struct PermutationCase {
    const char* name;
    int k;
    int hottestMessages;
    DieId (*destination)(int k, int x, int y);
};

DieId transposeOf(int k, int x, int y) {
    return y + k * x;
}
DieId bitComplementOf(int k, int x, int y) {
    return (k - 1 - x) + k * (k - 1 - y);
}

TEST(ClosedForm, EqualSizePermutationsFinishAtHottestLinkLoad) {
    const double s = 1024.0 * 1024;
    for (const PermutationCase& c :
         {PermutationCase{"transpose 8x8", 8, 7, transposeOf},
          PermutationCase{"transpose 4x4", 4, 3, transposeOf},
          PermutationCase{"bit-complement 8x8", 8, 4, bitComplementOf}}) {
        Scenario scenario = wafer(c.k, c.k);
        for (int y = 0; y < c.k; ++y) {
            for (int x = 0; x < c.k; ++x) {
                const DieId src = x + c.k * y;
                const DieId dst = c.destination(c.k, x, y);
                if (dst != src) {
                    scenario.traffic.push_back(p2p("f" + std::to_string(src), src, dst, s));
                }
            }
        }
        const PlannedRun r = run(scenario);
        double lastByte = 0.0;
        for (const Flow& flow : r.plan.flows) {
            lastByte =
                std::max(lastByte, r.result.tasks[static_cast<std::size_t>(flow.task)].lastByteS);
        }
        EXPECT_TIME(lastByte, c.hottestMessages * s / kB) << c.name;
        const double hottest =
            *std::max_element(r.result.linkBytes.begin(), r.result.linkBytes.end());
        EXPECT_TIME(hottest, c.hottestMessages * s) << c.name;
        // Every flow is delivered at its own last byte plus its hops times a.
        for (const Flow& flow : r.plan.flows) {
            const TaskTiming& t = r.result.tasks[static_cast<std::size_t>(flow.task)];
            EXPECT_TIME(t.endS, t.lastByteS + flow.route.hops * kA) << c.name << " " << flow.id;
        }
    }
}

TEST(ClosedForm, TransposeMakespanIsHottestLoadPlusHops) {
    // On 8x8 the flows through the hottest links (7 messages) include a 14-hop corner flow
    // (7,0) -> (0,7): makespan = 7 S / B + 14 a.
    const double s = 1024.0 * 1024;
    Scenario scenario = wafer(8, 8);
    for (int y = 0; y < 8; ++y) {
        for (int x = 0; x < 8; ++x) {
            if (x != y) {
                scenario.traffic.push_back(
                    p2p("f" + std::to_string(x + 8 * y), x + 8 * y, transposeOf(8, x, y), s));
            }
        }
    }
    EXPECT_TIME(run(scenario).result.makespanS, 7 * s / kB + 14 * kA);
}

// Store-and-forward of m chunks over h hops with zero latency: chunk c crosses hop j after it
// crossed hop j-1 and after chunk c-1 left hop j: (m + h - 1) S / B.
TEST(ClosedForm, StoreAndForwardPipeline) {
    const int m = 5;
    const int h = 4;
    const double s = 2.0 * 1024 * 1024;
    Scenario scenario = wafer(1, h + 1, 0.0);
    const auto id = [](int chunk, int hop) {
        return "c" + std::to_string(chunk) + "h" + std::to_string(hop);
    };
    for (int c = 0; c < m; ++c) {
        for (int j = 0; j < h; ++j) {
            std::vector<std::string> after;
            if (j > 0) {
                after.push_back(id(c, j - 1));
            }
            if (c > 0) {
                after.push_back(id(c - 1, j));
            }
            scenario.traffic.push_back(p2p(id(c, j), j, j + 1, s, after));
        }
    }
    EXPECT_TIME(run(scenario).result.makespanS, (m + h - 1) * s / kB);
}

// The same ring in the store-and-forward model (docs/network-model.md section 10), each rank's n/p
// bytes cut into m = 4 chunks of C: a one-hop step takes m C / B + a and the wrap-around (p - 1
// hops) takes (m + p - 2) C / B + (p - 1) a; the longest chain crosses the wrap-around once:
// ((p-1)/p) n/B + (p-2) C/B + (2p-3) a, the fluid time plus p - 2 chunk times.
TEST(ClosedForm, StoreAndForwardRingAllGatherOnALine) {
    for (const int p : {3, 4, 8}) {
        Scenario scenario = wafer(1, p);
        const double chunk = kN / p / 4;
        scenario.network = NetworkSpec{NetworkModel::StoreAndForward, Quantity{chunk, ""}, {}};
        scenario.traffic.push_back(collective("ag", OpKind::AllGather, line(p), kN));
        const double expected = (p - 1.0) / p * kN / kB + (p - 2) * chunk / kB + (2 * p - 3) * kA;
        EXPECT_TIME(run(scenario).result.makespanS, expected) << "p = " << p;
    }
}

// With messages of one chunk, a transfer over n - 1 hops costs n - 1 one-hop transfers in the
// store-and-forward model (every die waits for the whole message), while in the fluid model only
// the per-hop latency grows: the tail latency of a ring laid on a line that TATP's relay avoids.
TEST(ClosedForm, StoreAndForwardWrapAroundCostsHopsTimesAOneHopTransfer) {
    const int n = 8;
    const double s = 16.0 * 1024 * 1024;
    for (const NetworkModel model : {NetworkModel::StoreAndForward, NetworkModel::Fluid}) {
        Scenario scenario = wafer(1, n);
        scenario.network = NetworkSpec{model, Quantity{s, ""}, {}};
        scenario.traffic.push_back(p2p("wrap", n - 1, 0, s));
        Scenario oneHop = scenario;
        oneHop.traffic = {p2p("next", 0, 1, s)};
        const double ratio = run(scenario).result.makespanS / run(oneHop).result.makespanS;
        if (model == NetworkModel::StoreAndForward)
            EXPECT_NEAR(ratio, n - 1, 1e-9);
        else // (S/B + (n-1) a) / (S/B + a): only the latency grows with the hops
            EXPECT_NEAR(ratio, (s / kB + (n - 1) * kA) / (s / kB + kA), 1e-9);
    }
}

// A transfer split in two halves (`split`: 2) over two disjoint paths of a 2x2 mesh,
// 0 -> 1 -> 3 and 0 -> 2 -> 3, takes n / 2B + 2a; the whole one, or both halves on one path,
// n / B + 2a. Store-and-forward, chunks of C = n / 4: each half is 2 chunks pipelined over
// 2 hops, (2 + 2 - 1) C / B + 2a.
TEST(ClosedForm, SplitTransferOverTwoDisjointPaths) {
    Scenario whole = wafer(2, 2);
    whole.traffic.push_back(p2p("p", 0, 3, kN));
    EXPECT_TIME(run(whole).result.makespanS, kN / kB + 2 * kA);

    Scenario split = whole;
    split.traffic[0].split = 2;
    EXPECT_TIME(run(split).result.makespanS, kN / kB + 2 * kA); // both halves on the XY path
    split.routing = RoutingSpec{};
    split.routing->paths["p/p0"] = PinnedRoute{{0, 1, 3}, {}};
    split.routing->paths["p/p1"] = PinnedRoute{{0, 2, 3}, {}};
    const PlannedRun r = run(split);
    EXPECT_TIME(r.result.makespanS, kN / (2 * kB) + 2 * kA);
    EXPECT_EQ(r.plan.flows.size(), 2u);
    for (const double bytes : r.result.linkBytes)
        EXPECT_TRUE(bytes == 0.0 || bytes == kN / 2);

    split.network = NetworkSpec{NetworkModel::StoreAndForward, Quantity{kN / 4, ""}, {}};
    EXPECT_TIME(run(split).result.makespanS, 3 * (kN / 4) / kB + 2 * kA);
}

// A split changes nothing by itself: a multicast all-gather split in two, both halves of each
// shard left on the routing mode's tree, loads every link as the whole one does and ends with it.
TEST(ClosedForm, SplitMulticastOnTheSameTreesIsTheWholeMulticast) {
    Scenario scenario = wafer(2, 2);
    TrafficOp op = collective("ag", OpKind::AllGather, {0, 1, 3, 2}, kN);
    op.algorithm = Algorithm::Multicast;
    op.split = 2;
    scenario.traffic.push_back(op);
    const PlannedRun r = run(scenario);
    EXPECT_EQ(r.plan.flows.size(), 8u); // 4 trees, twice
    Scenario whole = scenario;
    whole.traffic[0].split = 1;
    const PlannedRun w = run(whole);
    EXPECT_TIME(r.result.makespanS, w.result.makespanS);
    EXPECT_EQ(r.result.linkBytes, w.result.linkBytes);
}

} // namespace
} // namespace ws
