// ClusterRouting (docs/network-model.md section 12): the fewest-hop routes of a cluster, the same
// in every routing mode: through the node switch inside a node, through the source's rail (then the
// destination node's switch) on a rail network, up to the spine only between leaves of a fat tree.

#include "routing/router.h"

#include <gtest/gtest.h>

#include <vector>

namespace ws {
namespace {

WaferTopology cluster(int nodes, int gpus, ClusterNetwork network, int nodesPerLeaf = 1,
                      std::vector<DieId> dead = {}) {
    TopologySpec spec;
    spec.rows = nodes;
    spec.cols = gpus;
    spec.kind = TopologyKind::Cluster;
    spec.cluster = ClusterTopologySpec{network, nodesPerLeaf};
    spec.deadDies = std::move(dead);
    return WaferTopology(spec);
}

TEST(ClusterRouting, RailRoutesGoThroughTheNodeSwitchOrTheSourcesRail) {
    const WaferTopology topology = cluster(4, 8, ClusterNetwork::Rail);
    for (RoutingMode mode :
         {RoutingMode::XY, RoutingMode::YX, RoutingMode::Shortest, RoutingMode::Adaptive}) {
        const Router router(topology, mode);
        EXPECT_EQ(router.unicast(8, 15)->path, (std::vector<DieId>{8, topology.nodeSwitch(1), 15}));
        EXPECT_EQ(router.unicast(3, 27)->path, (std::vector<DieId>{3, topology.railSwitch(3), 27}));
        // GPU 3 of node 0 to GPU 4 of node 3: rail 3 to node 3's GPU 3, then its node switch.
        const auto route = router.unicast(3, 28);
        ASSERT_TRUE(route);
        EXPECT_EQ(route->path,
                  (std::vector<DieId>{3, topology.railSwitch(3), 27, topology.nodeSwitch(3), 28}));
        EXPECT_EQ(route->hops, 4);
        EXPECT_EQ(route->links.size(), 4u);
    }
}

TEST(ClusterRouting, FatTreeRoutesClimbToTheSpineOnlyBetweenLeaves) {
    const WaferTopology topology = cluster(4, 2, ClusterNetwork::FatTree, 2);
    const Router router(topology, RoutingMode::XY);
    EXPECT_EQ(router.unicast(0, 1)->path, (std::vector<DieId>{0, topology.nodeSwitch(0), 1}));
    EXPECT_EQ(router.unicast(0, 3)->path, (std::vector<DieId>{0, topology.leafSwitch(0), 3}));
    EXPECT_EQ(router.unicast(0, 5)->path,
              (std::vector<DieId>{0, topology.leafSwitch(0), topology.spineSwitch(),
                                  topology.leafSwitch(1), 5}));
}

// The rail route's landing GPU is dead: the Router detours by the fewest live hops (through the
// source's node switch to a live GPU of the destination's rail).
TEST(ClusterRouting, ADeadLandingGpuIsDetoured) {
    const WaferTopology topology = cluster(2, 4, ClusterNetwork::Rail, 1, {4});
    const Router router(topology, RoutingMode::XY);
    const auto route = router.unicast(0, 5);
    ASSERT_TRUE(route);
    EXPECT_EQ(route->path,
              (std::vector<DieId>{0, topology.nodeSwitch(0), 1, topology.railSwitch(1), 5}));
    // A multicast tree through switches reaches every GPU of the node.
    const auto tree = router.multicast(0, {1, 2, 3});
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->hops, 2);
    EXPECT_EQ(tree->links.size(), 4u); // up to the switch once, down to three GPUs
}

} // namespace
} // namespace ws
