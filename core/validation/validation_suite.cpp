#include "validation/validation_suite.h"

#include "io/json_fields.h"
#include "io/scenario_io.h"
#include "io/strict_json.h"
#include "scenario/scenario_error.h"

#include <limits>
#include <set>

namespace ws {

namespace {

ValidationMetric readMetric(const JsonFields& fields) {
    const std::string name = fields.string("metric");
    if (name == "step_s")
        return ValidationMetric::StepS;
    if (name == "makespan_s")
        return ValidationMetric::MakespanS;
    fields.fail("metric",
                "must be \"step_s\" (a training step) or \"makespan_s\" (traffic), got \"" + name +
                    "\"");
}

ValidationPoint readPoint(const nlohmann::json& object, const std::string& path,
                          const std::filesystem::path& directory) {
    if (!object.is_object())
        throw ScenarioError(path, "must be an object: {\"id\", \"scenario\", \"metric\", "
                                  "\"published\", \"source\", \"recorded\"}");
    const JsonFields fields = JsonFields::nested(object, path);
    fields.rejectUnknownKeys({"id", "scenario", "metric", "published", "source", "recorded"});
    ValidationPoint point;
    point.id = fields.string("id");
    if (point.id.empty())
        fields.fail("id", "must not be empty");
    point.scenario = directory / fields.string("scenario");
    point.metric = readMetric(fields);
    constexpr double kMax = std::numeric_limits<double>::max();
    if (!fields.has("published"))
        fields.fail("published", "required key 'published' is missing (the measured seconds)");
    point.published = fields.number("published", 1e-12, kMax, 0.0);
    point.source = fields.string("source");
    if (fields.has("recorded"))
        point.recorded = fields.number("recorded", 1e-12, kMax, 0.0);
    return point;
}

} // namespace

const char* toString(ValidationMetric metric) {
    return metric == ValidationMetric::StepS ? "step_s" : "makespan_s";
}

const ValidationPoint& ValidationSuite::calibration() const {
    for (const ValidationPoint& point : points)
        if (point.id == calibrationPoint)
            return point;
    throw ScenarioError("calibration", "no point has the id \"" + calibrationPoint + "\"");
}

ValidationSuite parseValidationSuite(const std::string& text,
                                     const std::filesystem::path& directory) {
    const nlohmann::json document = parseStrictJson(text);
    if (!document.is_object())
        throw ScenarioError("", "a validation suite is a JSON object");
    const JsonFields fields = JsonFields::nested(document, "");
    fields.rejectUnknownKeys({"format", "version", "name", "calibration", "tolerance", "points"});
    if (fields.string("format") != "waferscope.validation")
        fields.fail("format", "must be \"waferscope.validation\"");
    fields.integer("version", 1, 1);

    ValidationSuite suite;
    suite.name = fields.string("name", "");
    suite.tolerance = fields.number("tolerance", 1e-9, 1.0, suite.tolerance);
    const nlohmann::json* points = fields.find("points");
    if (points == nullptr || !points->is_array() || points->empty())
        fields.fail("points", "must be a non-empty list of points");
    std::set<std::string> ids;
    for (std::size_t i = 0; i < points->size(); ++i) {
        const std::string path = "points[" + std::to_string(i) + "]";
        ValidationPoint point = readPoint((*points)[i], path, directory);
        if (!ids.insert(point.id).second)
            throw ScenarioError(path + ".id", "\"" + point.id + "\" is used by an earlier point");
        suite.points.push_back(std::move(point));
    }

    // The calibration: one point, a training step (the efficiency does not act on traffic).
    suite.calibrationPoint = fields.string("calibration");
    if (!ids.contains(suite.calibrationPoint))
        fields.fail("calibration", "no point has the id \"" + suite.calibrationPoint + "\"");
    if (suite.calibration().metric != ValidationMetric::StepS)
        fields.fail("calibration", "the point \"" + suite.calibrationPoint +
                                       "\" is not a training step (metric step_s): the GPU's "
                                       "efficiency cannot be calibrated on traffic alone");
    return suite;
}

ValidationSuite loadValidationSuite(const std::filesystem::path& file) {
    return parseValidationSuite(readWholeFile(file), file.parent_path());
}

} // namespace ws
