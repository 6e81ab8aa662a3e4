#include "sim/store_and_forward_simulation.h"

#include "sim/event_order.h"
#include "sim/run_cancelled.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace ws {

namespace {

std::size_t idx(long long i) {
    return static_cast<std::size_t>(i);
}

// The FIFO order of a link's queue, as a comparison for std::push_heap's max-heap: `a` comes
// after `b` when it became ready later, or at the same time belongs to a later flow or chunk.
struct ChunkAfter {
    template <typename Chunk> bool operator()(const Chunk& a, const Chunk& b) const {
        if (a.readyS != b.readyS)
            return a.readyS > b.readyS;
        if (a.flow != b.flow)
            return a.flow > b.flow;
        return a.chunk > b.chunk;
    }
};

long long chunksOf(double bytes, double chunk) {
    auto count = static_cast<long long>(std::ceil(bytes / chunk));
    if (count < 1)
        count = 1;
    // The last chunk must hold something: bytes / chunk rounded up past a whole number.
    if (count > 1 && bytes - chunk * static_cast<double>(count - 1) <= 0.0)
        --count;
    return count;
}

[[noreturn]] void notARoute(std::size_t task, const std::string& why) {
    throw std::invalid_argument("task " + std::to_string(task) +
                                ": store-and-forward needs its links to be a path, a tree out "
                                "of one source die or a tree into one root die; " +
                                why);
}

} // namespace

StoreAndForwardSimulation::StoreAndForwardSimulation(const SimProblem& problem,
                                                     const std::function<bool()>* cancel)
    : m_problem(problem), m_cancel(cancel), m_graph(TaskGraph::build(problem)),
      m_dies(problem.dieCount) {
    if (!(problem.network.chunkBytes > 0.0) || !std::isfinite(problem.network.chunkBytes))
        throw std::invalid_argument("the chunk size must be a positive number of bytes");
    if (problem.linkEnds.size() != problem.linkBandwidth.size())
        throw std::invalid_argument("store-and-forward needs the two dies of every link");
    const std::size_t taskCount = problem.tasks.size();
    m_pendingDeps.resize(taskCount);
    m_chunkCount.assign(taskCount, 0);
    m_deliveriesLeft.assign(taskCount, 0);
    m_latestArrivalS.assign(taskCount, 0.0);
    m_sourceHopsSending.assign(taskCount, 0);
    m_linkQueues.resize(problem.linkBandwidth.size());
    m_linkBusy.assign(problem.linkBandwidth.size(), 0);
    m_linkTouched.assign(problem.linkBandwidth.size(), 0);
    m_result.tasks.resize(taskCount);
    m_result.dieComputeS.assign(idx(problem.dieCount), 0.0);
    fillLinkTotals(problem, m_result);
    buildRoutes();
    m_events.reserve(taskCount);
    for (std::size_t t = 0; t < taskCount; ++t) {
        m_pendingDeps[t] = static_cast<int>(problem.tasks[t].deps.size());
        if (m_pendingDeps[t] == 0)
            push(readyTimeS(problem.tasks[t], 0.0), Event::Kind::Ready, static_cast<TaskId>(t));
    }
}

// Orders every flow's links breadth-first from its root die. A path or multicast tree leaves
// its source, the one tail that no link of the flow enters, and enters every die at most once.
// A reduction tree (docs/network-model.md section 4.5) enters its root, the one head that no link
// leaves, and leaves every die at most once; it is told apart by a die entered twice.
void StoreAndForwardSimulation::buildRoutes() {
    const std::size_t taskCount = m_problem.tasks.size();
    m_firstHop.assign(taskCount + 1, 0);
    m_sourceHopEnd.assign(taskCount, 0);
    m_inward.assign(taskCount, 0);
    std::size_t hopCount = 0;
    for (const SimTask& task : m_problem.tasks)
        if (task.kind == SimTask::Kind::Flow && task.bytes > 0.0)
            hopCount += task.links.size();
    m_hops.reserve(hopCount);

    // Dies and a cluster's switches: a chunk is stored and forwarded at either.
    const int vertices = std::max(m_problem.dieCount, m_problem.vertexCount);
    std::vector<char> entered(idx(vertices), 0);
    std::vector<char> left(idx(vertices), 0);
    // The flow's links as (root-side die, link), sorted: by tail for a tree out of its source,
    // by head for a reduction tree.
    std::vector<std::pair<DieId, LinkId>> byNear;
    for (std::size_t t = 0; t < taskCount; ++t) {
        const SimTask& task = m_problem.tasks[t];
        m_firstHop[t] = static_cast<int>(m_hops.size());
        m_sourceHopEnd[t] = m_firstHop[t];
        if (task.kind != SimTask::Kind::Flow || task.bytes <= 0.0) {
            m_firstHop[t + 1] = m_firstHop[t];
            continue;
        }
        bool enteredTwice = false;
        for (const LinkId link : task.links) {
            const auto [tail, head] = m_problem.linkEnds[idx(link)];
            if (head < 0 || head >= vertices || tail < 0 || tail >= vertices)
                notARoute(t, "link " + std::to_string(link) + " joins dies outside the wafer");
            enteredTwice = enteredTwice || entered[idx(head)] != 0;
            entered[idx(head)] = 1;
        }
        const bool inward = enteredTwice;
        m_inward[t] = inward ? 1 : 0;
        // near: the end nearer the root; far: the other one.
        const auto near = [&](LinkId link) {
            return inward ? m_problem.linkEnds[idx(link)].second
                          : m_problem.linkEnds[idx(link)].first;
        };
        const auto far = [&](LinkId link) {
            return inward ? m_problem.linkEnds[idx(link)].first
                          : m_problem.linkEnds[idx(link)].second;
        };
        byNear.clear();
        for (const LinkId link : task.links) {
            if (inward) {
                const DieId tail = m_problem.linkEnds[idx(link)].first;
                if (left[idx(tail)])
                    notARoute(t, "two of its links enter a die and two leave die " +
                                     std::to_string(tail));
                left[idx(tail)] = 1;
            }
            byNear.emplace_back(near(link), link);
        }
        std::sort(byNear.begin(), byNear.end());
        // The root is the one near end that is no link's far end.
        std::vector<char>& farSeen = inward ? left : entered;
        DieId root = -1;
        for (const auto& [nearDie, link] : byNear) {
            if (farSeen[idx(nearDie)])
                continue;
            if (root != -1 && root != nearDie)
                notARoute(t, "dies " + std::to_string(root) + " and " + std::to_string(nearDie) +
                                 (inward ? " both end a branch" : " both start a branch"));
            root = nearDie;
        }
        for (const LinkId link : task.links) {
            entered[idx(m_problem.linkEnds[idx(link)].second)] = 0;
            left[idx(m_problem.linkEnds[idx(link)].first)] = 0;
        }
        if (root == -1)
            notARoute(t, "its links form a cycle");

        // Appends the links whose root-side end is `die`: a hop's continuations out of a source,
        // or its inputs in a reduction tree (which all feed `joinHop`).
        const auto appendHops = [&](DieId die, int joinHop) {
            const auto [begin, end] =
                std::equal_range(byNear.begin(), byNear.end(), std::pair<DieId, LinkId>{die, -1},
                                 [](const auto& a, const auto& b) { return a.first < b.first; });
            for (auto it = begin; it != end; ++it)
                m_hops.push_back({it->second, static_cast<TaskId>(t), 0, 0, joinHop});
        };
        appendHops(root, -1);
        m_sourceHopEnd[t] = static_cast<int>(m_hops.size());
        for (std::size_t h = idx(m_firstHop[t]); h < m_hops.size(); ++h) {
            const int childBegin = static_cast<int>(m_hops.size());
            appendHops(far(m_hops[h].link), inward ? static_cast<int>(h) : -1);
            m_hops[h].childBegin = childBegin;
            m_hops[h].childEnd = static_cast<int>(m_hops.size());
        }
        if (m_hops.size() - idx(m_firstHop[t]) != task.links.size())
            notARoute(t, "some of its links are not joined to die " + std::to_string(root));
        m_firstHop[t + 1] = static_cast<int>(m_hops.size());
        m_chunkCount[t] = chunksOf(task.bytes, m_problem.network.chunkBytes);
    }
    m_chunksDelivered.assign(m_hops.size(), 0);
    m_chunksQueued.assign(m_hops.size(), 0);
}

bool StoreAndForwardSimulation::isSource(int hopIndex) const {
    const Hop& hop = m_hops[idx(hopIndex)];
    if (m_inward[idx(hop.flow)])
        return hop.childBegin == hop.childEnd; // a leaf of the reduction: nothing to wait for
    return hopIndex < m_sourceHopEnd[idx(hop.flow)];
}

bool StoreAndForwardSimulation::delivers(const Hop& hop) const {
    if (m_inward[idx(hop.flow)])
        return hop.joinHop < 0; // enters the root
    return hop.childBegin == hop.childEnd;
}

void StoreAndForwardSimulation::runToEnd() {
    while (!m_events.empty()) {
        if (m_cancel != nullptr && *m_cancel && (*m_cancel)())
            throw RunCancelled();
        runBatch();
    }
}

void StoreAndForwardSimulation::push(double timeS, Event::Kind kind, int subject, long long chunk) {
    m_events.push_back({timeS, m_seq++, subject, chunk, kind});
    std::push_heap(m_events.begin(), m_events.end(), EventAfter{});
}

// Handles every event due at the earliest pending time (within the tolerance), including the
// ones they make due then; links and dies start their next chunk or task only once the whole
// batch is in, so that the tie rule, not the order events were handled in, decides.
void StoreAndForwardSimulation::runBatch() {
    const double now = m_events.front().timeS;
    const double limit = now + kSimultaneousRelTol * now;
    while (true) {
        bool handled = false;
        while (!m_events.empty() && m_events.front().timeS <= limit) {
            std::pop_heap(m_events.begin(), m_events.end(), EventAfter{});
            const Event event = m_events.back();
            m_events.pop_back();
            switch (event.kind) {
            case Event::Kind::Ready:
                becomeReady(event.subject, now);
                break;
            case Event::Kind::Complete:
                complete(event.subject, now);
                break;
            case Event::Kind::ChunkArrives: {
                const Hop& hop = m_hops[idx(event.subject)];
                auto& queue = m_linkQueues[idx(hop.link)];
                queue.push_back({now, hop.flow, event.chunk, event.subject});
                std::push_heap(queue.begin(), queue.end(), ChunkAfter{});
                if (!m_linkTouched[idx(hop.link)]) {
                    m_linkTouched[idx(hop.link)] = 1;
                    m_touchedLinks.push_back(hop.link);
                }
                break;
            }
            case Event::Kind::ChunkSent:
                chunkSent(event.subject, event.chunk, now);
                break;
            case Event::Kind::ChunkJoins:
                chunkJoins(event.subject, event.chunk, now);
                break;
            }
            handled = true;
        }
        handled = startIdleLinks(now) || handled;
        handled = m_dies.startIdle([&](TaskId id) {
            const SimTask& task = m_problem.tasks[idx(id)];
            m_result.tasks[idx(id)].startS = now;
            m_result.dieComputeS[idx(task.die)] += task.seconds;
            push(now + task.seconds, Event::Kind::Complete, id);
        }) || handled;
        if (!handled)
            break;
    }
}

void StoreAndForwardSimulation::becomeReady(TaskId id, double now) {
    const SimTask& task = m_problem.tasks[idx(id)];
    TaskTiming& timing = m_result.tasks[idx(id)];
    timing.readyS = now;
    switch (task.kind) {
    case SimTask::Kind::Flow:
        if (task.bytes <= 0.0) { // nothing to send: only the latency remains
            timing.startS = now;
            timing.lastByteS = now;
            push(now + flowLatencyS(m_problem, task), Event::Kind::Complete, id);
            break;
        }
        timing.startS = std::numeric_limits<double>::infinity(); // until a chunk starts
        {
            int sources = 0;
            long long deliveringHops = 0;
            for (int h = m_firstHop[idx(id)]; h < m_firstHop[idx(id) + 1]; ++h) {
                deliveringHops += delivers(m_hops[idx(h)]) ? 1 : 0;
                // Every chunk is ready at a source now; a source link's queue holds the flow's
                // next chunk only (startIdleLinks queues the one after when it starts one),
                // which orders the same as holding them all.
                if (isSource(h)) {
                    ++sources;
                    push(now, Event::Kind::ChunkArrives, h, 0);
                }
            }
            m_sourceHopsSending[idx(id)] = sources;
            m_deliveriesLeft[idx(id)] = deliveringHops * m_chunkCount[idx(id)];
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

bool StoreAndForwardSimulation::startIdleLinks(double now) {
    bool started = false;
    for (const LinkId link : m_touchedLinks) {
        m_linkTouched[idx(link)] = 0;
        auto& queue = m_linkQueues[idx(link)];
        if (m_linkBusy[idx(link)] || queue.empty())
            continue;
        std::pop_heap(queue.begin(), queue.end(), ChunkAfter{});
        const QueuedChunk next = queue.back();
        queue.pop_back();
        m_linkBusy[idx(link)] = 1;
        const double seconds =
            chunkBytes(next.flow, next.chunk) / m_problem.linkBandwidth[idx(link)];
        push(now + seconds, Event::Kind::ChunkSent, next.hop, next.chunk);
        if (isSource(next.hop)) {
            TaskTiming& timing = m_result.tasks[idx(next.flow)];
            timing.startS = std::min(timing.startS, now);
            if (next.chunk + 1 < m_chunkCount[idx(next.flow)]) {
                queue.push_back({next.readyS, next.flow, next.chunk + 1, next.hop});
                std::push_heap(queue.begin(), queue.end(), ChunkAfter{});
            }
        }
        started = true;
    }
    m_touchedLinks.clear();
    return started;
}

void StoreAndForwardSimulation::chunkSent(int hopIndex, long long chunk, double now) {
    const Hop& hop = m_hops[idx(hopIndex)];
    m_linkBusy[idx(hop.link)] = 0;
    if (!m_linkTouched[idx(hop.link)]) {
        m_linkTouched[idx(hop.link)] = 1;
        m_touchedLinks.push_back(hop.link);
    }
    const double arrivesS = now + linkLatencyOf(m_problem, hop.link);
    const auto flow = idx(hop.flow);
    if (isSource(hopIndex) && chunk + 1 == m_chunkCount[flow] && --m_sourceHopsSending[flow] == 0)
        m_result.tasks[flow].lastByteS = now;
    if (m_inward[flow] == 0) {
        for (int child = hop.childBegin; child < hop.childEnd; ++child)
            push(arrivesS, Event::Kind::ChunkArrives, child, chunk);
    } else if (hop.joinHop >= 0) {
        push(arrivesS, Event::Kind::ChunkJoins, hopIndex, chunk);
    }
    if (delivers(hop)) {
        m_latestArrivalS[flow] = std::max(m_latestArrivalS[flow], arrivesS);
        if (--m_deliveriesLeft[flow] == 0)
            push(m_latestArrivalS[flow], Event::Kind::Complete, hop.flow);
    }
}

// A reduction chunk has crossed `hopIndex` and reached the die where it is combined: the next
// link of the tree takes each chunk once every one of its inputs has brought it (chunks cross a
// link in order, so "every input has brought k" is the least count any input has delivered).
void StoreAndForwardSimulation::chunkJoins(int hopIndex, long long chunk, double now) {
    m_chunksDelivered[idx(hopIndex)] = chunk + 1;
    const int joinHop = m_hops[idx(hopIndex)].joinHop;
    const Hop& next = m_hops[idx(joinHop)];
    long long ready = m_chunkCount[idx(next.flow)];
    for (int input = next.childBegin; input < next.childEnd; ++input)
        ready = std::min(ready, m_chunksDelivered[idx(input)]);
    auto& queue = m_linkQueues[idx(next.link)];
    for (long long& queued = m_chunksQueued[idx(joinHop)]; queued < ready; ++queued) {
        queue.push_back({now, next.flow, queued, joinHop});
        std::push_heap(queue.begin(), queue.end(), ChunkAfter{});
    }
    if (!m_linkTouched[idx(next.link)]) {
        m_linkTouched[idx(next.link)] = 1;
        m_touchedLinks.push_back(next.link);
    }
}

void StoreAndForwardSimulation::complete(TaskId id, double now) {
    const SimTask& task = m_problem.tasks[idx(id)];
    TaskTiming& timing = m_result.tasks[idx(id)];
    timing.endS = now;
    if (task.kind == SimTask::Kind::Compute) {
        timing.lastByteS = now;
        m_dies.release(task.die);
    }
    m_result.makespanS = std::max(m_result.makespanS, now);
    m_graph.releaseDependents(id, m_pendingDeps, [&](TaskId dependent) {
        const double readyS = readyTimeS(m_problem.tasks[idx(dependent)], now);
        push(readyS, Event::Kind::Ready, dependent);
    });
}

double StoreAndForwardSimulation::chunkBytes(TaskId flow, long long chunk) const {
    const double size = m_problem.network.chunkBytes;
    const long long count = m_chunkCount[idx(flow)];
    if (chunk + 1 < count)
        return size;
    return m_problem.tasks[idx(flow)].bytes - size * static_cast<double>(count - 1);
}

} // namespace ws
