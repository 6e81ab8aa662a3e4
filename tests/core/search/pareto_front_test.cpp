#include "search/pareto_front.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

using Points = std::vector<std::pair<double, double>>;

TEST(ParetoFront, KeepsTheNonDominatedPointsByAscendingFirstCoordinate) {
    //            0          1          2          3          4          5
    const Points points{{4, 1}, {1, 5}, {2, 2}, {3, 3}, {2, 4}, {5, 1}};
    // (3,3) is beaten by (2,2); (2,4) by (2,2); (5,1) by (4,1).
    EXPECT_EQ(paretoFront(points), (std::vector<std::size_t>{1, 2, 0}));
}

TEST(ParetoFront, KeepsTheFirstOfEqualPoints) {
    const Points points{{1, 1}, {2, 0}, {1, 1}};
    EXPECT_EQ(paretoFront(points), (std::vector<std::size_t>{0, 1}));
}

TEST(ParetoFront, OnePointDominatingAll) {
    EXPECT_EQ(paretoFront(Points{{3, 3}, {1, 1}, {2, 5}}), (std::vector<std::size_t>{1}));
    EXPECT_TRUE(paretoFront(Points{}).empty());
}

} // namespace
} // namespace ws
