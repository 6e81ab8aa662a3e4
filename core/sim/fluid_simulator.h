#pragma once

#include "sim/sim_problem.h"

#include "sim/task_graph.h"

#include <functional>
#include <memory>

namespace ws {

// Simulates a problem in its network model (problem.network): the store-and-forward model of
// sim/store_and_forward_simulation.h, or the event-driven fluid model of docs/network-model.md
// described here.
//
// Bandwidth is shared max-min fairly among the flows active on each link, by progressive
// filling; rates are re-solved when a flow starts or finishes, only for the flows connected
// (through shared links) to the ones that changed, and simultaneous events are handled as one
// batch. A flow's data is delivered hops * latency after its last byte leaves. Compute tasks
// queue on their die (first ready, first run; ties by TaskId).
//
// Worked example: two 1 MB flows that share one 1 GB/s link and start at t = 0 each get
// 0.5 GB/s and deliver at 2 ms + latency.
//
// Throws std::invalid_argument for a dependency cycle, a dependency out of range, a flow with
// bytes > 0 but no links, or a link with no bandwidth. `cancel`, if given, is polled between
// events; when it returns true the run stops and RunCancelled (sim/run_cancelled.h) is thrown.
SimResult simulate(const SimProblem& problem, const std::function<bool()>& cancel = {});
// The same, reusing `graph`: TaskGraph::build(problem), made by the caller (who re-simulates the
// problem, as TCME does). The store-and-forward model builds its own.
SimResult simulate(const SimProblem& problem, std::shared_ptr<const TaskGraph> graph,
                   const std::function<bool()>& cancel = {});

} // namespace ws
