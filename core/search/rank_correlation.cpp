#include "search/rank_correlation.h"

#include "parallel/thread_pool.h"
#include "scenario/scenario_error.h"
#include "scenario/workload.h"
#include "search/analytic_evaluator.h"
#include "search/search_space.h"
#include "search/strategy_scoring.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

namespace ws {

namespace {

std::vector<double> averageRanks(const std::vector<double>& values) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
            ++j;
        const double rank = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k)
            ranks[order[k]] = rank;
        i = j + 1;
    }
    return ranks;
}

} // namespace

double spearmanCorrelation(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size() || x.size() < 2)
        return 0.0;
    const std::vector<double> rx = averageRanks(x);
    const std::vector<double> ry = averageRanks(y);
    const double n = static_cast<double>(x.size());
    const double mean = (n + 1.0) / 2.0;
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        sxy += (rx[i] - mean) * (ry[i] - mean);
        sxx += (rx[i] - mean) * (rx[i] - mean);
        syy += (ry[i] - mean) * (ry[i] - mean);
    }
    if (sxx == 0.0 || syy == 0.0)
        return 0.0;
    return sxy / std::sqrt(sxx * syy);
}

RankAgreement measureRankAgreement(const Scenario& scenario, const WaferTopology& topology,
                                   int samples, std::uint64_t seed, int threads) {
    if (!scenario.workload)
        throw ScenarioError("workload", "the rank agreement needs a workload");
    const Workload& workload = *scenario.workload;
    const SearchSpace space(workload, topology);
    const AnalyticEvaluator evaluator(workload, scenario.wafer, topology, scenario.routingMode(),
                                      scenario.linkTierSpeeds(), scenario.tierProtocols());
    std::mt19937_64 rng(seed);
    std::vector<Genome> genomes;
    std::vector<AnalyticEstimate> estimates;
    std::set<std::uint64_t> seen;
    // Draw until enough valid strategies (or the space runs dry: at most 200 draws per sample).
    for (int draws = 0; static_cast<int>(genomes.size()) < samples && draws < 200 * samples;
         ++draws) {
        const Genome g = space.random(rng);
        if (!seen.insert(g.key()).second)
            continue;
        AnalyticEstimate e = evaluator.evaluate(space.toStrategy(g));
        if (!e.feasible)
            continue;
        genomes.push_back(g);
        estimates.push_back(std::move(e));
    }
    RankAgreement out;
    out.simulatedS.assign(genomes.size(), 0.0);
    ThreadPool pool(threads);
    pool.parallelFor(static_cast<int>(genomes.size()), [&](int i) {
        const auto index = static_cast<std::size_t>(i);
        out.simulatedS[index] =
            simulateStep(withStrategy(scenario, space.toStrategy(genomes[index])), topology).stepS;
    });
    for (std::size_t i = 0; i < genomes.size(); ++i) {
        out.labels.push_back(strategyLabel(space.toStrategy(genomes[i])));
        out.analyticS.push_back(estimates[i].stepS);
        const double error = std::abs(estimates[i].stepS - out.simulatedS[i]) / out.simulatedS[i];
        out.meanAbsRelativeError += error;
        out.maxAbsRelativeError = std::max(out.maxAbsRelativeError, error);
    }
    if (!genomes.empty())
        out.meanAbsRelativeError /= static_cast<double>(genomes.size());
    out.spearman = spearmanCorrelation(out.analyticS, out.simulatedS);
    return out;
}

} // namespace ws
