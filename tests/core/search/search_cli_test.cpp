// Drives `waferscope-cli search`: the same seed gives the same JSON whatever the thread count,
// -o writes a scenario that validates, bad options exit 2.
#include "cli_runner.h"
#include "test_data_paths.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;

using ws::test::kTestData;

using ws::test::CliRun;
using ws::test::runCli;
using ws::test::scratchDir;

TEST(SearchCli, SameSeedSameJsonWithOneOrTwoThreads) {
    const std::string file = "'" + (kTestData / "small_transformer_4x4.json").string() + "'";
    const CliRun one = runCli("search " + file + " --json --seed 4 --budget 150 --threads 1");
    const CliRun two = runCli("search --threads 2 --budget 150 --seed 4 --json " + file);
    ASSERT_EQ(one.status, 0) << one.err;
    ASSERT_EQ(two.status, 0) << two.err;
    EXPECT_EQ(one.out, two.out);
    const auto report = nlohmann::json::parse(one.out);
    EXPECT_EQ(report["seed"], 4);
    EXPECT_LE(report["evaluations"].get<int>(), 150);
    EXPECT_GT(report["best"]["simulated_step_s"].get<double>(), 0.0);
    EXPECT_EQ(report["baselines"].size(), 3u);
    EXPECT_FALSE(report["candidates"].empty());
    EXPECT_NE(one.err.find("evaluations"), std::string::npos); // progress on stderr
}

TEST(SearchCli, WritesTheBestScenario) {
    const fs::path best = scratchDir() / "best.json";
    const CliRun run = runCli("search '" + (kTestData / "gemm_4x4.json").string() +
                              "' --budget 50 -o '" + best.string() + "'");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("best:"), std::string::npos);
    EXPECT_NE(run.out.find("Megatron-1 (TP)"), std::string::npos);
    const CliRun validate = runCli("validate '" + best.string() + "'");
    EXPECT_EQ(validate.status, 0) << validate.err;
}

TEST(SearchCli, BadInputExitsTwo) {
    const std::string file = "'" + (kTestData / "gemm_4x4.json").string() + "'";
    EXPECT_EQ(runCli("search").status, 2);
    EXPECT_EQ(runCli("search " + file + " --budget 0").status, 2);
    EXPECT_EQ(runCli("search " + file + " --threads x").status, 2);
    EXPECT_EQ(runCli("search " + file + " --frobnicate").status, 2);
    const CliRun missing = runCli("search /nonexistent/scenario.json");
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("/nonexistent/scenario.json"), std::string::npos);
}

} // namespace
