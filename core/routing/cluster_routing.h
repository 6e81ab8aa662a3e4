#pragma once

#include "routing/routing_policy.h"

namespace ws {

// The routes of a cluster (docs/network-model.md section 12), the same in every routing mode:
// - inside a node: GPU -> node switch -> GPU;
// - rail network: GPU g -> rail g -> GPU g of the other node, then, if the destination is on
//   another rail, -> that node's switch -> the destination (a GPU reaches other nodes through
//   its own rail; NCCL's PXN instead crosses the source node's switch first, the same tiers in
//   the other order);
// - fat tree: GPU -> its leaf [-> spine -> the destination's leaf] -> GPU.
// Each is a fewest-hop path; a dead GPU on it makes the Router detour.
class ClusterRouting : public RoutingPolicy {
public:
    std::optional<std::vector<DieId>> path(const WaferTopology& topology, DieId src, DieId dst,
                                           std::span<const double> linkLoads) const override;
};

} // namespace ws
