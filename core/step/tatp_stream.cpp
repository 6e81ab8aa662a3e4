#include "step/tatp_stream.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ws {

namespace {

std::size_t idx(int i) {
    return static_cast<std::size_t>(i);
}

// Appends `value` in decimal, as std::to_string writes it (labels are built in one buffer: a
// stream adds thousands of them).
void appendInt(std::string& text, int value) {
    char digits[16];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    text.append(digits, end);
}

// "<gemm label> blk <block>": a block's compute label and the start of its transfers' labels.
std::string blockLabel(const std::string& gemmLabel, int block, std::size_t extra) {
    std::string label;
    label.reserve(gemmLabel.size() + 16 + extra);
    label += gemmLabel;
    label += " blk ";
    appendInt(label, block);
    return label;
}

// Shared bookkeeping of one stream: the per-die compute chain and the counters.
class StreamBuilder {
public:
    StreamBuilder(StepGraph& graph, const std::vector<DieId>& path, const TatpGemm& gemm,
                  bool doubleBuffering, const std::vector<std::vector<TaskId>>& startDeps)
        : m_graph(graph), m_path(path), m_gemm(gemm), m_doubleBuffering(doubleBuffering),
          m_startDeps(startDeps), m_n(static_cast<int>(path.size())),
          m_computes(idx(m_n), std::vector<TaskId>(idx(m_n), -1)) {
        if (!startDeps.empty() && startDeps.size() != path.size()) {
            throw std::invalid_argument("addTatpStream: startDeps has " +
                                        std::to_string(startDeps.size()) + " entries for " +
                                        std::to_string(path.size()) + " dies");
        }
        m_stream.rounds = m_n;
    }

    int size() const { return m_n; }

    // What must exist before position p computes its round 0 or sends its own block.
    std::vector<TaskId> startDeps(int p) const {
        return m_startDeps.empty() ? std::vector<TaskId>{} : m_startDeps[idx(p)];
    }

    // Position p's compute of `block` in `round`, after its previous round (rounds run in order
    // even though the simulator would serialise them anyway) and after `arrival` (-1: the block
    // is its own, gated by startDeps instead).
    void addCompute(int p, int round, int block, TaskId arrival) {
        std::vector<TaskId> deps;
        if (round == 0) {
            deps = startDeps(p);
        } else {
            deps.reserve(2);
            deps.push_back(m_computes[idx(p)][idx(round - 1)]);
        }
        if (arrival >= 0) {
            deps.push_back(arrival);
        }
        StepTaskInfo info;
        info.kind = StepTaskInfo::Kind::Compute;
        if (m_graph.keepsTaskLabels())
            info.label = blockLabel(m_gemm.label, block, 0);
        info.phase = m_gemm.phase;
        info.round = round;
        m_computes[idx(p)][idx(round)] = m_graph.addCompute(
            m_path[idx(p)],
            {m_gemm.blockFlops, round == 0 ? m_gemm.firstHbmBytes : m_gemm.roundHbmBytes,
             m_gemm.tileEfficiency},
            std::move(deps), std::move(info));
    }

    // Moves `block` from position `from` to position `to`, feeding `to`'s compute of `round`.
    // `deps` say when the sender holds the block; without double buffering the receiver's only
    // buffer is busy until its compute of round - 1 ends, which must therefore exist already.
    TaskId addTransfer(int from, int to, int block, int round, std::vector<TaskId> deps) {
        if (!m_doubleBuffering) {
            deps.push_back(m_computes[idx(to)][idx(round - 1)]);
        }
        const DieId src = m_path[idx(from)];
        const DieId dst = m_path[idx(to)];
        StepTaskInfo info;
        info.kind = StepTaskInfo::Kind::Transfer;
        if (m_graph.needsTransferLabels()) {
            info.label = blockLabel(m_gemm.label, block, 32);
            info.label += ' ';
            appendInt(info.label, src);
            info.label += "->";
            appendInt(info.label, dst);
        }
        info.phase = m_gemm.phase;
        info.round = round;
        const TaskId id =
            m_graph.addTransfer(src, dst, m_gemm.streamedBytes, std::move(deps), std::move(info));
        // Hops as routed: 1 between live neighbours, more for the ring's wrap-around or a detour
        // around a dead link.
        const int hops = m_graph.problem().tasks[idx(id)].hops;
        ++m_stream.transfers;
        m_stream.hopTransfers += hops;
        m_stream.maxTransferHops = std::max(m_stream.maxTransferHops, hops);
        return id;
    }

    TatpStream finish() {
        m_stream.done.clear();
        for (int p = 0; p < m_n; ++p) {
            m_stream.done.push_back(m_computes[idx(p)][idx(m_n - 1)]);
        }
        return std::move(m_stream);
    }

private:
    StepGraph& m_graph;
    const std::vector<DieId>& m_path;
    const TatpGemm& m_gemm;
    bool m_doubleBuffering;
    const std::vector<std::vector<TaskId>>& m_startDeps;
    int m_n;
    std::vector<std::vector<TaskId>> m_computes; // [position][round]
    TatpStream m_stream;
};

// Position p's blocks in order of use: p, p-1, p+1, p-2, p+2, ... without those off the ends.
// Nearer blocks arrive first (block q needs |p - q| hops), and the left one of two equally far
// blocks comes first.
std::vector<int> bidirectionalOrder(int p, int n) {
    std::vector<int> order{p};
    for (int d = 1; static_cast<int>(order.size()) < n; ++d) {
        if (p - d >= 0) {
            order.push_back(p - d);
        }
        if (p + d < n) {
            order.push_back(p + d);
        }
    }
    return order;
}

void addBidirectional(StreamBuilder& b) {
    const int n = b.size();
    // roundOf[p][q]: the round in which position p computes block q.
    std::vector<std::vector<int>> order(idx(n));
    std::vector<std::vector<int>> roundOf(idx(n), std::vector<int>(idx(n), -1));
    for (int p = 0; p < n; ++p) {
        order[idx(p)] = bidirectionalOrder(p, n);
        for (int r = 0; r < n; ++r) {
            roundOf[idx(p)][idx(order[idx(p)][idx(r)])] = r;
        }
    }
    // arrival[p][q]: the transfer delivering block q to position p (-1 for its own block).
    std::vector<std::vector<TaskId>> arrival(idx(n), std::vector<TaskId>(idx(n), -1));

    // Tasks are added in a topological order: round by round, a round's transfers before its
    // computes, and within a round nearer hops first. That order exists because a block reaches
    // a die no later in that die's order than it reaches the farther dies on its way
    // (roundOf[p'][q] <= roundOf[p][q] for p' between q and p); the relay into p then depends
    // only on tasks of rounds <= its own, nearer to the block's owner.
    for (int r = 0; r < n; ++r) {
        if (r > 0) {
            std::vector<std::pair<int, int>> incoming; // (distance, receiver)
            incoming.reserve(idx(n));
            for (int p = 0; p < n; ++p) {
                incoming.emplace_back(std::abs(p - order[idx(p)][idx(r)]), p);
            }
            std::sort(incoming.begin(), incoming.end());
            for (const auto& [distance, p] : incoming) {
                const int q = order[idx(p)][idx(r)];
                // Rightward traffic keeps going right: the sender is the neighbour on q's side.
                const int from = q < p ? p - 1 : p + 1;
                std::vector<TaskId> deps = distance == 1
                                               ? b.startDeps(q)
                                               : std::vector<TaskId>{arrival[idx(from)][idx(q)]};
                arrival[idx(p)][idx(q)] = b.addTransfer(from, p, q, r, std::move(deps));
            }
        }
        for (int p = 0; p < n; ++p) {
            const int q = order[idx(p)][idx(r)];
            b.addCompute(p, r, q, arrival[idx(p)][idx(q)]);
        }
    }
}

void addRing(StreamBuilder& b) {
    const int n = b.size();
    // received[p]: the transfer that brought position p its block of the previous round.
    std::vector<TaskId> received(idx(n), -1);
    for (int p = 0; p < n; ++p) {
        b.addCompute(p, 0, p, -1);
    }
    for (int r = 1; r < n; ++r) {
        // Round r: position p gets block (p - r) mod n from its predecessor, which got it in round
        // r - 1 (or owns it when r == 1). The transfers of a round only depend on the previous
        // round's, so they can all be added before the round's computes.
        std::vector<TaskId> arriving(idx(n), -1);
        for (int p = 0; p < n; ++p) {
            const int from = (p + n - 1) % n;
            const int block = (p - r + n) % n;
            std::vector<TaskId> deps =
                r == 1 ? b.startDeps(from) : std::vector<TaskId>{received[idx(from)]};
            arriving[idx(p)] = b.addTransfer(from, p, block, r, std::move(deps));
        }
        for (int p = 0; p < n; ++p) {
            b.addCompute(p, r, (p - r + n) % n, arriving[idx(p)]);
        }
        received = std::move(arriving);
    }
}

} // namespace

TatpStream addTatpStream(StepGraph& graph, const std::vector<DieId>& path, const TatpGemm& gemm,
                         TatpSchedule schedule, bool doubleBuffering,
                         const std::vector<std::vector<TaskId>>& startDeps) {
    if (path.empty()) {
        return {};
    }
    StreamBuilder builder(graph, path, gemm, doubleBuffering, startDeps);
    switch (schedule) {
    case TatpSchedule::Bidirectional:
        addBidirectional(builder);
        break;
    case TatpSchedule::Ring:
        addRing(builder);
        break;
    }
    return builder.finish();
}

} // namespace ws
