#pragma once

#include "topology/wafer_topology.h"

#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace ws {

// Breadth-first searches (over the topology graph's adjacency) of the live part of the wafer (alive
// dies, alive links) restricted to links whose load is at most `maxLinkLoad` bytes. `linkLoads` is
// indexed by LinkId; links past its end count as unloaded, so an empty span means "no load yet".
//
// The fewest-hop path from src to dst; among the fewest-hop paths the one with the least total
// load (sum of its links' loads), found by dynamic programming over the BFS layers; remaining
// ties go to the lower id of the last link into each die. {src} when src == dst; nullopt when
// dst is unreachable (or either end is dead).
std::optional<std::vector<DieId>>
leastLoadFewestHopPath(const WaferTopology& topology, DieId src, DieId dst,
                       std::span<const double> linkLoads,
                       double maxLinkLoad = std::numeric_limits<double>::infinity());

// A link's load in `linkLoads`: 0 for a link past its end (unloaded, as above).
inline double loadOf(std::span<const double> linkLoads, LinkId id) {
    return static_cast<std::size_t>(id) < linkLoads.size() ? linkLoads[static_cast<std::size_t>(id)]
                                                           : 0.0;
}

// Whether dst is reachable from src under the same restriction.
bool liveReachable(const WaferTopology& topology, DieId src, DieId dst,
                   std::span<const double> linkLoads, double maxLinkLoad);

} // namespace ws
