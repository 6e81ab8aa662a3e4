// docs/network-model.md section 4.8: a collective's protocol, chosen as NCCL's tuner chooses, and
// what it does to the collective's time in the simulator, against closed forms.
#include "collectives/protocol_choice.h"
#include "collectives/traffic_plan.h"
#include "sim/fluid_simulator.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

constexpr double kB = 300e9;  // bytes/s: one GPU's NVLink, each way
constexpr double kA = 1e-6;   // s per link: a GPU-to-GPU step crosses two
constexpr double kLl = 10e-6; // the three protocols: (latency, efficiency)
constexpr double kLl128 = 20e-6;
constexpr double kSimple = 60e-6;
const std::vector<CollectiveProtocol> kProtocols = {
    {"LL", kLl, 0.25}, {"LL128", kLl128, 0.5}, {"Simple", kSimple, 0.8}};

// The fastest is the least L + busBytes / (e B): LL for small buffers, Simple for large ones,
// LL128 between, switching where two lines cross.
TEST(Protocols, TheFastestForTheSizeIsChosen) {
    const auto chosen = [](double bytes) {
        return chooseProtocol(kProtocols, OpKind::AllReduce, 8, bytes, kB).name;
    };
    const double bus = 2.0 * 7 / 8; // bus bytes per buffer byte, all-reduce over 8
    // LL and LL128 cross where 10 us + S/(0.25 B) = 20 us + S/(0.5 B): S = 10 us x 0.5 B.
    const double llToLl128 = 10e-6 * 0.5 * kB / bus;
    // LL128 and Simple: 40 us = S (1/(0.5 B) - 1/(0.8 B)) = S 0.75 / B.
    const double ll128ToSimple = 40e-6 * kB / 0.75 / bus;
    EXPECT_EQ(chosen(1024), "LL");
    EXPECT_EQ(chosen(llToLl128 * 0.99), "LL");
    EXPECT_EQ(chosen(llToLl128 * 1.01), "LL128");
    EXPECT_EQ(chosen(ll128ToSimple * 0.99), "LL128");
    EXPECT_EQ(chosen(ll128ToSimple * 1.01), "Simple");
    EXPECT_EQ(chosen(8e9), "Simple");
    const ProtocolChoice none = chooseProtocol({}, OpKind::AllReduce, 8, 1e6, kB);
    EXPECT_EQ(none.latencyS, 0.0);
    EXPECT_EQ(none.efficiency, 1.0);
    EXPECT_DOUBLE_EQ(busBytes(OpKind::AllGather, 4, 400.0), 300.0);
    EXPECT_DOUBLE_EQ(busBytes(OpKind::P2P, 2, 400.0), 400.0);
}

// A ring all-reduce over the 8 GPUs of one node, in each protocol's range, takes the closed
// form the presets are fitted with: 2 (P - 1) x 2 a + L + 2 (P - 1)/P N / (e B).
TEST(Protocols, RingAllReduceInOneNodeIsTheClosedFormOfTheChosenProtocol) {
    for (const auto& [bytes, latency, efficiency] :
         {std::tuple{4096.0, kLl, 0.25}, std::tuple{2e6, kLl128, 0.5},
          std::tuple{1e9, kSimple, 0.8}}) {
        Scenario scenario;
        scenario.wafer.rows = 1;
        scenario.wafer.cols = 8;
        scenario.wafer.linkBandwidth = {kB, "300 GB/s"};
        scenario.wafer.linkLatency = {kA, "1 us"};
        scenario.cluster = ClusterSpec{};
        scenario.wafer.protocols = {
            {"LL", {kLl, ""}, 0.25, std::nullopt},
            {"LL128", {kLl128, ""}, 0.5, std::nullopt},
            {"Simple", {kSimple, ""}, std::nullopt, Quantity{0.8 * kB, ""}}};
        TrafficOp op;
        op.id = "ar";
        op.kind = OpKind::AllReduce;
        op.group = {0, 1, 2, 3, 4, 5, 6, 7};
        op.bytes = {bytes, ""};
        scenario.traffic = {op};
        const WaferTopology topology(scenario.topologySpec());
        const TrafficPlan plan = planTraffic(scenario, topology);
        const double expected = 2 * 7 * 2 * kA + latency + 2.0 * 7 / 8 * bytes / (efficiency * kB);
        EXPECT_NEAR(simulate(plan.problem).makespanS, expected, 1e-9 * expected) << bytes;
        // On the wire: the bytes / efficiency, every step's flow on its two links.
        EXPECT_NEAR(plan.flows.front().bytes, bytes / 8 / efficiency, 1e-6);
    }
}

// A group inside one node uses the node switch's protocols, one that spans nodes the network's;
// on a system of wafers, the off-wafer links' when it spans wafers.
TEST(Protocols, AGroupUsesTheSlowestTierItSpans) {
    TopologySpec cluster;
    cluster.rows = 2;
    cluster.cols = 4;
    cluster.kind = TopologyKind::Cluster;
    cluster.cluster = ClusterTopologySpec{};
    const WaferTopology nodes(cluster);
    EXPECT_EQ(protocolTierOf(nodes, {0, 1, 2, 3}), LinkTier::NodeSwitch);
    EXPECT_EQ(protocolTierOf(nodes, {0, 4}), LinkTier::Nic);
    TopologySpec system;
    system.rows = 2;
    system.cols = 4;
    system.waferRows = 2;
    system.waferCols = 2;
    const WaferTopology wafers(system);
    EXPECT_EQ(protocolTierOf(wafers, {0, 1}), LinkTier::Wafer);
    EXPECT_EQ(protocolTierOf(wafers, {1, 2}), LinkTier::OffWafer);
    TierProtocols tiers;
    tiers.network = kProtocols;
    EXPECT_EQ(&tiers.of(LinkTier::Uplink), &tiers.network);
    EXPECT_EQ(&tiers.of(LinkTier::NodeSwitch), &tiers.wafer);
}

} // namespace
} // namespace ws
