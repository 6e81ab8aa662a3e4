#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// What a validation point compares: the simulated training step (a scenario with a workload,
// the report's step.step_s) or the simulated traffic's makespan (a pure network experiment, the
// report's makespan_s; a collective as nccl-tests times it).
enum class ValidationMetric { StepS, MakespanS };

const char* toString(ValidationMetric metric); // "step_s", "makespan_s"

// One published, measured figure and the scenario that reproduces it (docs/validation.md
// section 10, docs/file-format.md "Validation suites").
struct ValidationPoint {
    std::string id;
    std::filesystem::path scenario; // resolved against the suite file's folder
    ValidationMetric metric = ValidationMetric::StepS;
    double published = 0.0; // seconds, as measured
    std::string source;     // where the measurement is published
    // The simulated value when the suite was last reviewed: the regression check fails when a
    // model change moves the simulation more than the suite's tolerance away from it.
    std::optional<double> recorded;
};

// A suite: its points, the one point the hardware efficiency was calibrated on (every other
// point is a prediction) and the regression tolerance, a fraction of `recorded`.
struct ValidationSuite {
    std::string name;
    std::string calibrationPoint; // the id of a point whose metric is step_s
    double tolerance = 0.01;
    std::vector<ValidationPoint> points;

    const ValidationPoint& calibration() const;
};

// Reads a suite file (format "waferscope.validation", version 1). Every problem is a
// ScenarioError at the suite's key ("points[2].published: must be ..."); a point's scenario is
// not read here (model_validation.h reads it, and names it in its errors).
ValidationSuite parseValidationSuite(const std::string& text,
                                     const std::filesystem::path& directory = {});
ValidationSuite loadValidationSuite(const std::filesystem::path& file);

} // namespace ws
