#pragma once

#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "scenario/scenario.h"

namespace ws::test {

// A training step whose weight all-gathers dominate: GPT-3 6.7B, FSDP over the 4 dies of a 2x2
// mesh (dp 4, ring all-gathers along 0-1-3-2) with slow links, 10 GB/s and no latency.
inline Scenario fsdpStep2x2() {
    Scenario scenario;
    scenario.name = "FSDP over a 2x2 mesh";
    scenario.wafer.rows = 2;
    scenario.wafer.cols = 2;
    scenario.wafer.linkBandwidth = Quantity{10e9, "10 GB/s"};
    scenario.wafer.linkLatency = Quantity{0.0, "0 s"};
    scenario.workload = parseWorkload(nlohmann::json{{"kind", "transformer"},
                                                     {"model", "gpt3-6.7b"},
                                                     {"seq_len", 2048},
                                                     {"global_batch", 4}},
                                      {});
    scenario.strategy = parseStrategy(nlohmann::json{{"dp", 4}, {"fsdp", true}});
    return scenario;
}

} // namespace ws::test
