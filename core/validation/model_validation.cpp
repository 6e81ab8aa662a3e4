#include "validation/model_validation.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "scenario/scenario_error.h"

#include <cmath>

namespace ws {

namespace {

// The point's scenario, read; its own errors name its file and key under the point's.
Scenario loadPointScenario(const ValidationPoint& point, const std::string& path) {
    try {
        return loadScenario(point.scenario);
    } catch (const ScenarioError& error) {
        throw ScenarioError(path + ".scenario", point.scenario.string() + ": " + error.what());
    }
}

double simulatedPoint(const Scenario& scenario, const ValidationPoint& point,
                      const std::string& path, const RunOptions& options) {
    try {
        return simulatedMetric(scenario, point.metric, options);
    } catch (const ScenarioError& error) {
        throw ScenarioError(path + ".scenario", point.scenario.string() + ": " + error.what());
    }
}

std::string pointPath(const ValidationSuite& suite, const ValidationPoint& point) {
    return "points[" + std::to_string(&point - suite.points.data()) + "]";
}

} // namespace

std::optional<double> PointResult::drift() const {
    if (!recorded)
        return std::nullopt;
    return (simulated - *recorded) / *recorded;
}

int ValidationResult::predictionCount() const {
    int count = 0;
    for (const PointResult& point : points)
        count += point.calibration ? 0 : 1;
    return count;
}

double ValidationResult::meanAbsoluteError() const {
    double sum = 0.0;
    for (const PointResult& point : points)
        if (!point.calibration)
            sum += std::abs(point.error());
    const int count = predictionCount();
    return count == 0 ? 0.0 : sum / count;
}

const PointResult* ValidationResult::worstPrediction() const {
    const PointResult* worst = nullptr;
    for (const PointResult& point : points)
        if (!point.calibration &&
            (worst == nullptr || std::abs(point.error()) > std::abs(worst->error())))
            worst = &point;
    return worst;
}

std::vector<const PointResult*> ValidationResult::drifted() const {
    std::vector<const PointResult*> moved;
    for (const PointResult& point : points)
        if (const auto drift = point.drift(); drift && std::abs(*drift) > tolerance)
            moved.push_back(&point);
    return moved;
}

double simulatedMetric(Scenario scenario, ValidationMetric metric, const RunOptions& options) {
    const SimulationReport report =
        simulateScenarioReport(std::move(scenario), options, ReportDetail::Summary);
    if (metric == ValidationMetric::StepS) {
        if (!report.step)
            throw ScenarioError("metric", "step_s needs a training step (a workload and a "
                                          "strategy); this scenario is traffic only");
        return report.step->stepS;
    }
    if (report.step)
        throw ScenarioError("metric", "makespan_s is a pure network experiment's; this scenario "
                                      "is a training step (use step_s)");
    return report.makespanS;
}

ValidationResult validateModel(const ValidationSuite& suite, const RunOptions& options) {
    ValidationResult result;
    result.suiteName = suite.name;
    result.tolerance = suite.tolerance;
    for (const ValidationPoint& point : suite.points) {
        const std::string path = pointPath(suite, point);
        const Scenario scenario = loadPointScenario(point, path);
        PointResult outcome;
        outcome.id = point.id;
        outcome.metric = point.metric;
        outcome.calibration = point.id == suite.calibrationPoint;
        outcome.published = point.published;
        outcome.recorded = point.recorded;
        outcome.source = point.source;
        outcome.simulated = simulatedPoint(scenario, point, path, options);
        if (outcome.calibration)
            result.calibratedEfficiency = scenario.wafer.die.efficiency;
        result.points.push_back(std::move(outcome));
    }
    return result;
}

EfficiencyCalibration calibrateEfficiency(const ValidationSuite& suite, const RunOptions& options) {
    const ValidationPoint& point = suite.calibration();
    const std::string path = pointPath(suite, point);
    Scenario scenario = loadPointScenario(point, path);
    EfficiencyCalibration calibration;
    calibration.currentEfficiency = scenario.wafer.die.efficiency;
    const auto stepAt = [&](double efficiency) {
        scenario.wafer.die.efficiency = efficiency;
        return simulatedPoint(scenario, point, path, options);
    };
    // Bracket: the slowest efficiency worth trying (1%) and the fastest (1, the peak).
    double low = 0.01;
    double high = 1.0;
    const double fastest = stepAt(high);
    if (fastest > point.published)
        throw ScenarioError(
            "calibration", "\"" + point.id + "\" simulates " + std::to_string(fastest) +
                               " s even at the GPU's peak (efficiency 1), slower than the "
                               "published " +
                               std::to_string(point.published) + " s: no efficiency reproduces it");
    if (stepAt(low) < point.published)
        throw ScenarioError("calibration", "\"" + point.id +
                                               "\" is faster than published even at efficiency "
                                               "0.01: the step is not compute-bound enough to "
                                               "calibrate on");
    while ((high - low) > 1e-6 * high) {
        const double middle = 0.5 * (low + high);
        (stepAt(middle) > point.published ? low : high) = middle;
    }
    calibration.efficiency = high;
    calibration.simulated = stepAt(high);
    return calibration;
}

nlohmann::ordered_json validationJson(const ValidationResult& result) {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const PointResult& point : result.points) {
        nlohmann::ordered_json entry;
        entry["id"] = point.id;
        entry["metric"] = toString(point.metric);
        entry["role"] = point.calibration ? "calibration" : "prediction";
        entry["published"] = point.published;
        entry["simulated"] = point.simulated;
        entry["error"] = point.error();
        if (point.recorded) {
            entry["recorded"] = *point.recorded;
            entry["drift"] = *point.drift();
        }
        entry["source"] = point.source;
        points.push_back(std::move(entry));
    }
    nlohmann::ordered_json document;
    document["suite"] = result.suiteName;
    document["calibrated_efficiency"] = result.calibratedEfficiency;
    document["points"] = std::move(points);
    document["predictions"] = result.predictionCount();
    document["mean_absolute_error"] = result.meanAbsoluteError();
    if (const PointResult* worst = result.worstPrediction())
        document["worst"] = {{"id", worst->id}, {"error", worst->error()}};
    document["tolerance"] = result.tolerance;
    nlohmann::ordered_json drifted = nlohmann::ordered_json::array();
    for (const PointResult* point : result.drifted())
        drifted.push_back(point->id);
    document["drifted"] = std::move(drifted);
    return document;
}

} // namespace ws
