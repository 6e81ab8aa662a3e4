// The model against published measurements (validation/model_validation.h, docs/validation.md
// section 10): the shipped suite's regression check, the calibration that the dgx-a100-selene
// preset's efficiency comes from, the nccl-tests points against their closed form, and errors
// that name the point's scenario file.
#include "evaluation/run_options.h"
#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "scenario/scenario_error.h"
#include "validation/model_validation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ws {
namespace {

namespace fs = std::filesystem;

const fs::path kSuite = fs::path(WAFERSCOPE_VALIDATION_DIR) / "suite.json";

const PointResult& pointNamed(const ValidationResult& result, const std::string& id) {
    for (const PointResult& point : result.points)
        if (point.id == id)
            return point;
    throw std::out_of_range(id);
}

// The regression check the issue asks for: a model change that moves any point of the shipped
// suite more than the suite's tolerance (1%) from its recorded value fails here. If the change
// is intended, review docs/validation.md section 10 and record the new values.
TEST(ModelValidation, ShippedSuiteStaysWithinItsToleranceOfTheRecordedValues) {
    const ValidationSuite suite = loadValidationSuite(kSuite);
    ASSERT_GE(suite.points.size(), 13u);
    const ValidationResult result = validateModel(suite, RunOptions{});
    for (const PointResult& point : result.points) {
        ASSERT_TRUE(point.recorded.has_value()) << point.id << " has no recorded value";
        EXPECT_LE(std::abs(*point.drift()), suite.tolerance)
            << point.id << ": simulated " << point.simulated << " s, recorded " << *point.recorded
            << " s";
    }
    EXPECT_TRUE(result.drifted().empty());
    EXPECT_EQ(result.predictionCount(), static_cast<int>(suite.points.size()) - 1);
}

// The preset's efficiency is the calibration's result, rounded to 3 digits: the calibration
// point reproduces its published time within that rounding, and recalibrating today finds
// the same value (a model change that shifts the calibration fails here until the preset and
// docs/hardware.md are updated with the new fit).
TEST(ModelValidation, PresetEfficiencyIsTheCalibrationOfTheMegatron22bPoint) {
    const ValidationSuite suite = loadValidationSuite(kSuite);
    const EfficiencyCalibration calibration = calibrateEfficiency(suite, RunOptions{});
    EXPECT_NEAR(calibration.simulated, suite.calibration().published,
                1e-5 * suite.calibration().published);
    EXPECT_NEAR(calibration.efficiency, calibration.currentEfficiency, 0.0005);

    const ValidationResult result = validateModel(suite, RunOptions{});
    const PointResult& calibrated = pointNamed(result, suite.calibrationPoint);
    EXPECT_TRUE(calibrated.calibration);
    EXPECT_LT(std::abs(calibrated.error()), 0.002);
    EXPECT_DOUBLE_EQ(result.calibratedEfficiency, calibration.currentEfficiency);
}

// The nccl-tests points are ring all-reduces over the 8 GPUs of one node: each simulates to
// the closed form of docs/network-model.md section 12.1, 2 (P - 1) / P N / B_intra +
// 2 (P - 1) x 2 a_intra (two links per hop through the node switch), with the preset's
// B_intra = 300 GB/s and a_intra = 1 us.
// docs/network-model.md section 4.8: the ring over the 8 GPUs of one node with the fastest of the
// preset's fitted protocols, the closed form scripts/fit_nccl_protocols.py fits:
// 2 (P - 1) x 2 a + min over protocols of (L + 2 (P - 1)/P N / (e B)).
TEST(ModelValidation, NcclAllReducePointsAreTheFittedClosedForm) {
    const double bandwidth = 300e9;
    const double latency = 1e-6;
    // dgx-a100-selene's (latency, efficiency) per protocol (docs/hardware.md section 5.1).
    const std::vector<std::pair<double, double>> protocols = {
        {16.7e-6, 0.05}, {14.1e-6, 0.404}, {161.1e-6, 0.773}};
    for (const auto& [id, bytes] : {std::pair{"nccl-allreduce-1mib", 1048576.0},
                                    std::pair{"nccl-allreduce-128mib", 134217728.0},
                                    std::pair{"nccl-allreduce-8gib", 8589934592.0}}) {
        double fastest = 1.0;
        for (const auto& [protocolS, efficiency] : protocols)
            fastest =
                std::min(fastest, protocolS + 2.0 * 7.0 / 8.0 * bytes / (efficiency * bandwidth));
        const double closedForm = fastest + 2.0 * 7.0 * 2.0 * latency;
        const fs::path file = fs::path(WAFERSCOPE_VALIDATION_DIR) /
                              ("nccl_allreduce_" + std::string(id).substr(15) + ".json");
        const double simulated =
            simulatedMetric(loadScenario(file), ValidationMetric::MakespanS, RunOptions{});
        EXPECT_NEAR(simulated, closedForm, 1e-9 * closedForm) << id;
    }
}

// The summary figures are over the predictions only, never the calibration point.
TEST(ModelValidation, MeanAndWorstErrorLeaveOutTheCalibrationPoint) {
    ValidationResult result;
    result.tolerance = 0.01;
    const auto point = [](std::string id, bool calibration, double published, double simulated) {
        PointResult made;
        made.id = std::move(id);
        made.calibration = calibration;
        made.published = published;
        made.simulated = simulated;
        return made;
    };
    result.points = {point("fit", true, 1.0, 3.0), point("over", false, 2.0, 2.2),
                     point("under", false, 4.0, 3.0)};
    result.points[2].recorded = 2.9;
    EXPECT_EQ(result.predictionCount(), 2);
    EXPECT_NEAR(result.meanAbsoluteError(), (0.1 + 0.25) / 2.0, 1e-12);
    ASSERT_NE(result.worstPrediction(), nullptr);
    EXPECT_EQ(result.worstPrediction()->id, "under");
    ASSERT_EQ(result.drifted().size(), 1u); // 3.0 against 2.9 recorded: 3.4% > 1%
    EXPECT_EQ(result.drifted()[0]->id, "under");
}

// The wafer-against-cluster comparison of docs/validation.md section 11: every side is a
// training step that fits its dies' memory (a strategy that ran out of memory would compare
// nothing), and the wafer's two efficiencies order as they must: at the A100's calibrated one the
// same strategy is never faster than at 1.
TEST(ModelValidation, WaferAgainstClusterScenariosFitAndSlowerDiesAreNeverFaster) {
    const fs::path dir = fs::path(WAFERSCOPE_VALIDATION_DIR) / "comparison";
    int files = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const SimulationReport report =
            simulateScenarioReport(loadScenario(entry.path()), RunOptions{}, ReportDetail::Summary);
        ASSERT_TRUE(report.step.has_value()) << entry.path();
        EXPECT_GT(report.step->stepS, 0.0) << entry.path();
        for (const DieReport& die : report.dies) {
            if (die.memory) {
                EXPECT_FALSE(die.memory->outOfMemory()) << entry.path() << " die " << die.id;
            }
        }
        ++files;
    }
    EXPECT_EQ(files, 7); // two wafers at two efficiencies each, three clusters
    const double atPeak = simulatedMetric(loadScenario(dir / "gpt3_13b_wafer_4x8_312tf.json"),
                                          ValidationMetric::StepS, RunOptions{});
    const double atA100 =
        simulatedMetric(loadScenario(dir / "gpt3_13b_wafer_4x8_312tf_a100_efficiency.json"),
                        ValidationMetric::StepS, RunOptions{});
    EXPECT_GT(atA100, atPeak);
}

TEST(ModelValidation, APointWhoseScenarioIsBadNamesTheSuiteKeyAndTheScenarioFile) {
    const fs::path dir =
        fs::temp_directory_path() / ("ws_validation_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "bad.json") << R"({"format": "waferscope.scenario", "version": 1,
        "cluster": {"preset": "dgx-a100-selene", "nodes": 0}})";
    std::ofstream(dir / "suite.json") << R"({"format": "waferscope.validation", "version": 1,
        "calibration": "bad", "points": [{"id": "bad", "scenario": "bad.json",
        "metric": "step_s", "published": 1, "source": "none"}]})";
    try {
        validateModel(loadValidationSuite(dir / "suite.json"), RunOptions{});
        ADD_FAILURE() << "a bad scenario was simulated";
    } catch (const ScenarioError& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.rfind("points[0].scenario: ", 0), 0u) << message;
        EXPECT_NE(message.find("bad.json: cluster.nodes"), std::string::npos) << message;
    }
    fs::remove_all(dir);
}

} // namespace
} // namespace ws
