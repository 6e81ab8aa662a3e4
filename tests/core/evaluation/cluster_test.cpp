// GPU clusters and TPU pods (docs/network-model.md) through the one pipeline,
// against closed forms: a ring all-reduce inside one node, an all-gather across nodes
// bottlenecked by the network cards, a fat tree's oversubscription halving its cross-leaf
// bandwidth, the ring all-gather on one axis of a TPU pod's torus, store-and-forward through a
// switch; and a training step placing TP inside a node.
#include "evaluation/scenario_run.h"

#include "io/scenario_io.h"
#include "report/simulation_report.h"
#include "strategy/placement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace ws {
namespace {

constexpr double kIntraB = 300e9; // bytes/s per GPU per direction through the node switch
constexpr double kIntraA = 1e-6;  // s per link of the node switch
constexpr double kNicB = 25e9;    // bytes/s per GPU network card
constexpr double kInterA = 2e-6;  // s per link of the inter-node network
constexpr double kN = 1e9;        // bytes, the collective's whole buffer

double tol(double expected) {
    return 1e-9 * std::abs(expected);
}
#define EXPECT_TIME(actual, expected) EXPECT_NEAR((actual), (expected), tol(expected))

// `nodes` x `gpus` at the speeds above.
Scenario cluster(int nodes, int gpus, const std::string& inter = R"("kind": "rail")") {
    return parseScenario(R"({"cluster": {"nodes": )" + std::to_string(nodes) +
                         R"(, "gpus_per_node": )" + std::to_string(gpus) +
                         R"(, "gpu": {}, "intra": {"bandwidth": 300e9, "latency": 1e-6},
                              "inter": {"nic_bandwidth": 25e9, "latency": 2e-6, )" +
                         inter + "}}}");
}

TrafficOp collective(OpKind kind, std::vector<DieId> group, double bytes) {
    TrafficOp op;
    op.id = "op";
    op.kind = kind;
    op.group = std::move(group);
    op.bytes = Quantity{bytes, ""};
    op.algorithm = Algorithm::Ring;
    return op;
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

SimulationReport report(const Scenario& scenario) {
    return simulateScenarioReport(scenario, RunOptions{});
}

// Ring all-reduce of N over the P = 8 GPUs of a node: 2 (P - 1) steps of N / P bytes, each
// GPU -> switch -> GPU (two links of latency a): 2 (P - 1) / P * N / B + 2 (P - 1) * 2a.
TEST(Cluster, RingAllReduceInsideOneNode) {
    Scenario scenario = cluster(2, 8);
    scenario.traffic = {collective(OpKind::AllReduce, {0, 1, 2, 3, 4, 5, 6, 7}, kN)};
    const SimulationReport fluid = report(scenario);
    const double p = 8;
    EXPECT_TIME(fluid.makespanS, 2 * (p - 1) / p * kN / kIntraB + 2 * (p - 1) * 2 * kIntraA);
    for (const LinkReport& link : fluid.links) { // nothing crosses a network card
        if (link.bytes > 0) {
            EXPECT_TRUE(link.from < 8 || link.to < 8) << link.id;
            EXPECT_TRUE(link.from == 16 || link.to == 16) << link.id; // node 0's switch
        }
    }
}

// Ring all-gather over GPU g of each of P = 4 nodes: every step crosses a network card (rail
// g, two links of latency a_inter): (P - 1) / P * N / B_nic + (P - 1) * 2 a_inter. On GPUs of
// different rails (0, 9, 18, 27) each step also crosses the destination node's switch (rail of
// the source, then NVSwitch): + (P - 1) * 2 a_intra, still at the NIC's bandwidth.
TEST(Cluster, AllGatherAcrossNodesIsBottleneckedByTheNetworkCards) {
    const double p = 4;
    Scenario scenario = cluster(4, 8);
    scenario.traffic = {collective(OpKind::AllGather, {0, 8, 16, 24}, kN)};
    EXPECT_TIME(report(scenario).makespanS, (p - 1) / p * kN / kNicB + (p - 1) * 2 * kInterA);
    scenario.traffic = {collective(OpKind::AllGather, {0, 9, 18, 27}, kN)};
    EXPECT_TIME(report(scenario).makespanS,
                (p - 1) / p * kN / kNicB + (p - 1) * 2 * (kInterA + kIntraA));
}

// A fat tree of 2 nodes of 8 GPUs, one node per leaf: all 8 GPUs of node 0 send S to their
// peers of node 1 at once, through leaf 0, the spine and leaf 1. Non-blocking, the leaf's uplink
// carries 8 NICs' worth and each flow runs at B_nic; oversubscribed 2:1 it carries half, and
// each flow at B_nic / 2 takes twice as long.
TEST(Cluster, OversubscriptionHalvesAFatTreesCrossLeafBandwidth) {
    const double s = 1e8;
    for (const double oversubscription : {1.0, 2.0}) {
        Scenario scenario =
            cluster(2, 8,
                    R"("kind": "fat_tree", "nodes_per_leaf": 1, "oversubscription": )" +
                        std::to_string(oversubscription));
        for (DieId g = 0; g < 8; ++g)
            scenario.traffic.push_back(p2p("p" + std::to_string(g), g, 8 + g, s));
        EXPECT_TIME(report(scenario).makespanS, oversubscription * s / kNicB + 4 * kInterA)
            << oversubscription;
    }
}

// A TPU v5e pod (16 x 16 torus, 50 GB/s and 1 us per link): a ring all-gather over one row of
// P = 16 chips uses the wrap-around link, so every step is one hop:
// (P - 1) / P * N / B + (P - 1) a, at the line rate (no protocol: docs/network-model.md 4.8).
TEST(Cluster, TorusAllGatherOnATpuPodAxis) {
    Scenario scenario = parseScenario(R"({"wafer": {"preset": "tpu-v5e-pod", "protocols": []}})");
    std::vector<DieId> row;
    for (DieId chip = 0; chip < 16; ++chip)
        row.push_back(chip);
    scenario.traffic = {collective(OpKind::AllGather, row, kN)};
    const double p = 16;
    EXPECT_TIME(report(scenario).makespanS, (p - 1) / p * kN / 50e9 + (p - 1) * 1e-6);
}

// Store-and-forward through the node switch: m chunks over h = 2 hops of equal bandwidth,
// (m + h - 1) C / B + h a (docs/network-model.md section 10): the switch holds each chunk until it
// has arrived.
TEST(Cluster, StoreAndForwardThroughTheNodeSwitch) {
    Scenario scenario = cluster(1, 2);
    scenario.traffic = {p2p("p", 0, 1, 64e6)};
    NetworkSpec network;
    network.model = NetworkModel::StoreAndForward;
    network.chunk = Quantity{1e6, "1 MB"};
    scenario.network = network;
    EXPECT_TIME(report(scenario).makespanS, (64 + 2 - 1) * 1e6 / kIntraB + 2 * kIntraA);
}

// A training step of TP 8 x DP 2 on 2 nodes of 8: the mapping puts each TP group in one node,
// so its all-reduces never touch a network card; only the data-parallel gradient sync does.
// Metamorphic: a faster network never slows the step.
TEST(Cluster, TrainingStepKeepsTensorParallelismInsideANode) {
    Scenario scenario = cluster(2, 8);
    scenario.workload = parseScenario(R"({"wafer": {"rows": 1, "cols": 1},
        "workload": {"kind": "transformer", "model": "gpt3-6.7b", "seq_len": 2048,
                     "global_batch": 16}})")
                            .workload;
    StrategySpec strategy;
    strategy.dp = 2;
    strategy.tp = 8;
    scenario.strategy = strategy;
    const WaferTopology topology(scenario.topologySpec());
    const Placement placement = placeStrategy(strategy, topology);
    for (const std::vector<DieId>& group : placement.groups(GroupKind::TP))
        for (DieId gpu : group)
            EXPECT_EQ(topology.coord(gpu).row, topology.coord(group.front()).row);
    // pp 2: each stage one node.
    StrategySpec pipelined = strategy;
    pipelined.dp = 1;
    pipelined.pp = 2;
    const Placement stages = placeStrategy(pipelined, topology);
    for (DieId gpu : stages.stageDies(1))
        EXPECT_EQ(topology.coord(gpu).row, 1);
    const SimulationReport run = report(scenario);
    ASSERT_TRUE(run.step);
    EXPECT_GT(run.step->stepS, 0.0);
    double previous = run.step->stepS;
    for (const double nic : {50e9, 100e9, 400e9}) {
        scenario.cluster->nicBandwidth = Quantity{nic, ""};
        const double stepS = report(scenario).step->stepS;
        EXPECT_LE(stepS, previous * (1 + 1e-12)) << nic;
        previous = stepS;
    }
}

} // namespace
} // namespace ws
