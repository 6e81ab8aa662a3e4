#include "sim/fluid_simulation.h"

#include "sim/event_order.h"
#include "sim/index_cast.h"
#include "sim/run_cancelled.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

namespace ws {

namespace {

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

} // namespace

FluidSimulation::FluidSimulation(const SimProblem& problem, const std::function<bool()>* cancel)
    : FluidSimulation(problem, std::make_shared<const TaskGraph>(TaskGraph::build(problem)),
                      cancel) {}

FluidSimulation::FluidSimulation(const SimProblem& problem, std::shared_ptr<const TaskGraph> graph,
                                 const std::function<bool()>* cancel)
    : m_problem(&problem), m_cancel(cancel), m_graph(std::move(graph)),
      m_solver(makeSolver(problem)), m_dies(problem.dieCount) {
    const std::size_t taskCount = problem.tasks.size();
    m_pendingDeps.resize(taskCount);
    m_becameReady.assign(taskCount, 0);
    m_progressOf.assign(taskCount, -1);
    m_lastByteHeap.reset(taskCount);
    m_events.reserve(taskCount);
    m_dueNow.reserve(taskCount);
    m_result.tasks.resize(taskCount);
    m_result.dieComputeS.assign(idx(problem.dieCount), 0.0);

    fillLinkTotals(problem, m_result);
    for (std::size_t t = 0; t < taskCount; ++t) {
        m_pendingDeps[t] = static_cast<int>(problem.tasks[t].deps.size());
        if (m_pendingDeps[t] == 0) {
            push(readyTimeS(problem.tasks[t], 0.0), static_cast<TaskId>(t),
                 TimedEvent::Kind::Ready);
        }
    }
}

void FluidSimulation::runUntil(double timeS) {
    while (!finished() && nextEventS() < timeS) {
        runCheckedBatch();
    }
}

void FluidSimulation::runToEnd() {
    while (!finished()) {
        runCheckedBatch();
    }
}

void FluidSimulation::runCheckedBatch() {
    if (m_cancel != nullptr && *m_cancel && (*m_cancel)()) {
        throw RunCancelled();
    }
    runBatch();
}

bool FluidSimulation::untouched(std::span<const TaskId> tasks) const {
    return std::none_of(tasks.begin(), tasks.end(),
                        [&](TaskId task) { return m_becameReady[idx(task)] != 0; });
}

void FluidSimulation::switchTo(const SimProblem& variant, std::span<const TaskId> changed) {
    if (variant.tasks.size() != m_problem->tasks.size() || !untouched(changed)) {
        throw std::logic_error("FluidSimulation::switchTo: the variant differs in more than the "
                               "links of tasks not yet ready");
    }
    TaskGraph::check(variant, changed);
    m_problem = &variant;
    for (const TaskId id : changed) {
        const SimTask& task = variant.tasks[idx(id)];
        const bool competes = task.kind == SimTask::Kind::Flow && task.bytes > 0.0;
        m_solver.setFlowLinks(id, competes ? std::span<const LinkId>(task.links)
                                           : std::span<const LinkId>());
    }
    fillLinkTotals(variant, m_result); // as simulate(variant) computes them, in task order
}

// Events due at the current batch's time (most are: a dependent becomes ready when its last
// dependency completes) skip the heap: they queue in push order, i.e. by (time, seq), and
// nextEvent merges the queue with the heap, so events are handled in the same order.
inline void FluidSimulation::push(double timeS, TaskId task, TimedEvent::Kind kind) {
    if (timeS == m_batchS) {
        m_dueNow.push_back({timeS, m_seq++, task, kind});
        return;
    }
    m_events.push_back({timeS, m_seq++, task, kind});
    std::push_heap(m_events.begin(), m_events.end(), EventAfter{});
}

// Takes the earliest event by (time, seq) of the heap and the two queues if it is due by
// `limit` (the events queued at the batch's time are).
inline bool FluidSimulation::nextEvent(double limit, TimedEvent& event) {
    enum class Source { None, DueNow, Heap, OneHop };
    Source source = Source::None;
    const TimedEvent* first = nullptr;
    if (m_dueHead < m_dueNow.size()) {
        source = Source::DueNow;
        first = &m_dueNow[m_dueHead];
    }
    if (!m_events.empty() && m_events.front().timeS <= limit &&
        (first == nullptr || EventAfter{}(*first, m_events.front()))) {
        source = Source::Heap;
        first = &m_events.front();
    }
    if (m_oneHopHead < m_oneHop.size() && m_oneHop[m_oneHopHead].timeS <= limit &&
        (first == nullptr || EventAfter{}(*first, m_oneHop[m_oneHopHead]))) {
        source = Source::OneHop;
    }
    switch (source) {
    case Source::None:
        return false;
    case Source::DueNow:
        event = m_dueNow[m_dueHead++];
        return true;
    case Source::Heap:
        std::pop_heap(m_events.begin(), m_events.end(), EventAfter{});
        event = m_events.back();
        m_events.pop_back();
        return true;
    case Source::OneHop:
        event = m_oneHop[m_oneHopHead++];
        if (m_oneHopHead == m_oneHop.size()) {
            m_oneHop.clear();
            m_oneHopHead = 0;
        } else if (m_oneHopHead >= 4096 && 2 * m_oneHopHead >= m_oneHop.size()) {
            // Drop the handled prefix now and then, so copies stay small.
            m_oneHop.erase(m_oneHop.begin(),
                           m_oneHop.begin() + static_cast<std::ptrdiff_t>(m_oneHopHead));
            m_oneHopHead = 0;
        }
        return true;
    }
    return false;
}

inline double FluidSimulation::nextEventS() const {
    double next = std::numeric_limits<double>::infinity();
    if (!m_events.empty()) {
        next = m_events.front().timeS;
    }
    if (m_oneHopHead < m_oneHop.size()) {
        next = std::min(next, m_oneHop[m_oneHopHead].timeS);
    }
    if (!m_lastByteHeap.empty()) {
        next = std::min(next, m_lastByteHeap.topKey());
    }
    return next;
}

// Handles everything due at the earliest pending time `now` (within the tolerance), including
// what those events make due at `now` (zero-latency deliveries, barriers, zero-length
// compute), then re-solves the rates of the flows the batch touched, once.
inline void FluidSimulation::runBatch() {
    const double now = nextEventS();
    const double limit = now + kSimultaneousRelTol * now;
    m_batchS = now;
    while (true) {
        bool handled = false;
        while (!m_lastByteHeap.empty() && m_lastByteHeap.topKey() <= limit) {
            const TaskId flow = m_lastByteHeap.topId();
            m_lastByteHeap.pop();
            finishSending(flow, now);
            handled = true;
        }
        TimedEvent event{};
        while (nextEvent(limit, event)) {
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
    m_dueNow.clear(); // all handled: they were due at `now`
    m_dueHead = 0;
    if (m_solver.hasTouchedLinks()) {
        resolveRates(now);
    }
}

inline void FluidSimulation::resolveRates(double now) {
    // Bring the touched flows' remaining bytes up to `now` at their old rates first.
    const std::vector<int>& flows = m_solver.solveTouched();
    ++m_result.rateRecomputations;
    for (const int flow : flows) {
        FlowProgress& progress = m_progress[m_progressOf[idx(flow)]];
        progress.remainingBytes =
            std::max(0.0, progress.remainingBytes - progress.rate * (now - progress.updatedAtS));
        progress.updatedAtS = now;
        progress.rate = m_solver.rate(flow);
        m_lastByteHeap.set(flow, now + progress.remainingBytes / progress.rate);
    }
}

inline void FluidSimulation::becomeReady(TaskId id, double now) {
    const SimTask& task = m_problem->tasks[idx(id)];
    TaskTiming& timing = m_result.tasks[idx(id)];
    timing.readyS = now;
    m_becameReady[idx(id)] = 1; // from here on its links and hops are in use
    switch (task.kind) {
    case SimTask::Kind::Flow:
        timing.startS = now;
        if (task.bytes > 0.0) {
            m_progressOf[idx(id)] = m_progress.acquire({task.bytes, now, 0.0});
            m_solver.activate(id);
        } else {
            finishSending(id, now); // nothing to send: only the latency remains
        }
        break;
    case SimTask::Kind::Compute:
        m_dies.enqueue(task.die, now, id);
        break;
    case SimTask::Kind::Barrier:
        timing.startS = now;
        timing.lastByteS = now;
        complete(id, now);
        break;
    }
}

inline void FluidSimulation::finishSending(TaskId flow, double now) {
    const SimTask& task = m_problem->tasks[idx(flow)];
    if (task.bytes > 0.0) {
        m_solver.deactivate(flow);
        m_progress.release(m_progressOf[idx(flow)]);
        m_progressOf[idx(flow)] = -1;
    }
    m_result.tasks[idx(flow)].lastByteS = now;
    const double deliveredS = now + flowLatencyS(*m_problem, task);
    if (task.hops == 1 && m_problem->linkLatencyS.empty() && deliveredS != m_batchS) {
        // One hop after the batch's time, which only grows: when every hop has the same latency
        // these deliveries come due in push order, so they queue instead of going through the
        // heap (most flows are one hop).
        m_oneHop.push_back({deliveredS, m_seq++, flow, TimedEvent::Kind::Complete});
        return;
    }
    push(deliveredS, flow, TimedEvent::Kind::Complete);
}

inline void FluidSimulation::complete(TaskId id, double now) {
    const SimTask& task = m_problem->tasks[idx(id)];
    TaskTiming& timing = m_result.tasks[idx(id)];
    timing.endS = now;
    if (task.kind == SimTask::Kind::Compute) {
        timing.lastByteS = now;
        m_dies.release(task.die);
    }
    m_result.makespanS = std::max(m_result.makespanS, now);
    m_graph->releaseDependents(id, m_pendingDeps, [&](TaskId dependent) {
        const double readyS = readyTimeS(m_problem->tasks[idx(dependent)], now);
        push(readyS, dependent, TimedEvent::Kind::Ready);
    });
}

inline bool FluidSimulation::startIdleDies(double now) {
    return m_dies.startIdle([&](TaskId id) {
        const SimTask& task = m_problem->tasks[idx(id)];
        m_result.tasks[idx(id)].startS = now;
        m_result.dieComputeS[idx(task.die)] += task.seconds;
        push(now + task.seconds, id, TimedEvent::Kind::Complete);
    });
}

} // namespace ws
