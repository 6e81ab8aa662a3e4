#include "routing/router.h"
#include "tcme/multicast_tree_planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace ws {
namespace {

WaferTopology meshOf(int rows, int cols, std::vector<DieId> deadDies = {}) {
    TopologySpec spec;
    spec.rows = rows;
    spec.cols = cols;
    spec.deadDies = std::move(deadDies);
    return WaferTopology(spec);
}

std::vector<double> uniform(const WaferTopology& topology, double value) {
    return std::vector<double>(static_cast<std::size_t>(topology.linkCount()), value);
}

// An all-gather over every live die: one demand per die carrying its shard (1 byte, so that with
// 1 B/s links busy times count shards) along its XY multicast tree.
std::vector<MulticastDemand> allGatherDemands(const WaferTopology& topology) {
    const Router router(topology, RoutingMode::XY);
    std::vector<DieId> live;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        if (topology.isAlive(die))
            live.push_back(die);
    std::vector<MulticastDemand> demands;
    for (const DieId src : live) {
        std::vector<DieId> dsts;
        std::copy_if(live.begin(), live.end(), std::back_inserter(dsts),
                     [&](DieId die) { return die != src; });
        demands.push_back({src, dsts, 1.0, router.multicast(src, dsts)->edges});
    }
    return demands;
}

std::vector<double> shardsPerLink(const WaferTopology& topology,
                                  const std::vector<TreeEdges>& trees) {
    std::vector<double> shards = uniform(topology, 0.0);
    for (const TreeEdges& tree : trees)
        for (const auto& [from, to] : tree)
            shards[static_cast<std::size_t>(*topology.linkBetween(from, to))] += 1.0;
    return shards;
}

double maxOf(const std::vector<double>& values) {
    return *std::max_element(values.begin(), values.end());
}

// Every edge a live link, every parent in the tree before its child, every die entered once,
// every destination reached: what Router::routeFromTree accepts.
void expectValidTree(const WaferTopology& topology, const MulticastDemand& demand,
                     const TreeEdges& tree) {
    std::set<DieId> reached{demand.src};
    for (const auto& [from, to] : tree) {
        const auto link = topology.linkBetween(from, to);
        ASSERT_TRUE(link.has_value());
        EXPECT_TRUE(topology.link(*link).alive);
        EXPECT_TRUE(reached.contains(from)) << from << "->" << to;
        EXPECT_TRUE(reached.insert(to).second) << "die " << to << " entered twice";
    }
    for (const DieId dst : demand.dsts)
        EXPECT_TRUE(reached.contains(dst)) << "die " << dst << " not reached";
    EXPECT_TRUE(Router(topology, RoutingMode::XY).routeFromTree(demand.src, demand.dsts, tree));
}

TEST(MulticastTreePlanner, CheapestTreeSharesLinksAndAvoidsDearOnes) {
    const WaferTopology line = meshOf(1, 4); // links 0: 0->1, 1: 1->2, 2: 1->0, ...
    const MulticastTreePlanner onLine(line, uniform(line, 1.0), {});
    // One path serves all three destinations: each link is paid once.
    EXPECT_EQ(onLine.cheapestTree(0, {3, 1, 2}, uniform(line, 1.0)),
              (TreeEdges{{0, 1}, {1, 2}, {2, 3}}));
    // Two branches; the nearer destination's path first (ties to the lower die).
    EXPECT_EQ(onLine.cheapestTree(2, {0, 3}, uniform(line, 1.0)),
              (TreeEdges{{2, 3}, {2, 1}, {1, 0}}));

    // 2x2 mesh, src 0, dst 3: 0->1->3 and 0->2->3 cost the same; a dear 0->1 picks 0->2->3.
    const WaferTopology square = meshOf(2, 2);
    const MulticastTreePlanner onSquare(square, uniform(square, 1.0), {});
    std::vector<double> cost = uniform(square, 1.0);
    cost[static_cast<std::size_t>(*square.linkBetween(0, 1))] = 5.0;
    EXPECT_EQ(onSquare.cheapestTree(0, {3}, cost), (TreeEdges{{0, 2}, {2, 3}}));
    // Reaching 1 as well: 0->2->3->1 costs 3, 0->1 plus 0->2->3 costs 7.
    EXPECT_EQ(onSquare.cheapestTree(0, {3, 1}, cost), (TreeEdges{{0, 2}, {2, 3}, {3, 1}}));
}

TEST(MulticastTreePlanner, CheapestTreeIsEmptyWhenADestinationIsCutOff) {
    const WaferTopology topology = meshOf(1, 3, {1});
    const MulticastTreePlanner planner(topology, uniform(topology, 1.0), {});
    EXPECT_TRUE(planner.cheapestTree(0, {2}, uniform(topology, 1.0)).empty());
    EXPECT_TRUE(planner.cheapestTree(0, {1}, uniform(topology, 1.0)).empty()); // dead
}

// The yardstick of docs/tcme.md: an all-gather over all 64 dies of an 8x8 mesh. A corner die
// receives 63 shards over two links, so some link carries at least 32 (31.5 if shards could be
// split); per-source XY trees put 56 on one link, the planner the bound's 32.
TEST(MulticastTreePlanner, AllGatherTreesOn8x8ReachTheCornerBound) {
    const WaferTopology topology = meshOf(8, 8);
    const std::vector<MulticastDemand> demands = allGatherDemands(topology);
    std::vector<TreeEdges> xy;
    for (const MulticastDemand& demand : demands)
        xy.push_back(demand.tree);
    EXPECT_DOUBLE_EQ(maxOf(shardsPerLink(topology, xy)), 56.0);

    const MulticastTreePlanner planner(topology, uniform(topology, 1.0), {});
    const std::vector<TreeEdges> trees = planner.plan(demands);
    ASSERT_EQ(trees.size(), demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d)
        expectValidTree(topology, demands[d], trees[d]);
    EXPECT_DOUBLE_EQ(maxOf(shardsPerLink(topology, trees)), 32.0);
    EXPECT_EQ(planner.plan(demands), trees); // deterministic
}

// The mirror image: a reduce-scatter over all 64 dies as reduction trees, one into each die
// carrying its shard of the sum. A corner die must take in 63 shards' worth of partial sums over
// its two links (each link carries a reduced shard once, whatever enters it), so the bound is
// again 31.5; XY reduction trees (the reverse of YX multicasts) put 56 on one link.
TEST(MulticastTreePlanner, ReductionTreesOn8x8ReachTheCornerBound) {
    const WaferTopology topology = meshOf(8, 8);
    const Router router(topology, RoutingMode::XY);
    std::vector<MulticastDemand> demands = allGatherDemands(topology);
    std::vector<TreeEdges> xy;
    for (MulticastDemand& demand : demands) {
        demand.direction = TreeDirection::ToRoot;
        demand.tree = router.reduction(demand.src, demand.dsts)->edges;
        xy.push_back(demand.tree);
    }
    EXPECT_DOUBLE_EQ(maxOf(shardsPerLink(topology, xy)), 56.0);

    const MulticastTreePlanner planner(topology, uniform(topology, 1.0), {});
    const std::vector<TreeEdges> trees = planner.plan(demands);
    ASSERT_EQ(trees.size(), demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d) {
        std::set<DieId> left; // a reduction tree leaves every die once, never its root
        for (const auto& [from, to] : trees[d]) {
            EXPECT_NE(from, demands[d].src);
            EXPECT_TRUE(left.insert(from).second) << "die " << from << " left twice";
        }
        EXPECT_TRUE(
            router.routeFromTree(demands[d].src, demands[d].dsts, trees[d], TreeDirection::ToRoot));
    }
    EXPECT_DOUBLE_EQ(maxOf(shardsPerLink(topology, trees)), 32.0);
}

// On 16x16 the bound is 255 / 2 = 127.5 shards, so 128 for whole trees; XY puts 240 on a link.
TEST(MulticastTreePlanner, AllGatherTreesOn16x16ReachTheCornerBound) {
    const WaferTopology topology = meshOf(16, 16);
    const std::vector<MulticastDemand> demands = allGatherDemands(topology);
    const MulticastTreePlanner planner(topology, uniform(topology, 1.0), {});
    const std::vector<TreeEdges> trees = planner.plan(demands);
    EXPECT_DOUBLE_EQ(maxOf(shardsPerLink(topology, trees)), 128.0);
}

// Dead dies (8 and 21 of a 6x6 mesh): every tree crosses live links only and still reaches
// every live die, and the busiest link carries less than under XY trees.
TEST(MulticastTreePlanner, TreesGoAroundDeadDies) {
    const WaferTopology topology = meshOf(6, 6, {8, 21});
    const std::vector<MulticastDemand> demands = allGatherDemands(topology);
    const MulticastTreePlanner planner(topology, uniform(topology, 1.0), {});
    const std::vector<TreeEdges> trees = planner.plan(demands);
    for (std::size_t d = 0; d < demands.size(); ++d)
        expectValidTree(topology, demands[d], trees[d]);
    std::vector<TreeEdges> before;
    for (const MulticastDemand& demand : demands)
        before.push_back(demand.tree);
    EXPECT_LT(maxOf(shardsPerLink(topology, trees)), maxOf(shardsPerLink(topology, before)));
}

// Other traffic's bytes count: with 10 shards of background on 0->1, the multicast from die 0 to
// dies 1 and 3 of a 2x2 mesh leaves 0->1->3 for 0->2->3->1.
TEST(MulticastTreePlanner, TreesAvoidLinksLoadedByOtherTraffic) {
    const WaferTopology topology = meshOf(2, 2);
    std::vector<double> background = uniform(topology, 0.0);
    background[static_cast<std::size_t>(*topology.linkBetween(0, 1))] = 10.0;
    const MulticastTreePlanner planner(topology, uniform(topology, 1.0), background);
    const MulticastDemand demand{0, {1, 3}, 1.0, {{0, 1}, {1, 3}}};
    const std::vector<TreeEdges> trees = planner.plan({demand});
    ASSERT_EQ(trees.size(), 1u);
    EXPECT_EQ(trees[0], (TreeEdges{{0, 2}, {2, 3}, {3, 1}}));
}

TEST(MulticastTreePlanner, ACancelledPlanKeepsTheTreesItHas) {
    const WaferTopology topology = meshOf(8, 8);
    const std::vector<MulticastDemand> demands = allGatherDemands(topology);
    const MulticastTreePlanner planner(topology, uniform(topology, 1.0), {});
    const std::vector<TreeEdges> trees = planner.plan(demands, 64, [] { return true; });
    ASSERT_EQ(trees.size(), demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d)
        EXPECT_EQ(trees[d], demands[d].tree);
}

} // namespace
} // namespace ws
