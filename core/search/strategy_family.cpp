#include "search/strategy_family.h"

#include "scenario/scenario_error.h"
#include "search/strategy_scoring.h"

#include <algorithm>
#include <map>

namespace ws {

std::string strategyFamily(const StrategySpec& s) {
    if (s.tatp > 1)
        return "tatp";
    const bool modelParallel = s.tp > 1 || s.sp > 1;
    if (modelParallel && s.fsdp && s.dp > 1)
        return "fsdp_hybrid";
    if (s.tp > 1)
        return "tp_sp";
    if (s.sp > 1)
        return "sp";
    if (s.pp > 1)
        return "pp";
    return "dp";
}

const std::vector<std::string>& strategyFamilies() {
    static const std::vector<std::string> families{"tatp", "fsdp_hybrid", "tp_sp",
                                                   "sp",   "pp",          "dp"};
    return families;
}

std::vector<FamilyBest> familyBests(const Scenario& scenario, const WaferTopology& topology,
                                    const SearchResult& result, int perFamily,
                                    const std::function<bool()>& cancel) {
    // The search's own simulations, by strategy label, so that none runs twice.
    std::map<std::string, double> simulated;
    for (const StrategyScore& top : result.top)
        if (top.simulatedStepS)
            simulated.emplace(top.label, *top.simulatedStepS);
    std::map<std::string, int> tried; // per family: candidates re-scored so far
    std::map<std::string, FamilyBest> best;
    const auto keep = [&best](const std::string& family, StrategyScore score) {
        auto& slot = best[family];
        if (!slot.score.simulatedStepS || *score.simulatedStepS < *slot.score.simulatedStepS)
            slot = {family, std::move(score)};
    };
    // The search's own winners first: a family's best is never worse than what the search
    // found for it, whatever the analytical order (its top are simulated already).
    for (const StrategyScore& top : result.top)
        if (top.simulatedStepS && !top.outOfMemory)
            keep(strategyFamily(top.strategy), top);
    // result.candidates is in analytical order, best first.
    for (const StrategyScore& candidate : result.candidates) {
        if (candidate.outOfMemory)
            continue;
        const std::string family = strategyFamily(candidate.strategy);
        if (tried[family] >= perFamily)
            continue;
        ++tried[family];
        StrategyScore score = candidate;
        if (const auto known = simulated.find(candidate.label); known != simulated.end()) {
            score.simulatedStepS = known->second;
        } else {
            const std::optional<SimulatedStep> step =
                simulateFitting(scenario, candidate.strategy, topology, cancel);
            if (!step)
                continue;
            score.simulatedStepS = step->stepS;
            score.tokensPerSecond = step->tokensPerSecond;
        }
        keep(family, std::move(score));
    }
    std::vector<FamilyBest> ranked;
    for (auto& [family, entry] : best)
        ranked.push_back(std::move(entry));
    std::sort(ranked.begin(), ranked.end(), [](const FamilyBest& a, const FamilyBest& b) {
        if (*a.score.simulatedStepS != *b.score.simulatedStepS)
            return *a.score.simulatedStepS < *b.score.simulatedStepS;
        return a.family < b.family;
    });
    return ranked;
}

} // namespace ws
