#include "strategy/die_role_swap.h"

#include "scenario/scenario_error.h"
#include "scenario/strategy_spec.h"
#include "strategy/placement.h"

#include <algorithm>
#include <string>

namespace ws {

namespace {

DieId swapped(DieId die, DieId a, DieId b) {
    return die == a ? b : die == b ? a : die;
}

void swapInGroups(std::vector<std::vector<DieId>>& groups, DieId a, DieId b) {
    for (auto& group : groups)
        for (DieId& die : group)
            die = swapped(die, a, b);
}

bool contains(const std::vector<DieId>& dies, DieId die) {
    return std::find(dies.begin(), dies.end(), die) != dies.end();
}

// Swaps the ids in "x-groups" ({"dp": [[...]], ...}); other extension keys are left alone.
void swapInLabels(nlohmann::json& extensions, DieId a, DieId b) {
    const auto labels = extensions.find("x-groups");
    if (labels == extensions.end() || !labels->is_object())
        return;
    for (auto& [kind, groups] : labels->items()) {
        if (!groups.is_array())
            continue;
        for (auto& group : groups)
            if (group.is_array())
                for (auto& die : group)
                    if (die.is_number_integer())
                        die = swapped(die.get<DieId>(), a, b);
    }
}

void dropPinnedRoutesThrough(Scenario& scenario, DieId a, DieId b) {
    if (!scenario.routing)
        return;
    std::erase_if(scenario.routing->paths, [&](const auto& entry) {
        const PinnedRoute& route = entry.second;
        if (contains(route.path, a) || contains(route.path, b))
            return true;
        return std::any_of(route.treeEdges.begin(), route.treeEdges.end(), [&](const auto& edge) {
            return edge.first == a || edge.first == b || edge.second == a || edge.second == b;
        });
    });
}

bool takesPartInTraffic(const Scenario& scenario, DieId die) {
    return std::any_of(scenario.traffic.begin(), scenario.traffic.end(), [&](const TrafficOp& op) {
        return (op.kind == OpKind::P2P && (op.src == die || op.dst == die)) ||
               contains(op.group, die);
    });
}

} // namespace

Scenario swapDieRoles(const Scenario& scenario, const WaferTopology& topology, DieId a, DieId b) {
    for (DieId die : {a, b}) {
        if (!topology.contains(die))
            throw DieSwapRefused("die " + std::to_string(die) + " is not on this " +
                                 std::to_string(topology.rows()) + "x" +
                                 std::to_string(topology.cols()) + " wafer");
        if (!topology.isAlive(die))
            throw DieSwapRefused("die " + std::to_string(die) + " is dead: nothing can run there");
    }
    if (a == b)
        throw DieSwapRefused("die " + std::to_string(a) + " dropped on itself: nothing to change");

    Scenario result = scenario;
    if (scenario.strategy) {
        StrategySpec spec = *scenario.strategy;
        if (spec.sp > 1 || spec.tp > 1)
            throw DieSwapRefused("moving dies writes explicit DP/TATP groups, which need sp = 1 "
                                 "and tp = 1 (this strategy has sp " +
                                 std::to_string(spec.sp) + ", tp " + std::to_string(spec.tp) + ")");
        const Placement placement = placeStrategy(spec, topology);
        if (!placement.rankOf(a) && !placement.rankOf(b))
            throw DieSwapRefused("neither die " + std::to_string(a) + " nor die " +
                                 std::to_string(b) + " is used by the strategy");
        spec.mapping = StrategySpec::Explicit;
        spec.dpGroups = placement.groups(GroupKind::DP);
        spec.tatpGroups = placement.groups(GroupKind::TATP);
        swapInGroups(spec.dpGroups, a, b);
        swapInGroups(spec.tatpGroups, a, b);
        placeStrategy(spec, topology); // still a valid placement
        result.strategy = std::move(spec);
    } else {
        if (!takesPartInTraffic(scenario, a) && !takesPartInTraffic(scenario, b))
            throw DieSwapRefused("neither die " + std::to_string(a) + " nor die " +
                                 std::to_string(b) + " sends or receives any traffic");
        for (TrafficOp& op : result.traffic) {
            if (op.kind == OpKind::P2P) {
                op.src = swapped(op.src, a, b);
                op.dst = swapped(op.dst, a, b);
            }
            for (DieId& die : op.group)
                die = swapped(die, a, b);
            if (op.root)
                op.root = swapped(*op.root, a, b);
        }
    }
    swapInLabels(result.extensions, a, b);
    dropPinnedRoutesThrough(result, a, b);
    return result;
}

} // namespace ws
