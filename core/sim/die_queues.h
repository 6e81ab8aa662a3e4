#pragma once

#include "sim/sim_problem.h"

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

namespace ws {

// The compute side that both network models share (docs/network-model.md): a die runs one
// compute task at a time, the earliest ready first, ties by TaskId. A simulator queues tasks as
// they become ready and releases a die when its task completes; once the whole batch of events
// at one time is in, startIdle starts the next task on every die that changed, so that tasks
// ready at the same time run in TaskId order whatever order their events were handled in.
class DieQueues {
public:
    explicit DieQueues(int dieCount)
        : m_queues(static_cast<std::size_t>(dieCount)),
          m_busy(static_cast<std::size_t>(dieCount), 0),
          m_touched(static_cast<std::size_t>(dieCount), 0) {}

    void enqueue(DieId die, double readyS, TaskId id) {
        auto& queue = m_queues[index(die)];
        queue.emplace_back(readyS, id);
        std::push_heap(queue.begin(), queue.end(), std::greater<Queued>());
        touch(die);
    }
    // The die's running task completed.
    void release(DieId die) {
        m_busy[index(die)] = 0;
        touch(die);
    }
    // Starts the next task on every idle die touched since the last call: start(id) is told
    // each. Returns whether any started.
    template <typename Start> bool startIdle(Start&& start) {
        bool started = false;
        for (const DieId die : m_touchedDies) {
            m_touched[index(die)] = 0;
            auto& queue = m_queues[index(die)];
            if (m_busy[index(die)] || queue.empty())
                continue;
            std::pop_heap(queue.begin(), queue.end(), std::greater<Queued>());
            const TaskId id = queue.back().second;
            queue.pop_back();
            m_busy[index(die)] = 1;
            start(id);
            started = true;
        }
        m_touchedDies.clear();
        return started;
    }

private:
    using Queued = std::pair<double, TaskId>; // (ready time, task): a min-heap per die

    static std::size_t index(DieId die) { return static_cast<std::size_t>(die); }
    void touch(DieId die) {
        if (!m_touched[index(die)]) {
            m_touched[index(die)] = 1;
            m_touchedDies.push_back(die);
        }
    }

    std::vector<std::vector<Queued>> m_queues;
    std::vector<char> m_busy;    // bytes, not bits: read and written on every compute event
    std::vector<char> m_touched; // in m_touchedDies
    std::vector<DieId> m_touchedDies;
};

} // namespace ws
