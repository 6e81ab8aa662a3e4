#include "routing/adaptive_routing.h"

#include "routing/live_path_search.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace ws {

namespace {

// The least possible load of the most loaded link on a live path src -> dst (a minimax
// Dijkstra: a path's key is its largest link load), or nullopt if dst is unreachable. One
// search instead of a binary search of reachability tests over the distinct load values.
std::optional<double> leastBottleneck(const WaferTopology& topology, DieId src, DieId dst,
                                      std::span<const double> linkLoads) {
    if (!topology.isAlive(src) || !topology.isAlive(dst))
        return std::nullopt;
    const double unreached = std::numeric_limits<double>::infinity();
    std::vector<double> bottleneck(static_cast<std::size_t>(topology.dieCount()), unreached);
    std::vector<bool> done(static_cast<std::size_t>(topology.dieCount()), false);
    using Entry = std::pair<double, DieId>; // (bottleneck, die), smallest first
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    bottleneck[static_cast<std::size_t>(src)] = 0.0;
    queue.emplace(0.0, src);
    while (!queue.empty()) {
        const auto [key, die] = queue.top();
        queue.pop();
        if (done[static_cast<std::size_t>(die)])
            continue;
        if (die == dst)
            return key;
        done[static_cast<std::size_t>(die)] = true;
        for (LinkId id : topology.outLinks(die)) {
            const LinkProperties& link = topology.link(id);
            if (!link.alive)
                continue;
            const double through = std::max(key, loadOf(linkLoads, id));
            auto& best = bottleneck[static_cast<std::size_t>(link.to)];
            if (through < best) {
                best = through;
                queue.emplace(through, link.to);
            }
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::vector<DieId>> AdaptiveRouting::path(const WaferTopology& topology, DieId src,
                                                        DieId dst,
                                                        std::span<const double> linkLoads) const {
    if (!topology.contains(src) || !topology.contains(dst))
        return std::nullopt;
    if (src == dst)
        return leastLoadFewestHopPath(topology, src, dst, linkLoads);
    // The smallest threshold T such that dst is reachable over live links of load <= T ...
    const auto threshold = leastBottleneck(topology, src, dst, linkLoads);
    if (!threshold)
        return std::nullopt;
    // ... then the fewest hops over those links, then the least total load.
    return leastLoadFewestHopPath(topology, src, dst, linkLoads, *threshold);
}

} // namespace ws
