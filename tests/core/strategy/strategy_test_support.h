#pragma once

#include "scenario/scenario_error.h"
#include "topology/wafer_topology.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace ws::test {

inline WaferTopology mesh(int rows, int cols, std::vector<DieId> deadDies = {},
                          std::vector<std::pair<DieId, DieId>> deadLinks = {}) {
    return WaferTopology(
        TopologySpec{rows, cols, TopologyKind::Mesh, std::move(deadDies), std::move(deadLinks)});
}

// Runs `action`, which must throw a ScenarioError at `keyPath` whose problem contains
// `problemPart`; returns the whole message for further checks.
template <typename Action>
std::string expectScenarioError(Action&& action, const std::string& keyPath,
                                const std::string& problemPart, int callerLine = __builtin_LINE()) {
    // __builtin_LINE() as a default argument is the caller's line, in GCC and in Clang 14,
    // whose libstdc++ std::source_location needs a builtin only Clang 15 has (the asan preset).
    SCOPED_TRACE(testing::Message() << "called from line " << callerLine);
    try {
        action();
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), keyPath) << error.what();
        EXPECT_NE(error.problem().find(problemPart), std::string::npos)
            << "problem: " << error.problem() << "\nexpected to contain: " << problemPart;
        return error.what();
    }
    ADD_FAILURE() << "expected a ScenarioError at " << keyPath;
    return {};
}

} // namespace ws::test
