#pragma once

// Scenarios that take seconds to prepare and simulate in a debug build, for the tests that
// cancel a run (core's pipeline and the app's runner).

#include "io/strategy_reader.h"
#include "io/workload_reader.h"
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

// GPT-3 175B on a 16x16 wafer, 16 FSDP replicas of 16-die TATP groups: a step graph of about
// 300,000 tasks, seconds to build in a debug build.
inline Scenario gpt3Step16x16() {
    Scenario scenario;
    scenario.wafer.rows = 16;
    scenario.wafer.cols = 16;
    scenario.workload = parseWorkload(nlohmann::json{{"kind", "transformer"},
                                                     {"model", "gpt3-175b"},
                                                     {"seq_len", 2048},
                                                     {"global_batch", 16}},
                                      {});
    scenario.strategy = parseStrategy(
        nlohmann::json{{"dp", 16}, {"tatp", 16}, {"fsdp", true}, {"mapping", "snake"}});
    return scenario;
}

} // namespace ws::test
