#include "strategy/placement.h"

#include "scenario/scenario_error.h"
#include "strategy/mapping_policy.h"
#include "strategy/pipeline_stages.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <unordered_set>

namespace ws {

Placement::Placement(int dp, int sp, int tp, int tatp, std::vector<DieId> dies,
                     std::vector<std::string> notes)
    : m_dp(dp), m_sp(sp), m_tp(tp), m_tatp(tatp), m_dies(std::move(dies)),
      m_notes(std::move(notes)) {
    checkDies();
}

void Placement::checkDies() const {
    if (m_pp < 1 || m_dp < 1 || m_sp < 1 || m_tp < 1 || m_tatp < 1)
        throw std::invalid_argument("Placement: degrees must be positive");
    if (std::int64_t{m_pp} * m_dp * m_sp * m_tp * m_tatp !=
        static_cast<std::int64_t>(m_dies.size()))
        throw std::invalid_argument("Placement: expected pp*dp*sp*tp*tatp dies");
    std::unordered_set<DieId> seen;
    for (const DieId die : m_dies)
        if (die < 0 || !seen.insert(die).second)
            throw std::invalid_argument("Placement: die " + std::to_string(die) +
                                        " is negative or used twice");
}

Placement Placement::ofStages(const std::vector<Placement>& stages,
                              std::vector<std::string> notes) {
    if (stages.empty())
        throw std::invalid_argument("Placement::ofStages: no stage");
    const Placement& first = stages.front();
    std::vector<DieId> dies;
    for (const Placement& stage : stages) {
        if (stage.m_pp != 1 || stage.m_dp != first.m_dp || stage.m_sp != first.m_sp ||
            stage.m_tp != first.m_tp || stage.m_tatp != first.m_tatp)
            throw std::invalid_argument("Placement::ofStages: stages of different degrees");
        dies.insert(dies.end(), stage.m_dies.begin(), stage.m_dies.end());
    }
    Placement placement = first;
    placement.m_pp = static_cast<int>(stages.size());
    placement.m_dies = std::move(dies);
    placement.m_notes = std::move(notes);
    placement.checkDies();
    return placement;
}

int Placement::rankIndex(int d, int s, int t, int a, int p) const {
    if (d < 0 || d >= m_dp || s < 0 || s >= m_sp || t < 0 || t >= m_tp || a < 0 || a >= m_tatp ||
        p < 0 || p >= m_pp)
        throw std::out_of_range("Placement: rank (" + std::to_string(d) + ", " + std::to_string(s) +
                                ", " + std::to_string(t) + ", " + std::to_string(a) + ", stage " +
                                std::to_string(p) + ") out of range");
    return (((p * m_dp + d) * m_sp + s) * m_tp + t) * m_tatp + a;
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
    index /= m_sp;
    r.d = index % m_dp;
    r.p = index / m_dp;
    return r;
}

DieId Placement::die(int d, int s, int t, int a, int p) const {
    return m_dies[static_cast<std::size_t>(rankIndex(d, s, t, a, p))];
}

std::optional<Rank> Placement::rankOf(DieId die) const {
    for (std::size_t i = 0; i < m_dies.size(); ++i)
        if (m_dies[i] == die)
            return rank(static_cast<int>(i));
    return std::nullopt;
}

std::vector<DieId> Placement::tatpGroup(int d, int s, int t, int p) const {
    std::vector<DieId> group;
    for (int a = 0; a < m_tatp; ++a)
        group.push_back(die(d, s, t, a, p));
    return group;
}

std::vector<DieId> Placement::dpGroup(int s, int t, int a, int p) const {
    std::vector<DieId> group;
    for (int d = 0; d < m_dp; ++d)
        group.push_back(die(d, s, t, a, p));
    return group;
}

std::vector<DieId> Placement::tpGroup(int d, int s, int a, int p) const {
    std::vector<DieId> group;
    for (int t = 0; t < m_tp; ++t)
        group.push_back(die(d, s, t, a, p));
    return group;
}

std::vector<DieId> Placement::spGroup(int d, int t, int a, int p) const {
    std::vector<DieId> group;
    for (int s = 0; s < m_sp; ++s)
        group.push_back(die(d, s, t, a, p));
    return group;
}

std::vector<DieId> Placement::stageDies(int p) const {
    const auto perStage = static_cast<std::ptrdiff_t>(stageRankCount());
    const auto first = m_dies.begin() + p * perStage;
    return {first, first + perStage};
}

std::vector<std::vector<DieId>> Placement::groups(GroupKind kind) const {
    std::vector<std::vector<DieId>> out;
    if (kind == GroupKind::Stage) {
        for (int index = 0; index < stageRankCount(); ++index) {
            std::vector<DieId> group;
            for (int p = 0; p < m_pp; ++p)
                group.push_back(m_dies[static_cast<std::size_t>(p * stageRankCount() + index)]);
            out.push_back(std::move(group));
        }
        return out;
    }
    for (int p = 0; p < m_pp; ++p) {
        switch (kind) {
        case GroupKind::TATP:
            for (int d = 0; d < m_dp; ++d)
                for (int s = 0; s < m_sp; ++s)
                    for (int t = 0; t < m_tp; ++t)
                        out.push_back(tatpGroup(d, s, t, p));
            break;
        case GroupKind::DP:
            for (int s = 0; s < m_sp; ++s)
                for (int t = 0; t < m_tp; ++t)
                    for (int a = 0; a < m_tatp; ++a)
                        out.push_back(dpGroup(s, t, a, p));
            break;
        case GroupKind::TP:
            for (int d = 0; d < m_dp; ++d)
                for (int s = 0; s < m_sp; ++s)
                    for (int a = 0; a < m_tatp; ++a)
                        out.push_back(tpGroup(d, s, a, p));
            break;
        case GroupKind::SP:
            for (int d = 0; d < m_dp; ++d)
                for (int t = 0; t < m_tp; ++t)
                    for (int a = 0; a < m_tatp; ++a)
                        out.push_back(spGroup(d, t, a, p));
            break;
        case GroupKind::Replica:
            for (int t = 0; t < m_tp; ++t)
                for (int a = 0; a < m_tatp; ++a) {
                    std::vector<DieId> group;
                    for (int d = 0; d < m_dp; ++d)
                        for (int s = 0; s < m_sp; ++s)
                            group.push_back(die(d, s, t, a, p));
                    out.push_back(std::move(group));
                }
            break;
        case GroupKind::Stage:
            break; // above
        }
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
    case GroupKind::Stage:
        return "stage";
    }
    return "dp";
}

namespace {

// Each stage placed by the strategy's policy in its own region (strategy/pipeline_stages.h).
Placement placeStages(const StrategySpec& strategy, const WaferTopology& topology) {
    if (strategy.mapping == StrategySpec::Explicit)
        throw ScenarioError("strategy.pp", "pipeline stages are placed by the \"sequential\" or "
                                           "\"snake\" mapping; explicit `groups` place one stage");
    StrategySpec stage = strategy;
    stage.pp = 1;
    const std::vector<StageRegion> regions = pipelineStageRegions(topology, strategy.pp);
    std::vector<Placement> stages;
    std::vector<std::vector<std::string>> stageNotes;
    for (std::size_t k = 0; k < regions.size(); ++k) {
        const StageRegion& region = regions[k];
        const WaferTopology local = regionTopology(topology, region);
        Placement placed;
        try {
            placed = placeStrategy(stage, local);
        } catch (const ScenarioError& error) {
            throw ScenarioError(
                error.keyPath(),
                "pipeline stage " + std::to_string(k) + " (dies " + std::to_string(region.rows) +
                    "x" + std::to_string(region.cols) + " from row " + std::to_string(region.row) +
                    ", column " + std::to_string(region.col) + "): " + error.problem());
        }
        std::vector<DieId> dies;
        for (DieId die : placed.usedDies())
            dies.push_back(gridDieOf(topology, region, die));
        stageNotes.push_back(placed.notes());
        stages.emplace_back(stage.dp, stage.sp, stage.tp, stage.tatp, std::move(dies));
    }
    // One note for what every stage says alike, else each stage's own.
    const bool alike = std::all_of(stageNotes.begin(), stageNotes.end(),
                                   [&](const auto& notes) { return notes == stageNotes.front(); });
    std::vector<std::string> notes;
    for (std::size_t k = 0; k < stageNotes.size() && !(alike && k > 0); ++k)
        for (const std::string& note : stageNotes[k])
            notes.push_back((alike ? std::string("every stage") : "stage " + std::to_string(k)) +
                            ": " + note);
    return Placement::ofStages(stages, std::move(notes));
}

} // namespace

Placement placeStrategy(const StrategySpec& strategy, const WaferTopology& topology) {
    const std::pair<const char*, int> degrees[] = {{"pp", strategy.pp},
                                                   {"dp", strategy.dp},
                                                   {"sp", strategy.sp},
                                                   {"tp", strategy.tp},
                                                   {"tatp", strategy.tatp}};
    for (const auto& [key, degree] : degrees)
        if (degree < 1)
            throw ScenarioError(std::string("strategy.") + key,
                                "must be a positive integer, got " + std::to_string(degree));
    if (strategy.microBatches < 1)
        throw ScenarioError("strategy.micro_batches", "must be a positive integer, got " +
                                                          std::to_string(strategy.microBatches));
    if (strategy.pp > 1)
        return placeStages(strategy, topology);
    // In 64 bits: a hand-built spec may hold degrees whose product overflows an int.
    const std::int64_t wanted =
        std::int64_t{strategy.dp} * strategy.sp * strategy.tp * strategy.tatp;
    int live = 0;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        live += topology.isAlive(die) ? 1 : 0;
    if (wanted > live) {
        const int dead = topology.dieCount() - live;
        // The hardware's own words: a cluster's dies are its GPUs.
        const std::string dies = topology.isCluster() ? " GPUs" : " dies";
        throw ScenarioError("strategy",
                            "dp*sp*tp*tatp = " + std::to_string(wanted) + dies + ", but the " +
                                (topology.isCluster() ? "cluster" : "wafer") + " has " +
                                std::to_string(live) + " live" + dies +
                                (dead > 0 ? " (" + std::to_string(dead) + " of " +
                                                std::to_string(topology.dieCount()) + " are dead)"
                                          : ""));
    }
    return makeMappingPolicy(strategy.mapping)->place(strategy, topology);
}

} // namespace ws
