#pragma once

#include "scenario/scenario.h"
#include "tcme/multicast_tree_planner.h"
#include "tcme/route_patcher.h"
#include "tcme/scenario_evaluation.h"
#include "topology/wafer_topology.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class ThreadPool;

// One change TCME made to the scenario.
struct TcmeAction {
    enum class Kind {
        Reroute,
        Multicast,
        Hierarchical,
        Retree,
        ReductionTree,
        Split,
        BidirectionalRing
    };
    Kind kind = Kind::Reroute;
    std::string flow; // the flow id (reroute, retree) or the op id (merges, reduction trees, split)
    std::vector<DieId> oldPath, newPath; // reroute only; empty for the others
    std::string detail;                  // human-readable: what changed
    TreeEdges oldTree, newTree;          // retree only: a tree before and after
};

// The figures TCME watches, from one evaluation of a scenario.
struct TcmeSnapshot {
    double stepS = 0;          // seconds: a training step's time; 0 for explicit traffic
    double makespanS = 0;      // seconds
    double maxLinkBytes = 0;   // bytes on the busiest link (on one wafer: the most loaded)
    double maxUtilization = 0; // ScenarioEvaluation::maxUtilization(): per TATP round for steps
    LinkId maxLink = -1;       // -1 when no link carries bytes
};

// One pass of docs/concepts.md section 3, stages 2-4: the hot link found, what crossed it, what was
// changed.
// Which figure of TCME's objective a kept change improved, in the objective's order: a
// training step's time, else the makespan (of the simulated window, for a step), else the
// hottest link's bytes, else the spread of bytes over links (the sum of their squares). None:
// the iteration kept nothing.
enum class TcmeGain { None, StepTime, Makespan, HottestLink, Spread };
// "none", "step_time", "makespan", "hottest_link", "spread"
std::string toString(TcmeGain gain);
// The gain in words, for reports: "the makespan fell", ...
std::string gainExplanation(TcmeGain gain);

struct TcmeIteration {
    int index = 0; // 0-based
    LinkId mcl = -1;
    DieId mclFrom = 0, mclTo = 0;
    double mclBytes = 0;       // bytes
    double mclUtilization = 0; // mclBytes / (bandwidth * makespan), or over the phase below
    // A training step's iteration looks at the critical phase of the collective that loads a
    // link most (docs/tcme.md, "Phases"): its name, its window (seconds) and, in mclUtilization,
    // the link's utilisation over it; hot flows are those sending on mcl in the window. An
    // empty name: the whole makespan.
    std::string phaseCollective;
    double phaseFromS = 0, phaseToS = 0;
    // Over the flows crossing mcl: sum of (lastByte - start - bytes / bandwidth(mcl)), each term
    // clamped at 0: the seconds those flows lost to sharing links.
    double queueingDelayS = 0;
    int conflictFlows = 0;             // flows crossing mcl
    int conflictGroups = 0;            // distinct groups (ops / collectives) among them
    std::vector<std::string> hotFlows; // ids of the flows crossing mcl, in evaluation order
    std::vector<TcmeAction> actions;   // what this iteration changed; empty if nothing improved
    TcmeGain gain = TcmeGain::None;    // why `actions` were kept
    std::vector<double> linkBytesBefore, linkBytesAfter; // by LinkId
    TcmeSnapshot before, after;
};

// Why TCME stopped. Cancelled is run()'s answer when its caller stopped it: the engine is not
// finished then (stopReason() stays empty) and can go on.
enum class TcmeStopReason { MaxIter, NoGain, BelowTarget, NoCandidate, Cancelled };
std::string toString(TcmeStopReason reason); // "max_iter", "no_gain", ..., "cancelled"

struct TcmeOptions {
    TcmeSpec spec;
    bool multicastAllGather = true;        // candidates (a): all-gather / broadcast -> multicast
    bool hierarchicalReduceScatter = true; // candidates (b): ring reduce-scatter -> hierarchical
    bool reductionTrees = true;            // candidates (b): reduce-scatter -> reduction trees
    bool bidirectionalRings = true;        // candidates (b): a ring -> two rings, both ways
    bool rerouteFlows = true;              // candidates (c): hot unicast flows -> bypass paths
    bool replanPaths = true;               // ... and all of them re-planned against the load
    bool retreeMulticasts = true;          // candidates (d): multicast trees balanced by load
    bool splitTransfers = true;            // candidates (e): a hot op's transfer over two routes
    int maxCandidatesPerIteration = 8;     // hot unicast flows tried for rerouting per iteration
    // Judge candidates that only pin routes by patching the current problem's links instead of
    // rebuilding the scenario, when that gives the same problem (see RoutePatcher). The results
    // are the same either way; false rebuilds every candidate (the reference, for tests).
    bool patchRoutes = true;
    // Threads that simulate an iteration's candidates at once (the caller's included): 0 = one
    // per core. The iterations are the same whatever the count (keepBestCandidate).
    int threads = 0;
};

// The options a scenario asks for: its `tcme` spec (defaults when absent), every stage on.
TcmeOptions tcmeOptionsFrom(const Scenario& scenario);

// The traffic-conscious mapping engine (docs/concepts.md section 3). It edits a copy of the
// scenario (pinned routes in routing.paths, op algorithms, strategy.fsdp_allgather) and judges
// every edit by simulating it as evaluateScenario would, so the tuned scenario is an ordinary
// scenario whose evaluation reproduces current() exactly. The current scenario stays built
// (PreparedScenario): a reroute candidate is judged by patching the rerouted flows' links into it
// (RoutePatcher) and finishing a copy of the current problem's run paused where the first rerouted
// flow starts (FluidSimulation::switchTo), rather than rebuilding and simulating the step from
// scratch; both give the same figures to the last bit.
//
// Each step(): evaluate, find the most congested link (mcl: by bytes, or for a training step
// the link busiest in a collective's critical phase, docs/tcme.md), build candidates (merge
// duplicate all-gather / broadcast unicasts into multicast trees; hierarchical reduce-scatter on a
// rectangle; reroute the largest hot unicast flows on a load-weighted shortest path avoiding mcl;
// all those reroutes together; when a multicast crosses mcl, every multicast's tree re-shaped
// against the load of all traffic by MulticastTreePlanner; the explicit ops with a hot tree or
// p2p flow split in two, `split`: 2, their halves planned with the trees), simulate each, and
// keep the best (step time, makespan, max link bytes, spread, then fewer actions, then candidate
// order: see docs/tcme.md) if it strictly beats the current scenario. Invariants: current() is
// never worse than initial(); the same input gives the same iterations.
class TcmeEngine {
public:
    // Evaluates the scenario once (throws ScenarioError if it does not simulate). Finished at
    // once (BelowTarget) when every link is already below the target utilisation, or (MaxIter)
    // when max_iter <= 0.
    TcmeEngine(Scenario scenario, const WaferTopology& topology, TcmeOptions options);
    TcmeEngine(TcmeEngine&&) noexcept;
    ~TcmeEngine();

    bool finished() const { return m_stopReason.has_value(); }
    std::optional<TcmeStopReason> stopReason() const { return m_stopReason; }

    // One iteration; throws std::logic_error when finished.
    const TcmeIteration& step();
    // Steps until finished. `cancel` is asked before every step: when it returns true the engine
    // stops early but stays resumable (not finished), and run returns Cancelled. `progress` is
    // called after every step.
    TcmeStopReason run(const std::function<bool()>& cancel = {},
                       const std::function<void(const TcmeIteration&)>& progress = {});

    const std::vector<TcmeIteration>& iterations() const { return m_iterations; }
    const TcmeSnapshot& initial() const { return m_initial; }
    const TcmeSnapshot& current() const { return m_current; }
    const ScenarioEvaluation& currentEvaluation() const { return m_state.evaluation; }
    const Scenario& tunedScenario() const { return m_scenario; }

private:
    struct Candidate {
        Scenario scenario;
        std::vector<TcmeAction> actions;
        // What a reroute adds to routing.paths (flow id -> dies); empty for merges, which change
        // the problem's structure and are rebuilt.
        std::map<std::string, std::vector<DieId>> pins;
    };

    // A candidate simulated: what the objective reads of it (nullopt when it does not
    // simulate) and, for a rebuilt candidate that beats the current scenario, what adopting it
    // takes: its problem and its simulation.
    struct CandidateRun {
        std::optional<ScenarioEvaluation> figures; // makespan, link bytes and step time only
        std::optional<SimResult> result;
        std::optional<PreparedScenario> rebuilt;
    };

    // Fills the iteration's hot link (the phase's, or by bytes when `phase` is null), its hot
    // flows and their figures; returns the hot flows' indices (none when no link carries bytes).
    std::vector<int> focus(const ScenarioEvaluation::HotPhase* phase,
                           TcmeIteration& iteration) const;
    // Simulates the candidates for the iteration's hot link and flows and adopts the best if it
    // beats the current scenario (recording its actions and gain in `iteration`).
    bool keepBestCandidate(const std::vector<int>& hot, TcmeIteration& iteration);
    std::vector<Candidate> candidates(LinkId mcl, const std::vector<int>& hotFlowIndices) const;
    // Candidate (d), or nullopt when no multicast tree would change.
    std::optional<Candidate> retreeCandidate() const;
    // Candidate (c), planned: the hot unicast flows `unicast` (indices into the evaluation's
    // flows) re-routed together against the load of all the traffic, as the trees of (d) are;
    // nullopt when no path would change.
    std::optional<Candidate> replannedPathsCandidate(const std::vector<int>& unicast) const;
    // Candidate (e): the explicit ops with a hot tree or p2p flow split in two (`split`: 2), the
    // halves and every tree re-planned together against the load; nullopt when none can split.
    std::optional<Candidate> splitCandidate(const std::vector<int>& hotFlowIndices) const;
    // By candidate: the patches that simulate it on the current problem, or nullopt (rebuild).
    std::vector<std::optional<std::vector<RoutePatch>>>
    routePatches(const std::vector<Candidate>& options) const;
    // Fills the figures of runs[c] for each patched candidate c (patches[c] set). The problem is
    // left as it was.
    void simulatePatched(std::vector<std::optional<std::vector<RoutePatch>>>& patches,
                         std::vector<CandidateRun>& runs);
    // A candidate built and simulated from scratch, as evaluateScenario would. Reads only the
    // candidate, the topology and the current evaluation: it may run beside simulatePatched.
    CandidateRun rebuild(const Candidate& candidate) const;
    // What the objective reads of a simulation of the current problem (patched or not).
    ScenarioEvaluation figuresOf(const SimResult& result) const;
    void checkStopRules(const TcmeIteration& iteration, bool improved);

    Scenario m_scenario;
    const WaferTopology& m_topology;
    TcmeOptions m_options;
    PreparedScenario m_state; // m_scenario built and evaluated: m_state.evaluation is current
    ScenarioEvaluation::HotPhase m_hotPhase; // m_state.evaluation.hottestPhase()
    TcmeSnapshot m_initial;
    TcmeSnapshot m_current;
    std::vector<TcmeIteration> m_iterations;
    int m_lowGainStreak = 0; // consecutive iterations whose relative gain was below min_gain
    std::optional<TcmeStopReason> m_stopReason;
    std::unique_ptr<ThreadPool> m_pool; // options.threads threads, for keepBestCandidate
};

} // namespace ws
