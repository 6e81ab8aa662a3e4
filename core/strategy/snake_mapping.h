#pragma once

#include "strategy/mapping_policy.h"

namespace ws {

// Topology-aware mapping for TATP (docs/concepts.md section 2): each TATP group runs along a
// boustrophedon (snake) path through an h x w rectangle of live dies (h*w = tatp), so every
// consecutive pair of the path is one live link apart in both directions.
//
// Layout: the wafer is cut into a grid of h x w slots (from an offset when h or w does not
// divide the wafer). The sp*tp groups of one replica fill a br x bc block of slots in snake
// order, so a replica is one rectangle; replicas are blocks taken in row-major order, and the
// path runs the same way in every slot, so a DP group (same s, t, a in every replica) joins
// dies at the same offset within translated rectangles. When faults leave no such blocks,
// groups are laid one by one along a snake through the usable slots (replicas are then runs
// of consecutive slots rather than rectangles).
//
// Choice, in order of preference: a block layout over the fallback; a slot shape that tiles
// the wafer exactly; the squarest slot shape (smallest h + w, then wide over tall); the
// squarest block; the smallest offset. A slot is usable when its dies are all alive and the
// links along its path are alive both ways.
//
// Example: a 6x8 wafer with tatp = 8 and dp = 6 uses 2x4 slots: replica d's group is the
// rectangle at rows 2*(d/2), cols 4*(d%2), path 0 1 2 3 / 11 10 9 8 (for d = 0).
class SnakeMapping final : public MappingPolicy {
public:
    const char* name() const override { return "snake"; }
    Placement place(const StrategySpec& strategy, const WaferTopology& topology) const override;
};

} // namespace ws
