// An output file that cannot be written fails the run: exit 1 (README "Exit status"), not 2,
// which is for bad input; the message names the output file.
#include "cli_runner.h"
#include "test_data_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;

using ws::test::kScenarios;
const fs::path kSearchData = fs::path(WAFERSCOPE_TEST_DATA_DIR) / ".." / "search" / "data";

using ws::test::CliRun;
using ws::test::quote;
using ws::test::runCli;

TEST(CliWriteFailure, SearchIntoAMissingDirectoryExitsOne) {
    const CliRun run = runCli("search " + quote((kSearchData / "gemm_4x4.json").string()) +
                              " --budget 50 -o /nonexistent/dir/best.json");
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_NE(run.err.find("cannot write /nonexistent/dir/best.json"), std::string::npos)
        << run.err;
}

TEST(CliWriteFailure, OptimizeIntoAMissingDirectoryExitsOne) {
    const CliRun run =
        runCli("optimize " + quote((kScenarios / "allgather_p2p_collision_4x4.json").string()) +
               " -o /nonexistent/dir/tuned.json");
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_NE(run.err.find("cannot write /nonexistent/dir/tuned.json"), std::string::npos)
        << run.err;
}

} // namespace
