#pragma once

#include "scenario/scenario.h"
#include "topology/wafer_topology.h"

#include <string>
#include <vector>

namespace ws {

// The DP, TATP and TP groups of a scenario's dies, as the GUI shows them (and edits the DP and
// TATP groups).
//
// With a strategy they come from its placement (placeStrategy), so a sequential or snake
// mapping shows the groups it produced. Explicit traffic has no strategy; its groups may be
// given as labels in the scenario's "x-groups" extension ({"dp": [[0, 2]], "tatp": [[0, 1]]}),
// as the teaching example does. Only groups of two or more dies are listed.
struct DieGroups {
    enum class Source { None, Strategy, Labels };
    Source source = Source::None;
    std::vector<std::vector<DieId>> dp;   // each DP group, in rank order
    std::vector<std::vector<DieId>> tatp; // each TATP group, in stream path order
    // Each Megatron tensor-parallel group (strategy.tp > 1), in rank order: a strategy's only;
    // the GUI shows them where it shows TATP groups when there are none (tatp 1).
    std::vector<std::vector<DieId>> tp;
    std::vector<int> dpOfDie;   // by DieId: index into dp, -1 when in none
    std::vector<int> tatpOfDie; // by DieId: index into tatp, -1 when in none
    std::vector<int> tpOfDie;   // by DieId: index into tp, -1 when in none
};

// Throws ScenarioError when the strategy cannot be placed, or "x-groups" is malformed
// (not an object of arrays of arrays of die ids on the wafer).
DieGroups dieGroups(const Scenario& scenario, const WaferTopology& topology);

} // namespace ws
