#pragma once

#include "topology/wafer_topology.h"

#include <utility>
#include <vector>

namespace ws {

// Where one flow's bytes go. A unicast route is a path of dies; a multicast route is a tree
// rooted at the source. `links` lists every link crossed exactly once (for a path, in order);
// `hops` is the hop count of the deepest destination (the number of latencies paid).
struct Route {
    std::vector<DieId> path;                    // unicast: src ... dst; empty for a tree
    std::vector<std::pair<DieId, DieId>> edges; // multicast: tree edges (from, to), BFS order
    std::vector<LinkId> links;
    int hops = 0;

    bool isTree() const { return path.empty() && !edges.empty(); }
    friend bool operator==(const Route&, const Route&) = default;
};

} // namespace ws
