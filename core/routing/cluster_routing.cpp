#include "routing/cluster_routing.h"

namespace ws {

std::optional<std::vector<DieId>>
ClusterRouting::path(const WaferTopology& topology, DieId src, DieId dst,
                     std::span<const double> /*linkLoads*/) const {
    if (!topology.isCluster() || !topology.contains(src) || !topology.contains(dst))
        return std::nullopt;
    if (src == dst)
        return std::vector<DieId>{src};
    const DieCoord from = topology.coord(src);
    const DieCoord to = topology.coord(dst);
    if (from.row == to.row)
        return std::vector<DieId>{src, topology.nodeSwitch(from.row), dst};
    if (topology.clusterNetwork() == ClusterNetwork::Rail) {
        std::vector<DieId> path{src, topology.railSwitch(from.col)};
        const DieId landing = topology.dieAt({to.row, from.col});
        path.push_back(landing);
        if (landing != dst) {
            path.push_back(topology.nodeSwitch(to.row));
            path.push_back(dst);
        }
        return path;
    }
    const int fromLeaf = topology.leafOf(src);
    const int toLeaf = topology.leafOf(dst);
    if (fromLeaf == toLeaf)
        return std::vector<DieId>{src, topology.leafSwitch(fromLeaf), dst};
    return std::vector<DieId>{src, topology.leafSwitch(fromLeaf), topology.spineSwitch(),
                              topology.leafSwitch(toLeaf), dst};
}

} // namespace ws
