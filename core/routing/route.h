#pragma once

#include "topology/wafer_topology.h"

#include <utility>
#include <vector>

namespace ws {

// Which way a tree's bytes go: out of its root to the leaves (a multicast), or from the leaves
// into its root, combined where branches meet (a reduction, docs/network-model.md section 4.5).
enum class TreeDirection { FromRoot, ToRoot };

// Where one flow's bytes go. A unicast route is a path of dies; a multicast or reduction route is
// a tree rooted at the flow's root die. `links` lists every link crossed exactly once (for a
// path, in order); `hops` is the hop count of the deepest leaf (the number of latencies paid).
struct Route {
    std::vector<DieId> path; // unicast: src ... dst; empty for a tree
    // A tree's edges (from, to) as the bytes cross them, breadth-first from the root (an edge
    // nearer the root first): for a multicast `from` is the parent, for a reduction `to` is.
    std::vector<std::pair<DieId, DieId>> edges;
    std::vector<LinkId> links;
    int hops = 0;

    bool isTree() const { return path.empty() && !edges.empty(); }
    friend bool operator==(const Route&, const Route&) = default;
};

} // namespace ws
