#pragma once

#include "routing/route.h"
#include "scenario/scenario.h"
#include "sim/sim_problem.h"
#include "sim/task_graph.h"
#include "step/collective_role.h"
#include "step/training_step.h"
#include "topology/wafer_topology.h"

#include <map>
#include <memory>
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
    bool multicast = false; // along a tree (out of src, or into it for a reduction)
    bool reduction = false;
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
    std::vector<double> linkBytes;     // by LinkId
    std::vector<double> linkBandwidth; // bytes/s by LinkId; as long as linkBytes when it is set
    std::vector<EvaluatedFlow> flows;
    bool trainingStep = false;
    // A training step's TATP rounds: the round of each flow (parallel to flows; -1 for a flow in
    // no round) and each round's window, its compute time (step/round_windows.h). Empty for
    // explicit traffic.
    std::vector<int> flowRound;
    std::map<int, double> roundWindowS;
    // A training step's collectives (FSDP gathers, gradient reductions, TP and SP collectives):
    // the one each flow belongs to (parallel to flows; -1 for TATP transfers and explicit
    // traffic) and each one's critical phase, in seconds: from its first flow's start to the
    // start of the first task that waits for it, through barriers (docs/tcme.md, "Phases"); its
    // own end when nothing waits. Empty for explicit traffic.
    std::vector<int> flowCollective;
    std::vector<double> collectivePhaseS;
    // A training step's time (step/training_step.h, stepTiming); 0 for explicit traffic.
    double stepS = 0.0;

    // The busiest link: the longest bytes / bandwidth (lowest id on ties); -1 if none carries
    // bytes. On one wafer, whose links share one bandwidth, the one carrying most bytes; in a
    // system of wafers a slower off-wafer link can be busier with fewer bytes.
    LinkId maxLink() const;
    double maxLinkBusyS() const; // that link's busy time, seconds (0 if none)
    // docs/network-model.md section 7's utilisation, the highest of: any link's bytes over
    // bandwidth times the makespan, any link's bytes of TATP round r over bandwidth times round
    // r's window (the transfers of a round must hide behind its compute), and any link's bytes
    // of a step's collective over bandwidth times its critical phase.
    double maxUtilization() const { return hottestPhase().utilization; }
    // Where that utilisation is reached: the link (lowest id on ties; -1 if none carries bytes)
    // and the collective whose phase it is (-1: the makespan or a TATP round).
    struct HotPhase {
        double utilization = 0.0;
        LinkId link = -1;
        int collective = -1;
        std::string name;              // the collective's (the group of its flows)
        double fromS = 0.0, toS = 0.0; // its critical phase
    };
    HotPhase hottestPhase() const;
    // Sum over links of bytes squared: lower when load is spread more evenly, even when the
    // most loaded link stays as loaded (e.g. its reverse direction carries the same).
    double sumSquaredLinkBytes() const;
    // The same over busy times (s^2), which TCME's objective compares: links of different
    // bandwidths weigh by the time they are busy.
    double sumSquaredLinkBusyS() const;
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
    // The reverse of `problem`'s dependencies (TaskGraph::build), for its simulations too.
    std::shared_ptr<const TaskGraph> dependents;
    // A training step's: what times a simulation of `problem`, and the barrier that ends each
    // collective (indexed like evaluation.collectivePhaseS).
    std::optional<StepClock> stepClock;
    std::vector<TaskId> collectiveDone;
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
