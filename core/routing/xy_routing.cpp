#include "routing/xy_routing.h"

#include "routing/dimension_order_path.h"

namespace ws {

std::optional<std::vector<DieId>> XyRouting::path(const WaferTopology& topology, DieId src,
                                                  DieId dst,
                                                  std::span<const double> /*linkLoads*/) const {
    if (!topology.contains(src) || !topology.contains(dst))
        return std::nullopt;
    return dimensionOrderPath(topology, src, dst, /*rowFirst=*/true);
}

} // namespace ws
