#include "routing/shortest_routing.h"

#include "routing/live_path_search.h"

namespace ws {

std::optional<std::vector<DieId>> ShortestRouting::path(const WaferTopology& topology, DieId src,
                                                        DieId dst,
                                                        std::span<const double> linkLoads) const {
    return leastLoadFewestHopPath(topology, src, dst, linkLoads);
}

std::optional<std::vector<DieId>> shortestLivePath(const WaferTopology& topology, DieId src,
                                                   DieId dst, std::span<const double> linkLoads) {
    return leastLoadFewestHopPath(topology, src, dst, linkLoads);
}

} // namespace ws
