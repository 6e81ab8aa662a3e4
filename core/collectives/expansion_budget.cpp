#include "collectives/expansion_budget.h"

#include "scenario/scenario_error.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

// 33538560 -> "33,538,560".
std::string grouped(std::int64_t value) {
    std::string digits = std::to_string(value);
    for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

// The sides of the group's bounding rectangle (hierarchical rings run along its rows and
// columns; a group that does not fill it is refused later, when expanded).
std::pair<std::int64_t, std::int64_t> rectangleOf(const std::vector<DieId>& group,
                                                  const WaferTopology& topology) {
    int top = topology.rows(), bottom = -1, left = topology.cols(), right = -1;
    for (const DieId die : group) {
        if (die < 0 || die >= topology.dieCount())
            continue;
        const DieCoord c = topology.coord(die);
        top = std::min(top, c.row);
        bottom = std::max(bottom, c.row);
        left = std::min(left, c.col);
        right = std::max(right, c.col);
    }
    return {std::max(1, bottom - top + 1), std::max(1, right - left + 1)};
}

} // namespace

ExpansionSize expansionSizeOf(const TrafficOp& op, const WaferTopology& topology,
                              double chunkBytes) {
    const auto p = static_cast<std::int64_t>(op.group.size());
    const double n = op.bytes.value;
    std::int64_t flows = 0;
    double flowBytes = p > 0 ? n / static_cast<double>(p) : n; // most flows carry a rank's share
    if (op.kind == OpKind::P2P) {
        flows = 1;
        flowBytes = n;
    } else if (p > 1) {
        const std::int64_t pairs = p * (p - 1);
        switch (op.effectiveAlgorithm()) {
        case Algorithm::BidirectionalRing: // two rings, each on half of the buffer
            flows = 2 * (op.kind == OpKind::AllReduce ? 2 * pairs : pairs);
            flowBytes /= 2.0;
            break;
        case Algorithm::Ring:
        case Algorithm::Direct:
            flows = op.kind == OpKind::AllReduce   ? 2 * pairs
                    : op.kind == OpKind::Broadcast ? p - 1
                                                   : pairs;
            break;
        case Algorithm::Multicast:
            flows = op.kind == OpKind::AllReduce ? pairs + p : op.kind == OpKind::Broadcast ? 1 : p;
            break;
        case Algorithm::Tree: // reduction trees (and multicast trees back for an all-reduce)
            flows = op.kind == OpKind::AllReduce ? 2 * p : op.kind == OpKind::Broadcast ? 1 : p;
            break;
        case Algorithm::Hierarchical: {
            const auto [rows, cols] = rectangleOf(op.group, topology);
            flows = op.kind == OpKind::AllReduce ? p * (2 * (cols - 1) + 2 * (rows - 1))
                                                 : p * ((cols - 1) + (rows - 1));
            flowBytes = n / static_cast<double>(std::min(rows, cols)); // the larger phase
            break;
        }
        }
        if (op.kind == OpKind::Broadcast)
            flowBytes = n;
    }
    // A split op is its whole expansion `split` times over, on a share of the bytes each.
    flows *= op.split;
    flowBytes /= op.split;
    const double chunksPerFlow = std::max(1.0, std::ceil(flowBytes / chunkBytes));
    // Clamped so that the product stays an integer; anything this large is refused anyway.
    const double chunks = std::min(9e18, chunksPerFlow * static_cast<double>(flows));
    return {flows, static_cast<std::int64_t>(chunks)};
}

void ExpansionBudget::charge(const TrafficOp& op, const WaferTopology& topology,
                             const std::string& key) {
    const ExpansionSize size = expansionSizeOf(op, topology, m_network.chunkBytes);
    const std::string what = op.kind == OpKind::P2P
                                 ? "op '" + op.id + "' (p2p)"
                                 : "op '" + op.id + "' (a " + toString(op.effectiveAlgorithm()) +
                                       ' ' + toString(op.kind) + " over " +
                                       std::to_string(op.group.size()) + " dies)";
    const auto before = [](std::int64_t count, const char* unit) {
        return count > 0 ? "; with the " + grouped(count) + ' ' + unit + " before it the run"
                         : std::string("; the run");
    };
    if (size.flows > m_limits.maxFlows - m_flows)
        throw ScenarioError(
            key, what + " expands to " + grouped(size.flows) + " flows" + before(m_flows, "flows") +
                     " would build more than the limit of " + grouped(m_limits.maxFlows) +
                     " flows (0.4 to 1.1 KB each); use fewer dies or a cheaper "
                     "algorithm, or raise the limit with --max-flows N");
    m_flows += size.flows;
    if (m_network.model != NetworkModel::StoreAndForward)
        return;
    if (size.chunks > m_limits.maxChunks - m_chunks)
        throw ScenarioError(key, what + " cuts into " + grouped(size.chunks) +
                                     " store-and-forward chunks" + before(m_chunks, "chunks") +
                                     " would pass the limit of " + grouped(m_limits.maxChunks) +
                                     " chunks; raise network.chunk or the limit with "
                                     "--max-chunks N");
    m_chunks += size.chunks;
}

} // namespace ws
