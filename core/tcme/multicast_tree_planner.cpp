#include "tcme/multicast_tree_planner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>

namespace ws {

namespace {

std::size_t idx(int i) {
    return static_cast<std::size_t>(i);
}

// Added to every link's cost in the search: among trees of equal load cost the one with fewer
// links (so shallower, fewer latencies) wins. Costs are exp(kappa * (busy - busiest)) * (e^(kappa
// * d) - 1), about 1.7 for a demand's own share on the busiest link: this weighs a hop as much as
// a link some 14 demands below the busiest.
constexpr double kHopCost = 1e-6;

// A change must lower the potential by more than this fraction to count (rounding noise must
// not swap equal trees back and forth).
constexpr double kRelativeGain = 1e-9;

// The cost of a link no tree may use (dead, or without bandwidth).
constexpr double kUnusable = std::numeric_limits<double>::infinity();

// exp() of more than this overflows a double.
constexpr double kMaxExponent = 700.0;

double median(std::vector<double> values) {
    if (values.empty())
        return 0.0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

} // namespace

MulticastTreePlanner::MulticastTreePlanner(const WaferTopology& topology,
                                           std::span<const double> linkBandwidth,
                                           std::span<const double> backgroundBytes)
    : m_topology(topology), m_bandwidth(linkBandwidth.begin(), linkBandwidth.end()),
      m_background(backgroundBytes.begin(), backgroundBytes.end()) {
    m_background.resize(m_bandwidth.size(), 0.0);
}

TreeEdges MulticastTreePlanner::cheapestTree(DieId src, const std::vector<DieId>& dsts,
                                             std::span<const double> linkCost,
                                             TreeDirection direction) const {
    const bool fromRoot = direction == TreeDirection::FromRoot;
    const auto dies = idx(m_topology.vertexCount());
    if (!m_topology.contains(src) || !m_topology.isAlive(src))
        return {};
    std::vector<char> wanted(dies, 0);
    int remaining = 0;
    for (const DieId dst : dsts) {
        if (!m_topology.contains(dst) || !m_topology.isAlive(dst))
            return {};
        if (dst != src && wanted[idx(dst)] == 0) {
            wanted[idx(dst)] = 1;
            ++remaining;
        }
    }
    // A Dijkstra search from every die of the tree at once (distance 0). When it reaches a
    // wanted die, the path to it joins the tree and its dies are pushed again at distance 0:
    // distances only fall, so the search goes on from where it was (label-correcting) rather
    // than starting over for every destination.
    std::vector<double> distance(dies, std::numeric_limits<double>::infinity());
    std::vector<LinkId> via(dies, -1); // the link a die is reached by on its cheapest path
    std::vector<char> inTree(dies, 0);
    using Entry = std::pair<double, DieId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> frontier;
    inTree[idx(src)] = 1;
    distance[idx(src)] = 0.0;
    frontier.emplace(0.0, src);
    TreeEdges tree;
    std::vector<std::pair<DieId, DieId>> path;
    while (remaining > 0) {
        if (frontier.empty())
            return {}; // a destination cannot be reached over live links
        const auto [reachedAt, die] = frontier.top();
        frontier.pop();
        if (reachedAt > distance[idx(die)])
            continue; // stale entry
        if (wanted[idx(die)] != 0 && inTree[idx(die)] == 0) {
            path.clear();
            for (DieId at = die; inTree[idx(at)] == 0;) {
                const LinkProperties& link = m_topology.link(via[idx(at)]);
                path.emplace_back(link.from, link.to);
                inTree[idx(at)] = 1;
                distance[idx(at)] = 0.0;
                frontier.emplace(0.0, at);
                at = fromRoot ? link.from : link.to;
            }
            tree.insert(tree.end(), path.rbegin(), path.rend());
            --remaining;
            continue;
        }
        // A reduction tree grows from its root against the links' direction: through the
        // reverse of each out-link, the link from the neighbour into this die.
        for (const LinkId out : m_topology.outLinks(die)) {
            const LinkProperties& outLink = m_topology.link(out);
            const DieId neighbour = outLink.to;
            std::optional<LinkId> id = out;
            if (!fromRoot)
                id = m_topology.linkBetween(neighbour, die);
            if (!id)
                continue;
            const LinkProperties& link = m_topology.link(*id);
            if (!link.alive || inTree[idx(neighbour)] != 0 || !(linkCost[idx(*id)] < kUnusable))
                continue;
            const double next = reachedAt + linkCost[idx(*id)];
            if (next < distance[idx(neighbour)]) {
                distance[idx(neighbour)] = next;
                via[idx(neighbour)] = *id;
                frontier.emplace(next, neighbour);
            }
        }
    }
    return tree;
}

std::vector<TreeEdges> MulticastTreePlanner::plan(const std::vector<MulticastDemand>& demands,
                                                  int maxRounds,
                                                  const std::function<bool()>& cancel) const {
    const auto linkCount = idx(m_topology.linkCount());
    // Links that can carry a tree: live, with a positive finite bandwidth.
    std::vector<char> usable(linkCount, 0);
    for (std::size_t l = 0; l < linkCount; ++l)
        usable[l] = m_topology.link(static_cast<LinkId>(l)).alive && m_bandwidth[l] > 0 &&
                    m_bandwidth[l] < kUnusable;
    std::vector<TreeEdges> trees;
    std::vector<std::vector<LinkId>> treeLinks;
    std::vector<double> busyS(linkCount, 0.0); // seconds: bytes / bandwidth
    for (std::size_t l = 0; l < linkCount; ++l)
        busyS[l] = usable[l] ? m_background[l] / m_bandwidth[l] : 0.0;
    auto linksOf = [&](const TreeEdges& edges) {
        std::vector<LinkId> links;
        for (const auto& [from, to] : edges)
            links.push_back(*m_topology.linkBetween(from, to));
        return links;
    };
    auto addLoad = [&](const std::vector<LinkId>& links, double bytes, double sign) {
        for (const LinkId l : links)
            busyS[idx(l)] += sign * bytes / m_bandwidth[idx(l)];
    };
    std::vector<double> usableBandwidth;
    for (std::size_t l = 0; l < linkCount; ++l)
        if (usable[l])
            usableBandwidth.push_back(m_bandwidth[l]);
    const double medianBandwidth = median(std::move(usableBandwidth));
    std::vector<double> typicalS;
    for (const MulticastDemand& demand : demands) {
        trees.push_back(demand.tree);
        treeLinks.push_back(linksOf(demand.tree));
        addLoad(treeLinks.back(), demand.bytes, 1.0);
        typicalS.push_back(demand.bytes / medianBandwidth);
    }
    const double typical = median(typicalS);
    if (!(typical > 0.0))
        return trees;
    const double kappa = 1.0 / typical; // per second of busy time

    std::vector<double> cost(linkCount, 0.0);       // what a demand adds to Phi on each link
    std::vector<double> searchCost(linkCount, 0.0); // cost plus the hop tie-break
    auto treeCost = [&](const std::vector<LinkId>& links) {
        double sum = 0.0;
        for (const LinkId l : links)
            sum += cost[idx(l)];
        return sum;
    };
    for (int round = 0; round < maxRounds; ++round) {
        bool changed = false;
        for (std::size_t d = 0; d < demands.size(); ++d) {
            if (cancel && cancel())
                return trees;
            const MulticastDemand& demand = demands[d];
            if (demand.bytes <= 0.0)
                continue;
            addLoad(treeLinks[d], demand.bytes, -1.0);
            // Phi's terms are scaled by exp(-kappa * busiest) so that none overflows; a common
            // factor does not change which tree is cheaper.
            const double busiest = *std::max_element(busyS.begin(), busyS.end());
            for (std::size_t l = 0; l < linkCount; ++l) {
                if (!usable[l]) {
                    cost[l] = searchCost[l] = kUnusable;
                    continue;
                }
                const double addedS = demand.bytes / m_bandwidth[l];
                cost[l] = std::exp(kappa * (busyS[l] - busiest)) *
                          std::expm1(std::min(kMaxExponent, kappa * addedS));
                searchCost[l] = cost[l] + kHopCost;
            }
            TreeEdges candidate =
                cheapestTree(demand.src, demand.dsts, searchCost, demand.direction);
            if (!candidate.empty()) {
                std::vector<LinkId> candidateLinks = linksOf(candidate);
                const double oldCost = treeCost(treeLinks[d]);
                if (treeLinks[d].empty() ||
                    treeCost(candidateLinks) < oldCost * (1.0 - kRelativeGain)) {
                    trees[d] = std::move(candidate);
                    treeLinks[d] = std::move(candidateLinks);
                    changed = true;
                }
            }
            addLoad(treeLinks[d], demand.bytes, 1.0);
        }
        if (!changed)
            break;
    }
    return trees;
}

} // namespace ws
