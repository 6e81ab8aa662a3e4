#pragma once

#include "scenario/scenario.h"
#include "topology/wafer_topology.h"

#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace ws {

// How a unicast path is chosen: one small class per routing mode, created by name.
// `linkLoads` (bytes per LinkId) is the load of flows routed so far, for policies that break
// ties or adapt by load. A policy may return a path that crosses dead dies or links (XY does):
// the Router then detours. It returns nullopt when it finds no path at all.
class RoutingPolicy {
public:
    virtual ~RoutingPolicy() = default;
    virtual std::optional<std::vector<DieId>> path(const WaferTopology& topology, DieId src,
                                                   DieId dst,
                                                   std::span<const double> linkLoads) const = 0;
};

std::unique_ptr<RoutingPolicy> makeRoutingPolicy(RoutingMode mode);

// Fewest live hops from src to dst (BFS over the live dies and links of the topology graph); among
// equally short paths the one with the least total load (sum of linkLoads over its links) is taken,
// lower link ids breaking the remaining ties. nullopt if dst cannot be reached.
std::optional<std::vector<DieId>> shortestLivePath(const WaferTopology& topology, DieId src,
                                                   DieId dst, std::span<const double> linkLoads);

} // namespace ws
