#include "command/optimize_command.h"
#include "command/search_command.h"
#include "io/scenario_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace ws {
namespace {

const std::filesystem::path kScenarios = WAFERSCOPE_SCENARIO_DIR;

// Run options whose environment holds only `variables` ("NAME=value" pairs), whatever the
// process's environment is.
RunOptions environmentOf(std::map<std::string, std::string> variables) {
    RunOptions options = frontEndRunOptions();
    options.environment = [variables](const std::string& name) -> std::optional<std::string> {
        const auto found = variables.find(name);
        if (found == variables.end())
            return std::nullopt;
        return found->second;
    };
    return options;
}

// The CLI's --max-iter 1: one iteration, said in the warnings after the environment's notes,
// and the report's keys those of docs/cli.md section 5.
TEST(OptimizeCommand, MaxIterCapsTheRunAfterTheEnvironment) {
    const Scenario scenario = loadScenario(kScenarios / "contention_fsdp_tatp_4x4.json");
    const OptimizeOutcome outcome =
        optimizeScenario(scenario, 1, environmentOf({{"TCME_MAX_ITER", "5"}}));
    ASSERT_EQ(outcome.iterations.size(), 1u);
    EXPECT_EQ(outcome.stopReason, TcmeStopReason::MaxIter);
    ASSERT_EQ(outcome.warnings.size(), 2u);
    EXPECT_NE(outcome.warnings[0].find("TCME_MAX_ITER"), std::string::npos) << outcome.warnings[0];
    EXPECT_EQ(outcome.warnings[1], "--max-iter 1 overrides tcme.max_iter");
    EXPECT_LE(outcome.after.makespanS, outcome.before.makespanS);
    EXPECT_EQ(outcome.tunedScenario.name, scenario.name);

    const nlohmann::json report = optimizeReportJson(outcome);
    EXPECT_EQ(report["stop_reason"], "max_iter");
    EXPECT_EQ(report["iterations"].size(), 1u);
    EXPECT_EQ(report["iterations"][0]["index"], 0);
    EXPECT_EQ(report["after"]["makespan_s"], outcome.after.makespanS);
    EXPECT_EQ(report["warnings"], nlohmann::json(outcome.warnings));
}

// Without a cap, the environment's TCME_MAX_ITER is the only override.
TEST(OptimizeCommand, TheEnvironmentAloneCapsTheRun) {
    const OptimizeOutcome outcome =
        optimizeScenario(loadScenario(kScenarios / "contention_fsdp_tatp_4x4.json"), std::nullopt,
                         environmentOf({{"TCME_MAX_ITER", "1"}}));
    EXPECT_EQ(outcome.iterations.size(), 1u);
    EXPECT_EQ(outcome.warnings.size(), 1u);
}

TEST(SearchCommand, ReportRepeatsTheOptionsThatReproduceIt) {
    const Scenario scenario = parseScenario(R"({"format": "waferscope.scenario", "version": 1,
        "name": "gemm", "wafer": {"rows": 4, "cols": 4},
        "workload": {"kind": "gemm", "m": 4096, "k": 4096, "n": 4096}})");
    SearchOptions options;
    options.budget = 40;
    options.seed = 5;
    options.threads = 1;
    const SearchOutcome outcome = searchScenario(scenario, options, environmentOf({}));
    EXPECT_TRUE(outcome.environmentNotes.empty());

    const nlohmann::json report = searchReportJson(outcome.result, options);
    EXPECT_EQ(report["seed"], 5u);
    EXPECT_EQ(report["budget"], 40);
    EXPECT_EQ(report["best"]["label"], outcome.result.best.label);
    EXPECT_EQ(report["candidates"].size(), outcome.result.candidates.size());
    ASSERT_EQ(report["baselines"].size(), outcome.result.baselines.size());
    for (std::size_t i = 0; i < outcome.result.baselines.size(); ++i) {
        const BaselineScore& baseline = outcome.result.baselines[i];
        // The speed-up is there exactly when both step times were simulated.
        const bool simulated =
            baseline.score && baseline.score->simulatedStepS && outcome.result.best.simulatedStepS;
        EXPECT_EQ(report["baselines"][i].contains("speedup_of_best"), simulated) << baseline.name;
    }
    // Same seed, same report (docs/search.md): the report is a function of its options.
    EXPECT_EQ(
        searchReportJson(searchScenario(scenario, options, environmentOf({})).result, options),
        report);
}

} // namespace
} // namespace ws
