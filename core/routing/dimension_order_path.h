#pragma once

#include "topology/wafer_topology.h"

#include <vector>

namespace ws {

// The dimension-order path from src to dst, computed arithmetically (no graph search): the
// whole column offset first (moving along the row) and then the row offset when `rowFirst`
// (XY), the other way round otherwise (YX). On a torus each dimension goes the shorter way
// round; at exactly half way round the positive direction (East, South) wins. The path ignores
// faults: the Router detours when it crosses a dead die or link.
//
// Example: 4x4 mesh, 1 -> 14 row first: 1, 2 (column 1 -> 2), then 6, 10, 14 (row 0 -> 3).
std::vector<DieId> dimensionOrderPath(const WaferTopology& topology, DieId src, DieId dst,
                                      bool rowFirst);

} // namespace ws
