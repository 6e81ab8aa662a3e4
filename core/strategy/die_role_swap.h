#pragma once

#include "scenario/scenario.h"
#include "topology/wafer_topology.h"

#include <stdexcept>

namespace ws {

// Why a drag of one die onto another cannot become an edit ("die 5 is dead").
class DieSwapRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What dropping die `a` onto die `b` in the GUI means: the two dies trade places, so each takes
// over the other's DP and TATP group membership and the traffic it sends and receives. A die in
// no group (unused) can trade with a used one: that moves a rank to a free die.
//
// With a strategy, the placement is rewritten as explicit `groups` (the mapping becomes
// explicit; sp = tp = 1 is required, as for any explicit mapping). With explicit traffic, every
// die id in `traffic` (src, dst, group, root) and in "x-groups" is swapped. Either way, pinned
// routes (routing.paths) that pass through a or b are dropped: they were routes of the old
// placement. The result is checked by placing it again.
//
// Throws DieSwapRefused, with a sentence for the status bar, when a == b, either die is off the
// wafer or dead, neither die takes part in anything, or the strategy has sp or tp > 1.
Scenario swapDieRoles(const Scenario& scenario, const WaferTopology& topology, DieId a, DieId b);

} // namespace ws
