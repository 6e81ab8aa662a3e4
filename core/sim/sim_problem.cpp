#include "sim/sim_problem.h"

namespace ws {

SimProblem problemOnLinks(const WaferTopology& topology, double bandwidth, double hopLatencyS,
                          NetworkSettings network) {
    SimProblem problem;
    const auto linkCount = static_cast<std::size_t>(topology.linkCount());
    problem.linkBandwidth.assign(linkCount, bandwidth);
    problem.hopLatencyS = hopLatencyS;
    problem.dieCount = topology.dieCount();
    problem.network = network;
    problem.linkEnds.reserve(linkCount);
    for (LinkId link = 0; link < topology.linkCount(); ++link)
        problem.linkEnds.emplace_back(topology.link(link).from, topology.link(link).to);
    return problem;
}

void fillLinkTotals(const SimProblem& problem, SimResult& result) {
    const std::size_t linkCount = problem.linkBandwidth.size();
    result.linkBytes.assign(linkCount, 0.0);
    result.linkBusyS.assign(linkCount, 0.0);
    for (const SimTask& task : problem.tasks)
        if (task.kind == SimTask::Kind::Flow)
            for (const LinkId link : task.links)
                result.linkBytes[static_cast<std::size_t>(link)] += task.bytes;
    for (std::size_t l = 0; l < linkCount; ++l)
        if (result.linkBytes[l] > 0.0)
            result.linkBusyS[l] = result.linkBytes[l] / problem.linkBandwidth[l];
}

} // namespace ws
