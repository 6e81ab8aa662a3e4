#include "search/strategy_scoring.h"

#include "evaluation/scenario_run.h"
#include "scenario/scenario_error.h"
#include "search/search_space.h"

namespace ws {

StrategyScore analyticScore(const StrategySpec& strategy, const AnalyticEstimate& estimate,
                            double tokensPerStep) {
    StrategyScore score;
    score.strategy = strategy;
    score.label = strategyLabel(strategy);
    score.analyticStepS = estimate.stepS;
    score.tokensPerSecond = estimate.stepS > 0.0 ? tokensPerStep / estimate.stepS : 0.0;
    score.memoryPerDieBytes = estimate.memory.total();
    score.outOfMemory = estimate.memory.outOfMemory();
    score.fitsInSram = estimate.memory.fitsInSram();
    return score;
}

Scenario withStrategy(const Scenario& scenario, const StrategySpec& strategy) {
    Scenario copy = scenario;
    copy.strategy = strategy;
    if (!copy.routing)
        return copy;
    // Keep only the pins of the explicit traffic: "<op id>" or "<op id>/s<step>/r<rank>".
    auto pinsExplicitTraffic = [&](const std::string& id) {
        for (const TrafficOp& op : scenario.traffic)
            if (id == op.id || id.starts_with(op.id + "/"))
                return true;
        return false;
    };
    std::erase_if(copy.routing->paths,
                  [&](const auto& pin) { return !pinsExplicitTraffic(pin.first); });
    return copy;
}

SimulatedStep simulateStep(const Scenario& scenario, const WaferTopology& topology,
                           const std::function<bool()>& cancel) {
    RunOptions options;
    options.topology = borrowTopology(topology);
    options.cancel = cancel;
    const ScenarioRun run = prepareRun(scenario, options);
    if (!run.step)
        throw ScenarioError("strategy", "the search scores training steps: the scenario needs "
                                        "a workload and a strategy");
    const TrainingStep& step = *run.step;
    SimulatedStep out;
    out.stepS = stepTiming(step, simulateRun(run, options)).stepS;
    out.tokensPerSecond = out.stepS > 0.0 ? step.workload.tokensPerStep() / out.stepS : 0.0;
    out.memoryPerDieBytes = step.plan.memory.total();
    out.outOfMemory = step.plan.memory.outOfMemory();
    out.fitsInSram = step.plan.memory.fitsInSram();
    return out;
}

std::optional<SimulatedStep> simulateFitting(const Scenario& scenario, const StrategySpec& strategy,
                                             const WaferTopology& topology,
                                             const std::function<bool()>& cancel) {
    try {
        const SimulatedStep step = simulateStep(withStrategy(scenario, strategy), topology, cancel);
        if (step.outOfMemory)
            return std::nullopt;
        return step;
    } catch (const ScenarioError&) {
        return std::nullopt;
    }
}

} // namespace ws
