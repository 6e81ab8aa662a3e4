#pragma once

#include "scenario/scenario.h"
#include "topology/network_model.h"
#include "topology/wafer_topology.h"

#include <cstdint>
#include <string>

namespace ws {

// How much a run may build before it is refused as too large (docs/cli.md, "Scenarios too
// large to simulate"). A flow costs about 400 bytes in a run reported as a summary and 1.1 KB in
// one that builds the full report (per-flow records), so the default flow limit keeps a run
// near 1.2 GB or 3.3 GB; the chunk limit (store-and-forward only) bounds its events, at about
// 10 M chunk hops a second.
struct ExpansionLimits {
    std::int64_t maxFlows = 3'000'000;
    std::int64_t maxChunks = 200'000'000;
};

// What one op expands to (collective_expansion.h's rules), counted without expanding it.
struct ExpansionSize {
    std::int64_t flows = 0;
    std::int64_t chunks = 0; // store-and-forward chunks over all flows (first hop only)
};
ExpansionSize expansionSizeOf(const TrafficOp& op, const WaferTopology& topology,
                              double chunkBytes);

// Counts the flows (and chunks) of every op a run expands, before it is expanded, and throws
// ScenarioError at the op's key once the run would pass a limit: "op 'ar' (a ring allreduce
// over 4096 dies) expands to 33,538,560 flows; the run would build more than the limit of
// 3,000,000 flows ...". The count is exact, so the refusal comes before any memory is spent.
class ExpansionBudget {
public:
    ExpansionBudget(ExpansionLimits limits, NetworkSettings network)
        : m_limits(limits), m_network(network) {}

    void charge(const TrafficOp& op, const WaferTopology& topology, const std::string& key);

    std::int64_t flows() const { return m_flows; }
    std::int64_t chunks() const { return m_chunks; }

private:
    ExpansionLimits m_limits;
    NetworkSettings m_network;
    std::int64_t m_flows = 0;
    std::int64_t m_chunks = 0;
};

} // namespace ws
