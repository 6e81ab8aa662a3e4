#pragma once

#include "routing/route.h"
#include "routing/routing_policy.h"
#include "scenario/scenario.h"

#include <memory>
#include <optional>
#include <vector>

namespace ws {

// Routes flows one after another with a policy, remembering the load each route adds so that
// load-aware policies see the flows routed before. Routes never use dead dies or links: when the
// policy's path crosses one, the flow takes shortestLivePath instead (docs/network-model.md).
// A cluster is routed by ClusterRouting whatever the mode (docs/network-model.md section 12).
class Router {
public:
    Router(const WaferTopology& topology, RoutingMode mode);

    // nullopt when dst cannot be reached from src over live dies and links.
    std::optional<Route> unicast(DieId src, DieId dst) const;
    // A tree from src reaching every die in dsts: the union of the policy's unicast routes,
    // reduced to a tree (BFS from src over that union; branches leading to no destination
    // pruned). nullopt if some destination cannot be reached.
    std::optional<Route> multicast(DieId src, const std::vector<DieId>& dsts) const;
    // The mirror image: a tree into `root` from every die in `sources`, the union of the
    // policy's unicast routes from each source to root, reduced to a tree the same way (its
    // edges point toward root). nullopt if some source cannot reach root.
    std::optional<Route> reduction(DieId root, const std::vector<DieId>& sources) const;

    // Adds `bytes` to every link of the route (for later load-aware decisions).
    void addLoad(const Route& route, double bytes);
    const std::vector<double>& linkLoads() const { return m_linkLoads; }

    // Builds the Route for a given list of dies, or nullopt if consecutive dies are not joined
    // by a live link or a die is dead.
    std::optional<Route> routeFromPath(const std::vector<DieId>& path) const;
    // Builds the Route for given tree edges rooted at `root`, or nullopt if they are not a tree
    // of live links rooted there that joins every die in `leaves` to it: edges point away from
    // the root for TreeDirection::FromRoot, toward it for ToRoot.
    std::optional<Route> routeFromTree(DieId root, const std::vector<DieId>& leaves,
                                       const std::vector<std::pair<DieId, DieId>>& edges,
                                       TreeDirection direction = TreeDirection::FromRoot) const;

    const WaferTopology& topology() const { return m_topology; }

private:
    std::optional<Route> treeOfRoutes(DieId root, const std::vector<DieId>& leaves,
                                      TreeDirection direction) const;

    const WaferTopology& m_topology;
    std::unique_ptr<RoutingPolicy> m_policy;
    std::vector<double> m_linkLoads;
};

} // namespace ws
