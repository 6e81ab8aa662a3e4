#pragma once

#include "collectives/flow.h"
#include "scenario/scenario.h"
#include "topology/network_model.h"
#include "topology/wafer_topology.h"

#include <string>
#include <vector>

namespace ws {

// The protocol a collective runs with (docs/network-model.md section 4.8): its fixed latency and
// the share of the line rate its data moves at. The default is the line rate with no latency.
struct ProtocolChoice {
    std::string name;
    double latencyS = 0.0;
    double efficiency = 1.0;
};

// The slowest tier a group of dies spans, whose protocols its collectives use: a cluster's
// network when the group spans nodes, else its node switch; a system's off-wafer links when it
// spans wafers; else the wafer's die-to-die links.
LinkTier protocolTierOf(const WaferTopology& topology, const std::vector<DieId>& group);

// The bytes one rank moves in a collective of `bytes` (the whole buffer) over `ranks` ranks,
// nccl-tests' "bus" bytes: 2(P-1)/P N for an all-reduce, (P-1)/P N for an all-gather,
// reduce-scatter or all-to-all, N for a broadcast or a point-to-point transfer.
double busBytes(OpKind kind, int ranks, double bytes);

// The fastest of `protocols` for the collective, as NCCL's tuner picks (src/graph/tuning.cc):
// the least latency + busBytes / (efficiency x lineRate); the first on a tie. The line rate,
// with no latency, when the list is empty.
ProtocolChoice chooseProtocol(const std::vector<CollectiveProtocol>& protocols, OpKind kind,
                              int ranks, double bytes, double lineRateBytesPerSecond);

// What the choice does to the collective's flows: each carries its bytes / efficiency on the
// wire, and those that wait for no other flow of the collective (its first) start `latencyS`
// after the collective is issued (SimTask::startDelayS, which the caller sets from
// firstFlowDelayS).
void applyProtocol(std::vector<Flow>& flows, const ProtocolChoice& choice);
inline double firstFlowDelayS(const Flow& flow, const ProtocolChoice& choice) {
    return flow.flowDeps.empty() ? choice.latencyS : 0.0;
}

} // namespace ws
