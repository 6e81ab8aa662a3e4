#include "sim/task_graph.h"

#include "sim/index_cast.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ws {

namespace {

bool isNonNegativeFinite(double value) {
    return std::isfinite(value) && value >= 0.0;
}

[[noreturn]] void fail(TaskId task, const std::string& what) {
    throw std::invalid_argument("task " + std::to_string(task) + ": " + what);
}

void checkTask(const SimProblem& problem, TaskId id, std::vector<int>& linkSeenBy) {
    const SimTask& task = problem.tasks[idx(id)];
    const int taskCount = static_cast<int>(problem.tasks.size());
    const int linkCount = static_cast<int>(problem.linkBandwidth.size());
    if (!isNonNegativeFinite(task.earliestStartS)) {
        fail(id, "earliestStartS must be a finite number >= 0");
    }
    if (!isNonNegativeFinite(task.startDelayS)) {
        fail(id, "startDelayS must be a finite number >= 0");
    }
    for (const TaskId dep : task.deps) {
        if (dep < 0 || dep >= taskCount) {
            fail(id, "dependency " + std::to_string(dep) + " out of range");
        }
    }
    switch (task.kind) {
    case SimTask::Kind::Flow:
        if (!isNonNegativeFinite(task.bytes)) {
            fail(id, "flow bytes must be a finite number >= 0");
        }
        if (task.hops < 0) {
            fail(id, "flow hops must be >= 0");
        }
        if (task.bytes > 0.0 && task.links.empty()) {
            fail(id, "flow of " + std::to_string(task.bytes) + " bytes crosses no link");
        }
        for (const LinkId link : task.links) {
            if (link < 0 || link >= linkCount) {
                fail(id, "link " + std::to_string(link) + " out of range");
            }
            if (linkSeenBy[idx(link)] == id) {
                fail(id, "link " + std::to_string(link) + " listed twice");
            }
            linkSeenBy[idx(link)] = id;
            const double bandwidth = problem.linkBandwidth[idx(link)];
            if (task.bytes > 0.0 && !(std::isfinite(bandwidth) && bandwidth > 0.0)) {
                fail(id, "link " + std::to_string(link) + " has no bandwidth");
            }
        }
        break;
    case SimTask::Kind::Compute:
        if (task.die < 0 || task.die >= problem.dieCount) {
            fail(id, "compute die " + std::to_string(task.die) + " out of range");
        }
        if (!isNonNegativeFinite(task.seconds)) {
            fail(id, "compute seconds must be a finite number >= 0");
        }
        break;
    case SimTask::Kind::Barrier:
        break;
    }
}

} // namespace

void TaskGraph::check(const SimProblem& problem, std::span<const TaskId> tasks) {
    std::vector<int> linkSeenBy(problem.linkBandwidth.size(), -1);
    for (const TaskId task : tasks) {
        checkTask(problem, task, linkSeenBy);
    }
}

TaskGraph TaskGraph::build(const SimProblem& problem) {
    if (!isNonNegativeFinite(problem.hopLatencyS)) {
        throw std::invalid_argument("hopLatencyS must be a finite number >= 0");
    }
    if (!problem.linkLatencyS.empty() &&
        (problem.linkLatencyS.size() != problem.linkBandwidth.size() ||
         !std::all_of(problem.linkLatencyS.begin(), problem.linkLatencyS.end(),
                      isNonNegativeFinite))) {
        throw std::invalid_argument(
            "linkLatencyS must be empty or give every link a finite number >= 0");
    }
    if (problem.dieCount < 0) {
        throw std::invalid_argument("dieCount must be >= 0");
    }
    const std::size_t taskCount = problem.tasks.size();
    std::vector<int> linkSeenBy(problem.linkBandwidth.size(), -1);
    for (std::size_t t = 0; t < taskCount; ++t) {
        checkTask(problem, static_cast<TaskId>(t), linkSeenBy);
    }

    TaskGraph graph;
    graph.dependentOffsets.assign(taskCount + 1, 0);
    // Builders add tasks after their dependencies, so usually every dependency has a lower id:
    // then no cycle is possible and the check below can be skipped.
    bool depsPrecede = true;
    for (std::size_t t = 0; t < taskCount; ++t) {
        for (const TaskId dep : problem.tasks[t].deps) {
            ++graph.dependentOffsets[idx(dep) + 1];
            depsPrecede = depsPrecede && idx(dep) < t;
        }
    }
    for (std::size_t t = 0; t < taskCount; ++t) {
        graph.dependentOffsets[t + 1] += graph.dependentOffsets[t];
    }
    graph.dependents.resize(idx(graph.dependentOffsets[taskCount]));
    std::vector<int> fillAt(graph.dependentOffsets.begin(), graph.dependentOffsets.end() - 1);
    for (std::size_t t = 0; t < taskCount; ++t) {
        for (const TaskId dep : problem.tasks[t].deps) {
            graph.dependents[idx(fillAt[idx(dep)]++)] = static_cast<TaskId>(t);
        }
    }

    if (depsPrecede) {
        return graph;
    }
    // Kahn's algorithm: whatever is never released lies on or behind a cycle.
    std::vector<int> pending(taskCount);
    std::vector<TaskId> order;
    order.reserve(taskCount);
    for (std::size_t t = 0; t < taskCount; ++t) {
        pending[t] = static_cast<int>(problem.tasks[t].deps.size());
        if (pending[t] == 0) {
            order.push_back(static_cast<TaskId>(t));
        }
    }
    for (std::size_t i = 0; i < order.size(); ++i) {
        const TaskId t = order[i];
        for (int k = graph.dependentOffsets[idx(t)]; k < graph.dependentOffsets[idx(t) + 1]; ++k) {
            if (--pending[idx(graph.dependents[idx(k)])] == 0) {
                order.push_back(graph.dependents[idx(k)]);
            }
        }
    }
    if (order.size() != taskCount) {
        // Walk unreleased dependencies from any blocked task: after taskCount steps the walk is
        // inside a cycle, so the message names a task on it rather than one merely behind it.
        TaskId onCycle = 0;
        while (pending[idx(onCycle)] == 0) {
            ++onCycle;
        }
        for (std::size_t step = 0; step < taskCount; ++step) {
            for (const TaskId dep : problem.tasks[idx(onCycle)].deps) {
                if (pending[idx(dep)] > 0) {
                    onCycle = dep;
                    break;
                }
            }
        }
        throw std::invalid_argument("dependency cycle through task " + std::to_string(onCycle));
    }
    return graph;
}

} // namespace ws
