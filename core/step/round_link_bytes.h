#pragma once

#include "topology/wafer_topology.h"

#include <cstddef>
#include <map>
#include <vector>

namespace ws {

// A flow's links: its route's, or a simulator task's own.
template <class Flow> const std::vector<LinkId>& roundFlowLinks(const Flow& flow) {
    if constexpr (requires { flow.route.links; })
        return flow.route.links;
    else
        return flow.links;
}

// Per-round link loads, the one place they are summed: the bytes each link carries in each
// round, from flows that each belong to at most one round. `Flows` is any range of flows with
// `bytes` and `route.links` (Flow, EvaluatedFlow, FlowReport) or `links` (SimTask);
// `roundOf(flow)` gives the flow's round, or a negative number for a flow in no round (it is
// skipped). With `only` set, just that round is summed. Every vector has `linkCount` entries,
// indexed by LinkId.
//
// Example: two 1 MB flows of round 0 over link 3 and one 2 MB flow of round 1 over links 3 and
// 4 give {0: [.., 3: 2 MB, ..], 1: [.., 3: 2 MB, 4: 2 MB, ..]}.
//
// Readers: the report's TATP rounds (report/step_report.cpp) and TCME's per-round utilisation
// (tcme/scenario_evaluation.cpp) against the round windows of step/round_windows.h, and the
// app's round slider.
template <class Flows, class RoundOf>
std::map<int, std::vector<double>> roundLinkBytes(const Flows& flows, RoundOf roundOf,
                                                  std::size_t linkCount, int only = -1) {
    std::map<int, std::vector<double>> bytesPerRound;
    for (const auto& flow : flows) {
        const int round = roundOf(flow);
        if (round < 0 || (only >= 0 && round != only))
            continue;
        std::vector<double>& bytes = bytesPerRound[round];
        bytes.resize(linkCount, 0.0);
        for (LinkId link : roundFlowLinks(flow))
            bytes[static_cast<std::size_t>(link)] += flow.bytes;
    }
    return bytesPerRound;
}

} // namespace ws
