#include "tcme/route_patcher.h"

#include <algorithm>
#include <utility>

namespace ws {

RoutePatcher::RoutePatcher(const PreparedScenario& prepared, const WaferTopology& topology,
                           const std::set<std::string>& ids)
    : m_prepared(prepared), m_router(topology, RoutingMode::XY) {
    if (ids.empty())
        return;
    const auto& flows = prepared.evaluation.flows;
    for (std::size_t f = 0; f < flows.size(); ++f)
        if (ids.contains(flows[f].id))
            m_flowsById[flows[f].id].push_back(static_cast<int>(f));
}

std::optional<std::vector<RoutePatch>>
RoutePatcher::patches(const std::map<std::string, std::vector<DieId>>& pins) const {
    if (!m_prepared.independentRoutes)
        return std::nullopt;
    const auto& flows = m_prepared.evaluation.flows;
    std::vector<RoutePatch> result;
    for (const auto& [id, path] : pins) {
        const auto found = m_flowsById.find(id);
        if (found == m_flowsById.end() || path.empty())
            return std::nullopt;
        // A pin applies to the training step's flows of that id when there are any (StepGraph
        // takes it), else to the explicit traffic's flow of that id (planTraffic takes it).
        const std::vector<int>& named = found->second;
        const bool stepTakesIt = std::any_of(named.begin(), named.end(), [&](int f) {
            return flows[static_cast<std::size_t>(f)].opIndex < 0;
        });
        for (int f : named) {
            const EvaluatedFlow& flow = flows[static_cast<std::size_t>(f)];
            if ((flow.opIndex < 0) != stepTakesIt)
                continue;
            // Both builders take a path pinned on a unicast flow that runs from its source to
            // its destination over live links without visiting a die twice (routeFromPath
            // checks the last two); they reject anything else, or (multicast) read it as a tree.
            if (flow.multicast || flow.dsts.size() != 1 || path.front() != flow.src ||
                path.back() != flow.dsts.front())
                return std::nullopt;
            auto route = m_router.routeFromPath(path);
            if (!route)
                return std::nullopt;
            result.push_back({f, std::move(*route)});
        }
    }
    std::sort(result.begin(), result.end(),
              [](const RoutePatch& a, const RoutePatch& b) { return a.flow < b.flow; });
    return result;
}

void swapPatchedLinks(PreparedScenario& prepared, std::vector<RoutePatch>& patches) {
    for (RoutePatch& patch : patches) {
        const auto task =
            static_cast<std::size_t>(prepared.flowTasks[static_cast<std::size_t>(patch.flow)]);
        SimTask& simTask = prepared.problem.tasks[task];
        std::swap(simTask.links, patch.route.links);
        std::swap(simTask.hops, patch.route.hops);
    }
}

void applyPatches(PreparedScenario& prepared, std::vector<RoutePatch>&& patches) {
    for (RoutePatch& patch : patches) {
        const auto task =
            static_cast<std::size_t>(prepared.flowTasks[static_cast<std::size_t>(patch.flow)]);
        SimTask& simTask = prepared.problem.tasks[task];
        simTask.links = patch.route.links;
        simTask.hops = patch.route.hops;
        prepared.evaluation.flows[static_cast<std::size_t>(patch.flow)].route =
            std::move(patch.route);
    }
}

} // namespace ws
