#pragma once

#include "routing/route.h"
#include "routing/router.h"
#include "scenario/scenario.h"
#include "sim/sim_problem.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// One flow of an expanded traffic op, before or after routing.
// Ids follow docs/cli.md: a p2p op's single flow has the op's id; a collective's flows are
// "<op id>/s<step>/r<rank>", rank being the index of the sender in the op's group. For `direct`
// algorithms, step k of rank i is rank i's chunk for rank (i + k + 1) mod P (all start at once).
// A reduction flow (algorithm "tree", docs/network-model.md section 4.5) runs the other way: every
// die of `dsts` sends `bytes`, combined where the tree's branches meet, into `src`, the root;
// its rank is the root's.
struct Flow {
    std::string id;
    int opIndex = 0; // index into Scenario::traffic
    int step = 0;
    int rank = 0;
    DieId src = 0;
    std::vector<DieId> dsts; // one die for unicast; several for a multicast tree
    double bytes = 0.0;
    bool multicast = false; // routed along a tree: out of src, or into it when `reduction`
    bool reduction = false; // a reduction tree into src, from every die of dsts
    // Indices (in the expansion) of flows that must be delivered first. Consumed when the flow
    // becomes a task: empty in a TrafficPlan or a StepGraph, whose tasks' deps hold them.
    std::vector<int> flowDeps;
    Route route;      // filled in by routing
    TaskId task = -1; // the flow's task in the SimProblem

    TreeDirection treeDirection() const {
        return reduction ? TreeDirection::ToRoot : TreeDirection::FromRoot;
    }
};

// The op (or training-step collective) a flow belongs to: "<id>" of "<id>/s<step>/r<rank>",
// of a split part "<id>/p<part>" or "<id>/s<step>/r<rank>/p<part>", and of "<id>" itself.
inline std::string opOfFlow(const std::string& flowId) {
    const auto slash = std::min(flowId.find("/s"), flowId.find("/p"));
    return slash == std::string::npos ? flowId : flowId.substr(0, slash);
}

// The routing policy's route for `flow`: a path, a multicast tree or a reduction tree; nullopt
// when some die of it cannot be reached over live dies and links.
inline std::optional<Route> policyRoute(const Router& router, const Flow& flow) {
    if (flow.reduction)
        return router.reduction(flow.src, flow.dsts);
    if (flow.multicast)
        return router.multicast(flow.src, flow.dsts);
    return router.unicast(flow.src, flow.dsts.front());
}

} // namespace ws
