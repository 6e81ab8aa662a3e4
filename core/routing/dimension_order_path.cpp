#include "routing/dimension_order_path.h"

#include <cstdlib>

namespace ws {

namespace {

// Signed number of unit steps from `from` to `to` in a dimension of `size` positions: the
// direct offset on a mesh; on a torus the shorter way round, +size/2 on a tie.
int stepsAlong(int from, int to, int size, bool torus) {
    int delta = to - from;
    if (!torus || delta == 0)
        return delta;
    const int forward = ((delta % size) + size) % size; // 1 .. size-1
    const int backward = size - forward;
    return forward <= backward ? forward : -backward;
}

int wrap(int position, int size) {
    return ((position % size) + size) % size;
}

} // namespace

std::vector<DieId> dimensionOrderPath(const WaferTopology& topology, DieId src, DieId dst,
                                      bool rowFirst) {
    const bool torus = topology.kind() == TopologyKind::Torus;
    const DieCoord from = topology.coord(src);
    const DieCoord to = topology.coord(dst);
    const int colSteps = stepsAlong(from.col, to.col, topology.cols(), torus);
    const int rowSteps = stepsAlong(from.row, to.row, topology.rows(), torus);

    std::vector<DieId> path;
    path.reserve(static_cast<std::size_t>(std::abs(colSteps) + std::abs(rowSteps) + 1));
    DieCoord at = from;
    path.push_back(src);
    const auto moveCols = [&] {
        const int unit = colSteps > 0 ? 1 : -1;
        for (int i = 0; i < std::abs(colSteps); ++i) {
            at.col = wrap(at.col + unit, topology.cols());
            path.push_back(topology.dieAt(at));
        }
    };
    const auto moveRows = [&] {
        const int unit = rowSteps > 0 ? 1 : -1;
        for (int i = 0; i < std::abs(rowSteps); ++i) {
            at.row = wrap(at.row + unit, topology.rows());
            path.push_back(topology.dieAt(at));
        }
    };
    if (rowFirst) {
        moveCols();
        moveRows();
    } else {
        moveRows();
        moveCols();
    }
    return path;
}

} // namespace ws
