#pragma once

#include "scenario/tatp_schedule.h" // TatpSchedule
#include "step/step_graph.h"

#include <string>
#include <vector>

namespace ws {

// One GEMM streamed over a TATP group of n dies laid on a path (consecutive dies adjacent).
// Die p owns the p-th blocks of both operands; the streamed operand's blocks travel so that
// every die computes with every block: n block computations per die, one per round.
struct TatpGemm {
    std::string label; // "L0 fwd mlp_up"
    StepPhase phase = StepPhase::Forward;
    double blockFlops = 0.0;    // FLOPs of one block product (e.g. I_p x W_q)
    double streamedBytes = 0.0; // bytes of one streamed block (the smaller of W_q and I_p)
    // The compute and memory model (step/compute_model.h): HBM bytes of round 0 and of each
    // later round, and the block product's tile efficiency.
    double firstHbmBytes = 0.0;
    double roundHbmBytes = 0.0;
    double tileEfficiency = 1.0;
};

// What was added to the graph.
struct TatpStream {
    std::vector<TaskId> done; // per path position: the task after which its output is complete
    int rounds = 0;           // n
    int transfers = 0;        // point-to-point transfers added
    int hopTransfers = 0;     // sum over transfers of their hop counts
    int maxTransferHops = 0;  // 1 for bidirectional on a path; n-1 for the ring's wrap-around
};

// Adds the stream's compute and transfer tasks. `startDeps[p]` (may be empty) gates die p's
// first computation and its first sends (its blocks must exist). Round r compute on every die
// uses a block it holds but has not used; with `doubleBuffering` off, a die cannot receive its
// next block while it computes: each incoming transfer also waits for the receiver's previous
// computation. Compute tasks carry StepTaskInfo::round = r; transfers carry the round whose
// computation they feed.
//
// Bidirectional (n dies, positions 0..n-1): round 0 computes the own block and sends it to both
// neighbours; each die relays onward what it receives (rightward traffic keeps going right),
// so block q reaches die p after |p - q| one-hop transfers: n(n-1) hop-transfers in all, at most
// one block per link direction per round. Die p uses blocks in the order p, p-1, p+1, p-2, ...
// (skipping those off the ends). Ring: round r die p computes with block (p - r) mod n, having
// received it from its ring predecessor; n(n-1) transfers, n-1 of them the (n-1)-hop wrap-around,
// 2(n-1)^2 hop-transfers on a line.
TatpStream addTatpStream(StepGraph& graph, const std::vector<DieId>& path, const TatpGemm& gemm,
                         TatpSchedule schedule, bool doubleBuffering,
                         const std::vector<std::vector<TaskId>>& startDeps);

} // namespace ws
