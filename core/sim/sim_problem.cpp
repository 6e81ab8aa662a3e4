#include "sim/sim_problem.h"

#include <algorithm>
#include <utility>

namespace ws {

SimProblem problemOnLinks(const WaferTopology& topology, double bandwidth, double hopLatencyS,
                          NetworkSettings network, const LinkTierSpeeds& tiers) {
    SimProblem problem;
    const auto linkCount = static_cast<std::size_t>(topology.linkCount());
    problem.linkBandwidth.assign(linkCount, bandwidth);
    problem.hopLatencyS = hopLatencyS;
    problem.dieCount = topology.dieCount();
    problem.vertexCount = topology.vertexCount();
    problem.network = network;
    problem.linkEnds.reserve(linkCount);
    for (LinkId link = 0; link < topology.linkCount(); ++link)
        problem.linkEnds.emplace_back(topology.link(link).from, topology.link(link).to);
    const bool anyOtherTier = std::any_of(
        topology.links().begin(), topology.links().end(), [&](const LinkProperties& link) {
            return tiers.of(link.tier, {bandwidth, hopLatencyS}) !=
                   LinkSpeed{bandwidth, hopLatencyS};
        });
    if (anyOtherTier) {
        problem.linkLatencyS.assign(linkCount, hopLatencyS);
        for (const LinkProperties& link : topology.links()) {
            const LinkSpeed speed = tiers.of(link.tier, {bandwidth, hopLatencyS});
            problem.linkBandwidth[static_cast<std::size_t>(link.id)] = speed.bandwidth;
            problem.linkLatencyS[static_cast<std::size_t>(link.id)] = speed.latencyS;
        }
    }
    return problem;
}

double deepestLatencyS(const SimProblem& problem, const SimTask& flow) {
    // The links form a path or a tree, out of one source or into one root: the deepest latency
    // is the longest path of the link graph. Relax the links in rounds until nothing changes
    // (at most as many rounds as the route is deep); by die: the latest arrival there.
    std::vector<std::pair<DieId, double>> arrival; // (die, seconds), few entries
    const auto at = [&](DieId die) -> double& {
        for (auto& [d, s] : arrival)
            if (d == die)
                return s;
        arrival.emplace_back(die, 0.0);
        return arrival.back().second;
    };
    double deepest = 0.0;
    for (bool changed = true; changed;) {
        changed = false;
        for (const LinkId link : flow.links) {
            const auto [from, to] = problem.linkEnds[static_cast<std::size_t>(link)];
            const double reached = at(from) + linkLatencyOf(problem, link);
            double& head = at(to);
            if (reached > head) {
                head = reached;
                deepest = std::max(deepest, reached);
                changed = true;
            }
        }
    }
    return deepest;
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
