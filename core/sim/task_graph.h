#pragma once

#include "sim/sim_problem.h"

#include <cstddef>
#include <span>
#include <vector>

namespace ws {

// The reverse of SimProblem's dependency lists (who waits for whom) in CSR form, built once
// after the problem has been checked. A task listed twice in another's deps appears twice here,
// matching the pending-dependency count the simulator keeps.
struct TaskGraph {
    std::vector<int> dependentOffsets; // size tasks + 1
    std::vector<TaskId> dependents;    // task t's dependents: [offsets[t], offsets[t + 1])

    // Checks the problem (docs/network-model.md and fluid_simulator.h) and builds the graph. Throws
    // std::invalid_argument naming the task or link for: a dependency out of range or a cycle;
    // a flow with bytes > 0 but no links; a link id out of range or listed twice in one flow; a
    // link crossed by a flow with bytes > 0 whose bandwidth is not a positive finite number; a
    // compute task on a die out of range; a negative or non-finite size, duration, start time,
    // hop count or latency; a negative die count.
    static TaskGraph build(const SimProblem& problem);
    // The per-task checks of build for `tasks` only (same messages): for a problem that differs
    // from one already built only in those tasks' links and hops.
    static void check(const SimProblem& problem, std::span<const TaskId> tasks);

    // Task `id` completed: counts it down in each dependent's `pending` (dependencies not yet
    // complete, by task) and calls ready(dependent) for each that has none left. Both network
    // models run their events in time order, so that completion is the dependent's last.
    template <typename Ready>
    void releaseDependents(TaskId id, std::vector<int>& pending, Ready&& ready) const {
        const auto task = static_cast<std::size_t>(id);
        for (int k = dependentOffsets[task]; k < dependentOffsets[task + 1]; ++k) {
            const TaskId dependent = dependents[static_cast<std::size_t>(k)];
            if (--pending[static_cast<std::size_t>(dependent)] == 0)
                ready(dependent);
        }
    }
};

} // namespace ws
