#include "tcme/bypass_path.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace ws {

std::optional<std::vector<DieId>> bypassPath(const WaferTopology& topology, DieId src, DieId dst,
                                             LinkId avoid, std::span<const double> linkBytes) {
    if (!topology.contains(src) || !topology.contains(dst) || !topology.isAlive(src) ||
        !topology.isAlive(dst))
        return std::nullopt;
    if (src == dst)
        return std::vector<DieId>{src};
    double maxBytes = 0.0;
    for (double bytes : linkBytes)
        maxBytes = std::max(maxBytes, bytes);
    const auto cost = [&](LinkId link) {
        const auto index = static_cast<std::size_t>(link);
        const double bytes = index < linkBytes.size() ? linkBytes[index] : 0.0;
        return 1.0 + (maxBytes > 0 ? bytes / maxBytes : 0.0);
    };

    const auto dies = static_cast<std::size_t>(topology.dieCount());
    std::vector<double> distance(dies, std::numeric_limits<double>::infinity());
    std::vector<DieId> previous(dies, -1);
    std::vector<bool> settled(dies, false);
    using Entry = std::pair<double, DieId>; // (distance, die): ties settle the lower die first
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    distance[static_cast<std::size_t>(src)] = 0.0;
    queue.emplace(0.0, src);
    while (!queue.empty()) {
        const auto [d, die] = queue.top();
        queue.pop();
        if (settled[static_cast<std::size_t>(die)])
            continue;
        settled[static_cast<std::size_t>(die)] = true;
        if (die == dst)
            break;
        for (LinkId link : topology.outLinks(die)) {
            const LinkProperties& props = topology.link(link);
            if (link == avoid || !props.alive)
                continue;
            const auto next = static_cast<std::size_t>(props.to);
            const double candidate = d + cost(link);
            if (candidate < distance[next]) {
                distance[next] = candidate;
                previous[next] = die;
                queue.emplace(candidate, props.to);
            }
        }
    }
    if (!settled[static_cast<std::size_t>(dst)])
        return std::nullopt;
    std::vector<DieId> path;
    for (DieId die = dst; die != -1; die = previous[static_cast<std::size_t>(die)])
        path.push_back(die);
    std::reverse(path.begin(), path.end());
    return path;
}

} // namespace ws
