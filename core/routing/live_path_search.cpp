#include "routing/live_path_search.h"

#include <limits>

namespace ws {

namespace {

// Per-die search state: BFS layer, least total load over fewest-hop paths, and the link that
// achieves it (ties: lower link id).
struct SearchState {
    std::vector<int> hops;
    std::vector<double> load;
    std::vector<LinkId> parentLink;
};

// A breadth-first search over the topology's adjacency (the Boost graph's edges, read through
// WaferTopology::outLinks so that no filtered view or property map sits in this hot loop: the
// shortest and adaptive modes run one or two searches per flow). Dies are popped layer by layer,
// so every predecessor of a die in layer d+1 has relaxed it before that die is popped: its
// least load is final when it is popped. Stops once `dst` is popped.
SearchState search(const WaferTopology& topology, DieId src, DieId dst,
                   std::span<const double> linkLoads, double maxLinkLoad) {
    const auto dies = static_cast<std::size_t>(topology.vertexCount());
    SearchState s{std::vector<int>(dies, -1),
                  std::vector<double>(dies, std::numeric_limits<double>::infinity()),
                  std::vector<LinkId>(dies, std::numeric_limits<LinkId>::max())};
    std::vector<DieId> queue;
    queue.reserve(dies);
    queue.push_back(src);
    s.hops[static_cast<std::size_t>(src)] = 0;
    s.load[static_cast<std::size_t>(src)] = 0.0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const DieId from = queue[head];
        if (from == dst)
            break;
        const auto f = static_cast<std::size_t>(from);
        for (LinkId id : topology.outLinks(from)) {
            const LinkProperties& link = topology.link(id); // alive: both dies alive too
            const double linkLoad = loadOf(linkLoads, id);
            if (!link.alive || linkLoad > maxLinkLoad)
                continue;
            const auto t = static_cast<std::size_t>(link.to);
            if (s.hops[t] < 0) {
                s.hops[t] = s.hops[f] + 1;
                queue.push_back(link.to);
            } else if (s.hops[t] != s.hops[f] + 1) {
                continue;
            }
            const double candidate = s.load[f] + linkLoad;
            if (candidate < s.load[t] || (candidate == s.load[t] && id < s.parentLink[t])) {
                s.load[t] = candidate;
                s.parentLink[t] = id;
            }
        }
    }
    return s;
}

bool endsUsable(const WaferTopology& topology, DieId src, DieId dst) {
    return topology.contains(src) && topology.contains(dst) && topology.isAlive(src) &&
           topology.isAlive(dst);
}

} // namespace

std::optional<std::vector<DieId>> leastLoadFewestHopPath(const WaferTopology& topology, DieId src,
                                                         DieId dst,
                                                         std::span<const double> linkLoads,
                                                         double maxLinkLoad) {
    if (!endsUsable(topology, src, dst))
        return std::nullopt;
    if (src == dst)
        return std::vector<DieId>{src};
    const SearchState state = search(topology, src, dst, linkLoads, maxLinkLoad);
    const int hops = state.hops[static_cast<std::size_t>(dst)];
    if (hops < 0)
        return std::nullopt;
    std::vector<DieId> path(static_cast<std::size_t>(hops) + 1);
    DieId at = dst;
    for (int i = hops; i > 0; --i) {
        path[static_cast<std::size_t>(i)] = at;
        at = topology.link(state.parentLink[static_cast<std::size_t>(at)]).from;
    }
    path[0] = src;
    return path;
}

bool liveReachable(const WaferTopology& topology, DieId src, DieId dst,
                   std::span<const double> linkLoads, double maxLinkLoad) {
    if (!endsUsable(topology, src, dst))
        return false;
    if (src == dst)
        return true;
    return search(topology, src, dst, linkLoads, maxLinkLoad).hops[static_cast<std::size_t>(dst)] >=
           0;
}

} // namespace ws
