#pragma once

#include "io/scenario.h"
#include "routing/route.h"
#include "topology/wafer_topology.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ws {

// One flow of an evaluated scenario, as TCME sees it.
struct EvaluatedFlow {
    std::string id;    // the key routing.paths pins it by
    std::string group; // the op (explicit traffic) or collective/stream it belongs to
    std::string kind;  // "p2p", "allgather", ..., "tatp" (a TATP stream transfer), "collective"
    int opIndex = -1;  // index into Scenario::traffic for explicit traffic, else -1
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

    double maxLinkBytes() const;
    LinkId maxLink() const; // the most loaded link (lowest id on ties); -1 if none carries bytes
    double maxUtilization() const; // max over links of bytes / (bandwidth * makespan)
    // Sum over links of bytes squared: lower when load is spread more evenly, even when the
    // most loaded link stays as loaded (e.g. its reverse direction carries the same).
    double sumSquaredLinkBytes() const;
};

// Throws ScenarioError like the CLI would (bad routes, infeasible strategies).
ScenarioEvaluation evaluateScenario(const Scenario& scenario, const WaferTopology& topology,
                                    const std::filesystem::path& scenarioDirectory = {});

} // namespace ws
