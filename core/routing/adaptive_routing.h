#pragma once

#include "routing/routing_policy.h"

namespace ws {

// Load-balancing routing that may leave minimal paths: the path whose most loaded link is least
// loaded (the smallest threshold T such that dst is reachable over live links of load <= T),
// then the fewest hops over those links, then the least total load, then lower link ids.
//
// Example: 2x2 mesh, 0 -> 1 with 0->1 loaded: it goes 0 -> 2 -> 3 -> 1 over unloaded links,
// three hops where shortest routing takes the single loaded one.
class AdaptiveRouting : public RoutingPolicy {
public:
    std::optional<std::vector<DieId>> path(const WaferTopology& topology, DieId src, DieId dst,
                                           std::span<const double> linkLoads) const override;
};

} // namespace ws
