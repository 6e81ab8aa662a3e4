// Reading a validation suite (validation/validation_suite.h, docs/file-format.md "Validation
// suites"): its points and calibration, and an error at the key for every malformed field.
#include "scenario/scenario_error.h"
#include "validation/validation_suite.h"

#include <gtest/gtest.h>

#include <string>

namespace ws {
namespace {

// A suite of one training step (the calibration) and one collective, with `extra` spliced
// into the first point.
std::string suiteText(const std::string& extra = "", const std::string& calibration = "step") {
    return R"({"format": "waferscope.validation", "version": 1, "name": "two points",
      "calibration": ")" +
           calibration + R"(", "tolerance": 0.02,
      "points": [
        {"id": "step", "scenario": "step.json", "metric": "step_s", "published": 1.42,
         "source": "a paper", "recorded": 1.4)" +
           extra + R"(},
        {"id": "collective", "scenario": "ar.json", "metric": "makespan_s",
         "published": 8.2e-3, "source": "nccl-tests"}]})";
}

std::string errorOf(const std::string& text) {
    try {
        parseValidationSuite(text, "suites");
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return "(no error)";
}

TEST(ValidationSuite, ReadsPointsWithTheirMetricsAndTheCalibration) {
    const ValidationSuite suite = parseValidationSuite(suiteText(), "suites");
    EXPECT_EQ(suite.name, "two points");
    EXPECT_DOUBLE_EQ(suite.tolerance, 0.02);
    ASSERT_EQ(suite.points.size(), 2u);
    EXPECT_EQ(suite.points[0].scenario, std::filesystem::path("suites") / "step.json");
    EXPECT_EQ(suite.points[0].metric, ValidationMetric::StepS);
    EXPECT_DOUBLE_EQ(suite.points[0].published, 1.42);
    ASSERT_TRUE(suite.points[0].recorded.has_value());
    EXPECT_DOUBLE_EQ(*suite.points[0].recorded, 1.4);
    EXPECT_EQ(suite.points[1].metric, ValidationMetric::MakespanS);
    EXPECT_FALSE(suite.points[1].recorded.has_value());
    EXPECT_EQ(&suite.calibration(), &suite.points[0]);
}

TEST(ValidationSuite, ErrorsNameTheKeyAndTheProblem) {
    EXPECT_EQ(errorOf(suiteText(R"(, "publisehd": 2)")),
              "points[0].publisehd: unknown key 'publisehd'; did you mean 'published'?");
    EXPECT_NE(errorOf(suiteText(R"(, "metric": "step")")).find("duplicate key 'metric'"),
              std::string::npos);
    EXPECT_EQ(errorOf(suiteText("", "nowhere")), "calibration: no point has the id \"nowhere\"");
    EXPECT_NE(errorOf(suiteText("", "collective"))
                  .find("calibration: the point \"collective\" "
                        "is not a training step"),
              std::string::npos);
    std::string negative = suiteText();
    negative.replace(negative.find("1.42"), 4, "-1.0");
    EXPECT_NE(errorOf(negative).find("points[0].published: must be"), std::string::npos);
    std::string metric = suiteText();
    metric.replace(metric.find("\"step_s\""), 8, "\"steps\"");
    EXPECT_NE(errorOf(metric).find("points[0].metric: must be \"step_s\""), std::string::npos);
    std::string duplicate = suiteText();
    duplicate.replace(duplicate.find("\"collective\""), 12, "\"step\"");
    EXPECT_EQ(errorOf(duplicate), "points[1].id: \"step\" is used by an earlier point");
    EXPECT_EQ(errorOf(R"({"format": "waferscope.validation", "version": 1, "calibration": "a",
                          "points": []})"),
              "points: must be a non-empty list of points");
}

} // namespace
} // namespace ws
