#pragma once

#include "topology/wafer_topology.h"

#include <optional>

namespace ws {

// How the simulator moves a flow's bytes over links (docs/network-model.md):
// - Fluid: bandwidth shared max-min fairly among the flows on each link, cut-through (the
//   latency of every hop paid once, after the last byte leaves the source).
// - StoreAndForward: the flow cut into chunks; every directed link a FIFO server carrying one
//   chunk at a time at full bandwidth, a chunk forwarded only once it has wholly arrived.
// The two bracket real links that move packets: fluid is the optimistic end.
enum class NetworkModel { Fluid, StoreAndForward };

// The network settings a problem is simulated with (the scenario's `network` key).
struct NetworkSettings {
    NetworkModel model = NetworkModel::Fluid;
    double chunkBytes = 1048576.0; // StoreAndForward: bytes per chunk, > 0 (1 MiB by default)
    friend bool operator==(const NetworkSettings&, const NetworkSettings&) = default;
};

// A link's bandwidth (bytes/s, per direction) and latency (s, per link crossed).
struct LinkSpeed {
    double bandwidth = 0.0;
    double latencyS = 0.0;
    friend bool operator==(const LinkSpeed&, const LinkSpeed&) = default;
};

// The speeds of the links that are not a wafer's die-to-die links, by LinkTier: a system's
// off-wafer links (SPEC section 8), a cluster's network cards and fat-tree uplinks (SPEC
// section 9). Unset: that tier has the wafer's speed. A cluster's node-switch links have the
// speed its WaferSpec carries (Scenario::cluster, `intra`).
struct LinkTierSpeeds {
    std::optional<LinkSpeed> offWafer;
    std::optional<LinkSpeed> nic;
    std::optional<LinkSpeed> uplink;

    // The speed of a link of `tier`, `wafer` where the tier has none of its own.
    LinkSpeed of(LinkTier tier, LinkSpeed wafer) const {
        const std::optional<LinkSpeed>* own = tier == LinkTier::OffWafer ? &offWafer
                                              : tier == LinkTier::Nic    ? &nic
                                              : tier == LinkTier::Uplink ? &uplink
                                                                         : nullptr;
        return own && own->has_value() ? **own : wafer;
    }
    bool any() const { return offWafer || nic || uplink; }
};

} // namespace ws
