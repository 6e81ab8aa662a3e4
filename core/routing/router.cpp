#include "routing/router.h"

#include "routing/cluster_routing.h"

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
        if (!topology.isLiveVertex(die))
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
    : m_topology(topology),
      m_policy(topology.isCluster() ? std::make_unique<ClusterRouting>() : makeRoutingPolicy(mode)),
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
    return treeOfRoutes(src, dsts, TreeDirection::FromRoot);
}

std::optional<Route> Router::reduction(DieId root, const std::vector<DieId>& sources) const {
    return treeOfRoutes(root, sources, TreeDirection::ToRoot);
}

std::optional<Route> Router::treeOfRoutes(DieId root, const std::vector<DieId>& leaves,
                                          TreeDirection direction) const {
    const bool fromRoot = direction == TreeDirection::FromRoot;
    // A link's end nearer the root, and the other one.
    const auto nearEnd = [&](LinkId id) {
        const LinkProperties& link = m_topology.link(id);
        return fromRoot ? link.from : link.to;
    };
    const auto farEnd = [&](LinkId id) {
        const LinkProperties& link = m_topology.link(id);
        return fromRoot ? link.to : link.from;
    };
    // The union of the unicast routes, as (near end, link) pairs sorted so that each die's union
    // links away from the root are contiguous and in link-id order (a deterministic BFS below).
    std::vector<std::pair<DieId, LinkId>> unionLinks;
    for (DieId leaf : leaves) {
        const auto route = fromRoot ? unicast(root, leaf) : unicast(leaf, root);
        if (!route)
            return std::nullopt;
        for (LinkId id : route->links)
            unionLinks.emplace_back(nearEnd(id), id);
    }
    std::sort(unionLinks.begin(), unionLinks.end());
    unionLinks.erase(std::unique(unionLinks.begin(), unionLinks.end()), unionLinks.end());

    // BFS from the root over the union: parent link and depth of each die reached. Keyed by die
    // in a hash map so that a small tree on a big wafer costs nothing per die of the wafer.
    struct Reached {
        LinkId parentLink = -1;
        int depth = 0;
    };
    std::unordered_map<DieId, Reached> reached;
    std::vector<DieId> order{root};
    reached.emplace(root, Reached{});
    for (std::size_t head = 0; head < order.size(); ++head) {
        const DieId near = order[head];
        auto it = std::lower_bound(unionLinks.begin(), unionLinks.end(),
                                   std::pair<DieId, LinkId>{near, -1});
        for (; it != unionLinks.end() && it->first == near; ++it) {
            const DieId far = farEnd(it->second);
            if (reached.contains(far))
                continue;
            reached.emplace(far, Reached{it->second, reached.at(near).depth + 1});
            order.push_back(far);
        }
    }

    // Keep only dies on the way to a leaf.
    std::unordered_map<DieId, bool> needed;
    int hops = 0;
    for (DieId leaf : leaves) {
        hops = std::max(hops, reached.at(leaf).depth);
        for (DieId at = leaf; at != root && !needed[at];) {
            needed[at] = true;
            at = nearEnd(reached.at(at).parentLink);
        }
    }
    Route route;
    route.hops = hops;
    for (std::size_t i = 1; i < order.size(); ++i) {
        if (!needed.contains(order[i]))
            continue;
        const LinkProperties& link = m_topology.link(reached.at(order[i]).parentLink);
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

std::optional<Route> Router::routeFromTree(DieId root, const std::vector<DieId>& leaves,
                                           const std::vector<std::pair<DieId, DieId>>& edges,
                                           TreeDirection direction) const {
    if (!m_topology.contains(root) || !m_topology.isAlive(root))
        return std::nullopt;
    const bool fromRoot = direction == TreeDirection::FromRoot;
    // Each die has at most one parent and the root none; with every die reachable from the root
    // this makes the edges a tree rooted there. A parent is the edge's end nearer the root.
    std::unordered_map<DieId, LinkId> parentLink;
    std::vector<std::pair<DieId, LinkId>> childLinks; // (parent, link), sorted below
    for (const auto& [from, to] : edges) {
        const auto id = m_topology.linkBetween(from, to);
        const DieId parent = fromRoot ? from : to;
        const DieId child = fromRoot ? to : from;
        if (!id || !m_topology.link(*id).alive || child == root ||
            !parentLink.emplace(child, *id).second)
            return std::nullopt;
        childLinks.emplace_back(parent, *id);
    }
    std::sort(childLinks.begin(), childLinks.end());

    std::unordered_map<DieId, int> depth{{root, 0}};
    Route route;
    std::vector<DieId> order{root};
    for (std::size_t head = 0; head < order.size(); ++head) {
        const DieId parent = order[head];
        auto it = std::lower_bound(childLinks.begin(), childLinks.end(),
                                   std::pair<DieId, LinkId>{parent, -1});
        for (; it != childLinks.end() && it->first == parent; ++it) {
            const LinkProperties& link = m_topology.link(it->second);
            const DieId child = fromRoot ? link.to : link.from;
            depth.emplace(child, depth.at(parent) + 1);
            order.push_back(child);
            route.edges.emplace_back(link.from, link.to);
            route.links.push_back(link.id);
        }
    }
    if (route.edges.size() != edges.size()) // some edge hangs off a part not joined to the root
        return std::nullopt;
    for (DieId leaf : leaves) {
        const auto it = depth.find(leaf);
        if (it == depth.end())
            return std::nullopt;
        route.hops = std::max(route.hops, it->second);
    }
    return route;
}

} // namespace ws
