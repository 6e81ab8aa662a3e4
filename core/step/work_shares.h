#pragma once

#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "step/memory_model.h"
#include "strategy/placement.h"

#include <vector>

namespace ws {

// Each die's share of its TATP group's work, as a multiple of the even share (docs/compute-model.md
// "Degraded dies"): 1 for every die under strategy.balance "even"; under
// "speed", the group's `rows` (the split dimension: the tokens a TATP group streams) are dealt
// in proportion to each member's speed (WaferSpec::dieSpeed), rounded to whole rows by largest
// remainder (ties to the earlier path position), so the shares of a group of n sum to n.
//
// Worked example: a group of 4 with speeds 1, 0.5, 1, 1 and 2048 rows: exact shares 585.14,
// 292.57, 585.14, 585.14 rows; floors 585, 292, 585, 585 (2047), the one row left goes to
// die 1 (remainder .57); shares 585/512, 293/512, 585/512, 585/512 = 1.143, 0.572, 1.143, 1.143.
// The group then runs at the pace of its mean speed (0.875 of peak) instead of its slowest.
//
// Returned by die id over the whole wafer (1 for dies outside every TATP group).
std::vector<double> tatpWorkShares(const Placement& placement, const StrategySpec& strategy,
                                   const WaferSpec& wafer, int dieCount, double rows);

// Shares of `rows` whole rows in proportion to `weights` (largest remainder), as multiples of
// rows / weights.size(). Exposed for its tests.
std::vector<double> proportionalShares(const std::vector<double>& weights, double rows);

// What a die holding `share` of the even share keeps: every split tensor (weights, gradients,
// optimizer state, activations, stream buffers) scaled, the communication reserve and the
// capacities not.
MemoryBreakdown scaledMemory(const MemoryBreakdown& memory, double share);

} // namespace ws
