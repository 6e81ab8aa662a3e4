#pragma once

#include "topology/wafer_topology.h"

#include <optional>
#include <string>
#include <vector>

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
// off-wafer links (docs/network-model.md section 11), a cluster's network cards and fat-tree
// uplinks (section 12). Unset: that tier has the wafer's speed. A cluster's node-switch links have
// the speed its WaferSpec carries (Scenario::cluster, `intra`).
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

// A protocol a link tier runs collectives with (docs/network-model.md section 4.8), as NCCL's
// tuner costs them: a fixed latency per collective (or transfer) and the share of the tier's
// line rate its data moves at.
struct CollectiveProtocol {
    std::string name;        // "LL", "LL128", "Simple", "d2d", ...
    double latencyS = 0.0;   // seconds, paid once per collective
    double efficiency = 1.0; // (0, 1]: its bus bandwidth over the tier's line rate
    friend bool operator==(const CollectiveProtocol&, const CollectiveProtocol&) = default;
};

// The protocols of each link tier; a collective uses the list of the slowest tier its group
// spans (protocolTierOf, collectives/protocol_choice.h). An empty list: the line rate, no
// latency beyond the links' own.
struct TierProtocols {
    std::vector<CollectiveProtocol> wafer;    // die-to-die links; a cluster's node switch (NVLink)
    std::vector<CollectiveProtocol> offWafer; // a system's off-wafer links
    std::vector<CollectiveProtocol> network;  // a cluster's network cards and uplinks

    const std::vector<CollectiveProtocol>& of(LinkTier tier) const {
        switch (tier) {
        case LinkTier::OffWafer:
            return offWafer;
        case LinkTier::Nic:
        case LinkTier::Uplink:
            return network;
        case LinkTier::Wafer:
        case LinkTier::NodeSwitch:
            break;
        }
        return wafer;
    }
    bool any() const { return !wafer.empty() || !offWafer.empty() || !network.empty(); }
    friend bool operator==(const TierProtocols&, const TierProtocols&) = default;
};

} // namespace ws
