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

// docs/file-format.md `system`: a [1, 2] system of 4x4 wafers is a 4x8 grid, and die 4 is
// wafer 1's top left.
TEST(WaferTopology, SystemOfWafersIsOneGridWithOffWaferLinksBetweenWafers) {
    TopologySpec spec{4, 8, TopologyKind::Mesh, {}, {}};
    spec.waferRows = 4;
    spec.waferCols = 4;
    const WaferTopology all(spec);
    EXPECT_EQ(all.waferCount(), 2);
    EXPECT_EQ(all.waferOf(3), 0);
    EXPECT_EQ(all.waferOf(4), 1);
    EXPECT_EQ(all.waferOf(31), 1);
    // Each 4x4 wafer has 2 x 4 x 3 x 2 = 48 directed links; every one of the 4 row pairs of
    // the shared edge is joined both ways.
    EXPECT_EQ(all.linkCount(), 2 * 48 + 8);
    int offWafer = 0;
    for (const LinkProperties& link : all.links()) {
        offWafer += link.offWafer() ? 1 : 0;
        EXPECT_EQ(link.offWafer(), all.waferOf(link.from) != all.waferOf(link.to));
    }
    EXPECT_EQ(offWafer, 8);
}

// Of an edge of E = 4 pairs, K = 2 are joined, at floor((2i + 1) E / 2K) = rows 1 and 3.
TEST(WaferTopology, OnlyLinksPerEdgePairsOfAnEdgeAreJoinedSpreadEvenly) {
    TopologySpec spec{4, 8, TopologyKind::Mesh, {}, {}};
    spec.waferRows = 4;
    spec.waferCols = 4;
    spec.linksPerEdge = 2;
    const WaferTopology system(spec);
    EXPECT_EQ(system.linkCount(), 2 * 48 + 4);
    EXPECT_FALSE(system.linkBetween(3, 4).has_value()); // row 0: not joined
    EXPECT_TRUE(system.link(*system.linkBetween(11, 12)).offWafer());
    EXPECT_TRUE(system.linkBetween(12, 11).has_value());
    EXPECT_FALSE(system.linkBetween(19, 20).has_value()); // row 2
    EXPECT_TRUE(system.linkBetween(27, 28).has_value());
    EXPECT_EQ(system.neighbour(3, Direction::East), 4); // still the geometric neighbour

    // [2, 1] of 2x3 wafers, K = 1: the horizontal edge's middle column (dies 4 and 7).
    TopologySpec down{4, 3, TopologyKind::Mesh, {}, {}};
    down.waferRows = 2;
    down.waferCols = 3;
    down.linksPerEdge = 1;
    const WaferTopology stacked(down);
    EXPECT_TRUE(stacked.linkBetween(4, 7).has_value());
    EXPECT_FALSE(stacked.linkBetween(3, 6).has_value());
    EXPECT_FALSE(stacked.linkBetween(5, 8).has_value());
}

TEST(WaferTopology, RejectsBadSystems) {
    TopologySpec spec{4, 8, TopologyKind::Mesh, {}, {}};
    spec.waferRows = 4;
    spec.waferCols = 3; // does not tile 8 columns
    EXPECT_THROW(WaferTopology{spec}, std::invalid_argument);
    spec.waferCols = 4;
    spec.linksPerEdge = 5; // the shared edge has 4 pairs
    EXPECT_THROW(WaferTopology{spec}, std::invalid_argument);
    spec.linksPerEdge = 1;
    spec.deadLinks = {{3, 4}}; // a pair no off-wafer link joins
    EXPECT_THROW(WaferTopology{spec}, std::invalid_argument);
    spec.deadLinks.clear();
    spec.kind = TopologyKind::Torus;
    EXPECT_THROW(WaferTopology{spec}, std::invalid_argument);
}

} // namespace
} // namespace ws
