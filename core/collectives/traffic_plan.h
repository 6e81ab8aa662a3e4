#pragma once

#include "collectives/expansion_budget.h"
#include "collectives/flow.h"
#include "scenario/scenario.h"
#include "scenario/scenario_error.h"
#include "sim/sim_problem.h"
#include "topology/wafer_topology.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ws {

// Whether a plan keeps its per-flow records (ids, destinations, routes) once their tasks are
// built. A run whose report is a summary (report/simulation_report.h) reads only the tasks:
// dropping the records brings a flow from about 570 to 390 bytes (docs/cli.md, section 4.2).
enum class FlowRecords { Kept, Dropped };

// A scenario's explicit traffic, expanded, routed and turned into a SimProblem.
struct TrafficPlan {
    // In expansion order: op by op. Empty when the records were dropped; flowCount says how
    // many there were either way, and flow f's task is task f (the first flowCount tasks).
    std::vector<Flow> flows;
    std::size_t flowCount = 0;
    std::vector<TaskId> opDone; // per op: a barrier task complete when all its flows are
    SimProblem problem;
};

// Expands every op, routes every flow in order (pinned paths from routing.paths first, else the
// routing mode; the router's load memory carries across ops), and builds the SimProblem:
// a flow of an op waits for the ops in `after` (their barriers) and for `start`.
// Throws ScenarioError naming the key: "routing.paths.<flow id>" for a pinned path that names no
// flow or is not a live route from the flow's source to its destination(s);
// "traffic[i]" for traffic that cannot be routed around dead dies and links. Polls `cancel`
// every kItemsBetweenCancelPolls flows (sim/run_cancelled.h) and throws
// RunCancelled (sim/run_cancelled.h) when it fires. Before an op is expanded its flows are
// counted against `limits` (ExpansionBudget): "traffic[i]" when the run would pass them.
TrafficPlan planTraffic(const Scenario& scenario, const WaferTopology& topology,
                        const std::function<bool()>& cancel = {},
                        const ExpansionLimits& limits = {},
                        FlowRecords records = FlowRecords::Kept);

} // namespace ws
