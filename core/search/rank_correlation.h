#pragma once

#include "scenario/scenario.h"
#include "topology/wafer_topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

// Spearman's rank correlation of two equally long samples (ties get their average rank);
// 0 for fewer than two values or a constant sample.
double spearmanCorrelation(const std::vector<double>& x, const std::vector<double>& y);

// How well the analytical model ranks strategies like the full simulator: `samples` distinct
// random strategies of the search space that are valid for the scenario's workload and wafer
// (drawn from `seed`), each evaluated both ways.
struct RankAgreement {
    std::vector<std::string> labels;
    std::vector<double> analyticS; // step times
    std::vector<double> simulatedS;
    double spearman = 0.0;
    double meanAbsRelativeError = 0.0; // mean of |analytic - simulated| / simulated
    double maxAbsRelativeError = 0.0;
};
RankAgreement measureRankAgreement(const Scenario& scenario, const WaferTopology& topology,
                                   int samples, std::uint64_t seed, int threads);

} // namespace ws
