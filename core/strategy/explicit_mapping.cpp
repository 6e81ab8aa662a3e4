#include "strategy/explicit_mapping.h"

#include "scenario/scenario_error.h"

#include <map>
#include <string>

namespace ws {
namespace {

using Groups = std::vector<std::vector<DieId>>;

std::string groupPath(const std::string& kind, std::size_t group) {
    return "strategy.groups." + kind + "[" + std::to_string(group) + "]";
}

std::string diePath(const std::string& kind, std::size_t group, std::size_t index) {
    return groupPath(kind, group) + "[" + std::to_string(index) + "]";
}

std::string upper(const std::string& kind) {
    return kind == "dp" ? "DP" : "TATP";
}

// Shape, range, liveness and uniqueness of one kind of group. Returns die -> (group, index).
std::map<DieId, std::pair<std::size_t, std::size_t>>
checkGroups(const Groups& groups, const std::string& kind, std::size_t expectedGroups,
            std::size_t expectedSize, const char* degreeName, const WaferTopology& topology) {
    if (groups.size() != expectedGroups)
        throw ScenarioError("strategy.groups." + kind,
                            "expected " + std::to_string(expectedGroups) + " " + upper(kind) +
                                " groups (one per " +
                                (kind == "dp" ? "TATP path position" : "DP replica") + "), got " +
                                std::to_string(groups.size()));
    std::map<DieId, std::pair<std::size_t, std::size_t>> where;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].size() != expectedSize)
            throw ScenarioError(groupPath(kind, g), "expected " + std::to_string(expectedSize) +
                                                        " dies (" + degreeName + " = " +
                                                        std::to_string(expectedSize) + "), got " +
                                                        std::to_string(groups[g].size()));
        for (std::size_t i = 0; i < groups[g].size(); ++i) {
            const DieId die = groups[g][i];
            if (!topology.contains(die))
                throw ScenarioError(diePath(kind, g, i),
                                    "die " + std::to_string(die) + " is not on the " +
                                        std::to_string(topology.rows()) + "x" +
                                        std::to_string(topology.cols()) + " wafer (dies 0 to " +
                                        std::to_string(topology.dieCount() - 1) + ")");
            if (!topology.isAlive(die))
                throw ScenarioError(diePath(kind, g, i), "die " + std::to_string(die) + " is dead");
            const auto [it, inserted] = where.emplace(die, std::make_pair(g, i));
            if (!inserted)
                throw ScenarioError(diePath(kind, g, i),
                                    "die " + std::to_string(die) + " is already in " +
                                        groupPath(kind, it->second.first) +
                                        "; groups of one kind must not overlap");
        }
    }
    return where;
}

bool linkAlive(const WaferTopology& topology, DieId from, DieId to) {
    const auto link = topology.linkBetween(from, to);
    return link && topology.link(*link).alive;
}

// The groups of the kind whose degree is 1, which the user may omit: singletons following the
// other kind's order.
Groups singletons(const Groups& other) {
    Groups out;
    for (const auto& group : other)
        for (const DieId die : group)
            out.push_back({die});
    return out;
}

} // namespace

Placement ExplicitMapping::place(const StrategySpec& strategy,
                                 const WaferTopology& topology) const {
    if (strategy.sp != 1 || strategy.tp != 1)
        throw ScenarioError("strategy.groups",
                            "explicit groups support DP x TATP only and need sp = 1 and tp = 1 "
                            "(got sp = " +
                                std::to_string(strategy.sp) +
                                ", tp = " + std::to_string(strategy.tp) +
                                "); use mapping \"snake\" or "
                                "\"sequential\" for SP and TP");
    const auto dp = static_cast<std::size_t>(strategy.dp);
    const auto tatp = static_cast<std::size_t>(strategy.tatp);
    Groups dpGroups = strategy.dpGroups;
    Groups tatpGroups = strategy.tatpGroups;
    if (tatpGroups.empty() && tatp == 1)
        tatpGroups = singletons(dpGroups); // dp group order = replica order
    if (dpGroups.empty() && dp == 1)
        dpGroups = singletons(tatpGroups);
    if (tatpGroups.empty())
        throw ScenarioError("strategy.groups.tatp",
                            "missing: with tatp = " + std::to_string(tatp) +
                                " the TATP groups (one path per replica) must be given");
    if (dpGroups.empty())
        throw ScenarioError("strategy.groups.dp", "missing: with dp = " + std::to_string(dp) +
                                                      " the DP groups must be given");

    const auto inTatp = checkGroups(tatpGroups, "tatp", dp, tatp, "tatp", topology);
    const auto inDp = checkGroups(dpGroups, "dp", tatp, dp, "dp", topology);

    // Same dies in both kinds (sizes match, so a die missing on one side has a partner
    // missing on the other: report the first TATP die no DP group has).
    for (const auto& [die, at] : inTatp)
        if (!inDp.contains(die))
            throw ScenarioError(diePath("tatp", at.first, at.second),
                                "die " + std::to_string(die) +
                                    " is in a TATP group but in no DP group; every die of a "
                                    "TATP group must be in exactly one DP group");

    for (std::size_t j = 0; j < dpGroups.size(); ++j) {
        std::vector<int> meets(dp, 0);
        for (const DieId die : dpGroups[j])
            ++meets[inTatp.at(die).first];
        for (std::size_t g = 0; g < dp; ++g)
            if (meets[g] != 1)
                throw ScenarioError(groupPath("dp", j),
                                    "meets " + groupPath("tatp", g) + " in " +
                                        std::to_string(meets[g]) +
                                        " dies; a DP group takes exactly one die from each "
                                        "TATP group");
        const std::size_t position = inTatp.at(dpGroups[j].front()).second;
        for (std::size_t i = 1; i < dpGroups[j].size(); ++i) {
            const auto [g, a] = inTatp.at(dpGroups[j][i]);
            if (a != position)
                throw ScenarioError(diePath("dp", j, i),
                                    "die " + std::to_string(dpGroups[j][i]) +
                                        " is at path position " + std::to_string(a) + " of " +
                                        groupPath("tatp", g) + ", but die " +
                                        std::to_string(dpGroups[j].front()) + " is at position " +
                                        std::to_string(position) +
                                        "; a DP group joins the dies holding the same "
                                        "sub-weight, i.e. the same path position");
        }
    }

    std::vector<DieId> dies;
    std::vector<std::string> notes;
    for (std::size_t d = 0; d < tatpGroups.size(); ++d) {
        for (std::size_t a = 0; a < tatpGroups[d].size(); ++a) {
            dies.push_back(tatpGroups[d][a]);
            if (a == 0)
                continue;
            const DieId from = tatpGroups[d][a - 1];
            const DieId to = tatpGroups[d][a];
            const int hops = topology.manhattanDistance(from, to);
            if (hops != 1)
                notes.push_back(groupPath("tatp", d) + ": dies " + std::to_string(from) + " and " +
                                std::to_string(to) + " are " + std::to_string(hops) +
                                " hops apart; the TATP stream relays over a multi-hop route "
                                "there (a snake path keeps every step one hop)");
            else if (!linkAlive(topology, from, to) || !linkAlive(topology, to, from))
                notes.push_back(groupPath("tatp", d) + ": the link between dies " +
                                std::to_string(from) + " and " + std::to_string(to) +
                                " is dead (in at least one direction); the TATP stream detours "
                                "around it");
        }
    }
    return Placement(strategy.dp, 1, 1, strategy.tatp, std::move(dies), std::move(notes));
}

} // namespace ws
