// `waferscope-cli validate-model` end to end (docs/cli.md section 12): the table with the
// summary, --json, --calibrate, the exit status when a point drifts, and bad input.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path kSuite = fs::path(WAFERSCOPE_VALIDATION_DIR) / "suite.json";

using ws::test::CliRun;
using ws::test::quote;
using ws::test::runCli;
using ws::test::scratchDir;

TEST(CliValidateModel, PrintsEveryPointWithItsErrorAndTheSummary) {
    const CliRun run = runCli("validate-model " + quote(kSuite.string()));
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("megatron-22b-full (calibration)"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("megatron-1t-selective"), std::string::npos);
    EXPECT_NE(run.out.find("nccl-allreduce-1gib"), std::string::npos);
    EXPECT_NE(run.out.find("predictions: 17, mean |error| "), std::string::npos);
    EXPECT_NE(run.out.find("regression: every recorded point within 1.0%"), std::string::npos);
}

TEST(CliValidateModel, JsonHasEachPointsRoleErrorAndDrift) {
    const CliRun run = runCli("validate-model " + quote(kSuite.string()) + " --json");
    ASSERT_EQ(run.status, 0) << run.err;
    const nlohmann::json report = nlohmann::json::parse(run.out);
    ASSERT_EQ(report["points"].size(), 18u);
    EXPECT_EQ(report["points"][0]["role"], "calibration");
    EXPECT_EQ(report["points"][1]["role"], "prediction");
    for (const auto& point : report["points"]) {
        const double published = point["published"];
        const double simulated = point["simulated"];
        EXPECT_NEAR(point["error"].get<double>(), (simulated - published) / published, 1e-12);
        EXPECT_TRUE(point.contains("drift"));
    }
    EXPECT_EQ(report["predictions"], 17);
    EXPECT_TRUE(report["drifted"].empty());
}

TEST(CliValidateModel, CalibratePrintsTheFittedEfficiency) {
    const CliRun run = runCli("validate-model " + quote(kSuite.string()) + " --calibrate");
    ASSERT_EQ(run.status, 0) << run.err;
    // "megatron-22b-full: published 1.42 s; GPU efficiency 0.77597 reproduces it (simulated
    // 1.42 s); the scenario has 0.77600 today": the fit agrees with the preset's rounded value.
    const std::string fitted = "GPU efficiency ";
    const std::string today = "the scenario has ";
    ASSERT_EQ(run.out.rfind("megatron-22b-full: published 1.42 s; ", 0), 0u) << run.out;
    ASSERT_NE(run.out.find(fitted), std::string::npos) << run.out;
    ASSERT_NE(run.out.find(today), std::string::npos) << run.out;
    const double efficiency = std::stod(run.out.substr(run.out.find(fitted) + fitted.size()));
    const double preset = std::stod(run.out.substr(run.out.find(today) + today.size()));
    EXPECT_NEAR(efficiency, preset, 0.0005) << run.out;
}

// A recorded value the model no longer gives: the table still prints, the exit status is 1.
TEST(CliValidateModel, ADriftedPointFailsTheRun) {
    const fs::path dir = scratchDir() / "drift";
    fs::create_directories(dir);
    fs::copy_file(kSuite.parent_path() / "nccl_allreduce_1gib.json", dir / "ar.json");
    fs::copy_file(kSuite.parent_path() / "megatron_22b_full.json", dir / "step.json");
    std::ofstream(dir / "suite.json") << R"({"format": "waferscope.validation", "version": 1,
        "name": "drift", "calibration": "step", "points": [
        {"id": "step", "scenario": "step.json", "metric": "step_s", "published": 1.42,
         "source": "Korthikanti et al."},
        {"id": "ar", "scenario": "ar.json", "metric": "makespan_s", "published": 8.2e-3,
         "source": "nccl-tests", "recorded": 5e-3}]})";
    const CliRun run = runCli("validate-model " + quote((dir / "suite.json").string()));
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_NE(run.out.find("regression: 1 point(s) moved more than 1.0% from their recorded "
                           "value: ar"),
              std::string::npos)
        << run.out;
}

TEST(CliValidateModel, BadInputIsExitTwoWithTheFileAndKey) {
    const fs::path file = scratchDir() / "bad_suite.json";
    std::ofstream(file) << R"({"format": "waferscope.validation", "version": 1,
        "calibration": "x", "points": [{"id": "x", "scenario": "x.json", "metric": "step_s",
        "published": 1, "source": "s", "tolerance": 1}]})";
    const CliRun run = runCli("validate-model " + quote(file.string()));
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find(file.string() + ": points[0].tolerance: unknown key 'tolerance'"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(runCli("validate-model").status, 2);
    EXPECT_EQ(runCli("validate-model " + quote(kSuite.string()) + " --calibrate --json").status, 2);
}

} // namespace
