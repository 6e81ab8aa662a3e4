#include "tcme/bypass_path.h"

#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/property_map/function_property_map.hpp>

#include <algorithm>
#include <limits>

namespace ws {

namespace {

using Graph = WaferTopology::Graph;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

// The links a bypass may use: live ones (a dead die kills its links), except the hot link.
struct UsableLink {
    const Graph* graph = nullptr;
    LinkId avoid = -1;
    bool operator()(const Edge& edge) const {
        const LinkProperties& link = (*graph)[edge];
        return link.alive && link.id != avoid;
    }
};

} // namespace

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

    const Graph& graph = topology.graph();
    const boost::filtered_graph<Graph, UsableLink> usable(graph, UsableLink{&graph, avoid});
    // A hop, plus up to one more for a fully loaded link.
    const auto weight = boost::make_function_property_map<Edge, double>([&](const Edge& edge) {
        const auto index = static_cast<std::size_t>(graph[edge].id);
        const double bytes = index < linkBytes.size() ? linkBytes[index] : 0.0;
        return 1.0 + (maxBytes > 0 ? bytes / maxBytes : 0.0);
    });
    const auto dies = static_cast<std::size_t>(topology.vertexCount());
    std::vector<double> distance(dies, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> previous(dies);
    boost::dijkstra_shortest_paths(
        usable, static_cast<std::size_t>(src),
        boost::weight_map(weight).distance_map(distance.data()).predecessor_map(previous.data()));
    // Dijkstra leaves an unreached vertex its own predecessor (and the distance at max()).
    if (previous[static_cast<std::size_t>(dst)] == static_cast<std::size_t>(dst))
        return std::nullopt;
    std::vector<DieId> path;
    for (auto die = static_cast<std::size_t>(dst); die != static_cast<std::size_t>(src);
         die = previous[die])
        path.push_back(static_cast<DieId>(die));
    path.push_back(src);
    std::reverse(path.begin(), path.end());
    return path;
}

} // namespace ws
