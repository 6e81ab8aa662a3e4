#pragma once

#include "sim/die_queues.h"
#include "sim/indexed_min_heap.h"
#include "sim/max_min_solver.h"
#include "sim/sim_problem.h"
#include "sim/slot_pool.h"
#include "sim/task_graph.h"

#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace ws {

// One run of the fluid simulator's event loop (fluid_simulator.h describes the model) as an
// object that can be paused, copied and finished on a variant of its problem. simulate() runs
// one to the end. TCME forks one per reroute candidate: a candidate differs from the current
// problem only in some flows' links and hops, and a flow's links and hops are read first when it
// becomes ready, so up to the first batch in which one of those flows becomes ready the candidate
// runs exactly as the current problem does. One run advanced to that time and copied saves the
// candidate that prefix (and the checks and set-up) at no cost in exactness.
//
// Every container is sized up front; the loop only pushes into vectors that keep their capacity,
// so it does not allocate once warmed up; copying into an existing simulation reuses its buffers.
class FluidSimulation {
public:
    // Checks the problem (throws std::invalid_argument like simulate) and queues the tasks
    // without dependencies. `problem` and `cancel` (if not null) must outlive the simulation and
    // its copies; `cancel` is polled before every batch (RunCancelled, sim/run_cancelled.h).
    explicit FluidSimulation(const SimProblem& problem,
                             const std::function<bool()>* cancel = nullptr);
    // The same with `graph`, TaskGraph::build(problem) made by the caller (the problem checked
    // then): one graph shared by every run of one problem and by its copies.
    FluidSimulation(const SimProblem& problem, std::shared_ptr<const TaskGraph> graph,
                    const std::function<bool()>* cancel = nullptr);

    bool finished() const {
        return m_events.empty() && m_oneHopHead == m_oneHop.size() && m_lastByteHeap.empty();
    }
    // Handles every batch of events that starts before `timeS`.
    void runUntil(double timeS);
    void runToEnd();
    // True when none of `tasks` has become ready yet.
    bool untouched(std::span<const TaskId> tasks) const;
    // Continues on `variant`: the same problem except for the links and hops of the flow tasks
    // `changed`, none of which may have become ready yet (std::logic_error otherwise). Throws
    // std::invalid_argument as simulate(variant) would if a changed task is invalid. Running to
    // the end then gives exactly simulate(variant)'s result. `variant` must outlive the run.
    void switchTo(const SimProblem& variant, std::span<const TaskId> changed);

    // The result so far (makespan, timings): complete once finished().
    const SimResult& result() const { return m_result; }
    SimResult takeResult() { return std::move(m_result); }

private:
    // A timed event other than a flow's last byte (those live in a keyed heap of their own).
    struct TimedEvent {
        enum class Kind { Ready, Complete };
        double timeS;
        long long seq; // push order: ties at equal times resolve deterministically
        TaskId task;
        Kind kind;
    };
    void runCheckedBatch(); // polls `cancel` first
    void push(double timeS, TaskId task, TimedEvent::Kind kind);
    bool nextEvent(double limit, TimedEvent& event);
    double nextEventS() const;
    void runBatch();
    void resolveRates(double now);
    void becomeReady(TaskId id, double now);
    void finishSending(TaskId flow, double now);
    void complete(TaskId id, double now);
    bool startIdleDies(double now);

    const SimProblem* m_problem;
    const std::function<bool()>* m_cancel;
    std::shared_ptr<const TaskGraph> m_graph; // shared with copies: dependencies never change
    MaxMinSolver m_solver;

    std::vector<int> m_pendingDeps;  // by task: dependencies not yet complete
    std::vector<char> m_becameReady; // by task: 1 once its Ready event was handled
    // A flow's progress while it sends, in a pool of the flows sending now (sim/slot_pool.h):
    // the rate updates read it from cache.
    struct FlowProgress {
        double remainingBytes; // bytes left to send at updatedAtS
        double updatedAtS;
        double rate; // bytes/s since updatedAtS
    };
    SlotPool<FlowProgress> m_progress;
    std::vector<int> m_progressOf;    // by task: its slot in m_progress while it sends
    IndexedMinHeap m_lastByteHeap;    // active flows keyed by projected last-byte time
    std::vector<TimedEvent> m_events; // min-heap by (time, seq)
    std::vector<TimedEvent> m_dueNow; // events at m_batchS, in push order (= by seq)
    std::size_t m_dueHead = 0;        // m_dueNow[m_dueHead..] not handled yet
    std::vector<TimedEvent> m_oneHop; // one-hop deliveries, in push order (= by time, seq)
    std::size_t m_oneHopHead = 0;     // m_oneHop[m_oneHopHead..] not handled yet
    double m_batchS = std::numeric_limits<double>::quiet_NaN(); // time of the batch running
    long long m_seq = 0;

    DieQueues m_dies;

    SimResult m_result;
};

} // namespace ws
