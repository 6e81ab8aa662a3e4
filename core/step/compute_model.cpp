#include "step/compute_model.h"

#include <algorithm>
#include <cmath>

namespace ws {

const char* toString(TaskBound bound) {
    switch (bound) {
    case TaskBound::Compute:
        return "compute";
    case TaskBound::Memory:
        return "memory";
    case TaskBound::Overhead:
        break;
    }
    return "overhead";
}

ComputeModel::ComputeModel(const DieSpec& die)
    : m_flopsPerSecond(die.peakFlops.value * die.efficiency),
      m_hbmBytesPerSecond(die.hbmBandwidth.value), m_overheadS(die.taskOverhead.value) {}

ComputeCost ComputeModel::cost(const ComputeWork& work, double speed) const {
    const double computeS =
        work.flops > 0 ? work.flops / (m_flopsPerSecond * speed * work.tileEfficiency) : 0.0;
    const double memoryS = work.hbmBytes > 0 ? work.hbmBytes / m_hbmBytesPerSecond : 0.0;
    ComputeCost cost;
    cost.seconds = std::max(computeS, memoryS) + m_overheadS;
    cost.computeS = computeS;
    cost.memoryS = memoryS;
    cost.overheadS = m_overheadS;
    if (m_overheadS > computeS && m_overheadS > memoryS)
        cost.bound = TaskBound::Overhead;
    else
        cost.bound = memoryS > computeS ? TaskBound::Memory : TaskBound::Compute;
    return cost;
}

double gemmTileEfficiency(double m, double k, double n, int tile) {
    if (tile <= 1)
        return 1.0;
    const double t = tile;
    auto padded = [t](double side) { return std::max(1.0, std::ceil(side / t)) * t; };
    return (m * k * n) / (padded(m) * padded(k) * padded(n));
}

} // namespace ws
