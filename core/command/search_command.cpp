#include "command/search_command.h"

#include "evaluation/scenario_run.h"
#include "io/strategy_reader.h"
#include "topology/wafer_topology.h"

#include <utility>

namespace ws {

namespace {

nlohmann::json scoreToJson(const StrategyScore& score) {
    return {{"strategy", toJson(score.strategy)},
            {"label", score.label},
            {"analytic_step_s", score.analyticStepS},
            {"simulated_step_s",
             score.simulatedStepS ? nlohmann::json(*score.simulatedStepS) : nlohmann::json()},
            {"tokens_per_second", score.tokensPerSecond},
            {"memory_per_die_bytes", score.memoryPerDieBytes},
            {"out_of_memory", score.outOfMemory},
            {"fits_in_sram", score.fitsInSram}};
}

nlohmann::json scoresToJson(const std::vector<StrategyScore>& scores) {
    nlohmann::json array = nlohmann::json::array();
    for (const StrategyScore& score : scores)
        array.push_back(scoreToJson(score));
    return array;
}

nlohmann::json baselineToJson(const BaselineScore& baseline, const StrategyScore& best) {
    nlohmann::json entry = {
        {"name", baseline.name},
        {"family", baseline.family},
        {"score", baseline.score ? scoreToJson(*baseline.score) : nlohmann::json()},
        {"why_not", baseline.whyNot}};
    if (baseline.score && baseline.score->simulatedStepS && best.simulatedStepS)
        entry["speedup_of_best"] = *baseline.score->simulatedStepS / *best.simulatedStepS;
    return entry;
}

} // namespace

SearchOutcome searchScenario(Scenario scenario, const SearchOptions& search,
                             const RunOptions& options,
                             const std::function<void(const SearchProgress&)>& progress) {
    SearchOutcome outcome;
    outcome.environmentNotes = applyRunEnvironment(scenario, options).notes;
    const WaferTopology topology(scenario.topologySpec());
    outcome.result = searchStrategies(scenario, topology, search, options.cancel, progress);
    return outcome;
}

nlohmann::json searchReportJson(const SearchResult& result, const SearchOptions& search) {
    nlohmann::json baselines = nlohmann::json::array();
    for (const BaselineScore& baseline : result.baselines)
        baselines.push_back(baselineToJson(baseline, result.best));
    return {{"seed", search.seed},
            {"budget", search.budget},
            {"evaluations", result.evaluations},
            {"other_evaluations", result.otherEvaluations},
            {"simulations", result.simulations},
            {"cancelled", result.cancelled},
            {"best", scoreToJson(result.best)},
            {"tcme_improved", result.tcmeImproved},
            {"top", scoresToJson(result.top)},
            {"baselines", std::move(baselines)},
            {"segment_plan", result.segmentPlan},
            {"notes", result.notes},
            {"candidates", scoresToJson(result.candidates)}};
}

} // namespace ws
