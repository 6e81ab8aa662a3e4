#include "sim/fluid_simulator.h"

#include "sim/indexed_min_heap.h"
#include "sim/max_min_solver.h"
#include "sim/task_graph.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

namespace ws {

namespace {

std::size_t idx(int i) {
    return static_cast<std::size_t>(i);
}

// Events closer than this fraction of the current time are one batch: floating-point noise must
// not split a symmetric set of finishes (every rank of a ring) into many tiny events, each with its
// own rate solve. Times reported for a batch are its earliest event's time.
constexpr double kSimultaneousRelTol = 1e-12;

// A timed event other than a flow's last byte (those live in a keyed heap of their own).
struct TimedEvent {
    enum class Kind { Ready, Complete };
    double timeS;
    long long seq; // push order: ties at equal times resolve deterministically
    TaskId task;
    Kind kind;
};

struct EventAfter {
    bool operator()(const TimedEvent& a, const TimedEvent& b) const {
        return a.timeS > b.timeS || (a.timeS == b.timeS && a.seq > b.seq);
    }
};

// (ready time, task): a die's queue pops the earliest ready task, ties by TaskId.
using QueuedCompute = std::pair<double, TaskId>;

// The solver sees only flows that compete for bandwidth (bytes > 0), indexed by TaskId: other
// tasks get an empty link range.
MaxMinSolver makeSolver(const SimProblem& problem) {
    std::vector<int> offsets(problem.tasks.size() + 1, 0);
    std::vector<LinkId> links;
    for (std::size_t t = 0; t < problem.tasks.size(); ++t) {
        const SimTask& task = problem.tasks[t];
        if (task.kind == SimTask::Kind::Flow && task.bytes > 0.0) {
            links.insert(links.end(), task.links.begin(), task.links.end());
        }
        offsets[t + 1] = static_cast<int>(links.size());
    }
    return MaxMinSolver(problem.linkBandwidth, std::move(offsets), std::move(links));
}

// One run of the event loop. Every container is sized up front; the loop only pushes into
// vectors that keep their capacity, so it does not allocate once warmed up.
class FluidSimulation {
public:
    FluidSimulation(const SimProblem& problem, const std::function<bool()>& cancel)
        : m_problem(problem), m_cancel(cancel), m_graph(TaskGraph::build(problem)),
          m_solver(makeSolver(problem)) {
        const std::size_t taskCount = problem.tasks.size();
        m_pendingDeps.resize(taskCount);
        m_remainingBytes.assign(taskCount, 0.0);
        m_updatedAtS.assign(taskCount, 0.0);
        m_rate.assign(taskCount, 0.0);
        m_lastByteHeap.reset(taskCount);
        m_events.reserve(taskCount);
        m_dieQueues.resize(idx(problem.dieCount));
        m_dieBusy.assign(idx(problem.dieCount), false);
        m_dieTouched.assign(idx(problem.dieCount), false);
        m_result.tasks.resize(taskCount);
        m_result.dieComputeS.assign(idx(problem.dieCount), 0.0);
    }

    SimResult run() {
        fillLinkTotals();
        for (std::size_t t = 0; t < m_problem.tasks.size(); ++t) {
            m_pendingDeps[t] = static_cast<int>(m_problem.tasks[t].deps.size());
            if (m_pendingDeps[t] == 0) {
                push(m_problem.tasks[t].earliestStartS, static_cast<TaskId>(t),
                     TimedEvent::Kind::Ready);
            }
        }
        while (!m_events.empty() || !m_lastByteHeap.empty()) {
            if (m_cancel && m_cancel()) {
                throw std::runtime_error("cancelled");
            }
            runBatch();
        }
        return std::move(m_result);
    }

private:
    void fillLinkTotals() {
        const std::size_t linkCount = m_problem.linkBandwidth.size();
        m_result.linkBytes.assign(linkCount, 0.0);
        m_result.linkBusyS.assign(linkCount, 0.0);
        for (const SimTask& task : m_problem.tasks) {
            if (task.kind == SimTask::Kind::Flow) {
                for (const LinkId link : task.links) {
                    m_result.linkBytes[idx(link)] += task.bytes;
                }
            }
        }
        for (std::size_t l = 0; l < linkCount; ++l) {
            if (m_result.linkBytes[l] > 0.0) {
                m_result.linkBusyS[l] = m_result.linkBytes[l] / m_problem.linkBandwidth[l];
            }
        }
    }

    void push(double timeS, TaskId task, TimedEvent::Kind kind) {
        m_events.push_back({timeS, m_seq++, task, kind});
        std::push_heap(m_events.begin(), m_events.end(), EventAfter{});
    }

    double nextEventS() const {
        double next = std::numeric_limits<double>::infinity();
        if (!m_events.empty()) {
            next = m_events.front().timeS;
        }
        if (!m_lastByteHeap.empty()) {
            next = std::min(next, m_lastByteHeap.topKey());
        }
        return next;
    }

    // Handles everything due at the earliest pending time `now` (within the tolerance), including
    // what those events make due at `now` (zero-latency deliveries, barriers, zero-length
    // compute), then re-solves the rates of the flows the batch touched, once.
    void runBatch() {
        const double now = nextEventS();
        const double limit = now + kSimultaneousRelTol * now;
        while (true) {
            bool handled = false;
            while (!m_lastByteHeap.empty() && m_lastByteHeap.topKey() <= limit) {
                const TaskId flow = m_lastByteHeap.topId();
                m_lastByteHeap.pop();
                finishSending(flow, now);
                handled = true;
            }
            while (!m_events.empty() && m_events.front().timeS <= limit) {
                std::pop_heap(m_events.begin(), m_events.end(), EventAfter{});
                const TimedEvent event = m_events.back();
                m_events.pop_back();
                if (event.kind == TimedEvent::Kind::Ready) {
                    becomeReady(event.task, now);
                } else {
                    complete(event.task, now);
                }
                handled = true;
            }
            // Dies start their next task only after the whole batch is in, so that tasks ready at
            // the same time run in TaskId order whatever order their events were handled in.
            handled = startIdleDies(now) || handled;
            if (!handled) {
                break;
            }
        }
        if (m_solver.hasTouchedLinks()) {
            resolveRates(now);
        }
    }

    void resolveRates(double now) {
        // Bring the touched flows' remaining bytes up to `now` at their old rates first.
        const std::vector<int>& flows = m_solver.solveTouched();
        ++m_result.rateRecomputations;
        for (const int flow : flows) {
            const std::size_t f = idx(flow);
            m_remainingBytes[f] =
                std::max(0.0, m_remainingBytes[f] - m_rate[f] * (now - m_updatedAtS[f]));
            m_updatedAtS[f] = now;
            m_rate[f] = m_solver.rate(flow);
            m_lastByteHeap.set(flow, now + m_remainingBytes[f] / m_rate[f]);
        }
    }

    void becomeReady(TaskId id, double now) {
        const SimTask& task = m_problem.tasks[idx(id)];
        TaskTiming& timing = m_result.tasks[idx(id)];
        timing.readyS = now;
        switch (task.kind) {
        case SimTask::Kind::Flow:
            timing.startS = now;
            if (task.bytes > 0.0) {
                m_remainingBytes[idx(id)] = task.bytes;
                m_updatedAtS[idx(id)] = now;
                m_rate[idx(id)] = 0.0;
                m_solver.activate(id);
            } else {
                finishSending(id, now); // nothing to send: only the latency remains
            }
            break;
        case SimTask::Kind::Compute: {
            auto& queue = m_dieQueues[idx(task.die)];
            queue.emplace_back(now, id);
            std::push_heap(queue.begin(), queue.end(), std::greater<QueuedCompute>());
            if (!m_dieTouched[idx(task.die)]) {
                m_dieTouched[idx(task.die)] = true;
                m_touchedDies.push_back(task.die);
            }
            break;
        }
        case SimTask::Kind::Barrier:
            timing.startS = now;
            timing.lastByteS = now;
            complete(id, now);
            break;
        }
    }

    void finishSending(TaskId flow, double now) {
        const SimTask& task = m_problem.tasks[idx(flow)];
        if (task.bytes > 0.0) {
            m_solver.deactivate(flow);
            m_rate[idx(flow)] = 0.0;
        }
        m_result.tasks[idx(flow)].lastByteS = now;
        push(now + task.hops * m_problem.hopLatencyS, flow, TimedEvent::Kind::Complete);
    }

    void complete(TaskId id, double now) {
        const SimTask& task = m_problem.tasks[idx(id)];
        TaskTiming& timing = m_result.tasks[idx(id)];
        timing.endS = now;
        if (task.kind == SimTask::Kind::Compute) {
            timing.lastByteS = now;
            m_dieBusy[idx(task.die)] = false;
            if (!m_dieTouched[idx(task.die)]) {
                m_dieTouched[idx(task.die)] = true;
                m_touchedDies.push_back(task.die);
            }
        }
        m_result.makespanS = std::max(m_result.makespanS, now);
        for (int k = m_graph.dependentOffsets[idx(id)]; k < m_graph.dependentOffsets[idx(id) + 1];
             ++k) {
            const TaskId dependent = m_graph.dependents[idx(k)];
            if (--m_pendingDeps[idx(dependent)] == 0) {
                // Batches run in time order, so this is the last dependency to complete.
                const double readyS = std::max(now, m_problem.tasks[idx(dependent)].earliestStartS);
                push(readyS, dependent, TimedEvent::Kind::Ready);
            }
        }
    }

    bool startIdleDies(double now) {
        bool started = false;
        for (const DieId die : m_touchedDies) {
            m_dieTouched[idx(die)] = false;
            auto& queue = m_dieQueues[idx(die)];
            if (m_dieBusy[idx(die)] || queue.empty()) {
                continue;
            }
            std::pop_heap(queue.begin(), queue.end(), std::greater<QueuedCompute>());
            const TaskId id = queue.back().second;
            queue.pop_back();
            const double seconds = m_problem.tasks[idx(id)].seconds;
            m_dieBusy[idx(die)] = true;
            m_result.tasks[idx(id)].startS = now;
            m_result.dieComputeS[idx(die)] += seconds;
            push(now + seconds, id, TimedEvent::Kind::Complete);
            started = true;
        }
        m_touchedDies.clear();
        return started;
    }

    const SimProblem& m_problem;
    const std::function<bool()>& m_cancel;
    TaskGraph m_graph;
    MaxMinSolver m_solver;

    std::vector<int> m_pendingDeps;       // by task: dependencies not yet complete
    std::vector<double> m_remainingBytes; // by flow: bytes left to send at m_updatedAtS
    std::vector<double> m_updatedAtS;     // by flow
    std::vector<double> m_rate;           // by flow: bytes/s since m_updatedAtS
    IndexedMinHeap m_lastByteHeap;        // active flows keyed by projected last-byte time
    std::vector<TimedEvent> m_events;     // min-heap by (time, seq)
    long long m_seq = 0;

    std::vector<std::vector<QueuedCompute>> m_dieQueues; // min-heaps by (ready time, TaskId)
    std::vector<bool> m_dieBusy;
    std::vector<bool> m_dieTouched; // in m_touchedDies
    std::vector<DieId> m_touchedDies;

    SimResult m_result;
};

} // namespace

SimResult simulate(const SimProblem& problem, const std::function<bool()>& cancel) {
    return FluidSimulation(problem, cancel).run();
}

} // namespace ws
