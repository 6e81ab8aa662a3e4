#include "search/nearest_strategies.h"

#include "scenario/scenario_error.h"
#include "search/analytic_evaluator.h"
#include "search/search_space.h"
#include "search/strategy_scoring.h"
#include "sim/run_cancelled.h"

#include <algorithm>
#include <set>

namespace ws {

namespace {

// Ring-2 candidates come from this many of the nearest ring-1 strategies, so that the search
// stays a few hundred analytical evaluations (about a millisecond each on GPT-3 175B).
constexpr std::size_t kRing2Parents = 16;
// Simulated per strategy offered: some that the analytical model passes, the builder refuses.
constexpr int kSimulatedPerOffer = 2;

std::string onOff(bool on) {
    return on ? "on" : "off";
}

// The mapping as a user reads it: "sequential", "snake", "explicit groups".
std::string mappingText(const StrategySpec& s) {
    return s.mapping == StrategySpec::Explicit ? "explicit groups" : toString(s.mapping);
}

struct Candidate {
    Genome genome;
    StrategySpec strategy;
    std::vector<std::string> changes; // strategyChanges from the scenario's strategy
    AnalyticEstimate estimate;
};

} // namespace

std::vector<std::string> strategyChanges(const StrategySpec& from, const StrategySpec& to) {
    std::vector<std::string> out;
    const auto degree = [&](const char* name, int a, int b) {
        if (a != b)
            out.push_back(std::string(name) + " " + std::to_string(a) + " -> " + std::to_string(b));
    };
    const auto flag = [&](const char* name, bool a, bool b) {
        if (a != b)
            out.push_back(std::string(name) + " " + onOff(b));
    };
    degree("pp", from.pp, to.pp);
    degree("dp", from.dp, to.dp);
    degree("sp", from.sp, to.sp);
    degree("tp", from.tp, to.tp);
    degree("tatp", from.tatp, to.tatp);
    flag("fsdp", from.fsdp, to.fsdp);
    flag("multicast fsdp all-gather", from.fsdpAllGatherMulticast, to.fsdpAllGatherMulticast);
    if (from.activationCheckpointing != to.activationCheckpointing)
        out.push_back(std::string("checkpointing ") + toString(from.activationCheckpointing) +
                      " -> " + toString(to.activationCheckpointing));
    flag("sequence parallelism", from.sequenceParallel, to.sequenceParallel);
    flag("tp_overlap", from.tpOverlap, to.tpOverlap);
    flag("bidirectional rings", from.bidirectionalRings, to.bidirectionalRings);
    flag("double buffering", from.doubleBuffering, to.doubleBuffering);
    degree("micro-batches", from.microBatches, to.microBatches);
    if (from.mapping != to.mapping || from.dpGroups != to.dpGroups ||
        from.tatpGroups != to.tatpGroups)
        out.push_back("mapping " + mappingText(from) + " -> " + mappingText(to));
    return out;
}

std::vector<NearStrategy> nearestFittingStrategies(const Scenario& scenario,
                                                   const WaferTopology& topology, int count,
                                                   const std::function<bool()>& cancel) {
    if (!scenario.workload)
        throw ScenarioError("workload", "nearest strategies need a workload");
    if (!scenario.strategy)
        throw ScenarioError("strategy", "nearest strategies need a strategy to start from");
    const StrategySpec& current = *scenario.strategy;
    const Workload& workload = *scenario.workload;
    const SearchSpace space(workload, topology);
    const AnalyticEvaluator evaluator(workload, scenario.wafer, topology, scenario.routingMode(),
                                      scenario.linkTierSpeeds(), scenario.tierProtocols());
    const Genome start = SearchSpace::genomeOf(current);

    std::set<std::uint64_t> seen{start.key()};
    std::vector<Candidate> fitting;
    // Evaluates the unseen genomes of `ring`; returns them, nearest first, fitting or not.
    const auto visit = [&](const std::vector<Genome>& ring) {
        std::vector<Candidate> visited;
        for (const Genome& g : ring) {
            if (!seen.insert(g.key()).second)
                continue;
            throwIfCancelled(cancel);
            StrategySpec strategy = space.toStrategy(g);
            strategy.balance = current.balance;
            strategy.tatpSchedule = current.tatpSchedule;
            strategy.fsdpReduceScatterTree = current.fsdpReduceScatterTree && strategy.fsdp;
            strategy.extensions = current.extensions;
            Candidate candidate{g, strategy, strategyChanges(current, strategy),
                                evaluator.evaluate(strategy)};
            if (candidate.estimate.feasible && !candidate.estimate.memory.outOfMemory())
                fitting.push_back(candidate);
            visited.push_back(std::move(candidate));
        }
        std::stable_sort(visited.begin(), visited.end(),
                         [](const Candidate& a, const Candidate& b) {
                             return a.changes.size() < b.changes.size();
                         });
        return visited;
    };
    // A strategy written by hand may lie outside the space (a degree that divides nothing
    // after an edit): walk from the space's member nearest it, itself a candidate.
    const Genome origin = space.member(start);
    visit({origin});
    const std::vector<Candidate> ring1 = visit(space.neighbours(origin));
    if (static_cast<int>(fitting.size()) < count)
        for (std::size_t i = 0; i < ring1.size() && i < kRing2Parents; ++i)
            visit(space.neighbours(ring1[i].genome));

    std::sort(fitting.begin(), fitting.end(), [](const Candidate& a, const Candidate& b) {
        if (a.changes.size() != b.changes.size())
            return a.changes.size() < b.changes.size();
        if (a.estimate.stepS != b.estimate.stepS)
            return a.estimate.stepS < b.estimate.stepS;
        return a.genome.key() < b.genome.key();
    });
    std::vector<NearStrategy> offered;
    const double tokensPerStep = workload.tokensPerStep();
    const std::size_t simulations = static_cast<std::size_t>(count * kSimulatedPerOffer);
    for (std::size_t i = 0; i < fitting.size() && i < simulations; ++i) {
        const Candidate& candidate = fitting[i];
        StrategyScore score = analyticScore(candidate.strategy, candidate.estimate, tokensPerStep);
        const std::optional<SimulatedStep> step =
            simulateFitting(scenario, candidate.strategy, topology, cancel);
        if (!step)
            continue;
        score.simulatedStepS = step->stepS;
        score.tokensPerSecond = step->tokensPerSecond;
        score.memoryPerDieBytes = step->memoryPerDieBytes;
        score.fitsInSram = step->fitsInSram;
        std::string text;
        for (const std::string& change : candidate.changes)
            text += (text.empty() ? "" : ", ") + change;
        offered.push_back(
            {std::move(score), static_cast<int>(candidate.changes.size()), std::move(text)});
    }
    std::stable_sort(offered.begin(), offered.end(),
                     [](const NearStrategy& a, const NearStrategy& b) {
                         if (a.changes != b.changes)
                             return a.changes < b.changes;
                         return *a.score.simulatedStepS < *b.score.simulatedStepS;
                     });
    if (static_cast<int>(offered.size()) > count)
        offered.resize(static_cast<std::size_t>(count));
    return offered;
}

} // namespace ws
