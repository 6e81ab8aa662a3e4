#pragma once

#include "topology/wafer_topology.h"

#include <vector>

namespace ws {

// A rectangle of dies of the grid: where one pipeline stage is placed.
struct StageRegion {
    int row = 0; // top-left die
    int col = 0;
    int rows = 1;
    int cols = 1;
    friend bool operator==(const StageRegion&, const StageRegion&) = default;
};

// Where the pp stages of a strategy go (docs/training-model.md "Pipeline
// stages"), in stage order:
// - on a system whose wafer count pp divides, each stage takes wafers / pp whole wafers, in
//   row-major wafer order: a run of wafers along a row of wafers, or whole rows of wafers;
// - otherwise (one wafer, for comparison) the grid is cut into pp equal bands, across its rows
//   or its columns, whichever gives the thinner bands (fewer hops between stages; rows on a
//   tie).
// Throws ScenarioError("strategy.pp") when neither is possible.
// Example: a 6x8 wafer with pp = 2 is two bands of 3 x 8 dies (rows 0-2 and 3-5); a [2, 2]
// system of 6x8 wafers with pp = 2 gives each stage a row of two wafers (6 x 16 dies).
std::vector<StageRegion> pipelineStageRegions(const WaferTopology& topology, int pp);

// The region as a topology of its own (a mesh of region.rows x region.cols dies, numbered
// row-major within it) with the grid's dead dies and links, and with the die pairs the grid
// does not link (a system's unjoined pairs) as dead links: a mapping policy places a stage in it.
WaferTopology regionTopology(const WaferTopology& topology, const StageRegion& region);

// The grid's id of the region's die `local`.
DieId gridDieOf(const WaferTopology& topology, const StageRegion& region, DieId local);

} // namespace ws
