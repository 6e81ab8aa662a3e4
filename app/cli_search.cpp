#include "cli_search.h"

#include "cli_commands.h"
#include "cli_options.h"
#include "cli_subcommand.h"

#include "command/search_command.h"
#include "evaluation/run_options.h"
#include "io/scenario_io.h"
#include "units/quantity.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <ostream>

namespace ws {

namespace {

struct SearchCommandOptions {
    std::string file;
    SearchOptions search;
    bool json = false;
    std::optional<std::string> outputPath;
};

SearchCommandOptions parseSearchOptions(const std::vector<std::string>& args) {
    SearchCommandOptions options;
    options.file = readSubcommandArguments(
        args, "a scenario FILE", [&](const std::string& arg, const auto& value) {
            if (arg == "--json")
                options.json = true;
            else if (arg == "--threads")
                options.search.threads =
                    parseIntegerOption<int>(arg, value(), 1, kMaxSearchThreads);
            else if (arg == "--seed")
                options.search.seed = parseIntegerOption<std::uint64_t>(
                    arg, value(), 0, std::numeric_limits<std::uint64_t>::max());
            else if (arg == "--budget")
                options.search.budget = parseIntegerOption<int>(arg, value(), 1, kMaxSearchBudget);
            else if (arg == "-o")
                options.outputPath = value();
            else
                return false;
            return true;
        });
    return options;
}

std::string scoreLine(const StrategyScore& score) {
    char line[256];
    const double stepS = score.simulatedStepS.value_or(score.analyticStepS);
    std::snprintf(line, sizeof line, "step %s%s, %.4g tokens/s, %s per die%s",
                  formatSeconds(stepS).c_str(), score.simulatedStepS ? "" : " (analytic)",
                  score.tokensPerSecond, formatBytes(score.memoryPerDieBytes).c_str(),
                  score.outOfMemory  ? " (OUT OF MEMORY)"
                  : score.fitsInSram ? " (fits in SRAM)"
                                     : "");
    return line;
}

void printSummary(const Scenario& scenario, const SearchResult& result, std::ostream& out) {
    if (!scenario.name.empty())
        out << scenario.name << '\n';
    out << "searched:  " << result.evaluations << " analytical evaluations by the GA, "
        << result.otherEvaluations << " by level 1 and the baselines, " << result.simulations
        << " full simulations\n";
    out << "level 1:   segments chosen by dynamic programming (best data-parallel degree)\n";
    for (const std::string& line : result.segmentPlan)
        out << "           " << line << '\n';
    out << "best:      " << result.best.label << '\n';
    out << "           " << scoreLine(result.best) << '\n';
    out << "top candidates (re-scored by the simulator):\n";
    for (std::size_t i = 0; i < result.top.size(); ++i) {
        const StrategyScore& score = result.top[i];
        out << "  " << i + 1 << ". " << score.label << "\n     analytic "
            << formatSeconds(score.analyticStepS) << ", " << scoreLine(score) << '\n';
    }
    out << "baselines (sequential mapping, each family's best configuration):\n";
    for (const BaselineScore& baseline : result.baselines) {
        out << "  " << baseline.name << ": ";
        if (!baseline.score) {
            out << baseline.whyNot << '\n';
            continue;
        }
        out << baseline.score->label << "\n     " << scoreLine(*baseline.score);
        if (baseline.score->simulatedStepS && result.best.simulatedStepS) {
            char speedup[64];
            std::snprintf(speedup, sizeof speedup, "; the best found is %.2fx faster",
                          *baseline.score->simulatedStepS / *result.best.simulatedStepS);
            out << speedup;
        }
        out << '\n';
    }
    for (const std::string& note : result.notes)
        out << "note:      " << note << '\n';
}

} // namespace

int runSearchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string file;
    return runSubcommand("search", file, err, [&] {
        const SearchCommandOptions options = parseSearchOptions(args);
        file = options.file;
        const Scenario scenario = loadScenario(file);
        const SearchOutcome outcome = searchScenario(
            scenario, options.search, frontEndRunOptions(), [&](const SearchProgress& progress) {
                char line[200];
                std::snprintf(line, sizeof line,
                              "search: %d/%d evaluations, best %s, %.1f s elapsed, ~%.1f s left\n",
                              progress.evaluations, progress.budget,
                              progress.bestStepS > 0 ? formatSeconds(progress.bestStepS).c_str()
                                                     : "none yet",
                              progress.elapsedS, progress.remainingS);
                err << line << std::flush;
            });
        const SearchResult& result = outcome.result;
        if (options.outputPath)
            saveScenario(result.bestScenario, *options.outputPath);
        if (options.json)
            out << searchReportJson(result, options.search).dump(2) << '\n';
        else
            printSummary(scenario, result, out);
        for (const std::string& note : outcome.environmentNotes)
            err << "environment: " << note << '\n';
        if (options.outputPath && !options.json)
            out << "best scenario written to " << *options.outputPath << '\n';
        return kExitOk;
    });
}

} // namespace ws
