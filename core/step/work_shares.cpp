#include "step/work_shares.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ws {

std::vector<double> proportionalShares(const std::vector<double>& weights, double rows) {
    const std::size_t n = weights.size();
    std::vector<double> shares(n, 1.0);
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    const double wholeRows = std::floor(rows);
    if (n == 0 || !(total > 0.0) || !(wholeRows >= 1.0))
        return shares;
    std::vector<double> dealt(n);
    std::vector<double> remainder(n);
    double left = wholeRows;
    for (std::size_t i = 0; i < n; ++i) {
        const double exact = wholeRows * weights[i] / total;
        dealt[i] = std::floor(exact);
        remainder[i] = exact - dealt[i];
        left -= dealt[i];
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t i = 0; i < n && left >= 1.0; ++i, left -= 1.0)
        dealt[order[i]] += 1.0;
    const double even = wholeRows / static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i)
        shares[i] = dealt[i] / even;
    return shares;
}

std::vector<double> tatpWorkShares(const Placement& placement, const StrategySpec& strategy,
                                   const WaferSpec& wafer, int dieCount, double rows) {
    std::vector<double> shares(static_cast<std::size_t>(std::max(0, dieCount)), 1.0);
    if (strategy.balance != StrategySpec::Balance::Speed || strategy.tatp < 2 ||
        wafer.slowDies.empty())
        return shares;
    for (const std::vector<DieId>& group : placement.groups(GroupKind::TATP)) {
        std::vector<double> speeds;
        speeds.reserve(group.size());
        for (DieId die : group)
            speeds.push_back(wafer.dieSpeed(die));
        const std::vector<double> groupShares = proportionalShares(speeds, rows);
        for (std::size_t p = 0; p < group.size(); ++p)
            shares[static_cast<std::size_t>(group[p])] = groupShares[p];
    }
    return shares;
}

MemoryBreakdown scaledMemory(const MemoryBreakdown& memory, double share) {
    MemoryBreakdown out = memory;
    out.weights *= share;
    out.gradients *= share;
    out.optimizer *= share;
    out.activations *= share;
    out.streamBuffers *= share;
    return out;
}

} // namespace ws
