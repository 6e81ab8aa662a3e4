#include "search/strategy_search.h"

#include "parallel/thread_pool.h"
#include "scenario/scenario_error.h"
#include "scenario/workload.h"
#include "search/analytic_evaluator.h"
#include "search/baselines.h"
#include "search/search_space.h"
#include "search/segment_plan.h"
#include "search/strategy_scoring.h"
#include "tcme/tcme_engine.h"
#include "units/quantity.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <map>
#include <random>

namespace ws {

namespace {

constexpr double kInfeasible = std::numeric_limits<double>::infinity();

// Every strategy evaluated analytically, by Genome::key(): the one memo of a search, so that no
// strategy is evaluated twice and the GA's budget counts distinct strategies only.
class EvaluationMemo {
public:
    EvaluationMemo(const AnalyticEvaluator& evaluator, const SearchSpace& space, ThreadPool& pool)
        : m_evaluator(evaluator), m_space(space), m_pool(pool) {}

    bool known(const Genome& g) const { return m_entries.count(g.key()) != 0; }

    // Evaluates the genomes not yet known, in parallel; returns how many were new. When `cancel`
    // fires, the remaining evaluations are skipped and false is returned in `completed`.
    int evaluate(const std::vector<Genome>& genomes, const std::function<bool()>& cancel,
                 bool& completed) {
        std::vector<Genome> fresh;
        for (const Genome& g : genomes)
            if (!known(g) && std::none_of(fresh.begin(), fresh.end(),
                                          [&](const Genome& f) { return f.key() == g.key(); }))
                fresh.push_back(g);
        std::vector<AnalyticEstimate> results(fresh.size());
        std::vector<char> done(fresh.size(), 0);
        std::atomic<bool> stop{false};
        m_pool.parallelFor(static_cast<int>(fresh.size()), [&](int i) {
            if (stop.load(std::memory_order_relaxed))
                return;
            if (cancel && cancel()) {
                stop = true;
                return;
            }
            const auto index = static_cast<std::size_t>(i);
            results[index] = m_evaluator.evaluate(m_space.toStrategy(fresh[index]));
            done[index] = 1;
        });
        completed = !stop.load();
        int added = 0;
        for (std::size_t i = 0; i < fresh.size(); ++i)
            if (done[i]) {
                m_entries.emplace(fresh[i].key(), Entry{fresh[i], std::move(results[i])});
                ++added;
            }
        return added;
    }

    const AnalyticEstimate& estimate(const Genome& g) const {
        return m_entries.at(g.key()).estimate;
    }

    // Lower is better: the analytical step time, or infinity when invalid or out of memory.
    double fitness(const Genome& g) const {
        const AnalyticEstimate& e = estimate(g);
        return e.feasible && !e.memory.outOfMemory() ? e.stepS : kInfeasible;
    }
    // Ranks out-of-memory strategies among themselves (after every one that fits): step time
    // times the memory overshoot, so that selection still leads towards strategies that fit.
    double overshootPenalty(const Genome& g) const {
        const AnalyticEstimate& e = estimate(g);
        if (!e.feasible)
            return kInfeasible;
        const double capacity = e.memory.sramCapacity + e.memory.hbmCapacity;
        return e.stepS * std::max(1.0, e.memory.total() / std::max(capacity, 1.0));
    }

    struct Entry {
        Genome genome;
        AnalyticEstimate estimate;
    };
    const std::map<std::uint64_t, Entry>& entries() const { return m_entries; }

private:
    const AnalyticEvaluator& m_evaluator;
    const SearchSpace& m_space;
    ThreadPool& m_pool;
    std::map<std::uint64_t, Entry> m_entries; // ordered: iteration is deterministic
};

// (fitness, out-of-memory penalty, key) ascending.
bool better(const EvaluationMemo& memo, const Genome& a, const Genome& b) {
    const double fa = memo.fitness(a), fb = memo.fitness(b);
    if (fa != fb)
        return fa < fb;
    const double pa = memo.overshootPenalty(a), pb = memo.overshootPenalty(b);
    if (pa != pb)
        return pa < pb;
    return a.key() < b.key();
}

// The genetic algorithm's state between generations.
class GeneticSearch {
public:
    GeneticSearch(const SearchSpace& space, EvaluationMemo& memo, const SearchOptions& options)
        : m_space(space), m_memo(memo), m_options(options), m_rng(options.seed),
          m_populationSize(std::max(4, options.population)) {}

    // Runs generations until the budget is spent, the space around the population is
    // exhausted, or `cancel` fires. Returns false when cancelled.
    bool run(const std::vector<Genome>& seeds, const std::function<bool()>& cancel,
             const std::function<void()>& afterGeneration) {
        std::vector<Genome> population;
        for (const Genome& g : seeds)
            if (static_cast<int>(population.size()) < m_populationSize / 2 &&
                !contains(population, g))
                population.push_back(g);
        for (int attempts = 0; static_cast<int>(population.size()) < m_populationSize &&
                               attempts < 50 * m_populationSize;
             ++attempts) {
            const Genome g = m_space.random(m_rng);
            if (!contains(population, g))
                population.push_back(g);
        }
        int idleGenerations = 0;
        while (true) {
            const int remaining = gaBudget() - m_evaluations;
            std::vector<Genome> toEvaluate;
            int fresh = 0;
            for (const Genome& g : population)
                if (!m_memo.known(g) && fresh < remaining && !contains(toEvaluate, g)) {
                    toEvaluate.push_back(g);
                    ++fresh;
                }
            bool completed = true;
            const int added = m_memo.evaluate(toEvaluate, cancel, completed);
            m_evaluations += added;
            for (const Genome& g : toEvaluate)
                if (m_memo.known(g))
                    m_visited.push_back(g);
            if (!completed)
                return false;
            // Unevaluated genomes (over budget) drop out.
            std::erase_if(population, [&](const Genome& g) { return !m_memo.known(g); });
            std::sort(population.begin(), population.end(),
                      [&](const Genome& a, const Genome& b) { return better(m_memo, a, b); });
            for (const Genome& g : population)
                if (!m_best || better(m_memo, g, *m_best))
                    m_best = g;
            if (afterGeneration)
                afterGeneration();
            idleGenerations = added == 0 ? idleGenerations + 1 : 0;
            if (m_evaluations >= gaBudget() || idleGenerations >= 8 || population.empty())
                return localSearch(population, cancel, afterGeneration);
            if (cancel && cancel())
                return false;
            population = nextGeneration(population);
        }
    }

    int evaluations() const { return m_evaluations; }
    const std::optional<Genome>& best() const { return m_best; }
    // Every genome the GA and its local search evaluated, in evaluation order.
    const std::vector<Genome>& visited() const { return m_visited; }

    // Memetic finish: hill-climb from the GA's best genome and from the best ones of up to two
    // other degree tuples of the final population, each step evaluating every neighbour
    // (SearchSpace::neighbours) and moving to the best while it improves, within the rest of
    // the budget.
    bool localSearch(const std::vector<Genome>& sorted, const std::function<bool()>& cancel,
                     const std::function<void()>& after) {
        std::vector<Genome> starts;
        if (m_best)
            starts.push_back(*m_best);
        for (const Genome& g : sorted) {
            if (starts.size() >= 3)
                break;
            if (std::none_of(starts.begin(), starts.end(), [&](const Genome& s) {
                    return s.pp == g.pp && s.dp == g.dp && s.sp == g.sp && s.tp == g.tp &&
                           s.tatp == g.tatp;
                }))
                starts.push_back(g);
        }
        for (Genome current : starts) {
            while (m_evaluations < m_options.budget) {
                const std::vector<Genome> around = m_space.neighbours(current);
                std::vector<Genome> fresh;
                for (const Genome& n : around)
                    if (!m_memo.known(n) &&
                        static_cast<int>(fresh.size()) < m_options.budget - m_evaluations)
                        fresh.push_back(n);
                bool completed = true;
                m_evaluations += m_memo.evaluate(fresh, cancel, completed);
                for (const Genome& g : fresh)
                    if (m_memo.known(g))
                        m_visited.push_back(g);
                if (!completed)
                    return false;
                const Genome before = current;
                for (const Genome& n : around)
                    if (m_memo.known(n) && better(m_memo, n, current))
                        current = n;
                if (!m_best || better(m_memo, current, *m_best))
                    m_best = current;
                if (after)
                    after();
                if (current == before)
                    break;
            }
        }
        return true;
    }

private:
    // The genetic algorithm's share of the budget; the rest is for the local search.
    int gaBudget() const { return std::max(1, m_options.budget * 3 / 4); }

    static bool contains(const std::vector<Genome>& genomes, const Genome& g) {
        return std::find(genomes.begin(), genomes.end(), g) != genomes.end();
    }

    // Tournament of three on the sorted population: the lowest index drawn wins.
    const Genome& select(const std::vector<Genome>& sorted) {
        std::uniform_int_distribution<std::size_t> index(0, sorted.size() - 1);
        std::size_t winner = index(m_rng);
        for (int i = 1; i < 3; ++i)
            winner = std::min(winner, index(m_rng));
        return sorted[winner];
    }

    std::vector<Genome> nextGeneration(const std::vector<Genome>& sorted) {
        std::vector<Genome> next;
        // Elitism: the best eighth (at least 2) survive unchanged.
        const std::size_t elites =
            std::min(sorted.size(), static_cast<std::size_t>(std::max(2, m_populationSize / 8)));
        next.insert(next.end(), sorted.begin(), sorted.begin() + static_cast<long>(elites));
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        for (int attempts = 0;
             static_cast<int>(next.size()) < m_populationSize && attempts < 40 * m_populationSize;
             ++attempts) {
            Genome child = select(sorted);
            if (unit(m_rng) < 0.7)
                child = m_space.crossover(child, select(sorted), m_rng);
            if (unit(m_rng) < 0.8)
                child = m_space.mutate(child, m_rng);
            // Prefer strategies not seen yet; after many tries accept a known one (it is free).
            for (int retry = 0; retry < 6 && m_memo.known(child); ++retry)
                child = m_space.mutate(child, m_rng);
            if (unit(m_rng) < 0.05) // a random immigrant keeps diversity on rugged spaces
                child = m_space.random(m_rng);
            if (!contains(next, child))
                next.push_back(child);
        }
        return next;
    }

    const SearchSpace& m_space;
    EvaluationMemo& m_memo;
    const SearchOptions& m_options;
    std::mt19937_64 m_rng;
    int m_populationSize;
    int m_evaluations = 0;
    std::optional<Genome> m_best;
    std::vector<Genome> m_visited;
};

StrategyScore scoreOf(const SearchSpace& space, const EvaluationMemo& memo, const Genome& g,
                      double tokensPerStep) {
    return analyticScore(space.toStrategy(g), memo.estimate(g), tokensPerStep);
}

void applySimulation(StrategyScore& score, const SimulatedStep& simulated) {
    score.simulatedStepS = simulated.stepS;
    score.tokensPerSecond = simulated.tokensPerSecond;
    score.memoryPerDieBytes = simulated.memoryPerDieBytes;
    score.outOfMemory = simulated.outOfMemory;
    score.fitsInSram = simulated.fitsInSram;
}

} // namespace

SearchResult searchStrategies(const Scenario& scenario, const WaferTopology& topology,
                              const SearchOptions& options, const std::function<bool()>& cancel,
                              const std::function<void(const SearchProgress&)>& progress) {
    if (!scenario.workload)
        throw ScenarioError("workload", "the strategy search needs a workload");
    if (options.budget < 1)
        throw ScenarioError("", "the search budget must be at least 1 evaluation");
    const auto start = std::chrono::steady_clock::now();
    auto elapsedS = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    const Workload& workload = *scenario.workload;
    const double tokensPerStep = workload.tokensPerStep();
    const SearchSpace space(workload, topology);
    const AnalyticEvaluator evaluator(workload, scenario.wafer, topology, scenario.routingMode(),
                                      scenario.linkTierSpeeds(), scenario.tierProtocols());
    ThreadPool pool(options.threads);
    EvaluationMemo memo(evaluator, space, pool);
    SearchResult result;
    bool completed = true;

    // Level 1: per-segment splits by dynamic programming; its uniform strategies seed level 2.
    std::vector<Genome> seeds;
    {
        const std::vector<SegmentPlan> plans =
            planSegments(evaluator, space, pool, result.otherEvaluations);
        for (std::size_t i = 0; i < plans.size() && i < 3; ++i) {
            if (i == 0)
                result.segmentPlan = plans[i].lines;
            for (const Genome& g : plans[i].seeds)
                seeds.push_back(space.repair(g));
        }
        memo.evaluate(seeds, cancel, completed);
    }

    // Baselines: each family's best under the analytical model (also GA seeds: the search
    // starts no worse than the systems it is compared with).
    const std::vector<BaselineFamily> families = baselineFamilies();
    std::vector<std::optional<Genome>> baselineBest(families.size());
    std::vector<std::string> whyNot(families.size());
    for (std::size_t f = 0; f < families.size() && completed; ++f) {
        const std::vector<Genome> members = space.enumerate(families[f].contains);
        result.otherEvaluations += memo.evaluate(members, cancel, completed);
        if (!completed)
            break;
        const Genome* leanest = nullptr;
        std::string firstProblem;
        for (const Genome& g : members) {
            const AnalyticEstimate& e = memo.estimate(g);
            if (!e.feasible) {
                if (firstProblem.empty())
                    firstProblem = e.whyNot;
                continue;
            }
            if (!leanest || e.memory.total() < memo.estimate(*leanest).memory.total())
                leanest = &g;
            if (!e.memory.outOfMemory() && (!baselineBest[f] || better(memo, g, *baselineBest[f])))
                baselineBest[f] = g;
        }
        if (baselineBest[f])
            seeds.push_back(*baselineBest[f]);
        else if (leanest)
            whyNot[f] = "out of memory: its leanest configuration (" +
                        strategyLabel(space.toStrategy(*leanest)) + ") needs " +
                        formatBytes(memo.estimate(*leanest).memory.total()) +
                        " per die, more than SRAM + HBM (" +
                        formatBytes(scenario.wafer.die.sram.value + scenario.wafer.die.hbm.value) +
                        ")";
        else
            whyNot[f] = "no valid configuration on this wafer" +
                        (firstProblem.empty() ? std::string() : ": " + firstProblem);
    }

    // Level 2: the genetic algorithm.
    GeneticSearch ga(space, memo, options);
    std::size_t reportedVisits = 0;
    if (completed) {
        completed = ga.run(seeds, cancel, [&] {
            if (!progress)
                return;
            SearchProgress p;
            for (; reportedVisits < ga.visited().size(); ++reportedVisits) {
                const Genome& g = ga.visited()[reportedVisits];
                if (memo.estimate(g).feasible)
                    p.newCandidates.push_back(scoreOf(space, memo, g, tokensPerStep));
            }
            p.evaluations = ga.evaluations();
            p.budget = options.budget;
            p.bestStepS = ga.best() && memo.fitness(*ga.best()) < kInfeasible
                              ? memo.fitness(*ga.best())
                              : 0.0;
            p.elapsedS = elapsedS();
            p.remainingS = p.evaluations > 0 ? p.elapsedS / p.evaluations *
                                                   std::max(0, options.budget - p.evaluations)
                                             : 0.0;
            progress(p);
        });
    }
    result.evaluations = ga.evaluations();
    result.cancelled = !completed;

    // Every distinct strategy evaluated, best first (the scatter plot), and the ranking.
    std::vector<Genome> ranked;
    for (const auto& [key, entry] : memo.entries())
        if (entry.estimate.feasible)
            ranked.push_back(entry.genome);
    std::sort(ranked.begin(), ranked.end(),
              [&](const Genome& a, const Genome& b) { return better(memo, a, b); });
    for (const Genome& g : ranked)
        result.candidates.push_back(scoreOf(space, memo, g, tokensPerStep));
    if (ranked.empty()) {
        std::string problem;
        for (const auto& [key, entry] : memo.entries())
            if (problem.empty())
                problem = entry.estimate.whyNot;
        throw std::runtime_error("no strategy of the search space is valid for this workload on "
                                 "this wafer" +
                                 (problem.empty() ? std::string() : " (e.g. " + problem + ")"));
    }

    // The best analytical candidates and the baselines, simulated in full (in parallel).
    std::vector<Genome> top;
    for (const Genome& g : ranked)
        if (static_cast<int>(top.size()) < std::max(1, options.topK) &&
            (memo.fitness(g) < kInfeasible || top.empty()))
            top.push_back(g);
    std::vector<Genome> toSimulate = top;
    for (const auto& b : baselineBest)
        if (b)
            toSimulate.push_back(*b);
    std::vector<std::optional<SimulatedStep>> simulated(toSimulate.size());
    if (completed) {
        pool.parallelFor(static_cast<int>(toSimulate.size()), [&](int i) {
            const auto index = static_cast<std::size_t>(i);
            try {
                simulated[index] = simulateStep(
                    withStrategy(scenario, space.toStrategy(toSimulate[index])), topology, cancel);
            } catch (const std::runtime_error&) {
                // cancelled (or a strategy the simulator refuses): stays analytical
            }
        });
        result.simulations += static_cast<int>(toSimulate.size());
        if (cancel && cancel())
            result.cancelled = true;
    }
    std::vector<std::pair<StrategyScore, Genome>> topScores;
    for (std::size_t i = 0; i < top.size(); ++i) {
        StrategyScore score = scoreOf(space, memo, top[i], tokensPerStep);
        if (simulated[i])
            applySimulation(score, *simulated[i]);
        topScores.emplace_back(std::move(score), top[i]);
    }
    // Best by simulated step time (analytical where not simulated), out-of-memory last.
    std::stable_sort(topScores.begin(), topScores.end(), [](const auto& a, const auto& b) {
        if (a.first.outOfMemory != b.first.outOfMemory)
            return !a.first.outOfMemory;
        return a.first.simulatedStepS.value_or(a.first.analyticStepS) <
               b.first.simulatedStepS.value_or(b.first.analyticStepS);
    });
    for (const auto& [score, genome] : topScores)
        result.top.push_back(score);
    result.best = result.top.front();
    result.bestScenario = withStrategy(scenario, space.toStrategy(topScores.front().second));

    for (std::size_t f = 0; f < families.size(); ++f) {
        BaselineScore baseline{families[f].name, families[f].family, std::nullopt, whyNot[f]};
        if (baselineBest[f]) {
            StrategyScore score = scoreOf(space, memo, *baselineBest[f], tokensPerStep);
            const std::size_t index =
                top.size() + static_cast<std::size_t>(std::count_if(
                                 baselineBest.begin(), baselineBest.begin() + static_cast<long>(f),
                                 [](const auto& b) { return b.has_value(); }));
            if (simulated[index])
                applySimulation(score, *simulated[index]);
            baseline.score = score;
        } else if (baseline.whyNot.empty()) {
            baseline.whyNot = "not evaluated (search cancelled)";
        }
        result.baselines.push_back(std::move(baseline));
    }

    // TCME polish of the winner: reroute its hot flows; keep the tuned routes if the step is
    // faster with them.
    if (!result.cancelled && options.polishWithTcme && result.best.simulatedStepS &&
        workload.kind == WorkloadKind::Transformer) {
        try {
            TcmeOptions tcme = tcmeOptionsFrom(result.bestScenario);
            tcme.spec.maxIter = std::min(tcme.spec.maxIter, std::max(0, options.tcmeMaxIter));
            TcmeEngine engine(result.bestScenario, topology, tcme);
            engine.run(cancel);
            const Scenario& tuned = engine.tunedScenario();
            if (!(tuned == result.bestScenario)) {
                const SimulatedStep step = simulateStep(tuned, topology, cancel);
                ++result.simulations;
                if (step.stepS < *result.best.simulatedStepS) {
                    result.bestScenario = tuned;
                    applySimulation(result.best, step);
                    result.best.strategy = *tuned.strategy;
                    result.best.label = strategyLabel(*tuned.strategy);
                    // The ranking's first row is the winner too: one number for it in the
                    // search's text, its table and Apply (docs/search.md).
                    result.top.front() = result.best;
                    result.tcmeImproved = true;
                }
            }
            result.notes.push_back(
                "TCME: " + std::to_string(engine.iterations().size()) +
                " iteration(s) on the winner, " +
                (result.tcmeImproved ? "routes kept" : "no faster routing found"));
        } catch (const std::exception& error) {
            result.notes.push_back(std::string("TCME polish skipped: ") + error.what());
        }
    }
    if (memo.fitness(ranked.front()) == kInfeasible)
        result.notes.push_back("no strategy fits in memory: the best shown is out of memory");
    if (result.cancelled)
        result.notes.push_back("cancelled: the best analytical candidate so far");
    return result;
}

} // namespace ws
