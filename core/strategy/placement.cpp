#include "strategy/placement.h"

#include "scenario/scenario_error.h"
#include "strategy/mapping_policy.h"

#include <cstdint>
#include <stdexcept>
#include <unordered_set>

namespace ws {

Placement::Placement(int dp, int sp, int tp, int tatp, std::vector<DieId> dies,
                     std::vector<std::string> notes)
    : m_dp(dp), m_sp(sp), m_tp(tp), m_tatp(tatp), m_dies(std::move(dies)),
      m_notes(std::move(notes)) {
    if (dp < 1 || sp < 1 || tp < 1 || tatp < 1)
        throw std::invalid_argument("Placement: degrees must be positive");
    if (std::int64_t{dp} * sp * tp * tatp != static_cast<std::int64_t>(m_dies.size()))
        throw std::invalid_argument("Placement: expected dp*sp*tp*tatp dies");
    std::unordered_set<DieId> seen;
    for (const DieId die : m_dies)
        if (die < 0 || !seen.insert(die).second)
            throw std::invalid_argument("Placement: die " + std::to_string(die) +
                                        " is negative or used twice");
}

int Placement::rankIndex(int d, int s, int t, int a) const {
    if (d < 0 || d >= m_dp || s < 0 || s >= m_sp || t < 0 || t >= m_tp || a < 0 || a >= m_tatp)
        throw std::out_of_range("Placement: rank (" + std::to_string(d) + ", " + std::to_string(s) +
                                ", " + std::to_string(t) + ", " + std::to_string(a) +
                                ") out of range");
    return ((d * m_sp + s) * m_tp + t) * m_tatp + a;
}

Rank Placement::rank(int index) const {
    if (index < 0 || index >= rankCount())
        throw std::out_of_range("Placement: rank index out of range");
    Rank r;
    r.a = index % m_tatp;
    index /= m_tatp;
    r.t = index % m_tp;
    index /= m_tp;
    r.s = index % m_sp;
    r.d = index / m_sp;
    return r;
}

DieId Placement::die(int d, int s, int t, int a) const {
    return m_dies[static_cast<std::size_t>(rankIndex(d, s, t, a))];
}

std::optional<Rank> Placement::rankOf(DieId die) const {
    for (std::size_t i = 0; i < m_dies.size(); ++i)
        if (m_dies[i] == die)
            return rank(static_cast<int>(i));
    return std::nullopt;
}

std::vector<DieId> Placement::tatpGroup(int d, int s, int t) const {
    std::vector<DieId> group;
    for (int a = 0; a < m_tatp; ++a)
        group.push_back(die(d, s, t, a));
    return group;
}

std::vector<DieId> Placement::dpGroup(int s, int t, int a) const {
    std::vector<DieId> group;
    for (int d = 0; d < m_dp; ++d)
        group.push_back(die(d, s, t, a));
    return group;
}

std::vector<DieId> Placement::tpGroup(int d, int s, int a) const {
    std::vector<DieId> group;
    for (int t = 0; t < m_tp; ++t)
        group.push_back(die(d, s, t, a));
    return group;
}

std::vector<DieId> Placement::spGroup(int d, int t, int a) const {
    std::vector<DieId> group;
    for (int s = 0; s < m_sp; ++s)
        group.push_back(die(d, s, t, a));
    return group;
}

std::vector<std::vector<DieId>> Placement::groups(GroupKind kind) const {
    std::vector<std::vector<DieId>> out;
    switch (kind) {
    case GroupKind::TATP:
        for (int d = 0; d < m_dp; ++d)
            for (int s = 0; s < m_sp; ++s)
                for (int t = 0; t < m_tp; ++t)
                    out.push_back(tatpGroup(d, s, t));
        break;
    case GroupKind::DP:
        for (int s = 0; s < m_sp; ++s)
            for (int t = 0; t < m_tp; ++t)
                for (int a = 0; a < m_tatp; ++a)
                    out.push_back(dpGroup(s, t, a));
        break;
    case GroupKind::TP:
        for (int d = 0; d < m_dp; ++d)
            for (int s = 0; s < m_sp; ++s)
                for (int a = 0; a < m_tatp; ++a)
                    out.push_back(tpGroup(d, s, a));
        break;
    case GroupKind::SP:
        for (int d = 0; d < m_dp; ++d)
            for (int t = 0; t < m_tp; ++t)
                for (int a = 0; a < m_tatp; ++a)
                    out.push_back(spGroup(d, t, a));
        break;
    case GroupKind::Replica:
        for (int t = 0; t < m_tp; ++t)
            for (int a = 0; a < m_tatp; ++a) {
                std::vector<DieId> group;
                for (int d = 0; d < m_dp; ++d)
                    for (int s = 0; s < m_sp; ++s)
                        group.push_back(die(d, s, t, a));
                out.push_back(std::move(group));
            }
        break;
    }
    return out;
}

const char* toString(GroupKind kind) {
    switch (kind) {
    case GroupKind::DP:
        return "dp";
    case GroupKind::SP:
        return "sp";
    case GroupKind::TP:
        return "tp";
    case GroupKind::TATP:
        return "tatp";
    case GroupKind::Replica:
        return "replica";
    }
    return "dp";
}

Placement placeStrategy(const StrategySpec& strategy, const WaferTopology& topology) {
    const std::pair<const char*, int> degrees[] = {
        {"dp", strategy.dp}, {"sp", strategy.sp}, {"tp", strategy.tp}, {"tatp", strategy.tatp}};
    for (const auto& [key, degree] : degrees)
        if (degree < 1)
            throw ScenarioError(std::string("strategy.") + key,
                                "must be a positive integer, got " + std::to_string(degree));
    if (strategy.microBatches < 1)
        throw ScenarioError("strategy.micro_batches", "must be a positive integer, got " +
                                                          std::to_string(strategy.microBatches));
    // In 64 bits: a hand-built spec may hold degrees whose product overflows an int.
    const std::int64_t wanted =
        std::int64_t{strategy.dp} * strategy.sp * strategy.tp * strategy.tatp;
    int live = 0;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        live += topology.isAlive(die) ? 1 : 0;
    if (wanted > live) {
        const int dead = topology.dieCount() - live;
        throw ScenarioError("strategy",
                            "dp*sp*tp*tatp = " + std::to_string(wanted) +
                                " dies, but the wafer has " + std::to_string(live) + " live dies" +
                                (dead > 0 ? " (" + std::to_string(dead) + " of " +
                                                std::to_string(topology.dieCount()) + " are dead)"
                                          : ""));
    }
    return makeMappingPolicy(strategy.mapping)->place(strategy, topology);
}

} // namespace ws
