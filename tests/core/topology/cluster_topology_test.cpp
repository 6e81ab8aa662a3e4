// A cluster as a topology (docs/network-model.md section 12): GPUs numbered node-major, switches as
// vertices after them, links only between a GPU and a switch (or a leaf and the spine), hop
// distances and the fixed routes of ClusterRouting.

#include "topology/wafer_topology.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace ws {
namespace {

WaferTopology cluster(int nodes, int gpus, ClusterNetwork network, int nodesPerLeaf = 1) {
    TopologySpec spec;
    spec.rows = nodes;
    spec.cols = gpus;
    spec.kind = TopologyKind::Cluster;
    spec.cluster = ClusterTopologySpec{network, nodesPerLeaf};
    return WaferTopology(spec);
}

long linksOfTier(const WaferTopology& topology, LinkTier tier) {
    return std::count_if(topology.links().begin(), topology.links().end(),
                         [&](const LinkProperties& link) { return link.tier == tier; });
}

// 4 nodes x 8 GPUs on rails: 32 GPUs, 4 node switches and 8 rail switches; each GPU has one
// link each way to its node switch and to its rail: 32 x 2 x 2 = 128 links.
TEST(ClusterTopology, RailNetworkJoinsEachGpuToItsNodeSwitchAndItsRail) {
    const WaferTopology topology = cluster(4, 8, ClusterNetwork::Rail);
    EXPECT_TRUE(topology.isCluster());
    EXPECT_EQ(topology.dieCount(), 32);
    EXPECT_EQ(topology.vertexCount(), 32 + 4 + 8);
    EXPECT_EQ(topology.linkCount(), 128);
    EXPECT_EQ(linksOfTier(topology, LinkTier::NodeSwitch), 64);
    EXPECT_EQ(linksOfTier(topology, LinkTier::Nic), 64);
    for (const LinkProperties& link : topology.links()) {
        EXPECT_NE(topology.isSwitch(link.from), topology.isSwitch(link.to)) << linkName(link);
        EXPECT_FALSE(link.offWafer());
    }
    // GPU 11 is GPU 3 of node 1: node switch 1 (vertex 33), rail 3 (vertex 36 + 3).
    EXPECT_EQ(topology.coord(11), (DieCoord{1, 3}));
    EXPECT_TRUE(topology.linkBetween(11, topology.nodeSwitch(1)));
    EXPECT_TRUE(topology.linkBetween(topology.railSwitch(3), 11));
    EXPECT_FALSE(topology.linkBetween(11, 12));
    EXPECT_EQ(topology.nodeSwitch(1), 33);
    EXPECT_EQ(topology.railSwitch(3), 39);
    EXPECT_EQ(topology.vertexName(33), "node 1 switch");
    EXPECT_EQ(topology.vertexName(39), "rail 3");
    EXPECT_EQ(linkName(topology, topology.link(*topology.linkBetween(11, 33))),
              "11->node 1 switch");
    EXPECT_FALSE(topology.neighbour(11, Direction::East));
    // Hops: inside a node 2, on one rail 2, otherwise 4 (through the own rail, then the node).
    EXPECT_EQ(topology.manhattanDistance(8, 15), 2);
    EXPECT_EQ(topology.manhattanDistance(3, 27), 2);
    EXPECT_EQ(topology.manhattanDistance(3, 28), 4);
    EXPECT_EQ(topology.manhattanDistance(3, 3), 0);
}

// 4 nodes of 2 GPUs, 2 nodes per leaf: 2 leaves and a spine; each leaf's uplink is one link
// each way to the spine.
TEST(ClusterTopology, FatTreeHasLeavesUnderOneSpine) {
    const WaferTopology topology = cluster(4, 2, ClusterNetwork::FatTree, 2);
    EXPECT_EQ(topology.leafCount(), 2);
    EXPECT_EQ(topology.vertexCount(), 8 + 4 + 2 + 1);
    EXPECT_EQ(topology.switchKind(topology.leafSwitch(1)), SwitchKind::Leaf);
    EXPECT_EQ(topology.switchKind(topology.spineSwitch()), SwitchKind::Spine);
    EXPECT_EQ(topology.vertexName(topology.spineSwitch()), "spine");
    EXPECT_EQ(linksOfTier(topology, LinkTier::Uplink), 4);
    EXPECT_EQ(linksOfTier(topology, LinkTier::Nic), 16);
    EXPECT_EQ(topology.leafOf(3), 0); // node 1
    EXPECT_EQ(topology.leafOf(4), 1); // node 2
    EXPECT_EQ(topology.manhattanDistance(0, 3), 2);
    EXPECT_EQ(topology.manhattanDistance(0, 4), 4);
    // One leaf: no spine.
    const WaferTopology small = cluster(2, 2, ClusterNetwork::FatTree, 2);
    EXPECT_EQ(small.vertexCount(), 4 + 2 + 1);
    EXPECT_EQ(linksOfTier(small, LinkTier::Uplink), 0);
    EXPECT_EQ(small.manhattanDistance(0, 3), 2);
}

TEST(ClusterTopology, ADeadGpuKillsItsLinksButNoSwitch) {
    TopologySpec spec;
    spec.rows = 2;
    spec.cols = 2;
    spec.kind = TopologyKind::Cluster;
    spec.cluster = ClusterTopologySpec{};
    spec.deadDies = {1};
    const WaferTopology topology(spec);
    for (const LinkProperties& link : topology.links())
        EXPECT_EQ(link.alive, link.from != 1 && link.to != 1) << linkName(topology, link);
    EXPECT_TRUE(topology.isLiveVertex(topology.nodeSwitch(0)));
    EXPECT_FALSE(topology.isLiveVertex(1));
}

TEST(ClusterTopology, RefusesAClusterWithoutItsSpecOrWithWafers) {
    TopologySpec spec;
    spec.kind = TopologyKind::Cluster;
    EXPECT_THROW(WaferTopology{spec}, std::invalid_argument);
    spec.cluster = ClusterTopologySpec{ClusterNetwork::FatTree, 0};
    EXPECT_THROW(WaferTopology{spec}, std::invalid_argument);
    TopologySpec mesh;
    mesh.cluster = ClusterTopologySpec{};
    EXPECT_THROW(WaferTopology{mesh}, std::invalid_argument);
}

} // namespace
} // namespace ws
