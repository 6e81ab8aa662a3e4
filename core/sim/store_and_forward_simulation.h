#pragma once

#include "sim/die_queues.h"
#include "sim/sim_problem.h"
#include "sim/task_graph.h"

#include <functional>
#include <limits>
#include <vector>

namespace ws {

// One run of the store-and-forward network model (docs/network-model.md section 10): every flow is
// cut into ceil(S / chunk) chunks, the last one smaller. Every directed link is a FIFO server
// carrying one chunk at a time at its full bandwidth, in the order in which chunks became ready at
// its tail, ties by flow (TaskId, the order flows are planned in) and then chunk index. A chunk
// that leaves a link at t is ready at the link's head die at t + latency, where it queues for the
// next link of its route; a multicast chunk is copied where its tree branches. A flow is delivered
// when its last chunk has reached every destination. A reduction tree (links converging on one root
// die) is the mirror image: a die sends chunk k on toward the root once chunk k has arrived on
// every link into it (it is combined with the die's own there, at no cost), and the flow is
// delivered when its last chunk has reached the root. Compute tasks and barriers behave as in the
// fluid model (DieQueues).
//
// Worked example: 4 MiB in 1 MiB chunks over 3 hops of 1 GiB/s and 1 us: (4 + 3 - 1) chunk
// times of 1/1024 s each, plus 3 us.
//
// Events closer than 1e-12 of the current time are one batch, as in FluidSimulation: chunks that
// arrive in one batch are ready at the batch's time, so the tie rule decides between them.
class StoreAndForwardSimulation {
public:
    // Checks the problem as the fluid simulator does (TaskGraph::build) and, for every flow,
    // that its links form a path or a tree out of one source die or into one root die; throws
    // std::invalid_argument
    // naming the task otherwise, or when problem.linkEnds does not describe every link.
    explicit StoreAndForwardSimulation(const SimProblem& problem,
                                       const std::function<bool()>* cancel = nullptr);

    // Runs to the end; polls `cancel` before every batch (RunCancelled, sim/run_cancelled.h).
    void runToEnd();
    SimResult takeResult() { return std::move(m_result); }

private:
    // One link of a flow's route. A flow's hops are contiguous, in breadth-first order from the
    // root die: the first ones leave the source (enter the root, for a reduction tree). Out of a
    // source, a hop's children (the links its chunks continue on, several where a tree branches)
    // are hops [childBegin, childEnd). In a reduction tree those are the hop's inputs, the links
    // into its tail, and joinHop is the hop its chunks continue on (-1 when it enters the root).
    struct Hop {
        LinkId link;
        TaskId flow;
        int childBegin;
        int childEnd;
        int joinHop;
    };
    struct Event {
        enum class Kind { Ready, Complete, ChunkArrives, ChunkSent, ChunkJoins };
        double timeS;
        long long seq;   // push order: ties at equal times resolve deterministically
        int subject;     // Ready, Complete: the task; otherwise the hop
        long long chunk; // ChunkArrives, ChunkSent: the chunk's index in its flow
        Kind kind;
    };
    // A chunk waiting at a link's tail; a link's queue pops the smallest (readyS, flow, chunk).
    struct QueuedChunk {
        double readyS;
        TaskId flow;
        long long chunk;
        int hop;
    };

    void buildRoutes();
    void push(double timeS, Event::Kind kind, int subject, long long chunk = 0);
    void runBatch();
    void becomeReady(TaskId id, double now);
    void chunkSent(int hop, long long chunk, double now);
    void chunkJoins(int hop, long long chunk, double now);
    bool isSource(int hop) const;        // every chunk is there when the flow becomes ready
    bool delivers(const Hop& hop) const; // its chunks are delivered at its head
    void complete(TaskId id, double now);
    bool startIdleLinks(double now);
    double chunkBytes(TaskId flow, long long chunk) const;

    const SimProblem& m_problem;
    const std::function<bool()>* m_cancel;
    TaskGraph m_graph;
    DieQueues m_dies;

    std::vector<Hop> m_hops;
    std::vector<int> m_firstHop;             // by task, size tasks + 1: a flow's hops
    std::vector<int> m_sourceHopEnd;         // by task: hops [first, end) leave the root
    std::vector<char> m_inward;              // by task: a reduction tree
    std::vector<long long> m_chunkCount;     // by task
    std::vector<long long> m_deliveriesLeft; // by flow: chunks x leaves not yet delivered
    // By flow: when the chunks delivered so far arrive, at the latest. With links of different
    // latencies the last chunk sent is not always the last to arrive.
    std::vector<double> m_latestArrivalS;
    std::vector<int> m_sourceHopsSending;     // by flow: source hops still to send their last chunk
    std::vector<int> m_pendingDeps;           // by task
    std::vector<long long> m_chunksDelivered; // by hop, reduction trees: chunks it has brought
    std::vector<long long> m_chunksQueued;    // by hop, reduction trees: chunks queued on it

    std::vector<std::vector<QueuedChunk>> m_linkQueues; // by LinkId: min-heaps
    std::vector<char> m_linkBusy;
    std::vector<char> m_linkTouched;
    std::vector<LinkId> m_touchedLinks;

    std::vector<Event> m_events; // min-heap by (time, seq)
    long long m_seq = 0;
    SimResult m_result;
};

} // namespace ws
