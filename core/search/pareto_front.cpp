#include "search/pareto_front.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace ws {

std::vector<std::size_t> paretoFront(const std::vector<std::pair<double, double>>& points) {
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // By x, then y, then index: a sweep then keeps each point with a y below all before it.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (points[a] != points[b])
            return points[a] < points[b];
        return a < b;
    });
    std::vector<std::size_t> front;
    double lowestY = std::numeric_limits<double>::infinity();
    for (std::size_t i : order)
        if (points[i].second < lowestY) {
            lowestY = points[i].second;
            front.push_back(i);
        }
    return front;
}

} // namespace ws
