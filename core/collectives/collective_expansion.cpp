#include "collectives/collective_expansion.h"

#include "sim/run_cancelled.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <stdexcept>
#include <system_error>

namespace ws {

namespace {

// Names as written in files. Local on purpose: error text must not depend on the parser.
std::string opName(OpKind kind) {
    switch (kind) {
    case OpKind::P2P:
        return "p2p";
    case OpKind::AllGather:
        return "allgather";
    case OpKind::ReduceScatter:
        return "reducescatter";
    case OpKind::AllReduce:
        return "allreduce";
    case OpKind::Broadcast:
        return "broadcast";
    case OpKind::AllToAll:
        return "alltoall";
    }
    return "?";
}

std::string algorithmName(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::Ring:
        return "ring";
    case Algorithm::Multicast:
        return "multicast";
    case Algorithm::Hierarchical:
        return "hierarchical";
    case Algorithm::Direct:
        return "direct";
    case Algorithm::Tree:
        return "tree";
    case Algorithm::BidirectionalRing:
        return "bidirectional_ring";
    }
    return "?";
}

// Builds one op's flows. Ranks are indices into the op's group; flow indices are local to the
// expansion.
class Expansion {
public:
    Expansion(const TrafficOp& op, int opIndex, const std::function<bool()>& cancel)
        : m_op(op), m_opIndex(opIndex), m_cancel(cancel) {}

    int add(int step, int rank, std::vector<DieId> dsts, double bytes, bool multicast,
            std::vector<int> deps) {
        pollCancelAt(m_flows.size(), m_cancel);
        // "<op id>/s<step>/r<rank>", built without temporaries: big rings make 10^5 flows. Two
        // ints take at most 22 characters, so the buffer always suffices; the checks tell the
        // compiler so (without them GCC 12 warns of an overflow on to_chars' error path).
        char suffix[32];
        char* end = suffix;
        *end++ = '/';
        *end++ = 's';
        const auto afterStep = std::to_chars(end, suffix + sizeof suffix - 2, step);
        if (afterStep.ec != std::errc{})
            throw std::logic_error("flow id suffix overflow");
        end = afterStep.ptr;
        *end++ = '/';
        *end++ = 'r';
        const auto afterRank = std::to_chars(end, suffix + sizeof suffix, rank);
        if (afterRank.ec != std::errc{})
            throw std::logic_error("flow id suffix overflow");
        end = afterRank.ptr;
        Flow& flow = m_flows.emplace_back();
        flow.id.reserve(m_op.id.size() + static_cast<std::size_t>(end - suffix) +
                        m_idSuffix.size());
        flow.id.append(m_op.id).append(suffix, end).append(m_idSuffix);
        flow.opIndex = m_opIndex;
        flow.step = step;
        flow.rank = rank;
        flow.src = m_op.group[static_cast<std::size_t>(rank)];
        flow.dsts = std::move(dsts);
        flow.bytes = bytes;
        flow.multicast = multicast;
        flow.flowDeps = std::move(deps);
        return static_cast<int>(m_flows.size()) - 1;
    }
    // Room for `count` more flows (a ring all-reduce over 256 dies makes 130,560).
    void reserveMore(std::size_t count) { m_flows.reserve(m_flows.size() + count); }
    int addUnicast(int step, int rank, int dstRank, double bytes, std::vector<int> deps) {
        return add(step, rank, {die(dstRank)}, bytes, false, std::move(deps));
    }

    DieId die(int rank) const { return m_op.group[static_cast<std::size_t>(rank)]; }
    // Appended to the ids of the flows added from now on ("/rev": a bidirectional ring's
    // second ring).
    void setIdSuffix(std::string suffix) { m_idSuffix = std::move(suffix); }
    int groupSize() const { return static_cast<int>(m_op.group.size()); }
    std::vector<Flow> take() { return std::move(m_flows); }

    // Ring phase over disjoint rings (each a list of ranks in ring order), `steps` steps of
    // `bytes` per flow numbered from `firstStep`. In each step every ring member sends to its
    // successor; its flow waits for the last flow it received (the previous step's, or the
    // previous phase's: `lastReceived` per rank, -1 for none), which is updated on return.
    // Within a step flows are ordered by sender rank.
    void ringPhase(const std::vector<std::vector<int>>& rings, int steps, double bytes,
                   int firstStep, std::vector<int>& lastReceived) {
        std::vector<std::pair<int, int>> sends; // (rank, successor rank), by rank
        for (const auto& ring : rings) {
            if (ring.size() < 2)
                continue;
            for (std::size_t i = 0; i < ring.size(); ++i)
                sends.emplace_back(ring[i], ring[(i + 1) % ring.size()]);
        }
        std::sort(sends.begin(), sends.end());
        reserveMore(sends.size() * static_cast<std::size_t>(std::max(steps, 0)));
        std::vector<int> received = lastReceived;
        for (int s = 0; s < steps; ++s) {
            for (const auto& [rank, next] : sends) {
                const int last = lastReceived[static_cast<std::size_t>(rank)];
                received[static_cast<std::size_t>(next)] =
                    addUnicast(firstStep + s, rank, next, bytes,
                               last >= 0 ? std::vector<int>{last} : std::vector<int>{});
            }
            lastReceived = received;
        }
    }

    // Every rank sends to every other rank at once: step k of rank i goes to rank
    // (i + k + 1) mod P. Returns, per rank, the flows it receives.
    std::vector<std::vector<int>> direct(int firstStep, double bytes,
                                         const std::vector<std::vector<int>>& depsByRank) {
        const int p = groupSize();
        std::vector<std::vector<int>> received(static_cast<std::size_t>(p));
        reserveMore(static_cast<std::size_t>(p) * static_cast<std::size_t>(p - 1));
        for (int k = 0; k + 1 < p; ++k) {
            for (int i = 0; i < p; ++i) {
                const int to = (i + k + 1) % p;
                received[static_cast<std::size_t>(to)].push_back(addUnicast(
                    firstStep + k, i, to, bytes, depsByRank[static_cast<std::size_t>(i)]));
            }
        }
        return received;
    }

    // Each rank sends one tree to all other ranks (destinations in ring order after it).
    void multicastAll(int step, double bytes, const std::vector<std::vector<int>>& depsByRank) {
        const int p = groupSize();
        for (int i = 0; p > 1 && i < p; ++i)
            add(step, i, othersFrom(i), bytes, true, depsByRank[static_cast<std::size_t>(i)]);
    }

    // Each rank receives one reduction tree from all other ranks: its chunk of the buffer, summed
    // where branches meet. Returns, per rank, its reduction flow.
    std::vector<int> reduceAll(int step, double bytes) {
        const int p = groupSize();
        std::vector<int> reduced(static_cast<std::size_t>(p), -1);
        for (int i = 0; p > 1 && i < p; ++i) {
            const int flow = add(step, i, othersFrom(i), bytes, true, {});
            m_flows[static_cast<std::size_t>(flow)].reduction = true;
            reduced[static_cast<std::size_t>(i)] = flow;
        }
        return reduced;
    }

    std::vector<DieId> othersFrom(int rank) const {
        const int p = groupSize();
        std::vector<DieId> dsts;
        dsts.reserve(static_cast<std::size_t>(p - 1));
        for (int k = 1; k < p; ++k)
            dsts.push_back(die((rank + k) % p));
        return dsts;
    }

private:
    const TrafficOp& m_op;
    int m_opIndex;
    const std::function<bool()>& m_cancel;
    std::vector<Flow> m_flows;
    std::string m_idSuffix;
};

std::string dieRange(const WaferTopology& topology) {
    return "(dies are 0 to " + std::to_string(topology.dieCount() - 1) + ")";
}

void checkDie(const WaferTopology& topology, DieId die, const std::string& keyPath) {
    if (!topology.contains(die))
        throw ScenarioError(keyPath, "die " + std::to_string(die) + " is not on the wafer " +
                                         dieRange(topology));
}

void checkGroup(const TrafficOp& op, const WaferTopology& topology, const std::string& key) {
    if (op.group.empty())
        throw ScenarioError(key + ".group", "a " + opName(op.kind) + " needs at least one die");
    std::set<DieId> seen;
    for (std::size_t i = 0; i < op.group.size(); ++i) {
        const std::string at = key + ".group[" + std::to_string(i) + "]";
        checkDie(topology, op.group[i], at);
        if (!seen.insert(op.group[i]).second)
            throw ScenarioError(at, "die " + std::to_string(op.group[i]) +
                                        " appears twice in the group");
    }
}

int rootRank(const TrafficOp& op, const std::string& key) {
    const DieId root = op.effectiveRoot();
    const auto it = std::find(op.group.begin(), op.group.end(), root);
    if (it == op.group.end())
        throw ScenarioError(key + ".root",
                            "root die " + std::to_string(root) + " is not in the group");
    return static_cast<int>(it - op.group.begin());
}

[[noreturn]] void unsupported(const TrafficOp& op, const std::string& key) {
    throw ScenarioError(key + ".algorithm", "algorithm '" + algorithmName(op.effectiveAlgorithm()) +
                                                "' is not defined for " + opName(op.kind));
}

std::vector<Flow> expandP2P(const TrafficOp& op, int opIndex, const WaferTopology& topology,
                            const std::string& key) {
    checkDie(topology, op.src, key + ".src");
    checkDie(topology, op.dst, key + ".dst");
    if (op.src == op.dst)
        throw ScenarioError(key + ".dst",
                            "die " + std::to_string(op.dst) + " is also the source: nothing moves");
    // A single transfer is every algorithm at once; only the collective-only ones are errors.
    if (op.algorithm == Algorithm::Multicast || op.algorithm == Algorithm::Hierarchical ||
        op.algorithm == Algorithm::Tree)
        unsupported(op, key);
    Flow flow;
    flow.id = op.id;
    flow.opIndex = opIndex;
    flow.src = op.src;
    flow.dsts = {op.dst};
    flow.bytes = op.bytes.value;
    return {std::move(flow)};
}

std::vector<Flow> expandRing(const TrafficOp& op, Expansion& e) {
    const int p = e.groupSize();
    const double n = op.bytes.value;
    std::vector<int> ring(static_cast<std::size_t>(p));
    for (int i = 0; i < p; ++i)
        ring[static_cast<std::size_t>(i)] = i;
    std::vector<int> lastReceived(static_cast<std::size_t>(p), -1);
    switch (op.kind) {
    case OpKind::AllGather:
    case OpKind::ReduceScatter:
        e.ringPhase({ring}, p - 1, n / p, 0, lastReceived);
        break;
    case OpKind::AllReduce:
        e.ringPhase({ring}, 2 * (p - 1), n / p, 0, lastReceived);
        break;
    case OpKind::Broadcast: {
        // A chain from the root along the ring, forwarding the whole buffer.
        const int root = rootRank(op, std::string()); // checked by the caller
        int previous = -1;
        for (int s = 0; s + 1 < p; ++s) {
            const int rank = (root + s) % p;
            previous =
                e.addUnicast(s, rank, (rank + 1) % p, n,
                             previous >= 0 ? std::vector<int>{previous} : std::vector<int>{});
        }
        break;
    }
    case OpKind::AllToAll: {
        // Pairwise exchange: step s of rank i goes to rank (i + s + 1) mod P after its step s-1.
        std::vector<int> own(static_cast<std::size_t>(p), -1);
        e.reserveMore(static_cast<std::size_t>(p) * static_cast<std::size_t>(p - 1));
        for (int s = 0; s + 1 < p; ++s) {
            for (int i = 0; i < p; ++i) {
                const int last = own[static_cast<std::size_t>(i)];
                own[static_cast<std::size_t>(i)] =
                    e.addUnicast(s, i, (i + s + 1) % p, n / p,
                                 last >= 0 ? std::vector<int>{last} : std::vector<int>{});
            }
        }
        break;
    }
    case OpKind::P2P:
        break;
    }
    return e.take();
}

// Two rings at once in opposite directions, each on half of the buffer: the group's order and
// its reverse. The second ring's flows are "<op id>/s<step>/r<rank>/rev" (rank i sends to
// rank i - 1). On a cycle of dies each ring uses one direction of every link.
std::vector<Flow> expandBidirectionalRing(const TrafficOp& op, Expansion& e) {
    const int p = e.groupSize();
    const double n = op.bytes.value / 2.0;
    std::vector<int> ring(static_cast<std::size_t>(p));
    for (int i = 0; i < p; ++i)
        ring[static_cast<std::size_t>(i)] = i;
    const int steps = op.kind == OpKind::AllReduce ? 2 * (p - 1) : p - 1;
    std::vector<int> lastReceived(static_cast<std::size_t>(p), -1);
    e.ringPhase({ring}, steps, n / p, 0, lastReceived);
    std::reverse(ring.begin(), ring.end());
    std::fill(lastReceived.begin(), lastReceived.end(), -1);
    e.setIdSuffix("/rev");
    e.ringPhase({ring}, steps, n / p, 0, lastReceived);
    return e.take();
}

std::vector<Flow> expandDirect(const TrafficOp& op, Expansion& e) {
    const int p = e.groupSize();
    const double n = op.bytes.value;
    const std::vector<std::vector<int>> noDeps(static_cast<std::size_t>(p));
    switch (op.kind) {
    case OpKind::AllGather:
    case OpKind::ReduceScatter:
    case OpKind::AllToAll:
        e.direct(0, n / p, noDeps);
        break;
    case OpKind::AllReduce: {
        const auto received = e.direct(0, n / p, noDeps);
        e.direct(p - 1, n / p, received);
        break;
    }
    case OpKind::Broadcast: {
        const int root = rootRank(op, std::string());
        for (int k = 0; k + 1 < p; ++k)
            e.addUnicast(k, root, (root + k + 1) % p, n, {});
        break;
    }
    case OpKind::P2P:
        break;
    }
    return e.take();
}

std::vector<Flow> expandMulticast(const TrafficOp& op, Expansion& e, const std::string& key) {
    const int p = e.groupSize();
    const double n = op.bytes.value;
    const std::vector<std::vector<int>> noDeps(static_cast<std::size_t>(p));
    switch (op.kind) {
    case OpKind::AllGather:
        e.multicastAll(0, n / p, noDeps);
        break;
    case OpKind::AllReduce: {
        const auto received = e.direct(0, n / p, noDeps);
        e.multicastAll(p - 1, n / p, received);
        break;
    }
    case OpKind::Broadcast: {
        const int root = rootRank(op, key);
        if (p > 1)
            e.add(0, root, e.othersFrom(root), n, true, {});
        break;
    }
    case OpKind::ReduceScatter:
    case OpKind::AllToAll:
    case OpKind::P2P:
        unsupported(op, key);
    }
    return e.take();
}

// Reduction trees (docs/network-model.md section 4.5): every rank's chunk is reduced into it
// along a tree from all the others; an all-reduce then multicasts each reduced chunk back along
// a tree. All-gather and broadcast have nothing to reduce: `tree` is `multicast` for them.
std::vector<Flow> expandTree(const TrafficOp& op, Expansion& e, const std::string& key) {
    const int p = e.groupSize();
    const double n = op.bytes.value;
    switch (op.kind) {
    case OpKind::ReduceScatter:
        e.reduceAll(0, n / p);
        break;
    case OpKind::AllReduce: {
        const std::vector<int> reduced = e.reduceAll(0, n / p);
        std::vector<std::vector<int>> after(static_cast<std::size_t>(p));
        for (int i = 0; i < p; ++i)
            after[static_cast<std::size_t>(i)] = {reduced[static_cast<std::size_t>(i)]};
        e.multicastAll(1, n / p, after);
        break;
    }
    case OpKind::AllGather:
    case OpKind::Broadcast:
        return expandMulticast(op, e, key);
    case OpKind::AllToAll:
    case OpKind::P2P:
        unsupported(op, key);
    }
    return e.take();
}

std::vector<Flow> expandHierarchical(const TrafficOp& op, Expansion& e,
                                     const WaferTopology& topology, const std::string& key) {
    if (op.kind != OpKind::AllGather && op.kind != OpKind::ReduceScatter &&
        op.kind != OpKind::AllReduce)
        unsupported(op, key);
    // The group must be exactly the dies of its bounding rectangle.
    const int p = e.groupSize();
    int top = topology.rows(), bottom = -1, left = topology.cols(), right = -1;
    for (DieId die : op.group) {
        const DieCoord c = topology.coord(die);
        top = std::min(top, c.row);
        bottom = std::max(bottom, c.row);
        left = std::min(left, c.col);
        right = std::max(right, c.col);
    }
    const int rows = bottom - top + 1;
    const int cols = right - left + 1;
    if (rows * cols != p)
        throw ScenarioError(key + ".group",
                            "hierarchical needs a group that fills a rectangle of dies exactly; "
                            "these " +
                                std::to_string(p) + " dies span rows " + std::to_string(top) +
                                " to " + std::to_string(bottom) + " and columns " +
                                std::to_string(left) + " to " + std::to_string(right) + " (" +
                                std::to_string(rows * cols) + " dies)");
    // Group dies are distinct (checked) and inside the rectangle, so rows * cols == p means
    // they fill it. Rings: each row left to right, each column top to bottom (ranks).
    std::vector<int> rankAt(static_cast<std::size_t>(p), -1);
    for (int rank = 0; rank < p; ++rank) {
        const DieCoord c = topology.coord(e.die(rank));
        rankAt[static_cast<std::size_t>((c.row - top) * cols + (c.col - left))] = rank;
    }
    std::vector<std::vector<int>> rowRings(static_cast<std::size_t>(rows));
    std::vector<std::vector<int>> colRings(static_cast<std::size_t>(cols));
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const int rank = rankAt[static_cast<std::size_t>(r * cols + c)];
            rowRings[static_cast<std::size_t>(r)].push_back(rank);
            colRings[static_cast<std::size_t>(c)].push_back(rank);
        }
    }

    const double n = op.bytes.value;
    std::vector<int> lastReceived(static_cast<std::size_t>(p), -1);
    int step = 0;
    const auto phase = [&](const std::vector<std::vector<int>>& rings, int steps, double bytes) {
        e.ringPhase(rings, steps, bytes, step, lastReceived);
        step += steps;
    };
    switch (op.kind) {
    case OpKind::AllGather:
        // Row all-gather of the N/P chunks, then column all-gather of the rows' blocks.
        phase(rowRings, cols - 1, n / p);
        phase(colRings, rows - 1, n * cols / p);
        break;
    case OpKind::ReduceScatter:
        // Row reduce-scatter leaves N/cols per die, column reduce-scatter N/P.
        phase(rowRings, cols - 1, n / cols);
        phase(colRings, rows - 1, n / p);
        break;
    case OpKind::AllReduce:
        // Row reduce-scatter, column all-reduce of the N/cols piece, row all-gather.
        phase(rowRings, cols - 1, n / cols);
        phase(colRings, 2 * (rows - 1), n / p);
        phase(rowRings, cols - 1, n / cols);
        break;
    default:
        break;
    }
    return e.take();
}

std::vector<Flow> expandWhole(const TrafficOp& op, int opIndex, const WaferTopology& topology,
                              const std::string& opKeyPath, const std::function<bool()>& cancel) {
    if (op.kind == OpKind::P2P)
        return expandP2P(op, opIndex, topology, opKeyPath);
    checkGroup(op, topology, opKeyPath);
    if (op.kind == OpKind::Broadcast)
        rootRank(op, opKeyPath);
    Expansion expansion(op, opIndex, cancel);
    switch (op.effectiveAlgorithm()) {
    case Algorithm::Ring:
        return expandRing(op, expansion);
    case Algorithm::Direct:
        return expandDirect(op, expansion);
    case Algorithm::Multicast:
        return expandMulticast(op, expansion, opKeyPath);
    case Algorithm::Hierarchical:
        return expandHierarchical(op, expansion, topology, opKeyPath);
    case Algorithm::Tree:
        return expandTree(op, expansion, opKeyPath);
    case Algorithm::BidirectionalRing:
        if (op.kind != OpKind::AllGather && op.kind != OpKind::ReduceScatter &&
            op.kind != OpKind::AllReduce)
            unsupported(op, opKeyPath);
        return expandBidirectionalRing(op, expansion);
    }
    return {};
}

// A split op (docs/file-format.md, `split`) is its whole expansion `parts` times over, on
// 1/parts of the buffer each: part j of a flow carries 1/parts of its bytes, is named
// "<flow id>/p<j>" and waits for part j of each flow the whole one waited for, so the parts are
// independent copies of the algorithm that run at once. Flow f's part j is at f * parts + j.
std::vector<Flow> splitIntoParts(std::vector<Flow> whole, int parts) {
    std::vector<Flow> split;
    split.reserve(whole.size() * static_cast<std::size_t>(parts));
    for (Flow& flow : whole) {
        for (int j = 0; j < parts; ++j) {
            Flow& part = split.emplace_back(flow);
            part.id.append("/p").append(std::to_string(j));
            part.bytes = flow.bytes / parts;
            for (int& dep : part.flowDeps)
                dep = dep * parts + j;
        }
    }
    return split;
}

} // namespace

std::vector<Flow> expandOp(const TrafficOp& op, int opIndex, const WaferTopology& topology,
                           const std::string& opKeyPath, const std::function<bool()>& cancel) {
    std::vector<Flow> flows = expandWhole(op, opIndex, topology, opKeyPath, cancel);
    // Not a conditional expression: its unsplit branch would copy every flow (an lvalue
    // operand), where returning the local moves it.
    if (op.split > 1)
        return splitIntoParts(std::move(flows), op.split);
    return flows;
}

} // namespace ws
