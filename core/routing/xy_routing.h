#pragma once

#include "routing/routing_policy.h"

namespace ws {

// XY (dimension-order) routing: along the row first (the column changes), then along the
// column. Deterministic and oblivious to load; on a mesh the union of one source's routes is a
// tree, which makes XY multicast trees cheap.
class XyRouting : public RoutingPolicy {
public:
    std::optional<std::vector<DieId>> path(const WaferTopology& topology, DieId src, DieId dst,
                                           std::span<const double> linkLoads) const override;
};

} // namespace ws
