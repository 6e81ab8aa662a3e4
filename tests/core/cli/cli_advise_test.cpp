// `waferscope-cli advise` end to end (docs/cli.md section 11): the JSON's
// fields, the text, exit statuses and bad input.
#include "cli_runner.h"
#include "test_data_paths.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

using ws::test::kScenarios;

using ws::test::CliRun;
using ws::test::quote;
using ws::test::runCli;
using ws::test::scratchDir;

// A TATP line of 4 dies with die 1 at 40% of its peak (docs/compute-model.md section 8).
fs::path slowDieScenario() {
    const fs::path file = scratchDir() / "slow_die.json";
    std::ofstream(file) << R"({"format": "waferscope.scenario", "version": 1, "name": "slow die",
      "wafer": {"rows": 1, "cols": 4, "die": {"task_overhead": 0, "gemm_tile": 1},
                "faults": {"slow_dies": {"1": 0.4}}},
      "workload": {"kind": "gemm", "m": 4096, "k": 2048, "n": 2048},
      "strategy": {"tatp": 4}})";
    return file;
}

TEST(CliAdvise, JsonListsFindingsWithSpecFieldsAndAFixThatApplies) {
    const CliRun run = runCli("advise " + quote(slowDieScenario().string()) + " --json");
    ASSERT_EQ(run.status, 0) << run.err;
    const nlohmann::json report = nlohmann::json::parse(run.out);
    ASSERT_TRUE(report["findings"].is_array());
    bool imbalance = false;
    for (const auto& finding : report["findings"]) {
        for (const char* key : {"id", "severity", "message", "evidence", "fix"})
            EXPECT_TRUE(finding.contains(key)) << key;
        if (finding["id"] == "load_imbalance") {
            imbalance = true;
            EXPECT_EQ(finding["severity"], "warning");
            EXPECT_EQ(finding["fix"], nlohmann::json({{"strategy.balance", "speed"}}));
            EXPECT_LT(finding["fix_effect"]["after_s"].get<double>(),
                      finding["fix_effect"]["before_s"].get<double>());
        }
    }
    EXPECT_TRUE(imbalance) << run.out;
}

TEST(CliAdvise, TextNamesEachFindingAndItsFix) {
    const CliRun run = runCli("advise " + quote(slowDieScenario().string()));
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("warning  load_imbalance: "), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("    fix: strategy.balance = \"speed\""), std::string::npos) << run.out;
}

TEST(CliAdvise, ACleanScenarioHasNoFindings) {
    const CliRun run = runCli("advise " + quote((kScenarios / "transpose_8x8.json").string()));
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("no findings"), std::string::npos) << run.out;
}

TEST(CliAdvise, BadInputIsExitTwoNamingTheFileAndKey) {
    const fs::path file = scratchDir() / "bad.json";
    std::ofstream(file) << R"({"format": "waferscope.scenario", "version": 1, "name": "bad",
      "wafer": {"rows": 1, "cols": 4, "faults": {"slow_dies": {"1": 2}}}, "traffic": []})";
    const CliRun run = runCli("advise " + quote(file.string()));
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find(file.string() + ": wafer.faults.slow_dies.1: must be"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(runCli("advise").status, 2);
    EXPECT_EQ(runCli("advise " + quote(file.string()) + " --fix").status, 2);
}

} // namespace
