#pragma once

#include "routing/route.h"
#include "scenario/scenario.h"
#include "sim/sim_problem.h"
#include "step/collective_role.h"
#include "topology/wafer_topology.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// One flow of an evaluated scenario, as TCME sees it.
struct EvaluatedFlow {
    std::string id;    // the key routing.paths pins it by
    std::string group; // the op (explicit traffic) or collective/stream it belongs to
    std::string kind;  // "p2p", "allgather", ..., "tatp" (a TATP stream transfer), "collective"
    int opIndex = -1;  // index into Scenario::traffic for explicit traffic, else -1
    std::optional<CollectiveRole> role; // a training step's collective flows: why they run
    DieId src = 0;
    std::vector<DieId> dsts;
    double bytes = 0.0;
    bool multicast = false;
    Route route;
    double startS = 0.0;
    double lastByteS = 0.0;
    double endS = 0.0;
};

// A scenario simulated: its explicit traffic (planTraffic) or, with a workload and a strategy,
// its training step (buildTrainingStep; makespan is then the simulated window, the step's
// phase). Link vectors are indexed by LinkId.
struct ScenarioEvaluation {
    double makespanS = 0.0;
    std::vector<double> linkBytes;
    std::vector<double> linkBandwidth;
    std::vector<EvaluatedFlow> flows;
    bool trainingStep = false;
    // A training step's TATP rounds: the round of each flow (parallel to flows; -1 for a flow in
    // no round) and each round's window, its compute time (step/round_windows.h). Empty for
    // explicit traffic.
    std::vector<int> flowRound;
    std::map<int, double> roundWindowS;

    double maxLinkBytes() const;
    LinkId maxLink() const; // the most loaded link (lowest id on ties); -1 if none carries bytes
    // docs/network-model.md section 7's utilisation, the highest of: any link's bytes over
    // bandwidth times the makespan, and any link's bytes of TATP round r over bandwidth times round
    // r's window (the transfers of a round must hide behind its compute).
    double maxUtilization() const;
    // Sum over links of bytes squared: lower when load is spread more evenly, even when the
    // most loaded link stays as loaded (e.g. its reverse direction carries the same).
    double sumSquaredLinkBytes() const;
};

// Throws ScenarioError like the CLI would (bad routes, infeasible strategies).
// Same as prepareScenario, simulate(prepared.problem), completeEvaluation.
ScenarioEvaluation evaluateScenario(const Scenario& scenario, const WaferTopology& topology);

// A scenario built but not yet simulated: the problem evaluateScenario simulates and the flows
// it reports. TCME keeps the current scenario's so that a candidate that only pins routes can be
// judged by patching links in `problem` (route_patcher.h) instead of rebuilding the step.
// Invariant: evaluation.flows[i] is task flowTasks[i] of problem, and its route's links are that
// task's links. A flow with opIndex < 0 belongs to the training step's own graph, the others to
// the explicit traffic (a pinned id applies to the step's flows of that id if there are any,
// else to the traffic's flow of that id).
struct PreparedScenario {
    SimProblem problem;
    ScenarioEvaluation evaluation; // flows without timings; makespan and link bytes unset
    std::vector<TaskId> flowTasks; // parallel to evaluation.flows
    // True when no flow's route depends on the flows routed before it: xy or yx routing on a
    // wafer without dead dies or links (no load-aware choice, no detour). Pinning a flow then
    // changes that flow's route and nothing else of the problem.
    bool independentRoutes = false;
};

// Throws like evaluateScenario.
PreparedScenario prepareScenario(const Scenario& scenario, const WaferTopology& topology);

// Fills prepared.evaluation's makespan, link figures and flow timings from `result`, a
// simulation of prepared.problem (its per-link vectors are taken).
void completeEvaluation(PreparedScenario& prepared, SimResult&& result);

} // namespace ws
