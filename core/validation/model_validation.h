#pragma once

#include "evaluation/run_options.h"
#include "scenario/scenario.h"
#include "validation/validation_suite.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ws {

// The model against published measurements (docs/validation.md section 10): every point of a
// suite simulated through the one pipeline (evaluation/scenario_run.h), with its error against
// the measurement and its drift from the value recorded when the suite was last reviewed.

struct PointResult {
    std::string id;
    ValidationMetric metric = ValidationMetric::StepS;
    bool calibration = false; // the point the GPU efficiency was fitted to: not a prediction
    double published = 0.0;
    double simulated = 0.0;
    std::optional<double> recorded;
    std::string source;

    double error() const { return (simulated - published) / published; }
    std::optional<double> drift() const; // (simulated - recorded) / recorded
};

struct ValidationResult {
    std::string suiteName;
    double tolerance = 0.0;
    double calibratedEfficiency = 0.0; // the calibration point's GPU efficiency as simulated
    std::vector<PointResult> points;   // in the suite's order

    // Over the predictions (every point but the calibration one): the mean of |error| and the
    // point with the largest |error|. 0 and nullptr when the suite has only its calibration.
    int predictionCount() const;
    double meanAbsoluteError() const;
    const PointResult* worstPrediction() const;
    // The points whose |drift| exceeds the tolerance (a model change moved them).
    std::vector<const PointResult*> drifted() const;
};

// The simulated value of `metric` for `scenario`: the step time of a training step, the
// makespan of a pure network experiment. A scenario that is not what the metric needs (step_s
// of a scenario without a workload) is a ScenarioError at "metric".
double simulatedMetric(Scenario scenario, ValidationMetric metric, const RunOptions& options);

// Simulates every point of the suite. A point whose scenario cannot be read or simulated is a
// ScenarioError at "points[i].scenario" naming the scenario file and its own key.
ValidationResult validateModel(const ValidationSuite& suite, const RunOptions& options);

// The GPU efficiency (wafer.die.efficiency, docs/compute-model.md) at which the calibration
// point's simulated step equals its published one, found by bisection: a step never gets slower
// when the GPU gets faster (tests/core/evaluation's metamorphic tests), so the step time falls
// monotonically in the efficiency. Throws ScenarioError at "calibration" when no efficiency in
// (0, 1] reaches the published time.
struct EfficiencyCalibration {
    double efficiency = 0.0;        // relative precision 1e-6
    double simulated = 0.0;         // the step at that efficiency
    double currentEfficiency = 0.0; // what the point's scenario (its preset) has today
};
EfficiencyCalibration calibrateEfficiency(const ValidationSuite& suite, const RunOptions& options);

// `validate-model --json` (docs/cli.md section 12).
nlohmann::ordered_json validationJson(const ValidationResult& result);

} // namespace ws
