#pragma once

#include "topology/wafer_topology.h"

#include <optional>
#include <span>
#include <vector>

namespace ws {

// TCME's bypass for a hot unicast flow: the cheapest path from src to dst over live links,
// never using `avoid` (the most congested link), where a link costs 1 + linkBytes[link] /
// maxLinkBytes (a hop, plus up to one more for a fully loaded link, so loaded links are
// avoided when a detour is short). Boost.Graph's Dijkstra on the wafer graph filtered to the
// usable links; deterministic for the same inputs. nullopt when dst cannot be reached that way.
//
// Example: on a 2x2 mesh with `avoid` = 1->3, bypassPath(0, 3) is {0, 2, 3}.
std::optional<std::vector<DieId>> bypassPath(const WaferTopology& topology, DieId src, DieId dst,
                                             LinkId avoid, std::span<const double> linkBytes);

} // namespace ws
