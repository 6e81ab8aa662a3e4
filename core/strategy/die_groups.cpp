#include "strategy/die_groups.h"

#include "scenario/scenario_error.h"
#include "scenario/strategy_spec.h"
#include "strategy/placement.h"

namespace ws {

namespace {

std::vector<std::vector<DieId>> labelGroups(const nlohmann::json& labels, const char* kind,
                                            const WaferTopology& topology) {
    std::vector<std::vector<DieId>> groups;
    const auto found = labels.find(kind);
    if (found == labels.end())
        return groups;
    const std::string path = std::string("x-groups.") + kind;
    if (!found->is_array())
        throw ScenarioError(path, "expected an array of groups (arrays of die ids)");
    for (std::size_t g = 0; g < found->size(); ++g) {
        const nlohmann::json& group = (*found)[g];
        const std::string groupPath = path + "[" + std::to_string(g) + "]";
        if (!group.is_array())
            throw ScenarioError(groupPath, "expected an array of die ids");
        std::vector<DieId> dies;
        for (const nlohmann::json& die : group) {
            if (!die.is_number_integer() || !topology.contains(die.get<DieId>()))
                throw ScenarioError(groupPath, "expected die ids from 0 to " +
                                                   std::to_string(topology.dieCount() - 1));
            dies.push_back(die.get<DieId>());
        }
        groups.push_back(std::move(dies));
    }
    return groups;
}

std::vector<std::vector<DieId>> withoutSingletons(std::vector<std::vector<DieId>> groups) {
    std::erase_if(groups, [](const std::vector<DieId>& group) { return group.size() < 2; });
    return groups;
}

std::vector<int> groupOfDie(const std::vector<std::vector<DieId>>& groups, int dieCount) {
    std::vector<int> of(static_cast<std::size_t>(dieCount), -1);
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (DieId die : groups[g])
            of[static_cast<std::size_t>(die)] = static_cast<int>(g);
    return of;
}

} // namespace

DieGroups dieGroups(const Scenario& scenario, const WaferTopology& topology) {
    DieGroups result;
    if (scenario.strategy) {
        const Placement placement = placeStrategy(*scenario.strategy, topology);
        result.source = DieGroups::Source::Strategy;
        result.dp = withoutSingletons(placement.groups(GroupKind::DP));
        result.tatp = withoutSingletons(placement.groups(GroupKind::TATP));
        result.tp = withoutSingletons(placement.groups(GroupKind::TP));
    } else if (const auto labels = scenario.extensions.find("x-groups");
               labels != scenario.extensions.end()) {
        if (!labels->is_object())
            throw ScenarioError("x-groups",
                                "expected an object {\"dp\": [[...]], \"tatp\": [[...]]}");
        result.source = DieGroups::Source::Labels;
        result.dp = withoutSingletons(labelGroups(*labels, "dp", topology));
        result.tatp = withoutSingletons(labelGroups(*labels, "tatp", topology));
    }
    result.dpOfDie = groupOfDie(result.dp, topology.dieCount());
    result.tatpOfDie = groupOfDie(result.tatp, topology.dieCount());
    result.tpOfDie = groupOfDie(result.tp, topology.dieCount());
    return result;
}

} // namespace ws
