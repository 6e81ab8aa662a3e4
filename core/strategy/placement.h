#pragma once

#include "scenario/strategy_spec.h"
#include "topology/wafer_topology.h"

#include <optional>
#include <string>
#include <vector>

namespace ws {

// One rank of a hybrid strategy: replica d < dp, sequence chunk s < sp, tensor slice t < tp and
// position a < tatp along its TATP path, in pipeline stage p < pp.
struct Rank {
    int d = 0;
    int s = 0;
    int t = 0;
    int a = 0;
    int p = 0;
    friend bool operator==(const Rank&, const Rank&) = default;
};

// The kinds of communication group. A DP group joins the ranks that differ only in d, and so
// on; a TATP group is ordered along its stream path. A Replica group joins the ranks that hold
// the same weights, those that differ only in d and s (ordered by d, then s): gradients are
// reduced over it (docs/training-model.md "How a step is simulated"). A Stage group joins the ranks
// that differ only in p, ordered by stage: activations and their gradients pass along it
// (docs/training-model.md "Pipeline stages"). Every other kind of group lies inside one stage.
enum class GroupKind { DP, SP, TP, TATP, Replica, Stage };

// Where every rank of a strategy runs: an immutable value, built by a mapping policy
// (placeStrategy). Ranks are indexed (((p*dp + d)*sp + s)*tp + t)*tatp + a, each on a distinct
// die: stage p's ranks are a block of its own.
//
// Example: dp = 2, tatp = 2 placed sequentially on a 4x4 wafer puts (d, a) = (0,0), (0,1),
// (1,0), (1,1) on dies 0, 1, 2, 3; tatpGroup(1,0,0) = {2, 3} and dpGroup(0,0,1) = {1, 3}.
class Placement {
public:
    Placement() = default;
    // `dies` is indexed by rank index and holds dp*sp*tp*tatp distinct dies (checked:
    // std::invalid_argument otherwise). `notes` are remarks for the user (e.g. a TATP step
    // that is more than one hop).
    Placement(int dp, int sp, int tp, int tatp, std::vector<DieId> dies,
              std::vector<std::string> notes = {});
    // Pipeline stages, each a placement of one stage (pp = 1) with the same degrees, in stage
    // order, with `notes` for the whole. std::invalid_argument if the degrees differ or a die
    // repeats.
    static Placement ofStages(const std::vector<Placement>& stages,
                              std::vector<std::string> notes = {});

    int pp() const { return m_pp; }
    int dp() const { return m_dp; }
    int sp() const { return m_sp; }
    int tp() const { return m_tp; }
    int tatp() const { return m_tatp; }
    int rankCount() const { return static_cast<int>(m_dies.size()); }

    int stageRankCount() const { return m_dp * m_sp * m_tp * m_tatp; }

    // Ranks out of range throw std::out_of_range.
    int rankIndex(int d, int s, int t, int a, int p = 0) const;
    Rank rank(int rankIndex) const;
    DieId die(int d, int s, int t, int a, int p = 0) const;
    DieId die(const Rank& rank) const { return die(rank.d, rank.s, rank.t, rank.a, rank.p); }
    // The rank running on a die, or nullopt for an unused die.
    std::optional<Rank> rankOf(DieId die) const;

    // Groups, each ordered by its varying index: tatpGroup by path position a, dpGroup by d...
    // (in stage p).
    std::vector<DieId> tatpGroup(int d, int s, int t, int p = 0) const;
    std::vector<DieId> dpGroup(int s, int t, int a, int p = 0) const;
    std::vector<DieId> tpGroup(int d, int s, int a, int p = 0) const;
    std::vector<DieId> spGroup(int d, int t, int a, int p = 0) const;

    // Every group of a kind, stage by stage, and in a stage in the lexicographic order of the
    // fixed indices: TATP groups by (d, s, t), DP groups by (s, t, a), TP groups by (d, s, a), SP
    // groups by (d, t, a), Replica groups by (t, a); Stage groups by (d, s, t, a). There are
    // rankCount() / degree groups of `degree` dies each (degree 1 gives singletons; a Replica
    // group's degree is dp * sp, a Stage group's pp).
    std::vector<std::vector<DieId>> groups(GroupKind kind) const;

    // The dies in use, in rank order (usedDies()[rankIndex] is that rank's die).
    const std::vector<DieId>& usedDies() const { return m_dies; }
    // Stage p's dies, in rank order.
    std::vector<DieId> stageDies(int p) const;
    const std::vector<std::string>& notes() const { return m_notes; }

    friend bool operator==(const Placement&, const Placement&) = default;

private:
    // std::invalid_argument unless the degrees are positive and the dies distinct, one per rank.
    void checkDies() const;

    int m_pp = 1;
    int m_dp = 1;
    int m_sp = 1;
    int m_tp = 1;
    int m_tatp = 1;
    std::vector<DieId> m_dies;
    std::vector<std::string> m_notes;
};

const char* toString(GroupKind kind); // "dp", "sp", "tp", "tatp", "replica", "stage"

// Places a strategy on a wafer with the mapping policy its `mapping` names (see
// strategy/mapping_policy.h). Throws ScenarioError when it cannot: a degree below 1
// ("strategy.tp"), more ranks than live dies ("strategy: dp*sp*tp*tatp = 64 dies, but the
// wafer has 46 live dies"), or the policy's own errors ("strategy.mapping",
// "strategy.groups..."). With pp > 1 each stage is placed by the policy in a region of its own
// (strategy/pipeline_stages.h), errors naming the stage.
Placement placeStrategy(const StrategySpec& strategy, const WaferTopology& topology);

} // namespace ws
