#pragma once

#include "routing/route.h"
#include "routing/router.h"
#include "tcme/scenario_evaluation.h"
#include "topology/wafer_topology.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ws {

// One flow's new route: the route a rebuild of the scenario with the flow's id pinned gives it.
struct RoutePatch {
    int flow = -1; // index into PreparedScenario::evaluation.flows
    Route route;
};

// TCME's fast path for candidates that only pin unicast paths in routing.paths. When a prepared
// scenario's routes are independent (PreparedScenario::independentRoutes), rebuilding it with
// more pins gives the same problem with only the pinned flows' links and hops changed, so the
// candidate can be simulated by patching those instead of rebuilding the training step.
//
// The patcher derives the routes exactly as StepGraph and planTraffic do for a pinned path, and
// declines (nullopt) whenever it cannot be sure a rebuild would take the pin that way: a pin
// that a rebuild would reject, a multicast flow, an id it has not indexed. The caller then
// rebuilds, so declining is always safe; accepting means the patched problem and flows are
// exactly what prepareScenario gives for the edited scenario.
class RoutePatcher {
public:
    // Indexes the flows named by `ids` (those the candidates may pin). `prepared` must outlive
    // the patcher and its flows must not change meanwhile.
    RoutePatcher(const PreparedScenario& prepared, const WaferTopology& topology,
                 const std::set<std::string>& ids);

    // The patches that adding `pins` (flow id -> path of dies, source first) to the prepared
    // scenario's routing.paths makes, in flow order; nullopt when a rebuild is needed.
    std::optional<std::vector<RoutePatch>>
    patches(const std::map<std::string, std::vector<DieId>>& pins) const;

private:
    const PreparedScenario& m_prepared;
    Router m_router; // only for routeFromPath, which ignores the routing mode and loads
    std::unordered_map<std::string, std::vector<int>> m_flowsById; // flow indices, in order
};

// Swaps each patched flow's task links and hops with the patch's route's: after one call the
// problem simulates the patched scenario, after a second it is back as it was.
void swapPatchedLinks(PreparedScenario& prepared, std::vector<RoutePatch>& patches);

// Makes the patches permanent: the tasks' links and hops and the flows' routes (the timings and
// link figures are stale until completeEvaluation).
void applyPatches(PreparedScenario& prepared, std::vector<RoutePatch>&& patches);

} // namespace ws
