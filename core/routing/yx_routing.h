#pragma once

#include "routing/routing_policy.h"

namespace ws {

// YX routing: along the column first (the row changes), then along the row. The mirror
// image of XY, useful to spread traffic that XY concentrates on row links.
class YxRouting : public RoutingPolicy {
public:
    std::optional<std::vector<DieId>> path(const WaferTopology& topology, DieId src, DieId dst,
                                           std::span<const double> linkLoads) const override;
};

} // namespace ws
