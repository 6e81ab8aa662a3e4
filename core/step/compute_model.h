#pragma once

#include "scenario/scenario.h"

namespace ws {

// Which term decides a compute task's time (docs/compute-model.md).
enum class TaskBound {
    Compute, // F / (peak * efficiency * tile_eff) is the larger term
    Memory,  // H / hbm_bandwidth is the larger term
    Overhead // the fixed task_overhead exceeds both
};

const char* toString(TaskBound bound); // "compute", "memory", "overhead"

// What a compute task does: FLOPs on the die's array, bytes moved between HBM and SRAM, and how
// well its shape fills the array's tiles (gemmTileEfficiency; 1 for non-GEMM work).
struct ComputeWork {
    double flops = 0.0;
    double hbmBytes = 0.0;
    double tileEfficiency = 1.0;
};

// A task's time and its terms: seconds = max(computeS, memoryS) + overheadS.
struct ComputeCost {
    double seconds = 0.0;
    double computeS = 0.0; // F / (peak * efficiency * tile_eff)
    double memoryS = 0.0;  // H / hbm_bandwidth
    double overheadS = 0.0;
    TaskBound bound = TaskBound::Compute;

    // The time the die waits for HBM beyond its compute: max(0, memoryS - computeS).
    double hbmStallS() const { return memoryS > computeS ? memoryS - computeS : 0.0; }
};

// The roofline of one compute task on one die (docs/compute-model.md section 1):
//   seconds = max(F / (peak * efficiency * tile_eff), H / hbm_bandwidth) + task_overhead.
// The simulator's graph (step/step_graph.h) and the search's estimator
// (search/analytic_evaluator.h) both cost tasks here, so the rule exists once.
class ComputeModel {
public:
    explicit ComputeModel(const DieSpec& die);

    // `speed`: the fraction of peak the die reaches (WaferSpec::dieSpeed; 1 for a sound die).
    // It slows the compute term only: a degraded die's HBM keeps its bandwidth.
    ComputeCost cost(const ComputeWork& work, double speed = 1.0) const;
    double seconds(const ComputeWork& work) const { return cost(work).seconds; }

    double overheadS() const { return m_overheadS; }

private:
    double m_flopsPerSecond;
    double m_hbmBytesPerSecond;
    double m_overheadS;
};

// The share of the array's work that is useful for an m x k x n GEMM on tiles of T elements:
// m n k / (ceil(m/T) T * ceil(n/T) T * ceil(k/T) T). Partial tiles (fractional m from an uneven
// split) count as whole ones. 1 when T = 1.
double gemmTileEfficiency(double m, double k, double n, int tile);

} // namespace ws
