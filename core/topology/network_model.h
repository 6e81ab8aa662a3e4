#pragma once

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

// The bandwidth (bytes/s) and latency (s) of a system's off-wafer links (SPEC section 8).
struct OffWaferLinks {
    double bandwidth = 0.0;
    double latencyS = 0.0;
};

} // namespace ws
