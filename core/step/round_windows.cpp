#include "step/round_windows.h"

#include <algorithm>
#include <utility>

namespace ws {

std::map<int, double> roundWindows(const SimProblem& problem, const std::vector<StepTaskInfo>& info,
                                   int tatpDegree) {
    std::map<int, double> windows;
    if (tatpDegree <= 1)
        return windows;
    std::map<std::pair<int, DieId>, double> computeOnDie; // (round, die) -> seconds
    for (std::size_t task = 0; task < problem.tasks.size() && task < info.size(); ++task) {
        const SimTask& simTask = problem.tasks[task];
        if (simTask.kind == SimTask::Kind::Compute && info[task].round >= 0)
            computeOnDie[{info[task].round, simTask.die}] += simTask.seconds;
    }
    for (const auto& [key, seconds] : computeOnDie)
        windows[key.first] = std::max(windows[key.first], seconds);
    return windows;
}

} // namespace ws
