#pragma once

#include "sim/sim_problem.h"
#include "step/step_graph.h"

#include <map>
#include <vector>

namespace ws {

// The window of each TATP round of a training step (docs/network-model.md section 7: a compute
// round's window is its compute time): the compute seconds the busiest die spends in round r over
// every stream of the simulated window, the time round r's transfers have to hide behind. `info` is
// parallel to problem.tasks (StepGraph's invariant). Empty when the step has no TATP rounds (tatp
// 1).
std::map<int, double> roundWindows(const SimProblem& problem, const std::vector<StepTaskInfo>& info,
                                   int tatpDegree);

} // namespace ws
