#pragma once

// A scenario that takes seconds to simulate in a debug build, for the tests that cancel a
// running simulation (core's pipeline and the app's runner).

#include "scenario/scenario.h"

namespace ws::test {

// A ring all-reduce of 256 MB over every die of a 16x16 wafer: 2 * 255 steps of 256 flows,
// 130,560 flows in all.
inline Scenario ringAllReduce16x16() {
    Scenario scenario;
    scenario.wafer.rows = 16;
    scenario.wafer.cols = 16;
    TrafficOp op;
    op.id = "ar";
    op.kind = OpKind::AllReduce;
    for (DieId die = 0; die < 256; ++die)
        op.group.push_back(die);
    op.bytes = Quantity{256e6, "256 MB"};
    scenario.traffic.push_back(op);
    return scenario;
}

} // namespace ws::test
