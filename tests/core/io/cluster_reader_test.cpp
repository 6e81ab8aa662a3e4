// The `cluster` key (docs/file-format.md): nodes of GPUs read in place of
// `wafer`, presets with their overrides, written back exactly, and each problem an error naming
// its key.

#include "io/scenario_io.h"
#include "io/scenario_writer.h"
#include "scenario/cluster_presets.h"

#include "io/error_case.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ws {
namespace {

const std::string kCluster = R"("cluster": {
    "nodes": 2, "gpus_per_node": 4,
    "gpu": {"peak_flops": "312 TFLOP/s", "hbm": "80 GB", "hbm_bandwidth": "2 TB/s"},
    "intra": {"bandwidth": "300 GB/s", "latency": "1 us"},
    "inter": {"kind": "fat_tree", "nic_bandwidth": "25 GB/s", "latency": "2 us",
              "oversubscription": 2, "nodes_per_leaf": 1}})";

std::string document(const std::string& cluster, const std::string& fragment = "") {
    return "{" + cluster + (fragment.empty() ? "" : ", " + fragment) + "}";
}

ScenarioError errorFor(const std::string& text) {
    try {
        parseScenario(text);
    } catch (const ScenarioError& error) {
        return error;
    }
    ADD_FAILURE() << "accepted: " << text;
    return ScenarioError("<none>", "<none>");
}

TEST(ClusterReader, ReadsEveryKeyIntoTheClusterAndItsGridOfGpus) {
    const Scenario scenario = parseScenario(document(kCluster));
    ASSERT_TRUE(scenario.cluster);
    const ClusterSpec& cluster = *scenario.cluster;
    EXPECT_FALSE(cluster.preset);
    EXPECT_EQ(cluster.network, ClusterNetwork::FatTree);
    EXPECT_EQ(cluster.nicBandwidth, (Quantity{25e9, "25 GB/s"}));
    EXPECT_EQ(cluster.interLatency, (Quantity{2e-6, "2 us"}));
    EXPECT_EQ(cluster.oversubscription, 2.0);
    EXPECT_EQ(cluster.nodesPerLeaf, 1);
    EXPECT_EQ(scenario.wafer.rows, 2);
    EXPECT_EQ(scenario.wafer.cols, 4);
    EXPECT_EQ(scenario.wafer.die.peakFlops.value, 312e12);
    EXPECT_EQ(scenario.wafer.linkBandwidth, (Quantity{300e9, "300 GB/s"}));
    EXPECT_EQ(scenario.wafer.linkLatency, (Quantity{1e-6, "1 us"}));

    const TopologySpec spec = scenario.topologySpec();
    EXPECT_EQ(spec.kind, TopologyKind::Cluster);
    ASSERT_TRUE(spec.cluster);
    EXPECT_EQ(spec.cluster->network, ClusterNetwork::FatTree);
    // The uplink of a leaf: 1 node x 4 GPUs x 25 GB/s, halved by the oversubscription.
    EXPECT_EQ(scenario.linkSpeed(LinkTier::Uplink), (LinkSpeed{50e9, 2e-6}));
    EXPECT_EQ(scenario.linkSpeed(LinkTier::Nic), (LinkSpeed{25e9, 2e-6}));
    EXPECT_EQ(scenario.linkSpeed(LinkTier::NodeSwitch), (LinkSpeed{300e9, 1e-6}));
}

TEST(ClusterReader, APresetGivesEveryKeyAndTheFileOverridesIt) {
    const Scenario scenario =
        parseScenario(document(R"("cluster": {"preset": "dgx-a100-selene", "nodes": 8,
                                               "inter": {"latency": "3 us"}})"));
    const std::optional<ClusterPreset> selene = clusterPreset("dgx-a100-selene");
    ASSERT_TRUE(selene);
    EXPECT_EQ(scenario.cluster->preset, "dgx-a100-selene");
    EXPECT_EQ(scenario.wafer.rows, 8);
    EXPECT_EQ(scenario.wafer.cols, 8);
    EXPECT_EQ(scenario.wafer.die, selene->gpus.die);
    EXPECT_EQ(scenario.cluster->nicBandwidth, selene->cluster.nicBandwidth);
    EXPECT_EQ(scenario.cluster->interLatency.value, 3e-6);
    // Written back as the user wrote it: the name and the overrides only.
    EXPECT_EQ(toOrderedJson(scenario)["cluster"].dump(),
              R"({"preset":"dgx-a100-selene","nodes":8,"inter":{"latency":"3 us"}})");
    for (const std::string& name : clusterPresetNames()) {
        const Scenario preset =
            parseScenario(document(R"("cluster": {"preset": ")" + name + R"("})"));
        EXPECT_EQ(parseScenario(formatScenarioText(preset)), preset) << name;
        EXPECT_EQ(preset.dieCount(), 32) << name;
    }
}

TEST(ClusterReader, RoundTripsAndKeepsExtensions) {
    const std::vector<std::string> documents = {
        document(kCluster),
        document(R"("cluster": {"preset": "dgx-a100-selene", "nodes": 2,
                                "faults": {"dies": [3], "slow_dies": {"9": 0.5}}})",
                 R"("routing": {"paths": {"p": [0, 18, 8]}},
                    "traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 8, "bytes": "1 MB"}])"),
        document(R"("cluster": {"preset": "dgx-h100", "x-site": "lab",
                                "intra": {"x-gen": 4}, "inter": {"x-cable": "copper"}})",
                 R"("traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 31, "bytes": "1 MB"}])"),
    };
    for (const std::string& text : documents) {
        const Scenario first = parseScenario(text);
        ASSERT_TRUE(first.cluster) << text;
        EXPECT_EQ(parseScenario(formatScenarioText(first)), first) << formatScenarioText(first);
        EXPECT_EQ(toOrderedJson(first).count("wafer"), 0u);
    }
}

using test::ErrorCase;

class ClusterReaderError : public testing::TestWithParam<ErrorCase> {};

TEST_P(ClusterReaderError, NamesTheKeyAndTheProblem) {
    const ErrorCase& c = GetParam();
    const ScenarioError error = errorFor(c.text);
    EXPECT_EQ(error.keyPath(), c.keyPath) << error.what();
    EXPECT_NE(error.problem().find(c.phrase), std::string::npos) << error.what();
}

INSTANTIATE_TEST_SUITE_P(
    Keys, ClusterReaderError,
    testing::Values(
        ErrorCase{"wafer and cluster", document(kCluster, R"("wafer": {"rows": 2, "cols": 2})"),
                  "cluster", "a wafer or a cluster, not both"},
        ErrorCase{"system on a cluster",
                  document(kCluster, R"("system": {"wafers": [1, 2], "link_bandwidth": 1e9,
                                                   "link_latency": 1e-6})"),
                  "system", "cluster.inter"},
        ErrorCase{"unknown preset", document(R"("cluster": {"preset": "dgx-a100-selen"})"),
                  "cluster.preset", "did you mean 'dgx-a100-selene'"},
        ErrorCase{"nodes missing", document(R"("cluster": {"gpus_per_node": 8})"), "cluster.nodes",
                  "required key 'nodes' is missing"},
        ErrorCase{"nodes zero", document(R"("cluster": {"preset": "dgx-h100", "nodes": 0})"),
                  "cluster.nodes", "must be 1 to 256, got 0"},
        ErrorCase{"unknown inter kind",
                  document(R"("cluster": {"preset": "dgx-h100", "inter": {"kind": "torus"}})"),
                  "cluster.inter.kind", "unknown inter-node network 'torus'"},
        ErrorCase{"oversubscribed rails", document(R"("cluster": {"preset": "dgx-h100",
                                          "inter": {"oversubscription": 2}})"),
                  "cluster.inter.oversubscription", "applies to a fat tree only"},
        ErrorCase{"oversubscription below one", document(R"("cluster": {"preset": "dgx-h100",
                                          "inter": {"kind": "fat_tree", "oversubscription": 0.5}})"),
                  "cluster.inter.oversubscription", "must be 1 (non-blocking) to 64"},
        ErrorCase{"leaves do not divide the nodes",
                  document(R"("cluster": {"preset": "dgx-h100", "nodes": 6,
                                          "inter": {"kind": "fat_tree", "nodes_per_leaf": 4}})"),
                  "cluster.inter.nodes_per_leaf", "do not divide the 6 nodes"},
        ErrorCase{"intra bandwidth zero",
                  document(R"("cluster": {"preset": "dgx-h100", "intra": {"bandwidth": 0}})"),
                  "cluster.intra.bandwidth", "must be"},
        ErrorCase{"a link fault between GPUs",
                  document(R"("cluster": {"preset": "dgx-h100", "faults": {"links": ["0-1"]}})"),
                  "cluster.faults.links[0]", "not neighbours"},
        ErrorCase{"a pinned path beyond the switches",
                  document(R"("cluster": {"preset": "dgx-h100", "nodes": 1})",
                           R"("traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 1,
                                           "bytes": "1 MB"}],
                              "routing": {"paths": {"p": [0, 99, 1]}})"),
                  "routing.paths.p[1]", "switches 8 to 16"},
        ErrorCase{"a wafer topology named cluster",
                  R"({"wafer": {"rows": 2, "cols": 2, "topology": "cluster"}})", "wafer.topology",
                  "top-level `cluster` key"},
        ErrorCase{"traffic beyond the GPUs",
                  document(kCluster,
                           R"("traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 8,
                                           "bytes": "1 MB"}])"),
                  "traffic[0].dst", "out of range (this cluster"}),
    test::errorCaseName<testing::TestParamInfo<ErrorCase>>);

} // namespace
} // namespace ws
