#pragma once

#include "collectives/expansion_budget.h"
#include "collectives/flow.h"
#include "scenario/scenario.h"
#include "scenario/scenario_error.h"
#include "sim/sim_problem.h"
#include "topology/wafer_topology.h"

#include <functional>
#include <string>
#include <vector>

namespace ws {

// A scenario's explicit traffic, expanded, routed and turned into a SimProblem.
struct TrafficPlan {
    std::vector<Flow> flows;    // in expansion order: op by op; flowDeps index this vector
    std::vector<TaskId> opDone; // per op: a barrier task complete when all its flows are
    SimProblem problem;
};

// Expands every op, routes every flow in order (pinned paths from routing.paths first, else the
// routing mode; the router's load memory carries across ops), and builds the SimProblem:
// a flow of an op waits for the ops in `after` (their barriers) and for `start`.
// Throws ScenarioError naming the key: "routing.paths.<flow id>" for a pinned path that names no
// flow or is not a live route from the flow's source to its destination(s);
// "traffic[i]" for traffic that cannot be routed around dead dies and links. Polls `cancel`
// every kFlowsBetweenCancelPolls flows (collectives/collective_expansion.h) and throws
// RunCancelled (sim/run_cancelled.h) when it fires. Before an op is expanded its flows are
// counted against `limits` (ExpansionBudget): "traffic[i]" when the run would pass them.
TrafficPlan planTraffic(const Scenario& scenario, const WaferTopology& topology,
                        const std::function<bool()>& cancel = {},
                        const ExpansionLimits& limits = {});

} // namespace ws
