#include "routing/router.h"

#include <algorithm>
#include <unordered_map>

namespace ws {

namespace {

// The Route along `path` if every die is alive and consecutive dies are joined by a live link.
// Does not check for loops: policies never make them (routeFromPath checks user paths).
std::optional<Route> routeOverLiveLinks(const WaferTopology& topology, std::vector<DieId> path) {
    if (path.empty())
        return std::nullopt;
    for (DieId die : path) {
        if (!topology.contains(die) || !topology.isAlive(die))
            return std::nullopt;
    }
    Route route;
    route.links.reserve(path.size() - 1);
    for (std::size_t i = 1; i < path.size(); ++i) {
        const auto id = topology.linkBetween(path[i - 1], path[i]);
        if (!id || !topology.link(*id).alive)
            return std::nullopt;
        route.links.push_back(*id);
    }
    route.hops = static_cast<int>(route.links.size());
    route.path = std::move(path);
    return route;
}

} // namespace

Router::Router(const WaferTopology& topology, RoutingMode mode)
    : m_topology(topology), m_policy(makeRoutingPolicy(mode)),
      m_linkLoads(static_cast<std::size_t>(topology.linkCount()), 0.0) {}

std::optional<Route> Router::unicast(DieId src, DieId dst) const {
    if (!m_topology.contains(src) || !m_topology.contains(dst) || !m_topology.isAlive(src) ||
        !m_topology.isAlive(dst))
        return std::nullopt;
    if (auto path = m_policy->path(m_topology, src, dst, m_linkLoads)) {
        if (!path->empty() && path->front() == src && path->back() == dst) {
            if (auto route = routeOverLiveLinks(m_topology, std::move(*path)))
                return route;
        }
    }
    // The policy's path crosses a fault (or it found none): detour by the shortest live path.
    if (auto live = shortestLivePath(m_topology, src, dst, m_linkLoads))
        return routeOverLiveLinks(m_topology, std::move(*live));
    return std::nullopt;
}

std::optional<Route> Router::multicast(DieId src, const std::vector<DieId>& dsts) const {
    // The union of the unicast routes, as (from, link) pairs sorted so that each die's union
    // out-links are contiguous and in link-id order (a deterministic BFS below).
    std::vector<std::pair<DieId, LinkId>> unionLinks;
    for (DieId dst : dsts) {
        const auto route = unicast(src, dst);
        if (!route)
            return std::nullopt;
        for (LinkId id : route->links)
            unionLinks.emplace_back(m_topology.link(id).from, id);
    }
    std::sort(unionLinks.begin(), unionLinks.end());
    unionLinks.erase(std::unique(unionLinks.begin(), unionLinks.end()), unionLinks.end());

    // BFS from src over the union: parent link and depth of each die reached. Keyed by die in a
    // hash map so that a small tree on a big wafer costs nothing per die of the wafer.
    struct Reached {
        LinkId parentLink = -1;
        int depth = 0;
    };
    std::unordered_map<DieId, Reached> reached;
    std::vector<DieId> order{src};
    reached.emplace(src, Reached{});
    for (std::size_t head = 0; head < order.size(); ++head) {
        const DieId from = order[head];
        auto it = std::lower_bound(unionLinks.begin(), unionLinks.end(),
                                   std::pair<DieId, LinkId>{from, -1});
        for (; it != unionLinks.end() && it->first == from; ++it) {
            const DieId to = m_topology.link(it->second).to;
            if (reached.contains(to))
                continue;
            reached.emplace(to, Reached{it->second, reached.at(from).depth + 1});
            order.push_back(to);
        }
    }

    // Keep only dies on the way to a destination.
    std::unordered_map<DieId, bool> needed;
    int hops = 0;
    for (DieId dst : dsts) {
        hops = std::max(hops, reached.at(dst).depth);
        for (DieId at = dst; at != src && !needed[at];) {
            needed[at] = true;
            at = m_topology.link(reached.at(at).parentLink).from;
        }
    }
    Route route;
    route.hops = hops;
    for (std::size_t i = 1; i < order.size(); ++i) {
        const DieId to = order[i];
        if (!needed.contains(to))
            continue;
        const LinkProperties& link = m_topology.link(reached.at(to).parentLink);
        route.edges.emplace_back(link.from, link.to);
        route.links.push_back(link.id);
    }
    return route;
}

void Router::addLoad(const Route& route, double bytes) {
    for (LinkId id : route.links)
        m_linkLoads[static_cast<std::size_t>(id)] += bytes;
}

std::optional<Route> Router::routeFromPath(const std::vector<DieId>& path) const {
    // A route crosses each link once: a die visited twice would make a loop.
    if (path.size() > 2) {
        std::vector<DieId> sorted = path;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
            return std::nullopt;
    }
    return routeOverLiveLinks(m_topology, std::vector<DieId>(path));
}

std::optional<Route>
Router::routeFromTree(DieId src, const std::vector<DieId>& dsts,
                      const std::vector<std::pair<DieId, DieId>>& edges) const {
    if (!m_topology.contains(src) || !m_topology.isAlive(src))
        return std::nullopt;
    // Each die has at most one parent and src none; with every die reachable from src this
    // makes the edges a tree rooted at src.
    std::unordered_map<DieId, LinkId> parentLink;
    std::vector<std::pair<DieId, LinkId>> outLinks;
    for (const auto& [from, to] : edges) {
        const auto id = m_topology.linkBetween(from, to);
        if (!id || !m_topology.link(*id).alive || to == src || !parentLink.emplace(to, *id).second)
            return std::nullopt;
        outLinks.emplace_back(from, *id);
    }
    std::sort(outLinks.begin(), outLinks.end());

    std::unordered_map<DieId, int> depth{{src, 0}};
    Route route;
    std::vector<DieId> order{src};
    for (std::size_t head = 0; head < order.size(); ++head) {
        const DieId from = order[head];
        auto it =
            std::lower_bound(outLinks.begin(), outLinks.end(), std::pair<DieId, LinkId>{from, -1});
        for (; it != outLinks.end() && it->first == from; ++it) {
            const LinkProperties& link = m_topology.link(it->second);
            depth.emplace(link.to, depth.at(from) + 1);
            order.push_back(link.to);
            route.edges.emplace_back(link.from, link.to);
            route.links.push_back(link.id);
        }
    }
    if (route.edges.size() != edges.size()) // some edge hangs off a part not reached from src
        return std::nullopt;
    for (DieId dst : dsts) {
        const auto it = depth.find(dst);
        if (it == depth.end())
            return std::nullopt;
        route.hops = std::max(route.hops, it->second);
    }
    return route;
}

} // namespace ws
