#pragma once

// The folders the core's tests read from. The macros come from waferscope_core_test
// (tests/CMakeLists.txt): each test executable's own source folder, never a "../" path.

#include <filesystem>

namespace ws::test {

inline const std::filesystem::path kScenarios = WAFERSCOPE_SCENARIO_DIR; // the shipped examples
inline const std::filesystem::path kTestData =
    std::filesystem::path(WAFERSCOPE_TEST_DATA_DIR) / "data"; // this suite's own inputs

} // namespace ws::test
