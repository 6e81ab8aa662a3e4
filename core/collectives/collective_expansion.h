#pragma once

#include "collectives/flow.h"
#include "scenario/scenario.h"
#include "scenario/scenario_error.h"
#include "topology/wafer_topology.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace ws {

// Expands one traffic op into unrouted flows with step dependencies (docs/network-model.md):
// - p2p: one flow.
// - ring (allgather, reducescatter: P-1 steps; allreduce: 2(P-1); ring order = group order):
//   in step s every rank i sends bytes/P to rank (i+1) mod P; rank i's step s+1 depends on the
//   step-s flow from rank i-1. broadcast ring: a chain root -> next -> ... forwarding the whole
//   buffer (step s depends on step s-1). alltoall ring: pairwise exchange, step s rank i sends
//   bytes/P to rank (i+s+1) mod P after its own step s-1 flow.
// - direct: every rank sends its chunk to every other rank at once (allgather: bytes/P to each;
//   reducescatter: chunk j (bytes/P) to rank j; allreduce: direct reduce-scatter then direct
//   all-gather, rank j's sends waiting for every chunk it receives; broadcast: root sends the
//   buffer to each; alltoall: bytes/P to each).
// - multicast: allgather: each rank sends bytes/P once as a tree to all others (step 0);
//   broadcast: one tree from the root; allreduce: direct reduce-scatter then multicast
//   all-gather. Not defined for reducescatter or alltoall (ScenarioError).
// - hierarchical: allgather, reducescatter, allreduce on a group that fills a rectangle of dies
//   (ScenarioError otherwise): rings along every row, then along every column (allreduce: row
//   reduce-scatter, column all-reduce, row all-gather); each die's first flow of a phase waits
//   for the last flow it received in the previous phase. Steps are numbered on through the
//   phases; ranks stay indices into `group`, whatever its order (rings follow the geometry).
// - tree: reducescatter: one reduction flow into each rank from all the others (step 0);
//   allreduce: those, then each reduced chunk multicast back (step 1, after its reduction);
//   allgather and broadcast as multicast. Not defined for alltoall.
// A split op (`split` k > 1) is all of the above on bytes/k, k times over: part j of flow
// "<id>" is "<id>/p<j>" and waits for part j of what the whole flow waited for.
// `opKeyPath` (e.g. "traffic[3]") prefixes errors. Polls `cancel` every
// kItemsBetweenCancelPolls flows and throws RunCancelled (sim/run_cancelled.h) when it fires.
std::vector<Flow> expandOp(const TrafficOp& op, int opIndex, const WaferTopology& topology,
                           const std::string& opKeyPath, const std::function<bool()>& cancel = {});

} // namespace ws
