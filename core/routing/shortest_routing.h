#pragma once

#include "routing/routing_policy.h"

namespace ws {

// Fewest hops over live dies and links; among the fewest-hop paths the one with the least total
// load (sum of linkLoads over its links); remaining ties by lower link id. Never crosses a
// fault, so the Router never has to detour it. Same as shortestLivePath().
class ShortestRouting : public RoutingPolicy {
public:
    std::optional<std::vector<DieId>> path(const WaferTopology& topology, DieId src, DieId dst,
                                           std::span<const double> linkLoads) const override;
};

} // namespace ws
