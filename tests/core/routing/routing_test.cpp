#include "routing/adaptive_routing.h"
#include "routing/router.h"
#include "routing/shortest_routing.h"
#include "routing/xy_routing.h"
#include "routing/yx_routing.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ws {
namespace {

using Path = std::vector<DieId>;
using Edges = std::vector<std::pair<DieId, DieId>>;

WaferTopology mesh(int rows, int cols, std::vector<DieId> deadDies = {},
                   std::vector<std::pair<DieId, DieId>> deadLinks = {}) {
    return WaferTopology(
        TopologySpec{rows, cols, TopologyKind::Mesh, std::move(deadDies), std::move(deadLinks)});
}

WaferTopology torus(int rows, int cols) {
    return WaferTopology(TopologySpec{rows, cols, TopologyKind::Torus, {}, {}});
}

std::vector<double> loadsOn(const WaferTopology& topology,
                            const std::vector<std::pair<std::pair<DieId, DieId>, double>>& loads) {
    std::vector<double> result(static_cast<std::size_t>(topology.linkCount()), 0.0);
    for (const auto& [link, bytes] : loads)
        result[static_cast<std::size_t>(*topology.linkBetween(link.first, link.second))] = bytes;
    return result;
}

TEST(XyRouting, GoesAlongTheRowThenTheColumn) {
    const auto topology = mesh(4, 4);
    EXPECT_EQ(XyRouting().path(topology, 1, 14, {}), (Path{1, 2, 6, 10, 14}));
    EXPECT_EQ(XyRouting().path(topology, 15, 0, {}), (Path{15, 14, 13, 12, 8, 4, 0}));
    EXPECT_EQ(XyRouting().path(topology, 5, 5, {}), (Path{5}));
}

TEST(YxRouting, GoesAlongTheColumnThenTheRow) {
    const auto topology = mesh(4, 4);
    EXPECT_EQ(YxRouting().path(topology, 1, 14, {}), (Path{1, 5, 9, 13, 14}));
    EXPECT_EQ(YxRouting().path(topology, 15, 0, {}), (Path{15, 11, 7, 3, 2, 1, 0}));
}

TEST(XyRouting, TakesTheShorterWayRoundATorusAndThePositiveWayOnATie) {
    const auto topology = torus(4, 4);
    EXPECT_EQ(XyRouting().path(topology, 0, 3, {}), (Path{0, 3}));            // west, wrapping
    EXPECT_EQ(XyRouting().path(topology, 0, 2, {}), (Path{0, 1, 2}));         // tie: east
    EXPECT_EQ(XyRouting().path(topology, 2, 0, {}), (Path{2, 3, 0}));         // tie: east, wrapping
    EXPECT_EQ(XyRouting().path(topology, 1, 13, {}), (Path{1, 13}));          // north, wrapping
    EXPECT_EQ(XyRouting().path(topology, 0, 10, {}), (Path{0, 1, 2, 6, 10})); // ties: east, south
    EXPECT_EQ(YxRouting().path(topology, 3, 12, {}), (Path{3, 15, 12})); // north, then east wraps
}

TEST(XyRouting, WorksOnATorusOfSideTwo) {
    const auto topology = torus(2, 2);
    Router router(topology, RoutingMode::XY);
    const auto route = router.unicast(0, 3);
    ASSERT_TRUE(route);
    EXPECT_EQ(route->path, (Path{0, 1, 3}));
    EXPECT_EQ(route->hops, 2);
}

TEST(ShortestRouting, BreaksTiesByLinkIdWithoutLoad) {
    const auto topology = mesh(3, 3);
    // 0 -> 4 has two 2-hop paths; the link into 4 from die 1 has the lower id.
    EXPECT_EQ(ShortestRouting().path(topology, 0, 4, {}), (Path{0, 1, 4}));
}

TEST(ShortestRouting, TakesTheLeastTotalLoadAmongFewestHopPaths) {
    const auto topology = mesh(3, 3);
    // Via 1: 0 + 5 = 5 bytes; via 3: 3 + 0 = 3 bytes. A next-hop rule would pick 0->1.
    const auto loads = loadsOn(topology, {{{1, 4}, 5.0}, {{0, 3}, 3.0}});
    EXPECT_EQ(ShortestRouting().path(topology, 0, 4, loads), (Path{0, 3, 4}));
    // Never longer than fewest hops, however loaded.
    const auto heavy = loadsOn(topology, {{{0, 1}, 1e9}, {{0, 3}, 1e9}});
    EXPECT_EQ(ShortestRouting().path(topology, 0, 4, heavy)->size(), 3u);
    EXPECT_EQ(shortestLivePath(topology, 0, 4, loads), (Path{0, 3, 4}));
}

TEST(AdaptiveRouting, LeavesMinimalPathsToAvoidALoadedLink) {
    const auto topology = mesh(2, 2);
    const auto loads = loadsOn(topology, {{{0, 1}, 10.0}});
    EXPECT_EQ(AdaptiveRouting().path(topology, 0, 1, loads), (Path{0, 2, 3, 1}));
    EXPECT_EQ(ShortestRouting().path(topology, 0, 1, loads), (Path{0, 1}));
    EXPECT_EQ(AdaptiveRouting().path(topology, 0, 1, {}), (Path{0, 1}));
}

TEST(AdaptiveRouting, MinimisesTheBottleneckThenHopsThenTotalLoad) {
    const auto topology = mesh(3, 3);
    // Every way from 0 crosses 0->1 (load 4) or 0->3 (load 6): bottleneck 4 forces 0->1. Then
    // 1->4 (load 9) is over the threshold, so 1 -> 2 -> 5 -> 4 (4 hops) beats 0->1->4 (2 hops).
    const auto loads = loadsOn(topology, {{{0, 1}, 4.0}, {{0, 3}, 6.0}, {{1, 4}, 9.0}});
    EXPECT_EQ(AdaptiveRouting().path(topology, 0, 4, loads), (Path{0, 1, 2, 5, 4}));
}

TEST(Router, UnicastRouteListsLinksInOrder) {
    const auto topology = mesh(1, 3);
    Router router(topology, RoutingMode::XY);
    const auto route = router.unicast(0, 2);
    ASSERT_TRUE(route);
    EXPECT_EQ(route->path, (Path{0, 1, 2}));
    EXPECT_EQ(route->links, (std::vector<LinkId>{0, 1})); // 0: 0->1, 1: 1->2
    EXPECT_EQ(route->hops, 2);
    EXPECT_FALSE(route->isTree());
}

TEST(Router, DetoursAroundADeadDieByAShortestLivePath) {
    const auto topology = mesh(3, 3, {4});
    for (RoutingMode mode : {RoutingMode::XY, RoutingMode::YX}) {
        Router router(topology, mode);
        const auto route = router.unicast(3, 5);
        ASSERT_TRUE(route);
        // Two 4-hop detours; the one entering 5 by the lower link id (from 2) wins.
        EXPECT_EQ(route->path, (Path{3, 0, 1, 2, 5}));
        EXPECT_EQ(route->hops, 4);
    }
}

TEST(Router, DetoursAroundADeadLinkInOneDirectionOnly) {
    const auto topology = mesh(2, 2, {}, {{0, 1}});
    Router router(topology, RoutingMode::XY);
    EXPECT_EQ(router.unicast(0, 1)->path, (Path{0, 2, 3, 1}));
    EXPECT_EQ(router.unicast(1, 0)->path, (Path{1, 0}));
}

TEST(Router, DetourPrefersTheLessLoadedShortestLivePath) {
    const auto topology = mesh(3, 3, {4});
    Router router(topology, RoutingMode::XY);
    const auto first = router.unicast(3, 5);
    router.addLoad(*first, 100.0);
    EXPECT_EQ(router.unicast(3, 5)->path, (Path{3, 6, 7, 8, 5}));
}

TEST(Router, UnreachableIsNullopt) {
    const auto cut = mesh(1, 3, {1});
    Router router(cut, RoutingMode::XY);
    EXPECT_FALSE(router.unicast(0, 2));
    EXPECT_FALSE(router.unicast(0, 1)); // a dead destination
    EXPECT_FALSE(router.unicast(1, 2)); // a dead source
    EXPECT_FALSE(router.multicast(0, {2}));
    Router shortest(cut, RoutingMode::Adaptive);
    EXPECT_FALSE(shortest.unicast(2, 0));
}

TEST(Router, AddLoadAccumulatesBytesPerLink) {
    const auto topology = mesh(1, 3);
    Router router(topology, RoutingMode::XY);
    router.addLoad(*router.unicast(0, 2), 5.0);
    router.addLoad(*router.unicast(1, 2), 2.0);
    EXPECT_EQ(router.linkLoads(), (std::vector<double>{5.0, 7.0, 0.0, 0.0}));
}

TEST(Router, LoadAwareModesSeeEarlierFlows) {
    const auto topology = mesh(3, 3);
    Router router(topology, RoutingMode::Shortest);
    const auto first = router.unicast(0, 4);
    EXPECT_EQ(first->path, (Path{0, 1, 4}));
    router.addLoad(*first, 1.0);
    EXPECT_EQ(router.unicast(0, 4)->path, (Path{0, 3, 4}));
}

TEST(Router, XyMulticastTreeIsTheUnionOfItsRoutes) {
    const auto topology = mesh(3, 3);
    Router router(topology, RoutingMode::XY);
    const auto tree = router.multicast(0, {1, 2, 3, 4, 5, 6, 7, 8});
    ASSERT_TRUE(tree);
    EXPECT_TRUE(tree->isTree());
    EXPECT_EQ(tree->hops, 4);
    // BFS order from 0: along row 0, then down each column.
    EXPECT_EQ(tree->edges, (Edges{{0, 1}, {0, 3}, {1, 2}, {1, 4}, {3, 6}, {2, 5}, {4, 7}, {5, 8}}));
    ASSERT_EQ(tree->links.size(), 8u);
    for (std::size_t i = 0; i < tree->links.size(); ++i) {
        const auto& link = topology.link(tree->links[i]);
        EXPECT_EQ(std::make_pair(link.from, link.to), tree->edges[i]);
    }
}

TEST(Router, MulticastPrunesBranchesThatReachNoDestination) {
    const auto topology = mesh(3, 3);
    Router router(topology, RoutingMode::XY);
    const auto tree = router.multicast(0, {2, 8});
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->edges, (Edges{{0, 1}, {1, 2}, {2, 5}, {5, 8}}));
    EXPECT_EQ(tree->hops, 4);
}

TEST(Router, MulticastUnionWithTwoWaysToADieBecomesATree) {
    // Dead link 4->5: from 3, XY to 1 is 3,4,1 but XY to 2 (3,4,5,2) detours by 3,0,1,2, so
    // the union reaches die 1 twice. BFS from 3 keeps 3->4->1 and prunes 3->0.
    const auto topology = mesh(3, 3, {}, {{4, 5}});
    Router router(topology, RoutingMode::XY);
    EXPECT_EQ(router.unicast(3, 2)->path, (Path{3, 0, 1, 2}));
    const auto tree = router.multicast(3, {1, 2});
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->edges, (Edges{{3, 4}, {4, 1}, {1, 2}}));
    EXPECT_EQ(tree->hops, 3);
}

TEST(Router, MulticastBfsVisitsOutLinksInLinkIdOrder) {
    // Die 3's links are numbered East (3->4), South (3->6), North (3->0).
    const auto topology = mesh(3, 3, {4});
    Router router(topology, RoutingMode::XY);
    const auto tree = router.multicast(3, {5, 7, 1});
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->edges, (Edges{{3, 6}, {3, 0}, {6, 7}, {0, 1}, {1, 2}, {2, 5}}));
    EXPECT_EQ(tree->hops, 4);
}

// The mirror image of a multicast: XY routes from every die to die 0 run west along their row,
// then north up column 0; their union is a tree whose edges all point toward 0.
TEST(Router, XyReductionTreeIsTheUnionOfTheRoutesIntoItsRoot) {
    const auto topology = mesh(3, 3);
    Router router(topology, RoutingMode::XY);
    const auto tree = router.reduction(0, {1, 2, 3, 4, 5, 6, 7, 8});
    ASSERT_TRUE(tree);
    EXPECT_TRUE(tree->isTree());
    EXPECT_EQ(tree->hops, 4);
    Edges sorted = tree->edges;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (Edges{{1, 0}, {2, 1}, {3, 0}, {4, 3}, {5, 4}, {6, 3}, {7, 6}, {8, 7}}));
    // Nearer the root first, and links listed as the edges are.
    EXPECT_EQ(tree->edges.front().second, 0);
    for (std::size_t i = 0; i < tree->links.size(); ++i) {
        const auto& link = topology.link(tree->links[i]);
        EXPECT_EQ(std::make_pair(link.from, link.to), tree->edges[i]);
    }
    // Dead links are directed: with 1->0 dead the reduction detours, the multicast does not.
    const auto cut = mesh(3, 3, {}, {{1, 0}});
    Router cutRouter(cut, RoutingMode::XY);
    const auto detour = cutRouter.reduction(0, {1, 2});
    ASSERT_TRUE(detour);
    EXPECT_EQ(std::count(detour->edges.begin(), detour->edges.end(), std::make_pair(1, 0)), 0);
    EXPECT_EQ(detour->hops, 4); // die 2 is four live hops from 0
    EXPECT_EQ(cutRouter.multicast(0, {1, 2})->edges, (Edges{{0, 1}, {1, 2}}));
}

TEST(Router, RouteFromTreeTowardTheRootChecksItIsAReductionTree) {
    const auto topology = mesh(3, 3);
    Router router(topology, RoutingMode::XY);
    const Edges edges{{2, 1}, {1, 0}, {3, 0}};
    const auto tree = router.routeFromTree(0, {2, 3}, edges, TreeDirection::ToRoot);
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->hops, 2);
    EXPECT_EQ(tree->edges.back(), std::make_pair(2, 1));  // the farthest edge last
    EXPECT_FALSE(router.routeFromTree(0, {2, 3}, edges)); // as a multicast: edges enter 0
    EXPECT_FALSE(router.routeFromTree(0, {2}, {{0, 1}, {1, 2}}, TreeDirection::ToRoot));
    EXPECT_FALSE(router.routeFromTree(0, {1}, {{1, 0}, {1, 4}, {4, 3}, {3, 0}},
                                      TreeDirection::ToRoot)); // die 1 left twice
}

TEST(Router, RouteFromPathChecksLiveAdjacency) {
    const auto topology = mesh(3, 3, {}, {{4, 5}});
    Router router(topology, RoutingMode::XY);
    const auto route = router.routeFromPath({0, 3, 4, 1, 2});
    ASSERT_TRUE(route);
    EXPECT_EQ(route->hops, 4);
    EXPECT_EQ(route->links.size(), 4u);
    EXPECT_FALSE(router.routeFromPath({0, 2}));          // not neighbours
    EXPECT_FALSE(router.routeFromPath({3, 4, 5}));       // dead link 4->5
    EXPECT_TRUE(router.routeFromPath({5, 4, 3}));        // the reverse link lives
    EXPECT_FALSE(router.routeFromPath({0, 1, 4, 3, 0})); // a loop
    EXPECT_FALSE(router.routeFromPath({}));
    EXPECT_FALSE(router.routeFromPath({0, 9}));
}

TEST(Router, RouteFromTreeChecksItIsALiveTreeReachingEveryDestination) {
    const auto topology = mesh(3, 3);
    Router router(topology, RoutingMode::XY);
    const Edges edges{{4, 5}, {4, 1}, {1, 0}, {4, 3}};
    const auto tree = router.routeFromTree(4, {0, 5, 3}, edges);
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->hops, 2);
    EXPECT_EQ(tree->edges, (Edges{{4, 5}, {4, 3}, {4, 1}, {1, 0}})); // BFS, link-id order
    EXPECT_FALSE(router.routeFromTree(4, {0, 8}, edges));            // misses 8
    EXPECT_FALSE(router.routeFromTree(1, {0}, edges));               // not rooted at 1
    EXPECT_FALSE(router.routeFromTree(4, {0}, {{4, 1}, {1, 0}, {3, 0}, {4, 3}})); // 0 twice
    EXPECT_FALSE(router.routeFromTree(4, {5}, {{4, 5}, {7, 8}})); // 7->8 hangs loose
    EXPECT_FALSE(router.routeFromTree(4, {6}, {{4, 6}}));         // not a link
}

} // namespace
} // namespace ws
