#include "strategy/pipeline_stages.h"

#include "scenario/scenario_error.h"

#include <string>
#include <tuple>

namespace ws {

namespace {

// Stage k of `pp` equal bands across the rows (or the columns) of the grid.
std::vector<StageRegion> bands(const WaferTopology& topology, int pp, bool acrossRows) {
    std::vector<StageRegion> regions;
    for (int k = 0; k < pp; ++k) {
        if (acrossRows) {
            const int height = topology.rows() / pp;
            regions.push_back({k * height, 0, height, topology.cols()});
        } else {
            const int width = topology.cols() / pp;
            regions.push_back({0, k * width, topology.rows(), width});
        }
    }
    return regions;
}

} // namespace

std::vector<StageRegion> pipelineStageRegions(const WaferTopology& topology, int pp) {
    if (pp < 1)
        throw ScenarioError("strategy.pp", "must be a positive integer, got " + std::to_string(pp));
    const int wafers = topology.waferCount();
    if (wafers > 1 && wafers % pp == 0) {
        const int perStage = wafers / pp;
        const int across = topology.wafersAcross();
        std::vector<StageRegion> regions;
        for (int k = 0; k < pp; ++k) {
            const int firstWafer = k * perStage;
            if (across % perStage == 0) // a run of wafers along one row of wafers
                regions.push_back({firstWafer / across * topology.waferRows(),
                                   firstWafer % across * topology.waferCols(), topology.waferRows(),
                                   perStage * topology.waferCols()});
            else if (perStage % across == 0) // whole rows of wafers
                regions.push_back({firstWafer / across * topology.waferRows(), 0,
                                   perStage / across * topology.waferRows(), topology.cols()});
        }
        if (static_cast<int>(regions.size()) == pp)
            return regions;
    }
    const bool rowsSplit = topology.rows() % pp == 0;
    if (topology.isCluster()) { // consecutive groups of whole nodes
        if (!rowsSplit)
            throw ScenarioError("strategy.pp", std::to_string(pp) +
                                                   " stages do not split the cluster's " +
                                                   std::to_string(topology.rows()) +
                                                   " nodes evenly; each stage takes whole nodes");
        return bands(topology, pp, true);
    }
    const bool colsSplit = topology.cols() % pp == 0;
    if (rowsSplit && (!colsSplit || topology.rows() <= topology.cols()))
        return bands(topology, pp, true);
    if (colsSplit)
        return bands(topology, pp, false);
    throw ScenarioError("strategy.pp",
                        std::to_string(pp) + " stages do not split the " +
                            std::to_string(topology.rows()) + "x" +
                            std::to_string(topology.cols()) + " grid" +
                            (wafers > 1 ? " or its " + std::to_string(wafers) + " wafers" : "") +
                            " into equal parts; stages take whole wafers, or equal bands of rows "
                            "or columns");
}

DieId gridDieOf(const WaferTopology& topology, const StageRegion& region, DieId local) {
    return topology.dieAt({region.row + local / region.cols, region.col + local % region.cols});
}

WaferTopology regionTopology(const WaferTopology& topology, const StageRegion& region) {
    TopologySpec spec;
    spec.rows = region.rows;
    spec.cols = region.cols;
    if (topology.isCluster()) { // a band of whole nodes is a cluster of its own
        spec.kind = TopologyKind::Cluster;
        spec.cluster = ClusterTopologySpec{topology.clusterNetwork(), topology.nodesPerLeaf()};
        for (DieId local = 0; local < region.rows * region.cols; ++local)
            if (!topology.isAlive(gridDieOf(topology, region, local)))
                spec.deadDies.push_back(local);
        return WaferTopology(spec);
    }
    const int dies = region.rows * region.cols;
    for (DieId local = 0; local < dies; ++local) {
        const DieId die = gridDieOf(topology, region, local);
        if (!topology.isAlive(die))
            spec.deadDies.push_back(local);
        // East and south neighbours inside the region, both directions.
        const DieCoord c = topology.coord(die);
        const DieCoord localCoord{local / region.cols, local % region.cols};
        const std::pair<DieCoord, DieId> neighbours[] = {{{c.row, c.col + 1}, local + 1},
                                                         {{c.row + 1, c.col}, local + region.cols}};
        for (const auto& [coord, otherLocal] : neighbours) {
            const bool inside = (coord.col == c.col + 1 && localCoord.col + 1 < region.cols) ||
                                (coord.row == c.row + 1 && localCoord.row + 1 < region.rows);
            if (!inside)
                continue;
            const DieId other = topology.dieAt(coord);
            for (const auto& [from, to, fromLocal, toLocal] :
                 {std::tuple{die, other, local, otherLocal},
                  std::tuple{other, die, otherLocal, local}}) {
                const auto link = topology.linkBetween(from, to);
                if (!link || !topology.link(*link).alive)
                    spec.deadLinks.emplace_back(fromLocal, toLocal);
            }
        }
    }
    return WaferTopology(spec);
}

} // namespace ws
