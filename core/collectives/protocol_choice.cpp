#include "collectives/protocol_choice.h"

#include <limits>

namespace ws {

LinkTier protocolTierOf(const WaferTopology& topology, const std::vector<DieId>& group) {
    if (group.empty())
        return topology.isCluster() ? LinkTier::NodeSwitch : LinkTier::Wafer;
    if (topology.isCluster()) {
        const int node = group.front() / topology.cols();
        for (DieId die : group)
            if (die / topology.cols() != node)
                return LinkTier::Nic;
        return LinkTier::NodeSwitch;
    }
    if (topology.waferCount() > 1) {
        const int wafer = topology.waferOf(group.front());
        for (DieId die : group)
            if (topology.waferOf(die) != wafer)
                return LinkTier::OffWafer;
    }
    return LinkTier::Wafer;
}

double busBytes(OpKind kind, int ranks, double bytes) {
    const double p = ranks;
    switch (kind) {
    case OpKind::AllReduce:
        return p > 1 ? 2.0 * (p - 1) / p * bytes : 0.0;
    case OpKind::AllGather:
    case OpKind::ReduceScatter:
    case OpKind::AllToAll:
        return p > 1 ? (p - 1) / p * bytes : 0.0;
    case OpKind::Broadcast:
    case OpKind::P2P:
        break;
    }
    return bytes;
}

ProtocolChoice chooseProtocol(const std::vector<CollectiveProtocol>& protocols, OpKind kind,
                              int ranks, double bytes, double lineRateBytesPerSecond) {
    ProtocolChoice best;
    double bestS = std::numeric_limits<double>::infinity();
    const double bus = busBytes(kind, ranks, bytes);
    for (const CollectiveProtocol& protocol : protocols) {
        const double seconds =
            protocol.latencyS + bus / (protocol.efficiency * lineRateBytesPerSecond);
        if (seconds < bestS) {
            bestS = seconds;
            best = {protocol.name, protocol.latencyS, protocol.efficiency};
        }
    }
    return best;
}

void applyProtocol(std::vector<Flow>& flows, const ProtocolChoice& choice) {
    if (choice.efficiency == 1.0)
        return;
    for (Flow& flow : flows)
        flow.bytes /= choice.efficiency;
}

} // namespace ws
