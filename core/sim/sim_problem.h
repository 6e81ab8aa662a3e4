#pragma once

#include "topology/network_model.h"
#include "topology/wafer_topology.h"

#include <optional>
#include <utility>
#include <vector>

namespace ws {

using TaskId = int; // index into SimProblem::tasks

// One unit of work for the simulator (docs/network-model.md).
struct SimTask {
    enum class Kind {
        Flow,    // bytes over links, sharing bandwidth max-min fairly
        Compute, // runs on one die for a fixed time; a die runs one compute task at a time
        Barrier  // takes no time: completes as soon as its dependencies have
    };
    Kind kind = Kind::Flow;
    double bytes = 0.0;        // Flow: size S
    std::vector<LinkId> links; // Flow: every link crossed, each once (a tree's links for multicast)
    int hops = 0;              // Flow: latency hops h (deepest leaf of a tree)
    DieId die = -1;            // Compute: the die that runs it
    double seconds = 0.0;      // Compute: duration
    double earliestStartS = 0.0; // no earlier than this, even when dependencies are met
    // Seconds between its dependencies being met (t = 0 without any) and its start: a
    // collective protocol's fixed latency, paid once by its first flows (docs/network-model.md
    // section 4.8).
    double startDelayS = 0.0;
    std::vector<TaskId> deps; // all must be complete first (a flow completes when delivered)
};

// When `task` becomes ready once its dependencies are met at `depsMetS`.
inline double readyTimeS(const SimTask& task, double depsMetS) {
    const double delayed = depsMetS + task.startDelayS;
    return delayed > task.earliestStartS ? delayed : task.earliestStartS;
}

struct SimProblem {
    std::vector<SimTask> tasks;
    std::vector<double> linkBandwidth; // bytes/s per LinkId
    double hopLatencyS = 0.0;          // seconds per hop, paid after the last byte leaves
    // Seconds by LinkId when links differ (a system's off-wafer links, docs/network-model.md
    // section 11); empty: every link has hopLatencyS.
    std::vector<double> linkLatencyS;
    int dieCount = 0;
    // Dies plus a cluster's switches (WaferTopology::vertexCount): the ids linkEnds may name.
    // 0: the same as dieCount.
    int vertexCount = 0;
    NetworkSettings network; // which model moves the flows (sim/network_model.h)
    // By LinkId: (tail die, head die). Store-and-forward reads a flow's route order (a path, or
    // a multicast tree from its source) from these; the fluid model does not need them.
    std::vector<std::pair<DieId, DieId>> linkEnds;
};

// When each task ran. For a flow: readyS when its dependencies were met, lastByteS when its last
// byte left the source, endS = lastByteS + hops * latency (delivery) in the fluid model; in the
// store-and-forward model startS is when its first chunk began to cross a link, lastByteS when
// its last chunk had left the source and endS when that chunk reached every destination. For a
// compute task startS can be later than readyS while its die is busy. For a barrier all four are
// equal.
struct TaskTiming {
    double readyS = 0.0;
    double startS = 0.0;
    double lastByteS = 0.0;
    double endS = 0.0;
};

struct SimResult {
    double makespanS = 0.0;           // latest endS of any task (0 for an empty problem)
    std::vector<TaskTiming> tasks;    // by TaskId
    std::vector<double> linkBytes;    // by LinkId: bytes carried
    std::vector<double> linkBusyS;    // by LinkId: linkBytes / bandwidth
    std::vector<double> dieComputeS;  // by DieId: total compute time
    long long rateRecomputations = 0; // how many times rates were re-solved (for benchmarks)
};

// A problem without tasks on `topology`'s links, every one with `bandwidth` bytes/s and
// `hopLatencyS` except those of a tier `tiers` gives its own speed (off-wafer links, a cluster's
// network): what the traffic planner and the step builder start from.
SimProblem problemOnLinks(const WaferTopology& topology, double bandwidth, double hopLatencyS,
                          NetworkSettings network, const LinkTierSpeeds& tiers = {});

// Seconds of latency one link adds after a byte crosses it.
inline double linkLatencyOf(const SimProblem& problem, LinkId link) {
    return problem.linkLatencyS.empty() ? problem.hopLatencyS
                                        : problem.linkLatencyS[static_cast<std::size_t>(link)];
}

// The latency a flow pays after its last byte leaves (docs/network-model.md): hops x the hop
// latency when every link has the same; otherwise the largest sum of link latencies along its
// route, from its source to its deepest leaf (or, for a reduction tree, into its root).
double deepestLatencyS(const SimProblem& problem, const SimTask& flow);
inline double flowLatencyS(const SimProblem& problem, const SimTask& flow) {
    return problem.linkLatencyS.empty() ? flow.hops * problem.hopLatencyS
                                        : deepestLatencyS(problem, flow);
}

// Every link's bytes carried and busy time (bytes / bandwidth) into `result`, in task order:
// the same in both network models.
void fillLinkTotals(const SimProblem& problem, SimResult& result);

} // namespace ws
