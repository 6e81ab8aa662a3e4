#include "topology/wafer_topology.h"

#include <gtest/gtest.h>

#include <boost/graph/graph_traits.hpp>

namespace ws {
namespace {

TEST(WaferTopology, MeshLinkCountsAndIds) {
    const WaferTopology line({1, 3, TopologyKind::Mesh, {}, {}});
    ASSERT_EQ(line.linkCount(), 4);
    EXPECT_EQ(linkName(line.link(0)), "0->1");
    EXPECT_EQ(linkName(line.link(1)), "1->2");
    EXPECT_EQ(linkName(line.link(2)), "1->0");
    EXPECT_EQ(linkName(line.link(3)), "2->1");

    // A k x k mesh has 4 k (k - 1) directed links; the Boost graph has the same edges.
    const WaferTopology mesh({8, 8, TopologyKind::Mesh, {}, {}});
    EXPECT_EQ(mesh.linkCount(), 4 * 8 * 7);
    EXPECT_EQ(boost::num_edges(mesh.graph()), 4u * 8 * 7);
    EXPECT_EQ(boost::num_vertices(mesh.graph()), 64u);
}

TEST(WaferTopology, TorusWrapsAndAvoidsDoubleLinks) {
    const WaferTopology torus({4, 4, TopologyKind::Torus, {}, {}});
    EXPECT_EQ(torus.linkCount(), 4 * 16);
    EXPECT_TRUE(torus.linkBetween(3, 0).has_value());  // east wrap on row 0
    EXPECT_TRUE(torus.linkBetween(0, 12).has_value()); // north wrap on column 0
    EXPECT_EQ(torus.manhattanDistance(0, 15), 2);
    // On a torus of side 2, east and west reach the same die: one link, not two.
    const WaferTopology small({2, 2, TopologyKind::Torus, {}, {}});
    EXPECT_EQ(small.linkCount(), 8);
}

TEST(WaferTopology, CoordinatesAreRowMajor) {
    const WaferTopology wafer({6, 8, TopologyKind::Mesh, {}, {}});
    EXPECT_EQ(wafer.coord(13), (DieCoord{1, 5}));
    EXPECT_EQ(wafer.dieAt({5, 7}), 47);
    EXPECT_EQ(wafer.manhattanDistance(0, 47), 12);
    EXPECT_EQ(*wafer.neighbour(0, Direction::East), 1);
    EXPECT_EQ(*wafer.neighbour(0, Direction::South), 8);
    EXPECT_FALSE(wafer.neighbour(0, Direction::North).has_value());
}

TEST(WaferTopology, DeadDiesKillTheirLinks) {
    const WaferTopology wafer({4, 4, TopologyKind::Mesh, {5}, {{1, 2}}});
    EXPECT_FALSE(wafer.isAlive(5));
    EXPECT_FALSE(wafer.link(*wafer.linkBetween(4, 5)).alive);
    EXPECT_FALSE(wafer.link(*wafer.linkBetween(5, 6)).alive);
    EXPECT_FALSE(wafer.link(*wafer.linkBetween(1, 2)).alive);
    EXPECT_TRUE(wafer.link(*wafer.linkBetween(2, 1)).alive); // the other direction lives
}

TEST(WaferTopology, RejectsBadSpecs) {
    EXPECT_THROW(WaferTopology({0, 4, TopologyKind::Mesh, {}, {}}), std::invalid_argument);
    EXPECT_THROW(WaferTopology({4, 257, TopologyKind::Mesh, {}, {}}), std::invalid_argument);
    EXPECT_THROW(WaferTopology({4, 4, TopologyKind::Mesh, {16}, {}}), std::invalid_argument);
    EXPECT_THROW(WaferTopology({4, 4, TopologyKind::Mesh, {}, {{0, 5}}}), std::invalid_argument);
}

} // namespace
} // namespace ws
