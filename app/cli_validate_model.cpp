#include "cli_validate_model.h"

#include "cli_commands.h"
#include "cli_options.h"
#include "cli_subcommand.h"

#include "evaluation/run_options.h"
#include "units/quantity.h"
#include "validation/model_validation.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace ws {

namespace {

// "+12.3%": a signed fraction as a percentage.
std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f%%", 100.0 * fraction);
    return text;
}

std::string padded(const std::string& text, std::size_t width) {
    return text.size() >= width ? text + ' ' : text + std::string(width - text.size(), ' ');
}

void printResult(const ValidationResult& result, const std::string& file, std::ostream& out) {
    out << result.suiteName << "\n(" << file << "; every simulated value from the simulator, "
        << "the published ones measured)\n";
    char efficiency[32];
    std::snprintf(efficiency, sizeof efficiency, "%.4g", result.calibratedEfficiency);
    out << "calibrated: GPU efficiency " << efficiency
        << " (the one fitted parameter, on the calibration point only)\n\n";
    std::size_t width = 10;
    for (const PointResult& point : result.points)
        width = std::max(width, point.id.size() + (point.calibration ? 14 : 0) + 2);
    out << padded("point", width) << padded("published", 13) << padded("simulated", 13)
        << padded("error", 9) << "drift\n";
    for (const PointResult& point : result.points) {
        const auto drift = point.drift();
        out << padded(point.id + (point.calibration ? " (calibration)" : ""), width)
            << padded(formatSeconds(point.published), 13)
            << padded(formatSeconds(point.simulated), 13) << padded(percent(point.error()), 9)
            << (drift ? percent(*drift) : "-") << '\n';
    }
    out << '\n';
    if (const PointResult* worst = result.worstPrediction())
        out << "predictions: " << result.predictionCount() << ", mean |error| "
            << percent(result.meanAbsoluteError()).substr(1) << ", worst "
            << percent(worst->error()) << " (" << worst->id << ")\n";
    const auto drifted = result.drifted();
    if (drifted.empty()) {
        out << "regression: every recorded point within " << percent(result.tolerance).substr(1)
            << " of its recorded value\n";
        return;
    }
    out << "regression: " << drifted.size() << " point(s) moved more than "
        << percent(result.tolerance).substr(1) << " from their recorded value:";
    for (const PointResult* point : drifted)
        out << ' ' << point->id;
    out << "\n(if the model change is intended, review docs/validation.md section 10 and record "
           "the new values)\n";
}

void printCalibration(const ValidationSuite& suite, const EfficiencyCalibration& calibration,
                      std::ostream& out) {
    const ValidationPoint& point = suite.calibration();
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s: published %s; GPU efficiency %.5f reproduces it (simulated %s); the "
                  "scenario has %.5f today\n",
                  point.id.c_str(), formatSeconds(point.published).c_str(), calibration.efficiency,
                  formatSeconds(calibration.simulated).c_str(), calibration.currentEfficiency);
    out << line;
}

} // namespace

int runValidateModelCommand(const std::vector<std::string>& args, std::ostream& out,
                            std::ostream& err) {
    std::string file;
    return runSubcommand("validate-model", file, err, [&] {
        bool json = false;
        bool calibrate = false;
        file = readSubcommandArguments(args, "a validation suite SUITE.json",
                                       [&](const std::string& arg, const auto&) {
                                           if (arg == "--json")
                                               json = true;
                                           else if (arg == "--calibrate")
                                               calibrate = true;
                                           else
                                               return false;
                                           return true;
                                       });
        if (json && calibrate)
            throw CliUsageError{"--json and --calibrate do not go together"};
        const ValidationSuite suite = loadValidationSuite(file);
        // Without the environment's overrides (TCME_MAX_ITER, ...): a suite is compared as written.
        RunOptions options;
        if (calibrate) {
            printCalibration(suite, calibrateEfficiency(suite, options), out);
            return kExitOk;
        }
        const ValidationResult result = validateModel(suite, options);
        if (json)
            out << validationJson(result).dump(2) << '\n';
        else
            printResult(result, file, out);
        return result.drifted().empty() ? kExitOk : kExitRunFailed;
    });
}

} // namespace ws
