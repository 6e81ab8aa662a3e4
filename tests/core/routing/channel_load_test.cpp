// Channel loads under dimension-order routing: the textbook values of docs/network-model.md section
// 9 (Dally & Towles ch. 3; multicast table), counted as messages per link with 1-byte flows.
#include "routing/router.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace ws {
namespace {

struct Xy {
    int x = 0; // column
    int y = 0; // row
};
using Pattern = std::function<Xy(Xy, int)>;

WaferTopology square(int k, TopologyKind kind = TopologyKind::Mesh) {
    return WaferTopology(TopologySpec{k, k, kind, {}, {}});
}

double hottest(const Router& router) {
    const auto& loads = router.linkLoads();
    return *std::max_element(loads.begin(), loads.end());
}

// One 1-byte message per source (node id = x + k y, as in the book), self-messages skipped.
double hottestLinkLoad(int k, const Pattern& pattern) {
    const auto topology = square(k);
    Router router(topology, RoutingMode::XY);
    for (int y = 0; y < k; ++y) {
        for (int x = 0; x < k; ++x) {
            const Xy to = pattern({x, y}, k);
            const DieId src = x + k * y;
            const DieId dst = to.x + k * to.y;
            if (src != dst)
                router.addLoad(*router.unicast(src, dst), 1.0);
        }
    }
    return hottest(router);
}

double uniformHottestLinkLoad(int k, TopologyKind kind) {
    const auto topology = square(k, kind);
    Router router(topology, RoutingMode::XY);
    for (DieId src = 0; src < k * k; ++src) {
        for (DieId dst = 0; dst < k * k; ++dst) {
            if (src != dst)
                router.addLoad(*router.unicast(src, dst), 1.0);
        }
    }
    return hottest(router);
}

class ChannelLoad : public ::testing::TestWithParam<int> {};

TEST_P(ChannelLoad, Transpose) {
    const int k = GetParam();
    EXPECT_EQ(hottestLinkLoad(k, [](Xy p, int) { return Xy{p.y, p.x}; }), k - 1);
}

TEST_P(ChannelLoad, BitComplement) {
    const int k = GetParam();
    EXPECT_EQ(hottestLinkLoad(k, [](Xy p, int n) { return Xy{n - 1 - p.x, n - 1 - p.y}; }), k / 2);
}

TEST_P(ChannelLoad, Tornado) {
    const int k = GetParam();
    EXPECT_EQ(hottestLinkLoad(k,
                              [](Xy p, int n) {
                                  return Xy{(p.x + n / 2 - 1) % n, (p.y + n / 2 - 1) % n};
                              }),
              k / 2 - 1);
}

TEST_P(ChannelLoad, Neighbour) {
    const int k = GetParam();
    EXPECT_EQ(hottestLinkLoad(k, [](Xy p, int n) { return Xy{(p.x + 1) % n, (p.y + 1) % n}; }), 1);
}

TEST_P(ChannelLoad, UniformAllToAll) {
    const int k = GetParam();
    EXPECT_EQ(uniformHottestLinkLoad(k, TopologyKind::Mesh), k * k * k / 4);
}

TEST_P(ChannelLoad, UniformAllToAllOnATorusRoughlyHalves) {
    // k^3/8 with perfectly split ties; XY sends every half-way message the positive way, which
    // adds k * (k/2) / 2 = k^2/4 on the positive links: k^3/8 + k^2/4 (k = 8: 80 versus 128).
    const int k = GetParam();
    EXPECT_EQ(uniformHottestLinkLoad(k, TopologyKind::Torus), k * k * k / 8 + k * k / 4);
}

INSTANTIATE_TEST_SUITE_P(Mesh, ChannelLoad, ::testing::Values(4, 8, 16));

TEST(MulticastLoad, OneToAllByXyUnicastsFromACornerRoot) {
    const int k = 8;
    const auto topology = square(k);
    Router router(topology, RoutingMode::XY);
    for (DieId dst = 1; dst < k * k; ++dst)
        router.addLoad(*router.unicast(0, dst), 1.0);
    EXPECT_EQ(hottest(router), k * (k - 1)); // 56
}

TEST(MulticastLoad, OneToAllByXyUnicastsFromACentreRoot) {
    const int k = 8;
    const auto topology = square(k);
    Router router(topology, RoutingMode::XY);
    const DieId root = 3 * k + 3;
    for (DieId dst = 0; dst < k * k; ++dst) {
        if (dst != root)
            router.addLoad(*router.unicast(root, dst), 1.0);
    }
    EXPECT_EQ(hottest(router), k * k / 2); // 32
}

TEST(MulticastLoad, OneToAllByATreeLoadsEveryLinkOnce) {
    const int k = 8;
    const auto topology = square(k);
    Router router(topology, RoutingMode::XY);
    std::vector<DieId> all;
    for (DieId dst = 1; dst < k * k; ++dst)
        all.push_back(dst);
    const auto tree = router.multicast(0, all);
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->links.size(), static_cast<std::size_t>(k * k - 1)); // 63
    EXPECT_EQ(tree->hops, 2 * (k - 1));
    router.addLoad(*tree, 1.0);
    EXPECT_EQ(hottest(router), 1);
}

TEST(MulticastLoad, AllGatherByXyUnicasts) {
    EXPECT_EQ(uniformHottestLinkLoad(8, TopologyKind::Mesh), 128);
}

TEST(MulticastLoad, AllGatherByPerSourceXyTrees) {
    const int k = 8;
    const auto topology = square(k);
    Router router(topology, RoutingMode::XY);
    for (DieId src = 0; src < k * k; ++src) {
        std::vector<DieId> others;
        for (DieId dst = 0; dst < k * k; ++dst) {
            if (dst != src)
                others.push_back(dst);
        }
        router.addLoad(*router.multicast(src, others), 1.0);
    }
    EXPECT_EQ(hottest(router), k * (k - 1)); // 56
}

} // namespace
} // namespace ws
