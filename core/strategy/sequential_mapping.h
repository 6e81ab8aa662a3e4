#pragma once

#include "strategy/mapping_policy.h"

namespace ws {

// The paper's SMap baseline: rank index i = ((d*sp + s)*tp + t)*tatp + a runs on the i-th live
// die in row-major order. Consecutive TATP positions are adjacent only while a group stays in
// one row, which is what makes SMap's streams slow when a group wraps to the next row.
//
// Example: a 4x4 wafer with die 1 dead, tatp = 4: the group is dies 0, 2, 3, 4.
class SequentialMapping final : public MappingPolicy {
public:
    const char* name() const override { return "sequential"; }
    Placement place(const StrategySpec& strategy, const WaferTopology& topology) const override;
};

} // namespace ws
