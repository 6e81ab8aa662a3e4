#pragma once

#include "routing/route.h"
#include "topology/wafer_topology.h"

#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace ws {

// (from, to) as bytes cross them, an edge nearer the root first (Route::edges).
using TreeEdges = std::vector<std::pair<DieId, DieId>>;

// One tree to shape: a multicast of `bytes` from `src` to every die of `dsts`, now along `tree`
// (edges reaching every destination from src over live links); or, for TreeDirection::ToRoot, a
// reduction of `bytes` from every die of `dsts` into `src` (edges pointing toward src).
struct MulticastDemand {
    DieId src = 0;
    std::vector<DieId> dsts;
    double bytes = 0.0;
    TreeEdges tree;
    TreeDirection direction = TreeDirection::FromRoot;
};

// TCME 2's load-aware multicast and reduction trees (docs/tcme.md, "Load-balanced trees").
// Shapes a set of trees, each a Steiner tree of live links, so that the busiest link's busy time
// (bytes / bandwidth, seconds; the background bytes of all other traffic included) is as low as
// it can make it, with the even spread of load as the tie-break.
//
// Method: negotiated rip-up and re-route. The load of the links is scored by the convex potential
// Phi = sum over links of exp(kappa * busy_s), with kappa one per busy time of a typical demand
// (so one more tree on a link costs about e times what it costs on a link one tree less busy).
// In each round every demand in turn is taken off the links and re-built as the cheapest tree it
// finds against the others' load, where a link costs what it adds to Phi (plus a hair per hop,
// so that among equally cheap trees the shallower wins); the new tree replaces the old one only
// if it lowers Phi. Phi falls with every accepted change, so the rounds end; they stop when one
// changes nothing or after `maxRounds`. The tree of one demand is grown from its source by the
// shortest-path heuristic (Takahashi and Matsuyama): repeatedly add the cheapest path from the
// tree to the nearest destination not yet in it, by a Dijkstra search that continues from the
// grown tree instead of starting again. Cost per round: about one Dijkstra over the wafer per
// demand, O(D * L log L) for D demands on L links.
//
// Example: an all-gather over the 64 dies of an 8x8 mesh as 64 spanning trees, each carrying
// one shard: XY trees put 56 shards on the busiest link; the planner brings that to 32 (the
// lower bound is 31.5: a corner die receives 63 shards over two links).
class MulticastTreePlanner {
public:
    // `linkBandwidth` (bytes/s) and `backgroundBytes` (bytes) are indexed by LinkId and copied.
    MulticastTreePlanner(const WaferTopology& topology, std::span<const double> linkBandwidth,
                         std::span<const double> backgroundBytes);

    // The demands' new trees, in their order (a demand keeps its tree when no other is better).
    // `cancel`, when set, is asked between demands; a cancelled plan returns the trees so far.
    std::vector<TreeEdges> plan(const std::vector<MulticastDemand>& demands, int maxRounds = 64,
                                const std::function<bool()>& cancel = {}) const;

    // The cheapest tree from src reaching every die of dsts over live links when link l costs
    // linkCost[l] (>= 0; a link already in the tree costs nothing more), or an empty tree when a
    // destination cannot be reached. With TreeDirection::ToRoot, the cheapest tree into src from
    // every die of dsts. Exposed for tests.
    TreeEdges cheapestTree(DieId src, const std::vector<DieId>& dsts,
                           std::span<const double> linkCost,
                           TreeDirection direction = TreeDirection::FromRoot) const;

private:
    const WaferTopology& m_topology;
    std::vector<double> m_bandwidth;  // bytes/s, by LinkId
    std::vector<double> m_background; // bytes, by LinkId (0 past the caller's span)
};

} // namespace ws
