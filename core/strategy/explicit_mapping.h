#pragma once

#include "strategy/mapping_policy.h"

namespace ws {

// Groups drawn by the user (or the GUI's drag and drop): StrategySpec::tatpGroups[d] is replica
// d's TATP group in path order, StrategySpec::dpGroups the DP groups. Only DP x TATP is
// supported (sp = tp = 1). Rank (d, 0, 0, a) runs on tatpGroups[d][a].
//
// Checks, each a ScenarioError at the key it is about ("strategy.groups.tatp[1][0]"): dp TATP
// groups of tatp dies and tatp DP groups of dp dies; every die on the wafer and alive; no die
// twice among the groups of one kind; both kinds cover the same dies; each DP group takes
// exactly one die from each TATP group, and all at the same path position (a DP group
// synchronises the gradients of one sub-weight W_a, which only the dies at position a hold).
// When dp (or tatp) is 1 its groups may be omitted. Consecutive dies of a TATP group need not
// be adjacent, nor their links alive: the stream then relays over multi-hop routes or detours,
// and notes() says where.
//
// Example (docs/concepts.md section 3, 4x4 wafer, dp = tatp = 2): dp [[0, 2], [1, 3]] and tatp
// [[0, 1], [2, 3]] give die(0,0,0,1) = 1 and dpGroup(0,0,1) = {1, 3}.
class ExplicitMapping final : public MappingPolicy {
public:
    const char* name() const override { return "explicit"; }
    Placement place(const StrategySpec& strategy, const WaferTopology& topology) const override;
};

} // namespace ws
